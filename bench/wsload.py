"""WebSocket load for `bench fanout`: the clients, and the bare broadcast server.

No Django here: this module runs as its own process (`python -m bench.wsload ...`)
so the clients and the baseline server each get a core of their own.

- `clients CONFIG_JSON`: open N clients on one URL, then make the changes through a
  trigger socket; print one JSON line with every latency. Latency = time of receipt at
  a client minus the time the trigger sent the change, both read from this process's
  clock; a change is known by the `version` of the payload it produces.
- `baseline PORT PAYLOAD_FILE`: a bare `websockets` server that sends the payload on
  connect and, on every `{"type": "control"}` message, broadcasts it with the version
  bumped to every connection (`websockets.broadcast`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve

VERSION = re.compile(r'"version":\s*(\d+)')
CONNECTING_AT_ONCE = 50


def _run(main: Callable[[], Awaitable[Any]]) -> Any:
    """Run on uvloop when it is installed: the loop uvicorn uses, so both sides match."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main())
    return uvloop.run(main())


def raise_file_limit() -> None:
    """A thousand sockets need a thousand descriptors: lift the soft limit to the hard."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _version(message: str | bytes) -> int | None:
    text = message.decode() if isinstance(message, bytes) else message
    found = VERSION.search(text)
    return int(found.group(1)) if found else None


async def run_clients(
    *,
    url: str,
    trigger_url: str,
    origin: str,
    clients: int,
    messages: list[dict[str, Any]],
    cookie: str = "",
    settle: float = 0.2,
    deadline: float = 15.0,
) -> dict[str, Any]:
    """Connect `clients` sockets, send each of `messages` through the trigger socket in
    turn, wait for the change to reach everybody (or `deadline`), and report."""
    received: list[dict[int, float]] = [{} for _ in range(clients)]
    counts: dict[int, int] = {}
    complete: dict[int, asyncio.Event] = {}
    opened = 0
    all_open = asyncio.Event()
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    stop = asyncio.Event()
    failures: list[str] = []

    def arrived(index: int, version: int, at: float) -> None:
        mine = received[index]
        if version in mine:
            return
        mine[version] = at
        counts[version] = counts.get(version, 0) + 1
        if counts[version] == clients:
            complete.setdefault(version, asyncio.Event()).set()

    async def client(index: int) -> None:
        nonlocal opened
        try:
            async with gate:
                socket = await connect(
                    url, origin=origin, proxy=None, open_timeout=120, ping_interval=None
                )
                first = await socket.recv()
            version = _version(first)
            if version is not None:
                arrived(index, version, time.monotonic())
            opened += 1
            if opened == clients:
                all_open.set()
            async with socket:
                receiving = asyncio.ensure_future(_listen(socket, index))
                await stop.wait()
                receiving.cancel()
        except Exception as exc:  # noqa: BLE001 - counted and reported, never hidden
            failures.append(f"client {index}: {exc!r}")
            opened += 1
            if opened == clients:
                all_open.set()

    async def _listen(socket: ClientConnection, index: int) -> None:
        async for message in socket:
            at = time.monotonic()
            version = _version(message)
            if version is not None:
                arrived(index, version, at)

    started = time.monotonic()
    tasks = [asyncio.ensure_future(client(i)) for i in range(clients)]
    await all_open.wait()
    connect_s = time.monotonic() - started

    headers = {"Cookie": cookie} if cookie else {}
    trigger = await connect(
        trigger_url, origin=origin, proxy=None, additional_headers=headers, ping_interval=None
    )
    replies: list[str] = []
    current = _version(await trigger.recv())

    async def read_replies() -> None:
        async for message in trigger:
            if '"type": "error"' in str(message):
                replies.append(str(message))

    reading = asyncio.ensure_future(read_replies())
    sent: list[tuple[int, float]] = []
    for message in messages:
        if current is None:
            break
        current += 1
        event = complete.setdefault(current, asyncio.Event())
        at = time.monotonic()
        await trigger.send(json.dumps(message))
        sent.append((current, at))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), deadline)
        await asyncio.sleep(settle)
    reading.cancel()
    await trigger.close()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)

    latencies = [
        (mine[version] - at) * 1000 for version, at in sent for mine in received if version in mine
    ]
    spread = []
    for version, at in sent:
        mine = sorted((m[version] - at) * 1000 for m in received if version in m)
        if mine:
            spread.append([round(mine[0], 1), round(mine[len(mine) // 2], 1), round(mine[-1], 1)])
    return {
        "per_change_ms": spread,
        "clients": clients,
        "changes": len(sent),
        "connected": clients - len(failures),
        "connect_s": round(connect_s, 2),
        "delivered": len(latencies),
        "expected": clients * len(messages),
        "latencies_ms": latencies,
        "errors": (failures + replies)[:5],
    }


async def serve_baseline(port: int, payload: dict[str, Any]) -> None:
    connections: set[ServerConnection] = set()
    state = {"payload": payload}

    async def handler(socket: ServerConnection) -> None:
        connections.add(socket)
        try:
            await socket.send(json.dumps(state["payload"]))
            async for message in socket:
                try:
                    data = json.loads(message)
                except ValueError:
                    continue
                if isinstance(data, dict) and data.get("type") == "control":
                    fresh = {**state["payload"], "version": state["payload"]["version"] + 1}
                    state["payload"] = fresh
                    broadcast(connections, json.dumps(fresh))
        finally:
            connections.discard(socket)

    async with serve(handler, "127.0.0.1", port, backlog=4096, ping_interval=None):
        await asyncio.Future()


def main(argv: list[str]) -> None:
    raise_file_limit()
    if argv[:1] == ["clients"]:
        config = json.loads(argv[1])
        result = _run(lambda: run_clients(**config))
        sys.stdout.write(json.dumps(result) + "\n")
    elif argv[:1] == ["baseline"]:
        with open(argv[2]) as handle:
            payload = json.load(handle)
        _run(lambda: serve_baseline(int(argv[1]), payload))
    else:
        raise SystemExit("usage: python -m bench.wsload clients CONFIG | baseline PORT FILE")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main(sys.argv[1:])

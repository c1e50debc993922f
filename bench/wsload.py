"""WebSocket load for `bench fanout`: the clients, and the bare broadcast server.

No Django here: this module runs as its own process (`python -m bench.wsload ...`)
so the clients and the baseline server each get a core of their own.

- `clients CONFIG_FILE OUT_FILE`: open N clients on one URL, then make the changes
  through a trigger socket or the site's forms; write one JSON object with every
  latency to OUT_FILE (a file, not a pipe: the figures outgrow a pipe's buffer).
  Latency = time of receipt at a client minus the time the change was sent, both read
  from this process's clock; a change is known by the `version` of the clock state it
  produces, or as the k-th push of its type.
- `reconnect CONFIG_FILE OUT_FILE`: open N clients, then ride out a server restart as
  screen.js does and report how long until every one shows the new state.
- `baseline PORT PAYLOAD_FILE`: a bare `websockets` server that sends the clock state on
  connect and, on every `{"type": "control"}` message, broadcasts the same push bytes
  the real server sent (or the clock state it pushed, with its version bumped) to every
  connection (`websockets.broadcast`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve

from bench.liveserver import Browser

VERSION = re.compile(r'"version":\s*(\d+)')
KIND = re.compile(r'\{"type":\s*"(\w+)"')
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


def _kind(message: str | bytes) -> str | None:
    text = message.decode() if isinstance(message, bytes) else message
    found = KIND.match(text)
    return found.group(1) if found else None


async def _post(browser: Browser, post: dict[str, Any]) -> str | None:
    """Make one change through the site, as a browser's form does; an error or None."""
    answer = await asyncio.to_thread(browser.post, post["path"], post["form"])
    if answer.status >= 400:
        return f"POST {post['path']} answered {answer.status}"
    return None


async def run_clients(
    *,
    url: str,
    origin: str,
    clients: int,
    trigger_url: str = "",
    messages: list[dict[str, Any]] | None = None,
    posts: list[dict[str, Any]] | None = None,
    base_url: str = "",
    cookie: str = "",
    match: str = "version",
    expect_version: int | None = None,
    settle: float = 0.2,
    deadline: float = 15.0,
    warmup: int = 0,
) -> dict[str, Any]:
    """Connect `clients` sockets, make each change in turn, wait for it to reach everybody
    (or `deadline`), and report.

    A change is made by a message on the trigger socket (`messages`, as the console's
    socket does) or by a form posted to the site (`posts`, with the staff `cookie`).
    `match`: "version" knows a change by the version of the clock state it produces;
    a push type ("elimination", "move") knows the k-th change as the k-th push of that
    type at each client. `expect_version`: the state every socket must show on connect
    (counted in `connect_right`). The first `warmup` changes are made and awaited like the
    others but not timed or counted: the server's first run of a path (its templates
    compiled, its statements prepared) is not the steady state being measured."""
    changes = messages if messages is not None else (posts or [])
    received: list[dict[int, float]] = [{} for _ in range(clients)]
    seen: list[int] = [0] * clients  # pushes of the matched type per client
    counts: dict[int, int] = {}
    complete: dict[int, asyncio.Event] = {}
    opened = 0
    right = 0
    all_open = asyncio.Event()
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    stop = asyncio.Event()
    failures: list[str] = []
    sample: list[str] = []

    def arrived(index: int, version: int, at: float) -> None:
        mine = received[index]
        if version in mine:
            return
        mine[version] = at
        counts[version] = counts.get(version, 0) + 1
        if counts[version] == clients:
            complete.setdefault(version, asyncio.Event()).set()

    def heard(index: int, message: str | bytes, at: float) -> None:
        if match == "version":
            version = _version(message)
            if version is not None:
                arrived(index, version, at)
        elif _kind(message) == match:
            seen[index] += 1
            arrived(index, seen[index], at)
            if not sample:
                sample.append(message if isinstance(message, str) else message.decode())

    async def client(index: int) -> None:
        nonlocal opened, right
        try:
            async with gate:
                socket = await connect(
                    url, origin=origin, proxy=None, open_timeout=120, ping_interval=None
                )
                first = await socket.recv()
            if expect_version is None or _version(first) == expect_version:
                right += 1
            if match == "version":
                heard(index, first, time.monotonic())
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
            heard(index, message, time.monotonic())
            if match == "version" and not sample:  # a clock change's push, as sent
                sample.append(message if isinstance(message, str) else message.decode())

    started = time.monotonic()
    tasks = [asyncio.ensure_future(client(i)) for i in range(clients)]
    await all_open.wait()
    connect_s = time.monotonic() - started

    replies: list[str] = []
    sent: list[tuple[int, float]] = []
    if posts is not None:
        browser = Browser(base_url, cookies=dict(_cookies(cookie)))
        for current, post in enumerate(changes, start=1):
            event = complete.setdefault(current, asyncio.Event())
            at = time.monotonic()
            error = await _post(browser, post)
            if error:
                replies.append(error)
            if current > warmup:
                sent.append((current, at))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), deadline)
            await asyncio.sleep(settle)
        browser.close()
    else:
        headers = {"Cookie": cookie} if cookie else {}
        trigger = await connect(
            trigger_url, origin=origin, proxy=None, additional_headers=headers, ping_interval=None
        )
        first_state = _version(await trigger.recv())
        current = first_state if match == "version" else 0

        async def read_replies() -> None:
            async for message in trigger:
                if '"type": "error"' in str(message):
                    replies.append(str(message))

        reading = asyncio.ensure_future(read_replies())
        for index, message in enumerate(changes, start=1):
            if current is None:
                break
            current += 1
            event = complete.setdefault(current, asyncio.Event())
            at = time.monotonic()
            await trigger.send(json.dumps(message))
            if index > warmup:
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
    fanned: list[float] = []  # after the first screen had it: the fan-out alone
    for version, at in sent:
        mine = sorted((m[version] - at) * 1000 for m in received if version in m)
        if mine:
            spread.append([round(mine[0], 1), round(mine[len(mine) // 2], 1), round(mine[-1], 1)])
            fanned += [value - mine[0] for value in mine]
    return {
        "per_change_ms": spread,
        "clients": clients,
        "changes": len(sent),
        "connected": clients - len(failures),
        "connect_s": round(connect_s, 2),
        "connect_right": right,
        "delivered": len(latencies),
        "expected": clients * (len(changes) - warmup),
        "latencies_ms": latencies,
        "fanout_ms": fanned,
        "sample": sample[0] if sample else None,
        "errors": (failures + replies)[:5],
    }


def _cookies(header: str) -> list[tuple[str, str]]:
    pairs = [part.strip().partition("=") for part in header.split(";") if "=" in part]
    return [(name, value) for name, _eq, value in pairs]


async def serve_baseline(
    port: int,
    payload: dict[str, Any],
    push: str | None = None,
    clock_push: dict[str, Any] | None = None,
) -> None:
    """Send `payload` (a clock state) on connect; on every control message broadcast
    `push` as it is (the same bytes the server sent), or else the clock state the server
    pushed (`clock_push`, by default the state sent on connect) with its version bumped."""
    connections: set[ServerConnection] = set()
    state = {"payload": clock_push or payload}

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
                    if push is not None:
                        broadcast(connections, push)
                        continue
                    fresh = {**state["payload"], "version": state["payload"]["version"] + 1}
                    state["payload"] = fresh
                    broadcast(connections, json.dumps(fresh))
        finally:
            connections.discard(socket)

    # The same frames as the real server's: uncompressed (bin/serve turns per-message
    # deflate off), so both sides of the comparison write and read the same bytes.
    async with serve(
        handler, "127.0.0.1", port, backlog=4096, ping_interval=None, compression=None
    ):
        await asyncio.Future()


async def run_reconnect(
    *,
    url: str,
    origin: str,
    clients: int,
    ready_file: str,
    deadline: float = 60.0,
) -> dict[str, Any]:
    """Connect `clients` screens, write `ready_file`, then ride out a server restart as
    screen.js does (backoff with jitter, capped at 2 s): report how long from the first
    lost socket until every screen shows a state newer than the one it had (the clock
    is changed while the server is down)."""
    versions: list[int] = [-1] * clients
    before: list[int] = [-1] * clients
    synced_at: list[float | None] = [None] * clients
    attempts = [0] * clients
    failures: list[str] = []
    opened = 0
    all_open = asyncio.Event()
    all_synced = asyncio.Event()
    lost: list[float] = []
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    synced = 0

    def state(index: int, message: str | bytes, at: float) -> None:
        nonlocal synced
        version = _version(message)
        if version is None:
            return
        versions[index] = max(versions[index], version)
        if before[index] >= 0 and synced_at[index] is None and version > before[index]:
            synced_at[index] = at
            synced += 1
            if synced == clients:
                all_synced.set()

    joined = [False] * clients

    async def session(index: int, first: bool) -> None:
        nonlocal opened
        if first:
            async with gate:
                socket = await connect(
                    url, origin=origin, proxy=None, open_timeout=120, ping_interval=None
                )
        else:
            socket = await connect(
                url, origin=origin, proxy=None, open_timeout=10, ping_interval=None
            )
        async with socket:
            state(index, await socket.recv(), time.monotonic())
            if first:
                joined[index] = True
                opened += 1
                if opened == clients:
                    all_open.set()
            async for message in socket:
                state(index, message, time.monotonic())

    async def screen(index: int) -> None:
        nonlocal opened
        first = True
        retries = 0
        while not all_synced.is_set():
            try:
                await session(index, first)
            except Exception as exc:  # noqa: BLE001 - a lost or refused connection: again
                if not joined[index]:
                    failures.append(f"client {index}: {exc!r}")
                    opened += 1
                    if opened == clients:
                        all_open.set()
                    return
            if first:
                first = False
            if not lost:
                lost.append(time.monotonic())
            if before[index] < 0:
                before[index] = versions[index]
            # screen.js: exponential backoff with jitter from 0.5 s, capped at 2 s in the
            # first minute.
            base = min(2.0, 0.5 * 2**retries)
            retries += 1
            attempts[index] += 1
            await asyncio.sleep(base / 2 + random.random() * base / 2)

    started = time.monotonic()
    tasks = [asyncio.ensure_future(screen(i)) for i in range(clients)]
    await all_open.wait()
    connect_s = time.monotonic() - started
    with open(ready_file, "w") as handle:
        handle.write(json.dumps({"connect_s": round(connect_s, 2)}))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_synced.wait(), deadline)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    back = sorted(at - lost[0] for at in synced_at if at is not None) if lost else []
    return {
        "clients": clients,
        "connected": clients - len(failures),
        "connect_s": round(connect_s, 2),
        "synced": len(back),
        "resync_s": round(back[-1], 2) if back and len(back) == clients else None,
        "resync_p50_s": round(back[len(back) // 2], 2) if back else None,
        "attempts_max": max(attempts) if attempts else 0,
        "errors": failures[:5],
    }


def main(argv: list[str]) -> None:
    raise_file_limit()
    if argv[:1] in (["clients"], ["reconnect"]):
        with open(argv[1]) as handle:
            config = json.load(handle)
        run = run_clients if argv[0] == "clients" else run_reconnect
        result = _run(lambda: run(**config))
        # To a file, not a pipe: a thousand clients' latencies are far more than a pipe holds.
        with open(argv[2], "w") as handle:
            json.dump(result, handle)
    elif argv[:1] == ["baseline"]:
        with open(argv[2]) as handle:
            given = json.load(handle)
        _run(
            lambda: serve_baseline(
                int(argv[1]), given["initial"], given.get("push"), given.get("clock_push")
            )
        )
    else:
        raise SystemExit(
            "usage: python -m bench.wsload clients|reconnect CONFIG_FILE OUT_FILE"
            " | baseline PORT FILE"
        )


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main(sys.argv[1:])

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
  connect and, on every `{"type": "control"}` message, broadcasts the text it carries
  (the very bytes a change of the real server brought; else the file's own "push") to
  every connection (`websockets.broadcast`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import random
import re
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode, urlsplit

import h11
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve

from bench.liveserver import keep_cookies

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


class FormPoster:
    """A browser's form posts, on this process's event loop: one kept-alive connection,
    a cookie jar, the CSRF token from its cookie (as bench.liveserver.Browser posts them).

    Not a thread: a post waited on in a thread of this process took the interpreter's
    lock from the loop reading the thousand sockets whenever its answer came, in the
    middle of the fan-out being timed (the bare broadcast, triggered by a socket on the
    loop, had no such thread). h11 (uvicorn's own HTTP/1.1 parser) reads the answer."""

    def __init__(self, base_url: str, cookies: dict[str, str]) -> None:
        parts = urlsplit(base_url)
        self.origin = base_url.rstrip("/")
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.cookies = dict(cookies)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.http = h11.Connection(h11.CLIENT)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def post(self, path: str, form: dict[str, str]) -> int:
        """Post `form` to `path`; the answer's status. A kept-alive connection the server
        closed while idle is opened again and the form posted on it, as a browser does."""
        reused = self.writer is not None and self.http.our_state is h11.IDLE
        if not reused:
            await self._open()
        try:
            return await self._post(path, form)
        except (h11.RemoteProtocolError, ConnectionError):
            if not reused:
                raise
        await self._open()
        return await self._post(path, form)

    async def _open(self) -> None:
        await self.close()
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.http = h11.Connection(h11.CLIENT)

    async def _post(self, path: str, form: dict[str, str]) -> int:
        assert self.reader is not None and self.writer is not None
        body = urlencode({"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **form})
        headers = [
            ("Host", f"{self.host}:{self.port}"),
            ("Accept-Language", "en"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", self.origin),
            ("Content-Length", str(len(body))),
        ]
        if self.cookies:
            headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        self.writer.write(
            self.http.send(h11.Request(method="POST", target=path, headers=headers))
            + self.http.send(h11.Data(data=body.encode()))
            + self.http.send(h11.EndOfMessage())
        )
        status = 0
        while True:
            event = self.http.next_event()
            if event is h11.NEED_DATA:
                self.http.receive_data(await self.reader.read(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
                keep_cookies(
                    self.cookies,
                    [v.decode("latin-1") for k, v in event.headers if k.lower() == b"set-cookie"],
                )
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("the server closed the connection before answering")
        if self.http.our_state is h11.DONE and self.http.their_state is h11.DONE:
            self.http.start_next_cycle()
        else:
            await self.close()
        return status


async def _post(browser: FormPoster, post: dict[str, Any]) -> str | None:
    """Make one change through the site, as a browser's form does; an error or None."""
    status = await browser.post(post["path"], post["form"])
    if status >= 400 or status == 0:
        return f"POST {post['path']} answered {status or 'nothing'}"
    return None


class _Audience:
    """`clients` sockets on one server: how each change reached them.

    A change is known by a key: the version of the clock state it produces (`match`
    "version"), or k for the k-th push of the type `match` at each client. The text of
    the first receipt of each change is kept (`texts`): the bare server broadcasts those
    very bytes."""

    def __init__(
        self, *, url: str, origin: str, clients: int, match: str, expect_version: int | None
    ) -> None:
        self.url, self.origin, self.clients = url, origin, clients
        self.match, self.expect_version = match, expect_version
        self.received: list[dict[int, float]] = [{} for _ in range(clients)]
        self.seen = [0] * clients  # pushes of the matched type per client
        self.counts: dict[int, int] = {}
        self.complete: dict[int, asyncio.Event] = {}
        self.texts: dict[int, str] = {}
        self.opened = 0
        self.right = 0
        self.all_open = asyncio.Event()
        self.stop = asyncio.Event()
        self.failures: list[str] = []
        self.tasks: list[asyncio.Future[None]] = []
        self.connect_s = 0.0

    def event(self, key: int) -> asyncio.Event:
        return self.complete.setdefault(key, asyncio.Event())

    def _arrived(self, index: int, key: int, at: float, message: str | bytes) -> None:
        mine = self.received[index]
        if key in mine:
            return
        mine[key] = at
        if key not in self.texts:
            self.texts[key] = message if isinstance(message, str) else message.decode()
        self.counts[key] = self.counts.get(key, 0) + 1
        if self.counts[key] == self.clients:
            self.event(key).set()

    def heard(self, index: int, message: str | bytes, at: float) -> None:
        if self.match == "version":
            version = _version(message)
            if version is not None:
                self._arrived(index, version, at, message)
        elif _kind(message) == self.match:
            self.seen[index] += 1
            self._arrived(index, self.seen[index], at, message)

    async def open(self) -> None:
        """Connect every client (CONNECTING_AT_ONCE at a time); `connect_s` is how long
        until all showed a state."""
        gate = asyncio.Semaphore(CONNECTING_AT_ONCE)

        async def client(index: int) -> None:
            try:
                async with gate:
                    socket = await connect(
                        self.url,
                        origin=self.origin,
                        proxy=None,
                        open_timeout=120,
                        ping_interval=None,
                    )
                    first = await socket.recv()
                if self.expect_version is None or _version(first) == self.expect_version:
                    self.right += 1
                if self.match == "version":
                    self.heard(index, first, time.monotonic())
                self._counted()
                async with socket:
                    receiving = asyncio.ensure_future(listen(socket, index))
                    await self.stop.wait()
                    receiving.cancel()
            except Exception as exc:  # noqa: BLE001 - counted and reported, never hidden
                self.failures.append(f"client {index}: {exc!r}")
                self._counted()

        async def listen(socket: ClientConnection, index: int) -> None:
            async for message in socket:
                self.heard(index, message, time.monotonic())

        started = time.monotonic()
        self.tasks = [asyncio.ensure_future(client(i)) for i in range(self.clients)]
        await self.all_open.wait()
        self.connect_s = time.monotonic() - started

    def _counted(self) -> None:
        self.opened += 1
        if self.opened == self.clients:
            self.all_open.set()

    async def close(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def result(self, sent: list[tuple[int, float]], made: int, warmup: int) -> dict[str, Any]:
        received = self.received
        latencies = [
            (mine[key] - at) * 1000 for key, at in sent for mine in received if key in mine
        ]
        spread = []
        fanned: list[float] = []  # after the first screen had it: the fan-out alone
        for key, at in sent:
            mine = sorted((m[key] - at) * 1000 for m in received if key in m)
            if mine:
                spread.append(
                    [round(mine[0], 1), round(mine[len(mine) // 2], 1), round(mine[-1], 1)]
                )
                fanned += [value - mine[0] for value in mine]
        first_key = sent[0][0] if sent else None
        return {
            "per_change_ms": spread,
            "tail": _tail(received, sent, latencies),
            "clients": self.clients,
            "changes": len(sent),
            "connected": self.clients - len(self.failures),
            "connect_s": round(self.connect_s, 2),
            "connect_right": self.right,
            "delivered": len(latencies),
            "expected": self.clients * (made - warmup),
            "latencies_ms": latencies,
            "fanout_ms": fanned,
            "sample": self.texts.get(first_key) if first_key is not None else None,
            "errors": self.failures[:5],
        }


def _tail(
    received: list[dict[int, float]], sent: list[tuple[int, float]], latencies: list[float]
) -> list[list[float]]:
    """The changes whose receipts are the slowest 1% (the p99 is the fastest of those):
    [the change's place among the timed ones (from 0), how many of its receipts are
    among them, its slowest receipt in ms], most first."""
    if not latencies:
        return []
    ordered = sorted(latencies)
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    rows = []
    for place, (key, at) in enumerate(sent):
        mine = [(m[key] - at) * 1000 for m in received if key in m]
        slow = sum(1 for value in mine if value >= p99)
        if slow:
            rows.append([place, slow, round(max(mine), 1)])
    return sorted(rows, key=lambda row: -row[1])


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
    bare_url: str = "",
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
    compiled, its statements prepared) is not the steady state being measured.

    `bare_url`: a bare server (`serve_baseline`) to measure beside, change by change: as
    many sockets are connected to it, and after each change has reached every client and
    settled, the bare server broadcasts the very text the first client received of it,
    and that is timed the same way (the result's "bare"). Taking turns, both sides see the
    machine as it is at that moment: on a machine whose speed swings from one minute to
    the next, a bare run after the real one measured another machine."""
    changes = messages if messages is not None else (posts or [])

    def audience(at: str) -> _Audience:
        return _Audience(
            url=at, origin=origin, clients=clients, match=match, expect_version=expect_version
        )

    ours = audience(url)
    await ours.open()
    bare: _Audience | None = None
    bare_trigger: ClientConnection | None = None
    if bare_url:
        bare = audience(bare_url)
        await bare.open()
        bare_trigger = await connect(bare_url, origin=origin, proxy=None, ping_interval=None)
        await bare_trigger.recv()  # its state on connect

    replies: list[str] = []
    sent: list[tuple[int, float]] = []
    bare_sent: list[tuple[int, float]] = []
    # This process stands in for a thousand browsers, each of which would collect its own
    # garbage. Left to itself, its collector paused it wherever it fell, inside a change
    # being timed on either side as well; one such pause inside a change holds up its
    # thousand receipts, the top 1% of a hundred changes' receipts. What stands when
    # every socket is open lives to the end: frozen out of the collector's sight; and it
    # runs between changes (in the settling pause before the next is timed), never
    # during one.
    gc.collect()
    gc.freeze()
    gc.disable()

    async def reached(event: asyncio.Event) -> None:
        """Wait until the change has reached every client (or `deadline`), collect the
        garbage, and let the machine settle before the next change is timed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), deadline)
        gc.collect()
        await asyncio.sleep(settle)

    async def bare_turn(index: int, key: int) -> None:
        """The bare server broadcasts the text of our change `key` (its `index`-th)."""
        if bare is None or bare_trigger is None:
            return
        text = ours.texts.get(key)
        if text is None:  # it never arrived: nothing to send beside it
            return
        event = bare.event(key)
        at = time.monotonic()
        await bare_trigger.send(json.dumps({"type": "control", "push": text}))
        if index > warmup:
            bare_sent.append((key, at))
        await reached(event)

    try:
        if posts is not None:
            browser = FormPoster(base_url, dict(_cookies(cookie)))
            for current, post in enumerate(changes, start=1):
                event = ours.event(current)
                at = time.monotonic()
                error = await _post(browser, post)
                # A browser opens the page the answer sends it to, which shows the change's
                # message ("... is out.") and so takes it out of the cookie. The bench opens
                # no page: it drops the message itself. Left there, the messages piled up in
                # the cookie, then in the session, and every post signed them all again
                # (more of the server's time at every post), as no floor's
                # post does.
                browser.cookies.pop("messages", None)
                if error:
                    replies.append(error)
                if current > warmup:
                    sent.append((current, at))
                await reached(event)
                await bare_turn(current, current)
            await browser.close()
        else:
            headers = {"Cookie": cookie} if cookie else {}
            trigger = await connect(
                trigger_url,
                origin=origin,
                proxy=None,
                additional_headers=headers,
                ping_interval=None,
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
                event = ours.event(current)
                at = time.monotonic()
                await trigger.send(json.dumps(message))
                if index > warmup:
                    sent.append((current, at))
                await reached(event)
                await bare_turn(index, current)
            reading.cancel()
            await trigger.close()
    finally:
        gc.enable()
    await ours.close()
    result = ours.result(sent, len(changes), warmup)
    result["errors"] = (ours.failures + replies)[:5]
    if bare is not None and bare_trigger is not None:
        await bare_trigger.close()
        await bare.close()
        result["bare"] = bare.result(bare_sent, len(changes), warmup)
    return result


def _cookies(header: str) -> list[tuple[str, str]]:
    pairs = [part.strip().partition("=") for part in header.split(";") if "=" in part]
    return [(name, value) for name, _eq, value in pairs]


async def serve_baseline(port: int, payload: dict[str, Any], push: str | None = None) -> None:
    """Send `payload` (a clock state) on connect; on every control message broadcast the
    text it carries (`push`: the very text a change of the real server brought), or else
    this server's own `push`."""
    connections: set[ServerConnection] = set()
    # Its garbage collected as the real server's is (config/asgi.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 1000)

    async def handler(socket: ServerConnection) -> None:
        connections.add(socket)
        try:
            await socket.send(json.dumps(payload))
            async for message in socket:
                try:
                    data = json.loads(message)
                except ValueError:
                    continue
                if not isinstance(data, dict) or data.get("type") != "control":
                    continue
                text = data.get("push") if isinstance(data.get("push"), str) else push
                if text is not None:
                    broadcast(connections, text)
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
        _run(lambda: serve_baseline(int(argv[1]), given["initial"], given.get("push")))
    else:
        raise SystemExit(
            "usage: python -m bench.wsload clients|reconnect CONFIG_FILE OUT_FILE"
            " | baseline PORT FILE"
        )


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main(sys.argv[1:])

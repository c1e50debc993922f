"""One subscription per group per process: a push is received once, written to every socket.

With a channel-layer membership per socket, a clock change to a thousand screens was a
thousand queue entries (a thousand Redis list pushes), a thousand consumer wake-ups and
a thousand handler calls in the server process: several times what a bare broadcast
costs (`manage.py bench fanout`). Here each server process subscribes ONE channel to
each group it has sockets in; one pump task per group receives every push once and
writes its text straight to the ASGI `send` of every local socket of the group.

Senders are unchanged: `realtime.broadcast` still calls `group_send` on the channel
layer, so every process (and any other member of the group, such as a test listening
on it) gets the message, this one included: its hub writes it to its sockets when it
comes back through the layer.

Each push's frame is made once (config/speedups/wire.py) and written as it is to
every socket served by uvicorn's websockets protocol and open for writing; any other
socket (another server, per-message deflate, a connection asking its writers to wait)
gets it through its ASGI `send`, as every socket did before (several times slower for
a thousand sockets: bench/RESULTS.md).

Robustness:

- a socket's write is started by hand in the pump's turn: when the socket can take it
  (the usual case) it completes at once, with no task; a socket that cannot (a slow
  client) gets a task from there on and a backlog, written in order while the pump goes
  on with the others. A backlog longer than BACKLOG closes that socket with 1013 (try
  again later): its screen reconnects and gets the whole state;
- a socket whose write fails is dropped; the others are not concerned;
- a bad message is logged and skipped; the pump goes on;
- when the last local socket of a group leaves, the process's channel leaves the group;
- memberships expire in the layer (`group_expiry`): they are renewed while in use;
- when the layer fails (a receive raises) or Redis restarts (tournaments/sockets/layerwatch.py
  calls `reset`), the subscriptions are dropped and their sockets closed with 1012: the
  screens reconnect, which subscribes afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
from collections import deque
from collections.abc import Coroutine, Generator, Iterable
from typing import Any, Protocol

from config.speedups.wire import Direct, frame
from tournaments.sockets.codes import (
    REVOKED,
    RIGHTS_CHANGED,
    SERVICE_RESTART,
    TRY_AGAIN_LATER,
)

logger = logging.getLogger(__name__)


BACKLOG = 64  # messages a slow socket may fall behind before it is closed
DEFAULT_GROUP_EXPIRY = 86400


class Socket(Protocol):
    """What the hub needs of a consumer: its scope and its ASGI `send`."""

    scope: dict[str, Any]

    async def base_send(self, message: dict[str, Any]) -> None: ...


SERVER_SEND = "torneo.server_send"


class ServerSend:
    """ASGI middleware, outermost on the sockets: keeps the server's own `send` in the
    scope (SERVER_SEND), and the hub writes pushes there. Channels' session wrapper, which
    sits between, acts only on HTTP responses; a push to a thousand sockets skips it a
    thousand times."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await self.app({**scope, SERVER_SEND: send}, receive, send)


@types.coroutine
def _carry_on(coro: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """Go on with a coroutine started by hand that now waits on `waiting` (a future):
    the task running this waits for it, then resumes the coroutine, until it ends."""
    while True:
        try:
            received = yield waiting
        except BaseException as exc:  # the task is cancelled: so is the write
            try:
                waiting = coro.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = coro.send(received)
            except StopIteration:
                return


async def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    await _carry_on(coro, waiting)


def _close(code: int) -> dict[str, Any]:
    return {"type": "websocket.close", "code": code}


class _Member:
    """One local socket: its send, its groups, and what it has still to be sent."""

    __slots__ = (
        "backlog",
        "busy",
        "closing",
        "direct",
        "gone",
        "groups",
        "held",
        "send",
        "writer",
    )

    def __init__(self, socket: Socket) -> None:
        self.send = socket.scope.get(SERVER_SEND) or socket.base_send
        self.direct = Direct.of(self.send)  # the frame straight to the connection (wire.py)
        self.groups: set[str] = set()
        self.backlog: deque[dict[str, Any]] = deque()
        self.busy = False  # a write is in progress (the socket made it wait)
        self.held = True  # until the socket has its initial state (see Hub.release)
        self.closing = False  # a close is on its way: nothing after it
        self.gone = False
        self.writer: asyncio.Task[None] | None = None

    def offer(self, event: dict[str, Any], data: bytes | None = None) -> None:
        """Send `event` after what is waiting; `data`: its frame (wire.frame) when it is a
        text, written to the connection as it is when nothing waits and it may be."""
        if self.gone or self.closing:
            return
        if event["type"] == "websocket.close":
            self.closing = True
        if self.busy or self.held:
            if len(self.backlog) >= BACKLOG:
                logger.warning("closing a socket %d messages behind", len(self.backlog))
                self.backlog.clear()
                self.backlog.append(_close(TRY_AGAIN_LATER))
                self.closing = True
            else:
                self.backlog.append(event)
            return
        if data is not None and self.direct is not None and self.direct.write(data):
            return
        self._write(event)

    def release(self) -> None:
        self.held = False
        if self.backlog and not self.busy and not self.gone:
            self._write(self.backlog.popleft())

    def _write(self, event: dict[str, Any]) -> None:
        self.busy = True
        # Started by hand, in this turn: a socket that takes the frame at once (the usual
        # case) costs no task; one that makes the write wait gets a task from there on.
        writing = self._drain(event)
        try:
            waiting = writing.send(None)
        except StopIteration:
            return
        self.writer = asyncio.get_running_loop().create_task(_finish(writing, waiting))

    async def _drain(self, event: dict[str, Any]) -> None:
        try:
            while True:
                await self.send(event)
                if event["type"] == "websocket.close" or not self.backlog or self.gone:
                    break
                event = self.backlog.popleft()
        except Exception:  # noqa: BLE001 - the socket is gone; the others are not concerned
            logger.debug("dropping a socket whose write failed", exc_info=True)
            self.gone = True
        finally:
            self.busy = False
            if self.gone or self.closing:
                self.backlog.clear()


class _Group:
    __slots__ = ("channel", "members", "name", "pump", "ready")

    def __init__(self, name: str) -> None:
        self.name = name
        self.members: set[_Member] = set()
        self.channel: str | None = None
        self.ready: asyncio.Task[None] | None = None  # the subscription
        self.pump: asyncio.Task[None] | None = None


class Hub:
    """The groups this process's sockets are in, on one event loop and one channel layer."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.groups: dict[str, _Group] = {}
        self.members: dict[Socket, _Member] = {}
        self._keeper: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        expiry = getattr(layer, "group_expiry", DEFAULT_GROUP_EXPIRY) or DEFAULT_GROUP_EXPIRY
        self.renew_seconds = max(1.0, min(3600.0, expiry / 4))

    # --- sockets ---------------------------------------------------------------------

    async def join(self, socket: Socket, groups: Iterable[str]) -> None:
        """Put `socket` in `groups`; return once every group is subscribed.

        Pushes that arrive meanwhile wait until `release(socket)`, so they follow the
        socket's initial state. Raises the layer's error (nothing joined) when it fails.
        """
        member = self.members.get(socket)
        if member is None:
            member = self.members[socket] = _Member(socket)
        subscriptions = []
        for name in groups:
            group = self.groups.get(name)
            if group is None:
                group = self._open(name)
            group.members.add(member)
            member.groups.add(name)
            assert group.ready is not None
            subscriptions.append(group.ready)
        try:
            for ready in subscriptions:
                await asyncio.shield(ready)
        except BaseException:
            self.leave(socket)
            raise

    def release(self, socket: Socket) -> None:
        """The socket has its initial state: send it what came meanwhile, then everything."""
        member = self.members.get(socket)
        if member is not None:
            member.release()

    def leave(self, socket: Socket) -> None:
        """Take `socket` out of every group (idempotent); unsubscribe emptied groups."""
        member = self.members.pop(socket, None)
        if member is None:
            return
        member.gone = True
        member.backlog.clear()
        if member.writer is not None and not member.writer.done():
            member.writer.cancel()  # stuck on a socket that is gone
        for name in list(member.groups):
            group = self.groups.get(name)
            if group is not None:
                group.members.discard(member)
                if not group.members:
                    self._drop(group)
        member.groups.clear()

    def reset(self, reason: str) -> None:
        """Drop every subscription and close their sockets with 1012 (they resync).

        For when the layer lost or may have lost its groups (Redis restarted or down):
        the next socket to join subscribes afresh.
        """
        if self.groups:
            logger.warning("dropping %d group subscriptions: %s", len(self.groups), reason)
        for group in list(self.groups.values()):
            self._drop(group, close=SERVICE_RESTART)

    # --- subscriptions ---------------------------------------------------------------

    def _open(self, name: str) -> _Group:
        group = self.groups[name] = _Group(name)
        group.ready = asyncio.get_running_loop().create_task(self._subscribe(group))
        # Every joiner awaits it; should they all be cancelled, the error is still read.
        group.ready.add_done_callback(_read_error)
        if self._keeper is None or self._keeper.done():
            self._keeper = asyncio.get_running_loop().create_task(self._keep())
        return group

    async def _subscribe(self, group: _Group) -> None:
        try:
            group.channel = await self.layer.new_channel()
            await self.layer.group_add(group.name, group.channel)
        except BaseException:
            if self.groups.get(group.name) is group:
                del self.groups[group.name]
            raise
        group.pump = asyncio.get_running_loop().create_task(self._pump(group))

    def _drop(self, group: _Group, close: int | None = None) -> None:
        if self.groups.get(group.name) is group:
            del self.groups[group.name]
        current = asyncio.current_task()
        for task in (group.ready, group.pump):
            if task is not None and task is not current and not task.done():
                task.cancel()
        if group.channel is not None:
            self._spawn(self._discard(group.name, group.channel))
        members, group.members = group.members, set()
        for member in members:
            member.groups.discard(group.name)
            if close is not None:
                member.offer(_close(close))

    async def _discard(self, name: str, channel: str) -> None:
        try:
            await asyncio.wait_for(self.layer.group_discard(name, channel), timeout=5)
        except Exception:  # noqa: BLE001 - the layer is down: the membership expires with it
            logger.debug("could not leave %s", name, exc_info=True)

    async def _pump(self, group: _Group) -> None:
        assert group.channel is not None
        while True:
            try:
                message = await self.layer.receive(group.channel)
            except Exception as exc:  # noqa: BLE001 - no spinning: resubscribe on the next join
                logger.warning("receiving on %s failed (%r); its sockets resync", group.name, exc)
                self._drop(group, close=SERVICE_RESTART)
                return
            try:
                self._deliver(group, message)
            except Exception:  # noqa: BLE001 - one bad message must not stop the screens
                logger.exception("could not deliver a message to %s", group.name)

    def _deliver(self, group: _Group, message: dict[str, Any]) -> None:
        if message.get("type") != "push":
            logger.warning("ignoring a %r message on %s", message.get("type"), group.name)
            return
        # realtime.broadcast encoded the payload once; every socket gets the same frame.
        close = message.get("close")
        if close:
            # A close names its reason: a change of rights (come back) or a revocation.
            event = _close(RIGHTS_CHANGED if close == "rights" else REVOKED)
        else:
            text = message["text"]
            if not isinstance(text, str):
                raise TypeError(f"push text is {type(text).__name__}, not str")
            event = {"type": "websocket.send", "text": text}
        # One frame for every socket that takes it as it is (wire.py), made for the first.
        data: bytes | None = None
        for member in list(group.members):
            if data is None and not close and member.direct is not None:
                data = frame(event["text"])
            member.offer(event, data)

    async def _keep(self) -> None:
        """Renew the memberships before the layer expires them (a day by default)."""
        while self.groups:
            await asyncio.sleep(self.renew_seconds)
            for group in list(self.groups.values()):
                if group.pump is None or group.channel is None:
                    continue  # still subscribing
                try:
                    await self.layer.group_add(group.name, group.channel)
                except Exception:  # noqa: BLE001 - the pump or layerwatch sees the layer fail
                    logger.warning("could not renew %s", group.name, exc_info=True)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def _read_error(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub_for(layer: Any) -> Hub:
    """This event loop's hub on `layer` (one per server process)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        for closed in [old for old in _hubs if old.is_closed()]:
            del _hubs[closed]
        hub = _hubs[loop] = Hub(layer)
    return hub


def reset(layer: Any, reason: str) -> None:
    """Reset this event loop's hub on `layer`, if there is one."""
    with contextlib.suppress(RuntimeError):
        hub = _hubs.get(asyncio.get_running_loop())
        if hub is not None and hub.layer is layer:
            hub.reset(reason)

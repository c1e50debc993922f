"""A push's frame, made once, written to every socket's connection as it is.

Through ASGI each socket's `send` frames the text anew: uvicorn's sans-I/O websockets
protocol (the one `--ws auto` picks, as bin/serve runs it) encodes the text, builds the
frame in the websockets library and joins its bytes, for every socket, several times
what writing the same bytes to the connection costs (bench/RESULTS.md). A server's text frame is the
same bytes for every socket when nothing is negotiated that changes them (no mask on the
server's side; no compression: bin/serve turns per-message deflate off). So the hub
makes the frame once per push (`frame`) and, for a socket served by that protocol and
open for writing, writes it to the connection itself (`Direct.write`).

Whenever anything is other than that, `Direct.write` answers False and the hub sends
through ASGI as before: another server (or a test's), a connection with an extension
(per-message deflate), a handshake not complete, a close sent or received, a connection
that asks the writer to wait (its buffer full: uvicorn's `writable` is clear), a frame in
progress. The frame is the one websockets itself would write (`Frame.serialize`, public
in websockets' low-level API), so the bytes on the wire do not change; only who
writes them.

What is read of uvicorn's protocol object are its documented-by-use attributes
(`transport`, `conn`, `writable`, `handshake_complete`, `close_sent`, `disconnected`,
`initial_response`); and of websockets' protocol its `state`, `extensions`, `expect_continuation_frame`
(a fragmented message being sent) and `writes` (bytes not yet handed over). `Direct.of`
checks the first are there, `Direct.write` reads the others with a default that falls
back, and tests/speedups/test_wire.py checks that the uvicorn this project
pins takes the direct path, so an upgrade that changes them is seen, not silently slow.
"""

from __future__ import annotations

from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:  # the server bin/serve runs; without it, nothing is written directly
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol,
    )
except ImportError:  # pragma: no cover - uvicorn is a dependency
    WebSocketsSansIOProtocol = None

_NEEDED = (
    "transport",
    "conn",
    "writable",
    "handshake_complete",
    "close_sent",
    "disconnected",
    "initial_response",
)


def frame(text: str) -> bytes:
    """The bytes of one unfragmented, unmasked, uncompressed text frame carrying `text`."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


class Direct:
    """Writes frames straight to one uvicorn websocket connection while it may."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    @classmethod
    def of(cls, send: Any) -> Direct | None:
        """The direct writer behind an ASGI `send`, or None when it is not uvicorn's
        sans-I/O protocol's own `send` (anything else is sent through ASGI)."""
        if WebSocketsSansIOProtocol is None:
            return None
        protocol = getattr(send, "__self__", None)
        if not isinstance(protocol, WebSocketsSansIOProtocol):
            return None
        if getattr(send, "__func__", None) is not WebSocketsSansIOProtocol.send:
            return None
        if not all(hasattr(protocol, name) for name in _NEEDED):
            return None
        return cls(protocol)

    def write(self, data: bytes) -> bool:
        """Write one frame made by `frame` if the connection may take it as it is, now,
        in the order of everything written to it; False (nothing written) otherwise."""
        protocol = self.protocol
        connection = protocol.conn
        transport = protocol.transport
        if (
            not protocol.handshake_complete
            or protocol.close_sent
            or protocol.disconnected
            or protocol.initial_response is not None
            or not protocol.writable.is_set()
            or connection.state is not State.OPEN
            or connection.extensions
            or getattr(connection, "expect_continuation_frame", True)  # a frame in progress
            or getattr(connection, "writes", True)  # bytes websockets has yet to hand over
            or transport is None
            or transport.is_closing()
        ):
            return False
        transport.write(data)
        return True

"""A push's frame written straight to uvicorn's connections (config/speedups/wire.py).

A real uvicorn server in this test's event loop, run as bin/serve runs it (`--ws auto`,
per-message deflate off unless a test turns it on), and real `websockets` clients: what
the clients read is what a screen reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
import uvicorn
from channels.layers import InMemoryChannelLayer
from websockets.asyncio.client import connect
from websockets.protocol import State
from websockets.server import ServerProtocol

from config.speedups.hub import SERVER_SEND, Hub
from config.speedups.wire import Direct, frame

pytestmark = pytest.mark.fast_path(
    "frames written to uvicorn's connection (config/speedups/wire.py)"
)

TEXT = json.dumps({"type": "elimination", "html": "Müller è fuori — 23° posto, 1.250 €"})


class App:
    """Accepts every socket and hands its ASGI `send` to the test, then waits."""

    def __init__(self) -> None:
        self.sends: asyncio.Queue[Any] = asyncio.Queue()
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        await receive()
        await send({"type": "websocket.accept"})
        self.scopes.append(scope)
        await self.sends.put(send)
        while (await receive())["type"] != "websocket.disconnect":
            pass


@contextlib.asynccontextmanager
async def uvicorn_serving(app: App, *, deflate: bool = False):
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        lifespan="off",
        log_level="warning",
        ws_per_message_deflate=deflate,
    )
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve())
    while not server.started:
        if serving.done():
            serving.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        await serving


async def test_the_server_bin_serve_runs_takes_the_frame_as_it_is_in_order_with_asgi():
    app = App()
    async with uvicorn_serving(app) as url, connect(url, compression=None) as client:
        send = await app.sends.get()
        direct = Direct.of(send)
        assert direct is not None, "uvicorn's websockets protocol changed: pushes go the slow way"
        assert direct.write(frame(TEXT))
        await send({"type": "websocket.send", "text": "through ASGI"})
        assert direct.write(frame("♠ ♥ ♦ ♣"))
        received = [await asyncio.wait_for(client.recv(), 5) for _ in range(3)]
        assert received == [TEXT, "through ASGI", "♠ ♥ ♦ ♣"]
        # Once the socket is closing nothing more is written past uvicorn.
        await send({"type": "websocket.close", "code": 1000})
        assert not direct.write(frame(TEXT))


async def test_a_compressed_connection_gets_its_pushes_through_asgi():
    app = App()
    async with uvicorn_serving(app, deflate=True) as url, connect(url) as client:
        send = await app.sends.get()
        direct = Direct.of(send)
        assert direct is not None
        assert not direct.write(frame(TEXT)), "a compressed socket must not get plain frames"
        await send({"type": "websocket.send", "text": TEXT})
        assert await asyncio.wait_for(client.recv(), 5) == TEXT


async def test_a_send_that_is_not_uvicorns_is_never_bypassed():
    async def send(message: dict[str, Any]) -> None:
        return None

    assert Direct.of(send) is None
    assert Direct.of(App().__call__) is None


async def test_a_client_that_stops_reading_makes_the_writer_wait_and_loses_nothing():
    app = App()
    chunk = "x" * 65536
    async with uvicorn_serving(app) as url, connect(url, compression=None, max_size=None) as client:
        send = await app.sends.get()
        direct = Direct.of(send)
        assert direct is not None
        written = 0
        # The client reads nothing: its buffers and the kernel's fill, then uvicorn's
        # transport asks its writers to wait, and the frame is refused.
        while direct.write(frame(f"{written}:{chunk}")):
            written += 1
            assert written < 10_000, "the connection never asked the writer to wait"
        assert written > 0
        late = asyncio.ensure_future(send({"type": "websocket.send", "text": "after the wait"}))
        numbers = []
        for _ in range(written):
            message = await asyncio.wait_for(client.recv(), 10)
            numbers.append(int(message.partition(":")[0]))
        assert numbers == list(range(written))
        assert await asyncio.wait_for(client.recv(), 10) == "after the wait"
        await late


class Socket:
    def __init__(self, send: Any) -> None:
        self.scope = {SERVER_SEND: send}

    async def base_send(self, message: dict[str, Any]) -> None:  # pragma: no cover
        raise AssertionError("the hub writes to the server's send")


async def test_the_hub_writes_one_frame_to_every_uvicorn_socket_and_skips_a_compressed_one():
    layer = InMemoryChannelLayer()
    hub = Hub(layer)
    plain, compressed = App(), App()
    async with (
        uvicorn_serving(plain) as plain_url,
        uvicorn_serving(compressed, deflate=True) as compressed_url,
    ):
        clients = [await connect(plain_url, compression=None) for _ in range(5)]
        clients.append(await connect(compressed_url))
        sockets = [Socket(await plain.sends.get()) for _ in range(5)]
        sockets.append(Socket(await compressed.sends.get()))
        for socket in sockets:
            await hub.join(socket, ["tournament.1"])
            hub.release(socket)
        assert all(hub.members[socket].direct is not None for socket in sockets)
        for version in (1, 2):
            text = json.dumps({"version": version, "note": "è"})
            await layer.group_send("tournament.1", {"type": "push", "text": text})
        for client in clients:
            received = [json.loads(await asyncio.wait_for(client.recv(), 5)) for _ in range(2)]
            assert [m["version"] for m in received] == [1, 2]
            assert received[0]["note"] == "è"
        for socket in sockets:
            hub.leave(socket)
        for client in clients:
            await client.close()


@pytest.mark.parametrize("text", ["", "a", "é" * 200, "x" * 70000])
def test_the_frame_is_what_websockets_itself_writes(text):
    protocol = ServerProtocol()
    protocol.state = State.OPEN  # as after its handshake
    protocol.send_text(text.encode())
    assert protocol.data_to_send() == [frame(text)]

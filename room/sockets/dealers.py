"""The dealers' socket (`ws/room/dealers/`): a read-only "the plan changed" push for the
dealer board, the floor's page and the tablets' relief line, which then refresh over htmx.
It carries no data, so anyone may listen, as on the cash room's socket (room/sockets/cash.py).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from room.live import DEALERS_GROUP


class DealersConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        if self.channel_layer is None:
            await self.close()
            return
        await self.channel_layer.group_add(DEALERS_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.channel_layer is not None:
            await self.channel_layer.group_discard(DEALERS_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only: whatever a client sends is ignored."""

    async def push(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


websocket_urlpatterns: list = [path("ws/room/dealers/", DealersConsumer.as_asgi())]

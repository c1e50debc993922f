"""The cash room's socket (`ws/cash/`): a read-only "something changed" push for the floor's
board, the public brush board, the phones and the tablets, which then refresh over htmx.

It carries no data, so anyone may listen; every page reads the state through its own
permission-checked view. Pushes are sent after commit by `tournaments.realtime.broadcast_cash`.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from tournaments.realtime import CASH_GROUP


class CashConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        if self.channel_layer is None:
            await self.close()
            return
        await self.channel_layer.group_add(CASH_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.channel_layer is not None:
            await self.channel_layer.group_discard(CASH_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Listeners only: whatever a client sends is ignored."""

    async def push(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

"""WebSocket routes."""

from django.urls import path

from tables.sockets import CashConsumer  # the cash room
from tournaments.sockets.consumer import RoomConsumer

websocket_urlpatterns: list = [
    path("ws/screens/<uuid:token>/", RoomConsumer.as_asgi()),
    path("ws/t/<slug:slug>/", RoomConsumer.as_asgi()),
    path("ws/cash/", CashConsumer.as_asgi()),
]

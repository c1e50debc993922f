"""WebSocket routes (the project's socket URL map, beside config/urls.py)."""

from django.urls import path
from django.utils.module_loading import import_string

from config.speedups import switch
from room.sockets.cash import CashConsumer  # the cash room
from room.sockets.dealers import websocket_urlpatterns as room_routes  # the dealers' board

# Channels' membership per socket, or the hub's per process (config/speedups/switch.py).
RoomConsumer = import_string(switch.room_consumer())
FeedConsumer = import_string(switch.feed_consumer())

websocket_urlpatterns: list = [
    path("ws/screens/<uuid:token>/", RoomConsumer.as_asgi()),
    path("ws/t/<slug:slug>/", RoomConsumer.as_asgi()),
    path("ws/cash/", CashConsumer.as_asgi()),
    *room_routes,
    path("ws/screens/<uuid:token>/feed/", FeedConsumer.as_asgi()),
]

# The public live feed: no session or cookie is read, so any page or script may follow it
# (config/asgi.py routes it past the origin check).
feed_websocket_urlpatterns: list = [
    path("api/v1/events/<str:event>/stream", FeedConsumer.as_asgi()),
]

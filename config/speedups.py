"""The seam between plain Django and the project's private speedups: every decision is here.

Each speedup replaces or reaches into an upstream internal (Django, asgiref, Channels,
channels_redis, uvicorn, websockets, psycopg) to meet a goal of `../shared/benches.txt`;
config/README.md says what each replaces, why, and the figures. `TORNEO_PLAIN=1`
(settings.PLAIN) turns every one of them off at once, and the app runs as the upstream
documentation writes it:

=========================  ==================================  ===============================
piece                      fast (default)                      plain (TORNEO_PLAIN=1)
=========================  ==================================  ===============================
database backend           config.backends.postgresql          django.db.backends.postgresql
hot reads                  tournaments/prepared.py: compiled   the ORM, built on every call;
                           once, prepared on the server,       no reads ahead, writes at once
                           read ahead in one trip, writes
                           riding the next trip
HTTP handler               config.handler (one sync chain)     django.core.asgi's ASGIHandler
sessions                   config.sessions (+ `whose` guess)   django.contrib.sessions.backends.db
authentication             config.auth (session + user in      ModelBackend and Django's
                           one trip)                           AuthenticationMiddleware
channel layer              tournaments/sockets/layers.py       channels_redis's RedisChannelLayer,
                           (two-trip group send, Lua script)   Channels' InMemoryChannelLayer
sockets                    hub.py + wire.py + coalesce.py      a group membership per socket,
                           (one subscription per process,      a `push` handler that calls
                           frames written to uvicorn)          `self.send`, one read per socket
guess caches               realtime's `heard` (HEARD_FOR),     none: every push renders its
                           the last day/parent seen            fragments
garbage collector          gc.freeze() + thresholds            Python's defaults
=========================  ==================================  ===============================

Not a speedup, in both paths: tournaments/sockets/layerwatch.py closes the sockets when
Redis restarts, so a screen resyncs instead of freezing (a behaviour the room sees).

Settings call the functions taking `plain` (Django is not set up yet); the rest of the
app asks `on()`.
"""

from __future__ import annotations

from typing import Any

# The upstream releases whose internals the speedups were written against, per
# interpreter line CI runs (Python 3.13 with Django 6.1, Python 3.11 with Django 5.2 LTS).
# tests/test_speedups.py fails, naming the pieces to check again, once an installed
# version differs: update the pieces, then the versions here.
_BOTH_LINES = {
    "asgiref": "3.13.0",
    "channels": "4.3.2",
    "channels_redis": "4.3.0",
    "redis": "8.2.0",
    "uvicorn": "0.54.0",
    "websockets": "17.4",
    "psycopg": "3.3.9",
}
BUILT_AGAINST: dict[tuple[int, int], dict[str, str]] = {
    (3, 13): {"django": "6.1.3", **_BOTH_LINES},
    (3, 11): {"django": "5.2.19", **_BOTH_LINES},
}

# Which pieces reach into which distribution's internals (what an upgrade may break).
TOUCHES: dict[str, tuple[str, ...]] = {
    "django": (
        "config/backends/postgresql (DatabaseWrapper's commit and cursors)",
        "tournaments/prepared.py (SQLCompiler, ModelIterable's populators, Update/Insert/DeleteQuery)",
        "config/handler.py (ASGIHandler, BaseHandler.load_middleware)",
        "config/sessions.py (db.SessionStore._get_session_from_db)",
        "config/auth.py (auth.get_user, AuthenticationMiddleware)",
    ),
    "asgiref": ("config/handler.py (ThreadSensitiveContext(executor=...))",),
    "channels": (
        "tournaments/sockets/layers.py (InMemoryChannelLayer's queues and sweep)",
        "tournaments/sockets/hub.py (consumers' base_send, channel receive)",
    ),
    "channels_redis": (
        "tournaments/sockets/layers.py (group send, its Lua script, key layout)",
        "tournaments/realtime.py (`listening`: group keys counted in Redis)",
    ),
    "redis": ("tournaments/sockets/layers.py (pipelines and eval on the layer's pools)",),
    "uvicorn": ("tournaments/sockets/wire.py (WebSocketsSansIOProtocol's attributes)",),
    "websockets": ("tournaments/sockets/wire.py (Frame.serialize, the protocol's state)",),
    "psycopg": (
        "config/backends/postgresql (pipeline mode)",
        "tournaments/prepared.py (server-side binding, prepare=True, pipelines)",
    ),
}


def on() -> bool:
    """Whether the speedups run (settings.PLAIN is off). For code that runs after setup."""
    from django.conf import settings

    return not getattr(settings, "PLAIN", False)


# --- Settings (called from config/settings.py, before Django is set up) --------------


def database_engine(engine: str, *, plain: bool) -> str:
    """The database backend: Django's PostgreSQL one, or ours that pipelines statements."""
    if engine == "django.db.backends.postgresql" and not plain:
        return "config.backends.postgresql"
    return engine


def prepare_hot_reads(wanted: bool, *, plain: bool) -> bool:
    """Whether the hot reads are prepared on the server (tournaments/prepared.py)."""
    return wanted and not plain


def session_engine(*, plain: bool) -> str:
    return "django.contrib.sessions.backends.db" if plain else "config.sessions"


def authentication_backends(*, plain: bool) -> list[str]:
    if plain:
        return ["django.contrib.auth.backends.ModelBackend"]
    return ["config.auth.UserBackend"]  # Django's ModelBackend, its read compiled once


def middleware(names: list[str], *, plain: bool) -> list[str]:
    """MIDDLEWARE as written in settings (the fast path's), or Django's own in its place."""
    if not plain:
        return names
    swapped = {
        "config.auth.AuthenticationMiddleware": "django.contrib.auth.middleware.AuthenticationMiddleware"
    }
    dropped = {"config.middleware.reads_ahead"}  # the span of reads made ahead
    return [swapped.get(name, name) for name in names if name not in dropped]


def channel_layer(*, redis: bool, plain: bool) -> str:
    if redis:
        if plain:
            return "channels_redis.core.RedisChannelLayer"
        return "tournaments.sockets.layers.RedisChannelLayer"
    if plain:
        return "channels.layers.InMemoryChannelLayer"
    return "tournaments.sockets.layers.InMemoryChannelLayer"


# --- The ASGI application (config/asgi.py) --------------------------------------------


def http_application() -> Any:
    """Django's ASGI handler, or ours that runs a request's sync chain in one thread."""
    if not on():
        from django.core.handlers.asgi import ASGIHandler

        return ASGIHandler()
    from config.handler import OneThreadASGIHandler

    return OneThreadASGIHandler()


# The socket pieces are named, as settings name backends, and imported by their callers:
# this module sits below every layer of the app and imports none of its edges.


def websocket_wrapper() -> str | None:
    """The ASGI middleware outermost on the sockets (the hub writes to the server's own
    `send` it keeps), or None."""
    return "tournaments.sockets.hub.ServerSend" if on() else None


def room_consumer() -> str:
    """The room's consumer: Channels' group per socket, or the hub's subscription per process."""
    name = "FastRoomConsumer" if on() else "RoomConsumer"
    return f"tournaments.sockets.consumer.{name}"


def feed_consumer() -> str:
    """The live feed's consumer, on the same footing as the room's."""
    name = "FastFeedConsumer" if on() else "FeedConsumer"
    return f"tournaments.sockets.feed.{name}"


def tune_gc() -> None:
    """Freeze what is loaded at start out of the collector's sight and space out full
    collections: a full collection walked every object at 10,000 entries or 1,000 sockets,
    inside a page or a push (bench/RESULTS.md). Python's defaults on the plain path."""
    if not on():
        return
    import gc

    gc.collect()
    gc.freeze()
    # Young collections stay as they are (cheap, frequent); full ones come after 1,000
    # middle-aged ones instead of 10.
    gc.set_threshold(700, 10, 1000)

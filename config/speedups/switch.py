"""The seam between plain Django and the project's private speedups: every decision is here.

Each speedup replaces or reaches into an upstream internal (Django, Channels,
channels_redis, uvicorn, websockets, psycopg) to meet a goal of `../shared/benches.txt`;
config/speedups/README.md says what each replaces, why, and the figures. `TORNEO_PLAIN=1`
(settings.PLAIN) turns every one of them off at once, and the app runs as the upstream
documentation writes it:

=========================  ==================================  ===============================
piece                      fast (default)                      plain (TORNEO_PLAIN=1)
=========================  ==================================  ===============================
database backend           config.speedups.postgresql          django.db.backends.postgresql
hot reads                  prepared.py: compiled once,         the ORM, built on every call;
                           prepared on the server, read        no reads ahead, writes at once
                           ahead in one trip, writes riding
                           the next trip
sockets                    hub.py + wire.py + coalesce.py      a group membership per socket,
                           (one subscription per process,      a `push` handler that calls
                           frames written to uvicorn)          `self.send`, one read per socket
guess caches               realtime's `heard` (HEARD_FOR),     none: every push renders its
                           the last day/parent seen            fragments
garbage collector          gc.freeze() + thresholds            Python's defaults
=========================  ==================================  ===============================

Not a speedup, in both paths: tournaments/sockets/layerwatch.py closes the sockets when
Redis restarts, so a screen resyncs instead of freezing (a behaviour the room sees).

Each piece can also be turned off alone, to measure what it buys: `TORNEO_PLAIN` takes a
comma-separated list of the PIECES below (`TORNEO_PLAIN=sockets,gc`), and
`bench NAME --paths fast,no-sockets,plain` runs the benchmark with and without it, side by
side. Settings call the functions taking `plain` (Django is not set up yet); the rest of
the app asks `on(piece)`.
"""

from __future__ import annotations

# The upstream releases whose internals the speedups were written against, per
# interpreter line CI runs (Python 3.13 with Django 6.1, Python 3.11 with Django 5.2 LTS).
# tests/speedups/test_switch.py fails, naming the pieces to check again, once an installed
# version differs: update the pieces, then the versions here.
_BOTH_LINES = {
    "channels": "4.3.2",
    "channels_redis": "4.3.0",
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
        "config/speedups/postgresql (DatabaseWrapper's commit and cursors)",
        "config/speedups/prepared.py (SQLCompiler, ModelIterable's populators, Update/Insert/DeleteQuery)",
    ),
    "channels": ("config/speedups/hub.py (consumers' base_send, channel receive)",),
    "channels_redis": ("tournaments/realtime.py (`listening`: group keys counted in Redis)",),
    "uvicorn": ("config/speedups/wire.py (WebSocketsSansIOProtocol's attributes)",),
    "websockets": ("config/speedups/wire.py (Frame.serialize, the protocol's state)",),
    "psycopg": (
        "config/speedups/postgresql (pipeline mode)",
        "config/speedups/prepared.py (server-side binding, prepare=True, pipelines)",
    ),
}


# The pieces, as `TORNEO_PLAIN` names them one by one. "sql" is one piece: the reads
# compiled and read ahead, and the writes riding the next trip, need the backend that
# sends them (a write deferred without it would never be sent).
PIECES: dict[str, str] = {
    "sql": "the database backend, hot reads compiled and read ahead, writes riding the next trip",
    "sockets": "one subscription per process, frames written to the server (hub, wire, coalesce)",
    "fragments": "fragments rendered only for the groups heard (tournaments/realtime.py)",
    "gc": "gc.freeze() and spaced-out full collections",
}


def plain_pieces(value: str) -> frozenset[str]:
    """The pieces `TORNEO_PLAIN` turns off: all for 1/true/yes/on/all, none for empty or
    0/false/no/off, else the comma-separated names (an unknown name is an error: a
    misspelt piece would otherwise measure the fast path under the wrong label)."""
    word = value.strip().lower()
    if word in {"", "0", "false", "no", "off"}:
        return frozenset()
    if word in {"1", "true", "yes", "on", "all"}:
        return frozenset(PIECES)
    names = frozenset(part.strip() for part in word.split(",") if part.strip())
    unknown = sorted(names - PIECES.keys())
    if unknown:
        raise ValueError(
            f"TORNEO_PLAIN names {', '.join(unknown)}: the pieces are {', '.join(PIECES)}"
        )
    return names


def on(piece: str) -> bool:
    """Whether `piece` runs (it is not among settings.PLAIN_PIECES). After setup."""
    from django.conf import settings

    return piece not in getattr(settings, "PLAIN_PIECES", frozenset())


# --- Settings (called from config/settings.py, before Django is set up) --------------


def database_engine(engine: str, *, plain: bool) -> str:
    """The database backend: Django's PostgreSQL one, or ours that pipelines statements."""
    if engine == "django.db.backends.postgresql" and not plain:
        return "config.speedups.postgresql"
    return engine


def prepare_hot_reads(wanted: bool, *, plain: bool) -> bool:
    """Whether the hot reads are prepared on the server (config/speedups/prepared.py)."""
    return wanted and not plain


# --- The ASGI application (config/asgi.py) --------------------------------------------


# The socket pieces are named, as settings name backends, and imported by their callers:
# this module sits below every layer of the app and imports none of its edges.


def websocket_wrapper() -> str | None:
    """The ASGI middleware outermost on the sockets (the hub writes to the server's own
    `send` it keeps), or None."""
    return "config.speedups.hub.ServerSend" if on("sockets") else None


def room_consumer() -> str:
    """The room's consumer: Channels' group per socket, or the hub's subscription per process."""
    name = "FastRoomConsumer" if on("sockets") else "RoomConsumer"
    return f"tournaments.sockets.consumer.{name}"


def feed_consumer() -> str:
    """The live feed's consumer, on the same footing as the room's."""
    name = "FastFeedConsumer" if on("sockets") else "FeedConsumer"
    return f"tournaments.sockets.feed.{name}"


def tune_gc() -> None:
    """Freeze what is loaded at start out of the collector's sight and space out full
    collections: a full collection walked every object at 10,000 entries or 1,000 sockets,
    inside a page or a push (bench/RESULTS.md). Python's defaults on the plain path."""
    if not on("gc"):
        return
    import gc

    gc.collect()
    gc.freeze()
    # Young collections stay as they are (cheap, frequent); full ones come after 1,000
    # middle-aged ones instead of 10.
    gc.set_threshold(700, 10, 1000)

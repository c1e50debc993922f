"""Every benchmark by name: `python manage.py bench NAME` runs one, `bench --list` names them.

Each returns (summary lines, figures); the command prints the lines, then the figures as one
JSON object on the last line. The list is written out here, not gathered by imports.
"""

from __future__ import annotations

from collections.abc import Callable

from bench import balance, dealers, engine, entries, fanout, feed, fuzz, load, pages, reconnect
from bench.common import Summary

Bench = Callable[..., Summary]

BENCHES: dict[str, Bench] = {
    "seat_draw": entries.seat_draw,
    "registration": entries.registration,
    "registration_load": load.registration_load,
    "fanout": fanout.fanout,
    "feed": feed.feed,
    "reconnect": reconnect.reconnect,
    "fuzz": fuzz.fuzz,
    "balance": balance.run,
    "engine": engine.run,
    "pages": pages.run,
    "dealers": dealers.run,
}

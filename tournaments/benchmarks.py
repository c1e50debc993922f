"""Benchmarks run by `manage.py bench NAME`: each returns (summary lines, figures)."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from tables.models import Seat
from tournaments import services
from tournaments.models import Entry, Player, Tournament

Figures = dict[str, Any]
BENCHES: dict[str, Callable[..., tuple[list[str], Figures]]] = {}


def bench(name: str):
    def register(fn):
        BENCHES[name] = fn
        return fn

    return register


def _db() -> str:
    return connection.vendor


def _actor():
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_staff": True})
    return user


def _fresh_tournament(name: str, *, entries: int, seats: int = 9) -> Tournament:
    """A tournament with enough tables and `entries` unseated active entries (not timed)."""
    now = timezone.now()
    actor = _actor()
    tournament = services.tournament_create(
        actor=actor,
        fields={"name": name, "date": now.date(), "max_entries": 1, "seats_per_table": seats},
        now=now,
    )
    services.structure_set(
        tournament=tournament,
        actor=actor,
        items=[services.ItemSpec(kind="level", small_blind=100, big_blind=200, minutes=20)],
        now=now,
    )
    tables = max(1, math.ceil(entries / seats))
    services.tables_add(
        tournament=tournament,
        actor=actor,
        first=1,
        last=tables,
        max_seats=seats,
        accessible_seats=[],
        reserved_seats=[],
        now=now,
    )
    players = Player.objects.bulk_create(
        Player(first_name=f"P{i}", last_name=f"Bench{i:05d}") for i in range(entries)
    )
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=p,
            number=i + 1,
            chips=tournament.starting_stack,
            created_at=now,
        )
        for i, p in enumerate(players)
    )
    return tournament


def _cleanup(tournament: Tournament) -> None:
    player_ids = list(tournament.entries.values_list("player_id", flat=True))
    tournament.delete()
    Player.objects.filter(pk__in=player_ids).delete()


@bench("seat_draw")
def seat_draw(*, entries: int = 10000, **_: Any) -> tuple[list[str], Figures]:
    """Draw and persist `entries` seats into 9-seat tables, then time a bare bulk insert
    of the same rows for comparison."""
    tournament = _fresh_tournament("Bench seat draw", entries=entries)
    try:
        start = time.perf_counter()
        assignments = services.seats_draw_all(
            tournament=tournament, actor=_actor(), now=timezone.now()
        )
        draw_s = time.perf_counter() - start
        assert len(assignments) == entries
        rows = list(
            Seat.objects.filter(table__tournament=tournament).values(
                "table_id", "number", "entry_id", "assigned_at"
            )
        )
        assert len({(r["table_id"], r["number"]) for r in rows}) == entries
        Seat.objects.filter(table__tournament=tournament).delete()
        start = time.perf_counter()
        with transaction.atomic():
            Seat.objects.bulk_create(Seat(**row) for row in rows)
        bulk_s = time.perf_counter() - start
    finally:
        _cleanup(tournament)
    counts: dict[int, int] = {}
    for table, _seat in assignments.values():
        counts[table] = counts.get(table, 0) + 1
    figures = {
        "bench": "seat_draw",
        "entries": entries,
        "db": _db(),
        "tables": len(counts),
        "spread": max(counts.values()) - min(counts.values()),
        "draw_s": round(draw_s, 4),
        "bulk_insert_s": round(bulk_s, 4),
        "ratio": round(draw_s / bulk_s, 2) if bulk_s else None,
    }
    summary = [
        f"Seat draw of {entries} entries on {_db()}: {draw_s:.3f} s "
        f"({len(counts)} tables, counts differ by at most {figures['spread']})",
        f"Bare bulk insert of the same rows: {bulk_s:.3f} s; ratio {figures['ratio']}",
    ]
    return summary, figures


@bench("registration")
def registration(
    *, existing: int = 5000, samples: int = 200, **_: Any
) -> tuple[list[str], Figures]:
    """Time the registration service (one entry, seat drawn, logged) with `existing`
    entries already seated in the event."""
    tournament = _fresh_tournament("Bench registration", entries=existing)
    actor = _actor()
    try:
        services.seats_draw_all(tournament=tournament, actor=actor, now=timezone.now())
        # Room for the new entries: one more bank of tables, still closed.
        last = tournament.tables.count()
        services.tables_add(
            tournament=tournament,
            actor=actor,
            first=last + 1,
            last=last + math.ceil(samples / 9) + 1,
            max_seats=9,
            accessible_seats=[],
            reserved_seats=[],
            now=timezone.now(),
        )
        players = Player.objects.bulk_create(
            Player(first_name=f"N{i}", last_name=f"New{i:05d}") for i in range(samples)
        )
        timings = []
        for player in players:
            start = time.perf_counter()
            services.entry_register(
                tournament=tournament, player=player, actor=actor, now=timezone.now()
            )
            timings.append(time.perf_counter() - start)
    finally:
        _cleanup(tournament)
    timings.sort()
    p50 = statistics.median(timings) * 1000
    p95 = timings[max(0, math.ceil(0.95 * len(timings)) - 1)] * 1000
    figures = {
        "bench": "registration",
        "existing_entries": existing,
        "samples": samples,
        "db": _db(),
        "p50_ms": round(p50, 2),
        "p95_ms": round(p95, 2),
        "max_ms": round(timings[-1] * 1000, 2),
    }
    return [
        f"Registration with {existing} entries in the event on {_db()}: "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms over {samples} entries"
    ], figures


# Benchmarks that live in their own modules register themselves on import.
from tournaments import bench_modules  # noqa: E402,F401

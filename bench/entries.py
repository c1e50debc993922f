"""`bench seat_draw` and `bench registration`: the draw and the desk's write at scale."""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from bench import common
from bench.common import Figures, cleanup, db_vendor, fresh_tournament
from tournaments.models import Player, Seat
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import seats as seat_services


def seat_draw(*, entries: int = 10000, repeat: int = 3, **_: Any) -> tuple[list[str], Figures]:
    """Draw and persist `entries` seats into 9-seat tables, then time a bare bulk insert of
    the same rows; `repeat` rounds, each on a fresh event, medians reported (the machine's
    other load moves single runs by ±30 %)."""
    draws, bulks, spreads = [], [], []
    for _round in range(max(1, repeat)):
        draw_s, bulk_s, spread = _seat_draw_once(entries)
        draws.append(draw_s)
        bulks.append(bulk_s)
        spreads.append(spread)
    draw_s, bulk_s = statistics.median(draws), statistics.median(bulks)
    figures = {
        "bench": "seat_draw",
        "entries": entries,
        "db": db_vendor(),
        "rounds": len(draws),
        "tables": math.ceil(entries / 9),
        "spread": max(spreads),
        "draw_s": round(draw_s, 4),
        "bulk_insert_s": round(bulk_s, 4),
        "ratio": round(draw_s / bulk_s, 2) if bulk_s else None,
    }
    summary = [
        f"Seat draw of {entries} entries on {db_vendor()}, median of {len(draws)}: "
        f"{draw_s:.3f} s (counts per table differ by at most {figures['spread']}; the "
        "permutation is in the event log)",
        f"Bare bulk insert of the same rows: {bulk_s:.3f} s; ratio {figures['ratio']} (goal 1.5)",
    ]
    return summary, figures


def _seat_draw_once(entries: int) -> tuple[float, float, int]:
    tournament = fresh_tournament("Bench seat draw", entries=entries)
    try:
        start = time.perf_counter()
        assignments = seat_services.seats_draw_all(
            tournament=tournament, actor=common.actor(), now=timezone.now()
        )
        draw_s = time.perf_counter() - start
        assert len(assignments) == entries
        logged = tournament.events.get(action="seats.draw")
        assert logged.data["seated"] == entries  # recorded, as the floor's audit needs
        rows = list(
            Seat.objects.filter(table__tournament=tournament).values(
                "table_id",
                "number",
                "entry_id",
                "assigned_at",
                # The seating board's keys, as the draw writes them: bare is every column.
                "tournament_id",
                "board_last_name",
                "board_first_name",
            )
        )
        assert len({(r["table_id"], r["number"]) for r in rows}) == entries
        Seat.objects.filter(table__tournament=tournament).delete()
        start = time.perf_counter()
        with transaction.atomic():
            Seat.objects.bulk_create(Seat(**row) for row in rows)
        bulk_s = time.perf_counter() - start
    finally:
        cleanup(tournament)
    counts: dict[int, int] = {}
    for table, _seat in assignments.values():
        counts[table] = counts.get(table, 0) + 1
    return draw_s, bulk_s, max(counts.values()) - min(counts.values())


def registration(
    *, existing: int = 5000, samples: int = 200, **_: Any
) -> tuple[list[str], Figures]:
    """Time the registration service (one entry, seat drawn, logged) with `existing`
    entries already seated in the event."""
    tournament = fresh_tournament("Bench registration", entries=existing)
    actor = common.actor()
    try:
        seat_services.seats_draw_all(tournament=tournament, actor=actor, now=timezone.now())
        # Room for the new entries: one more bank of tables, still closed.
        last = tournament.tables.count()
        layout_services.tables_add(
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
            entry_services.entry_register(
                tournament=tournament, player=player, actor=actor, now=timezone.now()
            )
            timings.append(time.perf_counter() - start)
    finally:
        cleanup(tournament)
    timings.sort()
    p50 = statistics.median(timings) * 1000
    p95 = timings[max(0, math.ceil(0.95 * len(timings)) - 1)] * 1000
    figures = {
        "bench": "registration",
        "existing_entries": existing,
        "samples": samples,
        "db": db_vendor(),
        "p50_ms": round(p50, 2),
        "p95_ms": round(p95, 2),
        "max_ms": round(timings[-1] * 1000, 2),
    }
    return [
        f"Registration with {existing} entries in the event on {db_vendor()}: "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms over {samples} entries"
    ], figures

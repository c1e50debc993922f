"""`bench balance`: the balancing planner and the apply service at a 10,000-player room.

Three figures:
- plan_one_ms_median: the pure plan (`tables.rules.balancing.plan_room`) of a balanced room of
  `tables` full tables right after one elimination, median over many eliminations;
- full_rebalance_ms: a badly skewed room (a block of short tables, halted) planned and
  applied in memory until nothing is left to do (breaks first, then balancing moves);
- apply_p95_ms: the apply service (`plan_apply`: load, plan, move, log, push) on the
  configured database after one elimination, p95 over `applies` eliminations, called as
  the server calls it: a sync service in Django's thread-sensitive executor under a running
  event loop, so its pushes go out through that loop's channel-layer connections;
- apply_sync_p95_ms: the same from a plain sync process (a management command, a Celery
  worker), where every push of a change starts an event loop and a Redis connection of its
  own (tournaments/realtime.py `_blocking`): a break of nine moves pushes ten times.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from bench.common import Figures, actor, cleanup, fresh_tournament
from tables.rules import balancing
from tables.rules.buttons import Positions
from tournaments.models import Entry, Table
from tournaments.services import moves as room_services
from tournaments.services import results
from tournaments.services.seats import seats_draw_all

SEATS = 9


def _positions(seats: int, button: int) -> Positions:
    sb = button % seats + 1
    return Positions(button=button, sb=sb, bb=sb % seats + 1)


def _room(counts: list[int]) -> list[balancing.Table]:
    """Tables numbered from 1, each with its first `count` seats taken, button on seat 1."""
    tables = []
    player = 0
    for index, count in enumerate(counts, start=1):
        seats = {}
        for seat in range(1, count + 1):
            player += 1
            seats[seat] = f"p{player}"
        tables.append(
            balancing.Table(
                table_id=str(index),
                max_seats=SEATS,
                seats=seats,
                last_hand=_positions(SEATS, 1),
                number=index,
            )
        )
    return tables


def _apply(tables: dict[str, balancing.Table], plan: balancing.RoomPlan) -> int:
    """Carry a plan out in memory, as the floor would: only the tables it names change.
    Returns how many players moved."""
    changed: dict[str, dict[int, str]] = {}

    def seats(table_id: str) -> dict[int, str]:
        if table_id not in changed:
            changed[table_id] = dict(tables[table_id].seats or {})
        return changed[table_id]

    moved = 0
    decision = plan.break_table
    if decision.break_now and decision.table_id is not None:
        players = list(seats(decision.table_id).values())
        for player, card in zip(players, decision.seat_cards, strict=False):
            seats(card.table)[card.seat] = player
            moved += 1
        changed[decision.table_id] = {}
    else:
        for move in plan.moves:
            if move.from_seat is None or move.to_seat is None:
                continue
            player = seats(move.from_table).pop(move.from_seat)
            seats(move.to_table)[move.to_seat] = player
            moved += 1
    for tid, after in changed.items():
        table = tables[tid]
        tables[tid] = balancing.Table(
            table_id=tid,
            max_seats=table.max_seats,
            seats=after,
            last_hand=table.last_hand,
            number=table.number,
        )
    return moved


def plan_one(tables: int, samples: int, rng: random.Random) -> list[float]:
    room = _room([SEATS] * tables)
    settings = balancing.RoomSettings(seats_per_table=SEATS)
    timings = []
    for _ in range(samples):
        index = rng.randrange(tables)
        table = room[index]
        seat = rng.randrange(1, SEATS + 1)
        after = dict(table.seats or {})
        after.pop(seat)
        busted = [*room]
        busted[index] = balancing.Table(
            table_id=table.table_id,
            max_seats=SEATS,
            seats=after,
            last_hand=table.last_hand,
            number=table.number,
        )
        start = time.perf_counter()
        balancing.plan_room(busted, settings)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def full_rebalance(tables: int, short: int) -> tuple[float, int, int, bool]:
    """The first `short` tables hold 3 players, the rest are full: plan and apply until the
    plan asks for nothing. Returns (ms, plans, players moved, balanced at the end)."""
    counts = [3] * short + [SEATS] * (tables - short)
    room = {t.table_id: t for t in _room(counts)}
    settings = balancing.RoomSettings(seats_per_table=SEATS)
    plans = moved = 0
    start = time.perf_counter()
    while True:
        plan = balancing.plan_room(list(room.values()), settings)
        plans += 1
        if not plan.moves and not plan.break_table.break_now:
            break
        moved += _apply(room, plan)
        if plans > 10 * tables:
            break
    ms = (time.perf_counter() - start) * 1000
    live = [t.count for t in room.values() if t.count]
    return ms, plans, moved, max(live) - min(live) <= settings.balance_max_diff


def apply_timings(
    tournament, user, samples: int, rng: random.Random, *, under_loop: bool = False
) -> tuple[list[float], dict]:
    """Eliminate one seated player at a time (not timed) and time the apply service that
    follows: nothing to do, a balancing move, or a table break. `under_loop`: called as a
    view is under the ASGI server (see the module's docstring)."""
    Table.objects.filter(tournament=tournament).update(button=1, sb=2, bb=3)
    entries = list(
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, seat__isnull=False
        ).values_list("pk", flat=True)
    )
    rng.shuffle(entries)
    timings: list[float] = []
    kinds: dict[str, int] = {}

    def one(pk: int) -> None:
        entry = Entry.objects.filter(pk=pk, status=Entry.Status.ACTIVE).first()
        if entry is None:
            return
        results.eliminations_record(
            tournament=tournament,
            busts=[results.Bust(entry=entry, start_stack=0)],
            actor=user,
            now=timezone.now(),
        )
        start = time.perf_counter()
        applied = room_services.plan_apply(
            tournament=tournament, actor=user, now=timezone.now(), rng=rng
        )
        timings.append((time.perf_counter() - start) * 1000)
        kinds[applied.kind] = kinds.get(applied.kind, 0) + 1

    if not under_loop:
        for pk in entries[:samples]:
            one(pk)
        return timings, kinds

    async def served() -> None:
        # As Django's ASGI handler runs a sync view: one thread, the loop waiting on it.
        call = sync_to_async(one, thread_sensitive=True)
        for pk in entries[:samples]:
            await call(pk)

    asyncio.run(served())
    return timings, kinds


def _p95(timings: list[float]) -> float:
    ordered = sorted(timings)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def run(
    *,
    tables: int = 1112,
    samples: int = 200,
    applies: int = 60,
    short: int = 40,
    seed: int = 7,
    **_: Any,
) -> tuple[list[str], Figures]:
    """Time the pure plan, a full rebalance and the apply service (figures as above)."""
    rng = random.Random(seed)
    plan = sorted(plan_one(tables, samples, rng))
    plan_median = statistics.median(plan)
    full_ms, plans, moved, balanced = full_rebalance(tables, short)
    entries = tables * SEATS
    tournament = fresh_tournament("Bench balance", entries=entries)
    try:
        tournament.auto_apply_moves = False
        tournament.save(update_fields=["auto_apply_moves"])
        seats_draw_all(tournament=tournament, actor=actor(), now=timezone.now(), rng=rng)
        timings, kinds = apply_timings(tournament, actor(), applies, rng, under_loop=True)
        sync_timings, sync_kinds = apply_timings(tournament, actor(), applies, rng)
    finally:
        cleanup(tournament)
    p95, sync_p95 = _p95(timings), _p95(sync_timings)
    figures = {
        "bench": "balance",
        "tables": tables,
        "db": connection.vendor,
        "plan_one_ms_median": round(plan_median, 3),
        "plan_one_ms_p95": round(plan[max(0, math.ceil(0.95 * len(plan)) - 1)], 3),
        "full_rebalance_ms": round(full_ms, 2),
        "full_rebalance_plans": plans,
        "full_rebalance_moved": moved,
        "apply_p50_ms": round(statistics.median(timings), 2),
        "apply_p95_ms": round(p95, 2),
        "apply_kinds": kinds,
        "apply_sync_p50_ms": round(statistics.median(sync_timings), 2),
        "apply_sync_p95_ms": round(sync_p95, 2),
        "apply_sync_kinds": sync_kinds,
    }
    summary = [
        f"Pure plan after one elimination, {tables} full tables: median {plan_median:.2f} ms "
        f"over {samples} eliminations (goal <= 5 ms)",
        f"Full rebalance of a skewed room ({short} tables of 3, the rest full): "
        f"{full_ms:.1f} ms, {plans} plans, {moved} players moved, balanced: {balanced} "
        "(goal <= 100 ms)",
        f"Apply service on {connection.vendor} after each of {len(timings)} eliminations "
        f"({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items()))}): "
        f"p50 {figures['apply_p50_ms']} ms, p95 {p95:.1f} ms (goal p95 <= 100 ms), called "
        "as the server calls it",
        f"The same from a plain sync process (every push its own event loop and Redis "
        f"connection), {len(sync_timings)} eliminations "
        f"({', '.join(f'{k}: {v}' for k, v in sorted(sync_kinds.items()))}): "
        f"p50 {figures['apply_sync_p50_ms']} ms, p95 {sync_p95:.1f} ms",
    ]
    return summary, figures

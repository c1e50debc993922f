"""`bench registration_load`: desks registering players at once, over HTTP, on PostgreSQL.

The real app runs under uvicorn with two workers (as in production) on the configured
PostgreSQL database. Each desk is a logged-in browser (session and CSRF cookies) in its
own thread; it opens the desk page and posts the New player form with "Add and
register", as the clerk's click does, then opens the seat card it is sent to. The
latency of a registration is that POST's. Afterwards the database must hold exactly one
entry per registration, each on its own seat.
"""

from __future__ import annotations

import math
import os
import re
import secrets
import statistics
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from bench.common import Figures
from bench.liveserver import Browser, serve
from tournaments.models import Player, Role, Seat, StaffAssignment, Tournament
from tournaments.services import layout as layout_services
from tournaments.services import presets
from tournaments.services import setup as setup_services

# This bench's goals, as ../shared/benches.txt states them.
GOAL_PER_S = 30.0
GOAL_P95_MS = 1000.0


def goal_met(figures: dict[str, Any]) -> bool:
    """Whether a run met the goals: right (`ok`), fast enough, and soon enough."""
    return bool(
        figures["ok"]
        and figures["registrations_per_s"] >= GOAL_PER_S
        and figures["p95_ms"] <= GOAL_P95_MS
    )


SEAT_CARD = re.compile(r"/t/[\w-]+/entries/(\d+)/seat/$")


@dataclass
class DeskRun:
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall_s: float = 0.0


def run_desks(browsers: Sequence[Browser], slug: str, per_desk: int, *, tag: str) -> DeskRun:
    """Every browser (a logged-in desk) registers `per_desk` new players, all at once."""
    run = DeskRun()
    lock = threading.Lock()
    barrier = threading.Barrier(len(browsers))

    def failed(message: str) -> None:
        with lock:
            run.errors.append(message)

    def desk(number: int, browser: Browser) -> None:
        barrier.wait()
        for n in range(per_desk):
            try:
                page = browser.get(f"/t/{slug}/desk/")
                if page.status != 200:
                    failed(f"desk {number}: desk page answered {page.status}")
                    continue
                last_name = f"{tag}D{number:02d}N{n:03d}"
                form = {
                    "first_name": "Bench",
                    "last_name": last_name,
                    "document_number": "",
                    "nationality": "",
                    "register": "1",
                }
                start = time.perf_counter()
                answer = browser.post(f"/t/{slug}/desk/players/new/", form)
                elapsed = (time.perf_counter() - start) * 1000
                if answer.status != 302 or not SEAT_CARD.search(answer.location):
                    failed(
                        f"desk {number}: registration answered {answer.status} {answer.location}"
                    )
                    continue
                with lock:
                    run.latencies_ms.append(elapsed)
                card = browser.get(answer.location)
                if card.status != 200 or last_name.encode() not in card.body:
                    failed(f"desk {number}: seat card answered {card.status}")
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                failed(f"desk {number}: {exc!r}")

    threads = [
        threading.Thread(target=desk, args=(i, b), daemon=True) for i, b in enumerate(browsers)
    ]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run.wall_s = time.perf_counter() - start
    return run


def check_entries(tournament: Tournament) -> dict[str, int]:
    """What the database holds for the tournament: entries, seats, distinct seats."""
    seats = list(
        Seat.objects.filter(table__tournament=tournament).values_list("table_id", "number")
    )
    numbers = list(tournament.entries.values_list("number", flat=True))
    return {
        "entries": len(numbers),
        "distinct_numbers": len(set(numbers)),
        "seats": len(seats),
        "distinct_seats": len(set(seats)),
    }


def desk_tournament(*, entries: int, seats: int = 9, now=None) -> tuple[Any, Tournament]:
    """A fresh tournament with room for `entries` players, and its TD."""
    now = now or timezone.now()
    td = get_user_model().objects.create_user(f"bench-td-{secrets.token_hex(4)}")
    tournament = setup_services.tournament_create(
        actor=td,
        fields={"name": "Bench registration load", "date": now.date(), "seats_per_table": seats},
        now=now,
    )
    setup_services.structure_set(
        tournament=tournament, actor=td, items=presets.preset_items("club"), now=now
    )
    layout_services.tables_add(
        tournament=tournament,
        actor=td,
        first=1,
        last=math.ceil(entries / seats) + 1,
        max_seats=seats,
        accessible_seats=[],
        reserved_seats=[],
        now=now,
    )
    return td, tournament


def desk_users(tournament: Tournament, count: int, *, password: str | None = None) -> list:
    """`count` desk clerks of the tournament (one password hash for all: hashing is slow)."""
    encoded = make_password(password) if password else "!"
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench-desk-{secrets.token_hex(4)}-{i:02d}", password=encoded)
        for i in range(count)
    )
    StaffAssignment.objects.bulk_create(
        StaffAssignment(tournament=tournament, user=user, role=Role.DESK) for user in users
    )
    return users


def _stat(pid: str) -> tuple[int, int] | None:
    """(parent pid, CPU ticks used) of a process, from /proc (Linux); None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), int(fields[11]) + int(fields[12])  # ppid, utime + stime


def server_cpu_s(pid: int) -> float | None:
    """CPU seconds the server and its workers have used so far (None off Linux): the
    server's cost of a registration, whatever else the machine is running meanwhile."""
    if not os.path.isdir("/proc"):
        return None
    ticks = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            found = _stat(name)
            if found is not None and (int(name) == pid or found[0] == pid):
                ticks += found[1]
    return ticks / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def registration_load(
    *, desks: int = 20, per_desk: int = 50, **_: Any
) -> tuple[list[str], Figures]:
    if not settings.USING_POSTGRES:
        raise CommandError(
            "registration_load measures concurrent desks on PostgreSQL: set DATABASE_URL="
            "postgres://... (SQLite serialises every writer)."
        )
    total = desks * per_desk
    password = secrets.token_urlsafe(12)
    td, tournament = desk_tournament(entries=total)
    users = desk_users(tournament, desks, password=password)
    tag = secrets.token_hex(3).upper()
    workers = 2
    try:
        # As ./bin/serve runs it: pooled PostgreSQL connections (config/settings.py).
        with serve(workers=workers, env={"DB_POOL": "1"}) as server:
            browsers = [Browser(server.url) for _ in users]
            logins = [
                threading.Thread(target=b.login, args=(u.username, password))
                for b, u in zip(browsers, users, strict=True)
            ]
            for thread in logins:
                thread.start()
            for thread in logins:
                thread.join()
            if not all(b.cookies.get(settings.SESSION_COOKIE_NAME) for b in browsers):
                raise CommandError("a desk could not log in")
            cpu_before = server_cpu_s(server.popen.pid)
            run = run_desks(browsers, tournament.slug, per_desk, tag=tag)
            cpu_after = server_cpu_s(server.popen.pid)
            for browser in browsers:
                browser.close()
        found = check_entries(tournament)
    finally:
        player_ids = list(tournament.entries.values_list("player_id", flat=True))
        tournament.delete()
        Player.objects.filter(pk__in=player_ids).delete()
        Player.objects.filter(last_name__startswith=tag).delete()
        get_user_model().objects.filter(pk__in=[u.pk for u in users] + [td.pk]).delete()

    latencies = run.latencies_ms or [math.nan]
    figures = {
        "bench": "registration_load",
        "desks": desks,
        "per_desk": per_desk,
        "entries": found["entries"],
        "distinct_seats": found["distinct_seats"],
        "seats": found["seats"],
        "errors": len(run.errors),
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(_percentile(latencies, 0.95), 1),
        "max_ms": round(max(latencies), 1),
        "registrations_per_s": round(len(run.latencies_ms) / run.wall_s, 1),
        # The server's CPU time per desk cycle (desk page, registration, seat card): the
        # figure the machine's other load moves least.
        "server_cpu_ms_per_cycle": round((cpu_after - cpu_before) * 1000 / total, 1)
        if cpu_before is not None and cpu_after is not None
        else None,
        "db": connection.vendor,
        "workers": workers,
        "layer": "redis" if settings.REDIS_URL else "memory",
        "ok": found["entries"] == total == found["distinct_seats"] == found["seats"]
        and not run.errors,
    }
    figures["goal_met"] = goal_met(figures)
    summary = [
        f"{desks} desks x {per_desk} registrations over HTTP (uvicorn, {workers} workers, "
        f"{connection.vendor}): {found['entries']} entries on {found['distinct_seats']} distinct "
        f"seats, {len(run.errors)} errors, in {run.wall_s:.1f} s",
        f"Registration POST: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, "
        f"max {figures['max_ms']} ms; server CPU {figures['server_cpu_ms_per_cycle']} ms a "
        "cycle (desk page, registration, seat card)",
        *[f"error: {e}" for e in run.errors[:5]],
        f"Goal (>= {GOAL_PER_S:g} registrations/s, p95 <= {GOAL_P95_MS:g} ms, one entry a seat): "
        + ("met" if figures["goal_met"] else "NOT met"),
    ]
    return summary, figures

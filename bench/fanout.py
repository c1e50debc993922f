"""`bench fanout`: one change reaching a thousand screens, against a bare broadcast.

The real ASGI app runs under uvicorn (one worker) in a subprocess, on the configured
database and the chosen channel layer. A client process (bench.wsload) opens the clock
screens' sockets (checking each shows the clock's current state: `connect_s`), then
makes the changes of one kind (`--kind`):

- `clock`: a TD's socket changes the clock as the console does;
- `elimination`: the floor eliminates a player through the site's form;
- `move`: the floor moves a player to another table through the site's form.

The forms are posted from the clients' own event loop (bench.wsload.FormPoster), as the
bare server's trigger is sent from it: no thread of the measuring process takes the
interpreter from the loop reading the sockets while a change is timed.

Each change's latency is measured at every client, after changes on each server that
are made the same way but not timed (WARMUP, one per pooled database connection). Beside
it, change by change, the same client process measures a bare `websockets` server
broadcasting to as many clients the very bytes the real server pushed for that change:
once a change has reached every screen, the bare server sends it again, so both sides
are timed on the machine as it is at that moment (its speed swings from one minute to
the next: a bare run after the real one was measured on another machine).

`--phases` also times each change's steps on the server (bench/phases.py): when its
COMMIT began and ended, when the push began to render and was handed to the channel
layer, when its first and last local socket were written. That is where the time from
the change to the first screen goes.

The clock is paused while it changes (time taken off and given back), so no level
boundary falls due and no announcement task runs: the figures are the push alone.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from bench import phases as timing
from bench.common import Figures
from bench.liveserver import HOST, Browser, free_port, serve, spawn
from tournaments import selectors
from tournaments.models import DisplayScreen, Player, Role, Seat, StaffAssignment, Table, Tournament
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import presets
from tournaments.services import setup as setup_services

GOAL_P99_MS = 150
GOAL_RATIO = 1.5
# Changes made first on each server and not timed: the real server's first run of a
# path compiles its templates and prepares its statements (once per process); the first
# of twenty changes then held the whole p99 (the top 1% of 20,000 receipts is 200 of one
# change's 1,000). And the server's pooled database connections serve the changes in
# turn (up to DB_POOL_MAX, 8): a PostgreSQL backend's first run of a statement fills its
# caches and compiles the tally's trigger function (migration 0017). With --phases
# each backend's first commit is seen to be slower than every later one. One
# change per pooled connection, then, before the steady state is timed.
WARMUP = 8
# Timed changes a run. A p99 over twenty changes is the tail of the slowest one or two,
# on either side, so the verdict would go by which side drew a slow change; a hundred
# changes make the ratio steady, for about forty seconds more a run.
CHANGES = 100
KINDS = ("clock", "elimination", "move")
SEATS = 9


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (`share` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def run_load(mode: str, config: dict[str, Any], *, timeout: float = 900) -> dict[str, Any]:
    """Run the client process (its own core) in `mode` and return what it measured.

    Its config and result go through files and its output to a file: nothing it writes
    can fill a pipe and stall it (a run died reading a 128 KiB pipe)."""
    with (
        tempfile.TemporaryDirectory(prefix="bench-ws-") as folder,
        open(os.path.join(folder, "log"), "w+b") as log,
    ):
        config_path = os.path.join(folder, "config.json")
        out_path = os.path.join(folder, "out.json")
        with open(config_path, "w") as handle:
            json.dump(config, handle)
        child = subprocess.Popen(
            [sys.executable, "-m", "bench.wsload", mode, config_path, out_path],
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            code = child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            code = -9
        log.seek(0)
        output = log.read().decode(errors="replace")[-3000:]
        if code != 0 or not os.path.exists(out_path):
            raise CommandError(f"the client process failed ({code}):\n{output}")
        with open(out_path) as handle:
            return json.load(handle)


def run_clients(**config: Any) -> dict[str, Any]:
    return run_load("clients", config)


def clock_changes(changes: int) -> list[dict[str, Any]]:
    # Take thirty seconds off, give them back: the paused clock changes, nothing falls due.
    return [
        {"type": "control", "action": "adjust", "seconds": -30 if i % 2 == 0 else 30}
        for i in range(changes)
    ]


def fanout_tournament(password: str, *, players: int = 0):
    """A TD, a paused clock, a clock screen and `players` seated at 7 of 9 seats a table
    (room to move; the seat draw places them)."""
    now = timezone.now()
    users = get_user_model()
    td = users.objects.create_user(f"bench-td-{secrets.token_hex(4)}", password=password)
    tournament = setup_services.tournament_create(
        actor=td,
        fields={"name": "Bench fanout", "date": now.date(), "seats_per_table": SEATS},
        now=now,
    )
    StaffAssignment.objects.get_or_create(
        tournament=tournament, user=td, defaults={"role": Role.TD}
    )
    setup_services.structure_set(
        tournament=tournament, actor=td, items=presets.preset_items("deep"), now=now
    )
    screen = DisplayScreen.objects.create(tournament=tournament, name="Bench clock")
    if players:
        layout_services.tables_add(
            tournament=tournament,
            actor=td,
            first=1,
            last=max(2, math.ceil(players / (SEATS - 2))),
            max_seats=SEATS,
            accessible_seats=[],
            reserved_seats=[],
            now=now,
        )
        for i in range(players):
            player = Player.objects.create(first_name=f"F{i}", last_name=f"Fanout{i:04d}")
            entry_services.entry_register(
                tournament=tournament, player=player, actor=td, now=timezone.now()
            )
    # Start and pause here without a broker: no boundary task is queued for a bench.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        clock_services.clock_start(tournament=tournament, actor=td, now=now)
        clock_services.clock_pause(tournament=tournament, actor=td, now=timezone.now())
    tournament.refresh_from_db()
    return td, tournament, screen


def elimination_posts(tournament: Tournament, changes: int) -> list[dict[str, Any]]:
    """The floor eliminates `changes` players, one post each (the site's own form)."""
    numbers = list(
        tournament.entries.filter(seat__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)[:changes]
    )
    if len(numbers) < changes:
        raise CommandError(f"only {len(numbers)} players to eliminate")
    return [
        {"path": reverse("eliminate", args=[tournament.slug, number]), "form": {}}
        for number in numbers
    ]


def move_posts(tournament: Tournament, changes: int) -> list[dict[str, Any]]:
    """The floor moves one player to a free seat at another table and back, in turn."""
    seat = (
        Seat.objects.select_related("table", "entry").filter(table__tournament=tournament).first()
    )
    if seat is None:
        raise CommandError("nobody is seated to move")
    taken = set(
        Seat.objects.filter(table__tournament=tournament).values_list("table__number", "number")
    )
    free = next(
        (table.number, number)
        for table in Table.objects.filter(tournament=tournament).exclude(pk=seat.table_id)
        for number in range(1, table.max_seats + 1)
        if (table.number, number) not in taken
    )
    places = [free, (seat.table.number, seat.number)]
    path = reverse("player_move", args=[tournament.slug])
    return [
        {
            "path": path,
            "form": {
                "entry": str(seat.entry.number),
                "table": str(places[i % 2][0]),
                "seat": str(places[i % 2][1]),
            },
        }
        for i in range(changes)
    ]


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """Latency from the change to each screen; and from the first screen's receipt to
    each screen's (`fanout_p99_ms`: the fan-out alone, without the service's own work);
    `first_p50_ms`: the median time to the first screen (the service and its commit)."""
    latencies = result["latencies_ms"]
    if not latencies:
        return {
            "p50_ms": None,
            "p99_ms": None,
            "max_ms": None,
            "fanout_p99_ms": None,
            "first_p50_ms": None,
        }
    fanned = result.get("fanout_ms") or [0.0]
    return {
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1),
        "fanout_p99_ms": round(percentile(fanned, 0.99), 1),
        "first_p50_ms": round(statistics.median(row[0] for row in result["per_change_ms"]), 1),
    }


# The changes named as holding the slowest 1% of receipts (the p99 is the fastest of
# those): over a hundred changes one or two slow ones can hold most of it, and what they
# waited for on the server (`--phases`) is where the p99 went.
TAIL_NAMED = 3


def _tail(tail: list[list[float]], marks: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The changes holding the slowest 1% of receipts, most first, each with its server
    steps (from `--phases`) where they were timed."""
    named = []
    for place, slow, last in tail[:TAIL_NAMED]:
        row: dict[str, Any] = {"change": int(place) + 1, "receipts": int(slow), "last_ms": last}
        if marks is not None and int(place) < len(marks):
            mark = marks[int(place)]
            if {"commit", "committed", "first_write", "all_written"} <= mark.keys():
                row["server_ms"] = {
                    "commit": round(mark["committed"] - mark["commit"], 1),
                    "first_write": round(mark["first_write"], 1),
                    "writing": round(mark["all_written"] - mark["first_write"], 1),
                    "gc": mark.get("gc_ms", 0.0),
                }
        named.append(row)
    return named


def _describe_tail(ours: list[dict[str, Any]], bare: list[dict[str, Any]]) -> str:
    def one(row: dict[str, Any]) -> str:
        text = f"#{row['change']} ({row['receipts']} receipts, slowest {row['last_ms']} ms"
        server = row.get("server_ms")
        if server:
            text += (
                f"; on the server its COMMIT took {server['commit']} ms, its first socket was "
                f"written at {server['first_write']} ms and the rest in {server['writing']} ms, "
                f"garbage collection {server['gc']} ms"
            )
        return text + ")"

    return (
        "The slowest 1% of receipts (the p99 is the fastest of them) came mostly from changes "
        + ("; ".join(one(row) for row in ours) or "none")
        + "; bare: "
        + (", ".join(f"#{row['change']} ({row['receipts']})" for row in bare) or "none")
    )


def _row(row: list[float]) -> str:
    return "/".join(f"{v:.0f}" for v in row)


def fanout(
    *,
    clients: int = 1000,
    changes: int = CHANGES,
    layer: str | None = None,
    kind: str = "clock",
    phases: bool = False,
    **_: Any,
) -> tuple[list[str], Figures]:
    if kind not in KINDS:
        raise CommandError(f"--kind is one of {', '.join(KINDS)}")
    redis_url = os.environ.get("REDIS_URL", "").strip()
    layer = layer or ("redis" if redis_url else "memory")
    if layer == "redis" and not redis_url:
        raise CommandError("--layer redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    password = secrets.token_urlsafe(12)
    players = 0 if kind == "clock" else max(2 * changes + 10, 20)
    td, tournament, screen = fanout_tournament(password, players=players)
    payload = selectors.clock_payload(tournament, timezone.now())
    if kind == "clock":
        trigger: dict[str, Any] = {"messages": clock_changes(changes + WARMUP)}
    elif kind == "elimination":
        trigger = {"posts": elimination_posts(tournament, changes + WARMUP)}
    else:
        trigger = {"posts": move_posts(tournament, changes + WARMUP)}
    match = "version" if kind == "clock" else kind
    connection.close()  # the server writes now; SQLite must not find this process holding on
    # The production server pools its database connections (bin/serve): so does this one.
    env = {"REDIS_URL": redis_url if layer == "redis" else None, "DB_POOL": "1"}
    timeline = tempfile.NamedTemporaryFile("r", suffix=".jsonl")  # noqa: SIM115 - closed below
    # The bare server: the clock's state on connect, then the very text each change of
    # the real server brought (the client process hands it over, change by change).
    initial = tempfile.NamedTemporaryFile("w", suffix=".json")  # noqa: SIM115 - closed below
    try:
        json.dump({"initial": payload}, initial)
        initial.flush()
        port = free_port()
        bare_command = [sys.executable, "-m", "bench.wsload", "baseline", str(port), initial.name]
        with (
            spawn(bare_command, port=port),
            serve(workers=1, env=env, phases=timeline.name if phases else None) as server,
        ):
            browser = Browser(server.url)
            browser.login(td.username, password)
            ws = f"ws://{HOST}:{server.port}"
            channels = run_clients(
                url=f"{ws}/ws/screens/{screen.token}/",
                trigger_url=f"{ws}/ws/t/{tournament.slug}/",
                base_url=server.url,
                origin=server.url,
                cookie="; ".join(f"{k}={v}" for k, v in browser.cookies.items()),
                clients=clients,
                match=match,
                expect_version=payload["version"],
                warmup=WARMUP,
                bare_url=f"ws://{HOST}:{port}/",
                **trigger,
            )
            browser.close()
        baseline = channels["bare"]
        push = channels.get("sample") if kind != "clock" else None
        marks = timing.rows(timeline.name, skip=WARMUP) if phases else None
        steps = timing.summarize(marks) if marks is not None else None
    finally:
        initial.close()
        timeline.close()
        tournament.delete()
        Player.objects.filter(last_name__startswith="Fanout", entries__isnull=True).delete()
        td.delete()

    ours, bare = _summary(channels), _summary(baseline)
    ratio = (
        round(ours["p99_ms"] / bare["p99_ms"], 2)
        if ours["p99_ms"] is not None and bare["p99_ms"]
        else None
    )
    goal = (
        channels["delivered"] == channels["expected"]
        and ratio is not None
        and ratio <= GOAL_RATIO
        and ours["p99_ms"] <= GOAL_P99_MS
    )
    connect_goal = channels["connect_right"] == clients and channels["connect_s"] <= 5
    push_bytes = len((push or channels.get("sample") or json.dumps(payload)).encode())
    figures = {
        "bench": "fanout",
        "kind": kind,
        "clients": clients,
        "changes": changes,
        "warmup_changes": WARMUP,
        "layer": layer,
        "db": connection.vendor,
        "server": "uvicorn, 1 worker",
        "push_bytes": push_bytes,
        "delivered": channels["delivered"],
        "expected": channels["expected"],
        **ours,
        "baseline_delivered": baseline["delivered"],
        "baseline_p50_ms": bare["p50_ms"],
        "baseline_p99_ms": bare["p99_ms"],
        "ratio_p99": ratio,
        "baseline_fanout_p99_ms": bare["fanout_p99_ms"],
        "fanout_ratio_p99": (
            round(ours["fanout_p99_ms"] / bare["fanout_p99_ms"], 2)
            if ours["fanout_p99_ms"] is not None and bare["fanout_p99_ms"]
            else None
        ),
        "connect_s": channels["connect_s"],
        "connect_right": channels["connect_right"],
        "baseline_connect_s": baseline["connect_s"],
        "goal_met": goal,
        "connect_goal_met": connect_goal,
        "errors": channels["errors"] + baseline["errors"],
    }
    figures["p99_set_by"] = _tail(channels.get("tail") or [], marks)
    figures["baseline_p99_set_by"] = _tail(baseline.get("tail") or [], None)
    if steps is not None:
        figures["phases_ms"] = steps
    how = "a TD's socket" if kind == "clock" else "the floor's form"
    summary = [
        f"Channels ({layer} layer, {connection.vendor}), {changes} {kind} changes through "
        f"{how} (after {WARMUP} untimed on each server): {channels['delivered']}/{channels['expected']} delivered to {clients} "
        f"clients, p50 {ours['p50_ms']} ms, p99 {ours['p99_ms']} ms, max {ours['max_ms']} ms; "
        f"push {push_bytes} bytes",
        f"Connecting: {clients} screens open with the right state in {channels['connect_s']} s "
        f"({channels['connect_right']}/{clients} right; bare server {baseline['connect_s']} s)",
        f"Bare websockets broadcast of the same bytes: {baseline['delivered']}/"
        f"{baseline['expected']} delivered, p50 {bare['p50_ms']} ms, p99 {bare['p99_ms']} ms; "
        f"ratio p99 {ratio}",
        f"Fan-out alone (from the first screen's receipt): p99 {ours['fanout_p99_ms']} ms against "
        f"bare {bare['fanout_p99_ms']} ms (ratio {figures['fanout_ratio_p99']}); the change "
        f"itself reached the first screen after {ours['first_p50_ms']} ms (median)",
        "Per change, first / median / last receipt (ms): Channels "
        + " ".join(_row(row) for row in channels["per_change_ms"]),
        "  bare " + " ".join(_row(row) for row in baseline["per_change_ms"]),
        f"Goal (everything delivered, p99 <= {GOAL_RATIO:g}x bare and <= {GOAL_P99_MS} ms): "
        + ("met" if goal else "NOT met")
        + f"; connecting (all right within 5 s): {'met' if connect_goal else 'NOT met'}",
    ]
    if steps is not None:
        summary.insert(-1, timing.describe(steps))
    summary.insert(-1, _describe_tail(figures["p99_set_by"], figures["baseline_p99_set_by"]))
    if figures["errors"]:
        summary.append("Errors: " + "; ".join(figures["errors"]))
    return summary, figures

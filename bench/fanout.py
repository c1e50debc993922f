"""`bench fanout`: a clock change reaching a thousand screens, against a bare broadcast.

The real ASGI app runs under uvicorn (one worker) in a subprocess, on the configured
database and the chosen channel layer. A client process (bench.wsload) opens the
clock screens' sockets, then a TD's socket makes the clock changes as the console does;
each change's latency is measured at every client. The same client process then measures
a bare `websockets` server broadcasting the same payload to as many clients.

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
from django.utils import timezone

from bench.common import Figures
from bench.liveserver import HOST, Browser, free_port, serve, spawn
from tournaments import presets, selectors
from tournaments.models import DisplayScreen, Role, StaffAssignment
from tournaments.services import clock as clock_services
from tournaments.services import setup as setup_services

GOAL_P99_MS = 250
GOAL_RATIO = 2.0


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (`share` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def run_clients(**config: Any) -> dict[str, Any]:
    """Run the client process (its own core) and return what it measured."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.wsload", "clients", json.dumps(config)],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise CommandError(f"the client process failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1])


def clock_changes(changes: int) -> list[dict[str, Any]]:
    # Take thirty seconds off, give them back: the paused clock changes, nothing falls due.
    return [
        {"type": "control", "action": "adjust", "seconds": -30 if i % 2 == 0 else 30}
        for i in range(changes)
    ]


def fanout_tournament(password: str):
    now = timezone.now()
    users = get_user_model()
    td = users.objects.create_user(f"bench-td-{secrets.token_hex(4)}", password=password)
    tournament = setup_services.tournament_create(
        actor=td, fields={"name": "Bench fanout", "date": now.date()}, now=now
    )
    StaffAssignment.objects.get_or_create(
        tournament=tournament, user=td, defaults={"role": Role.TD}
    )
    setup_services.structure_set(
        tournament=tournament, actor=td, items=presets.preset_items("deep"), now=now
    )
    screen = DisplayScreen.objects.create(tournament=tournament, name="Bench clock")
    # Start and pause here without a broker: no boundary task is queued for a bench.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        clock_services.clock_start(tournament=tournament, actor=td, now=now)
        clock_services.clock_pause(tournament=tournament, actor=td, now=timezone.now())
    tournament.refresh_from_db()
    return td, tournament, screen


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    latencies = result["latencies_ms"]
    if not latencies:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    return {
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1),
    }


def fanout(
    *, clients: int = 1000, changes: int = 20, layer: str | None = None, **_: Any
) -> tuple[list[str], Figures]:
    redis_url = os.environ.get("REDIS_URL", "").strip()
    layer = layer or ("redis" if redis_url else "memory")
    if layer == "redis" and not redis_url:
        raise CommandError("--layer redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    password = secrets.token_urlsafe(12)
    td, tournament, screen = fanout_tournament(password)
    payload = selectors.clock_payload(tournament, timezone.now())
    connection.close()  # the server writes now; SQLite must not find this process holding on
    messages = clock_changes(changes)
    env = {"REDIS_URL": redis_url if layer == "redis" else None}
    try:
        with serve(workers=1, env=env) as server:
            browser = Browser(server.url)
            browser.login(td.username, password)
            ws = f"ws://{HOST}:{server.port}"
            channels = run_clients(
                url=f"{ws}/ws/screens/{screen.token}/",
                trigger_url=f"{ws}/ws/t/{tournament.slug}/",
                origin=server.url,
                cookie=f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME]}",
                clients=clients,
                messages=messages,
            )
        with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
            json.dump(payload, handle)
            handle.flush()
            port = free_port()
            command = [sys.executable, "-m", "bench.wsload", "baseline", str(port)]
            with spawn([*command, handle.name], port=port):
                baseline = run_clients(
                    url=f"ws://{HOST}:{port}/",
                    trigger_url=f"ws://{HOST}:{port}/",
                    origin=f"http://{HOST}:{port}",
                    clients=clients,
                    messages=messages,
                )
    finally:
        tournament.delete()
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
    figures = {
        "bench": "fanout",
        "clients": clients,
        "changes": changes,
        "layer": layer,
        "db": connection.vendor,
        "server": "uvicorn, 1 worker",
        "payload_bytes": len(json.dumps(payload)),
        "delivered": channels["delivered"],
        "expected": channels["expected"],
        **ours,
        "baseline_delivered": baseline["delivered"],
        "baseline_p50_ms": bare["p50_ms"],
        "baseline_p99_ms": bare["p99_ms"],
        "ratio_p99": ratio,
        "connect_s": channels["connect_s"],
        "goal_met": goal,
        "errors": channels["errors"] + baseline["errors"],
    }
    summary = [
        f"Channels ({layer} layer, {connection.vendor}): {channels['delivered']}/"
        f"{channels['expected']} delivered to {clients} clients over {changes} clock changes, "
        f"p50 {ours['p50_ms']} ms, p99 {ours['p99_ms']} ms, max {ours['max_ms']} ms "
        f"({clients} sockets opened in {channels['connect_s']} s)",
        f"Bare websockets broadcast: {baseline['delivered']}/{baseline['expected']} delivered, "
        f"p50 {bare['p50_ms']} ms, p99 {bare['p99_ms']} ms; ratio p99 {ratio}",
        "Per change, first / median / last receipt (ms): Channels "
        + " ".join("/".join(f"{v:.0f}" for v in row) for row in channels["per_change_ms"]),
        "  bare "
        + " ".join("/".join(f"{v:.0f}" for v in row) for row in baseline["per_change_ms"]),
        f"Goal (everything delivered, p99 <= {GOAL_RATIO:g}x bare and <= {GOAL_P99_MS} ms): "
        + ("met" if goal else "NOT met"),
    ]
    return summary, figures

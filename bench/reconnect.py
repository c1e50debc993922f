"""`bench reconnect`: the server restarts under a thousand screens; how long until all
are back in sync?

The real ASGI app runs under uvicorn (one worker) on a fixed port, on the configured
database and the chosen channel layer. A client process (bench.wsload reconnect) opens
the clock screens' sockets; then this process stops the server, changes the clock while
it is down (so being "in sync" means showing the new state, not merely reconnecting),
and starts it again on the same port. The clients reconnect as screen.js does
(exponential backoff with jitter from 0.5 s, capped at 2 s in the first minute) and
report the time from the first lost socket until every screen shows the new state.
Goal: 5 s.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from bench.common import Figures
from bench.fanout import fanout_tournament
from bench.liveserver import HOST, free_port, serve
from tournaments.services import clock as clock_services

GOAL_S = 5.0


def _wait_for(path: str, child: subprocess.Popen, log, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if child.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            output = log.read().decode(errors="replace")[-3000:]
            raise CommandError(f"the screens did not connect ({child.returncode}):\n{output}")
        time.sleep(0.1)


def reconnect(
    *, clients: int = 1000, layer: str | None = None, **_: Any
) -> tuple[list[str], Figures]:
    redis_url = os.environ.get("REDIS_URL", "").strip()
    layer = layer or ("redis" if redis_url else "memory")
    if layer == "redis" and not redis_url:
        raise CommandError("--layer redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    td, tournament, screen = fanout_tournament(secrets.token_urlsafe(12))
    before = tournament.clock_version
    connection.close()  # the server writes now; SQLite must not find this process holding on
    # The production server pools its database connections (bin/serve): so does this one.
    env = {"REDIS_URL": redis_url if layer == "redis" else None, "DB_POOL": "1"}
    port = free_port()
    url = f"ws://{HOST}:{port}/ws/screens/{screen.token}/"
    try:
        with (
            tempfile.TemporaryDirectory(prefix="bench-reconnect-") as folder,
            open(os.path.join(folder, "log"), "w+b") as log,
        ):
            config_path = os.path.join(folder, "config.json")
            out_path = os.path.join(folder, "out.json")
            ready_path = os.path.join(folder, "ready.json")
            with open(config_path, "w") as handle:
                json.dump(
                    {
                        "url": url,
                        "origin": f"http://{HOST}:{port}",
                        "clients": clients,
                        "ready_file": ready_path,
                        "deadline": 60.0,
                    },
                    handle,
                )
            first = serve(workers=1, env=env, port=port)
            first.__enter__()
            child = subprocess.Popen(
                [sys.executable, "-m", "bench.wsload", "reconnect", config_path, out_path],
                cwd=settings.BASE_DIR,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                _wait_for(ready_path, child, log, timeout=600)
                stopping = time.monotonic()
                first.__exit__(None, None, None)
                stopped_s = time.monotonic() - stopping
                # While the server is down the clock changes: in sync means the new state.
                with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
                    clock_services.clock_adjust(
                        tournament=tournament, actor=td, seconds=-30, now=timezone.now()
                    )
                tournament.refresh_from_db()
                after = tournament.clock_version
                connection.close()
                with serve(workers=1, env=env, port=port):
                    restart_s = time.monotonic() - stopping
                    child.wait(120)
            finally:
                if child.poll() is None:
                    child.kill()
                    child.wait()
            log.seek(0)
            output = log.read().decode(errors="replace")[-3000:]
            if child.returncode != 0 or not os.path.exists(out_path):
                raise CommandError(f"the client process failed ({child.returncode}):\n{output}")
            with open(out_path) as handle:
                result = json.load(handle)
    finally:
        tournament.delete()
        td.delete()

    resync = result["resync_s"]
    goal = resync is not None and resync <= GOAL_S and result["connected"] == clients
    figures = {
        "bench": "reconnect",
        "clients": clients,
        "layer": layer,
        "db": connection.vendor,
        "server": "uvicorn, 1 worker",
        "connect_s": result["connect_s"],
        "stop_s": round(stopped_s, 2),
        "restart_s": round(restart_s, 2),
        "synced": result["synced"],
        "resync_p50_s": result["resync_p50_s"],
        "resync_s": resync,
        "attempts_max": result["attempts_max"],
        "version_before": before,
        "version_after": after,
        "goal_met": goal,
        "errors": result["errors"],
    }
    summary = [
        f"{clients} screens ({layer} layer, {connection.vendor}) connected in "
        f"{result['connect_s']} s",
        f"Server stopped in {figures['stop_s']} s (clock changed while down: version {before} -> "
        f"{after}), listening again {figures['restart_s']} s after the stop began",
        f"Back in sync (showing the new state): {result['synced']}/{clients}, half within "
        f"{result['resync_p50_s']} s, all within {resync} s of the first lost socket "
        f"(at most {result['attempts_max']} attempts per screen)",
        f"Goal (all back in sync within {GOAL_S:g} s): " + ("met" if goal else "NOT met"),
    ]
    if result["errors"]:
        summary.append("Errors: " + "; ".join(result["errors"]))
    return summary, figures

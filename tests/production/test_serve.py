"""./bin/serve itself, with a running clock, through a Redis restart.

A Redis restart used to crash the Celery worker while it restored its unacknowledged ETA
tasks, and ./bin/serve then stopped uvicorn and beat too: the whole room went dark. Now each
process is supervised: the web server keeps answering, the worker comes back, and the next
level's announcement still reaches the screens.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from django.utils import timezone

from tests.production.cluster import ROOT, Browser, Screen, free_port, listening, wait_until
from tests.production.conftest import PASSWORD
from tournaments import selectors
from tournaments.models import Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def serve(cluster, room, tmp_path):
    """./bin/serve on a free port, sharing the module's private Redis and the test database."""
    cluster.worker.kill9()  # only ./bin/serve's own worker may announce in this test
    port = free_port()
    env = {
        **cluster.env,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": "1",
        "CELERY_CONCURRENCY": "1",
        "CLOCK_SWEEP_SECONDS": "3",
        "VENV": sys.prefix,  # the venv running the tests (bin/_venv.sh: nothing to install)
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(ROOT / "bin" / "serve")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the teardown stops all of it
        )
    served = SimpleNamespace(port=port, process=process, log=lambda: log_path.read_text())
    try:
        wait_until(lambda: listening(port) or process.poll() is not None, 120, "./bin/serve")
        assert process.poll() is None, served.log()
        wait_until(lambda: " ready." in served.log(), 60, "the Celery worker of ./bin/serve")
        yield served
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _answers(port: int) -> int | None:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/login/")
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


def test_bin_serve_keeps_serving_through_a_redis_restart_and_still_announces(cluster, room, serve):
    slug = room["tournament"].slug
    td = Browser(serve)
    td.log_in("td-prod", PASSWORD)
    screen = Screen(serve, f"/ws/screens/{room['screen'].token}/")
    try:
        screen.wait_for(lambda m: m.get("type") == "clock", 10)
        # A browser offers per-message deflate; the server declines it, so a push is not
        # compressed once per screen (bench fanout: half the fan-out's time went to it).
        assert _extensions(serve.port, f"/ws/screens/{room['screen'].token}/") is None
        assert td.clock(slug, "start")[0] == 302
        screen.wait_for(lambda m: m.get("status") == "running", 5)
        # The level ends 20 s from now: its announcement is an ETA task in the worker.
        left = selectors.clock_view_for(
            Tournament.objects.get(slug=slug), timezone.now()
        ).time_left.total_seconds()
        assert td.clock(slug, "adjust", seconds=-int(left - 20))[0] == 302
        time.sleep(1)

        cluster.redis.kill()
        outage = time.monotonic()
        statuses = []
        while time.monotonic() - outage < 3:  # the site answers while Redis is down
            statuses.append(_answers(serve.port))
            time.sleep(0.2)
        cluster.redis.start()
        back = time.monotonic()
        while time.monotonic() - back < 3:  # and while everything reconnects
            statuses.append(_answers(serve.port))
            time.sleep(0.2)
        assert statuses and set(statuses) == {200}, statuses

        # Everything is healthy again, the web server never stopped, and the worker (back
        # or never gone) announces the next level to the screen.
        wait_until(lambda: _health_ok(serve.port), 30, "/health/ to be ok again")
        _at, announced = screen.wait_for(lambda m: "announce" in m, 40, after=back)
        assert announced["announce"]["index"] == 1, announced
        assert serve.process.poll() is None, serve.log()
        assert "stopping the others" not in serve.log()
    finally:
        screen.close()


def _extensions(port: int, path: str) -> str | None:
    """The extensions the server accepted for a socket that offered per-message deflate."""
    from websockets.sync.client import connect

    origin = f"http://127.0.0.1:{port}"
    with connect(f"ws://127.0.0.1:{port}{path}", origin=origin, compression="deflate") as ws:
        assert ws.request is not None and "permessage-deflate" in str(
            ws.request.headers.get("Sec-WebSocket-Extensions")
        )
        assert ws.response is not None
        return ws.response.headers.get("Sec-WebSocket-Extensions")


def _health_ok(port: int) -> bool:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/health/")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()

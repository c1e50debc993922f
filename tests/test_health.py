"""`/health/` tries each dependency for real and says which one fails."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import make_manager

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.django_db
def test_anonymous_callers_are_told_only_ok(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_a_probe_with_the_health_token_sees_the_details(client, settings):
    settings.HEALTH_TOKEN = "probe-" + "k" * 30
    assert client.get("/health/", HTTP_X_HEALTH_TOKEN="wrong").json() == {"status": "ok"}
    report = client.get("/health/", HTTP_X_HEALTH_TOKEN=settings.HEALTH_TOKEN).json()
    assert report["database"] == "ok" and report["channel_layer"] == "ok"


@pytest.mark.django_db
def test_health_reports_each_dependency_to_the_manager_without_secrets(client, td):
    client.force_login(td)  # an event's TD, with is_staff: no details
    assert set(client.get("/health/").json()) == {"status"}
    client.force_login(make_manager(td))
    response = client.get("/health/")
    assert response.status_code == 200
    report = response.json()
    assert report["database"] == "ok"
    assert report["channel_layer"] == "ok"
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert report["broker"].startswith("not used")
    else:
        assert report["broker"] == "ok"
    assert response["Cache-Control"] == "no-store"
    assert settings.SECRET_KEY not in response.content.decode()


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again: nothing listens there


def _health_in_a_process(env: dict[str, str]) -> tuple[int, dict, str]:
    """GET /health/ in a fresh process configured by `env` (as a server would be)."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    code = (
        "import django; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/health/');"
        "print(r.status_code, r.content.decode())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().splitlines()[-1].split(" ", 1)
    # An anonymous caller is told only that it fails; the details are in the log.
    assert json.loads(body) == {"status": "ok" if status == "200" else "error"}
    logged = [line for line in result.stderr.splitlines() if "health check failing" in line]
    report = dict(part.split(": ", 1) for part in logged[-1].split("failing: ", 1)[1].split("; "))
    return int(status), report, body + result.stderr


def test_redis_down_gives_503_naming_the_channel_layer_and_broker(tmp_path):
    port = _dead_port()
    status, report, body = _health_in_a_process(
        {
            "REDIS_URL": f"redis://:hunter2secret@127.0.0.1:{port}/0",
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        }
    )
    assert status == 503
    assert report["database"] == "ok"
    assert report["channel_layer"].startswith("error")
    assert report["broker"].startswith("error")
    assert "hunter2secret" not in body


def test_database_down_gives_503_naming_the_database():
    port = _dead_port()
    status, report, body = _health_in_a_process(
        {"DATABASE_URL": f"postgres://torneo:hunter2secret@127.0.0.1:{port}/torneo"}
    )
    assert status == 503
    assert report["database"].startswith("error: OperationalError")
    assert report["channel_layer"] == "ok"
    assert report["broker"].startswith("not used")
    assert "hunter2secret" not in body

"""Settings come from the environment; junk in a variable stops start-up with its name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def start(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['ENGINE'], settings.CHANNEL_LAYERS['default']['BACKEND'],"
        " settings.CELERY_TASK_ALWAYS_EAGER)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_embedded_default_needs_no_services():
    result = start({})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "tournaments.layers.InMemoryChannelLayer",
        "True",
    ]


def test_urls_switch_to_postgres_and_redis():
    result = start(
        {
            "DATABASE_URL": "postgres://u@127.0.0.1:5432/torneo",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
        }
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.core.RedisChannelLayer",
        "False",
    ]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql//nonsense"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://host:notaport/db"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL"),
        ({"DEBUG": "perhaps"}, "DEBUG"),
        ({"TORNEO_ENV": "staging"}, "TORNEO_ENV"),
        ({"TORNEO_ENV": "production", "ALLOWED_HOSTS": "torneo.example"}, "SECRET_KEY"),
        ({"TORNEO_ENV": "production", "SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS"),
    ],
)
def test_a_malformed_variable_is_refused_by_name(env, message):
    result = start(env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr.splitlines()[-1]

"""Settings come from the environment; junk in a variable stops start-up with its name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def start(env: dict[str, str], *, more: str = "") -> subprocess.CompletedProcess:
    # The defaults, whichever path this suite runs on (TORNEO_PLAIN).
    dropped = {"DATABASE_URL", "REDIS_URL", "TORNEO_PLAIN"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['ENGINE'], settings.CHANNEL_LAYERS['default']['BACKEND'],"
        f" settings.CELERY_TASK_ALWAYS_EAGER{more})"
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
        "channels.layers.InMemoryChannelLayer",
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
        "config.speedups.postgresql",
        "channels_redis.core.RedisChannelLayer",
        "False",
    ]


def test_torneo_plain_runs_django_channels_and_channels_redis_as_they_ship():
    """One switch turns every private speedup off (config/speedups/switch.py)."""
    plain = ", settings.SESSION_ENGINE, *settings.AUTHENTICATION_BACKENDS, settings.PLAIN"
    urls = {
        "DATABASE_URL": "postgres://u@127.0.0.1:5432/torneo",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }
    result = start({**urls, "TORNEO_PLAIN": "1"}, more=plain)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "channels_redis.core.RedisChannelLayer",
        "False",
        "django.contrib.sessions.backends.db",
        "django.contrib.auth.backends.ModelBackend",
        "True",
    ]
    embedded = start({"TORNEO_PLAIN": "yes"}, more=", *settings.MIDDLEWARE")
    assert embedded.returncode == 0, embedded.stderr
    words = embedded.stdout.split()
    assert words[1] == "channels.layers.InMemoryChannelLayer"
    assert "django.contrib.auth.middleware.AuthenticationMiddleware" in words
    assert _prepare_settings({**urls, "TORNEO_PLAIN": "1"}) == {"hot": False, "threshold": None}
    assert "TORNEO_PLAIN" in start({"TORNEO_PLAIN": "maybe"}).stderr


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


PRODUCTION = {
    "TORNEO_ENV": "production",
    "SECRET_KEY": "k3y-" + "9fQ2rT7wXz" * 6,  # long and varied, as check --deploy wants
    "ALLOWED_HOSTS": "torneo.example",
}


def deploy_check(tmp_path, **env: str) -> subprocess.CompletedProcess:
    # The test process's own switches are not the deployment's (the browser tests set
    # DJANGO_ALLOW_ASYNC_UNSAFE, which check --deploy rightly reports).
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        and not k.startswith("SECURE_")
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
            **PRODUCTION,
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_deploy_is_clean_in_production(tmp_path):
    result = deploy_check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout, result.stdout + result.stderr


def test_check_deploy_notices_a_weakened_setting(tmp_path):
    """The check above can fail: switching off the HTTPS redirect is reported."""
    result = deploy_check(tmp_path, SECURE_SSL_REDIRECT="false")
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


def test_production_security_settings_come_from_the_environment():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_PROXY_SSL_HEADER, s.CSRF_TRUSTED_ORIGINS, s.X_FRAME_OPTIONS)"
    )

    def settings_with(env):
        clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env},
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert settings_with({}) == (
        "31536000 True True True True True ('HTTP_X_FORWARDED_PROTO', 'https') [] DENY"
    )
    assert settings_with(
        {
            "SECURE_HSTS_SECONDS": "3600",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "no",
            "SECURE_HSTS_PRELOAD": "no",
            "SECURE_SSL_REDIRECT": "off",
            "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Scheme",
            "CSRF_TRUSTED_ORIGINS": "https://torneo.example,https://desk.torneo.example",
        }
    ) == (
        "3600 False False True True False ('HTTP_X_FORWARDED_SCHEME', 'https') "
        "['https://torneo.example', 'https://desk.torneo.example'] DENY"
    )
    # No proxy in front: the header is not trusted at all.
    assert "None" in settings_with({"SECURE_PROXY_SSL_HEADER": ""}).split()[6]


def test_a_malformed_proxy_header_is_refused_by_name():
    result = start({**PRODUCTION, "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https"})
    assert result.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER" in result.stderr.splitlines()[-1]


def _embedded(tmp_path, code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "TORNEO_DEBUG", "SECRET_KEY"}
    }
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "TORNEO_VAR_DIR": str(tmp_path / "var"),
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_embedded_mode_runs_with_debug_off_unless_asked(tmp_path):
    show = "from django.conf import settings; print(settings.DEBUG)"
    assert _embedded(tmp_path, show).stdout.split() == ["False"]
    assert _embedded(tmp_path, show, TORNEO_DEBUG="1").stdout.split() == ["True"]
    assert _embedded(tmp_path, show, DEBUG="1").stdout.split() == ["True"]


def test_embedded_mode_still_serves_its_static_files_with_debug_off(tmp_path):
    code = (
        "import asyncio; from asgiref.testing import ApplicationCommunicator;"
        "from config.asgi import application\n"
        "async def get():\n"
        "    scope = {'type': 'http', 'method': 'GET', 'path': '/static/js/screen.js',"
        " 'query_string': b'', 'headers': [(b'host', b'localhost')], 'http_version': '1.1'}\n"
        "    app = ApplicationCommunicator(application, scope)\n"
        "    await app.send_input({'type': 'http.request', 'body': b''})\n"
        "    return (await app.receive_output(10))['status']\n"
        "print(asyncio.run(get()))"
    )
    result = _embedded(tmp_path, code)
    assert result.stdout.split()[-1:] == ["200"], result.stderr


def test_embedded_mode_makes_its_own_secret_key_once_and_keeps_it_in_var(tmp_path):
    show = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = _embedded(tmp_path, show)
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert len(key) >= 50 and "not-for-production" not in key
    stored = tmp_path / "var" / "secret_key"
    assert stored.read_text().strip() == key
    assert stored.stat().st_mode & 0o077 == 0  # readable by its owner only
    assert _embedded(tmp_path, show).stdout.strip() == key  # the same after a restart
    other = _embedded(tmp_path / "elsewhere", show).stdout.strip()
    assert other and other != key  # another installation, another key
    # An explicit SECRET_KEY still wins.
    assert _embedded(tmp_path, show, SECRET_KEY="s" * 60).stdout.strip() == "s" * 60


def _prepare_settings(env: dict[str, str]) -> dict:
    dropped = {"DATABASE_URL", "DB_PREPARE", "TORNEO_PLAIN"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        "options = settings.DATABASES['default'].get('OPTIONS', {}); "
        "print(json.dumps({'hot': settings.PREPARE_HOT_READS, "
        "'threshold': options.get('prepare_threshold')}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_postgres_prepares_its_hot_reads_unless_told_not_to():
    url = {"DATABASE_URL": "postgres://u@127.0.0.1:5432/torneo"}
    on = _prepare_settings(url)
    # Psycopg prepares only what it is asked to: its own count never reaches this.
    assert on["hot"] is True and on["threshold"] >= 2**31
    # Behind a pooler that keeps no session (pgbouncer's transaction mode).
    assert _prepare_settings({**url, "DB_PREPARE": "0"}) == {"hot": False, "threshold": None}


def test_the_served_app_loads_without_twisted_and_runserver_is_still_daphnes(tmp_path):
    """The servers (uvicorn, daphne) import the app by themselves: daphne's Django app,
    which starts Twisted (0.4 s more for every process, a server restarted under a room
    of screens among them), is installed only for `manage.py runserver`, which it turns
    into daphne's ASGI server (WebSockets too)."""
    served = _embedded(
        tmp_path,
        "import config.asgi, sys; print('twisted' in sys.modules, 'daphne' in sys.modules)",
    )
    assert served.returncode == 0, served.stderr
    assert served.stdout.split() == ["False", "False"]

    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    runserver = subprocess.run(
        [sys.executable, "manage.py", "runserver", "--help"],
        cwd=ROOT,
        env={**clean, "TORNEO_VAR_DIR": str(tmp_path / "var")},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert runserver.returncode == 0, runserver.stderr
    assert "--noasgi" in runserver.stdout  # daphne's runserver, not Django's WSGI one

"""Production mode for real: PostgreSQL, a private Redis, uvicorn servers, a Celery worker.

These run in CI's PostgreSQL + Redis pass; elsewhere (SQLite, no REDIS_URL, or no
redis-server binary) they are skipped.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.conftest import make_tournament
from tests.production.cluster import REDIS_SERVER, Browser, Cluster
from tournaments.models import DisplayScreen

PASSWORD = "torneo-prod-pw"


def pytest_collection_modifyitems(config, items):
    reason = None
    if not settings.USING_POSTGRES:
        reason = "production tests need PostgreSQL (DATABASE_URL)"
    elif not settings.REDIS_URL:
        reason = "production tests need Redis (REDIS_URL)"
    elif not REDIS_SERVER:
        reason = "production tests need the redis-server binary for a private Redis"
    if reason is None:
        return
    if os.environ.get("CI") and settings.USING_POSTGRES and settings.REDIS_URL:
        raise pytest.UsageError(f"CI's PostgreSQL + Redis pass must run them: {reason}")
    for item in items:
        if "tests/production/" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))


def _database_url(settings_dict) -> str:
    user = settings_dict.get("USER") or "postgres"
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}" if password else user
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture(scope="module")
def cluster(django_db_setup, tmp_path_factory):
    """Redis, two servers (a, b); the worker starts when a test asks for it."""
    from django.db import connection

    started = Cluster(tmp_path_factory.mktemp("prod"), _database_url(connection.settings_dict))
    try:
        started.start()
        yield started
    finally:
        started.stop()


@pytest.fixture
def room(cluster, transactional_db):
    """A TD (password hashed as the servers hash it), a tournament and a clock screen."""
    from django.contrib.auth import get_user_model

    cluster.up()
    hasher = PBKDF2PasswordHasher()
    td = get_user_model().objects.create(
        username="td-prod",
        is_staff=True,
        password=hasher.encode(PASSWORD, hasher.salt(), iterations=1000),
    )
    tournament = make_tournament(td)
    screen = DisplayScreen.objects.create(tournament=tournament, name="Clock by the bar")
    return {"td": td, "tournament": tournament, "screen": screen}


@pytest.fixture
def td_on_a(cluster, room) -> Browser:
    browser = Browser(cluster.servers["a"])
    browser.log_in("td-prod", PASSWORD)
    return browser

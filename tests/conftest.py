"""Personas and factories shared by the whole suite (STYLE.md 17)."""

from __future__ import annotations

import datetime as dt
import itertools
import os
from pathlib import Path

import pytest
import time_machine
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.models import DisplayScreen, Player, Role, StaffAssignment, Tournament
from tournaments.services import layout as layout_services
from tournaments.services import setup as setup_services

# The specifications, cases and hand histories sit next to the checkout (../shared), as in CI.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"

NOW = dt.datetime(2026, 11, 21, 18, 0, tzinfo=dt.UTC)


def pytest_configure(config):
    """Hash test passwords fast: PBKDF2's deliberate slowness costs a second a login here."""
    from pathlib import Path

    from django.conf import settings

    catalogue = Path(__file__).resolve().parents[1] / "locale/it/LC_MESSAGES"
    compiled, source = catalogue / "django.mo", catalogue / "django.po"
    if not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime:
        raise pytest.UsageError(
            "The Italian translations are not compiled (or older than django.po): run "
            "`python manage.py compilemessages --ignore='.venv*'` first (./bin/test does)."
        )

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # SQLite's shared-cache in-memory test database takes table locks that its busy timeout
    # does not retry, so a live server thread (browser tests) and the test thread collide
    # under load ("database table is locked"). A file in WAL mode waits instead.
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        import tempfile

        folder = tempfile.mkdtemp(prefix="torneo-test-")
        config._torneo_test_folder = folder
        database.setdefault("TEST", {})["NAME"] = os.path.join(folder, "test.sqlite3")


def pytest_collection_modifyitems(config, items):
    """With every speedup off (TORNEO_PLAIN=1), the tests of a speedup itself are skipped:
    what they test does not run. Every other test runs on the plain path as it is."""
    from django.conf import settings

    if not settings.PLAIN:
        return
    for item in items:
        marker = item.get_closest_marker("fast_path")
        if marker is not None:
            piece = marker.args[0] if marker.args else "a private speedup"
            item.add_marker(pytest.mark.skip(reason=f"tests {piece}, off with TORNEO_PLAIN=1"))


def pytest_unconfigure(config):
    folder = getattr(config, "_torneo_test_folder", None)
    if folder:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


_names = itertools.count(1)


def make_user(username: str, *, staff: bool = False):
    return get_user_model().objects.create_user(
        username=username, password="pw-" + username, is_staff=staff
    )


def make_room_user(username: str, role: str):
    """An account holding one room role (tournaments.models.RoomRole)."""
    from tournaments.models import RoomStaff

    user = make_user(username)
    RoomStaff.objects.create(user=user, role=role)
    return user


def make_manager(user=None):
    """The room's manager: creates events, runs the room (and is TD of every event)."""
    from tournaments.models import RoomRole, RoomStaff

    user = user or make_user(f"manager{next(_names)}")
    RoomStaff.objects.get_or_create(user=user, role=RoomRole.MANAGER)
    return user


def make_cash_game(actor, *, now=None, **values):
    """A no-limit hold'em 2/5 game of the cash room (rake 5%, capped at 30)."""
    from room.services import cash_settings

    defaults = {
        "variant": "Hold'em",
        "structure": "no_limit",
        "sb": 2,
        "bb": 5,
        "min_buy_in": 200,
        "max_buy_in": None,
        "max_seats": 9,
        "rake_percent": 5,
        "rake_cap": 30,
        "active": True,
    }
    return cash_settings.game_save(
        actor=actor, game=None, values={**defaults, **values}, now=now or NOW
    )


def make_tournament(td=None, *, tables: int = 4, seats: int = 9, **fields) -> Tournament:
    """A tournament with a club structure and `tables` tables of `seats` seats."""
    td = td or make_user(f"td{next(_names)}", staff=True)
    defaults = {"name": "Sunday Deepstack", "date": NOW.date(), "seats_per_table": seats}
    tournament = setup_services.tournament_create(actor=td, fields={**defaults, **fields}, now=NOW)
    setup_services.structure_set(
        tournament=tournament,
        actor=td,
        items=[
            setup_services.ItemSpec(kind="level", small_blind=100, big_blind=200, minutes=20),
            setup_services.ItemSpec(kind="level", small_blind=200, big_blind=400, minutes=20),
            setup_services.ItemSpec(kind="break", minutes=10, color_up=25),
            setup_services.ItemSpec(
                kind="level",
                small_blind=300,
                big_blind=600,
                ante=600,
                ante_mode="big_blind_ante",
                minutes=20,
            ),
        ],
        now=NOW,
    )
    if tables:
        layout_services.tables_add(
            tournament=tournament,
            actor=td,
            first=1,
            last=tables,
            max_seats=seats,
            accessible_seats=[],
            reserved_seats=[],
            now=NOW,
        )
    return tournament


def make_player(first: str = "Mario", last: str | None = None, **fields) -> Player:
    return Player.objects.create(
        first_name=first, last_name=last or f"Rossi{next(_names)}", **fields
    )


_DB_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup", "live_server"})


@pytest.fixture(autouse=True)
def frozen_clock(request):
    """Every database test runs at the suite's NOW, whatever today's date is: the clock is
    moved there and ticks on (a test that needs time to pass moves it explicitly, with
    `time_machine.travel` or this fixture's traveller).

    Browser, production and bench tests keep the machine's clock: their servers run in other
    threads and processes next to a real Chromium whose own clock cannot be moved. CI runs
    the suite under `faketime` a year ahead to prove that none of them depends on the date.
    """
    item = request.node
    uses_db = item.get_closest_marker("django_db") is not None or not _DB_FIXTURES.isdisjoint(
        request.fixturenames
    )
    # Tests whose server runs in another process (production, bench) keep the machine's
    # clock too: a session made here at a moved clock would have expired by the server's.
    parts = item.path.parts
    if not uses_db or "browser" in item.keywords or "production" in parts or "bench" in parts:
        yield None
        return
    with time_machine.travel(NOW, tick=True) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def entry_tally_kept(request):
    """After every database test, each tournament's tally of its entries (kept by the
    database's triggers, tournaments/migrations/0017) equals its entries counted one by
    one: the whole suite's writes, undos, imports and bulk updates check it."""
    item = request.node
    uses_db = item.get_closest_marker("django_db") is not None or not {
        "db",
        "transactional_db",
        "live_server",
    }.isdisjoint(request.fixturenames)
    if not uses_db:
        yield
        return
    # Set up after the test's database, so this check runs before it is rolled back.
    request.getfixturevalue("_django_db_helper")
    yield
    from tests.tally import tally_mismatches

    assert tally_mismatches() == []


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets a channel layer of its own. Every test runs its own event loop, but
    Channels keeps one layer object per process, and channels_redis keeps per-channel
    receive locks in it that belong to the loop that first waited on them: a socket that
    leaves mid-wait leaves its lock behind, and a later test's receive fails ("bound to a
    different event loop"). A server process has one loop for its life; this is the
    tests' own concern, for every test that touches a socket or a broadcast."""
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture(autouse=True)
def english():
    """Tests read messages in English unless they switch language themselves."""
    from django.test import override_settings
    from django.utils import translation

    with override_settings(LANGUAGE_CODE="en"), translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test counts rate limits from zero: a key prefix of its own in the real cache
    (Redis when REDIS_URL is set; flushing it would also drop the channel layer's keys)."""
    import uuid

    from django.conf import settings
    from django.test import override_settings

    caches = {
        alias: {**config, "KEY_PREFIX": f"{config.get('KEY_PREFIX', '')}-test-{uuid.uuid4().hex}"}
        for alias, config in settings.CACHES.items()
    }
    with override_settings(CACHES=caches):
        yield


@pytest.fixture
def td(db):
    return make_user("td", staff=True)


@pytest.fixture
def tournament(td):
    return make_tournament(td)


def _staff(tournament, username, role):
    user = make_user(username)
    StaffAssignment.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def floor(tournament):
    return _staff(tournament, "floor", Role.FLOOR)


@pytest.fixture
def desk(tournament):
    return _staff(tournament, "desk", Role.DESK)


@pytest.fixture
def outsider(db):
    """Staff of no tournament: logged in, but nobody here."""
    return make_user("outsider")


@pytest.fixture
def display(tournament):
    return DisplayScreen.objects.create(tournament=tournament, name="Clock 1")


@pytest.fixture
def now():
    return timezone.now()

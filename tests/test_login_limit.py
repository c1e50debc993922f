"""Staff logins are limited per username and address, per username and per address;
nobody else notices."""

from __future__ import annotations

import datetime as dt
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import connection
from django.test import Client
from django.urls import reverse

from config import ratelimit
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

HERE, THERE = "10.0.0.1", "10.0.0.2"


def login(client: Client, username: str, password: str, ip: str = HERE):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def logged_in(client: Client) -> bool:
    return settings.SESSION_COOKIE_NAME in client.cookies and "_auth_user_id" in client.session


@pytest.fixture
def staff(db):
    return make_user("desk"), make_user("td", staff=True)


def test_five_wrong_passwords_lock_the_name_even_against_the_right_one(staff):
    client = Client()
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit):
        response = login(client, "desk", "wrong")
        assert response.status_code == 200
        assert "Wrong username or password" in response.content.decode()
    response = login(client, "desk", "pw-desk")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed attempts. Wait" in page and "Wrong username" not in page
    assert 'value="desk"' in page  # the name stays typed in
    assert not logged_in(client)
    # With different capitals, or as another way of writing the same letters: still locked.
    for name in ("DESK ", "ｄesk", "ᵈesk"):
        assert login(Client(), name, "pw-desk").status_code == 429, name


def test_a_name_locked_from_one_address_still_logs_in_from_another(staff):
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit + 2):
        login(Client(), "desk", "wrong")
    client = Client()
    assert login(client, "desk", "pw-desk", ip=THERE).status_code == 302 and logged_in(client)


def test_a_guesser_hopping_addresses_meets_the_names_own_limit(staff):
    for n in range(ratelimit.LOGIN_PER_USERNAME.limit):
        assert login(Client(), "desk", "wrong", ip=f"10.1.{n}.1").status_code == 200
    assert login(Client(), "desk", "pw-desk", ip="10.2.0.1").status_code == 429


def test_unicode_spellings_of_a_name_share_its_count(staff):
    for name in ("ｆloor", "ᶠloor", "FLOOR", "floor", "Floor"):
        login(Client(), name, "wrong")
    assert login(Client(), "floor", "wrong").status_code == 429
    assert ratelimit.normalise_username("ｆloor") == ratelimit.normalise_username("ᶠloor")
    assert ratelimit.normalise_username("ᶠloor") == "floor"


def test_a_locked_name_does_not_stop_anyone_else(staff):
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit + 2):
        login(Client(), "desk", "wrong")
    for ip in (HERE, THERE):
        client = Client()
        response = login(client, "td", "pw-td", ip=ip)
        assert response.status_code == 302 and logged_in(client), ip


def test_an_address_guessing_many_names_is_stopped_there_only(staff):
    for n in range(ratelimit.LOGIN_PER_IP.limit):
        assert login(Client(), f"guess{n}", "wrong").status_code == 200
    client = Client()
    assert login(client, "td", "pw-td").status_code == 429 and not logged_in(client)
    client = Client()
    assert login(client, "td", "pw-td", ip=THERE).status_code == 302 and logged_in(client)


def test_the_lock_ends_with_its_window(staff):
    start = dt.datetime(2026, 11, 21, 18, 0, 30, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False) as traveller:
        for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit):
            login(Client(), "desk", "wrong")
        response = login(Client(), "desk", "pw-desk")
        assert response.status_code == 429
        assert "Wait 15 minutes" in response.content.decode()
        traveller.shift(dt.timedelta(minutes=15))
        client = Client()
        assert login(client, "desk", "pw-desk").status_code == 302 and logged_in(client)


def test_a_good_login_starts_the_names_count_again(staff):
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit - 1):
        login(Client(), "desk", "wrong")
    assert login(Client(), "desk", "pw-desk").status_code == 302
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit - 1):
        assert login(Client(), "desk", "wrong").status_code == 200
    assert login(Client(), "desk", "pw-desk").status_code == 302


@pytest.mark.parametrize(
    "data",
    [{}, {"username": "x" * 5000, "password": "y"}, {"username": "\x00", "password": ""}],
)
def test_junk_is_refused_without_an_error(staff, data):
    client = Client()
    for _attempt in range(ratelimit.LOGIN_PER_PAIR.limit + 1):
        response = client.post(reverse("login"), data)
        assert response.status_code in {200, 400, 429}  # 400: NUL bytes are refused first
    assert not logged_in(client)


def test_good_logins_from_one_address_do_not_use_up_its_limit(staff):
    for _n in range(ratelimit.LOGIN_PER_IP.limit + 5):  # a club's tablets, one Wi-Fi
        assert login(Client(), "td", "pw-td").status_code == 302


def test_x_forwarded_for_is_believed_only_from_a_declared_proxy(staff, settings):
    # Without a declared proxy, a header naming a fresh address each time changes nothing.
    for n in range(ratelimit.LOGIN_PER_PAIR.limit):
        Client().post(
            reverse("login"),
            {"username": "desk", "password": "wrong"},
            REMOTE_ADDR=HERE,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    assert login(Client(), "desk", "pw-desk").status_code == 429
    # Behind a declared proxy, the address it forwards is the client's.
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    client = Client()
    response = client.post(
        reverse("login"),
        {"username": "desk", "password": "pw-desk"},
        REMOTE_ADDR=HERE,
        HTTP_X_FORWARDED_FOR="198.51.100.7, 10.0.0.3",
    )
    assert response.status_code == 302 and logged_in(client)


def _burst(username: str, guesses: int) -> tuple[list[int], int]:
    """`guesses` parallel wrong passwords for one name from one address: the status codes,
    and how many times a password was really checked (and failed)."""
    barrier = threading.Barrier(guesses)
    checked: list[str] = []

    def slow_failure(sender, credentials, **kwargs):
        checked.append(credentials.get("username"))
        time.sleep(0.02)  # checking a password takes a while: the others arrive meanwhile

    def guess() -> int:
        try:
            barrier.wait(timeout=10)
            return login(Client(), username, "wrong").status_code
        finally:
            connection.close()

    user_login_failed.connect(slow_failure, dispatch_uid="burst")
    try:
        with ThreadPoolExecutor(max_workers=guesses) as pool:
            statuses = list(pool.map(lambda _n: guess(), range(guesses)))
    finally:
        user_login_failed.disconnect(dispatch_uid="burst")
    return statuses, len(checked)


@pytest.mark.django_db(transaction=True)
def test_forty_parallel_guesses_are_not_all_tried_sqlite(staff):
    statuses, checked = _burst("desk", 40)
    assert checked == ratelimit.LOGIN_PER_PAIR.limit
    assert statuses.count(429) == 40 - ratelimit.LOGIN_PER_PAIR.limit
    assert login(Client(), "desk", "pw-desk").status_code == 429


@pytest.mark.postgres
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs PostgreSQL (DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_forty_parallel_guesses_are_not_all_tried_postgres(staff):
    statuses, checked = _burst("desk", 40)
    assert checked == ratelimit.LOGIN_PER_PAIR.limit
    assert statuses.count(429) == 40 - ratelimit.LOGIN_PER_PAIR.limit


@pytest.mark.django_db
def test_a_cache_that_is_down_lets_people_log_in_rather_than_fail(client):
    """The limits live in Redis: while Redis restarts, a login is checked (no 500) and the
    limits fail open, logged (a Redis restart never takes the site down)."""
    from django.test import override_settings

    make_user("floor-down")
    down = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    with override_settings(CACHES=down):
        wrong = client.post(reverse("login"), {"username": "floor-down", "password": "nope"})
        assert wrong.status_code == 200
        right = client.post(
            reverse("login"), {"username": "floor-down", "password": "pw-floor-down"}
        )
        assert right.status_code == 302

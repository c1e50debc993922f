"""Failed staff logins are limited per username and per address; nobody else notices."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user
from tournaments import ratelimit

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
    for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit):
        response = login(client, "desk", "wrong")
        assert response.status_code == 200
        assert "Wrong username or password" in response.content.decode()
    response = login(client, "desk", "pw-desk")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed attempts. Wait" in page and "Wrong username" not in page
    assert 'value="desk"' in page  # the name stays typed in
    assert not logged_in(client)
    # From another address, or with different capitals: the same name, still locked.
    assert login(Client(), "DESK ", "pw-desk", ip=THERE).status_code == 429


def test_a_locked_name_does_not_stop_anyone_else(staff):
    for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit + 2):
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
        for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit):
            login(Client(), "desk", "wrong")
        response = login(Client(), "desk", "pw-desk")
        assert response.status_code == 429
        assert "Wait 15 minutes" in response.content.decode()
        traveller.shift(dt.timedelta(minutes=15))
        client = Client()
        assert login(client, "desk", "pw-desk").status_code == 302 and logged_in(client)


def test_a_good_login_starts_the_names_count_again(staff):
    for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit - 1):
        login(Client(), "desk", "wrong")
    assert login(Client(), "desk", "pw-desk").status_code == 302
    for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit - 1):
        assert login(Client(), "desk", "wrong").status_code == 200
    assert login(Client(), "desk", "pw-desk").status_code == 302


@pytest.mark.parametrize(
    "data",
    [{}, {"username": "x" * 5000, "password": "y"}, {"username": "\x00", "password": ""}],
)
def test_junk_is_refused_without_an_error(staff, data):
    client = Client()
    for _attempt in range(ratelimit.LOGIN_PER_USERNAME.limit + 1):
        response = client.post(reverse("login"), data)
        assert response.status_code in {200, 400, 429}  # 400: NUL bytes are refused first
    assert not logged_in(client)

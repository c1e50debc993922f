"""Sessions (Django's database store): a login lasts while its row does and has not expired;
an expired or deleted session is a visitor again, and the store then starts afresh."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def _desk_page(client, tournament):
    return client.get(reverse("desk", args=[tournament.slug]))


def test_a_session_holds_until_it_expires(client, tournament, desk):
    client.force_login(desk)
    assert _desk_page(client, tournament).status_code == 200
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    answer = _desk_page(client, tournament)
    assert answer.status_code == 302 and reverse("login") in answer["Location"]


def test_a_session_deleted_is_a_visitor_and_another_login_still_holds(tournament, desk, td):
    first, second = Client(), Client()
    first.force_login(desk)
    second.force_login(td)
    Session.objects.filter(session_key=first.cookies[settings.SESSION_COOKIE_NAME].value).delete()
    assert _desk_page(first, tournament).status_code == 302
    assert _desk_page(second, tournament).status_code == 200
    page = second.get(reverse("desk", args=[tournament.slug])).content.decode()
    assert 'class="who">td<' in page


# --- the login ends with the account's password or its being disabled --------------------


def _key(client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _who(client, tournament) -> str | None:
    """Whose name the desk page shows at the top, or None when it sends to the login."""
    answer = _desk_page(client, tournament)
    if answer.status_code == 302:
        return None
    page = answer.content.decode()
    return page.split('class="who">', 1)[1].split("<", 1)[0]


def test_a_password_changed_or_an_account_disabled_ends_the_login(tournament, desk, floor):
    """Django checks the session's hash of the password and an active account on every
    request: a password changed elsewhere or a disabled account ends the login at once."""
    changed, disabled = Client(), Client()
    changed.force_login(desk)
    disabled.force_login(floor)
    assert _who(changed, tournament) == "desk" and _who(disabled, tournament) == "floor"
    desk.set_password("a new one, elsewhere")
    desk.save()
    floor.is_active = False
    floor.save()
    assert _who(changed, tournament) is None
    assert _who(disabled, tournament) is None

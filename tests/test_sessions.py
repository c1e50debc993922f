"""Sessions (config/sessions.py): a login lasts while its row does and has not expired;
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

"""The demo a new user starts from (`./bin/run` seeds it): its manager opens the room's
tools, its TD runs the demo event and nothing of the room."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOM_PAGES = ("cash_board", "pit_home", "room_staff", "night_books", "staff_accounts")


def test_the_demo_manager_opens_the_room_and_its_td_runs_the_event(client):
    call_command("seed_demo", entries=12, stdout=io.StringIO())
    assert client.login(username="manager", password="torneo")
    for page in (*ROOM_PAGES, "tournament_create", "people"):
        assert client.get(reverse(page)).status_code == 200, page
    home = client.get(reverse("tournament_list")).content.decode()
    for page in ROOM_PAGES:
        assert reverse(page) in home, page  # the staff home page links each tool
    assert client.login(username="td", password="torneo")
    assert client.get(reverse("tournament_home", args=["torneo-demo"])).status_code == 200
    for page in ROOM_PAGES:
        assert client.get(reverse(page)).status_code == 403, page

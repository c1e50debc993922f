"""The clock screen speaks the room's language."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from tests.conftest import NOW
from tournaments import selectors
from tournaments.models import DisplayScreen
from tournaments.services import clock as clock_services

pytestmark = pytest.mark.django_db


def test_a_big_blind_ante_reads_bb_ante(client, tournament, td):
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    screen = DisplayScreen.objects.create(tournament=tournament, name="Clock", kind="clock")
    with time_machine.travel(NOW + dt.timedelta(minutes=55), tick=False):
        html = client.get(f"/s/{screen.token}/").content.decode()
    ante = html.split("data-ante>")[1].split("</div>")[0]
    assert ante.strip() == "BB ante 600"
    assert 'data-label-bb-ante="BB ante"' in html
    payload = selectors.clock_payload(tournament, NOW)
    assert payload["items"][3]["ante_mode"] == "big_blind_ante"


def test_the_td_chooses_the_sounds_and_screens_get_them(client, tournament, td):
    client.force_login(td)
    page = client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert "Clock screen sounds" in page and 'name="sound_one_minute"' in page
    tournament.sound_level_up, tournament.sound_one_minute = "bell", "none"
    tournament.save()
    sounds = selectors.clock_payload(tournament, NOW)["sounds"]
    assert sounds == {"level_up": "bell", "one_minute": "none", "break_over": "bell"}


def test_every_screen_offers_to_enable_sound_and_words_for_breaks(client, tournament):
    screen = DisplayScreen.objects.create(tournament=tournament, name="Clock", kind="clock")
    html = client.get(f"/s/{screen.token}/").content.decode()
    assert "data-sound-enable" in html and "Enable sound" in html
    assert 'data-label-after-break="After the break:"' in html
    assert "Colour-up now: the {chip} chips leave play" in html


def test_the_phone_clock_links_to_the_seat_finder(client, tournament):
    html = client.get(reverse("public_clock", args=[tournament.slug])).content.decode()
    finder = reverse("seat_finder", args=[tournament.slug])
    link = html.split('data-testid="seat-finder"')[0].rsplit("<a ", 1)[1]
    assert finder in link

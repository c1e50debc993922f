"""Staff screens show words, never codes; one navigation on every staff page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from tests.conftest import NOW, make_player
from tests.tournaments.services.test_moves import seat_players, started
from tournaments.services import chips as chip_services
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services

pytestmark = pytest.mark.django_db

RAW = ("not_started", "running", "gap ", "unbalanced", "missed_hands", "warning<")


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_clock_state_reads_as_words(client, td, tournament, language):
    client.force_login(td)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for name in ("tournament_home", "clock_console"):
        page = client.get(reverse(name, args=[tournament.slug])).content.decode()
        visible = re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
        assert "not_started" not in visible
        assert ("Not started" if language == "en" else "Non avviato") in visible


def test_the_clock_start_button_is_a_verb_in_italian(client, td, tournament):
    client.force_login(td)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    page = client.get(reverse("clock_console", args=[tournament.slug])).content.decode()
    assert ">Avvia</button>" in page and "Iniziale" not in page
    with translation.override("it"):
        assert pgettext("starting stack column", "Start") == "Iniziale"


def test_an_unbalanced_room_is_told_in_words(client, td, tournament):
    seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2]})
    started(tournament)
    client.force_login(td)
    page = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert "Out of balance" in page
    assert "gap 7" not in page and "unbalanced:" not in page


def test_penalty_kinds_read_as_words_in_both_languages(client, td, tournament):
    entry = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    ).entry
    penalty_services.penalty_give(
        tournament=tournament, entry=entry, kind="missed_hands", hands=3, actor=td, now=NOW
    )
    client.force_login(td)
    page = client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    assert ">Missed hands<" in page and "missed_hands<" not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    page = client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    assert ">Mani saltate<" in page


def test_the_event_log_names_the_player_states_amounts_and_has_the_navigation(
    client, td, tournament
):
    tournament.rebuys_allowed, tournament.rebuy_max = True, 2
    tournament.rebuy_price, tournament.rebuy_chips = 50, 5000
    tournament.save()
    player = make_player("Giulia", "Neri")
    entry = entry_services.entry_register(
        tournament=tournament, player=player, actor=td, now=NOW
    ).entry
    entry_services.entry_purchase(
        tournament=tournament, entry=entry, kind="rebuy", actor=td, now=NOW, stack=0
    )
    penalty_services.penalty_give(
        tournament=tournament, entry=entry, kind="warning", actor=td, now=NOW
    )
    chip_services.chips_remove(
        tournament=tournament, actor=td, amount=2500, reason="confiscation", note="", now=NOW
    )
    client.force_login(td)
    page = client.get(reverse("event_log", args=[tournament.slug])).content.decode()
    details = re.findall(r'data-testid="details">(.*?)</td>', page, re.S)
    assert sum("Neri Giulia" in d for d in details) == 3, details  # entry, rebuy, penalty
    assert any("5000 chips for 50" in d for d in details)
    assert any("2500 chips removed from play" in d for d in details)
    assert 'aria-current="page"' in page and reverse("desk", args=[tournament.slug]) in page


def _nav(page: str) -> tuple[list[str], list[str]]:
    nav = page.split('<nav class="topnav">')[1].split("</nav>")[0]
    links = re.findall(r'<a href="([^"]+)"', nav)
    current = re.findall(r'<a href="([^"]+)" aria-current="page"', nav)
    return links, current


@pytest.mark.parametrize("role", ["td", "floor", "desk"])
def test_every_staff_page_has_the_same_navigation_marking_where_you_are(
    client, td, floor, desk, tournament, role
):
    user = {"td": td, "floor": floor, "desk": desk}[role]
    client.force_login(user)
    pages = {
        "td": [
            "tournament_home",
            "desk",
            "room",
            "clock_console",
            "money",
            "event_log",
            "structure_edit",
            "screens",
        ],
        "floor": ["tournament_home", "room", "clock_console", "penalties", "event_log"],
        "desk": ["tournament_home", "desk", "eliminations", "money", "event_log"],
    }[role]
    seen = set()
    for name in pages:
        url = reverse(name, args=[tournament.slug])
        response = client.get(url)
        assert response.status_code == 200, name
        links, current = _nav(response.content.decode())
        seen.add(tuple(links))
        assert len(current) == 1, name
        if name != "structure_edit":
            assert current == [url], name
    assert len(seen) == 1  # the same links, in the same order, on every page

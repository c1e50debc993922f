"""Numbers read one way per language on every page: an event with big figures (30,000
stacks, a 1,234.50 bounty, a 4,010 prize pool, 9,338.00 taken at the desk) shows them
grouped the way the language writes them, and no page shows a bare run of four digits."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import NOW, make_manager, make_player, make_tournament
from tournaments.models import DisplayScreen, Entry
from tournaments.services import bounties as bounties_services
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import moves as room
from tournaments.services import results

pytestmark = pytest.mark.django_db

EVENT_PAGES = (
    "tournament_home",
    "desk",
    "player_list",
    "table_counts",
    "chips",
    "money",
    "eliminations",
    "bounties",
    "event_books",
    "room",
    "clock_console",
    "screens",
    "days",
    "penalties",
    "public_clock",
    "seat_finder",
    "public_structure",
    "public_results",
)
ROOM_PAGES = (
    "front_page",
    "lobby_screen",
    "room_dashboard",
    "night_books",
    "cash_board",
    "cash_rake_report",
    "pit_home",
    "league_list",
    "people",
)

# What a user reads is the page less its markup, its scripts and styles, and what he types
# (the values of form fields and a textarea's text are the machine's format: a number
# field does not take "30.000").
_HIDDEN = re.compile(r"(?is)<(script|style|textarea)\b.*?</\1>|<!--.*?-->|<[^>]*>")
# Not figures: dates (21/11/2026, 2026-11-21, "21 novembre 2026"), times, the address of a
# page or a screen (with its slug's date and its token), and a receipt's number (1-0001).
_NOT_FIGURES = re.compile(
    r"\b\d{1,2}/\d{1,2}/(?:19|20)\d\d\b"
    r"|\b(?:19|20)\d\d-\d\d-\d\d\b"
    r"|\b\d{1,2} [^\W\d]+ (?:19|20)\d\d\b"
    r"|\bhttps?://\S+"
    r"|\b\d+-\d{4}\b"
)
_BARE = re.compile(r"(?<![\d.,])\d{4,}(?![\d])")


def visible(page: str) -> str:
    return _NOT_FIGURES.sub(" ", html.unescape(_HIDDEN.sub(" ", page)))


def bare_runs(text: str) -> list[str]:
    """Each run of four or more digits with no separator in it, with its neighbours."""
    return [text[max(0, m.start() - 30) : m.end() + 10] for m in _BARE.finditer(text)]


@pytest.fixture
def big_night(td):
    """A running PKO: four entries of 1,000 + 100 with a 1,234.50 bounty and 30,000
    chips each, a payout table, and one bust whose bounty was awarded."""
    make_manager(td)
    tournament = make_tournament(
        td,
        name="Big PKO",
        buy_in_prize=1000,
        buy_in_fee=100,
        bounty_format="progressive",
        bounty_part_cents=123450,
        added_money=10,
        starting_stack=30000,
    )
    entries = [
        entry_services.entry_register(
            # Names without digits: the factory's numbered names would read as bare figures.
            tournament=tournament,
            player=make_player("Mario", last),
            actor=td,
            now=NOW,
        ).entry
        for last in ("Rossi", "Bianchi", "Verdi", "Neri")
    ]
    room.seats_even_out(tournament=tournament, actor=td, now=NOW)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    Entry.objects.filter(tournament=tournament).update(chips=30000)
    results.payouts_generate(tournament=tournament, actor=td, now=NOW)
    out = entries[3]
    entry_services.entry_eliminate(tournament=tournament, entry=out, actor=td, now=NOW)
    out.refresh_from_db()
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=out, portions=[[entries[0]]], actor=td, now=NOW
    )
    DisplayScreen.objects.create(tournament=tournament, name="TV")
    return tournament


def _pages(client, tournament, language: str) -> dict[str, str]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    screen = DisplayScreen.objects.get(tournament=tournament)
    slug = tournament.slug
    urls = {name: reverse(name, args=[slug]) for name in EVENT_PAGES}
    urls |= {name: reverse(name) for name in ROOM_PAGES}
    urls["room_table"] = reverse("room_table", args=[slug, 1])
    urls["seat_card"] = reverse("seat_card", args=[slug, 1])
    urls["screen"] = reverse("screen", args=[screen.token])
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        pages[name] = visible(response.content.decode())
    return pages


GROUPED = {
    "it": {
        "tournament_home": ["120.000", "1.234,50"],
        "desk": ["1.234,50", "2.334,50"],
        "player_list": ["Stack medio 40.000"],
        "chips": ["120.000 fiches in gioco"],
        "money": ["4.010 EUR", "4.938,00 EUR"],
        "bounties": ["1.851,75", "1.234,50"],
        "event_books": ["9.338,00", "4.010,00", "8.720,75"],
        "night_books": ["9.338,00", "4.010,00"],
        "public_structure": ["Buy-in 1.000 + 100 EUR", "30.000"],
        "public_results": ["4.010 EUR"],
        "seat_card": ["30.000 fiches", "Pagato 2.334,50 EUR"],
        "days": ["120.000"],
        "screen": ["4.010", "1.851,75", "40.000"],
        "public_clock": ["4.010", "1.851,75"],
    },
    "en": {
        "tournament_home": ["120,000", "1,234.50"],
        "desk": ["1,234.50", "2,334.50"],
        "player_list": ["Average stack 40,000"],
        "chips": ["120,000 chips in play"],
        "money": ["4,010 EUR", "4,938.00 EUR"],
        "bounties": ["1,851.75", "1,234.50"],
        "event_books": ["9,338.00", "4,010.00", "8,720.75"],
        "night_books": ["9,338.00", "4,010.00"],
        "public_structure": ["Buy-in 1,000 + 100 EUR", "30,000"],
        "public_results": ["4,010 EUR"],
        "seat_card": ["30,000 chips", "Paid 2,334.50 EUR"],
        "days": ["120,000"],
        "screen": ["4,010", "1,851.75", "40,000"],
        "public_clock": ["4,010", "1,851.75"],
    },
}


@pytest.mark.parametrize("language", ["it", "en"])
def test_big_figures_are_grouped_the_way_the_language_writes_them(client, td, big_night, language):
    client.force_login(td)
    pages = _pages(client, big_night, language)
    missing = {
        name: [figure for figure in figures if figure not in pages[name]]
        for name, figures in GROUPED[language].items()
    }
    assert {name: figures for name, figures in missing.items() if figures} == {}


@pytest.mark.parametrize("language", ["it", "en"])
def test_no_page_shows_a_bare_run_of_four_digits(client, td, big_night, language):
    client.force_login(td)
    pages = _pages(client, big_night, language)
    bare = {name: bare_runs(text) for name, text in pages.items()}
    assert {name: runs for name, runs in bare.items() if runs} == {}


def test_the_scan_sees_a_bare_figure_and_lets_dates_and_addresses_be():
    page = (
        '<p data-x="30000">30000 chips · 21/11/2026 · 21 novembre 2026 · 19:00 · '
        "http://testserver/p/big-2026-11-21/ · Receipt 1-0001 · 30.000 · 3,010.50</p>"
        "<textarea>4010, 2000</textarea>"
    )
    runs = bare_runs(visible(page))
    assert len(runs) == 1 and "30000 chips" in runs[0]

"""A PKO night read in Italian: no English left on the pages, rules and options in words,
counts in the right number, finishing places as places, one word for chips, numbers and
dates written the Italian way on paper, the bounty typed in euro like the buy-in."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.db.models import fields as django_fields
from django.urls import reverse
from django.utils import translation

from tests.conftest import NOW, make_player, make_tournament
from tests.tournaments.services.test_moves import seat_players, started
from tests.tournaments.services.test_results import _pdf_text
from tournaments.documents import printouts
from tournaments.forms.setup import TournamentForm
from tournaments.labels import event_details
from tournaments.models import Event, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale/it/LC_MESSAGES/django.po"


@pytest.fixture
def italian(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    with translation.override("it"):
        yield client


@pytest.fixture
def pko(td):
    return make_tournament(
        td,
        name="PKO del sabato",
        buy_in_prize=100,
        buy_in_fee=20,
        bounty_format="progressive",
        bounty_part_cents=1500,
        added_money=500,
    )


def test_the_overview_shows_the_bounty_part_of_the_buy_in(italian, td, pko):
    italian.force_login(td)
    page = italian.get(reverse("tournament_home", args=[pko.slug])).content.decode()
    assert "Buy-in: montepremi 100 + taglia 15 + fee 20 EUR" in page


def test_no_english_left_on_the_italian_pages(italian, td, pko):
    italian.force_login(td)
    players = italian.get(reverse("player_list", args=[pko.slug])).content.decode()
    assert '<option value="paid">A premio</option>' in players and "In the money" not in players
    money = italian.get(reverse("money", args=[pko.slug])).content.decode()
    assert "Montepremi aggiunto" in money and "Added money" not in money
    setup = italian.get(reverse("tournament_edit", args=[pko.slug])).content.decode()
    assert "Montepremi aggiunto" in setup and "(montepremi aggiunto)" not in setup
    # Every select's blank choice (here the satellite's target event): Django 6.1 words it,
    # in Italian from our catalogue; Django 5.2 draws dashes.
    blank = "- Scegli -" if hasattr(django_fields, "BLANK_CHOICE_LABEL") else "---------"
    assert blank in setup and "Select an option" not in setup


def test_the_room_plan_cites_its_rules_by_name_with_the_text_on_hover(italian, floor, tournament):
    seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=floor, now=NOW
        )
    italian.force_login(floor)
    page = italian.get(reverse("room", args=[tournament.slug])).content.decode()
    moves = page[page.index('data-testid="moves"') :]
    assert '<span class="cite-title">Chi si sposta per bilanciare</span>' in moves
    assert "Si sposta il giocatore che sarebbe il prossimo big blind" in moves  # on hover
    # No citation reads as a bare code.
    titles = re.findall(r'<span class="cite-title">([^<]*)</span>', page)
    assert titles and not [t for t in titles if re.search(r"TDA|RP-|Art\.|§", t)]


def test_the_ruling_tools_settings_read_as_words(italian, floor, tournament):
    italian.force_login(floor)
    page = italian.get(reverse("ruling_tool", args=[tournament.slug])).content.decode()
    options = re.findall(r"<option value=\"(\w+)\"[^>]*>([^<]*)</option>", page)
    shown = dict(options)
    assert shown["always_fold"] == "Sempre fold"
    assert shown["by_position"] == "Per posizione"
    assert shown["before_third_raise"] == "Quando restano in due prima del terzo rilancio"
    raw = [words for value, words in options if words == value and "_" in value]
    assert raw == []


def test_counts_agree_with_their_number_in_italian(italian, td, pko):
    entry_services.entry_register(tournament=pko, player=make_player(), actor=td, now=NOW)
    italian.force_login(td)
    page = italian.get(reverse("desk", args=[pko.slug])).content.decode()
    assert "1 iscrizione, 1 giocatore rimasto" in page and "1 iscrizioni" not in page
    players = italian.get(reverse("player_list", args=[pko.slug])).content.decode()
    assert "1 iscrizione, 1 giocatore rimasto" in players


def test_a_finishing_place_is_a_place_not_a_seat(td, pko):
    event = Event(tournament=pko, action="entry.eliminate", data={"places": {"7": [39, None]}})
    with translation.override("it"):
        assert "classificato 39º" in event_details(event, {})
    with translation.override("en"):
        assert "place 39" in event_details(event, {})


def test_the_italian_catalogue_says_fiches_and_carries_no_english_or_codes():
    catalogue = polib.pofile(str(CATALOGUE))
    texts = [
        text
        for e in catalogue
        if not e.obsolete
        for text in ([e.msgstr] if not e.msgid_plural else e.msgstr_plural.values())
    ]
    assert texts
    # "chip race", "chip leader" and "chip chop" are the Italian rooms' own words.
    chip = re.compile(r"\b[Cc]hips?\b(?! race| leader| chop)")
    mixed = [t for t in texts if chip.search(re.sub(r"%\(\w+\)s|\{\w+\}", "", t))]
    assert mixed == []
    english = {"In the money", "Added money", "- Select an option -"}
    assert not [t for t in texts if t in english or "(montepremi aggiunto)" in t]


def test_the_italian_catalogue_uses_one_italian_word_per_thing():
    catalogue = polib.pofile(str(CATALOGUE))
    texts = {
        e.msgid: text
        for e in catalogue
        if not e.obsolete
        for text in ([e.msgstr] if not e.msgid_plural else e.msgstr_plural.values())
    }
    # The hand recorder's action names are the words players say at the table, as
    # “fold” and “call”; quoted declarations and the fixed terms are kept as well.
    kept = {"bet", "raise"}
    fixed = re.compile(r"“[^”]*”|%\(\w+\)s|\{\w+\}|string (bet|raise)|small bet|big bet", re.I)
    english = re.compile(r"\b(button|raise|bet)\b", re.I)
    mixed = [
        text
        for msgid, text in texts.items()
        if msgid not in kept and english.search(fixed.sub("", text))
    ]
    assert mixed == []
    # A cash player leaves a table with fiches, whichever form asks for them.
    assert texts["Stake he leaves with"] == "Fiches con cui lascia il tavolo"
    assert texts["Minimum raise"] == "Rilancio minimo" and texts["Dead button"] == "Bottone morto"


def test_pdfs_write_numbers_and_dates_the_italian_way(td):
    tournament = make_tournament(td, buy_in_prize=1000, buy_in_fee=100, starting_stack=25000)
    with translation.override("it"):
        text = _pdf_text(printouts.printout(tournament, "structure", "a4", NOW))
    assert "Buy-in 1.000 + 100 EUR" in text and "25.000" in text
    assert "21/11/2026" in text and "2026-11-21" not in text


def test_the_bounty_is_typed_in_euro_like_the_buy_in(td, pko):
    with translation.override("it"):
        form = TournamentForm(instance=pko)
        assert form["bounty_part_cents"].value() == "15"
        assert "centesimi" not in str(form["bounty_part_cents"].label)
        data = {name: form[name].value() for name in TournamentForm.Meta.fields}
        data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
        data.update(bounty_part_cents="12,50", bounty_unit_cents="0,50", target_event="")
        form = TournamentForm(data, instance=pko)
        assert form.is_valid(), form.errors
        form.save()
    assert Tournament.objects.get(pk=pko.pk).bounty_part_cents == 1250
    with translation.override("it"):
        data.update(bounty_part_cents="dodici")
        refused = TournamentForm(data, instance=pko)
        assert not refused.is_valid()
        assert "Scrivi un importo come 15 o 12,50." in str(refused.errors["bounty_part_cents"])

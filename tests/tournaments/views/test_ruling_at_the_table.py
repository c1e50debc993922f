"""The ruling tool at a dispute: it starts from the table (the level in play, its button,
its players and their counted stacks), describes a raise in two motions and rules it by
the string-bet rule, and says in a sentence what happens next."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import NOW, make_player
from tests.tournaments.views.test_ruling import carried, post, setup_form, url
from tournaments.models import ChipCount, Seat
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def floor_client(client, floor):
    client.force_login(floor)
    return client


def seated(tournament, td, count=4):
    for i in range(count):
        entry_services.entry_register(
            tournament=tournament, player=make_player(f"Nome{i}", f"Cognome{i}"), actor=td, now=NOW
        )
    seats = list(Seat.objects.select_related("table", "entry__player").order_by("table__number"))
    table = seats[0].table
    return table, sorted((s for s in seats if s.table_id == table.pk), key=lambda s: s.number)


def test_the_tool_starts_from_the_tables_level_button_players_and_counts(
    floor_client, tournament, td
):
    table, seats = seated(tournament, td)
    table.button = seats[1].number
    table.save(update_fields=["button"])
    ChipCount.objects.create(
        tournament=tournament, entry=seats[0].entry, chips=41500, table=table.number, counted_at=NOW
    )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    clock_services.clock_jump(tournament=tournament, actor=td, index=3, now=NOW)  # 300/600 BBA
    values = floor_client.get(url(tournament), {"table": table.number}).context["values"]
    assert (values["sb"], values["bb"], values["ante"], values["ante_mode"]) == (
        "300",
        "600",
        "600",
        "bba",
    )
    assert values["button"] == str(seats[1].number)
    assert values[f"name_{seats[0].number}"] == str(seats[0].entry.player)
    assert values[f"stack_{seats[0].number}"] == "41500"


def test_at_a_break_the_tool_takes_the_level_just_played(floor_client, tournament, td):
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    clock_services.clock_jump(tournament=tournament, actor=td, index=2, now=NOW)  # the break
    values = floor_client.get(url(tournament)).context["values"]
    assert (values["sb"], values["bb"]) == ("200", "400")


def test_the_floors_table_page_opens_the_tool_on_that_table(floor_client, tournament, td):
    table, _seats = seated(tournament, td, count=2)
    page = floor_client.get(reverse("room_table", args=[tournament.slug, table.number]))
    assert f'{url(tournament)}?table={table.number}"' in page.content.decode()


SETUP = {
    "game": "NL",
    "sb": 100,
    "bb": 200,
    "button": 2,
    "players": [{"seat": n, "stack": 20000} for n in (1, 2, 3, 4)],
}


def opened(client, tournament):
    """Seat 1 (under the gun) raises to 1000; seat 2, Rossi, is to act."""
    data = {**setup_form(SETUP), "name_2": "Rossi", "name_3": "Bianchi"}
    started = post(client, tournament, data, **HX)
    return post(
        client, tournament, {"op": "act", "seat": "1", "kind": "raise", "to": "1000"}, started, **HX
    )


def test_a_string_raise_is_a_call_cited_to_the_string_bet_rules(floor_client, tournament):
    page = post(
        floor_client,
        tournament,
        {"op": "act", "seat": "2", "kind": "chips", "chips": "1000", "second_motion": "1000 1000"},
        opened(floor_client, tournament),
        **HX,
    )
    step = page.context["view"].steps[-1]
    assert (step.ruling.act, step.ruling.to) == ("call", 1000)
    cited = [rule.id for rule in step.rules]
    assert cited[:4] == ["R-ACT-12", "TDA-56", "R-ACT-5", "TDA-40a"]
    assert "R-RAISE-2" not in cited
    assert "then back to the stack: [1000 1000]" in step.recorded
    text = page.content.decode()
    assert (
        "Only the first motion counts: seat 2 (Rossi), call 1000; the 2000 of the second "
        "motion go back to his stack." in text
    )
    assert "Next to act: seat 3 (Bianchi), 900 to call; or fold, or raise to at least 1800." in text


def test_a_second_motion_without_chips_pushed_is_refused_and_nothing_changes(
    floor_client, tournament
):
    before = opened(floor_client, tournament)
    page = post(
        floor_client,
        tournament,
        {"op": "act", "seat": "2", "kind": "call", "second_motion": "1000"},
        before,
        **HX,
    )
    assert "follows chips pushed" in page.content.decode()
    assert carried(page)["hand"] == carried(before)["hand"]


def test_the_result_says_who_takes_the_pot_in_a_sentence(floor_client, tournament):
    page = opened(floor_client, tournament)
    for seat in ("2", "3", "4"):
        page = post(
            floor_client, tournament, {"op": "act", "seat": seat, "kind": "fold"}, page, **HX
        )
    assert "Main pot goes to seat 1." in page.content.decode()


def test_the_sentence_reads_in_italian(floor_client, tournament, settings):
    settings.LANGUAGE_CODE = "it"
    with translation.override("it"):
        page = post(
            floor_client,
            tournament,
            {"op": "act", "seat": "2", "kind": "chips", "chips": "1000", "second_motion": "2000"},
            opened(floor_client, tournament),
            **HX,
        )
    text = page.content.decode()
    assert "Conta solo il primo movimento" in text
    assert "Ora agisce: posto 3 (Bianchi), 900 da chiamare" in text

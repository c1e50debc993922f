"""Structures fast to enter: the club structure with a big-blind ante, a big-blind ante
that fills its amount, fill-down of a column, and a refused chip set that keeps what the
TD typed."""

from __future__ import annotations

import pytest

from tests.tournaments.views import test_setup as setup_tests
from tests.tournaments.views.test_setup import _break, _level, _saved, _structure_post, _url
from tournaments.services import presets

pytestmark = pytest.mark.django_db

# The structure editor's personas and its English messages, as in test_setup.
_english = pytest.fixture(autouse=True)(setup_tests._english.__wrapped__)
td = pytest.fixture(setup_tests.td.__wrapped__)
tournament = pytest.fixture(setup_tests.tournament.__wrapped__)
td_client = pytest.fixture(setup_tests.td_client.__wrapped__)


def test_the_club_preset_has_a_big_blind_ante_variant_with_the_same_blinds(td_client, tournament):
    club = [i for i in presets.preset_items("club") if i.kind == "level"]
    bba = [i for i in presets.preset_items("club_bba") if i.kind == "level"]
    assert [(i.small_blind, i.big_blind) for i in bba] == [
        (i.small_blind, i.big_blind) for i in club
    ]
    assert all(i.ante_mode == "big_blind_ante" and i.ante == i.big_blind for i in bba)
    page = td_client.get(_url("structure_edit", tournament)).content.decode()
    assert "Club, big-blind ante (20-minute levels)" in page


def test_a_big_blind_ante_left_blank_is_the_big_blind(td_client, tournament):
    rows = [_level(100, 200, ante="", ante_mode="big_blind_ante"), _level(200, 400)]
    response = td_client.post(_url("structure_edit", tournament), _structure_post(rows))
    assert response.status_code == 302
    saved = list(tournament.items.filter(kind="level").values_list("ante", "ante_mode"))
    assert saved[0] == (200, "big_blind_ante")


def test_fill_down_copies_a_column_to_every_level_below(td_client, tournament):
    rows = [
        _level(100, 200),
        _level(200, 400, minutes=30, ante_mode="big_blind_ante", ante=400),
        _break(),
        _level(300, 600),
        _level(400, 800, ante=100, ante_mode="each_player"),
    ]
    url = _url("structure_edit", tournament)
    response = td_client.post(url, _structure_post(rows, op="fill:ante_mode:1"))
    shown = [r["values"] for r in response.context["rows"]]
    assert [(r["ante_mode"], r["ante"]) for r in shown] == [
        ("none", "0"),
        ("big_blind_ante", "400"),
        ("none", ""),  # a break keeps no ante
        ("big_blind_ante", "600"),
        ("big_blind_ante", "800"),
    ]
    response = td_client.post(url, _structure_post(shown, op="fill:minutes:1"))
    shown = [r["values"] for r in response.context["rows"]]
    assert [r["minutes"] for r in shown] == ["20", "30", "10", "30", "30"]
    assert _saved(tournament) == []  # nothing is saved until Save
    assert "Fill down" in response.content.decode()


def test_a_refused_chip_set_keeps_what_was_typed(td_client, tournament):
    data = {
        "value_0": "25",
        "colour_0": "verde-salvia",
        "count_0": "8",
        "value_1": "100",
        "colour_1": "nero-lucido",
        "count_1": "-3",
    }
    response = td_client.post(_url("chipset", tournament), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="verde-salvia"' in page and 'value="nero-lucido"' in page
    assert 'value="-3"' in page
    assert not tournament.denominations.exists()

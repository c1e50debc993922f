"""The pure rules behind three pit disputes: a card exposed out of turn, one box entered out
of a round of several, a split 21; and suit letters read in the supervisor's language."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tables.games import blackjack as bj
from tables.games.cards import Card, parse_card, symbol_text
from tables.games.errors import CardError, InvalidRound


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def _box(n: int, *hands: str, amount: int = 100) -> bj.Box:
    return bj.Box(
        n, (bj.Bet(f"B{n}", f"P{n}", Decimal(amount)),), tuple(bj.Hand(_cards(h)) for h in hands)
    )


@pytest.mark.parametrize(
    ("typed", "language", "card"),
    [
        ("8c", "en", "8c"),
        ("8c", "it", "8h"),
        ("8q", "it", "8d"),
        ("8f", "it", "8c"),
        ("8p", "it", "8s"),
        ("8h", "it", "8h"),
        ("10♣", "en", "Tc"),
        ("10♣", "it", "Tc"),
        ("Q♡", "it", "Qh"),
    ],
)
def test_suit_letters_are_those_of_the_language(typed, language, card):
    assert str(parse_card(typed, language)) == card


@pytest.mark.parametrize("typed", ["8q", "8f", "8p"])
def test_italian_letters_mean_nothing_in_english(typed):
    with pytest.raises(CardError):
        parse_card(typed, "en")


def test_symbol_text():
    assert [symbol_text(c) for c in ("Th", "8c", "As", "Qd", "??")] == [
        "10♥",
        "8♣",
        "A♠",
        "Q♦",
        "??",
    ]


def test_a_banco_card_exposed_out_of_turn_is_annulled_not_dealt():
    boxes = [_box(1, "Tc 8d"), _box(2, "9h 9d")]
    dealt = bj.settle_round(_cards("6c Th 9s 4d"), boxes)
    assert dealt.house_net == Decimal(-200)  # 6 10 9: the Banco busts
    ruled = bj.settle_round(_cards("6c Th 9s 4d"), boxes, exposed=(1,))
    assert [str(c) for c in ruled.dealer.cards] == ["6c", "9s", "4d"]
    assert [str(c) for c in ruled.dealer.exposed] == ["Th"]
    assert ruled.house_net == Decimal(200)
    exposed = [s for s in ruled.steps if s.code == "bj.exposed"]
    assert [(s.rule, s.params["card"], s.params["place"]) for s in exposed] == [
        ("BJ Art.10.2", "Th", "2")
    ]


def test_exposed_positions_must_be_among_the_cards():
    with pytest.raises(ValueError):
        bj.settle_round(_cards("6c Th"), [_box(1, "Tc 8d"), _box(2, "9h 9d")], exposed=(5,))


def test_other_boxes_count_towards_the_two_boxes():
    with pytest.raises(InvalidRound) as refused:
        bj.settle_round(_cards("9h 8c"), [_box(1, "Tc 9d")])
    assert refused.value.reasons == ("fewer_than_two_boxes",)
    ruled = bj.settle_round(_cards("9h 8c"), [_box(1, "Tc 9d")], other_boxes=1)
    assert ruled.results[0].lines[0].rule == "BJ Art.6.9"
    assert ruled.steps[1].code == "bj.other_boxes"


def test_other_boxes_keep_the_banco_drawing_as_listed():
    ruled = bj.settle_round(_cards("9h 8c"), [_box(1, "Tc 6d 8s")], other_boxes=1)
    assert ruled.dealer.completed and ruled.dealer.value.total == 17
    alone = bj.settle_round(_cards("9h"), [_box(1, "Tc 6d 8s")], other_boxes=1)
    assert not alone.dealer.completed


def test_a_split_21_is_worded_as_not_a_black_jack():
    ruled = bj.settle_round(_cards("Td 9h"), [_box(1, "As Kc", "Ad 5h"), _box(2, "Tc 9d")])
    step = next(s for s in ruled.steps if s.code == "bj.hand_split_21")
    assert step.rule == "BJ Art.6.4" and step.params["cards"] == "As Kc"
    assert ruled.results[-1].lines[0].net == Decimal(100)  # 21 against 19, paid 1:1

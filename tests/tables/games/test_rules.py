"""The settings of table-games.md §7.4 and the typed errors of the pure rules."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tables.games import CardError, InvalidRound
from tables.games import blackjack as bj
from tables.games import punto_banco as pb
from tables.games.cards import parse_card, parse_cards
from tables.games.shoe import last_coup_void


def _box(n: int, cards: str, **bet: object) -> bj.Box:
    return bj.Box(
        n,
        (bj.Bet(f"B{n}", f"P{n}", Decimal(100), **bet),),
        (bj.Hand(parse_cards(cards.split())),),
    )


def test_a_three_card_21_against_the_dealer_blackjack_follows_the_setting() -> None:
    boxes = [_box(1, "5c 6h Ts"), _box(2, "Th 9d")]
    dealer = parse_cards(["Kc", "Ad"])
    default = bj.settle_round(dealer, boxes)
    assert [r.lines[0].outcome for r in default.results] == ["lose", "lose"]
    push = bj.settle_round(dealer, boxes, settings=bj.Settings(bj_dealer_blackjack_vs_21="push"))
    by_id = {r.bet_id: r.lines[0] for r in push.results}
    assert (by_id["B1"].outcome, by_id["B1"].rule) == ("push", "BJ Art.6.9")
    assert by_id["B2"].outcome == "lose"


def test_live_insurance_alone_draws_one_card_or_completes_by_setting() -> None:
    boxes = [_box(1, "Th 5d 9c", insurance=True), _box(2, "Th 6d 8c")]
    dealer = parse_cards(["Ah", "4c", "3d", "9s"])
    full = bj.settle_round(dealer, boxes)
    assert [str(c) for c in full.dealer.cards] == ["Ah", "4c", "3d"]
    second = bj.settle_round(
        dealer, boxes, settings=bj.Settings(bj_live_insurance_dealer_draw="second_card_only")
    )
    assert [str(c) for c in second.dealer.cards] == ["Ah", "4c"]
    assert {r.bet_id: r.net for r in full.results} == {r.bet_id: r.net for r in second.results}


def test_bad_cards_raise_typed_errors() -> None:
    for text in ("1h", "Ax", "", "A", "Ahh", None, 7):
        with pytest.raises(CardError):
            parse_card(text)
    assert str(parse_card("10h")) == "Th"
    assert str(parse_card("kD")) == "Kd"
    with pytest.raises(CardError):
        pb.deal(parse_cards(["Ah"] * 7))


def test_the_dealer_without_enough_cards_is_refused() -> None:
    with pytest.raises(InvalidRound) as exc:
        bj.dealer_hand(parse_cards(["9h", "5c"]))
    assert exc.value.reasons == ("insufficient_dealer_cards",)


def test_last_coup_seven_card_rule() -> None:
    assert last_coup_void(starts_with_cut_card=True, cards_behind_cut_card=6)
    assert not last_coup_void(starts_with_cut_card=True, cards_behind_cut_card=7)
    assert not last_coup_void(starts_with_cut_card=False, cards_behind_cut_card=2)


def test_every_step_carries_a_rule_id() -> None:
    coup = pb.settle_coup(parse_cards(["Ad", "Kc", "2h", "3s", "4c", "Qd"]), [])
    assert [s.code for s in coup.steps] == [
        "pb.deal",
        "pb.punto_draws",
        "pb.banco_draws",
        "pb.totals",
    ]
    assert all(s.rule.startswith("PB Art.") for s in coup.steps)
    assert coup.steps[2].params["column"] == "4"

"""Every public table-games case passes through the table-games adapter."""

from __future__ import annotations

import json
from typing import Any

import pytest

from room.conformance import FLOOR_ADAPTERS, run_case
from room.conformance.compare import compare
from room.conformance.tablegames import HANDLERS
from tests.conftest import SHARED

CASES = SHARED / "conformance" / "table-games.json"


def _cases() -> list[dict[str, Any]]:
    return json.loads(CASES.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["id"])
def test_public_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    assert compare(case["expect"], actual) == []
    json.dumps(actual)


def test_the_runner_knows_the_adapter() -> None:
    assert "room.conformance.tablegames" in FLOOR_ADAPTERS
    assert all(run_case(case).passed for case in _cases())


def _round(**changes: Any) -> dict[str, Any]:
    given: dict[str, Any] = {
        "dealer": ["9d", "Tc"],
        "boxes": [
            {
                "box": 1,
                "bets": [{"id": "B1", "player": "P1", "amount": 100}],
                "hands": [{"cards": ["Th", "Kd"], "double": False}],
            },
            {
                "box": 2,
                "bets": [{"id": "B2", "player": "P2", "amount": 50}],
                "hands": [{"cards": ["9s", "Js"], "double": False}],
            },
        ],
        "niwin": [],
    }
    given.update(changes)
    return given


def _box(n: int, hands: list[list[str]], doubles: tuple[int, ...] = (), **bet: Any) -> dict:
    return {
        "box": n,
        "bets": [{"id": f"B{n}", "player": f"P{n}", "amount": 100, **bet}],
        "hands": [{"cards": h, "double": i in doubles} for i, h in enumerate(hands, 1)],
    }


OTHER = _box(2, [["9s", "Js"]])


@pytest.mark.parametrize(
    ("boxes", "dealer", "reasons"),
    [
        ([_box(1, [["Th", "9d"]])], ["9h", "8c"], ["fewer_than_two_boxes"]),
        ([_box(1, [["Th", "9d"]], insurance=True), OTHER], ["9h", "8c"], ["insurance_not_offered"]),
        (
            [_box(1, [["Th", "9d"]], even_money=True), OTHER],
            ["Kh", "8c"],
            ["even_money_not_offered"],
        ),
        (
            [_box(1, [["Ah", "Kd"]], even_money=True), OTHER],
            ["5h", "Tc", "8c"],
            ["even_money_not_offered"],
        ),
        (
            [_box(1, [["Th", "9d"]], insurance=True, surrender=True), OTHER],
            ["Ah", "8c"],
            ["conflicting_options"],
        ),
        ([_box(1, [["Th", "4d"], ["9c", "8d"]]), OTHER], ["9h", "8c"], ["invalid_split"]),
        (
            [_box(1, [["8h", "4d"], ["8c", "8d"], ["8s", "Td"], ["8d", "9c"]]), OTHER],
            ["9h", "8c"],
            ["too_many_split_hands"],
        ),
        (
            [_box(1, [["Ah", "4d"], ["Ac", "8d"], ["As", "Td"]]), OTHER],
            ["9h", "8c"],
            ["aces_resplit"],
        ),
        (
            [_box(1, [["Ah", "4d", "2c"], ["Ac", "8d"]]), OTHER],
            ["9h", "8c"],
            ["invalid_split_aces_hand"],
        ),
        ([_box(1, [["5h", "4d"]], doubles=(1,)), OTHER], ["9h", "8c"], ["invalid_double"]),
        ([_box(1, [["Ah", "Kd", "5c"]]), OTHER], ["9h", "8c"], ["decision_on_blackjack"]),
        (
            [_box(1, [["Th", "5d", "2c"]], surrender=True), OTHER],
            ["9h", "8c"],
            ["surrendered_hand_played"],
        ),
        ([_box(1, [["Th"]]), OTHER], ["9h", "8c"], ["incomplete_hand"]),
        ([_box(1, [["Th", "5d", "9c", "2c"]]), OTHER], ["9h", "8c"], ["card_after_bust"]),
        ([_box(1, [["Th", "9d"]]), OTHER], ["9h"], ["insufficient_dealer_cards"]),
        (
            [_box(1, [["Th", "9d"]], insurance=True)],
            ["9h", "8c"],
            ["fewer_than_two_boxes", "insurance_not_offered"],
        ),
    ],
)
def test_refused_rounds_say_why(boxes: list, dealer: list, reasons: list[str]) -> None:
    out = HANDLERS[("blackjack", "settle_round")](_round(boxes=boxes, dealer=dealer), {})
    assert out == {"valid": False, "reasons": reasons}


def test_shared_box_over_the_maximum_and_below_the_minimum_are_refused() -> None:
    shared = {
        "box": 1,
        "bets": [
            {"id": "B1", "player": "P1", "amount": 300},
            {"id": "B9", "player": "P9", "amount": 300},
        ],
        "hands": [{"cards": ["Th", "9d"], "double": False}],
    }
    out = HANDLERS[("blackjack", "settle_round")](
        _round(boxes=[shared, OTHER], limits={"min": 120, "max": 500}), {}
    )
    assert out == {"valid": False, "reasons": ["bet_below_minimum", "box_over_limit_shared"]}


def test_single_bet_over_the_maximum_has_its_excess_returned() -> None:
    boxes = [_box(1, [["Th", "Kd"]]), OTHER]
    boxes[0]["bets"][0]["amount"] = 700
    out = HANDLERS[("blackjack", "settle_round")](_round(boxes=boxes, limits={"max": 500}), {})
    assert out["results"]["B1"]["lines"][-1] == {
        "part": "excess",
        "stake": 200,
        "outcome": "returned",
        "net": 0,
        "rule": "BJ Art.3.3",
    }
    assert out["results"]["B1"]["net"] == 500


def test_malformed_and_impossible_cards_are_refused_not_crashed() -> None:
    out = HANDLERS[("blackjack", "settle_round")](_round(dealer=["9x", "Tc"]), {})
    assert out == {"valid": False, "reasons": ["malformed_card"]}
    coup = {"cards": ["Ah"] * 7, "bets": []}
    assert HANDLERS[("punto_banco", "settle_coup")](coup, {})["reasons"] == ["impossible_cards"]


@pytest.mark.parametrize(
    ("cards", "bets", "limits", "reasons"),
    [
        (
            ["Ad", "Kc", "2h", "3s", "4c", "Qd"],
            [{"id": "B1", "player": "P1", "on": "punto", "amount": 5}],
            {"min": {"punto": 10}},
            ["bet_below_minimum"],
        ),
        (
            ["Ad", "Kc", "2h", "3s", "4c", "Qd"],
            [{"id": "B1", "player": "P1", "on": "winning_number", "amount": 5, "number": 0}],
            None,
            ["winning_number_out_of_range"],
        ),
        (["Ad", "Kc", "2h", "3s", "4c"], [], None, ["insufficient_cards"]),
        (
            ["Ad", "Kc", "2h"],
            [{"id": "B1", "player": "P1", "on": "winning_number", "amount": 5}],
            None,
            ["winning_number_out_of_range", "insufficient_cards"],
        ),
    ],
)
def test_refused_coups_say_why(cards: list, bets: list, limits: Any, reasons: list) -> None:
    given: dict[str, Any] = {"cards": cards, "bets": bets}
    if limits:
        given["limits"] = limits
    out = HANDLERS[("punto_banco", "settle_coup")](given, {})
    assert out == {"valid": False, "reasons": reasons}

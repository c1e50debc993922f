"""Every public floor case of the money topics, run through the money adapter."""

from __future__ import annotations

import json
from typing import Any

import pytest

from room.conformance.compare import compare
from room.conformance.money import HANDLERS
from tests.conftest import SHARED

TOPICS = {
    "chip_race",
    "color_up",
    "bubble_split",
    "placement",
    "penalty_hands",
    "payout_places",
    "prize_pool",
    "rebuy",
}


def _cases() -> list[dict[str, Any]]:
    cases = json.loads((SHARED / "conformance" / "floor.json").read_text(encoding="utf-8"))
    return [case for case in cases if case["topic"] in TOPICS]


CASES = _cases()


def test_every_topic_has_public_cases() -> None:
    assert {case["topic"] for case in CASES} == TOPICS


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_public_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    json.dumps(actual)  # the runner's results must be plain JSON
    assert compare(case["expect"], actual) == []


# Actions without a public case, in the case format, built from the spec's own examples
# (tournament.md §5.4, §12.2, §15.3, §16.2, §19.2). They check the adapter's shape too.
SPEC_CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "chip_race",
        "post_race_leftovers",
        {
            "removed_denomination": 25,
            "lowest_remaining_denomination": 100,
            "phase": "after_race",
            "seats": {"2": {"25": 3, "500": 10}, "5": {"25": 5, "100": 1}},
        },
        {
            "final_stacks": {"2": {"500": 10}, "5": {"100": 2}},
            "removed_without_compensation": {"2": 75, "5": 25},
        },
    ),
    (
        "chip_race",
        "award_race_results",
        {
            "removed_denomination": 25,
            "lowest_remaining_denomination": 100,
            "chips_to_race": 2,
            "seats": {"3": {"25": 2, "100": 4}, "6": {"25": 1}, "8": {"25": 3, "500": 1}},
            "race_winners": [3, 8],
        },
        {
            "eliminated": [],
            "final_stacks": {"3": {"100": 5}, "6": {"100": 1}, "8": {"100": 1, "500": 1}},
        },
    ),
    (
        "penalty_hands",
        "count_hands",
        {
            "players_at_table_when_given": 8,
            "rounds": 1,
            "served": 3,
            "events": ["misdeal", "redeal"],
        },
        {"total_hands": 8, "remaining": 4, "hands_counted_for_events": 1},
    ),
    (
        "penalty_hands",
        "start_penalty",
        {
            "players_at_table_when_given": 9,
            "rounds": 1,
            "served": 0,
            "events": [],
            "infraction": "exposed_cards_action_pending",
            "infraction_hand_number": 40,
        },
        {
            "first_penalty_hand_number": 41,
            "last_penalty_hand_number": 49,
            "current_hand_still_live": True,
        },
    ),
    (
        "penalty_hands",
        "carry_over",
        {"players_at_table_when_given": 9, "rounds": 2, "served": 0, "events": ["end_of_day"]},
        {"total_hands": 18, "remaining": 18, "served_on": "next_day"},
    ),
    (
        "rebuy",
        "forfeit_and_reenter",
        {
            "reentry_forfeit_allowed": True,
            "stack": 4200,
            "starting_stack": 20000,
            "chips_in_play_before": 1000000,
        },
        {
            "removed_from_play": 4200,
            "new_stack": 20000,
            "chips_in_play_after": 1015800,
            "seat_assignment": "random_draw",
        },
    ),
    (
        "rebuy",
        "request_reentry",
        {"entry_format": "reentry", "stack": 0},
        {"eliminated": True, "reentry_allowed": True},
    ),
    (
        "payout_places",
        "validate_payout_structure",
        {"entries": 87, "proposed_paid_places": 9, "proposed_percentages": None},
        {"min_paid_places": 9, "valid": True, "reasons": []},
    ),
    (
        "placement",
        "settle_eliminations",
        {
            "rules": {"same_hand_elimination_rule": "figp"},
            "paid_places": 27,
            "prizes": {"20": 250},
            "remaining_before_hand": 20,
            "hand_for_hand": False,
            "announcement_hand": False,
            "eliminated_in_hand": [
                {"player": "P26", "table": "T5", "start_stack": 30000, "reason": "disqualification"}
            ],
        },
        {
            "groups": [],
            "remaining_after": 19,
            "disqualified": ["P26"],
            "payout": {"P26": 0},
            "refund": {"P26": 0},
            "chips_removed_from_play": 30000,
        },
    ),
    (
        "placement",
        "settle_eliminations",
        {
            "rules": {"same_hand_elimination_rule": "figp"},
            "paid_places": 27,
            "prizes": {"27": 150},
            "remaining_before_hand": 27,
            "hand_for_hand": False,
            "announcement_hand": False,
            "eliminated_in_hand": [
                {
                    "player": "P27",
                    "table": "T1",
                    "start_stack": 200,
                    "reason": "blinded_out_while_absent",
                }
            ],
        },
        {
            "groups": [{"players": ["P27"], "places": [27], "payout_each": 150}],
            "remaining_after": 26,
        },
    ),
]


@pytest.mark.parametrize(
    ("topic", "action", "given", "expect"),
    SPEC_CASES,
    ids=[f"{topic}-{action}-{i}" for i, (topic, action, _, _) in enumerate(SPEC_CASES)],
)
def test_spec_example(
    topic: str, action: str, given: dict[str, Any], expect: dict[str, Any]
) -> None:
    actual = HANDLERS[(topic, action)](given, {"action": action})
    json.dumps(actual)
    assert compare(expect, actual) == []


def test_every_documented_action_has_a_handler() -> None:
    documented = {
        ("chip_race", a)
        for a in (
            "color_up_exchange",
            "race_order",
            "award_race_by_cards",
            "award_race_results",
            "post_race_leftovers",
        )
    }
    documented |= {("color_up", "color_up"), ("color_up", "color_up_leftovers")}
    documented |= {(t, "settle_eliminations") for t in ("bubble_split", "placement")}
    documented |= {
        ("penalty_hands", a)
        for a in (
            "compute_penalty",
            "carry_over",
            "move_table",
            "count_hands",
            "start_penalty",
            "deal_hand_during_penalty",
        )
    }
    documented |= {
        ("payout_places", "validate_payout_structure"),
        ("prize_pool", "compute_prize_pool"),
        ("rebuy", "resolve_rebuy"),
        ("rebuy", "forfeit_and_reenter"),
        ("rebuy", "request_reentry"),
    }
    assert set(HANDLERS) == documented

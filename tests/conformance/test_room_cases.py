"""Every public case of the room topics passes through the room adapter."""

from __future__ import annotations

import json
from typing import Any

import pytest

from room.conformance.compare import compare
from room.conformance.room import HANDLERS
from tests.conftest import SHARED

FLOOR_CASES = SHARED / "conformance" / "floor.json"
TOPICS = {
    "balance",
    "break_table",
    "final_table",
    "seat_draw",
    "late_entry_deal_in",
    "button_movement",
}


def _room_cases() -> list[dict[str, Any]]:
    cases = json.loads(FLOOR_CASES.read_text(encoding="utf-8"))
    return [case for case in cases if case["topic"] in TOPICS]


@pytest.mark.parametrize("case", _room_cases(), ids=lambda case: case["id"])
def test_public_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    assert compare(case["expect"], actual) == []


def test_every_room_action_has_a_handler() -> None:
    actions = {(case["topic"], case["do"]["action"]) for case in _room_cases()}
    assert actions <= set(HANDLERS)
    # tournament.md §1.2 names these for the six topics, public cases or not.
    assert ("break_table", "seat_card_draw") in HANDLERS


def test_results_are_json() -> None:
    for case in _room_cases():
        handler = HANDLERS[(case["topic"], case["do"]["action"])]
        json.dumps(handler(case["given"], case["do"]))

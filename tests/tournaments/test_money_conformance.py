"""Every public floor case of the money topics, run through the money adapter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tournaments.conformance.compare import compare
from tournaments.conformance.money import HANDLERS

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
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

"""Every worked case of the dealers' rotation (tests/conformance/dealers.json) passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from room.conformance import floor_handlers, run_case
from room.conformance.compare import compare
from room.conformance.dealers import HANDLERS

CASES_FILE = Path(__file__).with_name("dealers.json")


def _cases() -> list[dict[str, Any]]:
    return json.loads(CASES_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["id"])
def test_worked_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    assert compare(case["expect"], actual) == []
    json.dumps(actual)


def test_the_runner_passes_the_file() -> None:
    assert set(HANDLERS) <= set(floor_handlers())
    failed = [result for result in map(run_case, _cases()) if not result.passed]
    assert failed == []


def test_cases_are_named_once_and_described() -> None:
    cases = _cases()
    assert len({case["id"] for case in cases}) == len(cases) >= 20
    assert all(case["description"] for case in cases)

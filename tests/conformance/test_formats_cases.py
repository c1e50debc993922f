"""Every public case of formats.json, run through the formats adapter and the runner."""

from __future__ import annotations

import json
from typing import Any

import pytest

from room.conformance import floor_handlers, run_case
from room.conformance.compare import compare
from room.conformance.formats import HANDLERS
from tests.conftest import SHARED

CASES_FILE = SHARED / "conformance" / "formats.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))


def test_every_topic_has_public_cases() -> None:
    assert {case["topic"] for case in CASES} == {
        "bounty",
        "pko",
        "mystery_bounty",
        "satellite",
    }


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_public_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    json.dumps(actual)  # plain JSON
    assert compare(case["expect"], actual) == []
    assert run_case(case).passed  # and through the command's own runner


def test_the_runner_knows_every_formats_action() -> None:
    handlers = floor_handlers()
    assert all((case["topic"], case["do"]["action"]) in handlers for case in CASES)

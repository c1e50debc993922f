"""Every public cash-room case (shared/conformance/cash.json) passes through the cash adapter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from room.conformance import floor_handlers
from room.conformance.cash import HANDLERS
from room.conformance.compare import compare
from tests.conftest import SHARED


def _cases_file() -> Path:
    return SHARED / "conformance" / "cash.json"


def _cases() -> list[dict[str, Any]]:
    return json.loads(_cases_file().read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["id"])
def test_public_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    assert compare(case["expect"], actual) == []
    json.dumps(actual)


def test_every_cash_action_is_registered_with_the_runner() -> None:
    registered = floor_handlers()
    # cash-room.md §1.2 names thirteen (topic, action) pairs.
    assert len(HANDLERS) == 13
    assert set(HANDLERS) <= set(registered)
    assert {(c["topic"], c["do"]["action"]) for c in _cases()} <= set(HANDLERS)

"""Every public engine case (shared/conformance/engine.json) passes through the adapter."""

import copy
import json

import pytest

from room.conformance.engine import run_engine_case
from tests.conftest import SHARED

CASES_FILE = SHARED / "conformance" / "engine.json"
CASES = json.loads(CASES_FILE.read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_engine_case(case):
    assert run_engine_case(case) == []


def test_public_file_has_all_cases():
    assert len(CASES) >= 108


def test_adapter_reports_a_wrong_expectation():
    case = copy.deepcopy(next(c for c in CASES if c["id"] == "tda43-ex1"))
    case["expect"] = [{"after": 2, "min_raise_to": 5000}]
    assert run_engine_case(case) == ["after event 2: min_raise_to expected 5000, got 5600"]


def test_adapter_asserts_null_next_to_act():
    case = copy.deepcopy(next(c for c in CASES if c["id"] == "flow-preflop-first-to-act"))
    case["expect"] = [{"after": -1, "next_to_act": None}]
    assert run_engine_case(case) == ["before any event: next_to_act expected None, got 4"]

"""Every worked case of the jackpot spec (tests/conformance/jackpots.json) passes through the
jackpot adapter, and the runner knows every jackpot action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from room.conformance import floor_handlers
from room.conformance.compare import compare
from room.conformance.jackpots import HANDLERS

CASES = Path(__file__).with_name("jackpots.json")


def _cases() -> list[dict[str, Any]]:
    return json.loads(CASES.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case["id"])
def test_worked_case(case: dict[str, Any]) -> None:
    handler = HANDLERS[(case["topic"], case["do"]["action"])]
    actual = handler(case["given"], case["do"])
    assert compare(case["expect"], actual) == []
    json.dumps(actual)


def test_every_jackpot_action_is_registered_and_has_a_case() -> None:
    assert set(HANDLERS) <= set(floor_handlers())
    assert {(c["topic"], c["do"]["action"]) for c in _cases()} == set(HANDLERS)


def test_every_case_is_in_the_spec_table() -> None:
    spec = (Path(__file__).parents[2] / "tables" / "cash" / "jackpots.md").read_text()
    ids = [c["id"] for c in _cases()]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if f"| {i} |" not in spec] == []


def test_the_command_passes_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("conformance", str(CASES))
    assert capsys.readouterr().out.strip().endswith(f"{len(_cases())} passed, 0 failed")


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    case = next(c for c in _cases() if c["id"] == "BS-02")
    case["expect"]["shares"][0][1] += 1  # one cent more to the loser than the spec says
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps([case]), encoding="utf-8")
    with pytest.raises(SystemExit):
        call_command("conformance", str(path))

"""Run the rulebooks' worked cases through the project's own rule modules.

Floor cases (tournament.md §1) are dispatched on (topic, do.action) to the handlers of the
adapter modules below; engine cases (in-hand.md §19) go to the engine adapter. A case whose
topic is not built yet fails with that reason: it is never skipped.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from room.conformance.compare import compare

FloorHandler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]

# Adapter modules, each exposing HANDLERS {(topic, action): handler}.
FLOOR_ADAPTERS = (
    "room.conformance.room",
    "room.conformance.clock",
    "room.conformance.money",
    "room.conformance.formats",
    "room.conformance.tablegames",
    "room.conformance.cash",
    "room.conformance.jackpots",
)
ENGINE_ADAPTER = "room.conformance.engine"


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def floor_handlers() -> dict[tuple[str, str], FloorHandler]:
    """Collect the floor handlers of every adapter that exists so far."""
    handlers: dict[tuple[str, str], FloorHandler] = {}
    for name in FLOOR_ADAPTERS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        handlers.update(module.HANDLERS)
    return handlers


def _engine_runner() -> Callable[[dict[str, Any]], list[str]] | None:
    try:
        module = importlib.import_module(ENGINE_ADAPTER)
    except ModuleNotFoundError as exc:
        if exc.name != ENGINE_ADAPTER:
            raise
        return None
    return module.run_engine_case


def is_engine_case(case: dict[str, Any]) -> bool:
    return "setup" in case and "events" in case


def run_case(case: dict[str, Any]) -> CaseResult:
    """Run one case; any exception raised by the project counts as a failure."""
    case_id = str(case.get("id", "?"))
    try:
        if is_engine_case(case):
            runner = _engine_runner()
            if runner is None:
                return CaseResult(case_id, ("the in-hand engine is not built yet",))
            return CaseResult(case_id, tuple(runner(case)))
        topic, action = case["topic"], case["do"]["action"]
        handler = floor_handlers().get((topic, action))
        if handler is None:
            return CaseResult(case_id, (f"topic {topic!r} action {action!r} is not built yet",))
        actual = handler(case["given"], case["do"])
        return CaseResult(case_id, tuple(compare(case["expect"], actual)))
    except Exception as exc:  # noqa: BLE001 - a crash is a failing case, reported as such
        return CaseResult(case_id, (f"raised {type(exc).__name__}: {exc}",))


def load_cases(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Read case files: each a JSON list of cases (or one case)."""
    cases: list[dict[str, Any]] = []
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        cases.extend(data if isinstance(data, list) else [data])
    return cases


def run_cases(cases: Iterable[dict[str, Any]]) -> list[CaseResult]:
    return [run_case(case) for case in cases]

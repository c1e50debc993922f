"""Conformance adapter for engine cases (in-hand.md §19): run one case, list the mismatches.

It translates a case's setup, settings and events to the engine's API
(tables.engine.Hand) and compares every expectation. Unlike floor cases, a null expected value
here IS asserted: `next_to_act: null`, `min_raise_to: null`, `odd_chip_to: null` all have a
meaning in the engine case format.
"""

from __future__ import annotations

from typing import Any

from tables.engine import (
    Action,
    DecisionRequired,
    EngineError,
    EngineSettings,
    Hand,
    IllegalAction,
    TableSetup,
)

_FLOW_KEYS = ("next_to_act", "min_raise_to", "max_raise_to", "round_complete")


def build_hand(case: dict[str, Any]) -> Hand:
    """Return a fresh Hand for a case's setup and settings (hole cards and board included)."""
    setup = TableSetup.from_dict(case["setup"])
    return Hand(setup, EngineSettings.from_dict(case.get("settings")))


def _snapshot(
    hand: Hand, wanted: list[dict[str, Any]], event: dict[str, Any] | None, outcome: dict[str, Any]
) -> dict[str, Any]:
    actual: dict[str, Any] = {
        "next_to_act": hand.next_to_act,
        "min_raise_to": hand.min_raise_to(),
        "max_raise_to": hand.max_raise_to(),
        "round_complete": hand.round_complete,
        # in-hand.md §17 ruling fields, for cases that ask for them
        "to_call": hand.to_call() if hand.next_to_act is not None else None,
        "can_check": hand.can_check(),
        "can_complete": hand.can_complete(),
        "street": hand.street,
        "expose_all_hands": hand.expose_all_hands,
        "out_of_turn": False,
        "td_decision_required": False,
        **outcome,
    }
    actual.setdefault("accepted", actual.get("legal"))
    seats: set[str] = set()
    for exp in wanted:
        seats.update((exp.get("can_raise") or {}).keys())
    actual["can_raise"] = {s: hand.can_raise(int(s)) for s in seats}
    return actual


def _end_state(hand: Hand) -> dict[str, Any]:
    actual: dict[str, Any] = {
        "pots": [p.to_dict() for p in hand.pots()],
        "showdown_order": list(hand.showdown_order()),
    }
    try:
        result = hand.result()
    except EngineError as exc:
        actual["winners"] = f"error: {exc}"
        actual["odd_chip_to"] = f"error: {exc}"
        return actual
    actual["winners"] = result.winners()
    odd = result.odd_chip_recipients()
    actual["odd_chip_to"] = None if not odd else odd[0] if len(odd) == 1 else odd
    actual["final_stacks"] = {str(s): v for s, v in result.final_stacks.items()}
    actual["returned"] = {str(s): v for s, v in result.returned.items()}
    actual["expose_all_hands"] = hand.expose_all_hands
    return actual


def _compare(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    for key, want in expected.items():
        if key in ("after", "end"):
            continue
        got = actual.get(key, "<not computed>")
        if key == "interpreted" and isinstance(want, dict) and isinstance(got, dict):
            got = {k: got.get(k) for k in want}
        elif key == "interpreted" and isinstance(want, dict):
            got = got if got is not None else None
        elif key == "winners" and isinstance(want, dict) and isinstance(got, dict):
            want = {k: sorted(v) for k, v in want.items()}
            got = {k: sorted(v) for k, v in got.items()}
        if want != got:
            problems.append(f"{where}: {key} expected {want!r}, got {got!r}")
    return problems


def run_engine_case(case: dict[str, Any]) -> list[str]:
    """Run one engine case; return one message per mismatch (empty list = pass)."""
    try:
        hand = build_hand(case)
    except EngineError as exc:
        return [f"setup: {type(exc).__name__}: {exc}"]
    expectations: list[dict[str, Any]] = list(case.get("expect") or ())
    by_after: dict[int, list[dict[str, Any]]] = {}
    end: list[dict[str, Any]] = []
    for exp in expectations:
        if exp.get("end"):
            end.append(exp)
        else:
            by_after.setdefault(int(exp["after"]), []).append(exp)
    problems: list[str] = []

    def check(index: int, outcome: dict[str, Any]) -> None:
        wanted = by_after.get(index, [])
        if not wanted:
            return
        actual = _snapshot(hand, wanted, None, outcome)
        where = "before any event" if index < 0 else f"after event {index}"
        for exp in wanted:
            problems.extend(_compare(where, exp, actual))

    check(-1, {})
    for index, event in enumerate(case.get("events") or ()):
        outcome: dict[str, Any] = {}
        try:
            ruling = hand.act(Action.from_dict(event))
            outcome["legal"] = ruling.accepted
            outcome["interpreted"] = (
                None if ruling.act is None else {"act": ruling.act, "to": ruling.to}
            )
            outcome["out_of_turn"] = ruling.out_of_turn
        except DecisionRequired as exc:
            outcome["legal"] = True
            outcome["interpreted"] = None
            outcome["td_decision_required"] = True
            outcome["options"] = list(exc.options)
        except IllegalAction:
            outcome["legal"] = False
            outcome["interpreted"] = None
        except EngineError as exc:
            problems.append(f"after event {index}: engine error {type(exc).__name__}: {exc}")
            outcome["legal"] = False
            outcome["interpreted"] = None
        check(index, outcome)
    if end:
        actual = _end_state(hand)
        for exp in end:
            problems.extend(_compare("end", exp, actual))
    return problems

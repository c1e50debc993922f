"""Compare a conformance case's `expect` with what the project computed.

The rules of comparison are tournament.md §1.1: a null expected value is not asserted;
objects are partial; chip maps are compared whole; lists are compared whole and in order,
except the lists the case format marks *set*.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

# Keys whose list value is a *set* (tournament.md §1.2).
SET_KEYS = frozenset(
    {
        "halted_tables",
        "not_awarded",
        "eliminated",
        "hold_cards_face_down",
        "must_finish_first",
        "players",
        "disqualified",
        # formats.md §1.1
        "eligible",
        "busted",
        "leaders",
        "seat_winners",
        "remaining_envelopes",
        "winner_envelopes",
        "no_bounty",
    }
)
# Keys whose value is a chip map {denomination: count}, or a map of seats to chip maps.
CHIP_MAP_KEYS = frozenset({"handed_in", "received", "chips_after", "chips"})
SEAT_CHIP_MAP_KEYS = frozenset({"odd_chips_to_race", "stack_before_race", "final_stacks"})


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Return one message per difference between a case's expect and the actual result."""
    problems: list[str] = []
    for key, want in expected.items():
        if want is None:
            continue  # "not determined: do not assert" (§1.1)
        if key not in actual:
            problems.append(f"{key}: expected {_show(want)}, got nothing")
            continue
        _compare_value(key, want, actual[key], key, problems)
    return problems


def _compare_value(key: str, want: Any, got: Any, path: str, problems: list[str]) -> None:
    if key in CHIP_MAP_KEYS and isinstance(want, dict):
        if not _same_chip_map(want, got):
            problems.append(f"{path}: expected {_show(want)}, got {_show(got)}")
        return
    if key in SEAT_CHIP_MAP_KEYS and isinstance(want, dict):
        if not isinstance(got, dict):
            problems.append(f"{path}: expected {_show(want)}, got {_show(got)}")
            return
        for seat, chips in want.items():
            if not _same_chip_map(chips, _lookup(got, seat)):
                problems.append(
                    f"{path}.{seat}: expected {_show(chips)}, got {_show(_lookup(got, seat))}"
                )
        return
    if isinstance(want, dict):
        if not isinstance(got, dict):
            problems.append(f"{path}: expected {_show(want)}, got {_show(got)}")
            return
        for sub_key, sub_want in want.items():
            sub_got = _lookup(got, sub_key)
            if sub_got is _MISSING:
                problems.append(f"{path}.{sub_key}: expected {_show(sub_want)}, got nothing")
            else:
                _compare_value(sub_key, sub_want, sub_got, f"{path}.{sub_key}", problems)
        return
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            problems.append(f"{path}: expected {_show(want)}, got {_show(got)}")
            return
        if key in SET_KEYS:
            if Counter(map(_freeze, want)) != Counter(map(_freeze, got)):
                problems.append(f"{path}: expected (any order) {_show(want)}, got {_show(got)}")
            return
        for index, (item_want, item_got) in enumerate(zip(want, got, strict=True)):
            _compare_value(key, item_want, item_got, f"{path}[{index}]", problems)
        return
    if not _same_scalar(want, got):
        problems.append(f"{path}: expected {_show(want)}, got {_show(got)}")


_MISSING = object()


def _lookup(mapping: dict[Any, Any], key: Any) -> Any:
    """Find a map entry whether the project keyed it by string or by integer."""
    if key in mapping:
        return mapping[key]
    if isinstance(key, str) and key.lstrip("-").isdigit() and int(key) in mapping:
        return mapping[int(key)]
    return _MISSING


def _same_chip_map(want: Any, got: Any) -> bool:
    if not isinstance(want, dict) or not isinstance(got, dict):
        return want == got
    norm_want = {str(k): v for k, v in want.items() if v}
    norm_got = {str(k): v for k, v in got.items() if v}
    return norm_want == norm_got


def _same_scalar(want: Any, got: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return want == got
    return str(want) == str(got) if isinstance(want, str) and isinstance(got, int) else want == got


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _show(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    import json

    try:
        return json.dumps(value, sort_keys=True, default=str)
    except TypeError:
        return repr(value)

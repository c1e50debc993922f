"""Conformance adapter for the dealers' rotation (room/rules/README.md): cases to
room.rules.dealers and back.

Topic `dealers`, actions `next_push` (plan one push), `apply_push` (plan it, make it at its
time, show the dealers after) and `shift` (`pushes` pushes in a row, each made at its time,
with tables opening and closing at set times). Only translation lives here; every decision
is made by room.rules.dealers.

A case's times are "HH:MM" on one evening. A move reads "7: cash:2" (dealer 7 sits at
cash:2), "7: break until 20:50" or "7: out" (waits); `seated` lists the ids of the dealers
who sit down (by id), for cases where who sits matters and not which table; a dealer after a push reads
"7: cash:2 since 20:30, box 60, last pit:1, shift 90" or "7: out since 20:30, box 0, break
until 20:50, shift 120" (box: minutes since the last break; shift: minutes dealt this
shift, the down being dealt not counted).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from room.rules.dealers import (
    DealerOnShift,
    Move,
    OpenTable,
    Push,
    RotationSettings,
    apply_push,
    next_push,
)

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
EVENING = datetime(2026, 1, 1, tzinfo=UTC)  # cases never cross midnight


def _at(clock: str) -> datetime:
    hours, minutes = clock.split(":")
    return EVENING + timedelta(hours=int(hours), minutes=int(minutes))


def _clock(moment: datetime) -> str:
    return moment.strftime("%H:%M")


def _settings(given: dict[str, Any]) -> RotationSettings:
    return RotationSettings(**given.get("settings", {}))


def _table(raw: dict[str, Any]) -> OpenTable:
    return OpenTable(raw["key"], raw["game"], bool(raw.get("keep_dealer", False)))


def _dealer(raw: dict[str, Any]) -> DealerOnShift:
    until = raw.get("on_break_until")
    return DealerOnShift(
        id=int(raw["id"]),
        games=frozenset(raw["games"]),
        table=raw.get("table"),
        since=_at(raw["since"]),
        box_minutes_since_break=int(raw.get("box_minutes", 0)),
        last_table=raw.get("last_table"),
        on_break_until=None if until is None else _at(until),
        shift_box_minutes=int(raw.get("shift_minutes", 0)),
    )


def _move(move: Move) -> str:
    if move.table is not None:
        return f"{move.dealer_id}: {move.table}"
    if move.break_until is not None:
        return f"{move.dealer_id}: break until {_clock(move.break_until)}"
    return f"{move.dealer_id}: out"


def _push(push: Push) -> dict[str, Any]:
    return {
        "at": _clock(push.at),
        "moves": [_move(move) for move in push.moves],
        "seated": [move.dealer_id for move in push.moves if move.table is not None],
        "unstaffed": list(push.unstaffed),
    }


def _state(dealer: DealerOnShift) -> str:
    where = dealer.table if dealer.table is not None else "out"
    text = (
        f"{dealer.id}: {where} since {_clock(dealer.since)}, box {dealer.box_minutes_since_break}"
    )
    if dealer.last_table is not None:
        text += f", last {dealer.last_table}"
    if dealer.on_break_until is not None:
        text += f", break until {_clock(dealer.on_break_until)}"
    return f"{text}, shift {dealer.shift_box_minutes}"


def next_push_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """dealers · next_push: the next push planned at `now`; a refused input reads error."""
    try:
        push = next_push(
            [_table(t) for t in given["tables"]],
            [_dealer(d) for d in given["dealers"]],
            _at(given["now"]),
            _settings(given),
        )
    except ValueError as exc:
        return {"error": str(exc)}
    return _push(push)


def apply_push_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """dealers · apply_push: the next push, made at its time; the dealers after it."""
    dealers = [_dealer(d) for d in given["dealers"]]
    push = next_push(
        [_table(t) for t in given["tables"]], dealers, _at(given["now"]), _settings(given)
    )
    after = apply_push(push, dealers, push.at)
    return {**_push(push), "after": [_state(d) for d in sorted(after, key=lambda d: d.id)]}


def shift_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """dealers · shift: `do.pushes` pushes in a row, each made at its time; `do.events`
    open (`{"at", "open": table}`) or close (`{"at", "close": key}`) tables, seen by the
    first push planned at or after their time (which is then planned at that time)."""
    settings = _settings(given)
    tables = {t["key"]: _table(t) for t in given["tables"]}
    dealers = [_dealer(d) for d in given["dealers"]]
    events = sorted(do.get("events", []), key=lambda e: e["at"])
    now = _at(given["now"])
    pushes: list[dict[str, Any]] = []
    for _ in range(int(do["pushes"])):
        push = next_push(list(tables.values()), dealers, now, settings)
        while events and _at(events[0]["at"]) <= push.at:
            event = events.pop(0)
            now = max(now, _at(event["at"]))
            if "open" in event:
                tables[event["open"]["key"]] = _table(event["open"])
            else:
                del tables[event["close"]]
            push = next_push(list(tables.values()), dealers, now, settings)
        dealers = list(apply_push(push, dealers, push.at))
        now = push.at
        pushes.append(_push(push))
    return {"pushes": pushes, "after": [_state(d) for d in sorted(dealers, key=lambda d: d.id)]}


HANDLERS: dict[tuple[str, str], Handler] = {
    ("dealers", "next_push"): next_push_handler,
    ("dealers", "apply_push"): apply_push_handler,
    ("dealers", "shift"): shift_handler,
}

"""Which logged floor actions a player is told about on his phone, and what he is told.

Plain data in (a log row's action and payload), plain data out: each `Notice` names whom
it is for (a player, an entry, or every player still in the event) and what happened, in
fields the message is worded from. Nothing here reads the database or the clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal[
    "cash_seat_ready",  # the cash list's call: his seat is ready, answer within the window
    "seat_drawn",  # his tournament seat, drawn at registration or in a draw
    "seat_moved",  # moved by the floor or by balancing
    "table_broken",  # his table broke: his new seat
    "hand_for_hand",  # hand-for-hand starts (in the money already)
    "bubble",  # hand-for-hand starts on the money bubble
    "in_the_money",  # the bubble burst: everyone still in is in the money
    "payout_ready",  # he finished in the money: his prize waits at the cage
]
Whom = Literal["player", "entry", "field"]

# Tournament actions that move players, and how the move is told.
MOVES: Mapping[str, Kind] = {
    "room.balance": "seat_moved",
    "room.final_table": "seat_moved",
    "room.break": "table_broken",
}


@dataclass(frozen=True)
class Notice:
    kind: Kind
    whom: Whom
    who: int = 0  # the player's or entry's id; 0 for the whole field
    facts: Mapping[str, Any] = field(default_factory=dict)


def _seat(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return value[0], value[1]
    return None


def _id(value: Any) -> int | None:
    return value if type(value) is int else None


def tournament_notices(action: str, data: Mapping[str, Any]) -> list[Notice]:
    """What a tournament's log row tells its players (tournaments.models.Event)."""
    if action == "entry.register":
        entry, table, seat = _id(data.get("entry")), _id(data.get("table")), _id(data.get("seat"))
        if entry is None or table is None or seat is None:
            return []
        return [Notice("seat_drawn", "entry", entry, {"table": table, "seat": seat})]
    if action == "seats.draw":
        assignments = data.get("assignments") or {}
        out = []
        for key, value in assignments.items() if isinstance(assignments, dict) else ():
            place = _seat(value)
            if str(key).isdigit() and place:
                out.append(
                    Notice("seat_drawn", "entry", int(key), {"table": place[0], "seat": place[1]})
                )
        return out
    if action == "seat.move":
        entry, to = _id(data.get("entry")), _seat(data.get("to"))
        if entry is None or to is None:
            return []
        return [Notice("seat_moved", "entry", entry, {"table": to[0], "seat": to[1]})]
    if action in MOVES:
        out = []
        for move in data.get("moves") or []:
            entry = _id(move.get("entry")) if isinstance(move, dict) else None
            to = _seat(move.get("to")) if isinstance(move, dict) else None
            before = _seat(move.get("from")) if isinstance(move, dict) else None
            if entry is not None and to is not None:
                facts = {"table": to[0], "seat": to[1], "from_table": before[0] if before else 0}
                out.append(Notice(MOVES[action], "entry", entry, facts))
        return out
    if action == "h4h.start":
        kind: Kind = "hand_for_hand" if data.get("in_the_money") else "bubble"
        return [Notice(kind, "field")]
    if action == "h4h.stop" and data.get("bubble_burst"):
        return [Notice("in_the_money", "field")]
    if action == "entry.eliminate":
        entries = [e for e in data.get("entries") or [] if type(e) is int]
        winner = data.get("winner")
        if isinstance(winner, dict) and type(winner.get("entry")) is int:
            entries.append(winner["entry"])
        # The prize is read from the entry when the notice is worded: the log holds the
        # places, and a prize of 0 (out before the money) tells nothing.
        return [Notice("payout_ready", "entry", e) for e in entries]
    return []


def room_notices(action: str, data: Mapping[str, Any]) -> list[Notice]:
    """What a room log row tells a cash player (room.models.RoomEvent): the list's call."""
    if action == "cash.call":
        player = _id(data.get("player"))
    elif action == "cash.skip":
        player = _id(data.get("next"))  # the name called for the seat the skipped one had
    else:
        return []
    table, seat = _id(data.get("table")), _id(data.get("seat"))
    if player is None or table is None or seat is None:
        return []
    return [Notice("cash_seat_ready", "player", player, {"table": table, "seat": seat})]

"""How a write of the cash room is refused, logged and undone (cash-room.md §14).

A write refuses with `CashRefused` when the pure rules of `tables.cash` say no; `_Change`
takes the state of the games it touches (their waiting lists, open tables, seats and
cash-outs) before it and logs it with the write's `cash.*` room event. Undo restores that
state; it is refused when a later action changed one of those games.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.events import room_event_log, undoes
from room.models import CashOut, CashSeat, CashTable, RakeRecord, RoomEvent, WaitEntry
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import Player
from tournaments.realtime import broadcast_cash


class CashRefused(DomainError):
    message = gettext_lazy("Not possible: %(reason)s")


SEAT_FIELDS = (
    "id",
    "table_id",
    "number",
    "player_id",
    "seated_at",
    "seated_order",
    "status",
    "buy_in",
    "sit_out_until",
    "sit_outs_today",
    "markers",
    "short_buy_ins",
    "request",
)


CASH_OUT_FIELDS = ("id", "player_id", "game_id", "stack", "at")


ENTRY_FIELDS = (
    "id",
    "game_id",
    "player_id",
    "position",
    "joined_at",
    "called_at",
    "called_table",
    "called_seat",
    "coming",
    "coming_at",
    "locked_out_until",
    "from_closed_table",
    "arrive_by",
)


TABLE_FIELDS = ("id", "status", "closed_at", "button", "sb", "bb")


TIMES = {
    "at",
    "seated_at",
    "sit_out_until",
    "joined_at",
    "called_at",
    "coming_at",
    "locked_out_until",
    "closed_at",
    "arrive_by",
}


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if k in TIMES and v is not None else v) for k, v in row.items()}


def _typed(row: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (datetime.fromisoformat(v) if k in TIMES and v is not None else v)
        for k, v in row.items()
    }


def _snapshot(game_ids: set[int]) -> dict[str, Any]:
    ids = sorted(game_ids)
    return {
        "games": ids,
        "tables": [
            _plain(r) for r in CashTable.objects.filter(game_id__in=ids).values(*TABLE_FIELDS)
        ],
        "seats": [
            _plain(r) for r in CashSeat.objects.filter(table__game_id__in=ids).values(*SEAT_FIELDS)
        ],
        "waiting": [
            _plain(r) for r in WaitEntry.objects.filter(game_id__in=ids).values(*ENTRY_FIELDS)
        ],
        "cash_outs": [
            _plain(r) for r in CashOut.objects.filter(game_id__in=ids).values(*CASH_OUT_FIELDS)
        ],
    }


def _restore(snapshot: dict[str, Any]) -> None:
    ids = snapshot["games"]
    players = [row["player_id"] for row in snapshot["seats"]]
    named = {
        row["player_id"]
        for key in ("seats", "waiting", "cash_outs")
        for row in snapshot.get(key, [])
    }
    # A duplicate merged into another since: his seat, lists and cash-outs are the kept
    # player's now, and the hidden record must not sit down again.
    if Player.objects.filter(pk__in=named, merged_into__isnull=False).exists():
        raise CannotUndo(reason=_("a player it would restore was merged into another since"))
    back = {*players, *(row["player_id"] for row in snapshot["waiting"])}
    # Locked, as `list_add` does: an erasure refuses a seated or listed player.
    locked = Player.objects.select_for_update().filter(pk__in=back).order_by("pk")
    if any(locked.values_list("erased_at", flat=True)):
        raise CannotUndo(reason=_("a player it would put back was erased since"))
    if CashSeat.objects.filter(player_id__in=players).exclude(table__game_id__in=ids).exists():
        raise CannotUndo(reason=_("a player it would seat again now sits in another game"))
    reopened = [row["id"] for row in snapshot["tables"] if row["status"] == CashTable.Status.OPEN]
    numbers = CashTable.objects.filter(id__in=reopened).values_list("number", flat=True)
    clash = CashTable.objects.filter(number__in=list(numbers), status=CashTable.Status.OPEN)
    if clash.exclude(game_id__in=ids).exists():
        raise CannotUndo(reason=_("another game has opened a table with the same number"))
    CashSeat.objects.filter(table__game_id__in=ids).delete()
    WaitEntry.objects.filter(game_id__in=ids).delete()
    known = {row["id"] for row in snapshot["tables"]}
    later = CashTable.objects.filter(game_id__in=ids).exclude(id__in=known)
    if RakeRecord.objects.filter(table__in=later).exists():
        raise CannotUndo(reason=_("a table opened by it has rake recorded"))
    later.delete()
    for row in snapshot["tables"]:
        values = _typed(row)
        CashTable.objects.filter(id=values.pop("id")).update(**values)
    CashSeat.objects.bulk_create(CashSeat(**_typed(r)) for r in snapshot["seats"])
    WaitEntry.objects.bulk_create(WaitEntry(**_typed(r)) for r in snapshot["waiting"])
    CashOut.objects.filter(game_id__in=ids).delete()
    CashOut.objects.bulk_create(CashOut(**_typed(r)) for r in snapshot.get("cash_outs", []))


STATE_ACTIONS = (
    "cash.list_add",
    "cash.list_remove",
    "cash.call",
    "cash.answer",
    "cash.no_answer",
    "cash.skip",
    "cash.seat",
    "cash.move",
    "cash.request",
    "cash.fill",
    "cash.sit_out",
    "cash.sit_back",
    "cash.marker",
    "cash.leave",
    "cash.buy",
    "cash.open",
    "cash.close",
    "cash.hand",
    "cash.arrived",
    "cash.remote_lapse",
)


def _undo_state(event: RoomEvent, actor: Any, now: datetime) -> None:
    games = set(event.data.get("before", {}).get("games", []))
    later = RoomEvent.objects.filter(
        pk__gt=event.pk, action__in=STATE_ACTIONS, undone_at__isnull=True
    ).only("data")
    for other in later:
        if games & set(other.data.get("before", {}).get("games", [])):
            raise CannotUndo(reason=_("a later action changed the same game; undo that first"))
    _restore(event.data["before"])
    broadcast_cash("undo")


for _action in STATE_ACTIONS:
    undoes(_action)(_undo_state)


class _Change:
    """Collect the games an action touches and log it with their state before it."""

    def __init__(self, *games: int) -> None:
        self.games = set(games)
        self.before = _snapshot(self.games)

    def log(self, *, actor: Any, action: str, now: datetime, **data: Any) -> RoomEvent:
        event = room_event_log(
            actor=actor, action=action, data={**data, "before": self.before}, now=now
        )
        broadcast_cash(action)
        return event

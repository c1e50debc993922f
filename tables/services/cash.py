"""The cash room's writes (cash-room.md §14): lists, calls, seats, moves, tables, rake.

Every service decides through the pure rules of `tables.cash`, changes the rows in one
transaction and logs a `cash.*` room event. Undo restores the state the event recorded
before it (the waiting lists, open tables and seats of the games it touched); it is refused
when a later action changed one of those games.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tables.cash import absence, buyin, changes, closing, opening, rake, waitlist
from tables.cash.settings import DEFAULTS, CashSettings
from tables.cash.shifts import Shift
from tables.events import room_event_log, undoes
from tables.models import (
    CashGame,
    CashOut,
    CashRoom,
    CashSeat,
    CashTable,
    KeepApart,
    PhoneLink,
    RakeRecord,
    RoomEvent,
    WaitEntry,
)
from tables.rules.buttons import Positions, next_hand
from tables.selectors.cash import cash_room, game_settings, room_settings
from tables.services import jackpots
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import NightClose, Player
from tournaments.realtime import broadcast_cash
from tournaments.services.locks import once

RANKS = "23456789TJQKA"
SUITS = "shdc"

JOIN_REFUSALS = {
    "not_present": gettext_lazy("the player must be here in person to join a list"),
    "already_on_list": gettext_lazy("the player is already on this list"),
    "seated_in_this_game": gettext_lazy(
        "the player already sits in this game: file a seat or table change instead"
    ),
    "level_down_not_allowed": gettext_lazy(
        "the player sits at higher blinds; moving down is not allowed"
    ),
}
BUY_IN_REFUSALS = {
    "hand_in_progress": gettext_lazy("chips are bought only between hands"),
    "below_min_buy_in": gettext_lazy("below the minimum buy-in"),
    "below_limit_minimum_purchase": gettext_lazy("in limit every purchase is at least 20 BB"),
    "short_buy_in_used": gettext_lazy("the short buy-in of this session is used"),
    "below_earlier_cash_out": gettext_lazy(
        "the player left this game today with more: he must come back with at least as much"
    ),
    "above_max_buy_in": gettext_lazy("above the maximum buy-in"),
}
SIT_OUT_REFUSALS = {
    "daily_limit_reached": gettext_lazy("the sit-out of today is used"),
    "too_many_away": gettext_lazy("too many players of this table are away"),
}


class CashRefused(DomainError):
    message = gettext_lazy("Not possible: %(reason)s")


class BooksClosed(DomainError):
    message = gettext_lazy(
        "The books of %(night)s are closed: the rake of that night no longer changes; "
        "the cashier records a correction instead."
    )


def _lock_table(table: CashTable) -> None:
    """Take the table's row lock: the rake's writes and the books' close (which locks
    every cash table before it counts the rake) then happen one after the other."""
    CashTable.objects.select_for_update().filter(pk=table.pk).values_list("pk").first()


def _assert_books_open(at: datetime) -> None:
    """Refuse a change to the rake of a night whose books are closed (the night is the
    local date, as the books count the rake). Call holding the table's lock."""
    night = timezone.localdate(at)
    if NightClose.objects.filter(night=night).exists():
        raise BooksClosed(night=night.isoformat())


# --- settings ---------------------------------------------------------------------------


def _game_rules(game: CashGame) -> buyin.Game:
    return buyin.Game(
        structure=game.structure, bb=game.bb, min_buy_in=game.min_buy_in, max_buy_in=game.max_buy_in
    )


# --- snapshots for undo ----------------------------------------------------------------

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


# --- games ------------------------------------------------------------------------------

GAME_FIELDS = (
    "variant",
    "structure",
    "sb",
    "bb",
    "min_buy_in",
    "max_buy_in",
    "max_seats",
    "rake_percent",
    "rake_cap",
    "active",
)


def _game_values(game: CashGame) -> dict[str, Any]:
    return {
        f: (str(getattr(game, f)) if f == "rake_percent" else getattr(game, f)) for f in GAME_FIELDS
    }


@transaction.atomic
def game_save(
    *, actor: Any, game: CashGame | None, values: dict[str, Any], now: datetime
) -> CashGame:
    """Create a catalogue entry or change one (the TD's; a change applies from now, §5)."""
    if values["sb"] > values["bb"]:
        raise CashRefused(reason=_("the small blind is larger than the big blind"))
    if values.get("max_buy_in") is not None and values["max_buy_in"] < values["min_buy_in"]:
        raise CashRefused(reason=_("the maximum buy-in is below the minimum"))
    before = None if game is None else _game_values(game)
    if game is None:
        game = CashGame.objects.create(**values)
    else:
        for key, value in values.items():
            setattr(game, key, value)
        game.save()
    room_event_log(
        actor=actor,
        action="cash.game",
        data={"game": game.pk, "label": str(game), "before_game": before},
        now=now,
    )
    broadcast_cash("cash.game")
    return game


@transaction.atomic
def _stored(value: Any) -> Any:
    """A setting as the room's row keeps it (JSON): tuples as lists, a shift as its pair."""
    if isinstance(value, tuple):
        return [_stored(v) for v in value]
    if isinstance(value, Shift):
        return [value.name, value.start_minutes]
    return value


def room_settings_save(*, actor: Any, values: dict[str, Any], now: datetime) -> CashRoom:
    """Change the room's settings (the manager's, §3). `values` holds settings of
    `CashSettings` by name, checked by the form; one left at the rulebook's default is kept
    as no override, so the room follows the rulebook where it has not chosen otherwise."""
    room = cash_room()
    before = {
        "public_name_format": room.public_name_format,
        "answer_minutes": room.answer_minutes,
        "overrides": dict(room.overrides or {}),
    }
    overrides = dict(room.overrides or {})
    for key, value in values.items():
        if key in {"public_name_format", "answer_minutes"}:
            setattr(room, key, value)
        elif value == getattr(DEFAULTS, key):
            overrides.pop(key, None)
        else:
            overrides[key] = _stored(value)
    room.overrides = overrides
    room.save()
    room_event_log(actor=actor, action="cash.settings", data={"before_room": before}, now=now)
    broadcast_cash("cash.settings")
    return room


@undoes("cash.settings")
def _undo_settings(event: RoomEvent, actor: Any, now: datetime) -> None:
    room = cash_room()
    for key, value in event.data["before_room"].items():
        setattr(room, key, value)
    room.save()
    broadcast_cash("undo")


@undoes("cash.game")
def _undo_game(event: RoomEvent, actor: Any, now: datetime) -> None:
    game = CashGame.objects.filter(pk=event.data["game"]).first()
    if game is None:
        raise CannotUndo(reason=_("the game no longer exists"))
    before = event.data.get("before_game")
    if before is None:
        if game.tables.exists() or game.waiting.exists():
            raise CannotUndo(reason=_("the game has tables or a waiting list"))
        game.delete()
        return
    for key, value in before.items():
        setattr(game, key, value)
    game.save()


# --- phone links ------------------------------------------------------------------------


@transaction.atomic
def phone_link_new(*, actor: Any, player: Player, now: datetime) -> int:
    """Give the player a new phone link: his key's version moves on, so every link made
    before stops working at once. Returns the new version. Not undoable: an undo would
    bring back the link the floor meant to turn off; a newer link is the remedy."""
    link, _created = PhoneLink.objects.select_for_update().get_or_create(player=player)
    link.version += 1
    link.save(update_fields=["version"])
    room_event_log(
        actor=actor,
        action="cash.phone_link",
        data={"player": player.pk, "version": link.version},
        now=now,
        undoable=False,
    )
    return link.version


# --- keep-apart pairs (§6.7) ------------------------------------------------------------


def keep_apart_pairs() -> list[tuple[str, str]]:
    return [(str(a), str(b)) for a, b in KeepApart.objects.values_list("player_a", "player_b")]


def _check_not_kept_apart(player_id: int, table: CashTable, *, ignore: int | None = None) -> None:
    others = [str(p) for p in table.seats.exclude(pk=ignore).values_list("player_id", flat=True)]
    if waitlist.kept_apart(str(player_id), others, keep_apart_pairs()):
        raise CashRefused(
            reason=_("the house keeps this player apart from someone at table %(table)s")
            % {"table": table.number}
        )


@transaction.atomic
def keep_apart_add(*, actor: Any, a: Player, b: Player, reason: str, now: datetime) -> KeepApart:
    """Keep two players at different tables from now on (the TD's, §6.7)."""
    if a.pk == b.pk:
        raise CashRefused(reason=_("a player cannot be kept apart from himself"))
    first, second = sorted((a, b), key=lambda p: p.pk)
    pair, _created = KeepApart.objects.get_or_create(
        player_a=first, player_b=second, defaults={"reason": reason.strip(), "created_at": now}
    )
    room_event_log(actor=actor, action="cash.keep_apart", data={"pair": pair.pk}, now=now)
    return pair


@undoes("cash.keep_apart")
def _undo_keep_apart(event: RoomEvent, actor: Any, now: datetime) -> None:
    KeepApart.objects.filter(pk=event.data["pair"]).delete()


# --- waiting lists ----------------------------------------------------------------------


@transaction.atomic
def list_add_new_player(
    *,
    actor: Any,
    first_name: str,
    last_name: str,
    card: str,
    games: list[CashGame],
    present: bool,
    now: datetime,
) -> tuple[Player, list[WaitEntry]]:
    """A player the room does not know yet, created when the floor asks for it, and his
    place on the lists: one transaction, so a refused join leaves no record behind."""
    if card and Player.objects.filter(document_number__iexact=card).exists():
        raise CashRefused(reason=_("a player already holds this card: find him by it"))
    try:
        # Two tabs creating the same card at once: the card's unique constraint lets one
        # through and the other is told, never answered with an error page.
        with transaction.atomic():
            player = Player.objects.create(
                first_name=first_name, last_name=last_name, document_number=card
            )
    except IntegrityError:
        raise CashRefused(reason=_("a player already holds this card: find him by it")) from None
    return player, list_add(actor=actor, player=player, games=games, present=present, now=now)


def _list(game: CashGame) -> list[WaitEntry]:
    return list(game.waiting.select_related("player").order_by("position", "id"))


def _bottom(game: CashGame) -> int:
    return (game.waiting.aggregate(m=Max("position"))["m"] or 0) + 1


def _top(game: CashGame) -> int:
    return (game.waiting.aggregate(m=Min("position"))["m"] or 1) - 1


@transaction.atomic
def list_add(
    *,
    actor: Any,
    player: Player,
    games: list[CashGame],
    present: bool,
    now: datetime,
    arrive_by: datetime | None = None,
) -> list[WaitEntry]:
    """Put a player at the bottom of one or several lists (§6.2-§6.3); all or nothing.
    `arrive_by`: a remote join (only where the room allows it), not yet in the room."""
    # His row locked: an erasure of his data (which refuses a listed player) waits, or
    # went first and he is refused here.
    locked = Player.objects.select_for_update().filter(pk=player.pk)
    if locked.values_list("erased_at", flat=True).first() is not None:
        raise CashRefused(reason=_("this player's data was erased"))
    change = _Change(*(g.pk for g in games))
    seat = CashSeat.objects.filter(player=player).select_related("table__game").first()
    seated = None if seat is None else waitlist.Seated(str(seat.table.game_id), seat.table.game.bb)
    entries = []
    for game in games:
        decision = waitlist.join_list(
            game=str(game.pk),
            bb=game.bb,
            waiting=[str(e.player_id) for e in _list(game)],
            player=str(player.pk),
            present=present,
            seated_in=seated,
            settings=game_settings(game),
        )
        if not decision.accepted:
            raise CashRefused(reason=f"{game}: {JOIN_REFUSALS[decision.reason or 'not_present']}")
        entries.append(
            WaitEntry.objects.create(
                game=game, player=player, position=_bottom(game), joined_at=now, arrive_by=arrive_by
            )
        )
    change.log(
        actor=actor,
        action="cash.list_add",
        now=now,
        player=player.pk,
        name=str(player),
        games=[str(g) for g in games],
    )
    return entries


@transaction.atomic
def list_remove(*, actor: Any, entry: WaitEntry, now: datetime) -> None:
    change = _Change(entry.game_id)
    entry.delete()
    change.log(actor=actor, action="cash.list_remove", now=now, player=entry.player_id)


def _left_table_at(number: int, now: datetime) -> dict[str, datetime]:
    """Who left table `number` lately, and when (for the 30-minute return rule, §6.6)."""
    left: dict[str, datetime] = {}
    recent = RoomEvent.objects.filter(
        action__in=("cash.leave", "cash.seat"),
        undone_at__isnull=True,
        at__gte=now - timedelta(hours=12),
    ).only("at", "action", "data")
    for event in recent:
        # A seat from another game's list leaves his table here (recorded in `left`).
        where = event.data if event.action == "cash.leave" else (event.data.get("left") or {})
        if where.get("table") == number:
            left[str(event.data["player"])] = max(
                event.at, left.get(str(event.data["player"]), event.at)
            )
    return left


def _declined_at(game: CashGame, players: list[int], now: datetime) -> dict[str, datetime]:
    """When each player last declined a seat at this buy-in: the lockout covers every game
    with the same minimum buy-in (§6.5)."""
    lockout = timedelta(minutes=game_settings(game).decline_lockout_minutes)
    declined: dict[str, datetime] = {}
    locked = WaitEntry.objects.filter(
        player_id__in=players, game__min_buy_in=game.min_buy_in, locked_out_until__gt=now
    ).values_list("player_id", "locked_out_until")
    for player, until in locked:
        declined[str(player)] = max(until - lockout, declined.get(str(player), until - lockout))
    return declined


def free_seats(table: CashTable) -> list[int]:
    taken = set(table.seats.values_list("number", flat=True))
    called = set(
        WaitEntry.objects.filter(called_table=table.number, called_seat__isnull=False).values_list(
            "called_seat", flat=True
        )
    )
    return [s for s in range(1, table.max_seats + 1) if s not in taken | called]


@transaction.atomic
def list_call(*, actor: Any, table: CashTable, seat: int, now: datetime) -> WaitEntry:
    """Call the first eligible name on the game's list for a free seat (§6.4-§6.7)."""
    if seat not in free_seats(table):
        raise CashRefused(reason=_("seat %(seat)s is not free") % {"seat": seat})
    lapse_remote(now=now)  # a remote join past his arrival window is not called
    change = _Change(table.game_id)
    entry = _call_next(table=table, seat=seat, now=now)
    if entry is None:
        raise CashRefused(reason=_("nobody on the list can take this seat now"))
    change.log(
        actor=actor,
        action="cash.call",
        now=now,
        player=entry.player_id,
        table=table.number,
        seat=seat,
        rule=waitlist.RULE_ANSWER,
    )
    return entry


def _call_next(
    *, table: CashTable, seat: int, now: datetime, exclude: set[str] | None = None
) -> WaitEntry | None:
    """Call the first eligible uncalled name (not in `exclude`) for the seat; None if
    nobody may take it now (§6.4-§6.7)."""
    game = table.game
    entries = [e for e in _list(game) if e.called_at is None]
    by_id = {str(e.player_id): e for e in entries}
    at_table = [str(p) for p in table.seats.values_list("player_id", flat=True)]
    name = waitlist.next_eligible(
        [str(e.player_id) for e in entries],
        at=now,
        exclude=exclude or (),
        table_players=at_table,
        left_table_at=_left_table_at(table.number, now),
        keep_apart=keep_apart_pairs(),
        declined_at=_declined_at(game, [e.player_id for e in entries], now),
        settings=game_settings(game),
    )
    if name is None:
        return None
    entry = by_id[name]
    entry.called_at, entry.called_table, entry.called_seat = now, table.number, seat
    entry.save(update_fields=["called_at", "called_table", "called_seat"])
    return entry


def answer_deadline(entry: WaitEntry) -> datetime | None:
    if entry.called_at is None:
        return None
    return waitlist.answer_deadline(entry.called_at, game_settings(entry.game))


def call_status(entry: WaitEntry, now: datetime) -> waitlist.CallStatus | None:
    """Where the entry's call stands at `now` (its window and deadline), or None uncalled."""
    if entry.called_at is None:
        return None
    coming_at = (entry.coming_at or entry.called_at) if entry.coming else None
    return waitlist.call_status(
        called_at=entry.called_at, coming_at=coming_at, now=now, settings=game_settings(entry.game)
    )


def _locked_entry(entry: WaitEntry) -> WaitEntry:
    """The entry's row, locked: two tabs answering or seating the same name act one after
    the other, and the second sees what the first did."""
    locked = WaitEntry.objects.select_for_update().filter(pk=entry.pk).first()
    if locked is None:
        raise CashRefused(reason=_("this name is no longer on the list"))
    locked.game, locked.player = entry.game, entry.player
    return locked


def _uncall(entry: WaitEntry) -> None:
    entry.called_at = entry.called_table = entry.called_seat = None
    entry.coming, entry.coming_at = False, None


@transaction.atomic
def list_answer(
    *, actor: Any, entry: WaitEntry, takes_seat: bool, now: datetime, more_minutes: int = 0
) -> WaitEntry:
    """Record a called player's answer: coming (the seat is locked up for his arrival) or
    declined (§6.5). `more_minutes`: coming, but that many minutes later (his phone's "need
    N more minutes"): his arrival window, and its deadline on the board, move by as much.
    An answer after the window is refused: the name goes down the list (§6.4), which the
    floor confirms."""
    entry = _locked_entry(entry)
    status = call_status(entry, now)
    if status is None:
        raise CashRefused(reason=_("this player has not been called"))
    if takes_seat and entry.coming and not more_minutes:
        return entry  # the same "coming" twice (a double tap, two tabs) changes nothing
    if status.overdue:
        if not entry.coming:
            raise CashRefused(
                reason=_(
                    "the time to answer ran out at %(time)s; the floor moves the name down the list"
                )
                % {"time": timezone.localtime(status.deadline).strftime("%H:%M")}
            )
        if more_minutes:
            raise CashRefused(reason=_("the time to reach the table has run out"))
    settings = game_settings(entry.game)
    change = _Change(entry.game_id)
    if more_minutes:
        start = waitlist.arrival_put_off(
            coming_at=entry.coming_at if entry.coming else None,
            now=now,
            minutes=more_minutes,
            settings=settings,
        )
        if start is None:
            raise CashRefused(
                reason=_("the seat is held at most %(minutes)s more minutes")
                % {"minutes": settings.most_more_minutes}
            )
        entry.coming, entry.coming_at = True, start
    elif takes_seat:
        entry.coming, entry.coming_at = True, now
    else:
        entry.locked_out_until = now + timedelta(minutes=settings.decline_lockout_minutes)
        _uncall(entry)
        if settings.declined_seat_to_bottom:
            entry.position = _bottom(entry.game)
    entry.save()
    change.log(
        actor=actor,
        action="cash.answer",
        now=now,
        player=entry.player_id,
        takes_seat=takes_seat or bool(more_minutes),
        more_minutes=more_minutes,
        rule=waitlist.RULE_ANSWER if takes_seat or more_minutes else waitlist.RULE_DECLINE,
    )
    return entry


@transaction.atomic
def list_no_answer(*, actor: Any, entry: WaitEntry, now: datetime) -> WaitEntry:
    """Move a called name to the bottom of the list (§6.4): he did not answer in time, or
    said he was coming and did not reach the seat in time. The seat is free again."""
    entry = _locked_entry(entry)
    status = call_status(entry, now)
    if status is None:
        raise CashRefused(reason=_("this player is not waiting for an answer"))
    if not status.overdue:
        if status.state == "on_the_way":
            raise CashRefused(reason=_("the time to reach the table has not run out yet"))
        raise CashRefused(reason=_("the time to answer has not run out yet"))
    change = _Change(entry.game_id)
    table, seat = entry.called_table, entry.called_seat
    _uncall(entry)
    entry.position = _bottom(entry.game)
    entry.save()
    change.log(
        actor=actor,
        action="cash.no_answer",
        now=now,
        player=entry.player_id,
        name=str(entry.player),
        game=str(entry.game),
        table=table,
        seat=seat,
        state=status.state,
        rule=waitlist.RULE_ANSWER,
    )
    return entry


@transaction.atomic
def list_skip(*, actor: Any, entry: WaitEntry, now: datetime) -> WaitEntry | None:
    """Pass a called name over for his seat: he keeps his place (§6.4, a name passed over
    is not moved), and the seat is called for the next eligible name, who is returned
    (None: nobody may take it now and the seat is free)."""
    entry = _locked_entry(entry)
    if entry.called_at is None or entry.called_table is None or entry.called_seat is None:
        raise CashRefused(reason=_("this player is not waiting for an answer"))
    table = CashTable.objects.filter(
        game=entry.game, number=entry.called_table, status=CashTable.Status.OPEN
    ).first()
    number, seat = entry.called_table, entry.called_seat
    change = _Change(entry.game_id)
    skipped = entry.player_id
    _uncall(entry)
    entry.save()
    following = None
    if table is not None:
        following = _call_next(table=table, seat=seat, now=now, exclude={str(skipped)})
    change.log(
        actor=actor,
        action="cash.skip",
        now=now,
        player=skipped,
        name=str(entry.player),
        game=str(entry.game),
        table=number,
        seat=seat,
        next=None if following is None else following.player_id,
        rule=waitlist.RULE_ANSWER,
    )
    return following


# --- seats ------------------------------------------------------------------------------


def _next_seated_order(game: CashGame) -> int:
    return (
        CashSeat.objects.filter(table__game=game).aggregate(m=Max("seated_order"))["m"] or 0
    ) + 1


def _check_seat_free(table: CashTable, seat: int, *, for_player: int | None = None) -> None:
    if table.status != CashTable.Status.OPEN:
        raise CashRefused(reason=_("table %(table)s is closed") % {"table": table.number})
    if not 1 <= seat <= table.max_seats:
        raise CashRefused(
            reason=_("table %(table)s has no seat %(seat)s") % {"table": table.number, "seat": seat}
        )
    if table.seats.filter(number=seat).exists():
        raise CashRefused(reason=_("seat %(seat)s is taken") % {"seat": seat})
    held = WaitEntry.objects.filter(called_table=table.number, called_seat=seat).exclude(
        player_id=for_player
    )
    if held.exists():
        raise CashRefused(reason=_("seat %(seat)s is held for a called player") % {"seat": seat})


def _jumped(entry: WaitEntry, table: CashTable, now: datetime) -> list[Player]:
    """The players a seat given to `entry` at `table` now would jump on the list (§6.4)."""
    entries = _list(entry.game)
    jumped = waitlist.names_passed_over(
        [str(e.player_id) for e in entries],
        str(entry.player_id),
        at=now,
        called={str(e.player_id) for e in entries if e.called_at is not None},
        table_players=[str(p) for p in table.seats.values_list("player_id", flat=True)],
        left_table_at=_left_table_at(table.number, now),
        declined_at=_declined_at(entry.game, [e.player_id for e in entries], now),
        keep_apart=keep_apart_pairs(),
        settings=game_settings(entry.game),
    )
    players = {str(e.player_id): e.player for e in entries}
    return [players[name] for name in jumped]


def _names(players: list[Player]) -> str:
    return ", ".join(str(p) for p in players)


def _where(seat: CashSeat) -> str:
    return _("%(player)s at table %(table)s (%(game)s)") % {
        "player": seat.player,
        "table": seat.table.number,
        "game": seat.table.game,
    }


@transaction.atomic
def seat_player(
    *,
    actor: Any,
    entry: WaitEntry,
    table: CashTable,
    seat: int,
    buy_in: int,
    now: datetime,
    reason: str = "",
    leaving_stack: int | None = None,
) -> CashSeat:
    """Seat a name from the list after the buy-in check (§6.4, §9.2, §10).

    Out of list order (names above him that may take this seat and are not being called)
    the floor gives a `reason`, which is logged. A player who sits in another game leaves
    it: `leaving_stack` is the stake he takes from that table, recorded as his cash-out
    there (§10.3)."""
    game = table.game
    if entry.game_id != game.pk:
        raise CashRefused(reason=_("this table plays another game"))
    entry = _locked_entry(entry)
    _check_seat_free(table, seat, for_player=entry.player_id)
    _check_not_kept_apart(entry.player_id, table)
    old = CashSeat.objects.filter(player_id=entry.player_id).select_related("table__game").first()
    if old is not None and old.table.game_id == game.pk:
        raise CashRefused(reason=_("the player already sits in this game: move his seat instead"))
    if old is not None and leaving_stack is None:
        raise CashRefused(
            reason=_("%(where)s: give the stake he leaves that table with") % {"where": _where(old)}
        )
    kind: buyin.BuyInKind = "from_closed_table" if entry.from_closed_table else "new"
    decision = buyin.check_buy_in(
        game=_game_rules(game),
        kind=kind,
        stack=0,
        amount=buy_in,
        earlier_cash_out=earlier_cash_out(player_id=entry.player_id, game=game, now=now),
        settings=game_settings(game),
    )
    if not decision.allowed:
        raise CashRefused(reason=BUY_IN_REFUSALS[decision.reason or "below_min_buy_in"])
    # Asked last: a seat refused for the money or the seat itself needs no reason.
    reason = reason.strip()
    jumped = _jumped(entry, table, now)
    if jumped and not reason:
        raise CashRefused(
            reason=ngettext(
                "%(names)s comes before %(player)s on the list: seat him first, or give "
                "the reason to seat %(player)s out of order",
                "%(names)s come before %(player)s on the list: seat them first, or give "
                "the reason to seat %(player)s out of order",
                len(jumped),
            )
            % {"names": _names(jumped), "player": entry.player}
        )
    games = {game.pk} | ({old.table.game_id} if old else set())
    change = _Change(*games)
    left = None
    if old is not None:
        # Moving to another game (§6.3): he leaves his table there with his stake.
        left = {
            "game": old.table.game_id,
            "label": str(old.table.game),
            "table": old.table.number,
            "seat": old.number,
            "stack": leaving_stack,
        }
        CashOut.objects.create(
            player_id=entry.player_id, game=old.table.game, stack=leaving_stack or 0, at=now
        )
        old.delete()
    with once(CashRefused(reason=_("the seat or the player was just taken by another action"))):
        new = CashSeat.objects.create(
            table=table,
            number=seat,
            player_id=entry.player_id,
            seated_at=now,
            seated_order=_next_seated_order(game),
            status=CashSeat.Status.FROM_CLOSED_TABLE
            if entry.from_closed_table
            else CashSeat.Status.NEW_PLAYER,
            buy_in=decision.stack_after,
        )
    entry.delete()
    change.log(
        actor=actor,
        action="cash.seat",
        now=now,
        player=entry.player_id,
        name=str(entry.player),
        game=str(game),
        table=table.number,
        seat=seat,
        buy_in=buy_in,
        out_of_order={"jumped": [p.pk for p in jumped], "reason": reason} if jumped else None,
        left=left,
        rule=decision.rule,
    )
    return new


@transaction.atomic
def seat_move(
    *, actor: Any, seat: CashSeat, to_table: CashTable, to_seat: int, by_house: bool, now: datetime
) -> tuple[CashSeat, str]:
    """Change a player's seat or table in the same game; return the seat and what he posts.

    Same table: a seat change, a big blind owed by §8.4; another table: a new player on
    request (§8.3), or moved by the house (§8.5).
    """
    table = seat.table
    if to_table.game_id != table.game_id:
        raise CashRefused(reason=_("a move to another game goes through its waiting list"))
    _check_seat_free(to_table, to_seat)
    _check_not_kept_apart(seat.player_id, to_table, ignore=seat.pk)
    change = _Change(table.game_id)
    posts = "none"
    if to_table.pk == table.pk:
        status = CashSeat.Status.SEAT_CHANGE
        if table.button is not None:
            occupied = list(table.seats.values_list("number", flat=True))
            decision = changes.seat_change_post(
                max_seats=table.max_seats,
                occupied=occupied,
                # The next hand's button is this hand's small-blind seat (dead-button rule,
                # tournament.md §7.1); positions are those recorded at the opening draw.
                next_button=table.sb or table.button,
                from_seat=seat.number,
                to_seat=to_seat,
                settings=game_settings(table.game),
            )
            posts = decision.must_post
    elif by_house:
        status = CashSeat.Status.MOVED_BY_HOUSE
    else:
        status = CashSeat.Status.NEW_PLAYER
        posts = "bb"
    from_table, from_seat = table.number, seat.number
    seat.table, seat.number, seat.status, seat.request = to_table, to_seat, status, ""
    # Two tabs giving the same seat at once: the seat's constraint refuses the second.
    with once(CashRefused(reason=_("seat %(seat)s is taken") % {"seat": to_seat})):
        seat.save()
    change.log(
        actor=actor,
        action="cash.move",
        now=now,
        player=seat.player_id,
        from_table=from_table,
        from_seat=from_seat,
        table=to_table.number,
        seat=to_seat,
        status=status,
        posts=posts,
    )
    return seat, posts


@transaction.atomic
def seat_request(*, actor: Any, seat: CashSeat, kind: str, now: datetime) -> CashSeat:
    """File or withdraw a seated player's seat-change or main-table request (§8.1)."""
    change = _Change(seat.table.game_id)
    seat.request = kind
    seat.save(update_fields=["request"])
    change.log(actor=actor, action="cash.request", now=now, player=seat.player_id, request=kind)
    return seat


def main_table(game: CashGame) -> CashTable | None:
    """The game's main table: the oldest table still open (§8.1 [interpretation])."""
    return game.tables.filter(status=CashTable.Status.OPEN).order_by("opened_at", "id").first()


@transaction.atomic
def seat_fill(
    *, actor: Any, table: CashTable, seat: int, now: datetime
) -> tuple[list[str], tuple[int, int] | None]:
    """Fill a freed seat by priority: seated players' requests first (§8.1).

    Applies the chain of moves; returns the players moved and the seat left for the list
    (table number, seat), which the floor then calls.
    """
    game = table.game
    _check_seat_free(table, seat)
    change = _Change(game.pk)
    seats = list(CashSeat.objects.filter(table__game=game).select_related("table", "player"))
    main = main_table(game)
    requests = [
        changes.SeatRequest(str(s.pk), str(s.table.number), s.number, s.request, s.seated_order)  # type: ignore[arg-type]
        for s in seats
        if s.request
    ]
    plan = changes.fill_vacated_seat(
        table=str(table.number),
        seat=seat,
        main_table=None if main is None else str(main.number),
        requests=requests,
        waiting=[],
        players_at={
            str(t): {str(s.pk) for s in seats if s.table.number == t}
            for t in {s.table.number for s in seats}
        },
        keep_apart=[
            (str(sa.pk), str(sb.pk))
            for a, b in keep_apart_pairs()
            for sa in seats
            for sb in seats
            if str(sa.player_id) == a and str(sb.player_id) == b
        ],
        settings=game_settings(game),
    )
    tables = {str(t.number): t for t in game.tables.filter(status=CashTable.Status.OPEN)}
    by_pk = {str(s.pk): s for s in seats}
    moved = []
    for move in plan.moves:
        mover = by_pk[move.player]
        mover.table, mover.number = tables[move.to_table], move.to_seat
        mover.status, mover.request = move.status, ""
        mover.save()
        moved.append(str(mover.player))
    left = None if not plan.left_free else (int(plan.left_free[0][0]), plan.left_free[0][1])
    change.log(
        actor=actor,
        action="cash.fill",
        now=now,
        table=table.number,
        seat=seat,
        moves=[
            {
                "player": by_pk[m.player].player_id,
                "to_table": m.to_table,
                "to_seat": m.to_seat,
                "status": m.status,
            }
            for m in plan.moves
        ],
        rule=changes.RULE_PRIORITY,
    )
    return moved, left


@transaction.atomic
def sit_out(*, actor: Any, seat: CashSeat, now: datetime) -> CashSeat:
    """Grant a sit-out with its return time, or refuse it (§11.2)."""
    table = seat.table
    away = table.seats.filter(sit_out_until__isnull=False).exclude(pk=seat.pk).count()
    decision = absence.request_sit_out(
        max_seats=table.max_seats,
        player_count=table.seats.count(),
        away_now=away,
        sit_outs_today=seat.sit_outs_today,
        at=now,
        settings=game_settings(table.game),
    )
    if not decision.granted:
        raise CashRefused(reason=SIT_OUT_REFUSALS[decision.reason or "too_many_away"])
    change = _Change(table.game_id)
    seat.sit_out_until = decision.return_by
    seat.sit_outs_today += 1
    seat.save(update_fields=["sit_out_until", "sit_outs_today"])
    change.log(
        actor=actor, action="cash.sit_out", now=now, player=seat.player_id, rule=decision.rule
    )
    return seat


@transaction.atomic
def sit_back(*, actor: Any, seat: CashSeat, now: datetime) -> CashSeat:
    change = _Change(seat.table.game_id)
    seat.sit_out_until = None
    seat.save(update_fields=["sit_out_until"])
    change.log(actor=actor, action="cash.sit_back", now=now, player=seat.player_id)
    return seat


@transaction.atomic
def marker_add(*, actor: Any, seat: CashSeat, now: datetime) -> absence.MarkerDecision:
    """Record a missed big blind; say whether the seat may now be freed (§11.4)."""
    game = seat.table.game
    change = _Change(game.pk)
    decision = absence.missed_blind_event(
        event="misses_big_blind",
        markers=seat.markers,
        on_sit_out=seat.sit_out_until is not None and now <= seat.sit_out_until,
        waiting_list_length=game.waiting.count(),
        settings=game_settings(game),
    )
    seat.markers = decision.markers
    seat.save(update_fields=["markers"])
    change.log(
        actor=actor,
        action="cash.marker",
        now=now,
        player=seat.player_id,
        markers=decision.markers,
        releasable=decision.seat_released,
        rule=decision.rule,
    )
    return decision


def gaming_day_start(now: datetime, settings: CashSettings) -> datetime:
    """The start of the gaming day `now` belongs to (`gaming_day_start`, default 06:00)."""
    local = timezone.localtime(now)
    start = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(
        minutes=settings.gaming_day_start_minutes
    )
    return start if local >= start else start - timedelta(days=1)


def earlier_cash_out(*, player_id: int, game: CashGame, now: datetime) -> int | None:
    """The largest stake the player left this game with today, or None (§10.3)."""
    since = gaming_day_start(now, game_settings(game))
    stacks = CashOut.objects.filter(player_id=player_id, game=game, at__gte=since, at__lte=now)
    return stacks.aggregate(m=Max("stack"))["m"]


@transaction.atomic
def seat_buy(
    *,
    actor: Any,
    seat: CashSeat,
    stack: int,
    amount: int,
    now: datetime,
    bought: int | None = None,
) -> CashSeat:
    """A seated player buys chips between hands: the buy-in check for `seated` (§10.2).

    `bought` is what the seat had bought when the form was drawn: the seat's row is
    locked and its total compared, so the same form sent twice (a double tap, a retry, two
    tablets) sells the chips once; a second sale is a new form."""
    locked = CashSeat.objects.select_for_update().filter(pk=seat.pk).first()
    if locked is None:
        raise CashRefused(reason=_("the seat is free now"))
    if bought is not None and locked.buy_in != bought:
        raise DomainError(_("This buy-in is already recorded."))
    seat.buy_in, seat.short_buy_ins = locked.buy_in, locked.short_buy_ins
    game = seat.table.game
    decision = buyin.check_buy_in(
        game=_game_rules(game),
        kind="seated",
        stack=stack,
        amount=amount,
        short_buy_ins_used=seat.short_buy_ins,
        settings=game_settings(game),
    )
    if not decision.allowed:
        raise CashRefused(reason=BUY_IN_REFUSALS[decision.reason or "below_min_buy_in"])
    change = _Change(game.pk)
    seat.buy_in += amount
    seat.short_buy_ins += 1 if decision.short_buy_in else 0
    seat.save(update_fields=["buy_in", "short_buy_ins"])
    change.log(
        actor=actor,
        action="cash.buy",
        now=now,
        player=seat.player_id,
        amount=amount,
        short=decision.short_buy_in,
        rule=decision.rule,
    )
    return seat


@transaction.atomic
def seat_leave(*, actor: Any, seat: CashSeat, now: datetime, stack: int | None = None) -> None:
    """Free a seat: the player left (with `stack`, his cash-out), or the floor released it."""
    change = _Change(seat.table.game_id)
    number, table = seat.number, seat.table.number
    if stack is not None:
        CashOut.objects.create(player_id=seat.player_id, game=seat.table.game, stack=stack, at=now)
    seat.delete()
    change.log(
        actor=actor, action="cash.leave", now=now, player=seat.player_id, table=table, seat=number
    )


# --- tables -----------------------------------------------------------------------------


def _deck(rng: random.Random) -> list[str]:
    cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(cards)
    return cards


@transaction.atomic
def table_open(
    *,
    actor: Any,
    game: CashGame,
    number: int,
    present: set[int],
    now: datetime,
    rng: random.Random | None = None,
) -> CashTable:
    """Open a table from the list: list order, seat cards, the button by card (§7.2-§7.3).

    `present` holds the list entries' player ids in the cash area; the draw is recorded.
    """
    rng = rng or random.SystemRandom()
    if CashTable.objects.filter(number=number, status=CashTable.Status.OPEN).exists():
        raise CashRefused(reason=_("table %(table)s is already open") % {"table": number})
    entries = _list(game)
    names = [str(e.player_id) for e in entries]
    listed = {e.player_id for e in entries}
    playing = list(
        CashSeat.objects.filter(player_id__in=set(present) & listed)
        .select_related("player", "table__game")
        .order_by("table__number", "number")
    )
    if playing:
        raise CashRefused(
            reason=_(
                "already playing: %(where)s. Untick them, or seat them from the list with "
                "the stake they leave their table with"
            )
            % {"where": "; ".join(_where(s) for s in playing)}
        )
    seat_cards = list(range(1, game.max_seats + 1))
    rng.shuffle(seat_cards)
    deck = _deck(rng)
    pairs = keep_apart_pairs()
    chosen = opening.choose_opening_players(
        waiting=names, present={str(p) for p in present}, max_seats=game.max_seats, keep_apart=pairs
    )
    if len(chosen) < 2:
        raise CashRefused(reason=_("at least two players on the list must be here"))
    change = _Change(game.pk)
    result = opening.open_table(
        waiting=names,
        present={str(p) for p in present},
        max_seats=game.max_seats,
        seat_card_stack=seat_cards,
        button_cards={name: deck[k] for k, name in enumerate(chosen)},
        keep_apart=pairs,
        settings=game_settings(game),
    )
    # Two tabs opening at once, or a ticked player seated elsewhere meanwhile: the
    # constraints refuse the second write, in words.
    with once(CashRefused(reason=_("table %(table)s is already open") % {"table": number})):
        table = CashTable.objects.create(
            game=game,
            number=number,
            max_seats=game.max_seats,
            opened_at=now,
            button=result.positions.button,
            sb=result.positions.sb,
            bb=result.positions.bb,
        )
    order = _next_seated_order(game)
    seat_of = {name: seat for seat, name in result.seats.items()}
    with once(CashRefused(reason=_("a player of this draw just sat down elsewhere; open again"))):
        CashSeat.objects.bulk_create(
            CashSeat(
                table=table,
                number=seat_of[name],
                player_id=int(name),
                seated_at=now,
                seated_order=order + k,
                status=CashSeat.Status.NEW_PLAYER,
            )
            for k, name in enumerate(result.seated)
        )
    WaitEntry.objects.filter(game=game, player_id__in=[int(n) for n in result.seated]).delete()
    change.log(
        actor=actor,
        action="cash.open",
        now=now,
        table=number,
        seats={str(s): int(p) for s, p in result.seats.items()},
        button_cards={name: deck[k] for k, name in enumerate(chosen)},
        button=result.positions.button,
        rules=list(result.rules),
    )
    return table


@transaction.atomic
def table_close(
    *, actor: Any, table: CashTable, now: datetime, rng: random.Random | None = None
) -> list[int]:
    """Close a table: one card each, its players go on top of the list by card (§9.1)."""
    rng = rng or random.SystemRandom()
    game = table.game
    change = _Change(game.pk)
    players = [str(p) for p in table.seats.values_list("player_id", flat=True)]
    deck = _deck(rng)
    cards = {p: deck[k] for k, p in enumerate(players)}
    result = closing.close_table(
        players=players,
        cards=cards,
        waiting=[str(e.player_id) for e in _list(game)],
        settings=game_settings(game),
    )
    table.seats.all().delete()
    table.status, table.closed_at = CashTable.Status.CLOSED, now
    table.save(update_fields=["status", "closed_at"])
    top = _top(game)
    count = len(result.order)
    for k, name in enumerate(result.order):
        WaitEntry.objects.update_or_create(
            game=game,
            player_id=int(name),
            defaults={
                "position": top - count + 1 + k,
                "joined_at": now,
                "from_closed_table": True,
                "called_at": None,
                "called_table": None,
                "called_seat": None,
                "coming": False,
                "coming_at": None,
            },
        )
    change.log(
        actor=actor,
        action="cash.close",
        now=now,
        table=table.number,
        cards=cards,
        order=[int(n) for n in result.order],
        rule=result.rule,
    )
    return [int(n) for n in result.order]


@transaction.atomic
def table_hand_done(*, actor: Any, table: CashTable, now: datetime) -> CashTable:
    """Move the button and blinds on after a hand ("the BB always advances", dead button)."""
    occupied = list(table.seats.values_list("number", flat=True))
    if table.button is None or table.sb is None or table.bb is None or len(occupied) < 2:
        raise CashRefused(reason=_("a hand needs the positions and at least two players"))
    change = _Change(table.game_id)
    hand = next_hand(
        max_seats=table.max_seats,
        occupied=occupied,
        last_hand=Positions(button=table.button, sb=table.sb, bb=table.bb),
    )
    table.button, table.sb, table.bb = hand.positions.button, hand.positions.sb, hand.positions.bb
    table.save(update_fields=["button", "sb", "bb"])
    change.log(
        actor=actor,
        action="cash.hand",
        now=now,
        table=table.number,
        button=table.button,
        bb=table.bb,
        rules=list(hand.rules),
    )
    return table


# --- rake -------------------------------------------------------------------------------


@transaction.atomic
def rake_record(
    *,
    actor: Any,
    table: CashTable,
    pot: int,
    flop_dealt: bool,
    dealer: Any,
    shift: str,
    now: datetime,
    contributions: list[rake.Contribution] | None = None,
    hand: int | None = None,
) -> RakeRecord:
    """Record one hand's rake: from the contributions through the pots, or from the total.

    `dealer` is a staff account (the form offers those who may deal) or None; the record
    keeps the account and the name it had then. `shift` is one of the room's shifts, or
    empty when the room names none.

    `hand` is the hand the form was drawn for (the next one of the table then): a hand is
    raked once, so the same form sent twice (a double tap, a retry, two tablets) records
    one rake. The table's row is locked first, so two rakes never take the same number;
    without `hand`, the next one. Refused once the night's books are closed."""
    _lock_table(table)
    _assert_books_open(now)
    last = table.rake.aggregate(m=Max("hand"))["m"] or 0
    if hand is not None and hand <= last:
        raise _raked_already(table, hand)
    if hand is not None and hand > last + 1:
        raise CashRefused(reason=_("no such hand at this table yet"))
    hand = last + 1
    settings = game_settings(table.game)
    shift = shift.strip()
    if shift and shift not in {s.name for s in settings.shifts}:
        raise CashRefused(reason=_("the room has no such shift"))
    if contributions:
        result = rake.compute_rake(
            contributions=contributions, flop_dealt=flop_dealt, settings=settings
        )
        pot = sum(p.amount for p in result.pots)
        taken, by_pot = result.rake_total, [p.rake for p in result.pots]
    else:
        no_drop = settings.no_flop_no_drop and not flop_dealt
        taken = 0 if no_drop else rake.rake_of(pot, settings)
        by_pot = [taken]
    with once(_raked_already(table, hand)):
        record = RakeRecord.objects.create(
            table=table,
            game=table.game,
            at=now,
            hand=hand,
            dealer_account=dealer or None,
            dealer=staff_name(dealer) if dealer else "",
            shift=shift,
            flop_dealt=flop_dealt,
            pot=pot,
            rake=taken,
            rake_by_pot=by_pot,
        )
    # The jackpot's drop goes in with the rake, once per hand as the rake does.
    drop = jackpots.drop_record(record)
    room_event_log(
        actor=actor,
        action="cash.rake",
        data={
            "record": record.pk,
            "table": table.number,
            "pot": pot,
            "rake": taken,
            "drop_cents": drop.cents if drop else 0,
            "rule": rake.RULE_RAKE,
        },
        now=now,
    )
    broadcast_cash("cash.rake")
    return record


def _raked_already(table: CashTable, hand: int) -> DomainError:
    return DomainError(
        _("The rake of hand %(hand)s at table %(table)s is already recorded.")
        % {"hand": hand, "table": table.number}
    )


def staff_name(user: Any) -> str:
    """How a staff account is named on reports: its full name, else its username."""
    return (user.get_full_name() or user.get_username())[:60]


def next_rake_hand(table: CashTable) -> int:
    """The hand a rake form drawn now is for: the table's next one to rake."""
    return (table.rake.aggregate(m=Max("hand"))["m"] or 0) + 1


@undoes("cash.rake")
def _undo_rake(event: RoomEvent, actor: Any, now: datetime) -> None:
    record = RakeRecord.objects.filter(pk=event.data["record"]).select_related("table").first()
    if record is None:
        raise CannotUndo(reason=_("the rake it recorded no longer exists"))
    _lock_table(record.table)
    night = timezone.localdate(record.at)
    if NightClose.objects.filter(night=night).exists():
        raise CannotUndo(
            reason=_("the books of %(night)s are closed") % {"night": night.isoformat()}
        )
    jackpots.drop_undo(record)
    record.delete()
    broadcast_cash("undo")


# --- remote joins (the room's `remote_joins`, off by default: §6.2) ----------------------


@transaction.atomic
def lapse_remote(*, now: datetime) -> int:
    """Take off the lists every remote join whose arrival window passed before the floor
    saw him arrive (logged per game, undoable). Run when a list is read or called, and by
    beat. Returns how many names lapsed."""
    lapsed = list(
        WaitEntry.objects.select_for_update(of=("self",))
        .filter(arrive_by__lt=now)
        .select_related("player")
        .order_by("game_id", "position")
    )
    games = sorted({e.game_id for e in lapsed})
    for game in games:
        change = _Change(game)
        mine = [e for e in lapsed if e.game_id == game]
        WaitEntry.objects.filter(pk__in=[e.pk for e in mine]).delete()
        change.log(
            actor=None,
            action="cash.remote_lapse",
            now=now,
            players=[e.player_id for e in mine],
            names=[str(e.player) for e in mine],
        )
    return len(lapsed)


@transaction.atomic
def remote_join(*, player: Player, games: list[CashGame], now: datetime) -> list[WaitEntry]:
    """The player joins lists from his phone, away from the room: only where the room
    allows it (cash-room.md §6.2 requires presence: off by default); he is shown "not yet
    present" until the floor sees him, and loses the place when his window passes."""
    settings = room_settings()
    if not settings.remote_joins:
        raise CashRefused(reason=JOIN_REFUSALS["not_present"])
    if not games:
        raise CashRefused(reason=_("choose a game"))
    arrive_by = now + timedelta(minutes=settings.remote_arrival_minutes)
    return list_add(
        actor=None, player=player, games=games, present=False, now=now, arrive_by=arrive_by
    )


@transaction.atomic
def mark_arrived(*, actor: Any, entry: WaitEntry, now: datetime) -> WaitEntry:
    """The floor sees a remote joiner in the room: he keeps his place, present now."""
    entry = _locked_entry(entry)
    if entry.arrive_by is None:
        return entry
    if entry.arrive_by < now:
        raise CashRefused(reason=_("his arrival window has passed: he joins the list again"))
    change = _Change(entry.game_id)
    entry.arrive_by = None
    entry.save(update_fields=["arrive_by"])
    change.log(actor=actor, action="cash.arrived", now=now, player=entry.player_id)
    return entry

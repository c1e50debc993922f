"""The waiting lists (cash-room.md §6): a player joins one or several lists, in person or
from his phone where the room allows remote joins (§6.2); the first eligible name is called
for a free seat; his answer, or its lapse, moves him on the list; and a remote join whose
arrival window passed before the floor saw him loses the place."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.models import CashGame, CashSeat, CashTable, RoomEvent, WaitEntry
from room.selectors.cash import call_status, game_settings, room_settings
from room.services.cash_log import CashRefused, _Change
from room.services.cash_players import keep_apart_pairs
from tables.cash import waitlist
from tournaments.models import Player

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

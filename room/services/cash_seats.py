"""The seats of the cash room (cash-room.md §6.4, §8, §9.2, §11): a name seated from the
list after the buy-in check (out of list order only with a reason), seat and table changes,
change requests and the priority fill of a freed seat, sit-outs and missed-blind markers,
and the seat freed when the player leaves."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from room.models import CashGame, CashOut, CashSeat, CashTable, WaitEntry
from room.selectors.cash import game_settings
from room.services.cash_buyins import BUY_IN_REFUSALS, _game_rules, earlier_cash_out
from room.services.cash_lists import _declined_at, _left_table_at, _list, _locked_entry
from room.services.cash_log import CashRefused, _Change
from room.services.cash_players import _check_not_kept_apart, keep_apart_pairs
from tables.cash import absence, buyin, changes, waitlist
from tournaments.models import Player
from tournaments.services.locks import once

SIT_OUT_REFUSALS = {
    "daily_limit_reached": gettext_lazy("the sit-out of today is used"),
    "too_many_away": gettext_lazy("too many players of this table are away"),
}


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

"""Hand-for-hand (tournament.md §14): started and stopped by the TD, each table's hand
marked done, the next hand signalled (the clock takes one hand's time off), and its end
by itself once the bubble bursts. Every change goes through the clock's `_floor_change`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments import errors, selectors
from tournaments.models import Event, Table, Tournament
from tournaments.rules import clock, handforhand
from tournaments.services import locks
from tournaments.services.clock import (
    ClockChange,
    ClockRefused,
    _floor_change,
    _pause_if_running,
    _refusal,
    _store,
    _tables_in_play,
)


@transaction.atomic
def h4h_start(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Announce hand-for-hand: the clock stops, and each hand start takes
    `h4h_minutes_per_hand` off it, beginning with the hand in progress (RP-8b)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is already on"))
        state = _pause_if_running(structure, locked, now)
        _store(locked, state)
        locked.h4h_active, locked.h4h_hands, locked.h4h_tables_done = True, 0, []
        # Started on the bubble, it ends by itself when the bubble bursts; started in the
        # money (a TD's choice), it runs until he stops it.
        return {"in_the_money": _in_the_money(locked)}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.start", apply=apply
    )


@transaction.atomic
def h4h_stop(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """End hand-for-hand (everyone left is in the money); the TD restarts the clock."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        locked.h4h_active, locked.h4h_tables_done = False, []
        return {"hands": locked.h4h_hands}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.stop", apply=apply
    )


def _h4h_over(locked: Tournament, structure, now: datetime) -> dict[str, Any]:
    """The bubble has burst and the hand is over at every table: hand-for-hand ends and
    the clock runs again (§14: it is played only until the field is in the money)."""
    state = selectors.clock_state(locked)
    if clock.clock_view(structure, state, now).status is clock.ClockStatus.PAUSED:
        state = clock.resume(structure, state, now=now)
        _store(locked, state)
    locked.h4h_active, locked.h4h_tables_done = False, []
    return {"hands": locked.h4h_hands, "bubble_burst": True}


def _in_the_money(locked: Tournament) -> bool:
    return selectors.money_reached(locked)


def _bubble_burst(locked: Tournament) -> bool:
    """Whether hand-for-hand was started before the money and the field is in it now."""
    if not _in_the_money(locked):
        return False
    start = (
        Event.objects.filter(tournament=locked, action="h4h.start", undone_at__isnull=True)
        .order_by("-pk")
        .values_list("data", flat=True)
        .first()
    )
    return not (start or {}).get("in_the_money")


@transaction.atomic
def h4h_bubble_burst(
    *, tournament: Tournament, tables: Iterable[int], actor, now: datetime
) -> ClockChange | None:
    """End hand-for-hand by itself once the bubble has burst in a hand played at `tables`
    (their busts were just recorded, so that hand is over there), unless another table is
    still playing it: players out in that hand there share it (§14.2), and the last
    table's "hand done" ends hand-for-hand instead (`_h4h_deal`). None when it stays on."""
    locked = locks.tournament_for_update(tournament)
    if not locked.h4h_active or not _bubble_burst(locked):
        return None
    others = set(_tables_in_play(locked)) - set(locked.h4h_tables_done) - set(tables)
    # A table with one player left plays no hand.
    if (
        Table.objects.filter(tournament=locked, number__in=others)
        .annotate(players=Count("seats"))
        .filter(players__gt=1)
        .exists()
    ):
        return None

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        return _h4h_over(locked, structure, now)

    return _floor_change(tournament=locked, actor=actor, now=now, action="h4h.stop", apply=apply)


def _h4h_deal(locked: Tournament, structure, now: datetime) -> dict[str, Any]:
    """Signal the next hand: charge the hand just played, clear the done marks; or, when
    the bubble burst in the hand just played, end hand-for-hand instead."""
    if _bubble_burst(locked):
        return _h4h_over(locked, structure, now)
    state = _pause_if_running(structure, locked, now)
    try:
        state, start = handforhand.hand_for_hand_hand_start(structure, state, now=now)
    except clock.ClockError as exc:
        raise _refusal(exc) from None
    _store(locked, state)
    locked.h4h_hands += 1
    locked.h4h_tables_done = []
    return {"hand": locked.h4h_hands, "blinds_level": start.blinds_level}


@transaction.atomic
def h4h_table_done(
    *, tournament: Tournament, actor, table_number: int, now: datetime
) -> ClockChange:
    """Mark one table's hand-for-hand hand finished; when every table in play is done the
    next hand is signalled at once and the clock takes off one hand's time (§14.3-14.4)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        tables = _tables_in_play(locked)
        if table_number not in tables:
            raise errors.DomainError(_("Table %(table)s is not in play."), table=table_number)
        done = sorted(set(locked.h4h_tables_done) | {table_number})
        locked.h4h_tables_done = done
        data: dict[str, Any] = {"table": table_number}
        if handforhand.hand_for_hand_next_hand_ready([t in done for t in tables]):
            data.update(_h4h_deal(locked, structure, now))
        return data

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.table_done", apply=apply
    )


@transaction.atomic
def h4h_next_hand(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Signal the next hand-for-hand hand now (the TD overrides a table that has not
    reported); the clock takes off one hand's time."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.h4h_active:
            raise ClockRefused(reason=_("hand-for-hand is not on"))
        return _h4h_deal(locked, structure, now)

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="h4h.next_hand", apply=apply
    )

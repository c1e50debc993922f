"""The end of day (tournament.md §17, FIGP §59): the drawn card's final hands counted at
each table, then cleared. Every change goes through the clock's `_floor_change`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors, selectors
from tournaments.models import Tournament
from tournaments.rules import clock, endofday
from tournaments.services.clock import (
    ClockChange,
    ClockRefused,
    _floor_change,
    _pause_if_running,
    _store,
    _tables_in_play,
)


@transaction.atomic
def eod_start(
    *,
    tournament: Tournament,
    actor,
    card: str,
    last_level_of_day: bool,
    now: datetime,
) -> ClockChange:
    """Stop the clock for the day's final hands: the drawn card (3-7) is the number of
    hands every table still plays. Outside the window, or a card out of range, the whole
    action is refused and the clock keeps running (FIGP §59)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        view = clock.clock_view(structure, selectors.clock_state(locked), now)
        if view.status not in (clock.ClockStatus.RUNNING, clock.ClockStatus.PAUSED):
            raise ClockRefused(reason=_("the clock has not started yet"))
        try:
            decision = endofday.start_countdown(
                multi_day=True,  # the TD runs the day's end only in a multi-day event
                is_last_level_of_day=last_level_of_day and not view.is_break,
                level_remaining=view.time_left,
                drawn_card=card.strip(),
            )
        except ValueError:
            raise ClockRefused(reason=_("that is not a card")) from None
        if not decision.valid:
            raise ClockRefused(reason=_eod_reasons(decision))
        state = _pause_if_running(structure, locked, now)
        _store(locked, state)
        countdown = endofday.begin_countdown(decision, [str(t) for t in _tables_in_play(locked)])
        locked.eod_card = card.strip().upper()
        locked.eod_remaining = dict(countdown.remaining)
        return {"card": locked.eod_card, "hands": decision.hands_to_play}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.start", apply=apply
    )


def _eod_reasons(decision: endofday.EndOfDayDecision) -> str:
    texts = {
        endofday.EndOfDayRefusal.NOT_MULTI_DAY: _("this is not a multi-day event"),
        endofday.EndOfDayRefusal.NOT_LAST_LEVEL_OF_DAY: _("this is not the day's last level"),
        endofday.EndOfDayRefusal.STOP_OUTSIDE_WINDOW: _(
            "the clock must show between 5 and 15 minutes"
        ),
        endofday.EndOfDayRefusal.CARD_OUT_OF_RANGE: _("the card must be a 3, 4, 5, 6 or 7"),
    }
    return "; ".join(str(texts[reason]) for reason in decision.reasons)


@transaction.atomic
def eod_hand(*, tournament: Tournament, actor, table_number: int, now: datetime) -> ClockChange:
    """Count one of the final hands started at a table."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.eod_card:
            raise ClockRefused(reason=_("the final hands have not been drawn"))
        countdown = endofday.EndOfDayCountdown(dict(locked.eod_remaining))
        try:
            countdown = endofday.record_hand_start(countdown, str(table_number))
        except ValueError:
            raise errors.DomainError(
                _("Table %(table)s has no final hands left to deal."), table=table_number
            ) from None
        locked.eod_remaining = dict(countdown.remaining)
        return {"table": table_number, "left": countdown.remaining[str(table_number)]}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.hand", apply=apply
    )


@transaction.atomic
def eod_stop(*, tournament: Tournament, actor, now: datetime) -> ClockChange:
    """Clear the final-hands countdown (the day is over, or it was called by mistake)."""

    def apply(locked: Tournament, structure) -> dict[str, Any]:
        if not locked.eod_card:
            raise ClockRefused(reason=_("the final hands have not been drawn"))
        locked.eod_card, locked.eod_remaining = "", {}
        return {}

    return _floor_change(
        tournament=tournament, actor=actor, now=now, action="eod.stop", apply=apply
    )

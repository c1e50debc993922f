"""The clock's reads: the structure, the clock's state and what the screens show of it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from config.speedups.prepared import NO_ID, Prepared
from tournaments.models import (
    FormerAddress,
    StructureItem,
    Tournament,
)
from tournaments.rules import clock, entry_rules

_ITEM_COLUMNS = ("kind", "minutes", "color_up", "small_blind", "big_blind", "ante", "ante_mode")
# The structure, compiled once (config/speedups/prepared.py): every change of the clock reads it.
_STRUCTURE = Prepared(
    lambda tournament_id: (
        StructureItem.objects.filter(tournament_id=tournament_id)
        .order_by("position")
        .values_list(*_ITEM_COLUMNS)
    ),
    tournament_id=NO_ID,
)


def clock_structure(tournament: Tournament) -> list[clock.Item]:
    """The tournament's structure as the pure clock reads it (levels numbered 1, 2, ...)."""
    prefetched = getattr(tournament, "_prefetched_objects_cache", {}).get("items")
    if prefetched is not None:  # the lobby reads every event's structure at once
        rows = [tuple(getattr(item, name) for name in _ITEM_COLUMNS) for item in prefetched]
    else:
        rows = _STRUCTURE.rows(tournament_id=tournament.pk)
    items: list[clock.Item] = []
    number = 0
    for kind, minutes, color_up, small_blind, big_blind, ante, ante_mode in rows:
        if kind == StructureItem.Kind.BREAK:
            items.append(clock.Break(duration=minutes * 60, color_up=color_up))
        else:
            number += 1
            items.append(
                clock.Level(
                    number=number,
                    small_blind=small_blind,
                    big_blind=big_blind,
                    duration=minutes * 60,
                    ante=ante,
                    ante_mode=clock.AnteMode(ante_mode),
                )
            )
    return items


# A tournament by its key, compiled once: a push reads it after its commit, and every
# command on a staff socket before it.
_TOURNAMENT_BY_PK = Prepared(lambda pk: Tournament.objects.filter(pk=pk)[:1], pk=NO_ID)


def tournament_by_pk(pk: int) -> Tournament | None:
    """The tournament as the database holds it now, or None."""
    return _TOURNAMENT_BY_PK.first(pk=pk)


def moved_address(slug: str) -> str | None:
    """The address an event has now, when `slug` is one it had before its date moved and
    no event holds it now; None otherwise."""
    if Tournament.objects.filter(slug=slug).exists():
        return None
    return (
        FormerAddress.objects.filter(slug=slug).values_list("tournament__slug", flat=True).first()
    )


def clock_state(tournament: Tournament) -> clock.ClockState:
    return clock.ClockState(
        status=clock.ClockStatus(tournament.clock_status),
        index=tournament.clock_index,
        started_at=tournament.clock_started_at,
        banked=timedelta(seconds=tournament.clock_elapsed),
        scheduled_start=tournament.clock_scheduled_start,
        version=tournament.clock_version,
    )


def late_registration(tournament: Tournament) -> clock.LateRegistration | None:
    if tournament.late_registration_level is None:
        return None
    return clock.LateRegistration(
        until_level=tournament.late_registration_level,
        through_break=tournament.late_registration_through_break,
    )


@dataclasses.dataclass(frozen=True)
class ClockRead:
    """The clock as one change or one page reads it, built once: the structure, the state
    the row holds and the view at `now` (None while there is no structure to run)."""

    structure: list[clock.Item]
    state: clock.ClockState
    view: clock.ClockView | None


def clock_read(
    tournament: Tournament,
    now: datetime,
    *,
    structure: list[clock.Item] | None = None,
    state: clock.ClockState | None = None,
) -> ClockRead:
    """The clock at `now`. `structure`, `state`: what the caller has already read or made
    (a change passes the state it has just stored)."""
    if structure is None:
        structure = clock_structure(tournament)
    if state is None:
        state = clock_state(tournament)
    try:
        clock.validate_structure(structure)
    except ValueError:
        return ClockRead(structure, state, None)
    view = clock.clock_view(structure, state, now, late_registration=late_registration(tournament))
    if tournament.status == Tournament.Status.FINISHED and view.status is not (
        clock.ClockStatus.NOT_STARTED
    ):
        # The winner is decided: the clock is over, whatever time its level had left.
        view = dataclasses.replace(
            view, status=clock.ClockStatus.FINISHED, ends_at=None, time_left=timedelta(0)
        )
    return ClockRead(structure, state, view)


def clock_view_for(
    tournament: Tournament, now: datetime, *, structure: list[clock.Item] | None = None
) -> clock.ClockView | None:
    """The clock at `now`, or None while the tournament has no structure to run.

    `structure`: the tournament's clock_structure when the caller has already read it."""
    return clock_read(tournament, now, structure=structure).view


def clock_spot(
    tournament: Tournament, now: datetime, *, structure: list[clock.Item] | None = None
) -> entry_rules.ClockSpot:
    """Where the clock stands for the rebuy and add-on windows (at a break: the level
    played before it, which the clock view itself leaves empty)."""
    if structure is None:
        structure = clock_structure(tournament)
    view = clock_view_for(tournament, now, structure=structure)
    if view is None or view.status in {clock.ClockStatus.NOT_STARTED, clock.ClockStatus.SCHEDULED}:
        return entry_rules.ClockSpot(started=False)
    level = clock.last_level_at(structure, view.index)
    return entry_rules.ClockSpot(
        started=True,
        finished=view.status is clock.ClockStatus.FINISHED,
        level=level.number if level is not None else None,
        at_break=view.is_break,
    )


def purchases_on_sale(tournament: Tournament, now: datetime) -> dict[str, bool]:
    """Whether the desk may sell a rebuy and an add-on now (event settings and window)."""
    if tournament.status == Tournament.Status.FINISHED:
        return {"rebuy": False, "addon": False}
    spot = clock_spot(tournament, now)
    return {
        "rebuy": tournament.rebuys_allowed
        and entry_rules.rebuy_window_open(spot, until_level=tournament.rebuy_until_level),
        "addon": tournament.addon_allowed
        and entry_rules.addon_window_open(
            spot, break_after_level=tournament.addon_break_after_level
        ),
    }


def registration_open(tournament: Tournament, now: datetime) -> bool:
    """Whether a new entry may be sold now (tournament.md §5.3, setting late_registration)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.clock_status in {"not_started", "scheduled"}:
        return True
    if tournament.late_registration_level is None:
        return tournament.clock_status != "finished"
    view = clock_view_for(tournament, now)
    return bool(view and view.late_registration_open)


def _item_payload(item: clock.Item) -> dict[str, Any]:
    if isinstance(item, clock.Break):
        return {"break": True, "duration": item.duration, "color_up": item.color_up}
    return {
        "break": False,
        "duration": item.duration,
        "number": item.number,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "ante_mode": str(item.ante_mode),
    }


def structure_key(items: list[dict[str, Any]]) -> str:
    """A short fingerprint of the structure a clock payload carries: a screen keeps the
    levels it has while the key it is sent is the key of the levels it holds."""
    text = json.dumps(items, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def clock_payload(
    tournament: Tournament,
    now: datetime,
    *,
    structure: list[clock.Item] | None = None,
    read: ClockRead | None = None,
    with_items: bool = True,
) -> dict[str, Any]:
    """The clock message screens count down from, with hand-for-hand and end of day.

    Small JSON (STYLE.md 14): the pure clock's payload plus what the floor has set.
    The whole structure travels on a screen's first state and with a change of the
    structure; a clock change (`with_items=False`) sends only its key (`structure`), which
    a screen compares with the levels it holds and asks for the state again when they
    differ (it missed a change of the structure): four-fifths of the bytes of every push.
    `read`: the clock as the caller has already read it (`clock_read`).
    """
    if read is None:
        read = clock_read(tournament, now, structure=structure)
    structure, view = read.structure, read.view
    if view is None:
        payload: dict[str, Any] = {
            "type": "clock",
            "version": tournament.clock_version,
            "status": "no_structure",
            "server_time": now.isoformat(),
        }
    else:
        payload = clock.to_payload(view)
        payload["remaining"] = clock.format_clock(view.time_left)
        # The whole structure, so a screen rolls over boundaries by itself while offline.
        items = [_item_payload(item) for item in structure]
        payload["structure"] = structure_key(items)
        if with_items:
            payload["items"] = items
        payload["sounds"] = {
            "level_up": tournament.sound_level_up,
            "one_minute": tournament.sound_one_minute,
            "break_over": tournament.sound_break_over,
        }
        # The break at which add-ons are sold, for the screens to announce it.
        payload["addon_break_index"] = (
            clock.break_after_level(structure, tournament.addon_break_after_level)
            if tournament.addon_allowed and tournament.addon_break_after_level is not None
            else None
        )
    payload["hand_for_hand"] = (
        {"hands": tournament.h4h_hands, "tables_done": list(tournament.h4h_tables_done)}
        if tournament.h4h_active
        else None
    )
    remaining = tournament.eod_remaining or {}
    payload["end_of_day"] = (
        {
            "card": tournament.eod_card,
            "hands_left": max(remaining.values(), default=0),
            "tables": dict(remaining),
        }
        if tournament.eod_card
        else None
    )
    return payload

"""Absences (cash-room.md §11): sit-outs, unannounced absences and missed-blind markers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from tables.cash.settings import DEFAULTS, SRC, SRC_004, CashSettings

SitOutRefusal = Literal["daily_limit_reached", "too_many_away"]
AbsenceKind = Literal["sit_out", "unannounced"]
MarkerEvent = Literal["misses_big_blind", "list_joined"]

RULE_SIT_OUT = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 8'
RULE_ABSENCE = f'{SRC} "Norme di comportamento" 16'
RULE_MARKERS = f"{SRC_004} §6"


@dataclass(frozen=True)
class SitOutDecision:
    granted: bool
    return_by: datetime | None
    reason: SitOutRefusal | None
    rule: str = RULE_SIT_OUT


def request_sit_out(
    *,
    max_seats: int,
    player_count: int,
    away_now: int,
    sit_outs_today: int,
    at: datetime,
    settings: CashSettings = DEFAULTS,
) -> SitOutDecision:
    """Grant a sit-out or say why not: daily limit, then players away at once (§11.2)."""
    if sit_outs_today >= settings.sit_outs_per_day:
        return SitOutDecision(False, None, "daily_limit_reached")
    full = player_count >= max_seats
    allowed = settings.max_away_full_table if full else settings.max_away_short_table
    if away_now >= allowed:
        return SitOutDecision(False, None, "too_many_away")
    return SitOutDecision(True, at + timedelta(minutes=settings.sit_out_minutes), None)


@dataclass(frozen=True)
class AbsenceCheck:
    minutes_away: int
    limit_minutes: int
    seat_releasable: bool
    rule: str


def check_absence(
    *, kind: AbsenceKind, since: datetime, now: datetime, settings: CashSettings = DEFAULTS
) -> AbsenceCheck:
    """Flag a seat releasable from the first minute past the limit (§11.1-§11.2, §1.1).

    The floor decides; the app never frees the seat on its own.
    """
    minutes = int((now - since).total_seconds() // 60)
    if kind == "sit_out":
        limit, rule = settings.sit_out_minutes, RULE_SIT_OUT
    else:
        limit, rule = settings.unannounced_absence_minutes, RULE_ABSENCE
    return AbsenceCheck(minutes, limit, minutes > limit, rule)


@dataclass(frozen=True)
class MarkerDecision:
    markers: int
    seat_released: bool
    stack: Literal["stays_at_seat", "counted_and_held"]
    rule: str = RULE_MARKERS


def missed_blind_event(
    *,
    event: MarkerEvent,
    markers: int,
    on_sit_out: bool,
    waiting_list_length: int,
    settings: CashSettings = DEFAULTS,
) -> MarkerDecision:
    """Count a marker and tell whether the seat is freed (§11.4)."""
    after = markers + 1 if event == "misses_big_blind" else markers
    limit = settings.release_after_markers
    released = limit is not None and after >= limit and waiting_list_length > 0 and not on_sit_out
    return MarkerDecision(after, released, "counted_and_held" if released else "stays_at_seat")

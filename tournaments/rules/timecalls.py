"""Time calls ("clock" on a player) under each rulebook profile (tournament.md §18).

Pure rules: no Django, no I/O, no clock reads. `call_time` decides whether a request is
accepted and what the acting player is granted; `shot_clock` tells a table device which
phase of the grant a given number of seconds after the call falls in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class TimeCallProfile(StrEnum):
    """Setting `time_call_profile` (tournament.md §3); tda2022 is the default."""

    TDA2022 = "tda2022"
    TDA2015 = "tda2015"
    FIGP = "figp"
    CODICE003 = "codice003"


class Role(StrEnum):
    PLAYER = "player"
    TD = "td"
    FLOOR = "floor"


class Requesters(StrEnum):
    """Which players may ask for time."""

    SAME_TABLE = "same_table"
    ANY_PLAYER = "any_player"


class Expiry(StrEnum):
    """What happens to the hand when the time runs out with no action."""

    DEAD_HAND = "dead_hand"
    CHECK = "check"
    FOLD = "fold"


class Refusal(StrEnum):
    """Why a request is refused, in the order the checks are made (§1.2 Codes)."""

    CALLER_NOT_AT_OWN_SEAT = "caller_not_at_own_seat"
    CALLER_NOT_AT_TABLE = "caller_not_at_table"
    REQUESTED_TOO_EARLY = "requested_too_early"
    NOT_APPROVED = "not_approved"


@dataclass(frozen=True, slots=True)
class TimeCallRules:
    """One profile's numbers and conditions; TDs may override any of them per event
    (TDA-29, TDA2015-§27: time may be shortened or adjusted)."""

    profile: TimeCallProfile
    seconds_before_countdown: int
    countdown_seconds: int
    requesters: Requesters
    requester_at_own_seat: bool
    min_seconds_before_request: int  # 0: "after a reasonable time", judged by staff
    approver: Role | None  # who must approve a player's request; None: no approval
    expiry_facing_bet: Expiry
    expiry_not_facing_bet: Expiry
    rules: tuple[str, ...]

    @property
    def total_seconds(self) -> int:
        return self.seconds_before_countdown + self.countdown_seconds


PROFILES: dict[TimeCallProfile, TimeCallRules] = {
    # TDA-29/30: 30 s in total, the last 5 counted down inside them; the TD calls it or
    # approves a request from a player at that table, who must be at his own seat;
    # facing a bet the hand is dead, otherwise it is checked.
    TimeCallProfile.TDA2022: TimeCallRules(
        profile=TimeCallProfile.TDA2022,
        seconds_before_countdown=25,
        countdown_seconds=5,
        requesters=Requesters.SAME_TABLE,
        requester_at_own_seat=True,
        min_seconds_before_request=0,
        approver=Role.TD,
        expiry_facing_bet=Expiry.DEAD_HAND,
        expiry_not_facing_bet=Expiry.CHECK,
        rules=("TDA-29", "TDA-30"),
    ),
    # TDA2015-§27/§29: any player in the event may ask, from his own seat; the floor
    # approves; up to 50 s then a 10 s countdown; the hand is dead.
    TimeCallProfile.TDA2015: TimeCallRules(
        profile=TimeCallProfile.TDA2015,
        seconds_before_countdown=50,
        countdown_seconds=10,
        requesters=Requesters.ANY_PLAYER,
        requester_at_own_seat=True,
        min_seconds_before_request=0,
        approver=Role.FLOOR,
        expiry_facing_bet=Expiry.DEAD_HAND,
        expiry_not_facing_bet=Expiry.DEAD_HAND,
        rules=("TDA2015-§27", "TDA2015-§29"),
    ),
    # FIGP §22: only after the player has had 30 s, the other players at the table ask
    # and the dealer calls the floor, who grants 60 s and then counts 10; then fold.
    TimeCallProfile.FIGP: TimeCallRules(
        profile=TimeCallProfile.FIGP,
        seconds_before_countdown=60,
        countdown_seconds=10,
        requesters=Requesters.SAME_TABLE,
        requester_at_own_seat=False,
        min_seconds_before_request=30,
        approver=None,
        expiry_facing_bet=Expiry.FOLD,
        expiry_not_facing_bet=Expiry.FOLD,
        rules=("FIGP §22",),
    ),
    # 003 Art.10.6: after 30 s the players at the table may ask; the dealer calls the
    # director; 60 s with no countdown; then fold.
    TimeCallProfile.CODICE003: TimeCallRules(
        profile=TimeCallProfile.CODICE003,
        seconds_before_countdown=60,
        countdown_seconds=0,
        requesters=Requesters.SAME_TABLE,
        requester_at_own_seat=False,
        min_seconds_before_request=30,
        approver=None,
        expiry_facing_bet=Expiry.FOLD,
        expiry_not_facing_bet=Expiry.FOLD,
        rules=("003 Art.10.6",),
    ),
}


def profile_rules(profile: str = TimeCallProfile.TDA2022, **overrides: Any) -> TimeCallRules:
    """Return a profile's rules with the event's overrides applied (e.g. a shorter grant)."""
    return replace(PROFILES[TimeCallProfile(profile)], **overrides)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks for time: his role, and for a player where he is."""

    role: Role
    at_own_seat: bool = True
    same_table: bool = True


@dataclass(frozen=True, slots=True)
class TimeCallDecision:
    """Whether the call stands; when it does, the grant and the outcome on expiry."""

    accepted: bool
    reason: Refusal | None = None
    seconds_before_countdown: int = 0
    countdown_seconds: int = 0
    on_expiry: Expiry | None = None
    rules: tuple[str, ...] = ()

    @property
    def total_after_call(self) -> int:
        return self.seconds_before_countdown + self.countdown_seconds


def _staff_may_approve(approver: Role, approved_by: Role | None) -> bool:
    # The TD outranks the floor (tournament.md §4), so the TD's approval always counts.
    return approved_by is not None and approved_by in (approver, Role.TD)


def call_time(
    *,
    rules: TimeCallRules,
    caller: Caller,
    facing_bet: bool,
    seconds_already_used: int,
    approved_by: Role | None = None,
) -> TimeCallDecision:
    """Decide a time call; a refusal names the first failing check in the §1.2 order.

    Staff (TD or floor) may call time themselves (tournament.md §4), so the seat, table
    and approval checks apply to players only. The minimum wait before a request
    (30 s under figp and codice003) is the acting player's and applies to every caller.
    """
    is_player = caller.role is Role.PLAYER
    reason: Refusal | None = None
    if is_player and rules.requester_at_own_seat and not caller.at_own_seat:
        reason = Refusal.CALLER_NOT_AT_OWN_SEAT
    elif is_player and rules.requesters is Requesters.SAME_TABLE and not caller.same_table:
        reason = Refusal.CALLER_NOT_AT_TABLE
    elif seconds_already_used < rules.min_seconds_before_request:
        reason = Refusal.REQUESTED_TOO_EARLY
    elif (
        is_player
        and rules.approver is not None
        and not _staff_may_approve(rules.approver, approved_by)
    ):
        reason = Refusal.NOT_APPROVED
    if reason is not None:
        return TimeCallDecision(accepted=False, reason=reason, rules=rules.rules)
    return TimeCallDecision(
        accepted=True,
        seconds_before_countdown=rules.seconds_before_countdown,
        countdown_seconds=rules.countdown_seconds,
        on_expiry=rules.expiry_facing_bet if facing_bet else rules.expiry_not_facing_bet,
        rules=rules.rules,
    )


class ShotClockPhase(StrEnum):
    GRANT = "grant"
    COUNTDOWN = "countdown"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class ShotClock:
    phase: ShotClockPhase
    seconds_left: float


def shot_clock(decision: TimeCallDecision, *, seconds_since_call: float) -> ShotClock:
    """Return the phase of an accepted call `seconds_since_call` after it was made.

    Precondition: `decision.accepted`.
    """
    if not decision.accepted:
        raise ValueError("a refused call runs no clock")
    left = decision.total_after_call - max(seconds_since_call, 0.0)
    if left <= 0:
        return ShotClock(ShotClockPhase.EXPIRED, 0.0)
    if left <= decision.countdown_seconds:
        return ShotClock(ShotClockPhase.COUNTDOWN, left)
    return ShotClock(ShotClockPhase.GRANT, left)

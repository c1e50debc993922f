"""Re-entry, freezeout, forfeit-and-re-enter, rebuys and add-ons: who may buy chips, and what happens.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock (the level is a parameter).
Sources: tournament.md §5.4 (TDA-8, TDA2015-§7, 003 Art.1), §5.5 (TDA2015-§26, FIGP §56,
TDA-27). Eligibility windows, counts, thresholds and add-ons are [not in sources]: event
settings (§5.5, §5.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EntryFormat(StrEnum):
    """Whether an eliminated player may buy in again (tournament.md §5.4)."""

    FREEZEOUT = "freezeout"  # 003 Art.1: no way back in
    REENTRY = "reentry"  # TDA-8a, TDA2015-§7


class SeatAssignment(StrEnum):
    RANDOM_DRAW = "random_draw"  # TDA-8a: seated at random, as a new entry
    NONE = "none"


@dataclass(frozen=True)
class EntryPolicy:
    """Per-event entry settings (tournament.md §3)."""

    entry_format: EntryFormat = EntryFormat.FREEZEOUT
    max_entries: int | None = None  # None: no limit
    reentry_forfeit_allowed: bool = False  # TDA-8b, default false
    late_registration_until: int | None = None  # last level; None: until the TD closes it


@dataclass(frozen=True)
class ReentryDecision:
    eliminated: bool
    reentry_allowed: bool
    reasons: tuple[str, ...]  # why not, empty when allowed


def request_reentry(
    policy: EntryPolicy,
    *,
    stack: int,
    entries_used: int = 1,
    current_level: int | None = None,
) -> ReentryDecision:
    """Decide whether a player may re-enter now.

    A player with no chips is eliminated. Freezeout (003 Art.1): no re-entry, ever.
    Re-entry (TDA-8a): allowed within `max_entries` while late registration is open, and
    only once eliminated unless forfeit-and-re-enter is allowed (TDA-8b).
    """
    eliminated = stack <= 0
    reasons: list[str] = []
    if policy.entry_format is EntryFormat.FREEZEOUT:
        reasons.append("freezeout")
    else:
        if not eliminated and not policy.reentry_forfeit_allowed:
            reasons.append("still_has_chips")
        if policy.max_entries is not None and entries_used >= policy.max_entries:
            reasons.append("max_entries_reached")
        if (
            policy.late_registration_until is not None
            and current_level is not None
            and current_level > policy.late_registration_until
        ):
            reasons.append("registration_closed")
    return ReentryDecision(
        eliminated=eliminated, reentry_allowed=not reasons, reasons=tuple(reasons)
    )


@dataclass(frozen=True)
class ForfeitResult:
    allowed: bool
    removed_from_play: int
    new_stack: int
    chips_in_play_after: int
    seat_assignment: SeatAssignment


def forfeit_and_reenter(
    *, reentry_forfeit_allowed: bool, stack: int, starting_stack: int, chips_in_play_before: int
) -> ForfeitResult:
    """Let a player give up his stack and buy a new one, when the event allows it.

    TDA-8b (RB-02): the surrendered chips are taken out of play (to nobody), the new entry
    gets a full starting stack and a random seat like a late registration (TDA-8a).
    When not allowed nothing changes.
    """
    if not reentry_forfeit_allowed:
        return ForfeitResult(
            allowed=False,
            removed_from_play=0,
            new_stack=stack,
            chips_in_play_after=chips_in_play_before,
            seat_assignment=SeatAssignment.NONE,
        )
    return ForfeitResult(
        allowed=True,
        removed_from_play=stack,
        new_stack=starting_stack,
        chips_in_play_after=chips_in_play_before - stack + starting_stack,
        seat_assignment=SeatAssignment.RANDOM_DRAW,
    )


@dataclass(frozen=True)
class RebuyOutcome:
    plays_hand_with: int
    rebuy_charged: bool
    stack_after_hand: int
    eliminated: bool


def resolve_rebuy(
    *, stack: int, rebuy_stack: int, announced_before_hand: bool, net_chips: int
) -> RebuyOutcome:
    """Settle a hand for a player who may have declared a rebuy before it.

    TDA2015-§26, FIGP §56, TDA-27 (RB-01): a rebuy announced before the hand starts puts
    the rebuy chips in play at once - he plays the hand with them - and must be paid for
    whatever happens in the hand. Without the announcement the hand is played with the
    stack alone. Precondition: he cannot lose more than he plays with.
    """
    plays_with = stack + (rebuy_stack if announced_before_hand else 0)
    after = plays_with + net_chips
    if after < 0:
        raise ValueError("a player cannot lose more chips than he plays with")
    return RebuyOutcome(
        plays_hand_with=plays_with,
        rebuy_charged=announced_before_hand,
        stack_after_hand=after,
        eliminated=after == 0,
    )


# ---------------------------------------------------------------------------
# Eligibility [not in sources]: house settings (§5.5, §5.6)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RebuyPolicy:
    """Rebuy settings of an event; every parameter is house configuration."""

    first_level: int = 1
    last_level: int = 6  # the rebuy period ends after this level
    max_rebuys: int | None = None  # None: unlimited
    stack_threshold: int = 0  # may rebuy when his stack is at or below this
    price: int = 0
    chips: int = 0


@dataclass(frozen=True)
class Eligibility:
    allowed: bool
    reasons: tuple[str, ...]


def rebuy_eligibility(
    policy: RebuyPolicy, *, current_level: int, rebuys_taken: int, stack: int
) -> Eligibility:
    """Check a rebuy request against the event's window, count and stack threshold."""
    reasons: list[str] = []
    if not policy.first_level <= current_level <= policy.last_level:
        reasons.append("outside_rebuy_period")
    if policy.max_rebuys is not None and rebuys_taken >= policy.max_rebuys:
        reasons.append("max_rebuys_reached")
    if stack > policy.stack_threshold:
        reasons.append("stack_above_threshold")
    return Eligibility(allowed=not reasons, reasons=tuple(reasons))


@dataclass(frozen=True)
class AddOnPolicy:
    """Add-on settings; none of the sources mention add-ons (§5.6): house policy."""

    available_from_level: int = 6
    available_until_level: int = 6  # usually the break after the rebuy period
    max_addons: int = 1
    stack_limit: int | None = None  # None: any stack may add on
    price: int = 0
    chips: int = 0


def addon_eligibility(
    policy: AddOnPolicy, *, current_level: int, addons_taken: int, stack: int
) -> Eligibility:
    """Check an add-on request against the event's window, count and stack limit."""
    reasons: list[str] = []
    if not policy.available_from_level <= current_level <= policy.available_until_level:
        reasons.append("outside_addon_window")
    if addons_taken >= policy.max_addons:
        reasons.append("max_addons_reached")
    if policy.stack_limit is not None and stack > policy.stack_limit:
        reasons.append("stack_above_limit")
    if stack <= 0:
        reasons.append("eliminated")
    return Eligibility(allowed=not reasons, reasons=tuple(reasons))


# ---------------------------------------------------------------------------
# Purchase windows against the clock [not in sources]: house settings (§5.5, §5.6)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSpot:
    """Where the clock stands, as the rebuy and add-on windows see it.

    `level` is the level in play or, during a break, the last level played before it
    (None before the first level, or at a break that comes before any level).
    """

    started: bool
    finished: bool = False
    level: int | None = None
    at_break: bool = False


def rebuy_window_open(spot: ClockSpot, *, until_level: int | None) -> bool:
    """Whether rebuys are on sale: from the start until the end of level `until_level`.

    The break after that level is already outside the period (it ends with the level).
    None: no time limit. Before the start every window is open (nothing has been played).
    """
    if until_level is None:
        return True
    if spot.finished:
        return False
    if not spot.started or spot.level is None:
        return True
    if spot.at_break:
        return spot.level < until_level
    return spot.level <= until_level


def addon_window_open(spot: ClockSpot, *, break_after_level: int | None) -> bool:
    """Whether add-ons are on sale: exactly during the break after level
    `break_after_level` (None: at any time while the tournament runs)."""
    if break_after_level is None:
        return True
    return not spot.finished and spot.started and spot.at_break and spot.level == break_after_level

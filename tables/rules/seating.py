"""Small seat rules: wrong-seat correction, seat-in with the photo-ID check, absent movers.

tournament.md §6.2 (TDA-7), §5.2 (FIGP §50) and §9.5 (RP-16). Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

RULE_WRONG_SEAT = "TDA-7"
RULE_PHOTO_ID = "FIGP §50"
RULE_ABSENT_CHIPS = "RP-16"
RULE_ABSENT_DEALT_IN = "TDA-30"


@dataclass(frozen=True)
class SeatRef:
    """A seat in the room: table id and seat number."""

    table: str
    seat: int


@dataclass(frozen=True)
class SeatCorrection:
    """Where a player plays after a seat check, with which stack."""

    seat: SeatRef
    stack: int
    allowed_to_play: bool
    moved: bool
    # The sources only settle the case of a player who started with the right stack; any
    # other wrong start is for the TD to look at.
    td_review: bool
    rule: str = RULE_WRONG_SEAT


@dataclass(frozen=True)
class SeatIn:
    """Whether a player may take his assigned seat now."""

    seat: SeatRef
    allowed_to_play: bool
    reason: Literal["id_not_verified"] | None
    rule: str = RULE_PHOTO_ID


@dataclass(frozen=True)
class AbsentTransfer:
    """How a player of a breaking (or balancing) table reaches his new seat (§9.5)."""

    player: str
    chips_moved_by: Literal["staff", "player"]
    seat_kept: SeatRef
    while_absent: Literal["dealt_in_hand_killed"] | None
    rules: tuple[str, ...]


def correct_wrong_seat(
    *,
    assigned: SeatRef,
    observed: SeatRef,
    started_with_correct_stack: bool,
    current_stack: int,
) -> SeatCorrection:
    """Move a player found in the wrong seat to his drawn seat, keeping his current stack.

    TDA-7: a player who started in the wrong seat with the correct starting stack moves to
    the right seat with whatever he has now; nothing is reset.
    """
    moved = assigned != observed
    return SeatCorrection(
        seat=assigned,
        stack=current_stack,
        allowed_to_play=True,
        moved=moved,
        td_review=moved and not started_with_correct_stack,
    )


def seat_in(*, assigned: SeatRef, day: int, id_checked_days: Collection[int]) -> SeatIn:
    """Release a player to play his seat only once his photo ID is checked for `day`.

    FIGP §50: a valid photo ID at the start and at every restart; the seat stays assigned
    meanwhile and the absent-player rules apply (tournament.md §5.2).
    """
    verified = day in id_checked_days
    return SeatIn(
        seat=assigned,
        allowed_to_play=verified,
        reason=None if verified else "id_not_verified",
    )


def transfer_to_new_seat(*, player: str, assigned: SeatRef, absent: bool) -> AbsentTransfer:
    """Say who carries a moved player's chips and how he is treated until he sits.

    RP-16: staff carry an absent player's chips; he keeps the drawn seat and is dealt in
    every hand with his hand killed, blinds and antes taken (TDA-30, TDA-71a).
    """
    if absent:
        return AbsentTransfer(
            player=player,
            chips_moved_by="staff",
            seat_kept=assigned,
            while_absent="dealt_in_hand_killed",
            rules=(RULE_ABSENT_CHIPS, RULE_ABSENT_DEALT_IN),
        )
    return AbsentTransfer(
        player=player,
        chips_moved_by="player",
        seat_kept=assigned,
        while_absent=None,
        rules=(),
    )

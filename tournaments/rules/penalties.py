"""Penalties: kinds, how many hands a penalty covers, how they are served and carried over.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock. Sources: tournament.md §19
(TDA-71, TDA2015-§66, FIGP §86-§89), misdeals TDA-35c, exposed cards TDA-68 / FIGP §36.
A penalty is independent of the seat (§19.3): it follows the player across tables and days.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum


class PenaltyKind(StrEnum):
    """The penalties the sources allow (tournament.md §19.1)."""

    WARNING = "warning"  # TDA-71a, FIGP §87a
    MISSED_HANDS = "missed_hands"  # TDA-71a, FIGP §87c
    MISSED_ROUNDS = "missed_rounds"  # TDA-71a, FIGP §87c: players at the table x rounds
    HAND_ANNULLED = "hand_annulled"  # FIGP §87b
    CHIP_LOSS = "chip_loss"  # TDA-69, FIGP §70
    ELIMINATION = "elimination"  # FIGP §87d: keeps the place's prize, chips removed
    DISQUALIFICATION = "disqualification"  # FIGP §87e, TDA-71d: no prize, no refund


# Kinds served by sitting out dealt hands.
HAND_KINDS = frozenset({PenaltyKind.MISSED_HANDS, PenaltyKind.MISSED_ROUNDS})


class TableEvent(StrEnum):
    """What happens at or to the player's table while he serves (Codes table, §1.2)."""

    HAND = "hand"  # an ordinary hand dealt at his current table
    MISDEAL = "misdeal"
    REDEAL = "redeal"
    END_OF_DAY = "end_of_day"
    TABLE_BROKEN = "table_broken"


class Infraction(StrEnum):
    """Offences whose timing the rules fix (pick-list: tournament.md §19.1)."""

    EXPOSED_CARDS_ACTION_PENDING = "exposed_cards_action_pending"  # TDA-68
    OTHER = "other"


# Offences after which the offender's current hand stays live (TDA-68, TDA2015-§63).
HAND_STAYS_LIVE = frozenset({Infraction.EXPOSED_CARDS_ACTION_PENDING})


def penalty_hands(*, players_at_table: int, rounds: int) -> int:
    """Return the hands a missed-rounds penalty covers: players at the table x rounds.

    TDA-71a, TDA2015-§66A, FIGP §87c: a round is one hand per player at the table when the
    penalty is given, the offender included (PH-01: 8 x 1 = 8; PH-02: 8 x 2 = 16).
    Preconditions: players_at_table >= 1, rounds >= 1.
    """
    if players_at_table < 1 or rounds < 1:
        raise ValueError("a missed-rounds penalty needs players and at least one round")
    return players_at_table * rounds


@dataclass(frozen=True)
class Penalty:
    """A penalty on one player; `total_hands` is fixed when it is given (§19.2, PH-03)."""

    player: str
    kind: PenaltyKind
    total_hands: int = 0
    served: int = 0
    rounds: int = 0  # for missed-rounds penalties, as given
    offence: str = ""
    day_given: int = 1

    @property
    def remaining(self) -> int:
        return max(0, self.total_hands - self.served)

    @property
    def active(self) -> bool:
        return self.kind in HAND_KINDS and self.remaining > 0


def give_penalty(
    *,
    player: str,
    kind: PenaltyKind,
    players_at_table: int = 0,
    rounds: int = 0,
    hands: int = 0,
    offence: str = "",
    day: int = 1,
) -> Penalty:
    """Create a penalty; missed rounds are fixed now as players at the table x rounds."""
    if kind is PenaltyKind.MISSED_ROUNDS:
        total = penalty_hands(players_at_table=players_at_table, rounds=rounds)
    elif kind is PenaltyKind.MISSED_HANDS:
        if hands < 1:
            raise ValueError("a missed-hands penalty covers at least one hand")
        total = hands
    else:
        total = 0
    return Penalty(
        player=player,
        kind=kind,
        total_hands=total,
        rounds=rounds if kind is PenaltyKind.MISSED_ROUNDS else 0,
        offence=offence,
        day_given=day,
    )


def hands_counted(events: Iterable[TableEvent | str]) -> int:
    """Return how many penalty hands a run of table events serves.

    Each hand dealt counts once; a misdeal and its redeal are one hand (TDA-35c,
    TDA2015-§34C; PH-04), so a misdeal counts nothing and the redeal counts the hand.
    End of day and a broken table deal nothing.
    """
    counted = 0
    for event in events:
        if TableEvent(event) in (TableEvent.HAND, TableEvent.REDEAL):
            counted += 1
    return counted


@dataclass(frozen=True)
class ServingResult:
    """A penalty after some table events, and where the rest is served."""

    penalty: Penalty
    hands_counted: int
    carries_to_next_day: bool


def serve(penalty: Penalty, events: Sequence[TableEvent | str]) -> ServingResult:
    """Count the hands dealt at the player's current table against his penalty.

    FIGP §89, §19.3: the count is fixed when given and follows the player, so a broken
    table or a new seat changes nothing (PH-03), and hands left at the end of the day are
    served the next day (PH-02). Hands beyond the total are not counted.
    """
    counted = min(hands_counted(events), penalty.remaining)
    after = replace(penalty, served=penalty.served + counted)
    ends_day = any(TableEvent(e) is TableEvent.END_OF_DAY for e in events)
    return ServingResult(
        penalty=after,
        hands_counted=counted,
        carries_to_next_day=ends_day and after.remaining > 0,
    )


@dataclass(frozen=True)
class PenaltyWindow:
    """The table hand numbers a penalty covers."""

    first_hand: int
    last_hand: int
    current_hand_still_live: bool


def penalty_window(
    *, infraction: Infraction | str, infraction_hand_number: int, total_hands: int, served: int = 0
) -> PenaltyWindow:
    """Return the first and last hands the penalty is served in.

    TDA-68 / TDA2015-§63: a penalty for exposing cards while action is pending starts at
    the end of the current hand and the offender's hand stays live; FIGP §36: from the next
    hand (the same result, PH-05). Misdeals in between add hands (TDA-35c).
    """
    first = infraction_hand_number + 1
    return PenaltyWindow(
        first_hand=first,
        last_hand=first + max(0, total_hands - served) - 1,
        current_hand_still_live=Infraction(infraction) in HAND_STAYS_LIVE,
    )


class Position(StrEnum):
    """The penalised player's position in the hand being dealt."""

    BB = "bb"
    SB = "sb"
    BUTTON = "button"
    OTHER = "other"


class AnteFormat(StrEnum):
    """Setting `ante_format` (tournament.md §7.3)."""

    BIG_BLIND_ANTE = "big_blind_ante"  # default, RP-11
    PER_PLAYER = "per_player"
    NONE = "none"


@dataclass(frozen=True)
class Blinds:
    sb: int
    bb: int
    ante: int = 0


def forced_posts(
    *, blinds: Blinds, position: Position | str, ante_format: AnteFormat = AnteFormat.BIG_BLIND_ANTE
) -> int:
    """Return what a player in `position` must put in before the cards (§7.3)."""
    pos = Position(position)
    owed = {Position.BB: blinds.bb, Position.SB: blinds.sb}.get(pos, 0)
    if ante_format is AnteFormat.PER_PLAYER or (
        ante_format is AnteFormat.BIG_BLIND_ANTE and pos is Position.BB
    ):
        owed += blinds.ante
    return owed


@dataclass(frozen=True)
class PenaltyHand:
    """What one hand dealt while away on penalty does to the player."""

    stack_after: int
    hand_killed: bool
    blinded_out: bool
    penalty: Penalty


def deal_hand_during_penalty(
    penalty: Penalty,
    *,
    stack: int,
    blinds: Blinds,
    position: Position | str,
    ante_format: AnteFormat = AnteFormat.BIG_BLIND_ANTE,
) -> PenaltyHand:
    """Deal the away player in: take his blinds and antes, kill his hand, count the hand.

    TDA-71c / TDA2015-§66C (PH-06): he is dealt in, his forced bets are taken and his hand
    is killed after the deal; he can be blinded out (TDA-71a). A player whose penalty is
    already served plays normally: nothing is taken here and nothing is counted.
    """
    if not penalty.active:
        return PenaltyHand(stack_after=stack, hand_killed=False, blinded_out=False, penalty=penalty)
    posted = min(stack, forced_posts(blinds=blinds, position=position, ante_format=ante_format))
    after = stack - posted
    return PenaltyHand(
        stack_after=after,
        hand_killed=True,
        blinded_out=after == 0 and posted > 0,
        penalty=replace(penalty, served=penalty.served + 1),
    )


# ---------------------------------------------------------------------------
# Escalation (TDA-71a: repeat offences draw heavier penalties; FIGP §86, §88: discretion)
# ---------------------------------------------------------------------------

# House ladder [not in sources]: what the app proposes; staff may pick anything (FIGP §88).
ESCALATION_LADDER: tuple[tuple[PenaltyKind, int], ...] = (
    (PenaltyKind.WARNING, 0),
    (PenaltyKind.MISSED_ROUNDS, 1),
    (PenaltyKind.MISSED_ROUNDS, 2),
    (PenaltyKind.MISSED_ROUNDS, 3),
    (PenaltyKind.DISQUALIFICATION, 0),
)


@dataclass(frozen=True)
class Suggestion:
    kind: PenaltyKind
    rounds: int
    previous_offences: int


def suggest_penalty(history: Sequence[Penalty]) -> Suggestion:
    """Propose the next penalty for a player from his history (TDA-71a escalation).

    Each earlier penalty moves one step up the house ladder, starting from the step of the
    heaviest penalty already given. A proposal only: FIGP §88 lets staff skip steps.
    """
    step = 0
    for earlier in history:
        step = max(step, _ladder_step(earlier) + 1)
    kind, rounds = ESCALATION_LADDER[min(step, len(ESCALATION_LADDER) - 1)]
    return Suggestion(kind=kind, rounds=rounds, previous_offences=len(history))


def _ladder_step(penalty: Penalty) -> int:
    if penalty.kind is PenaltyKind.WARNING:
        return 0
    if penalty.kind in (PenaltyKind.DISQUALIFICATION, PenaltyKind.ELIMINATION):
        return len(ESCALATION_LADDER) - 1
    if penalty.kind is PenaltyKind.MISSED_ROUNDS:
        return min(max(1, penalty.rounds), len(ESCALATION_LADDER) - 2)
    return 1

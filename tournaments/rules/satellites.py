"""Satellites: seats from the prize pool, the leftover, the seat bubble, seat awards.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock. Sources: formats.md §11
(seat value, seat count, guaranteed seats, leftover, when play stops, the bubble and
hand-for-hand, same-hand busts on the seat bubble, duplicate seats). Money is integer
cents, like every amount in formats.json.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.rules.placements import Elimination, SameHandRule, settle_eliminations


class LeftoverMode(StrEnum):
    """Setting `leftover_mode` (§11.5)."""

    NEXT_PLACE = "next_place"  # default: PDL-SAT
    NEXT_PLACES_IN_UNITS = "next_places_in_units"  # GG-SAT
    SPLIT_SEAT_WINNERS = "split_seat_winners"  # house policy [not in sources]


class SeatTieResolution(StrEnum):
    """Setting `seat_tie_resolution` (§11.8)."""

    PLAY_OFF = "play_off"  # default: EPT-BCN
    SHARE_VALUE = "share_value"  # RP-8a by analogy
    STACK_ORDER = "stack_order"  # PS-SIM, N8-ELIM


class DuplicateSeatAward(StrEnum):
    """Setting `duplicate_seat_award` (§11.10)."""

    CREDIT = "credit"  # default: PS-SEAT, PSMI-SAT, WPTG-SAT
    CASH = "cash"  # BSQ-SAT


class SeatAwardKind(StrEnum):
    SEAT = "seat"
    CREDIT = "credit"
    CASH = "cash"


class SatelliteStatus(StrEnum):
    IN_PROGRESS = "in_progress"
    CASH_BUBBLE = "cash_bubble"
    SEAT_BUBBLE = "seat_bubble"
    SEATS_AWARDED = "seats_awarded"


@dataclass(frozen=True)
class SatelliteSeats:
    prize_pool: int
    seats: int
    overlay: int
    leftover: int
    cash_prizes: dict[int, int]  # finishing place -> cents
    paid_places: int


def satellite_seats(
    *,
    entries: int,
    prize_part: int,
    seat_value: int,
    added_money: int = 0,
    guaranteed_seats: int = 0,
    leftover_mode: LeftoverMode = LeftoverMode.NEXT_PLACE,
    leftover_unit: int | None = None,
) -> SatelliteSeats:
    """Turn the prize pool into seats and a cash leftover (§11.2-§11.5).

    seats = max(guaranteed, floor(pool / seat value)); a binding guarantee is covered by
    the house (overlay) and leaves no leftover [interpretation]. `leftover_unit` defaults
    to twice the prize part (GG-SAT).
    """
    if seat_value <= 0:
        raise ValueError("the seat value must be positive")
    if min(entries, prize_part, added_money, guaranteed_seats) < 0:
        raise ValueError("entries and amounts cannot be negative")
    pool = entries * prize_part + added_money
    earned = pool // seat_value
    seats = max(guaranteed_seats, earned)
    overlay = max(0, seats * seat_value - pool)
    leftover = 0 if overlay else pool - seats * seat_value
    cash: dict[int, int] = {}
    if leftover:
        if leftover_mode is LeftoverMode.NEXT_PLACE:
            cash[seats + 1] = leftover
        elif leftover_mode is LeftoverMode.NEXT_PLACES_IN_UNITS:
            unit = leftover_unit if leftover_unit else 2 * prize_part
            if unit <= 0:
                raise ValueError("the leftover unit must be positive")
            whole, rest = divmod(leftover, unit)
            for place in range(seats + 1, seats + 1 + whole):
                cash[place] = unit
            if rest:
                cash[seats + 1 + whole] = rest
        elif seats:
            each, odd = divmod(leftover, seats)
            for place in range(1, seats + 1):
                cash[place] = each + (1 if place <= odd else 0)
        else:
            cash[1] = leftover  # no seat at all: the pool is paid to the first place
    return SatelliteSeats(
        prize_pool=pool,
        seats=seats,
        overlay=overlay,
        leftover=leftover,
        cash_prizes=cash,
        paid_places=max([seats, *cash]),
    )


@dataclass(frozen=True)
class BustGroup:
    players: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class PlayOff:
    players: tuple[str, ...]
    seats: int


@dataclass(frozen=True)
class SeatBubble:
    groups: tuple[BustGroup, ...]
    seat_winners: tuple[str, ...]
    play_off: PlayOff | None
    cash: dict[str, int]
    satellite_over: bool
    remaining_after: int


def satellite_bubble(
    *,
    seats: int,
    seat_value: int,
    cash_prizes: Mapping[int, int],
    remaining_before_hand: int,
    hand_for_hand: bool,
    eliminated: Sequence[Elimination],
    other_players: Sequence[str],
    rule: SameHandRule = SameHandRule.FIGP,
    seat_tie_resolution: SeatTieResolution = SeatTieResolution.PLAY_OFF,
) -> SeatBubble:
    """Place one hand's busts around the seats and say who holds a seat (§11.6-§11.8).

    Groups are those of tournament.md §15.2. A group wholly in seat places wins seats, a
    group with none shares its places' cash, and a tied group straddling the last seat is
    resolved by `seat_tie_resolution`. Once no more players are left than seats, every
    player left wins a seat.
    """
    paid_places = max([seats, *cash_prizes])
    settlement = settle_eliminations(
        remaining_before_hand=remaining_before_hand,
        eliminated=eliminated,
        prizes={},
        paid_places=paid_places,
        rule=rule,
        hand_for_hand=hand_for_hand,
    )
    stacks = {e.player: e.start_stack for e in eliminated}
    groups = tuple(BustGroup(players=g.players, places=g.places) for g in settlement.groups)
    remaining_after = settlement.remaining_after
    over = remaining_after <= seats
    winners: list[str] = list(other_players) if over else []
    cash: dict[str, int] = {e.player: 0 for e in eliminated}
    play_off: PlayOff | None = None
    for group in groups:
        seat_places = [p for p in group.places if p <= seats]
        cash_places = [p for p in group.places if p > seats]
        place_cash = sum(cash_prizes.get(p, 0) for p in group.places)
        if not cash_places:
            winners.extend(group.players)
            _share(cash, group.players, place_cash)  # split_seat_winners cash
        elif not seat_places:
            _share(cash, group.players, place_cash)
        elif seat_tie_resolution is SeatTieResolution.SHARE_VALUE:
            _share(cash, group.players, place_cash + len(seat_places) * seat_value)
        elif seat_tie_resolution is SeatTieResolution.STACK_ORDER:
            # The larger starting stack takes the seat even across tables; equal stacks
            # at the cut play off (§11.8, PS-SIM).
            ranked = sorted(group.players, key=lambda p: stacks[p], reverse=True)
            cut = stacks[ranked[len(seat_places) - 1]]
            sure = [p for p in ranked if stacks[p] > cut]
            tied = [p for p in ranked if stacks[p] == cut]
            rest = [p for p in ranked if stacks[p] < cut]
            open_seats = len(seat_places) - len(sure)
            winners.extend(sure)
            places = list(group.places)
            tied_places = places[len(sure) : len(sure) + len(tied)]
            if len(tied) == open_seats:
                winners.extend(tied)
            else:
                play_off = PlayOff(players=tuple(tied), seats=open_seats)
                tied_cash = sum(cash_prizes.get(p, 0) for p in tied_places if p > seats)
                _share(cash, tied, tied_cash)
            for player, place in zip(rest, places[len(sure) + len(tied) :], strict=True):
                cash[player] = cash_prizes.get(place, 0)
        else:
            _share(cash, group.players, sum(cash_prizes.get(p, 0) for p in cash_places))
            play_off = PlayOff(players=group.players, seats=len(seat_places))
    return SeatBubble(
        groups=groups,
        seat_winners=tuple(dict.fromkeys(winners)),
        play_off=play_off,
        cash=cash,
        satellite_over=over,
        remaining_after=remaining_after,
    )


def _share(cash: dict[str, int], players: Sequence[str], amount: int) -> None:
    """Share an amount equally, odd cents from the first listed player down."""
    each, odd = divmod(amount, len(players))
    for index, player in enumerate(players):
        cash[player] = each + (1 if index < odd else 0)


@dataclass(frozen=True)
class SeatAward:
    kind: SeatAwardKind
    amount: int  # 0 for a seat


def award_seat(
    *,
    already_holds_seat: bool,
    seat_value: int,
    duplicate_seat_award: DuplicateSeatAward = DuplicateSeatAward.CREDIT,
) -> SeatAward:
    """Give a seat, or its value when the player already holds one (§11.10)."""
    if not already_holds_seat:
        return SeatAward(kind=SeatAwardKind.SEAT, amount=0)
    return SeatAward(kind=SeatAwardKind(duplicate_seat_award.value), amount=seat_value)


@dataclass(frozen=True)
class StatusNow:
    status: SatelliteStatus
    players_to_seats: int
    hand_for_hand_suggested: bool


def satellite_status(*, seats: int, last_paid_place: int, remaining: int) -> StatusNow:
    """Say where a satellite stands: the cash bubble, the seat bubble, seats awarded."""
    if remaining <= seats:
        status = SatelliteStatus.SEATS_AWARDED
    elif remaining == seats + 1:
        status = SatelliteStatus.SEAT_BUBBLE
    elif last_paid_place > seats and remaining == last_paid_place + 1:
        status = SatelliteStatus.CASH_BUBBLE
    else:
        status = SatelliteStatus.IN_PROGRESS
    return StatusNow(
        status=status,
        players_to_seats=max(0, remaining - seats),
        hand_for_hand_suggested=seats < remaining <= last_paid_place + 1,
    )

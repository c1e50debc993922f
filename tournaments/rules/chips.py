"""Chips: scheduled colour-up with chip race, leftovers, discretionary colour-ups.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock. Sources are cited as in
tournament.md §0; the procedure is tournament.md §12.

A *chip set* is a mapping {denomination: count}; denominations and counts are ints and a
missing denomination means zero chips. Functions never mutate their arguments and return
plain dicts without zero counts, sorted by denomination.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

ChipSet = Mapping[int, int]

# tournament.md §6.4 / §3: the default suit order for high-card draws, highest first.
DEFAULT_SUIT_ORDER: tuple[str, ...] = ("s", "h", "d", "c")
RANKS = "23456789TJQKA"


class RaceRounding(StrEnum):
    """How many new chips the odd value buys (setting `chip_race_rounding`, §12.2)."""

    HALF_UP = "half_up"  # house default [not in sources]
    UP = "up"
    DOWN = "down"


# ---------------------------------------------------------------------------
# Chip sets
# ---------------------------------------------------------------------------


def chip_value(chips: ChipSet) -> int:
    """Return the total value of a chip set."""
    return sum(denomination * count for denomination, count in chips.items())


def normalise(chips: ChipSet) -> dict[int, int]:
    """Return a chip set as a sorted dict with zero counts dropped.

    Precondition: denominations are positive and counts are not negative.
    """
    for denomination, count in chips.items():
        if denomination <= 0 or count < 0:
            raise ValueError(f"bad chip entry {denomination}: {count}")
    return {d: chips[d] for d in sorted(chips) if chips[d]}


def add_chips(*chip_sets: ChipSet) -> dict[int, int]:
    """Return the sum of several chip sets."""
    total: dict[int, int] = {}
    for chips in chip_sets:
        for denomination, count in chips.items():
            total[denomination] = total.get(denomination, 0) + count
    return normalise(total)


def subtract_chips(chips: ChipSet, taken: ChipSet) -> dict[int, int]:
    """Return `chips` less `taken`.

    Precondition: `chips` holds at least the chips in `taken`.
    """
    result = dict(chips)
    for denomination, count in taken.items():
        left = result.get(denomination, 0) - count
        if left < 0:
            raise ValueError(f"cannot take {count} x {denomination} from {dict(chips)}")
        result[denomination] = left
    return normalise(result)


def _set_size(removed_denomination: int, into_denomination: int) -> tuple[int, int]:
    """Return (chips handed in, chips received) for the smallest equal-value exchange."""
    lcm = math.lcm(removed_denomination, into_denomination)
    return lcm // removed_denomination, lcm // into_denomination


# ---------------------------------------------------------------------------
# §12.2 step 2: exchange full sets, only the odd chips are raced
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceExchange:
    """One seat's colour-up exchange before the race (tournament.md §12.2 step 2)."""

    handed_in: dict[int, int]
    received: dict[int, int]
    odd_chips: dict[int, int]
    stack_before_race: dict[int, int]

    @property
    def odd_value(self) -> int:
        return chip_value(self.odd_chips)


def exchange_full_sets(
    stack: ChipSet, *, removed_denomination: int, lowest_remaining_denomination: int
) -> RaceExchange:
    """Exchange every full set of retired chips at equal value; set the rest aside to race.

    FIGP §58 and CR-01: full sets are exchanged, only the remainder (the "odd chips") is
    raced. The odd chips leave the stack: `stack_before_race` is what stays in front of him.
    Precondition: the lowest remaining denomination is larger than the retired one.
    """
    if lowest_remaining_denomination <= removed_denomination:
        raise ValueError("the lowest remaining denomination must exceed the retired one")
    held = stack.get(removed_denomination, 0)
    per_set, gives = _set_size(removed_denomination, lowest_remaining_denomination)
    sets, odd = divmod(held, per_set)
    handed_in = normalise({removed_denomination: sets * per_set})
    received = normalise({lowest_remaining_denomination: sets * gives})
    odd_chips = normalise({removed_denomination: odd})
    rest = subtract_chips(stack, {removed_denomination: held})
    return RaceExchange(
        handed_in=handed_in,
        received=received,
        odd_chips=odd_chips,
        stack_before_race=add_chips(rest, received),
    )


# ---------------------------------------------------------------------------
# §12.2 step 3: the race
# ---------------------------------------------------------------------------


def race_order(odd_chip_seats: Iterable[int], *, max_seats: int) -> list[int]:
    """Return the seats in the order race cards are dealt: from seat 1, in seat order.

    TDA-24 / TDA2015-§23 / FIGP §58 and CR-02: the race starts at seat 1 and goes round.
    Precondition: every seat is in 1..max_seats.
    """
    seats = set(odd_chip_seats)
    for seat in seats:
        if not 1 <= seat <= max_seats:
            raise ValueError(f"seat {seat} is not in 1..{max_seats}")
    return sorted(seats)


def chips_to_race(
    odd_value: int,
    *,
    lowest_remaining_denomination: int,
    rounding: RaceRounding = RaceRounding.HALF_UP,
) -> int:
    """Return how many new chips the pooled odd value buys.

    House mechanics [not in sources], tournament.md §12.2: total odd value / new
    denomination, half a chip or more rounding up by default (`chip_race_rounding`).
    """
    whole, rest = divmod(odd_value, lowest_remaining_denomination)
    if rest == 0 or rounding is RaceRounding.DOWN:
        return whole
    if rounding is RaceRounding.UP:
        return whole + 1
    return whole + (1 if 2 * rest >= lowest_remaining_denomination else 0)


@dataclass(frozen=True, order=True)
class RaceCard:
    """One race card dealt to a seat (one card per odd chip, `chip_race_cards`)."""

    seat: int
    card: str


def card_strength(card: str, *, suit_order: Sequence[str] = DEFAULT_SUIT_ORDER) -> tuple[int, int]:
    """Return a sort key for a card: rank first, then suit by `suit_order` (highest first).

    Precondition: the card is rank + suit letter, e.g. "Ah", "Tc" (tournament.md §1.1).
    """
    rank, suit = card[0].upper(), card[1].lower()
    if rank not in RANKS or suit not in suit_order:
        raise ValueError(f"not a card: {card!r}")
    return RANKS.index(rank), len(suit_order) - suit_order.index(suit)


def rank_race_cards(
    cards: Iterable[RaceCard], *, suit_order: Sequence[str] = DEFAULT_SUIT_ORDER
) -> list[RaceCard]:
    """Return the race cards best first (rank, then suit order: §12.2 house mechanics)."""
    return sorted(cards, key=lambda rc: card_strength(rc.card, suit_order=suit_order), reverse=True)


@dataclass(frozen=True)
class RaceAward:
    """Who wins a chip in the race."""

    awarded: dict[int, int]
    not_awarded: frozenset[int]
    unawarded_chips: int  # chips left over when fewer seats than chips take part


def award_race(
    chips: int, ranking: Sequence[RaceCard], *, racing_seats: Collection[int] = ()
) -> RaceAward:
    """Award the raced chips down the card ranking, at most one chip per player.

    TDA-24 / TDA2015-§23 / FIGP §58 and CR-03: no player wins more than one chip, so a
    seat's second and later cards are skipped. `racing_seats` adds seats that hold odd
    chips but whose cards are not in `ranking`. Precondition: `ranking` is best first.
    """
    winners: list[int] = []
    for race_card in ranking:
        if len(winners) == chips:
            break
        if race_card.seat not in winners:
            winners.append(race_card.seat)
    in_race = set(racing_seats) | {rc.seat for rc in ranking}
    return RaceAward(
        awarded=dict.fromkeys(sorted(winners), 1),
        not_awarded=frozenset(in_race - set(winners)),
        unawarded_chips=chips - len(winners),
    )


@dataclass(frozen=True)
class RaceResult:
    """Stacks after the race is applied (tournament.md §12.2 steps 3-4)."""

    final_stacks: dict[int, dict[int, int]]
    eliminated: frozenset[int]  # always empty: nobody can be raced out
    protected: frozenset[int]  # seats given the "can't be raced out" chip
    chips_added: int  # value the race put into play beyond the odd chips it took


def apply_race(
    stacks: Mapping[int, ChipSet],
    *,
    winners: Collection[int],
    removed_denomination: int,
    lowest_remaining_denomination: int,
) -> RaceResult:
    """Take the odd chips, pay each winner one chip, and keep everyone in.

    TDA-24 / TDA2015-§23 / FIGP §58 and CR-04: a player who loses his last chips in the race
    gets one chip of the lowest denomination still in play. Full sets still present are
    exchanged first (§12.2 step 2), so a stack may be given before or after the exchange.
    Precondition: every winner is a key of `stacks` or a seat not checked here.
    """
    final: dict[int, dict[int, int]] = {}
    protected: set[int] = set()
    value_before = 0
    value_after = 0
    for seat, stack in stacks.items():
        exchange = exchange_full_sets(
            stack,
            removed_denomination=removed_denomination,
            lowest_remaining_denomination=lowest_remaining_denomination,
        )
        after = exchange.stack_before_race
        if seat in winners:
            after = add_chips(after, {lowest_remaining_denomination: 1})
        if chip_value(stack) > 0 and chip_value(after) == 0:
            # Nobody can be raced out (TDA-24.2, FIGP §58).
            after = {lowest_remaining_denomination: 1}
            protected.add(seat)
        final[seat] = after
        value_before += chip_value(stack)
        value_after += chip_value(after)
    return RaceResult(
        final_stacks=final,
        eliminated=frozenset(),
        protected=frozenset(protected),
        chips_added=value_after - value_before,
    )


# ---------------------------------------------------------------------------
# §12.2 step 5: leftovers after the race
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Leftovers:
    """A stack cleared of retired chips after the race."""

    chips_after: dict[int, int]
    removed_without_compensation: int  # value taken out of play


def clear_leftovers(
    stack: ChipSet, *, removed_denomination: int, lowest_remaining_denomination: int
) -> Leftovers:
    """Exchange retired chips at equal value only; remove any fraction without compensation.

    TDA2015-§23C (implemented wording) and TDA-24.3; cases CR-05, CU-02.
    """
    exchange = exchange_full_sets(
        stack,
        removed_denomination=removed_denomination,
        lowest_remaining_denomination=lowest_remaining_denomination,
    )
    return Leftovers(
        chips_after=exchange.stack_before_race,
        removed_without_compensation=exchange.odd_value,
    )


# ---------------------------------------------------------------------------
# Whole-table plan for a scheduled colour-up
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChipRacePlan:
    """What the dealer does at one table for a scheduled colour-up (§12.2)."""

    exchanges: dict[int, RaceExchange]
    deal_order: list[int]
    cards_per_seat: dict[int, int]  # one card per odd chip (`chip_race_cards`)
    odd_value: int
    chips_to_race: int
    announcement_required: bool  # FIGP §68: announce colour-up and race


def plan_chip_race(
    stacks: Mapping[int, ChipSet],
    *,
    max_seats: int,
    removed_denomination: int,
    lowest_remaining_denomination: int,
    rounding: RaceRounding = RaceRounding.HALF_UP,
) -> ChipRacePlan:
    """Plan a table's scheduled colour-up: exchanges, race order, cards and chips to race."""
    exchanges = {
        seat: exchange_full_sets(
            stack,
            removed_denomination=removed_denomination,
            lowest_remaining_denomination=lowest_remaining_denomination,
        )
        for seat, stack in stacks.items()
    }
    cards = {
        seat: ex.odd_chips.get(removed_denomination, 0)
        for seat, ex in exchanges.items()
        if ex.odd_chips
    }
    odd_value = sum(ex.odd_value for ex in exchanges.values())
    return ChipRacePlan(
        exchanges=exchanges,
        deal_order=race_order(cards, max_seats=max_seats),
        cards_per_seat=cards,
        odd_value=odd_value,
        chips_to_race=chips_to_race(
            odd_value,
            lowest_remaining_denomination=lowest_remaining_denomination,
            rounding=rounding,
        ),
        announcement_required=True,
    )


# ---------------------------------------------------------------------------
# §12.3 discretionary colour-up
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ColorUp:
    """A stack after a colour-up."""

    chips_after: dict[int, int]
    value_before: int
    value_after: int
    announcement_required: bool


def _make_amount(chips: ChipSet, amount: int) -> dict[int, int] | None:
    """Return chips from `chips` worth exactly `amount`, largest first, or None."""
    taken: dict[int, int] = {}
    left = amount
    for denomination in sorted(chips, reverse=True):
        count = min(chips[denomination], left // denomination)
        if count:
            taken[denomination] = count
            left -= count * denomination
    return taken if left == 0 else None


def color_up(stack: ChipSet, *, target_denomination: int, units: int | None = None) -> ColorUp:
    """Exchange lower chips for `target_denomination` chips at equal value.

    TDA-25.5 / TDA2015-§24B / FIGP §68 and CU-01: the TD may colour up a player at any time;
    every colour-up is announced. `units` is how many target chips to make (the TD's
    choice); by default every whole unit the lower chips make is converted, keeping the
    odd value in the fewest chips.
    """
    lower = {d: c for d, c in stack.items() if d < target_denomination and c}
    lower_value = chip_value(lower)
    wanted = lower_value // target_denomination if units is None else units
    if wanted * target_denomination > lower_value:
        raise ValueError("the lower chips are not worth that many target chips")
    for making in range(wanted, -1, -1):
        # Keep the odd value in the largest lower chips; hand in the rest.
        kept = _make_amount(lower, lower_value - making * target_denomination)
        if kept is not None:
            handed_in = subtract_chips(lower, kept)
            after = add_chips(subtract_chips(stack, handed_in), {target_denomination: making})
            break
    else:  # pragma: no cover - making == 0 always succeeds (keep everything)
        raise AssertionError
    return ColorUp(
        chips_after=after,
        value_before=chip_value(stack),
        value_after=chip_value(after),
        announcement_required=True,
    )


def color_up_leftovers(
    stack: ChipSet, *, removed_denomination: int, lowest_remaining_denomination: int
) -> ColorUp:
    """Clear retired chips left after the race, as a (scheduled, announced) colour-up."""
    left = clear_leftovers(
        stack,
        removed_denomination=removed_denomination,
        lowest_remaining_denomination=lowest_remaining_denomination,
    )
    return ColorUp(
        chips_after=left.chips_after,
        value_before=chip_value(stack),
        value_after=chip_value(left.chips_after),
        announcement_required=True,  # FIGP §68
    )

"""Prize pool, paid places, payout tables and deal calculators.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock. The sourced rules are
tournament.md §16 (003 Art.8, FIGP Glossario "Buy-In"); payout generation, rounding, ICM
and chops are house procedures [not in sources, §16.3].

Money is integer euros throughout. Percentages are exact (`Fraction`); floats coming from
JSON or forms are read through their decimal text, so 12.5 means exactly 25/2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Literal

Number = int | float | Decimal | Fraction | str

# tournament.md §3: min_paid_fraction 0.10, basis entries, rounding ceil (003 Art.8).
DEFAULT_MIN_PAID_FRACTION = Fraction(1, 10)
ICM_MAX_PLAYERS = 10


def exact(value: Number) -> Fraction:
    """Return a number as an exact fraction, reading floats through their decimal text."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    return Fraction(value)


def _round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


# ---------------------------------------------------------------------------
# §16.1 Prize pool
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BuyIn:
    """A buy-in written "prize part + fee", e.g. 50+10 (FIGP Glossario "Buy-In")."""

    prize_part: int
    fee: int

    @property
    def price(self) -> int:
        return self.prize_part + self.fee


TaxMode = Literal["on_gross", "after_house_share"]


@dataclass(frozen=True)
class PrizePool:
    """How the money collected becomes the prize pool."""

    gross: int  # entries x the price of an entry
    organiser_share: int  # the part of gross that does not go into the pool
    taxes: int
    added_money: int
    overlay: int  # what the organiser adds to reach the guarantee
    prize_pool: int
    rule_ids: tuple[str, ...]


def compute_prize_pool(
    *,
    entries: int,
    entry_fee: int | None = None,
    house_and_dealer_percent: Number | None = None,
    buy_in: BuyIn | None = None,
    taxes: int = 0,
    tax_percent: Number = 0,
    tax_mode: TaxMode = "after_house_share",
    added_money: int = 0,
    extra_prize_contributions: int = 0,
    guarantee: int = 0,
) -> PrizePool:
    """Compute gross, the organiser's share, taxes and the prize pool.

    Give exactly one of (`entry_fee` with `house_and_dealer_percent`) - 003 Art.8, the pool
    is the entry fees less the house and dealer percentage, net of taxes - or `buy_in` -
    FIGP Glossario "Buy-In", only the prize part goes to the pool. `taxes` is a fixed amount;
    `tax_percent` is applied per `tax_mode` (the order is ambiguous, §16.1: a setting).
    `extra_prize_contributions` are the pool parts of rebuys and add-ons (configured per
    product, [not in sources]); `added_money` and `guarantee` are house options.
    The organiser's percentage share is rounded half up to whole euros.
    """
    if (buy_in is None) == (entry_fee is None):
        raise ValueError("give exactly one of entry_fee or buy_in")
    if entries < 0:
        raise ValueError("entries cannot be negative")
    if buy_in is not None:
        gross = entries * buy_in.price
        organiser_share = entries * buy_in.fee
        rule_ids: tuple[str, ...] = ('002 Glossario "Buy-In"',)
    else:
        assert entry_fee is not None
        percent = exact(house_and_dealer_percent or 0)
        if not 0 <= percent <= 100:
            raise ValueError("house_and_dealer_percent must be 0..100")
        gross = entries * entry_fee
        organiser_share = _round_half_up(gross * percent / 100)
        rule_ids = ("003 Art.8",)
    base = gross if tax_mode == "on_gross" else gross - organiser_share
    tax_total = taxes + _round_half_up(base * exact(tax_percent) / 100)
    pool = gross - organiser_share - tax_total + extra_prize_contributions + added_money
    if pool < 0:
        raise ValueError("deductions exceed the money collected")
    overlay = max(0, guarantee - pool)
    return PrizePool(
        gross=gross,
        organiser_share=organiser_share,
        taxes=tax_total,
        added_money=added_money,
        overlay=overlay,
        prize_pool=pool + overlay,
        rule_ids=rule_ids,
    )


# ---------------------------------------------------------------------------
# §16.2 Paid places and validation
# ---------------------------------------------------------------------------


def min_paid_places(entries: int, *, fraction: Number = DEFAULT_MIN_PAID_FRACTION) -> int:
    """Return the fewest places to pay: `fraction` of the entries, rounded up (003 Art.8).

    Cases PP-01..PP-03: 87 -> 9, 100 -> 10, 101 -> 11. At least one place once anyone has
    entered. Precondition: entries >= 0.
    """
    if entries <= 0:
        return 0
    return max(1, math.ceil(entries * exact(fraction)))


REASON_PAID_BELOW_MIN = "paid_below_min"
REASON_NOT_DECREASING = "percentages_not_decreasing"
REASON_SUM_NOT_100 = "percentages_sum_not_100"


@dataclass(frozen=True)
class PayoutValidation:
    """Whether a proposed payout structure is acceptable, and why not."""

    min_paid_places: int
    valid: bool
    reasons: tuple[str, ...]  # in the order of tournament.md's Codes table


def percentages_decreasing(percentages: Sequence[Number]) -> bool:
    """Return whether 1st is strictly the largest and no later place beats the one before.

    tournament.md §16.2 default reading of 003 Art.8 ("decreasing"): a flat band below
    first place is allowed.
    """
    values = [exact(p) for p in percentages]
    if len(values) > 1 and not all(values[0] > v for v in values[1:]):
        return False
    return all(later <= earlier for earlier, later in zip(values, values[1:], strict=False))


def validate_payout_structure(
    *,
    entries: int,
    paid_places: int,
    percentages: Sequence[Number] | None = None,
    min_paid_fraction: Number = DEFAULT_MIN_PAID_FRACTION,
) -> PayoutValidation:
    """Check a proposed structure: enough places paid, decreasing, summing to 100%.

    003 Art.8 (at least 10% paid, decreasing percentages from first place); the 100% check
    is [not in sources, obvious] (§16.2). `percentages=None` checks the place count only.
    """
    minimum = min_paid_places(entries, fraction=min_paid_fraction)
    reasons: list[str] = []
    if paid_places < minimum:
        reasons.append(REASON_PAID_BELOW_MIN)
    if percentages is not None:
        if not percentages_decreasing(percentages):
            reasons.append(REASON_NOT_DECREASING)
        if sum((exact(p) for p in percentages), Fraction(0)) != 100:
            reasons.append(REASON_SUM_NOT_100)
    return PayoutValidation(min_paid_places=minimum, valid=not reasons, reasons=tuple(reasons))


# ---------------------------------------------------------------------------
# Payout tables [not in sources: house procedure, §16.3]
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutTable:
    """Prize per place, first place first; `amounts` sum exactly to `prize_pool`."""

    prize_pool: int
    percentages: tuple[Fraction, ...]  # strictly decreasing, summing exactly to 100
    amounts: tuple[int, ...]

    @property
    def paid_places(self) -> int:
        return len(self.amounts)

    def prizes(self) -> dict[int, int]:
        """Return {place: amount}, places counted from 1."""
        return dict(enumerate(self.amounts, start=1))


def amounts_for(
    percentages: Sequence[Number], *, prize_pool: int, unit: int = 1
) -> tuple[int, ...]:
    """Turn percentages into amounts: each rounded down to `unit`, the remainder to 1st.

    The amounts always sum exactly to `prize_pool` (what is left by rounding, including any
    part of the pool below one unit, goes to first place). Precondition: percentages sum
    to 100, unit >= 1.
    """
    if unit < 1:
        raise ValueError("unit must be at least 1")
    shares = [exact(p) for p in percentages]
    if sum(shares, Fraction(0)) != 100:
        raise ValueError("percentages must sum to 100")
    amounts = [math.floor(prize_pool * share / 100 / unit) * unit for share in shares]
    if amounts:
        amounts[0] += prize_pool - sum(amounts)
    return tuple(amounts)


def generate_payout_table(
    *,
    prize_pool: int,
    entries: int,
    paid_places: int | None = None,
    unit: int = 1,
    steepness: Number = 1,
    min_paid_fraction: Number = DEFAULT_MIN_PAID_FRACTION,
) -> PayoutTable:
    """Generate a payout table: strictly decreasing shares, amounts in `unit`s summing to pool.

    Pays `paid_places` (default: the minimum of 003 Art.8, 10% of entries rounded up).
    Every paid place first gets one `unit` (a paid place never pays nothing); the rest is
    shared by weights 1/place**steepness, each amount rounded down to the unit and the
    remainder to first place, so the sum is exactly the pool.
    Preconditions: entries >= 1; the pool holds more than one unit per paid place.
    """
    if entries < 1:
        raise ValueError("no entries")
    places = (
        min_paid_places(entries, fraction=min_paid_fraction) if paid_places is None else paid_places
    )
    if not 1 <= places <= entries:
        raise ValueError("paid places must be 1..entries")
    if prize_pool < places * unit or (places > 1 and prize_pool == places * unit):
        # One unit each and nothing left would make every place equal, not decreasing.
        raise ValueError("the pool must exceed one unit per paid place")
    alpha = exact(steepness)
    if alpha <= 0:
        raise ValueError("steepness must be positive")
    weights = [_weight(place, alpha) for place in range(1, places + 1)]
    total_weight = sum(weights, Fraction(0))
    spare = prize_pool - places * unit
    amounts = [unit + math.floor(spare * w / total_weight / unit) * unit for w in weights]
    amounts[0] += prize_pool - sum(amounts)
    # Shares of the pool implied by the floor of one unit plus the weighted part: strictly
    # decreasing because the weights are, and exactly 100 in total.
    percentages = tuple(
        100 * (Fraction(unit, 1) + spare * w / total_weight) / prize_pool for w in weights
    )
    return PayoutTable(prize_pool=prize_pool, percentages=percentages, amounts=tuple(amounts))


def _weight(place: int, alpha: Fraction) -> Fraction:
    if alpha.denominator == 1:
        return Fraction(1, place**alpha.numerator)
    # Fractional exponents: an exact rational close to place**-alpha keeps sums exact.
    return Fraction(place ** -float(alpha)).limit_denominator(10**12)


# ---------------------------------------------------------------------------
# Deals [not in sources, §16.3]: ICM (Malmuth-Harville) and chip chop
# ---------------------------------------------------------------------------


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[Fraction, ...]:
    """Return each player's exact prize equity by the Malmuth-Harville model.

    The chance of finishing first is the share of chips; given who finished above, the
    chance of the next place is the share of the chips left. `prizes[0]` is 1st place;
    missing places pay 0 and places beyond the player count are ignored.
    Preconditions: 1..10 players, every stack > 0.
    """
    n = len(stacks)
    if not 1 <= n <= ICM_MAX_PLAYERS:
        raise ValueError(f"ICM is computed exactly for 1..{ICM_MAX_PLAYERS} players")
    if any(s <= 0 for s in stacks):
        raise ValueError("every stack must be positive")
    pay = [*prizes[:n], *([0] * max(0, n - len(prizes)))]
    chips = tuple(stacks)

    @cache
    def reach(placed: int) -> Fraction:
        """Chance that exactly the players in the bitmask `placed` took the top places."""
        if placed == 0:
            return Fraction(1)
        total = Fraction(0)
        for i in range(n):
            if placed >> i & 1:
                before = placed & ~(1 << i)
                left = sum(chips[j] for j in range(n) if not before >> j & 1)
                total += reach(before) * Fraction(chips[i], left)
        return total

    equities = [Fraction(0)] * n
    for placed in range(1 << n):
        place = bin(placed).count("1")  # the next place to award, 0-based
        if place >= n or pay[place] == 0:
            continue
        chance = reach(placed)
        left = sum(chips[j] for j in range(n) if not placed >> j & 1)
        for i in range(n):
            if not placed >> i & 1:
                equities[i] += chance * Fraction(chips[i], left) * pay[place]
    return tuple(equities)


def _apportion(shares: Sequence[Fraction], total: int, tiebreak: Sequence[int]) -> tuple[int, ...]:
    """Round shares to whole euros summing to `total`: floors, then largest remainders."""
    floors = [math.floor(s) for s in shares]
    left = total - sum(floors)
    order = sorted(
        range(len(shares)), key=lambda i: (shares[i] - floors[i], tiebreak[i]), reverse=True
    )
    for i in order[:left]:
        floors[i] += 1
    return tuple(floors)


@dataclass(frozen=True)
class Deal:
    """A proposed deal: what each player takes now, and what is left to play for."""

    method: Literal["icm", "chip_chop"]
    amounts: tuple[int, ...]  # in the order of the stacks given
    left_to_play_for: int  # goes to the winner of the remaining play
    exact_shares: tuple[Fraction, ...]


def icm_deal(stacks: Sequence[int], prizes: Sequence[int], *, left_to_play_for: int = 0) -> Deal:
    """Propose an ICM deal; `left_to_play_for` is taken off first place and played for.

    Amounts are whole euros summing exactly to the remaining prizes less the amount left to
    play for. Preconditions: as icm_equities; 0 <= left_to_play_for <= prizes[0] - prizes[1].
    """
    remaining = list(prizes[: len(stacks)])
    if not remaining:
        raise ValueError("no prizes")
    second = remaining[1] if len(remaining) > 1 else 0
    if not 0 <= left_to_play_for <= remaining[0] - second:
        raise ValueError("the amount left to play for must fit in first place's premium")
    remaining[0] -= left_to_play_for
    shares = icm_equities(stacks, remaining)
    return Deal(
        method="icm",
        amounts=_apportion(shares, sum(remaining), stacks),
        left_to_play_for=left_to_play_for,
        exact_shares=shares,
    )


def chip_chop(
    stacks: Sequence[int],
    prizes: Sequence[int],
    *,
    left_to_play_for: int = 0,
    guarantee_lowest_prize: bool = True,
) -> Deal:
    """Propose a chip chop: money shared in proportion to chips.

    With `guarantee_lowest_prize` (the usual form) each player first gets the lowest prize
    still to be paid among them, and only the rest is shared by chips. Amounts are whole
    euros summing exactly to the remaining prizes less `left_to_play_for`.
    Preconditions: stacks positive; len(prizes) >= len(stacks) or missing places pay 0.
    """
    n = len(stacks)
    if n < 1 or any(s <= 0 for s in stacks):
        raise ValueError("every stack must be positive")
    remaining = [*prizes[:n], *([0] * max(0, n - len(prizes)))]
    total = sum(remaining) - left_to_play_for
    if left_to_play_for < 0 or total < 0:
        raise ValueError("the amount left to play for exceeds the prizes")
    floor_each = min(remaining) if guarantee_lowest_prize else 0
    floor_each = min(floor_each, total // n)
    shared = total - floor_each * n
    chips = sum(stacks)
    shares = tuple(floor_each + Fraction(shared * s, chips) for s in stacks)
    return Deal(
        method="chip_chop",
        amounts=_apportion(shares, total, stacks),
        left_to_play_for=left_to_play_for,
        exact_shares=shares,
    )


def prizes_from_mapping(prizes: Mapping[int, int], places: int) -> tuple[int, ...]:
    """Return prizes for places 1..places from a {place: amount} map (missing places pay 0)."""
    return tuple(prizes.get(place, 0) for place in range(1, places + 1))

"""Winners of each pot, split shares and odd chips (§14), for hold'em, Omaha and Omaha hi/lo."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import InvalidCards
from .pots import Pot, clockwise_from, split_amount
from .ranking import high_rank, omaha_low
from .settings import EngineSettings


@dataclass(frozen=True)
class PotAward:
    """How one pot was awarded: `name` is "main", "side1", ...; `lo_winners` empty if no low."""

    name: str
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    lo_winners: tuple[int, ...]
    shares: dict[int, int]
    odd_chips_to: tuple[int, ...]


@dataclass(frozen=True)
class HandResult:
    """End of hand: pot awards (formation order), uncalled chips returned, final stacks."""

    awards: tuple[PotAward, ...]
    returned: dict[int, int]
    final_stacks: dict[int, int]

    def winners(self) -> dict[str, list[int]]:
        """Winners per pot, keyed as in the case format ("main", "side1", "main.hi", ...)."""
        out: dict[str, list[int]] = {}
        for a in self.awards:
            if a.lo_winners:
                out[f"{a.name}.hi"] = list(a.winners)
                out[f"{a.name}.lo"] = list(a.lo_winners)
            else:
                out[a.name] = list(a.winners)
        return out

    def odd_chip_recipients(self) -> list[int]:
        """Seats that received an odd chip, in award order (side pots first, R-POT-4)."""
        seen: list[int] = []
        for a in reversed(self.awards):
            for s in a.odd_chips_to:
                if s not in seen:
                    seen.append(s)
        return seen


def _best(scores: Mapping[int, int]) -> tuple[int, ...]:
    top = min(scores.values())
    return tuple(sorted(s for s, v in scores.items() if v == top))


def award(
    pots: Sequence[Pot],
    *,
    returned: Mapping[int, int],
    stacks: Mapping[int, int],
    holes: Mapping[int, Sequence[str]],
    mucked: set[int],
    board: Sequence[str],
    variant: str,
    button: int,
    settings: EngineSettings,
) -> HandResult:
    """Award each pot separately (R-POT-3): cards speak (R-SD-1), ties split (R-SD-8),
    odd chips to the first winner left of the button (R-SD-9).

    Preconditions: a pot contested by two or more unmucked hands needs five board cards and
    the hole cards of those hands.
    """
    final = dict(stacks)
    for seat, amount in returned.items():
        final[seat] += amount
    awards: list[PotAward] = []
    for index, pot in enumerate(pots):
        name = "main" if index == 0 else f"side{index}"
        contenders = [s for s in pot.eligible if s not in mucked] or list(pot.eligible)
        lo: tuple[int, ...] = ()
        hi: tuple[int, ...]
        if len(contenders) == 1:
            hi = (contenders[0],)
        else:
            if len(board) != 5:
                raise InvalidCards(f"{name} pot is contested but the board has {len(board)} cards")
            for s in contenders:
                if not holes.get(s):
                    raise InvalidCards(f"hole cards of seat {s} are needed for the showdown")
            hi = _best({s: high_rank(variant, holes[s], board) for s in contenders})
            if variant == "omaha_hilo":
                lows = {s: omaha_low(holes[s], board) for s in contenders}
                qualified = {s: v for s, v in lows.items() if v is not None}
                if qualified:
                    top = min(qualified.values())
                    lo = tuple(sorted(s for s, v in qualified.items() if v == top))
        shares, odd = _split(pot.amount, hi, lo, button=button, settings=settings)
        for seat, amount in shares.items():
            final[seat] += amount
        awards.append(PotAward(name, pot.amount, pot.eligible, hi, lo, shares, tuple(odd)))
    return HandResult(tuple(awards), dict(returned), final)


def _split(
    amount: int,
    hi: tuple[int, ...],
    lo: tuple[int, ...],
    *,
    button: int,
    settings: EngineSettings,
) -> tuple[dict[int, int], list[int]]:
    unit = settings.chip_unit
    if not lo or (settings.hilo_identical_scoop == "precise" and set(hi) == set(lo)):
        # No qualifying low: the high scoops; identical scoopers split as precisely as
        # possible (2015 §19D, the default).
        return split_amount(amount, hi, button=button, chip_unit=unit)
    units, rest = divmod(amount, unit)
    half = units // 2
    half_amount = half * unit
    extra = (units - 2 * half) * unit + rest
    hi_amount, lo_amount = half_amount, half_amount
    odd: list[int] = []
    if extra and settings.hilo_odd_chip == "to_high":
        hi_amount += extra  # TDA-20c: the odd chip of the whole pot goes to the high half
        extra = 0
    hi_shares, hi_odd = split_amount(hi_amount, hi, button=button, chip_unit=unit)
    lo_shares, lo_odd = split_amount(lo_amount, lo, button=button, chip_unit=unit)
    shares: dict[int, int] = {}
    for part in (hi_shares, lo_shares):
        for s, v in part.items():
            shares[s] = shares.get(s, 0) + v
    if extra:
        # Cash 'Piatti divisi a Omaha Hi/Lo': to the winner nearest the small blind, clockwise.
        seat = clockwise_from(button, [*hi, *lo])[0]
        shares[seat] += extra
        odd.append(seat)
    if hi_amount > half_amount and len(hi) == 1:
        odd.append(hi[0])
    for s in (*hi_odd, *lo_odd):
        if s not in odd:
            odd.append(s)
    return shares, odd

"""Uncalled bets, main and side pots, and splitting a pot with odd chips (§13, §14.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: its amount and the seats eligible to win it (ascending)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """Return the case-format shape {amount, eligible}."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


def uncalled(contributions: Mapping[int, int]) -> tuple[int | None, int]:
    """Return (seat, amount) of the unmatched part of the largest contribution (R-POT-1).

    Folded players' contributions count as matching; (None, 0) when the top two are equal.
    """
    if len(contributions) < 2:
        return None, 0
    ranked = sorted(contributions.items(), key=lambda kv: kv[1], reverse=True)
    (top_seat, top), (_, second) = ranked[0], ranked[1]
    return (top_seat, top - second) if top > second else (None, 0)


def build_pots(
    contributions: Mapping[int, int],
    *,
    live: set[int],
    all_in: set[int],
    dead: int = 0,
) -> tuple[tuple[Pot, ...], dict[int, int]]:
    """Return the pots in formation order (main first) and the uncalled chips returned.

    Algorithm of in-hand.md §13.3: return the uncalled excess (R-POT-1); cut levels at each
    live all-in player's contribution and at the largest one (R-POT-2); dead money (BBA ante,
    dead posts, a starting pot) goes to the main pot (R-ANTE-3); neighbouring pots with the
    same eligible players are merged; a level nobody live reaches is merged into the pot below.
    """
    t = dict(contributions)
    returned: dict[int, int] = {}
    seat, extra = uncalled(t)
    if seat is not None:
        t[seat] -= extra
        returned[seat] = extra
    top = max(t.values(), default=0)
    levels = sorted({t[s] for s in all_in if s in live} | {top})
    raw: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels:
        amount = sum(min(v, level) - min(v, prev) for v in t.values())
        eligible = tuple(sorted(s for s in live if t[s] >= level))
        raw.append((amount, eligible))
        prev = level
    if raw:
        raw[0] = (raw[0][0] + dead, raw[0][1])
    else:
        raw.append((dead, tuple(sorted(live))))
    merged: list[tuple[int, tuple[int, ...]]] = []
    for amount, eligible in raw:
        if merged and (not eligible or merged[-1][1] == eligible):
            merged[-1] = (merged[-1][0] + amount, merged[-1][1])
        elif amount or not merged:
            merged.append((amount, eligible))
    if merged and not merged[0][1]:
        # Every player who reached the top level has folded (out of turn, TDA-53a) and no
        # live player is all-in: the chips are dead money for the live players.
        merged[0] = (merged[0][0], tuple(sorted(live)))
    pots = tuple(Pot(a, e) for a, e in merged if a > 0 or len(merged) == 1)
    return pots, returned


def clockwise_from(button: int, seats: Sequence[int]) -> list[int]:
    """Return seats ordered clockwise starting with the first seat left of the button."""
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


def split_amount(
    amount: int, winners: Sequence[int], *, button: int, chip_unit: int = 1
) -> tuple[dict[int, int], list[int]]:
    """Split an amount equally; odd chips go one each clockwise from the button (TDA-20a).

    Returns (shares, odd-chip recipients). Odd chips are first broken down to `chip_unit`
    (TDA-20); a remainder smaller than one unit goes with the first odd chip.
    """
    order = clockwise_from(button, winners)
    units, rest = divmod(amount, chip_unit)
    each, odd = divmod(units, len(order))
    shares = dict.fromkeys(order, each * chip_unit)
    recipients: list[int] = []
    for seat in order[:odd]:
        shares[seat] += chip_unit
        recipients.append(seat)
    if rest:
        shares[order[0]] += rest
        if order[0] not in recipients:
            recipients.append(order[0])
    return shares, recipients

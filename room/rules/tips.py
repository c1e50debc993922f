"""The night's tips pool (the tronc) split among the dealers' shifts, in integer cents.

Each share is the pool times the shift's weight over all weights, rounded down; the cents
left over (fewer than there are shifts) go one each to the shifts with the largest cut-off
fractions, the larger weight first on a tie, then the one listed first (the caller lists shifts by clock-in): the largest-remainder
rule, so the shares always add up to the pool exactly and no share moves by more than a
cent from its exact value. A shift of weight 0 (no minute on the box) gets nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

BY_MINUTES = "minutes"  # weight: minutes on the box
EQUAL = "shifts"  # weight: 1 for every shift that dealt at all


def weights(minutes: Mapping[Hashable, int], split: str) -> dict[Hashable, int]:
    """Each shift's weight under the room's split, from its minutes on the box."""
    if split == EQUAL:
        return {key: 1 if m > 0 else 0 for key, m in minutes.items()}
    return {key: max(0, m) for key, m in minutes.items()}


def split_pool(amount: int, weight: Mapping[Hashable, int]) -> dict[Hashable, int]:
    """`amount` cents shared by `weight`; nobody gets anything when no weight is above 0
    (the pool then stays undivided: the caller shows it so)."""
    if amount < 0:
        raise ValueError("a tips pool is never negative")
    total = sum(w for w in weight.values() if w > 0)
    if total == 0:
        return dict.fromkeys(weight, 0)
    shares: dict[Hashable, int] = {}
    fractions: list[tuple[int, int, int, Hashable]] = []
    for order, (key, w) in enumerate(weight.items()):
        w = max(0, w)
        share, rest = divmod(amount * w, total)
        shares[key] = share
        if w:
            fractions.append((-rest, -w, order, key))
    left = amount - sum(shares.values())
    for _rest, _w, _order, key in sorted(fractions)[:left]:
        shares[key] += 1
    return shares

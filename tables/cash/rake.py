"""The rake (cash-room.md §12): uncalled bets back, pots built, rake by pot, awards."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tables.cash.settings import DEFAULTS, SRC, CashSettings, RakeRounding
from tables.engine.pots import build_pots

RULE_RAKE = f'{SRC} "Rake (cagnotte)"'
RULE_TIES = f'{SRC} "Pareggi"'


@dataclass(frozen=True)
class Contribution:
    """All the live chips one player put in during the hand."""

    player: str
    amount: int
    folded: bool = False
    all_in: bool = False


@dataclass(frozen=True)
class RakedPot:
    amount: int  # before rake
    eligible: tuple[str, ...]
    rake: int

    @property
    def net(self) -> int:
        return self.amount - self.rake


@dataclass(frozen=True)
class RakeResult:
    uncalled_returned: int
    uncalled_returned_to: str | None
    pots: tuple[RakedPot, ...]
    rake_total: int
    awards: Mapping[str, int] | None
    rules: tuple[str, ...]


def round_euros(value: Fraction, how: RakeRounding) -> int:
    """Round a rake to the whole euro: half_up (.50 up), down or up (§12.3)."""
    if how == "down":
        return math.floor(value)
    if how == "up":
        return math.ceil(value)
    return math.floor(value + Fraction(1, 2))


def rake_of(total: int, settings: CashSettings = DEFAULTS) -> int:
    """Return the rake on `total` chips: percentage, rounded, then capped (§12.3)."""
    raw = round_euros(Fraction(str(settings.rake_percent)) * total / 100, settings.rake_rounding)
    return raw if settings.rake_cap is None else min(settings.rake_cap, raw)


def compute_rake(
    *,
    contributions: Sequence[Contribution],
    flop_dealt: bool,
    dead_money: int = 0,
    winners: Sequence[Sequence[str]] | None = None,
    settings: CashSettings = DEFAULTS,
) -> RakeResult:
    """Rake a hand by the normative algorithm of §12.5; split each pot's net among `winners`.

    `winners` has one list per pot (main first); odd chips of a split go one each to the
    winners in the order listed (the caller lists them clockwise from the button, §12.6).
    """
    index = {c.player: k for k, c in enumerate(contributions)}
    names = {k: c.player for k, c in enumerate(contributions)}
    amounts = {index[c.player]: c.amount for c in contributions}
    live = {index[c.player] for c in contributions if not c.folded}
    all_in = {index[c.player] for c in contributions if c.all_in}
    built, returned = build_pots(amounts, live=live, all_in=all_in, dead=dead_money)
    back_to, back = next(iter(returned.items()), (None, 0))
    rules = [RULE_RAKE]
    raked: list[RakedPot] = []
    running, taken = 0, 0
    for pot in built:
        running += pot.amount
        # Step 3 no flop no drop; step 4 the running total C_j, rake = C_j - C_(j-1).
        upto = rake_of(running, settings) if flop_dealt or not settings.no_flop_no_drop else 0
        raked.append(RakedPot(pot.amount, tuple(names[s] for s in pot.eligible), upto - taken))
        taken = upto
    awards: dict[str, int] | None = None
    if winners is not None:
        rules.append(RULE_TIES)
        awards = {c.player: 0 for c in contributions}
        for share, pot_winners in zip(raked, winners, strict=False):
            each, odd = divmod(share.net, len(pot_winners))
            for k, name in enumerate(pot_winners):
                awards[name] = awards.get(name, 0) + each + (1 if k < odd else 0)
    return RakeResult(
        uncalled_returned=back,
        uncalled_returned_to=None if back_to is None else names[back_to],
        pots=tuple(raked),
        rake_total=taken,
        awards=awards,
        rules=tuple(rules),
    )

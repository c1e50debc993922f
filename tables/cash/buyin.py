"""Buy-ins and table stakes (cash-room.md §10): the desk's buy-in check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tables.cash.settings import DEFAULTS, SRC, SRC_004, CashSettings, Structure

BuyInKind = Literal[
    "new", "table_change_on_request", "moved_by_house", "from_closed_table", "seated"
]
BuyInRefusal = Literal[
    "hand_in_progress",
    "below_min_buy_in",
    "below_limit_minimum_purchase",
    "short_buy_in_used",
    "below_earlier_cash_out",
    "above_max_buy_in",
]

RULE_BETWEEN_HANDS = f'{SRC} "Etichetta del poker" i'
RULE_MIN = f'{SRC} "Buy in"'
RULE_LIMIT = f'{SRC} "Limit"'
RULE_SHORT = f'{SRC} "Buy in"'
RULE_RATHOLE = f"{SRC_004} §15"
RULE_MAX = "cash-room.md §10.1 max_buy_in [not in sources]"


@dataclass(frozen=True)
class Game:
    structure: Structure
    bb: int
    min_buy_in: int
    max_buy_in: int | None = None


@dataclass(frozen=True)
class BuyInDecision:
    allowed: bool
    stack_after: int
    short_buy_in: bool
    reason: BuyInRefusal | None
    rule: str


def minimum(game: Game, settings: CashSettings = DEFAULTS) -> int:
    """Return the game's minimum buy-in; in limit at least limit_min_buy_in_bb BB (§10.1)."""
    if game.structure == "limit":
        return max(game.min_buy_in, settings.limit_min_buy_in_bb * game.bb)
    return game.min_buy_in


def check_buy_in(
    *,
    game: Game,
    kind: BuyInKind,
    stack: int,
    amount: int,
    short_buy_ins_used: int = 0,
    earlier_cash_out: int | None = None,
    between_hands: bool = True,
    settings: CashSettings = DEFAULTS,
) -> BuyInDecision:
    """Apply the buy-in check of §10.3 (normative order); the first failing check is the reason."""
    least = minimum(game, settings)
    total = stack + amount
    limit = game.structure == "limit"
    new = kind in ("new", "table_change_on_request")

    def refuse(reason: BuyInRefusal, rule: str) -> BuyInDecision:
        return BuyInDecision(False, stack, False, reason, rule)

    if amount > 0 and not between_hands:
        return refuse("hand_in_progress", RULE_BETWEEN_HANDS)
    if new and total < least:
        return refuse("below_min_buy_in", RULE_MIN)
    if limit and not new and 0 < amount < settings.limit_min_buy_in_bb * game.bb:
        return refuse("below_limit_minimum_purchase", RULE_LIMIT)
    short = not limit and not new and amount > 0 and total < least
    if short and short_buy_ins_used >= settings.short_buy_ins_per_session:
        return refuse("short_buy_in_used", RULE_SHORT)
    if (
        settings.rathole_rule
        and kind == "new"
        and earlier_cash_out is not None
        and earlier_cash_out > least
        and total < earlier_cash_out
    ):
        return refuse("below_earlier_cash_out", RULE_RATHOLE)
    if game.max_buy_in is not None and amount > 0 and total > game.max_buy_in:
        return refuse("above_max_buy_in", RULE_MAX)
    return BuyInDecision(True, total, short, None, RULE_SHORT if short else RULE_MIN)

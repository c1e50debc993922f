"""Results and payout lines shared by both games; amounts are exact (no rounding rule)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .errors import BetError


def amount_of(value: object, what: str = "amount") -> Decimal:
    """Read a stake as an exact Decimal; refuse negatives, non-numbers and booleans."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise BetError(f"{what} {value!r} is not a number", reasons=("malformed_bet",))
    try:
        out = Decimal(str(value))
    except ArithmeticError as exc:
        raise BetError(f"{what} {value!r} is not a number", reasons=("malformed_bet",)) from exc
    if not out.is_finite() or out < 0:
        raise BetError(f"{what} {value!r} is not a stake", reasons=("malformed_bet",))
    return out


@dataclass(frozen=True)
class Line:
    """One part of a bet's settlement: `net` is + when paid, - when collected."""

    part: str  # hand | insurance | niwin | bet | excess
    stake: Decimal
    outcome: str  # win | lose | push | surrender | even_money | returned | void
    net: Decimal
    rule: str
    hand: int | None = None


@dataclass(frozen=True)
class BetResult:
    bet_id: str
    player: str
    lines: tuple[Line, ...]

    @property
    def net(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal(0))

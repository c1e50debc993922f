"""Punto banco by the Casinò Sanremo rulebook (PB, version 2 of 17 Oct 2023).

`deal` applies the drawing rules of PB Art.14 to the cards in shoe order; `settle_coup`
settles every bet (Punto, Banco, Égalité, Winning Number) with the rule id that decides it.
No commission: Banco pays 1:1, half when it wins with 6 (PB Art.8.1). Amounts are exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .cards import Card, check_six_decks
from .errors import BetError, InvalidCoup
from .money import BetResult, Line
from .shoe import last_coup_void
from .trail import Step

KINDS = ("punto", "banco", "egalite", "winning_number")
# PB Art.6.4: Winning Number odds by the winning hand's total
WINNING_NUMBER_ODDS: dict[int, Decimal] = {
    1: Decimal(85),
    2: Decimal(45),
    3: Decimal(30),
    4: Decimal(16),
    5: Decimal(12),
    6: Decimal("6.5"),
    7: Decimal("4.5"),
    8: Decimal(3),
    9: Decimal("2.5"),
}
EGALITE_ODDS = Decimal(8)  # PB Art.8.1


def total(cards: Sequence[Card]) -> int:
    """The units digit of the sum of the values (PB Art.5.6, Art.14)."""
    return sum(c.pb_value for c in cards) % 10


def banco_draws(banco: int, third: int | None) -> bool:
    """The TABELLA DELLA REGOLA (PB Art.14): row Banco's total, column Punto's third card
    value or None when Punto stood (column NO)."""
    if banco <= 2:
        return True
    if banco >= 7:
        return False
    if third is None:
        return banco <= 5
    if banco == 3:
        return third != 8
    if banco == 4:
        return 2 <= third <= 7
    if banco == 5:
        return 4 <= third <= 7
    return third in (6, 7)  # banco 6


@dataclass(frozen=True)
class PBHand:
    cards: tuple[Card, ...]
    natural: bool
    drew: bool

    @property
    def total(self) -> int:
        return total(self.cards)


@dataclass(frozen=True)
class Deal:
    punto: PBHand
    banco: PBHand
    winner: str  # punto | banco | egalite
    unused: tuple[Card, ...]
    steps: tuple[Step, ...]


def needed_cards(cards: Sequence[Card]) -> int:
    """How many cards the rule uses, as far as the listed cards show (at least 4)."""
    if len(cards) < 4:
        return 4
    p, b = total([cards[0], cards[2]]), total([cards[1], cards[3]])
    if p >= 8 or b >= 8:
        return 4
    n, third = 4, None
    if p <= 5:
        n = 5
        if len(cards) < 5:
            return 5
        third = cards[4].pb_value
    return n + 1 if banco_draws(b, third) else n


def deal(cards: Sequence[Card]) -> Deal:
    """Apply the drawing rules to the cards in shoe order (burnt cards excluded).

    Cards 1 and 3 are Punto's, 2 and 4 Banco's (PB Art.5.3); surplus cards are reported in
    `unused`, not part of the coup (PB Art.9.5, Art.9.7). Raises InvalidCoup
    (`insufficient_cards`) when the rule needs more cards than listed.
    """
    check_six_decks(cards)
    need = needed_cards(cards)
    if len(cards) < need:
        raise InvalidCoup(
            f"the rule needs {need} cards, {len(cards)} listed", reasons=("insufficient_cards",)
        )
    steps: list[Step] = [
        Step(
            "pb.deal",
            "PB Art.5.3",
            {"p1": str(cards[0]), "b1": str(cards[1]), "p2": str(cards[2]), "b2": str(cards[3])},
        )
    ]
    punto, banco = [cards[0], cards[2]], [cards[1], cards[3]]
    p2, b2 = total(punto), total(banco)
    p_nat, b_nat = p2 >= 8, b2 >= 8
    used = 4
    p_drew = b_drew = False
    if p_nat or b_nat:
        side = "punto" if p_nat and (not b_nat or p2 >= b2) else "banco"
        steps.append(Step("pb.natural", "PB Art.5.7", {"side": side, "total": str(max(p2, b2))}))
    else:
        third: int | None = None
        if p2 <= 5:
            punto.append(cards[used])
            used += 1
            p_drew = True
            third = punto[2].pb_value
            steps.append(
                Step("pb.punto_draws", "PB Art.14", {"total": str(p2), "card": str(punto[2])})
            )
        else:
            steps.append(Step("pb.punto_stands", "PB Art.14", {"total": str(p2)}))
        column = "NO" if third is None else str(third)
        if banco_draws(b2, third):
            banco.append(cards[used])
            used += 1
            b_drew = True
            steps.append(
                Step(
                    "pb.banco_draws",
                    "PB Art.14",
                    {"total": str(b2), "column": column, "card": str(banco[2])},
                )
            )
        else:
            steps.append(Step("pb.banco_stands", "PB Art.14", {"total": str(b2), "column": column}))
    pt, bt = total(punto), total(banco)
    winner = "punto" if pt > bt else "banco" if bt > pt else "egalite"
    steps.append(
        Step(
            "pb.totals",
            "PB Art.5.5" if winner != "egalite" else "PB Art.5.1",
            {"banco": str(bt), "punto": str(pt), "winner": winner},
        )
    )
    unused = tuple(cards[used:])
    if unused:
        steps.append(Step("pb.unused", "PB Art.9.5", {"cards": " ".join(str(c) for c in unused)}))
    return Deal(
        punto=PBHand(tuple(punto), p_nat, p_drew),
        banco=PBHand(tuple(banco), b_nat, b_drew),
        winner=winner,
        unused=unused,
        steps=tuple(steps),
    )


@dataclass(frozen=True)
class PBBet:
    bet_id: str
    player: str
    on: str
    amount: Decimal
    number: int | None = None


@dataclass(frozen=True)
class PBLimits:
    minimum: Mapping[str, Decimal] = field(default_factory=dict)
    maximum: Mapping[str, Decimal] = field(default_factory=dict)


@dataclass(frozen=True)
class LastCoup:
    starts_with_cut_card: bool
    cards_behind_cut_card: int


@dataclass(frozen=True)
class Coup:
    deal: Deal
    void: bool
    results: tuple[BetResult, ...]
    steps: tuple[Step, ...]

    @property
    def winner(self) -> str:
        return "none" if self.void else self.deal.winner

    @property
    def house_net(self) -> Decimal:
        return -sum((r.net for r in self.results), Decimal(0))


def _validate(bets: Sequence[PBBet], limits: PBLimits | None) -> list[str]:
    reasons: list[str] = []
    for bet in bets:
        if bet.on not in KINDS:
            raise BetError(f"unknown bet kind {bet.on!r}", reasons=("malformed_bet",))
    if limits is not None and any(
        bet.on in limits.minimum and bet.amount < limits.minimum[bet.on] for bet in bets
    ):
        reasons.append("bet_below_minimum")  # PB Art.2.1
    if any(
        bet.on == "winning_number" and (bet.number is None or not 1 <= bet.number <= 9)
        for bet in bets
    ):
        reasons.append("winning_number_out_of_range")  # PB Art.6.3
    return reasons


def _settle_bet(bet: PBBet, d: Deal, void: bool, limits: PBLimits | None) -> BetResult:
    stake, lines = bet.amount, []
    cap = limits.maximum.get(bet.on) if limits is not None else None
    excess = None
    if cap is not None and stake > cap:
        excess = Line("excess", stake - cap, "returned", Decimal(0), "PB Art.2.3")
        stake = cap
    zero = Decimal(0)
    if void:
        lines.append(Line("bet", stake, "void", zero, "PB Art.11.1"))
    elif bet.on in ("punto", "banco"):
        if d.winner == "egalite":
            lines.append(Line("bet", stake, "push", zero, "PB Art.5.5"))
        elif d.winner == bet.on:
            half = bet.on == "banco" and d.banco.total == 6
            lines.append(Line("bet", stake, "win", stake / 2 if half else stake, "PB Art.8.1"))
        else:
            lines.append(Line("bet", stake, "lose", -stake, "PB Art.5.5"))
    elif bet.on == "egalite":
        if d.winner == "egalite":
            lines.append(Line("bet", stake, "win", stake * EGALITE_ODDS, "PB Art.8.1"))
        else:
            lines.append(Line("bet", stake, "lose", -stake, "PB Art.5.1"))
    else:
        winning_total = d.punto.total if d.winner == "punto" else d.banco.total
        if d.winner == "egalite":
            lines.append(Line("bet", stake, "push", zero, "PB Art.6.6"))
        elif bet.number == winning_total:
            odds = WINNING_NUMBER_ODDS[winning_total]
            lines.append(Line("bet", stake, "win", stake * odds, "PB Art.6.4"))
        else:
            lines.append(Line("bet", stake, "lose", -stake, "PB Art.6.3"))
    if excess is not None:
        lines.append(excess)
    return BetResult(bet.bet_id, bet.player, tuple(lines))


def settle_coup(
    cards: Sequence[Card],
    bets: Sequence[PBBet],
    *,
    limits: PBLimits | None = None,
    last_coup: LastCoup | None = None,
) -> Coup:
    """Settle one coup. Raises InvalidCoup with every failing check's reason code."""
    reasons = _validate(bets, limits)
    try:
        d = deal(cards)
    except InvalidCoup as exc:
        raise InvalidCoup(str(exc), reasons=(*reasons, *exc.reasons)) from exc
    if reasons:
        raise InvalidCoup("the coup can't be settled", reasons=tuple(reasons))
    steps = list(d.steps)
    void = last_coup is not None and last_coup_void(
        starts_with_cut_card=last_coup.starts_with_cut_card,
        cards_behind_cut_card=last_coup.cards_behind_cut_card,
    )
    if last_coup is not None and last_coup.starts_with_cut_card:
        steps.append(
            Step(
                "pb.last_coup_void" if void else "pb.last_coup_valid",
                "PB Art.11.1",
                {"behind": str(last_coup.cards_behind_cut_card)},
            )
        )
    # main bets first, then Winning Number (PB Art.6.5)
    ordered = [b for b in bets if b.on != "winning_number"] + [
        b for b in bets if b.on == "winning_number"
    ]
    results = tuple(_settle_bet(b, d, void, limits) for b in ordered)
    return Coup(deal=d, void=void, results=results, steps=tuple(steps))

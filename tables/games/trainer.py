"""The dealer trainer: random coups and the question a dealer must answer on them.

A question is rebuilt from its seed (`random.Random(seed)`, passed in), so a page only needs
to carry the seed; the expected answer and the rule that decides it come with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from . import blackjack as bj
from . import punto_banco as pb
from .cards import Card
from .deal import blackjack_round, punto_banco_coup
from .money import BetResult
from .shoe import Shoe
from .trail import Step

KINDS = ("pb_banco_draws", "pb_payout", "bj_payout")


@dataclass(frozen=True)
class Question:
    kind: str
    seed: int
    shown: dict[str, list[str]]  # what the trainee sees: named groups of cards
    bet: BetResult | None  # the bet asked about (payout questions), its lines hold the rule
    answer: str  # "yes" / "no", or the exact net payout
    rule: str
    params: dict[str, str]
    bet_info: dict[str, str] | None = None  # the bet asked about, as placed
    steps: tuple[Step, ...] = ()  # the whole coup's trail, shown after an answer


def _str(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cards]


def _money(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(value.quantize(Decimal(1)))
    return str(value.normalize())


def question(kind: str, seed: int) -> Question:
    """The question of one kind for a seed (same seed, same question)."""
    rng = random.Random(seed)
    shoe = Shoe.shuffled(rng)
    if kind == "bj_payout":
        dealer, boxes, niwin = blackjack_round(rng, shoe)
        # only the cards the Banco took: the trainee sees no annulled cards
        dealt = bj.settle_round(dealer, boxes, niwin).dealer.cards
        result = bj.settle_round(dealt, boxes, niwin)
        bet = rng.choice([r for r in result.results if r.bet_id.startswith("B")])
        box = next(b for b in boxes if any(x.bet_id == bet.bet_id for x in b.bets))
        shown = {"dealer": _str(result.dealer.cards)}
        for n, h in enumerate(box.hands, start=1):
            shown[f"hand:{n}:{'x2' if h.double else ''}"] = _str(h.cards)
        placed = next(x for x in box.bets if x.bet_id == bet.bet_id)
        info = {
            "box": str(box.box),
            "amount": _money(placed.amount),
            "behind": "yes" if placed is not box.bets[0] else "no",
            "option": "surrender"
            if placed.surrender or box.bets[0].surrender
            else "insurance"
            if placed.insurance
            else "even_money"
            if placed.even_money
            else "",
            "follow_split": "yes" if placed.follow_split else "no",
            "follow_double": "yes" if placed.follow_double else "no",
        }
        main = bet.lines[0]
        return Question(kind, seed, shown, bet, _money(bet.net), main.rule, {}, info, result.steps)
    cards, bets = punto_banco_coup(rng, shoe)
    coup = pb.settle_coup(cards, bets)
    d = coup.deal
    if kind == "pb_banco_draws":
        shown = {"punto": _str(d.punto.cards), "banco": _str(d.banco.cards[:2])}
        p2, b2 = pb.total(d.punto.cards[:2]), pb.total(d.banco.cards[:2])
        natural = p2 >= 8 or b2 >= 8
        column = str(d.punto.cards[2].pb_value) if d.punto.drew else "NO"
        rule = "PB Art.5.7" if natural else "PB Art.14"
        answer = "yes" if d.banco.drew else "no"
        params = {"total": str(b2), "column": column}
        return Question(kind, seed, shown, None, answer, rule, params, None, coup.steps)
    bet = rng.choice(coup.results)
    pb_bet = next(x for x in bets if x.bet_id == bet.bet_id)
    info = {
        "on": pb_bet.on,
        "number": "" if pb_bet.number is None else str(pb_bet.number),
        "amount": _money(pb_bet.amount),
    }
    shown = {"punto": _str(d.punto.cards), "banco": _str(d.banco.cards)}
    rule = bet.lines[0].rule
    return Question(kind, seed, shown, bet, _money(bet.net), rule, {}, info, coup.steps)


def check(q: Question, given: str) -> bool:
    """Whether the trainee's answer is right (payouts compared exactly, "12,5" = "12.5")."""
    text = given.strip().lower().replace(",", ".").replace("€", "").strip()
    if q.kind == "pb_banco_draws":
        yes = {"yes", "y", "si", "sì", "s", "t", "tira"}
        no = {"no", "n", "r", "resta"}
        return (text in yes and q.answer == "yes") or (text in no and q.answer == "no")
    try:
        return Decimal(text) == Decimal(q.answer)
    except ArithmeticError:
        return False

"""Deal random but legal coups from a shoe: for the dealer trainer and the property tests.

Randomness comes in as a `random.Random`; the player decisions are drawn from it too, within
what the rules allow, so every round dealt here is one `settle_round` must accept.
"""

from __future__ import annotations

import random
from decimal import Decimal

from . import blackjack as bj
from . import punto_banco as pb
from .cards import Card
from .shoe import Shoe

STAKES = (10, 20, 25, 50, 100, 150)


def _stake(rng: random.Random) -> Decimal:
    return Decimal(rng.choice(STAKES))


def punto_banco_coup(rng: random.Random, shoe: Shoe) -> tuple[list[Card], list[pb.PBBet]]:
    """The next coup's cards (exactly the ones the rule uses) and a few random bets."""
    cards = shoe.peek(6)
    used = pb.needed_cards(cards)
    cards = shoe.draw(used)
    bets: list[pb.PBBet] = []
    for i in range(rng.randint(1, 6)):
        on = rng.choice(pb.KINDS)
        number = rng.randint(1, 9) if on == "winning_number" else None
        bets.append(pb.PBBet(f"B{i + 1}", f"P{rng.randint(1, 4)}", on, _stake(rng), number))
    return cards, bets


def _play_hand(rng: random.Random, shoe: Shoe, cards: list[Card], *, may_double: bool) -> bool:
    """Finish one hand in place; return whether it was doubled."""
    if may_double and rng.random() < 0.15 and bj.total(cards).total < 21:
        cards.extend(shoe.draw(1))
        return True
    stop = rng.randint(12, 18)
    while bj.total(cards).total < stop:
        cards.extend(shoe.draw(1))
    return False


def blackjack_round(
    rng: random.Random, shoe: Shoe
) -> tuple[list[Card], list[bj.Box], list[bj.NiwinBet]]:
    """Deal one round in the order of BJ Art.6.2 and play every box with random choices."""
    n_boxes = rng.randint(2, 7)
    first = shoe.draw(n_boxes + 1)  # one card to every box and the Banco
    second = shoe.draw(n_boxes)  # one more to every box only
    up = first[-1]
    boxes: list[bj.Box] = []
    bet_no = 0
    for i in range(n_boxes):
        dealt = [first[i], second[i]]
        is_bj = bj.total(dealt).total == 21
        bets: list[bj.Bet] = []
        for j in range(rng.randint(1, 3)):
            bet_no += 1
            even = is_bj and (up.is_ace or up.bj_value == 10) and rng.random() < 0.3
            surrender = not is_bj and rng.random() < 0.08
            insurance = up.is_ace and not even and not surrender and rng.random() < 0.2
            if j > 0 and bets[0].surrender:
                surrender = insurance = False
            bets.append(
                bj.Bet(
                    f"B{bet_no}",
                    f"P{rng.randint(1, 9)}",
                    _stake(rng),
                    surrender=surrender,
                    insurance=insurance,
                    even_money=even,
                    follow_double=j > 0 and rng.random() < 0.5,
                    follow_split=j > 0 and rng.random() < 0.5,
                )
            )
        hands: list[tuple[list[Card], bool]] = []
        if is_bj or bets[0].surrender:
            hands = [(dealt, False)]
        elif dealt[0].bj_value == dealt[1].bj_value and rng.random() < 0.5:
            pending = [[dealt[0]], [dealt[1]]]
            if dealt[0].is_ace:  # BJ Art.6.4: once, one card each
                hands = [(h + shoe.draw(1), False) for h in pending]
            else:
                done: list[list[Card]] = []
                while pending:
                    h = pending.pop(0)
                    h.extend(shoe.draw(1))
                    if (
                        h[1].bj_value == h[0].bj_value
                        and len(done) + len(pending) + 1 < bj.MAX_HANDS
                        and rng.random() < 0.5
                    ):
                        pending.extend([[h[0]], [h[1]]])
                        continue
                    done.append(h)
                for h in done:
                    hands.append((h, _play_hand(rng, shoe, h, may_double=True)))
        else:
            hands = [(dealt, _play_hand(rng, shoe, dealt, may_double=True))]
        boxes.append(bj.Box(i + 1, tuple(bets), tuple(bj.Hand(tuple(c), d) for c, d in hands)))
    dealer = [up, *shoe.peek(8)]
    niwin = [
        bj.NiwinBet(
            f"N{k + 1}", f"P{rng.randint(1, 9)}", rng.choice(list(bj.NIWIN_ODDS)), _stake(rng)
        )
        for k in range(rng.choice((0, 0, 1, 2)))
    ]
    return dealer, boxes, niwin

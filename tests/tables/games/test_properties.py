"""Property tests over random shoes: every coup follows the drawing tables, and money is
conserved coup by coup (what the players lose is exactly what the house wins)."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.games import blackjack as bj
from tables.games import punto_banco as pb
from tables.games.deal import blackjack_round, punto_banco_coup
from tables.games.shoe import BURNT_CARDS, Shoe

# table-games.md §5.6, copied as a grid: row Banco's two-card total, columns Punto's third
# card 0..9 then NO (Punto stood). T = draws.
BANCO_TABLE = {
    0: "TTTTTTTTTTT",
    1: "TTTTTTTTTTT",
    2: "TTTTTTTTTTT",
    3: "TTTTTTTTRTT",
    4: "RRTTTTTTRRT",
    5: "RRRRTTTTRRT",
    6: "RRRRRRTTRRR",
    7: "RRRRRRRRRRR",
}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _pb(cards: list) -> int:
    return sum(c.pb_value for c in cards) % 10


def _conserved(results: tuple, house: Decimal) -> None:
    players = sum((r.net for r in results), Decimal(0))
    assert players + house == 0
    for r in results:
        for line in r.lines:
            # a player never loses more than the stake on a line
            assert line.net >= -line.stake
            assert line.stake >= 0


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_punto_banco_shoe(seed: int) -> None:
    rng = random.Random(seed)
    shoe = Shoe.shuffled(rng)
    assert shoe.position == BURNT_CARDS
    while shoe.remaining >= 6:
        cards, bets = punto_banco_coup(rng, shoe)
        coup = pb.settle_coup(cards, bets)
        p, b = list(coup.deal.punto.cards), list(coup.deal.banco.cards)
        # PB Art.5.3: 1st and 3rd to Punto, 2nd and 4th to Banco
        assert [p[0], b[0], p[1], b[1]] == cards[:4]
        assert coup.deal.unused == ()
        p2, b2 = _pb(p[:2]), _pb(b[:2])
        if p2 >= 8 or b2 >= 8:
            assert len(p) == len(b) == 2
        else:
            assert (len(p) == 3) == (p2 <= 5)
            column = p[2].pb_value if len(p) == 3 else 10
            assert (len(b) == 3) == (BANCO_TABLE[b2][column] == "T")
        pt, bt = _pb(p), _pb(b)
        assert coup.winner == ("punto" if pt > bt else "banco" if bt > pt else "egalite")
        _conserved(coup.results, coup.house_net)
        for bet, result in zip(
            sorted(bets, key=lambda x: x.bet_id),
            sorted(coup.results, key=lambda r: r.bet_id),
            strict=True,
        ):
            assert result.bet_id == bet.bet_id
            if bet.on == "banco" and coup.winner == "banco":
                assert result.net == (bet.amount / 2 if bt == 6 else bet.amount)


def _dealer_ok(hand: bj.DealerHand, listed: list) -> None:
    assert list(hand.cards) + list(hand.annulled) == listed
    if hand.completed:
        for i in range(1, len(hand.cards)):
            assert bj.total(hand.cards[:i]).total <= 16  # BJ Art.6.7: draws on 16 or less
        assert hand.value.total >= 17  # stands above 16 (soft 17 included)
    else:
        assert len(hand.cards) == 1


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_blackjack_shoe(seed: int) -> None:
    rng = random.Random(seed)
    shoe = Shoe.shuffled(rng)
    while shoe.remaining >= 60:
        dealer, boxes, niwin = blackjack_round(rng, shoe)
        result = bj.settle_round(dealer, boxes, niwin)
        _dealer_ok(result.dealer, dealer)
        shoe.draw(len(result.dealer.cards) - 1)
        _conserved(result.results, result.house_net)
        bets = {b.bet_id for box in boxes for b in box.bets} | {n.bet_id for n in niwin}
        assert {r.bet_id for r in result.results} == bets
        for r in result.results:
            for line in r.lines:
                if line.outcome == "lose":
                    assert line.net == -line.stake
                if line.outcome == "push":
                    assert line.net == 0
        for view in result.hands:
            if view.bust:  # BJ Art.1.2: a hand over 21 has lost, whatever the dealer does
                box = boxes[view.box - 1]
                commander = box.bets[0]
                line = next(x for x in result.results if x.bet_id == commander.bet_id)
                assert any(x.hand == view.hand and x.outcome == "lose" for x in line.lines)


def test_blackjack_dealer_draw_table() -> None:
    """Every two-card start: the dealer stands on 17-21 (soft 17 too), draws on 16 or less."""
    from tables.games.cards import RANKS, Card

    for a in RANKS:
        for b in RANKS:
            two = [Card(a, "s"), Card(b, "h")]
            filler = [Card("2", "c")] * 5 + [Card("T", "d")] * 3
            hand = bj.dealer_hand([*two, *filler])
            t = bj.total(two).total
            if t >= 17:
                assert list(hand.cards) == two
            else:
                assert len(hand.cards) > 2

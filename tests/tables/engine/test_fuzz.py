"""Fuzz the Hand with random, often invalid, events: only EngineErrors may escape, chips are
conserved, a refused event changes nothing, and every hand can be finished."""

import json
import random

import pytest

from tables.engine import (
    Action,
    EngineError,
    EngineSettings,
    ExtraPost,
    Hand,
    SeatStack,
    TableSetup,
)
from tables.engine.settings import _CHOICES

KINDS = [
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "all_in",
    "complete",
    "timeout",
    "chips",
    "declare",
]
WORDS = ["raise", "bet", "pot", "call", "check", "fold", "all in", "complete", "raise 900", "1400",
         "bet 50", "hello"]  # fmt: skip
CHIPS = [5, 25, 100, 500, 1000, 5000]


def random_hand(rng):
    n = rng.randint(2, 7)
    seats = sorted(rng.sample(range(1, 10), n))
    game = rng.choice(["NL", "PL", "L"])
    street = rng.choice(["preflop", "preflop", "flop", "turn", "river"])
    sb = rng.choice([25, 50, 100])
    posts = ()
    if street == "preflop" and n > 3 and rng.random() < 0.2:
        posts = (ExtraPost(rng.choice(seats), live=2 * sb, dead=sb, kind="missed_blinds"),)
    setup = TableSetup(
        players=tuple(SeatStack(s, rng.choice([0, 30, 150, 1200, 8000])) for s in seats),
        button=rng.randint(1, 9),
        sb=sb,
        bb=2 * sb,
        game=game,
        ante=rng.choice([0, 10, 100]),
        ante_mode=rng.choice(["none", "each", "bba"]),
        small_bet=2 * sb if game == "L" else None,
        big_bet=4 * sb if game == "L" else None,
        street=street,
        pot=0 if street == "preflop" else rng.choice([0, 300]),
        extra_posts=posts,
    )
    settings = EngineSettings(**{k: rng.choice(v) for k, v in _CHOICES.items()})
    return Hand(setup, settings)


def random_action(rng, hand):
    seat = hand.next_to_act if rng.random() < 0.8 and hand.next_to_act else rng.choice(hand.seats)
    kind = rng.choice(KINDS)
    if kind in ("bet", "raise"):
        return Action(seat, kind, to=rng.randint(0, 9000))
    if kind == "chips":
        return Action(
            seat,
            "chips",
            chips=tuple(rng.choice(CHIPS) for _ in range(rng.randint(1, 5))),
            declared=rng.choice([None, None, "raise", "bet", "call", "all_in", "pot"]),
            declared_to=rng.choice([None, None, rng.randint(0, 5000)]),
        )
    if kind == "declare":
        return Action(seat, "declare", words=rng.choice(WORDS))
    if kind == "fold" and rng.random() < 0.2:
        return Action(seat, "fold", forfeit=rng.choice([0, 100]))
    return Action(seat, kind)


def total_chips(hand):
    return sum(hand.stack(s) for s in hand.seats) + hand.pot_total()


@pytest.mark.parametrize("seed", range(300))
def test_fuzz(seed):
    rng = random.Random(seed)
    hand = random_hand(rng)
    start = total_chips(hand)
    for _ in range(60):
        if hand.betting_over:
            break
        before = json.dumps(hand.to_dict())
        try:
            hand.act(random_action(rng, hand))
        except EngineError:
            assert json.dumps(hand.to_dict()) == before
        assert total_chips(hand) == start
        if hand.next_to_act is not None:
            assert not hand.is_folded(hand.next_to_act) and hand.stack(hand.next_to_act) > 0
    for _ in range(100):  # finish the hand by calling / checking
        if hand.betting_over:
            break
        seat = hand.next_to_act
        try:
            hand.act(Action(seat, "call"))
        except EngineError:
            hand.act(Action(seat, "fold"))
    assert hand.betting_over
    assert Hand.from_dict(json.loads(json.dumps(hand.to_dict()))).pots() == hand.pots()
    assert sum(p.amount for p in hand.pots()) + sum(hand.uncalled_returned().values()) == (
        hand.pot_total()
    )

"""Differential test: pokerkit is an independent oracle for pots, side pots and final stacks.

Random fully-specified no-limit and pot-limit hold'em hands are played through pokerkit and
the engine side by side (same seats, cards and actions); the turn order, every bet amount and
the final stacks must agree. pokerkit is a test dependency only; tables/engine never imports it.

Differences documented in in-hand.md, accounted for here rather than silenced:
* Odd chips (R-SD-9, R-POT-3): the engine splits each pot on its own and gives one odd chip
  each clockwise from the button; pokerkit merges pots that the same hands contest once the
  losers are killed, and gives the whole remainder to the first winner. The expected pokerkit
  stacks are derived from the engine's own awards with pokerkit's splitting, then compared
  exactly; the two may differ by at most one chip per pot.
* Big-blind ante (R-ANTE-2/3): the engine keeps the BBA as dead money in the main pot. pokerkit
  agrees only with ante trimming off (with trimming on it hands the unmatched ante back), so the
  oracle runs untrimmed, as the WSOP PHH files do. Ante priority for a short big blind and the
  nominal big blind as the bet (R-BLIND-3) are engine rules pokerkit does not share: deals where
  a blind or the BBA cannot be posted in full are not generated (the conformance cases
  sb-short-all-in-on-post and bba-* cover them).
* Raises: an amount is only used when both sides allow it (the engine applies TDA-47a
  reopening; when only one side allows a raise the player calls instead), so the stacks test
  the pot arithmetic, not the two libraries' raise permissions.

ENGINE_DIFF_HANDS (environment) sets the number of hands; CI runs the default.
"""

import os
import random
from dataclasses import replace

import pytest
from pokerkit import Automation, NoLimitTexasHoldem
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from tables.engine import Action, Hand
from tables.engine.phh import setup_from_phh
from tables.engine.pots import clockwise_from

HANDS = int(os.environ.get("ENGINE_DIFF_HANDS", "1000"))
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """pokerkit ships no pot-limit hold'em class; its parts make one."""


DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def random_deal(rng):
    n = rng.randint(2, 6)
    sb = rng.choice([1, 5, 25, 50])
    bb = sb * 2
    ante_mode = rng.choice(["none", "none", "each", "bba"])
    ante = {"none": 0, "each": rng.choice([1, sb]), "bba": bb}[ante_mode]
    floor = ante + bb + 1 if ante_mode != "bba" else 2 * ante + bb + 1
    stacks = [
        rng.choice([rng.randint(floor, 20 * bb), rng.randint(floor, 200 * bb)]) for _ in range(n)
    ]
    antes = [0] * n
    if ante_mode == "each":
        antes = [ante] * n
    elif ante_mode == "bba":
        antes[1] = ante
    return {
        "variant": rng.choice(["NT", "NT", "PT"]),
        "antes": antes,
        "blinds_or_straddles": [sb, bb] + [0] * (n - 2),
        "min_bet": bb,
        "starting_stacks": stacks,
    }


def pokerkit_state(deal):
    game = NoLimitTexasHoldem if deal["variant"] == "NT" else PotLimitTexasHoldem
    # No ante trimming: the BBA stays in the pot (as in the WSOP PHH files).
    return game(AUTOMATIONS, False, deal["antes"], deal["blinds_or_straddles"], deal["min_bet"])(
        deal["starting_stacks"], len(deal["starting_stacks"])
    )


def engine_hand(deal):
    setup = setup_from_phh({**deal, "variant": "NT"})  # same seats and posts as pokerkit
    return Hand(replace(setup, game="NL" if deal["variant"] == "NT" else "PL"))


def choose(rng, state, hand, seat):
    """Pick an action both sides allow: (kind, amount)."""
    roll = rng.random()
    facing = hand.to_call(seat) > 0
    if roll < 0.15 and facing:
        return "fold", None
    if roll < 0.55 and state.can_complete_bet_or_raise_to() and hand.can_raise(seat):
        pk_lo = state.min_completion_betting_or_raising_to_amount
        pk_hi = state.max_completion_betting_or_raising_to_amount
        all_in = hand.committed(seat) + hand.stack(seat)
        lo = max(pk_lo, min(hand.min_raise_to(seat), all_in))
        hi = min(pk_hi, hand.max_raise_to(seat), all_in)
        if lo <= hi:
            pick = rng.random()
            amount = lo if pick < 0.4 else hi if pick < 0.7 else rng.randint(lo, hi)
            return "raise", amount
    return "call", None


def pokerkit_expected(hand):
    """The engine's result re-split the way pokerkit splits, everything else exact.

    pokerkit first kills every hand that wins nothing, so pots whose remaining contenders are
    the same merge into one before splitting, and it gives the whole remainder of a split to
    the first winner. The engine splits each pot on its own (R-POT-3) and gives one odd chip
    each clockwise from the button (R-SD-9). Only the odd chips can move between the stacks.
    """
    result = hand.result()
    stacks = {s: hand.stack(s) + result.returned.get(s, 0) for s in hand.seats}
    alive = {s for pot in result.awards for s in pot.winners}
    merged = []  # [contenders, amount, winners]
    for pot in result.awards:
        contenders = tuple(sorted(set(pot.eligible) & alive))
        if merged and merged[-1][0] == contenders:
            merged[-1][1] += pot.amount
        else:
            merged.append([contenders, pot.amount, pot.winners])
    for _, amount, pot_winners in merged:
        winners = clockwise_from(hand.setup.button, pot_winners)
        each, rest = divmod(amount, len(winners))
        for s in winners:
            stacks[s] += each
        stacks[winners[0]] += rest
    engine = result.final_stacks
    assert all(abs(stacks[s] - engine[s]) <= len(result.awards) for s in stacks)
    return stacks


def play(seed):
    rng = random.Random(seed)
    deal = random_deal(rng)
    state = pokerkit_state(deal)
    hand = engine_hand(deal)
    n = len(deal["starting_stacks"])
    cards = rng.sample(DECK, 2 * n + 5)
    holes = [cards[2 * i : 2 * i + 2] for i in range(n)]
    board = cards[2 * n :]
    for i, hole in enumerate(holes):
        hand.deal_hole(i + 1, hole)
    dealt_board = 0
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_hole():
            state.deal_hole("".join(holes[state.hole_dealee_index]))
        elif state.can_deal_board():
            count = 3 if dealt_board == 0 else 1
            new = board[dealt_board : dealt_board + count]
            state.deal_board("".join(new))
            hand.deal_board(new)
            dealt_board += count
        elif state.actor_index is not None:
            seat = state.actor_index + 1
            assert hand.next_to_act == seat, f"seed {seed}: turn order differs"
            kind, amount = choose(rng, state, hand, seat)
            if kind == "fold":
                state.fold()
                hand.act(Action(seat, "fold"))
            elif kind == "call":
                state.check_or_call()
                hand.act(Action(seat, "call"))
            else:
                state.complete_bet_or_raise_to(amount)
                ruling = hand.act(Action(seat, "raise", to=amount))
                assert ruling.to == amount, f"seed {seed}: engine made it {ruling.to}"
        else:  # pragma: no cover - automations finish the hand
            break
    assert hand.betting_over, f"seed {seed}: engine still expects action"
    engine_final = hand.final_stacks()
    assert sum(engine_final.values()) == sum(deal["starting_stacks"])
    expected = pokerkit_expected(hand)
    got = {i + 1: v for i, v in enumerate(state.stacks)}
    assert got == expected, f"seed {seed}: pokerkit {got}, engine {expected} ({deal})"
    return hand


@pytest.mark.parametrize("block", range(10))
def test_random_hands_match_pokerkit(block):
    per_block = HANDS // 10
    split = side_pots = 0
    for seed in range(block * per_block, (block + 1) * per_block):
        result = play(seed).result()
        split += any(len(a.winners) > 1 for a in result.awards)
        side_pots += len(result.awards) > 1
    # The generator must reach split pots and side pots, or the comparison proves little
    # (about 5% and 60% of the hands with the default count).
    if per_block >= 100:
        assert split > 0 and side_pots > per_block // 4

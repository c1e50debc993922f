"""The jackpot judgements agree with an independent evaluator, pokerkit, on every qualifier.

10,000 claimed hands (a fixed seed; hold'em and Omaha) are judged twice: by
`judge_bad_beat` / `judge_high_hand` (the engine's phevaluator ranks) and by pokerkit's hand
lookup, and every qualifier must agree — the loser reaching the minimum hand, both hole
cards playing (loser and winner), the winner beating the loser, the high hand reaching its
minimum and beating or tying the current one. A share of the deals come from decks of a few
ranks or of one suit, so full houses, quads and straight flushes are frequent and every
qualifier is both met and missed many times (counted and asserted).

pokerkit side: the strength of a five is `StandardLookup.get_entry(five).index` (greater is
stronger), remembered per (sorted ranks, one suit) — the very key pokerkit's lookup hashes
on — so 10,000 hands take seconds. Best hands are the maxima over the fives the game allows
(hold'em any five of seven; Omaha two hole and three board cards), cross-checked on a sample
against pokerkit's own `StandardHighHand.from_game` and `OmahaHoldemHand.from_game`. The
minimum and current hands are written here as real cards, not in the rules' notation.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations

from pokerkit import OmahaHoldemHand, StandardHighHand, StandardLookup

from tables.cash.jackpot import (
    BadBeatRule,
    ClaimedHand,
    HighHandRule,
    judge_bad_beat,
    judge_high_hand,
)
from tables.engine.ranking import holdem_rank

HANDS = 10_000
SEED = 20260158
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
HOLE = {"holdem": 2, "omaha": 4}

# The rules' notation and the same hand as cards, for pokerkit.
MINIMUMS = {
    "AAATT": "Ac Ad Ah Ts Tc",
    "AAA22": "Ac Ad Ah 2s 2c",
    "KKKQQ": "Kc Kd Kh Qs Qc",
    "TTT99": "Tc Td Th 9s 9c",
    "55544": "5c 5d 5h 4s 4c",
    "22223": "2c 2d 2h 2s 3c",
    "AAAAK": "Ac Ad Ah As Kc",
    "AKQJT": "Ac Kd Qh Js Tc",
    "AQT85s": "As Qs Ts 8s 5s",
    "T9876s": "Ts 9s 8s 7s 6s",
}
CURRENT = [None, *MINIMUMS.values(), "7c 7d 7h 7s 2c", "Kc Kd Kh 4s 4c", "6h 5h 4h 3h 2h"]

_LOOKUP = StandardLookup()
# A five's equivalence class for the memo: the product of its ranks' primes (the ranks as a
# multiset) and whether it is one suit.
_PRIME = dict(zip(RANKS, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))
_CARD = {c: (_PRIME[c[0]], 1 << SUITS.index(c[1])) for c in DECK}
_STRENGTH: dict[tuple[int, bool], int] = {}


def strength(five: tuple[str, ...]) -> int:
    """pokerkit's strength of five cards (greater is stronger)."""
    product, suits = 1, 15
    for card in five:
        prime, suit = _CARD[card]
        product *= prime
        suits &= suit
    key = (product, suits != 0)
    if key not in _STRENGTH:
        _STRENGTH[key] = _LOOKUP.get_entry("".join(five)).index
    return _STRENGTH[key]


def fives(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The fives the game lets a player make: Omaha two hole and three board cards."""
    if game == "omaha":
        return [two + three for two in combinations(hole, 2) for three in combinations(board, 3)]
    return list(combinations(hole + board, 5))


@lru_cache(maxsize=8)  # the same hand is asked for again within one claim
def best(
    game: str, hole: tuple[str, ...], board: tuple[str, ...]
) -> tuple[int, bool, tuple[str, ...]]:
    """pokerkit's best strength, whether a five with both hole cards reaches it, and a best
    five."""
    top, five = max((strength(f), f) for f in fives(game, hole, board))
    if game == "omaha":
        return top, True, five
    with_both = max(strength(hole + three) for three in combinations(board, 3))
    return top, with_both == top, five


def deal(rng: random.Random, game: str) -> tuple[tuple[str, ...], ...]:
    """Board, loser's and winner's hole cards: uniform, from a few ranks, or from one suit."""
    need = 5 + 2 * HOLE[game]
    how = rng.random()
    if how < 0.4:
        deck = DECK
    elif how < 0.75:
        ranks = rng.sample(RANKS, 4)
        deck = [c for c in DECK if c[0] in ranks]
    else:
        suit, low = rng.choice(SUITS), rng.randrange(-1, 8)  # -1: the wheel's ace
        window = ["A" if i < 0 else RANKS[i] for i in range(low, low + 6)]
        suited = [r + suit for r in window]
        deck = suited + rng.sample([c for c in DECK if c not in suited], 8)
    cards = tuple(rng.sample(deck, need))
    h = HOLE[game]
    return cards[:5], cards[5 : 5 + h], cards[5 + h :]


def expected_bad_beat(
    game: str,
    board: tuple[str, ...],
    loser: tuple[str, ...],
    winner: tuple[str, ...],
    minimum: int,
    rule: BadBeatRule,
    players: int,
) -> set[str]:
    lost, lost_both, _ = best(game, loser, board)
    won, won_both, _ = best(game, winner, board)
    fails = set()
    if players < rule.min_players_dealt:
        fails.add("too_few_players")
    if lost < minimum:
        fails.add("loser_below_minimum")
    if rule.both_hole_cards_play and not lost_both:
        fails.add("loser_hole_card_not_playing")
    if won <= lost:
        fails.add("winner_not_better")
    if rule.winner_must_qualify and won < minimum:
        fails.add("winner_below_minimum")
    if rule.winner_must_qualify and rule.both_hole_cards_play and not won_both:
        fails.add("winner_hole_card_not_playing")
    return fails or {"bad_beat_qualifies"}


def expected_high_hand(
    game: str,
    board: tuple[str, ...],
    hole: tuple[str, ...],
    minimum: int,
    rule: HighHandRule,
    current: int | None,
) -> set[str]:
    mine, both, _ = best(game, hole, board)
    fails = set()
    if mine < minimum:
        fails.add("hand_below_minimum")
    if rule.both_hole_cards_play and not both:
        fails.add("hand_hole_card_not_playing")
    if current is not None and mine < current:
        fails.add("below_high_hand")
    if fails:
        return fails
    return {"ties_high_hand"} if mine == current else {"new_high_hand"}


def test_judgements_agree_with_pokerkit_on_every_qualifier() -> None:
    rng = random.Random(SEED)
    codes: Counter[str] = Counter()  # every reason code pokerkit's reading expects
    checked: Counter[str] = Counter()
    for n in range(HANDS):
        game = "holdem" if n % 2 else "omaha"
        board, loser, winner = deal(rng, game)
        notation = rng.choice(list(MINIMUMS))
        minimum = strength(tuple(MINIMUMS[notation].split()))
        both = rng.random() < 0.7
        players = rng.randint(2, 9)
        rule = BadBeatRule(
            min_losing_hand=notation,
            both_hole_cards_play=both,
            winner_must_qualify=rng.random() < 0.5,
        )
        j = judge_bad_beat(
            rule,
            game=game,
            board=board,
            loser=ClaimedHand(1, loser),
            winner=ClaimedHand(2, winner),
            players_dealt=players,
        )
        want = expected_bad_beat(game, board, loser, winner, minimum, rule, players)
        assert set(j.reasons) == want, (n, game, board, loser, winner, notation, rule, j)
        assert j.pay == (want == {"bad_beat_qualifies"})
        codes.update(want)
        checked.update(["too_few_players", "loser_below_minimum", "winner_not_better"])
        checked.update(["loser_hole_card_not_playing"] if both else [])
        checked.update(["winner_below_minimum"] if rule.winner_must_qualify else [])
        checked.update(
            ["winner_hole_card_not_playing"] if rule.winner_must_qualify and both else []
        )

        hole = rng.choice((loser, winner))
        if rng.random() < 0.15:  # the current high hand is this very hand: a tie
            current: tuple[str, ...] | None = best(game, hole, board)[2]
        else:
            current_cards = rng.choice(CURRENT)
            current = None if current_cards is None else tuple(current_cards.split())
        hh_rule = HighHandRule(min_hand=notation, both_hole_cards_play=both)
        h = judge_high_hand(
            hh_rule,
            game=game,
            board=board,
            hand=ClaimedHand(3, hole),
            current_best_rank=None if current is None else holdem_rank((), current),
        )
        want = expected_high_hand(
            game, board, hole, minimum, hh_rule, None if current is None else strength(current)
        )
        assert set(h.reasons) == want, (n, game, board, hole, notation, current, h)
        assert h.pay == bool(want & {"new_high_hand", "ties_high_hand"})
        codes.update(want)
        checked.update(["hand_below_minimum"] + (["hand_hole_card_not_playing"] if both else []))
        checked.update(["below_high_hand"] if current is not None else [])

        if n % 100 == 0:  # the test's own best hands against pokerkit's game-level API
            cls = OmahaHoldemHand if game == "omaha" else StandardHighHand
            hand = cls.from_game("".join(loser), "".join(board))
            assert hand.entry.index == best(game, loser, board)[0]

    # Every qualifier was met and missed many times; claims were paid and refused.
    tally = {q: (checked[q] - codes[q], codes[q]) for q in checked}
    assert {q: t for q, t in tally.items() if min(t) < 50} == {}, tally
    paid = ("bad_beat_qualifies", "new_high_hand", "ties_high_hand")
    assert {q: codes[q] for q in paid if codes[q] < 50} == {}, codes

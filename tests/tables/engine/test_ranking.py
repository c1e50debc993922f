"""Hand ranking through phevaluator: category counts, ties, board plays, Omaha, hi/lo."""

from collections import Counter
from itertools import combinations

import pytest
from phevaluator import evaluate_cards

from tables.engine.cards import card_id
from tables.engine.errors import InvalidCards
from tables.engine.ranking import (
    Category,
    category,
    holdem_rank,
    omaha_low,
    omaha_rank,
)

EXPECTED_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


def test_every_five_card_hand_falls_in_the_right_category():
    # Iterate integer card ids (phevaluator's own encoding) and count ranks first; the
    # category of each distinct rank is looked up once (7,462 classes, not 2.6M lookups).
    from phevaluator._pheval import evaluate_5cards  # the C entry point, for speed

    ranks = Counter(evaluate_5cards(*five) for five in combinations(range(52), 5))
    counts = Counter()
    for rank, n in ranks.items():
        counts[category(rank)] += n
    assert sum(ranks.values()) == 2_598_960
    assert len(ranks) == 7_462
    assert dict(counts) == EXPECTED_COUNTS


def test_card_ids_match_phevaluator():
    for text in ("2c", "2s", "Ah", "Td", "As"):
        assert evaluate_cards(text, "3d", "9h", "Jc", "Kd") == evaluate_cards(
            card_id(text), "3d", "9h", "Jc", "Kd"
        )


def wins(a, b, board):
    return holdem_rank(a, board) < holdem_rank(b, board)


def ties(a, b, board):
    return holdem_rank(a, board) == holdem_rank(b, board)


@pytest.mark.parametrize(
    ("better", "worse", "board", "why"),
    [
        (["2c", "6d"], ["As", "2d"], ["3c", "4d", "5h", "Ks", "9c"], "six-high beats the wheel"),
        (["As", "2d"], ["Kc", "Kd"], ["3c", "4d", "5h", "Ks", "9c"], "wheel beats trips"),
        (["7d", "4h"], ["3d", "Js"], ["Qc", "Kd", "Ah", "2s", "7c"], "no wrap-around straight"),
        (["Ad", "2c"], ["4s", "4d"], ["Ks", "Kd", "Qc", "Qh", "3s"], "counterfeited pocket pair"),
        (["Jd", "2c"], ["5d", "4h"], ["Qs", "Qd", "Jc", "5h", "4s"], "counterfeited two pair"),
        (["Ad", "Kc"], ["Ah", "Qs"], ["As", "9d", "7c", "4h", "2s"], "kicker decides"),
        (["Qh", "3s"], ["Jh", "Th"], ["Ah", "9h", "6h", "2h", "Kc"], "flush card by card"),
        (["Kc", "2d"], ["7d", "Ac"], ["Ks", "Kd", "7c", "7h", "2s"], "full house by the trips"),
        (["8h", "9h"], ["7c", "2c"], ["5h", "6h", "7h", "7s", "7d"], "straight flush over quads"),
        (["Kd", "8c"], ["Kc", "7d"], ["As", "Ad", "9c", "6h", "4s"], "pair to the fifth card"),
    ],
)
def test_holdem_comparisons(better, worse, board, why):
    assert wins(better, worse, board), why


@pytest.mark.parametrize(
    ("a", "b", "board"),
    [
        (["Ad", "2s"], ["Ah", "3s"], ["Ac", "Qd", "Th", "8s", "6c"]),  # board kickers play
        (["Kd", "3c"], ["Qs", "2d"], ["9s", "9d", "9c", "9h", "As"]),  # quads + ace on board
        (["As", "Qs"], ["Ad", "Qd"], ["Kc", "9d", "7h", "4s", "2c"]),  # suits never break ties
        (["8s", "7s"], ["7d", "3c"], ["9d", "Tc", "Jh", "8d", "2c"]),  # counterfeit straight
        (["2c", "3d"], ["4h", "5s"], ["Tc", "Jd", "Qh", "Ks", "Ad"]),  # both play the board
    ],
)
def test_holdem_ties(a, b, board):
    assert ties(a, b, board)


def test_categories_of_known_hands():
    assert category(holdem_rank(["Ah", "Kh"], ["Qh", "Jh", "Th"])) == Category.STRAIGHT_FLUSH
    assert category(holdem_rank(["5h", "4d"], ["3c", "2s", "Ah"])) == Category.STRAIGHT
    assert category(holdem_rank(["5h", "5d"], ["5c", "2s", "2h"])) == Category.FULL_HOUSE


def test_omaha_needs_exactly_two_hole_cards():
    board = ["Kh", "9h", "6h", "2h", "Qc"]
    one_heart = ["Ah", "Ks", "Kd", "3c"]
    # One heart in hand + four on board is no flush in Omaha; in hold'em terms it would be.
    assert category(omaha_rank(one_heart, board)) == Category.THREE_OF_A_KIND
    assert category(holdem_rank(["Ah", "Ks"], board)) == Category.FLUSH
    # Four of a kind on board plays only two of them in Omaha.
    assert category(omaha_rank(["As", "Ad", "3c", "4c"], ["9s", "9d", "9c", "9h", "2s"])) == (
        Category.FULL_HOUSE
    )


@pytest.mark.parametrize(
    ("hole", "board", "low"),
    [
        (["3c", "5d", "9c", "Ts"], ["Ks", "Kd", "7c", "4h", "2s"], (7, 5, 4, 3, 2)),
        (["As", "2d", "Kc", "Kh"], ["3c", "4d", "5h", "Qs", "Jc"], (5, 4, 3, 2, 1)),  # wheel
        (["As", "Ad", "9d", "Tc"], ["Ks", "Qd", "9c", "8h", "2s"], None),  # no qualifier
        (["Ac", "2c", "Kd", "Kh"], ["3c", "4c", "9h", "Ts", "Jd"], None),  # only two low on board
        (["7s", "8s", "Kd", "Kh"], ["4s", "5s", "6s", "Qd", "Jc"], (8, 7, 6, 5, 4)),  # SF is a low
    ],
)
def test_omaha_low_eight_or_better(hole, board, low):
    assert omaha_low(hole, board) == low


def test_malformed_and_duplicate_cards_are_refused():
    with pytest.raises(InvalidCards):
        holdem_rank(["Ax", "Kd"], ["2c", "3c", "4c"])
    with pytest.raises(InvalidCards):
        holdem_rank(["As", "As"], ["2c", "3c", "4c"])
    with pytest.raises(InvalidCards):
        omaha_rank(["As", "Ks"], ["2c", "3c", "4c", "5d", "9h"])


def test_the_fast_path_ranks_exactly_as_phevaluator_and_still_refuses_bad_cards():
    """holdem_rank sends canonical cards straight to the native evaluator:
    the same ranks as phevaluator's own call, and the same refusals for bad input."""
    import random

    from phevaluator import evaluate_cards

    from tables.engine.errors import InvalidCards
    from tables.engine.ranking import holdem_rank

    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng = random.Random(15)
    for size in (5, 6, 7):
        for _ in range(3000):
            cards = rng.sample(deck, size)
            assert holdem_rank(cards[:2], cards[2:]) == evaluate_cards(*cards)
    for hole, board in (
        (["As", "As"], ["Kd", "Qh", "2c"]),
        (["As", "Kd"], ["Qh", "2c"]),
        (["As", "Xx"], ["Kd", "Qh", "2c"]),
    ):
        with pytest.raises(InvalidCards):
            holdem_rank(hole, board)


def test_seven_cards_rank_the_same_whatever_their_spelling_or_container():
    """The seven-card shortcut changes no answer: other spellings, tuples and
    one-shot iterables rank as the canonical lists do; repeats and bad cards are refused."""
    import random

    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng = random.Random(7)
    for _ in range(2000):
        cards = rng.sample(deck, 7)
        rank = evaluate_cards(*cards)
        assert holdem_rank(tuple(cards[:2]), tuple(cards[2:])) == rank
        assert holdem_rank(cards[:3], cards[3:]) == rank  # hole and board split otherwise
        assert holdem_rank(iter(cards[:2]), iter(cards[2:])) == rank
        assert holdem_rank([c.lower() for c in cards[:2]], cards[2:]) == rank
    for hole, board in (
        (["As", "Kd"], ["Qh", "2c", "3c", "4c", "As"]),  # the same card twice
        (["As", "Kd"], ["Qh", "2c", "3c", "4c", "aS"]),  # the same card, spelt otherwise
        (["As", "Kd"], ["Qh", "2c", "3c", "4c", "1s"]),
        (["As", "Kd"], ["Qh", "2c", "3c", "4c", "5c", "6c"]),  # eight cards
    ):
        with pytest.raises(InvalidCards):
            holdem_rank(hole, board)

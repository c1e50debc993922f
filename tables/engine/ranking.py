"""Hand ranking through phevaluator (R-RANK-1..3); lower rank numbers are stronger hands.

Only the 8-or-better low of Omaha hi/lo is computed here, because phevaluator has no low
evaluator; it is a comparison of five distinct ranks, not a hand evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from phevaluator import evaluate_cards, evaluate_omaha_cards  # type: ignore[import-untyped]

# The native 5/6/7-card evaluators behind evaluate_cards (phevaluator is pinned).
from phevaluator._pheval import (  # type: ignore[import-untyped]
    evaluate_5cards,
    evaluate_6cards,
    evaluate_7cards,
)

from .cards import RANKS, parse_cards
from .errors import InvalidCards


class Category(IntEnum):
    """Hand categories, best first (R-RANK-1)."""

    STRAIGHT_FLUSH = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    FLUSH = 4
    STRAIGHT = 5
    THREE_OF_A_KIND = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    HIGH_CARD = 9


# phevaluator's rank ranges (Cactus Kev numbering, 1..7462): the last rank of each category.
_CATEGORY_LAST_RANK = (
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.ONE_PAIR),
    (7462, Category.HIGH_CARD),
)
WORST_RANK = 7462


def category(rank: int) -> Category:
    """Return the category of a phevaluator rank number (1 = royal flush, 7462 = 7-high)."""
    for last, cat in _CATEGORY_LAST_RANK:
        if rank <= last:
            return cat
    raise ValueError(f"rank {rank} outside 1..{WORST_RANK}")


# phevaluator's card numbers (rank * 4 + suit, suits c d h s) for the canonical spellings:
# the engine's cards go to the native evaluator without being parsed again (a ranking is
# called for every contender of every pot; parsing, not evaluating, was the cost).
_CARD_ID: dict[str, int] = {
    r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate("cdhs")
}
_NATIVE = {5: evaluate_5cards, 6: evaluate_6cards, 7: evaluate_7cards}


def holdem_rank(hole: Sequence[str], board: Sequence[str]) -> int:
    """Return the rank of the best five of hole + board, any combination (R-RANK-2).

    Preconditions: 5 to 7 distinct cards in total.
    """
    # Two hole cards and a full board, canonical and distinct: straight to the C evaluator.
    # (The lengths first: a one-shot iterable must reach the general way unconsumed.)
    try:
        if len(hole) != 2 or len(board) != 5:
            raise ValueError
        a, b = hole
        c, d, e, f, g = board
        rank: int = evaluate_7cards(
            _CARD_ID[a],
            _CARD_ID[b],
            _CARD_ID[c],
            _CARD_ID[d],
            _CARD_ID[e],
            _CARD_ID[f],
            _CARD_ID[g],
        )
    except (ValueError, KeyError, TypeError):
        pass  # another count, spelling or type of card: the general way below
    else:
        if len({a, b, c, d, e, f, g}) == 7:
            return rank
    ids = [_CARD_ID.get(c, -1) for c in hole]
    ids += [_CARD_ID.get(c, -1) for c in board]
    if -1 not in ids and len(set(ids)) == len(ids) and 5 <= len(ids) <= 7:
        return int(_NATIVE[len(ids)](*ids))
    # Anything else (another spelling, a repeated or malformed card, a wrong count): the
    # careful way, which says what is wrong.
    cards = parse_cards([*hole, *board])
    if not 5 <= len(cards) <= 7:
        raise InvalidCards(f"hold'em ranks 5 to 7 cards, got {len(cards)}")
    return int(evaluate_cards(*cards))


def omaha_rank(hole: Sequence[str], board: Sequence[str]) -> int:
    """Return the best Omaha rank: exactly two hole cards and three board cards (§16.1).

    Preconditions: four hole cards and five board cards, all distinct.
    """
    cards = parse_cards([*board, *hole])
    if len(hole) != 4 or len(board) != 5:
        raise InvalidCards("Omaha needs four hole cards and a five-card board")
    return int(evaluate_omaha_cards(*cards))


def _low_value(card: str) -> int:
    rank = RANKS.index(card[0]) + 2
    return 1 if rank == 14 else rank  # aces are low for the low hand (§16.2)


def omaha_low(hole: Sequence[str], board: Sequence[str]) -> tuple[int, ...] | None:
    """Return the best qualifying 8-or-better low (highest card first), or None (§16.2).

    Smaller tuples are better lows; straights and flushes do not spoil a low. Exactly two hole
    cards and three board cards are used, as for the high hand.
    """
    parse_cards([*hole, *board])
    best: tuple[int, ...] | None = None
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            values = {_low_value(c) for c in (*two, *three)}
            if len(values) == 5 and max(values) <= 8:
                low = tuple(sorted(values, reverse=True))
                if best is None or low < best:
                    best = low
    return best


def high_rank(variant: str, hole: Sequence[str], board: Sequence[str]) -> int:
    """Return the high-hand rank of a player for the given variant."""
    if variant == "holdem":
        return holdem_rank(hole, board)
    return omaha_rank(hole, board)

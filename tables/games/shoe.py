"""Shoe rules both games share: six decks, five burnt cards, the cut card and the last coup.

Randomness is passed in (a `random.Random`); nothing here reads a clock or a global seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import DECKS, RANKS, SUITS, Card

BURNT_CARDS = 5  # BJ Art.2.2, PB Art.1.5: the first five cards of every shoe, face down
CUT_CARD_FROM_END = 7  # PB Art.1.5: the cut card goes before the last seven cards
LAST_COUP_MINIMUM = 7  # PB Art.11.1: "minimo sette carte, altrimenti colpo nullo"


def sixain() -> list[Card]:
    """Six 52-card decks in a fixed order (BJ Art.1.2, PB Art.1.1)."""
    return [Card(r, s) for _ in range(DECKS) for s in SUITS for r in RANKS]


def last_coup_void(*, starts_with_cut_card: bool, cards_behind_cut_card: int) -> bool:
    """Whether a last coup is void under PB Art.11.1.

    Only a last coup that starts with the cut card is checked; it is void when fewer than
    seven cards were behind the cut card (table-games.md §5.11).
    """
    return starts_with_cut_card and cards_behind_cut_card < LAST_COUP_MINIMUM


@dataclass
class Shoe:
    """A shuffled sixain with its five burnt cards already in the discard tray."""

    cards: list[Card]
    position: int = BURNT_CARDS
    cut_at: int = 0

    @classmethod
    def shuffled(cls, rng: random.Random, *, cut_from_end: int = CUT_CARD_FROM_END) -> Shoe:
        cards = sixain()
        rng.shuffle(cards)
        return cls(cards=cards, cut_at=len(cards) - cut_from_end)

    @property
    def burnt(self) -> list[Card]:
        return self.cards[:BURNT_CARDS]

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The cut card has come out: the coup now starting is the last (BJ Art.9.1)."""
        return self.position >= self.cut_at

    def draw(self, n: int = 1) -> list[Card]:
        if n > self.remaining:
            raise IndexError("the shoe is empty")
        out = self.cards[self.position : self.position + n]
        self.position += n
        return out

    def peek(self, n: int) -> list[Card]:
        """The next n cards without drawing them (fewer when the shoe is short)."""
        return self.cards[self.position : self.position + n]

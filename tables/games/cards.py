"""Cards written rank + suit ("Ah", "Td", "9c"), and their values in the two games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CardError

RANKS = "A23456789TJQK"
SUITS = "shdc"
DECKS = 6  # a sixain: BJ Art.1.2, PB Art.1.1


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def bj_value(self) -> int:
        """Blackjack value with the ace as 1 (BJ Art.1.2)."""
        if self.rank == "A":
            return 1
        if self.rank in "TJQK":
            return 10
        return int(self.rank)

    @property
    def pb_value(self) -> int:
        """Punto banco value: face value, tens and pictures 0 (PB Art.5.6)."""
        return self.bj_value % 10


def parse_card(text: object) -> Card:
    """Read one card; "10h", "ah" and "AH" are accepted, anything else is a CardError."""
    if not isinstance(text, str):
        raise CardError(f"malformed card {text!r}", reasons=("malformed_card",))
    raw = text.strip()
    if raw[:2] == "10":
        raw = "T" + raw[2:]
    if len(raw) != 2:
        raise CardError(f"malformed card {text!r}", reasons=("malformed_card",))
    rank, suit = raw[0].upper(), raw[1].lower()
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"malformed card {text!r}", reasons=("malformed_card",))
    return Card(rank, suit)


def parse_cards(texts: Iterable[object]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def check_six_decks(cards: Iterable[Card]) -> None:
    """Refuse more copies of one card than six decks hold."""
    counts = Counter(cards)
    over = sorted(str(c) for c, n in counts.items() if n > DECKS)
    if over:
        raise CardError(
            f"more than {DECKS} copies of {', '.join(over)}", reasons=("impossible_cards",)
        )


def names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]

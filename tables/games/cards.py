"""Cards written rank + suit ("Ah", "Td", "9c"), and their values in the two games.

A card is kept with the English suit letters (s h d c). What a person types is read through
the suit letters of his language: in Italian "c" is cuori (hearts), so the same two
characters name different cards in the two languages, and only the caller knows which
language was meant. Suit symbols mean the same in every language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CardError

RANKS = "A23456789TJQK"
SUITS = "shdc"
DECKS = 6  # a sixain: BJ Art.1.2, PB Art.1.1

SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SYMBOL_SUITS = {
    **{symbol: suit for suit, symbol in SYMBOLS.items()},
    "♤": "s",
    "♡": "h",
    "♢": "d",
    "♧": "c",
}
# Typed suit letters per language, to the stored suit. Italian: cuori, quadri, fiori,
# picche; the English letters that mean nothing else in Italian (s h d) are still read,
# but "c" is cuori there, never clubs.
SUIT_LETTERS: dict[str, dict[str, str]] = {
    "en": {"s": "s", "h": "h", "d": "d", "c": "c", **_SYMBOL_SUITS},
    "it": {"c": "h", "q": "d", "f": "c", "p": "s", "s": "s", "h": "h", "d": "d", **_SYMBOL_SUITS},
}


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


def parse_card(text: object, language: str = "en") -> Card:
    """Read one card; "10h", "ah" and "AH" are accepted, anything else is a CardError.

    `language` chooses the suit letters (SUIT_LETTERS): "8c" is the eight of clubs in
    English and of hearts (cuori) in Italian."""
    if not isinstance(text, str):
        raise CardError(f"malformed card {text!r}", reasons=("malformed_card",))
    letters = SUIT_LETTERS.get(language, SUIT_LETTERS["en"])
    raw = text.strip()
    if raw[:2] == "10":
        raw = "T" + raw[2:]
    if len(raw) != 2:
        raise CardError(f"malformed card {text!r}", reasons=("malformed_card",))
    rank, suit = raw[0].upper(), letters.get(raw[1].lower())
    if rank not in RANKS or suit is None:
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


def symbol_text(code: str) -> str:
    """A stored card ("Th") with its suit symbol ("10♥"), the same in every language; a
    string that is not a stored card comes back as it was."""
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SYMBOLS:
        return code
    rank = "10" if code[0] == "T" else code[0]
    return rank + SYMBOLS[code[1]]

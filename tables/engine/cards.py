"""Parse and validate cards written as rank + suit ("As", "Td", "2c")."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidCards

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def card_id(text: str) -> int:
    """Return phevaluator's integer id (rank * 4 + suit) of one card such as "Ah"."""
    if not isinstance(text, str) or len(text) != 2:
        raise InvalidCards(f"malformed card {text!r}: expected rank + suit, e.g. 'As'")
    rank, suit = text[0].upper(), text[1].lower()
    if rank not in RANKS or suit not in SUITS:
        raise InvalidCards(f"malformed card {text!r}: rank in {RANKS}, suit in {SUITS}")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def normalise(text: str) -> str:
    """Return the canonical spelling of one card ("aH" -> "Ah")."""
    cid = card_id(text)
    return RANKS[cid // 4] + SUITS[cid % 4]


def parse_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Return the cards in canonical spelling; reject malformed or repeated cards."""
    out = tuple(normalise(c) for c in cards)
    if len(set(out)) != len(out):
        raise InvalidCards(f"duplicate card in {list(out)}")
    return out


def split_concatenated(text: str) -> tuple[str, ...]:
    """Split "AcKd" into ("Ac", "Kd"); "??" chunks are unknown cards and are kept as "??"."""
    if len(text) % 2:
        raise InvalidCards(f"malformed card string {text!r}")
    return tuple(text[i : i + 2] for i in range(0, len(text), 2))


def check_distinct(groups: Iterable[Iterable[str]]) -> None:
    """Raise InvalidCards if any card appears twice across the groups (one deck, R-FLOW-1)."""
    seen: set[str] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise InvalidCards(f"card {card} dealt twice", rules=("R-FLOW-1",))
            seen.add(card)

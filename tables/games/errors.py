"""Typed errors of the table-game rules; nothing is settled when one is raised.

Each error carries `reasons`: the codes of table-games.md §1.2 (or, for input no coup can
produce at all, `malformed_card`, `impossible_cards` or `malformed_bet`), so a caller can
report every failing check at once.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error the table-game rules raise on purpose."""

    def __init__(self, message: str, *, reasons: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.reasons = reasons


class CardError(GameError):
    """A card is malformed, or more copies of one card are listed than six decks hold."""


class BetError(GameError):
    """A bet is malformed: a negative amount, an unknown bet kind, an unknown niWin score."""


class InvalidRound(GameError):
    """A blackjack round no legal play can produce (table-games.md §1.2 reason codes)."""


class InvalidCoup(GameError):
    """A punto banco coup that can't be settled (table-games.md §1.2 reason codes)."""

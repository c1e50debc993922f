"""Pure settlement rules of the table games (blackjack, punto banco), by the Casinò Sanremo
rulebooks (spec: shared/rules/table-games.md). No Django, no clock, no randomness of its own:
plain data in, decisions out, each carrying its rule id ("BJ Art.6.7", "PB Art.8.1").
"""

from __future__ import annotations

from .errors import BetError, CardError, GameError, InvalidCoup, InvalidRound

__all__ = ["BetError", "CardError", "GameError", "InvalidCoup", "InvalidRound"]

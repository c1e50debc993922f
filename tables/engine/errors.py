"""Typed errors raised by the in-hand engine; the hand is unchanged when one is raised."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    def __init__(self, message: str, *, rules: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.rules = rules


class InvalidSetup(EngineError):
    """The table setup (seats, stacks, blinds, button, game) is not usable."""


class UnknownSeat(EngineError):
    """An event names a seat that is not dealt in."""


class InvalidAmount(EngineError):
    """An amount or chip value is negative, zero where a chip is needed, or not an integer."""


class InvalidCards(EngineError):
    """A card is malformed, duplicated, or the wrong number of cards was given."""


class IllegalAction(EngineError):
    """The event cannot stand under the rules (e.g. a raise when the betting is not reopened)."""


class HandOver(IllegalAction):
    """No betting action is possible any more in this hand."""


class DecisionRequired(EngineError):
    """The rules leave the outcome to the TD (or to the player); nothing was applied.

    `options` lists the follow-up actions the app may submit, e.g.
    ("complete_call", "forfeit_and_fold") for an undercall under TDA-51b.
    """

    def __init__(self, message: str, *, options: tuple[str, ...], rules: tuple[str, ...] = ()):
        super().__init__(message, rules=rules)
        self.options = options

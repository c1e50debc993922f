"""Interpret what a player did: explicit actions, chip pushes, words, timeouts (§5, §6, §7, §12).

Pure functions over a BettingView snapshot; they never change a hand. The Hand applies the
Resolution they return. Every Resolution carries the rule ids that decided it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .actions import Action
from .errors import DecisionRequired, IllegalAction, InvalidAmount
from .settings import EngineSettings

ResolvedKind = Literal[
    "fold", "check", "call", "bet", "raise", "all_in", "complete", "bind", "refuse"
]


@dataclass(frozen=True)
class BettingView:
    """What the rules need to know about the player in turn and the betting round."""

    game: str
    committed: int  # c[i]: chips in this round
    stack: int  # chips behind
    current_bet: int  # H
    min_bet: int  # minimum bet (NL/PL) or the fixed bet of the street (limit)
    min_raise_to: int  # M for a raise, or the minimum bet when H == 0; ignores the stack
    max_raise_to: int  # PL maximum, NL all-in total, limit fixed amount
    can_raise: bool
    raise_block_rules: tuple[str, ...]  # why he may not raise, when he may not
    complete_to: int | None  # limit: total a "complete" brings H to (§9.2)
    facing_opening_bet: bool  # H is still the round's opening bet (TDA-51b)
    live_count: int
    bound_to_raise: bool  # said "raise"/"bet"/NL "pot" without an amount (TDA-51a, TDA-54c)

    @property
    def all_in_total(self) -> int:
        return self.committed + self.stack

    @property
    def facing_bet(self) -> bool:
        return self.committed < self.current_bet


@dataclass(frozen=True)
class Resolution:
    """What an event counts as: a kind, the player's round total after it, and the rules."""

    kind: ResolvedKind
    to: int | None
    rules: tuple[str, ...]
    note: str = ""
    restrict_raise: bool = False  # R-ACT-9: "check" facing a bet removes the raise option


def resolve(view: BettingView, action: Action, settings: EngineSettings) -> Resolution:
    """Return what the action counts as for the player in turn.

    Raises IllegalAction when it cannot stand (state must stay unchanged), DecisionRequired
    when the rules leave it to the TD, InvalidAmount for chips the player does not have.
    """
    kind = action.kind
    if kind == "fold":
        return _fold(view, action)
    if kind == "check":
        return _check(view)
    if kind == "call":
        return _call(view)
    if kind in ("bet", "raise"):
        assert action.to is not None
        return _aggressive(view, action.to, ("R-ACT-1", "TDA-50a"))
    if kind == "all_in":
        return _all_in(view)
    if kind == "complete":
        return _complete(view)
    if kind == "timeout":
        return _timeout(view, settings)
    if kind == "chips":
        return _chips(view, action, settings)
    return _declare(view, action.words or "", settings)


def _refuse_if_bound(view: BettingView, what: str) -> None:
    if view.bound_to_raise and view.can_raise:
        raise IllegalAction(
            f"{what} refused: the player declared a bet or raise and must make one",
            rules=("R-ACT-3", "TDA-51a", "R-ACT-11", "TDA-54c"),
        )


def _fold(view: BettingView, action: Action) -> Resolution:
    _refuse_if_bound(view, "fold")
    if action.forfeit:
        return Resolution("fold", None, ("R-CALL-3", "TDA-51b"), "undercall chips forfeited")
    if not view.facing_bet:
        # Folding when not facing a bet is binding (and penalisable): TDA-58.
        return Resolution("fold", None, ("R-ACT-10", "TDA-58"))
    return Resolution("fold", None, ("R-ACT-1", "TDA-50a"))


def _check(view: BettingView) -> Resolution:
    _refuse_if_bound(view, "check")
    if view.facing_bet:
        # "Check" facing a bet is not an action; he may call or fold but not raise (TDA-55b).
        return Resolution("refuse", None, ("R-ACT-9", "TDA-55"), restrict_raise=True)
    return Resolution("check", view.committed, ("R-ACT-1",))


def _call(view: BettingView) -> Resolution:
    _refuse_if_bound(view, "call")
    if not view.facing_bet:
        return Resolution("check", view.committed, ("R-ACT-9", "TDA-55a"))
    # A call is always to the true current bet (TDA-49, TDA-51a).
    to = min(view.current_bet, view.all_in_total)
    return Resolution("call", to, ("R-ACT-3", "TDA-51a", "R-ACT-14", "TDA-49"))


def _blocked(view: BettingView) -> IllegalAction:
    return IllegalAction(
        "the player may not bet or raise here (only call or fold)",
        rules=view.raise_block_rules or ("R-REOPEN-1", "TDA-47a"),
    )


def _aggressive(view: BettingView, total: int, rules: tuple[str, ...]) -> Resolution:
    """Resolve a bet or raise to `total`, correcting the amount as the rules say."""
    if not view.can_raise:
        raise _blocked(view)
    kind: ResolvedKind = "raise" if view.current_bet > 0 else "bet"
    notes = []
    if view.game == "L":
        # Limit: bets and raises are fixed (R-LIMIT-1); any stated amount is the fixed one.
        if total != view.min_raise_to:
            notes.append(f"fixed limit amount {view.min_raise_to}")
        total = view.min_raise_to
        rules = (*rules, "R-LIMIT-1")
    else:
        if total < view.min_raise_to:
            notes.append(f"corrected from {total} to the minimum {view.min_raise_to}")
            if view.current_bet == 0:
                rules = (*rules, "R-RAISE-1", "TDA-52")
            else:
                rules = (*rules, "R-RAISE-2", "R-RAISE-7", "TDA-43a", "TDA-52")
            total = view.min_raise_to
        if view.game == "PL" and total > view.max_raise_to:
            notes.append(f"reduced from {total} to the pot-limit maximum {view.max_raise_to}")
            rules = (*rules, "R-PL-1", "R-PL-4", "TDA-52")
            total = view.max_raise_to
    if total >= view.all_in_total:
        total = view.all_in_total
        kind = "all_in"
    return Resolution(kind, total, rules, "; ".join(notes))


def _all_in(view: BettingView) -> Resolution:
    total = view.all_in_total
    if total <= view.current_bet:
        return Resolution("call", total, ("R-POT-2",), "all-in for less than the call")
    if not view.can_raise:
        raise _blocked(view)
    if view.game == "L" and total > view.min_raise_to:
        return _aggressive(view, view.min_raise_to, ("R-LIMIT-1",))
    if view.game == "PL" and total > view.max_raise_to:
        return _aggressive(view, view.max_raise_to, ("R-PL-1",))
    return Resolution("all_in", total, ("R-FLOW-9",))


def _complete(view: BettingView) -> Resolution:
    if view.complete_to is None:
        raise IllegalAction(
            "nothing to complete: only a short all-in bet in limit can be completed",
            rules=("R-LIMIT-3",),
        )
    if view.all_in_total < view.complete_to:
        # All-in for less than the completion: a short all-in like any other (R-LIMIT-3).
        if view.all_in_total <= view.current_bet:
            return Resolution("call", view.all_in_total, ("R-POT-2",), "all-in for less")
        return Resolution("all_in", view.all_in_total, ("R-LIMIT-3", "TDA-47b"))
    return Resolution("complete", view.complete_to, ("R-LIMIT-3", "TDA-47b"))


def _timeout(view: BettingView, settings: EngineSettings) -> Resolution:
    if settings.time_expiry == "always_fold":
        return Resolution("fold", None, ("R-TIME-1", "FIGP §22"))
    if view.facing_bet:
        return Resolution("fold", None, ("R-TIME-1", "TDA-29"), "time expired facing a bet")
    return Resolution("check", view.committed, ("R-TIME-1", "TDA-29"))


def _meets_half(view: BettingView, total: int, settings: EngineSettings) -> bool:
    """50% rule (R-RAISE-5): does the raise reach half of the full raise increment?"""
    increment = view.min_raise_to - view.current_bet
    over = total - view.current_bet
    if settings.fifty_percent_rule == "gt_half_of_min_raise":
        return 2 * over > increment  # FIGP §15c-d: exactly half is a call
    return 2 * over >= increment  # TDA-43a: 50% or more must complete


def _two_motions(view: BettingView, action: Action, settings: EngineSettings) -> Resolution:
    """A push in two motions (R-ACT-12): "raise" said (or an amount stated) before the first
    motion covers both; otherwise the action is what the first motion brought, words only
    after it change nothing (R-ACT-5, TDA-40a), and the second motion's chips go back."""
    pushed = sum(action.chips) + sum(action.second_motion)
    if pushed > view.stack:
        raise InvalidAmount(f"pushed {pushed} but has only {view.stack} behind")
    said_first = not action.declared_after_chips and (
        action.declared in ("raise", "bet") or action.declared_to is not None
    )
    if said_first or (action.declared is None and view.bound_to_raise):
        both = replace(action, chips=action.chips + action.second_motion, second_motion=())
        return _chips(view, both, settings)
    first = _chips(view, replace(action, second_motion=()), settings)
    return replace(
        first,
        rules=("R-ACT-12", "TDA-56", "R-ACT-5", "TDA-40a", *first.rules),
        note="string raise: only the first motion counts; the second motion's chips go back",
    )


def _chips(view: BettingView, action: Action, settings: EngineSettings) -> Resolution:
    if action.second_motion:
        return _two_motions(view, action, settings)
    pushed = sum(action.chips)
    if pushed > view.stack:
        raise InvalidAmount(f"pushed {pushed} but has only {view.stack} behind")
    declared = action.declared
    declared_to = action.declared_to
    if (declared is not None or declared_to is not None) and action.unclear:
        raise DecisionRequired(
            "unclear declaration with chips: the TD decides which defines the action",
            options=("declaration", "chips"),
            rules=("R-ACT-5", "TDA-40a"),
        )
    single_chip_rule = False
    single = len(action.chips) == 1 and view.facing_bet and declared_to is None
    if action.declared_after_chips and single and declared in ("raise", "bet"):
        # R-ACT-5a: one oversized chip with "raise" said only after it landed is a call under
        # every verbal_vs_chips setting (TDA-44, 003 Art.10.9, 004 r.23, Cash 'Puntate' (d));
        # a spoken amount stays under Art.11.9 with verbal_prevails.
        declared, declared_to = None, None
        single_chip_rule = True
    elif action.declared_after_chips and settings.verbal_vs_chips == "first_action":
        # TDA-40a: whichever came first defines the bet; the chips came first.
        declared, declared_to = None, None
    if declared is None and view.bound_to_raise:
        declared = "raise"  # the earlier "raise"/"bet" declaration binds (TDA-51a, TDA-54c)
    total = view.committed + pushed
    if declared == "call":
        return _call(view)
    if declared == "all_in":
        return _all_in(view)
    if declared == "pot":
        if view.game == "PL":
            return _aggressive(view, view.max_raise_to, ("R-PL-3", "TDA-54a"))
        # TDA-54c binds to a valid bet; FIGP §21: "pot" is not binding in no-limit.
        declared = "raise" if settings.nl_pot_declaration == "binds_min_bet" else None
    if declared in ("raise", "bet"):
        rules: tuple[str, ...] = ("R-RAISE-3", "TDA-42")
        if declared_to is not None:
            total = declared_to
            rules = ("R-ACT-7", "TDA-43b")
        elif len(action.chips) == 1 and view.facing_bet:
            rules = ("R-CALL-1", "TDA-44")  # raise declared: the largest raise the chip allows
        return _aggressive(view, total, rules)
    if declared_to is not None:
        # A bare verbal amount with the push: the statement is the bet (TDA-40a/c; with
        # verbal_prevails also when said after the chips, Art.11.9).
        return _silent(view, declared_to, (), settings, rules=("R-ACT-6", "TDA-40c"))
    return _silent(view, total, action.chips, settings, rules=("R-ACT-5a",) * single_chip_rule)


def _silent(
    view: BettingView,
    total: int,
    chips: Sequence[int],
    settings: EngineSettings,
    *,
    rules: tuple[str, ...],
) -> Resolution:
    """Normative chip-push algorithm of in-hand.md §6.6 (silent push or bare amount)."""
    c, h = view.committed, view.current_bet
    if total > view.all_in_total:
        raise InvalidAmount(f"amount {total} is more than the player has ({view.all_in_total})")
    whole = total == view.all_in_total
    chip_tests = bool(chips)
    if not view.facing_bet:
        if total == c:
            return Resolution("check", c, (*rules, "R-ACT-1"))
        if h == 0:
            # Not facing a bet, the push is a bet of its full value (TDA-44, Cash 'Puntate' (e)).
            r = (*rules, "R-CALL-1", "TDA-44") if len(chips) == 1 else (*rules, "TDA-40c")
            if total < view.min_bet and not whole:
                return _aggressive(view, view.min_bet, (*r, "R-RAISE-1"))
            return _aggressive(view, total, r)
        # Big-blind option: a raise attempt judged by the 50% rule.
        if not view.can_raise:
            return Resolution("check", c, (*rules, "R-REOPEN-1"), "excess returned")
        if total >= view.min_raise_to or whole:
            return _aggressive(view, total, (*rules, "R-RAISE-2", "TDA-43a"))
        if _meets_half(view, total, settings):
            return _aggressive(view, view.min_raise_to, (*rules, "R-RAISE-5", "TDA-43a"))
        return Resolution("check", c, (*rules, "R-RAISE-5", "TDA-43a"), "excess returned")
    # Facing a bet.
    if total < h:
        if whole:
            return Resolution("call", total, (*rules, "R-CALL-3", "R-POT-2"), "all-in for less")
        return _undercall(view, settings, rules)
    if total == h:
        return Resolution("call", h, (*rules, "R-CALL-2", "TDA-41"))
    if chip_tests and len(chips) == 1:
        return Resolution("call", h, (*rules, "R-CALL-1", "TDA-44"), "one oversized chip")
    if chip_tests and total - min(chips) < h:
        return Resolution("call", h, (*rules, "R-CALL-2", "TDA-45a"), "no chip removable")
    if not view.can_raise:
        return Resolution("call", h, (*rules, "R-REOPEN-1", "TDA-47a"), "excess returned")
    if whole:
        return _aggressive(view, total, (*rules, "R-CALL-2", "TDA-45b"))
    if total >= view.min_raise_to:
        return _aggressive(view, total, (*rules, "R-RAISE-2", "TDA-43a"))
    if _meets_half(view, total, settings):
        return _aggressive(view, view.min_raise_to, (*rules, "R-RAISE-5", "TDA-43a"))
    return Resolution("call", h, (*rules, "R-RAISE-5", "TDA-43a"), "excess returned")


def _undercall(view: BettingView, settings: EngineSettings, rules: tuple[str, ...]) -> Resolution:
    to = view.current_bet
    if settings.undercall_mode == "always_full_call":
        return Resolution("call", to, (*rules, "R-CALL-3", "FIGP §15"), "undercall corrected")
    if settings.undercall_mode == "tda" and (view.live_count == 2 or view.facing_opening_bet):
        return Resolution("call", to, (*rules, "R-CALL-3", "TDA-51b"), "undercall corrected")
    rule = "TDA-51b" if settings.undercall_mode == "tda" else "r.20"
    raise DecisionRequired(
        "undercall: the player must complete the call or forfeit his chips and fold",
        options=("complete_call", "forfeit_and_fold"),
        rules=(*rules, "R-CALL-3", rule),
    )


_AMOUNT = re.compile(r"^[0-9][0-9,._ ]*$")


def _parse_amount(text: str) -> int:
    digits = re.sub(r"[,._ ]", "", text)
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        raise InvalidAmount(f"cannot read the amount {text!r}")
    return int(digits)


def _declare(view: BettingView, words: str, settings: EngineSettings) -> Resolution:
    text = " ".join(words.lower().replace("-", " ").split())
    if not text:
        raise InvalidAmount("empty declaration")
    if text in ("fold",):
        return _fold(view, Action(seat=1, kind="fold"))
    if text in ("check",):
        return _check(view)
    if text == "call":
        return _call(view)
    if text in ("all in", "allin"):
        return _all_in(view)
    if text == "complete":
        return _complete(view)
    if text == "pot":
        if view.game == "PL":
            return _aggressive(view, view.max_raise_to, ("R-PL-3", "TDA-54a"))
        if view.game == "L":
            return _aggressive(view, view.min_raise_to, ("R-LIMIT-1",))
        if settings.nl_pot_declaration == "not_binding":
            return Resolution("refuse", None, ("R-ACT-11", "FIGP §21"), "state a valid bet")
        if not view.can_raise:
            raise _blocked(view)
        return Resolution("bind", None, ("R-ACT-11", "TDA-54c"), "must bet or raise")
    head, _, rest = text.partition(" ")
    if head in ("bet", "raise"):
        if rest:
            return _aggressive(view, _parse_amount(rest), ("R-ACT-7", "TDA-43b"))
        if not view.can_raise:
            raise _blocked(view)
        rule = ("R-ACT-9", "TDA-55b") if not view.facing_bet else ("R-ACT-3", "TDA-51a")
        return Resolution("bind", None, rule, "must bet or raise")
    if _AMOUNT.match(text):
        # A bare amount is the same as pushing it silently, as a round total (TDA-40c).
        total = _parse_amount(text)
        return _silent(view, total, (), settings, rules=("R-ACT-6", "TDA-40c"))
    raise InvalidAmount(f"unrecognised declaration {words!r}")


def resolve_ambiguous_amount(
    candidates: Sequence[int], *, pot: int, settings: EngineSettings
) -> int:
    """Pick the amount an ambiguous verbal bet means (R-ACT-8).

    TDA-57: the largest reasonable amount less than the pot before the bet; 2015 §52: the
    smallest. Preconditions: at least one candidate.
    """
    if not candidates:
        raise InvalidAmount("no candidate amounts")
    if settings.ambiguous_verbal_amount == "smallest":
        return min(candidates)
    below = [c for c in candidates if c < pot]
    return max(below) if below else min(candidates)

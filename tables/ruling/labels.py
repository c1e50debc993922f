"""The ruling tool's words: rule titles and engine errors in the user's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables import engine
from tables.engine import EngineError

MAX_SEATS = 10
MAX_HAND_JSON = 200_000  # a hand of a few hundred events; more is not a real hand

# Short titles of the rule anchors of shared/rules/in-hand.md (the ids the engine returns).
# Source references (TDA-43a, FIGP §23, Art.10.5) are shown as they are.
RULE_TITLES: dict[str, Any] = {
    "R-FLOW-1": gettext_lazy("One deck"),
    "R-FLOW-2": gettext_lazy("When a hand starts"),
    "R-FLOW-3": gettext_lazy("Forced bets before the deal"),
    "R-FLOW-4": gettext_lazy("Burn and board"),
    "R-FLOW-5": gettext_lazy("Four betting rounds"),
    "R-FLOW-6": gettext_lazy("First to act preflop"),
    "R-FLOW-7": gettext_lazy("First to act after the flop"),
    "R-FLOW-8": gettext_lazy("Heads-up"),
    "R-FLOW-9": gettext_lazy("All-in and folded players are skipped"),
    "R-FLOW-10": gettext_lazy("End of a betting round"),
    "R-FLOW-11": gettext_lazy("Posting a blind is not acting"),
    "R-DEAL-1": gettext_lazy("Substantial action"),
    "R-DEAL-2": gettext_lazy("Misdeal conditions"),
    "R-DEAL-3": gettext_lazy("No misdeal after substantial action"),
    "R-DEAL-4": gettext_lazy("Button with too few cards"),
    "R-DEAL-5": gettext_lazy("Burn cards after a killed hand"),
    "R-DEAL-6": gettext_lazy("Irregular flops and premature cards"),
    "R-BLIND-1": gettext_lazy("Who posts the blinds"),
    "R-BLIND-2": gettext_lazy("Blinds are live bets"),
    "R-BLIND-3": gettext_lazy("Short big blind"),
    "R-BLIND-4": gettext_lazy("The blind's option"),
    "R-ANTE-1": gettext_lazy("Ante from each player"),
    "R-ANTE-2": gettext_lazy("Big-blind ante"),
    "R-ANTE-3": gettext_lazy("Big-blind ante is dead money"),
    "R-BTN-1": gettext_lazy("Dead button"),
    "R-BTN-2": gettext_lazy("Moving the button"),
    "R-BTN-3": gettext_lazy("Button cases in the sources"),
    "R-BTN-4": gettext_lazy("New players may be seated anywhere"),
    "R-CASH-1": gettext_lazy("Live straddle"),
    "R-CASH-2": gettext_lazy("Mississippi straddle"),
    "R-CASH-3": gettext_lazy("New players"),
    "R-CASH-4": gettext_lazy("Missed blinds"),
    "R-CASH-5": gettext_lazy("Blind sizes"),
    "R-ACT-1": gettext_lazy("Action in turn is binding"),
    "R-ACT-2": gettext_lazy("Wait until the bet is clear"),
    "R-ACT-3": gettext_lazy("Generic declarations"),
    "R-ACT-4": gettext_lazy("A call cannot become a raise"),
    "R-ACT-5": gettext_lazy("Verbal declaration and chips"),
    "R-ACT-6": gettext_lazy("Kinds of declaration"),
    "R-ACT-7": gettext_lazy("“Raise” and an amount is the total"),
    "R-ACT-8": gettext_lazy("Ambiguous amounts"),
    "R-ACT-9": gettext_lazy("Invalid declarations"),
    "R-ACT-10": gettext_lazy("Folding when not facing a bet"),
    "R-ACT-11": gettext_lazy("“Pot” in no-limit"),
    "R-ACT-12": gettext_lazy("String bets"),
    "R-ACT-13": gettext_lazy("Conditional statements"),
    "R-ACT-14": gettext_lazy("Accepted action"),
    "R-ACT-15": gettext_lazy("Stack counts"),
    "R-CALL-1": gettext_lazy("One oversized chip"),
    "R-CALL-2": gettext_lazy("Multiple-chip rule"),
    "R-CALL-3": gettext_lazy("Undercalls"),
    "R-RAISE-1": gettext_lazy("Minimum bet"),
    "R-RAISE-2": gettext_lazy("Minimum raise"),
    "R-RAISE-3": gettext_lazy("How to raise"),
    "R-RAISE-5": gettext_lazy("The 50% rule"),
    "R-RAISE-6": gettext_lazy("All-in below the minimum bet"),
    "R-RAISE-7": gettext_lazy("Wrong amounts are corrected"),
    "R-REOPEN-1": gettext_lazy("Reopening the betting"),
    "R-LIMIT-1": gettext_lazy("Fixed bets"),
    "R-LIMIT-2": gettext_lazy("The cap"),
    "R-LIMIT-3": gettext_lazy("Short all-ins in limit"),
    "R-PL-1": gettext_lazy("Pot-limit maximum"),
    "R-PL-2": gettext_lazy("Short blind in pot-limit"),
    "R-PL-3": gettext_lazy("Counting the pot"),
    "R-PL-4": gettext_lazy("Pot-limit miscounts"),
    "R-OOT-1": gettext_lazy("Out-of-turn action"),
    "R-OOT-2": gettext_lazy("Player skipped by out-of-turn action"),
    "R-TIME-1": gettext_lazy("Time called"),
    "R-POT-1": gettext_lazy("Uncalled chips are returned"),
    "R-POT-2": gettext_lazy("Side pots"),
    "R-POT-3": gettext_lazy("Each pot is split separately"),
    "R-POT-4": gettext_lazy("Order of award"),
    "R-SD-1": gettext_lazy("Cards speak"),
    "R-SD-2": gettext_lazy("Show all cards to win"),
    "R-SD-3": gettext_lazy("Uncontested pot"),
    "R-SD-4": gettext_lazy("All-in: hands face up"),
    "R-SD-5": gettext_lazy("Showdown order"),
    "R-SD-6": gettext_lazy("Asking to see a hand"),
    "R-SD-7": gettext_lazy("Playing the board"),
    "R-SD-8": gettext_lazy("Ties split the pot"),
    "R-SD-9": gettext_lazy("Odd chips"),
    "R-RANK-1": gettext_lazy("Hand ranking"),
    "R-RANK-2": gettext_lazy("Best five of seven"),
    "R-RANK-3": gettext_lazy("Suits never rank"),
}

# Every engine error in one place (STYLE.md 5): the class decides the sentence.
ENGINE_ERRORS: dict[type[EngineError], Any] = {
    engine.InvalidSetup: gettext_lazy("The table setup is not usable."),
    engine.UnknownSeat: gettext_lazy("That seat is not dealt in this hand."),
    engine.InvalidAmount: gettext_lazy("That amount is not valid: write a whole number of chips."),
    engine.InvalidCards: gettext_lazy(
        "Those cards are not valid: write rank and suit, e.g. As Kd Th 7c, each card once."
    ),
    engine.HandOver: gettext_lazy("The betting is over: no more actions in this hand."),
    engine.IllegalAction: gettext_lazy("The rules do not allow this action here."),
    engine.DecisionRequired: gettext_lazy("The rules leave this to the TD: choose what happens."),
    EngineError: gettext_lazy("The engine refused this step."),
}

DECISION_OPTIONS: dict[str, Any] = {
    "complete_call": gettext_lazy("the player completes the call"),
    "forfeit_and_fold": gettext_lazy("the player folds and forfeits the chips put out"),
    "declaration": gettext_lazy("the declaration stands"),
    "chips": gettext_lazy("the chips stand"),
}

ACT_LABELS: dict[str, Any] = {
    "fold": gettext_lazy("fold"),
    "check": gettext_lazy("check"),
    "call": gettext_lazy("call"),
    "bet": gettext_lazy("bet"),
    "raise": gettext_lazy("raise"),
    "all_in": gettext_lazy("all-in"),
    "complete": gettext_lazy("complete"),
    "timeout": gettext_lazy("time expired"),
    "chips": gettext_lazy("chips pushed"),
    "declare": gettext_lazy("words only"),
}

DECLARED_LABELS: dict[str, Any] = {
    "raise": gettext_lazy("said “raise”"),
    "bet": gettext_lazy("said “bet”"),
    "call": gettext_lazy("said “call”"),
    "all_in": gettext_lazy("said “all in”"),
    "pot": gettext_lazy("said “pot”"),
}

STREET_LABELS: dict[str, Any] = {
    "preflop": gettext_lazy("preflop"),
    "flop": gettext_lazy("flop"),
    "turn": gettext_lazy("turn"),
    "river": gettext_lazy("river"),
    "showdown": gettext_lazy("showdown"),
}

SETTING_LABELS: dict[str, Any] = {
    "verbal_vs_chips": gettext_lazy("Verbal declaration or chips first"),
    "fifty_percent_rule": gettext_lazy("50% rule"),
    "undercall_mode": gettext_lazy("Undercalls"),
    "nl_reopen_threshold": gettext_lazy("Short all-in reopens the betting"),
    "oot_mode": gettext_lazy("Out-of-turn action"),
    "showdown_order": gettext_lazy("Showdown order"),
    "hilo_identical_scoop": gettext_lazy("Hi/lo: identical hands"),
    "hilo_odd_chip": gettext_lazy("Hi/lo: odd chip"),
    "limit_cap_raises": gettext_lazy("Limit: raises before the cap"),
    "limit_headsup_uncapped": gettext_lazy("Limit: heads-up without a cap"),
    "limit_short_allin_raise": gettext_lazy("Limit: raise over a short all-in"),
    "nl_pot_declaration": gettext_lazy("No-limit: saying “pot”"),
    "time_expiry": gettext_lazy("Time expired"),
    "ambiguous_verbal_amount": gettext_lazy("Ambiguous amounts"),
    "substantial_action": gettext_lazy("Substantial action"),
    "chip_unit": gettext_lazy("Smallest chip in play"),
    "mississippi_first_to_act": gettext_lazy("Mississippi straddle: first to act"),
}

# Every choice of those settings in words (the engine's values are codes): setting -> value.
SETTING_OPTION_LABELS: dict[str, dict[str, Any]] = {
    "verbal_vs_chips": {
        "first_action": gettext_lazy("Whichever comes first stands (TDA)"),
        "verbal_prevails": gettext_lazy("The spoken declaration prevails"),
    },
    "fifty_percent_rule": {
        "ge_half_of_increment": gettext_lazy("Half the last raise or more must complete (TDA)"),
        "gt_half_of_min_raise": gettext_lazy("More than half the minimum raise (FIGP)"),
    },
    "undercall_mode": {
        "tda": gettext_lazy("Full call heads-up or facing the opening bet (TDA)"),
        "always_full_call": gettext_lazy("Always made up to a full call (FIGP)"),
        "complete_or_forfeit": gettext_lazy("Complete the call or forfeit the chips"),
    },
    "nl_reopen_threshold": {
        "full": gettext_lazy("Only a full raise reopens (TDA)"),
        "half": gettext_lazy("Half a raise or more reopens"),
    },
    "oot_mode": {
        "tda": gettext_lazy("Binding unless a bet or raise comes first (TDA)"),
        "figp": gettext_lazy("A check or call before it reduces it (FIGP)"),
        "code003": gettext_lazy("Binding only if the others check or fold"),
    },
    "showdown_order": {
        "tda_last_round": gettext_lazy("Last aggressor of the last round (TDA)"),
        "last_aggressor_any_street": gettext_lazy("Last aggressor of any round"),
    },
    "hilo_identical_scoop": {
        "precise": gettext_lazy("The whole pot split as evenly as possible"),
        "per_half": gettext_lazy("Each half split on its own"),
    },
    "hilo_odd_chip": {
        "to_high": gettext_lazy("To the high hand"),
        "by_position": gettext_lazy("By position"),
    },
    "limit_headsup_uncapped": {
        "event_heads_up": gettext_lazy("Only when the event is heads-up (TDA)"),
        "round_starts_headsup": gettext_lazy("When a round starts with two players"),
        "before_third_raise": gettext_lazy("When two are left before the third raise"),
    },
    "limit_short_allin_raise": {
        "allin_plus_bet": gettext_lazy("The all-in plus one bet"),
        "treat_as_full_bet": gettext_lazy("The all-in counts as a full bet"),
    },
    "nl_pot_declaration": {
        "binds_min_bet": gettext_lazy("Binds the player to the minimum bet (TDA)"),
        "not_binding": gettext_lazy("Not binding"),
    },
    "time_expiry": {
        "tda": gettext_lazy("Dead hand facing a bet, otherwise check (TDA)"),
        "always_fold": gettext_lazy("Always a fold"),
    },
    "ambiguous_verbal_amount": {
        "largest_below_pot": gettext_lazy("The largest amount below the pot (TDA)"),
        "smallest": gettext_lazy("The smallest amount it can mean"),
    },
    "substantial_action": {
        "tda": gettext_lazy("As the TDA defines it"),
        "figp": gettext_lazy("As the FIGP defines it"),
    },
    "mississippi_first_to_act": {
        "utg": gettext_lazy("The player left of the big blind"),
        "sb": gettext_lazy("The small blind"),
    },
}


def setting_option_label(setting: str, value: str) -> str:
    """Return one choice of an engine setting in words (the value itself if unknown)."""
    return str(SETTING_OPTION_LABELS.get(setting, {}).get(value, value))


class InputError(ValueError):
    """What the floor typed cannot be read; the message is in the user's language."""


def engine_error_message(exc: EngineError) -> str:
    """Return the translated sentence for an engine error, with the rule ids it cites."""
    sentence = next(str(text) for cls, text in ENGINE_ERRORS.items() if isinstance(exc, cls))
    parts = [sentence]
    options = getattr(exc, "options", ())
    if options:
        parts.append(
            _("Options: %(options)s.")
            % {"options": "; ".join(str(DECISION_OPTIONS.get(o, o)) for o in options)}
        )
    if exc.rules:
        from tables.ruling.citations import citations  # it reads this module's titles

        titles = ", ".join(c.title for c in citations(exc.rules))
        parts.append(_("Rules: %(rules)s.") % {"rules": titles})
    return " ".join(parts)


def rule_title(rule_id: str) -> str:
    """Return the short title of a rule anchor, or "" for a source reference."""
    title = RULE_TITLES.get(rule_id.split(" ")[0])
    return str(title) if title is not None else ""

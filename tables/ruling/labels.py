"""The ruling tool's words: rule titles and engine errors in the user's language."""

from __future__ import annotations

from typing import Any

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
    "R-ACT-5a": gettext_lazy("One chip: the word must come first"),
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

# The rule behind each anchor in one or two plain sentences, for whoever hovers or taps its
# title (written from shared/rules/in-hand.md; the defaults where the books disagree).
RULE_TEXTS: dict[str, Any] = {
    "R-FLOW-1": gettext_lazy(
        "One 52-card deck: four suits, thirteen ranks from ace to two, no jokers."
    ),
    "R-FLOW-2": gettext_lazy(
        "A hand starts with the first riffle of the shuffle; new blinds apply from the next "
        "hand. A hand started with the old blinds by mistake goes on once there has been "
        "substantial action."
    ),
    "R-FLOW-3": gettext_lazy(
        "Blinds and antes go in before the deal. The cards are dealt face down, one at a time "
        "clockwise, starting with the small blind; the button gets the last card."
    ),
    "R-FLOW-4": gettext_lazy(
        "Before the flop, the turn and the river the dealer burns exactly one card, then turns "
        "three, one and one."
    ),
    "R-FLOW-5": gettext_lazy("A hand has four betting rounds: preflop, flop, turn and river."),
    "R-FLOW-6": gettext_lazy(
        "Preflop the first player left of the big blind acts first; the big blind keeps the "
        "option to raise when only calls come back to him."
    ),
    "R-FLOW-7": gettext_lazy(
        "After the flop the first active player left of the button acts first and the button "
        "acts last, even when the button is dead."
    ),
    "R-FLOW-8": gettext_lazy(
        "Heads-up the button posts the small blind, acts first before the flop and last on "
        "every later round."
    ),
    "R-FLOW-9": gettext_lazy(
        "Players who are all-in or have folded are skipped when the action moves on."
    ),
    "R-FLOW-10": gettext_lazy(
        "A betting round ends when only one player is left, when every active player has acted "
        "and put in the same amount, or when nobody is left to bet against."
    ),
    "R-FLOW-11": gettext_lazy(
        "A player who has only posted a blind has not acted yet, so he keeps his option to raise."
    ),
    "R-DEAL-1": gettext_lazy(
        "Substantial action is, in the same round, two actions of which at least one puts "
        "chips in, or any three actions. After it there is no misdeal."
    ),
    "R-DEAL-2": gettext_lazy(
        "A misdeal is called for, among others, cards stuck together, the first card to the "
        "wrong seat, a player wrongly dealt in or left out, a wrong number of cards, or the "
        "first cards exposed by the dealer. The hand is replayed exactly: the button does not "
        "move."
    ),
    "R-DEAL-3": gettext_lazy(
        "After substantial action there is no misdeal and the hand goes on; only a faulty deck "
        "(two identical cards, a different back) stops it, and all bets are returned."
    ),
    "R-DEAL-4": gettext_lazy(
        "A button dealt too few cards may be completed even after substantial action; if he "
        "acts with too few cards his hand is dead."
    ),
    "R-DEAL-5": gettext_lazy(
        "After a hand is killed the dealer still burns exactly one card per round: the burn "
        "protects the stub, not the original order."
    ),
    "R-DEAL-6": gettext_lazy(
        "A four-card flop is mixed face down and one card becomes the next burn; a flop turned "
        "without a burn is redone only if nobody has acted. Cards turned too early follow the "
        "dealer's procedure."
    ),
    "R-BLIND-1": gettext_lazy(
        "The first player left of the button posts the small blind, the next one the big "
        "blind; heads-up the button posts the small blind."
    ),
    "R-BLIND-2": gettext_lazy(
        "Blinds are live bets: they count toward calls and raises, the big blind is the "
        "opening bet preflop, and a part nobody called comes back."
    ),
    "R-BLIND-3": gettext_lazy(
        "A big blind who cannot post it all is all-in for what he has; the bet to call and the "
        "minimum raise stay those of the full big blind."
    ),
    "R-BLIND-4": gettext_lazy(
        "A player who posted a blind in turn may still raise when the action comes back to "
        "him, even after an all-in for less than a raise."
    ),
    "R-ANTE-1": gettext_lazy(
        "Every player dealt in posts the ante before the blinds. It does not count toward a "
        "call, but it counts for the side pots."
    ),
    "R-ANTE-2": gettext_lazy(
        "The big blind posts the whole table's ante before his blind; if he is short the ante "
        "is paid first and only the rest is a live blind."
    ),
    "R-ANTE-3": gettext_lazy(
        "The big-blind ante is dead money in the main pot: it never counts toward a call and "
        "is never returned."
    ),
    "R-BTN-1": gettext_lazy(
        "Tournaments play with a dead button: everyone posts both blinds in turn, and the "
        "button may stay on an empty seat."
    ),
    "R-BTN-2": gettext_lazy(
        "Each hand the big blind moves to the next seat with a player, the small blind to the "
        "last big blind's seat and the button to the last small blind's seat, even if it is "
        "empty. Nobody is big blind twice in a row."
    ),
    "R-BTN-3": gettext_lazy(
        "If the small blind is eliminated the button stays put for one hand; if the big blind "
        "is eliminated the button moves and the next player posts only the big blind."
    ),
    "R-BTN-4": gettext_lazy(
        "New and moved players may be seated anywhere, blinds and button included, and are "
        "dealt in at once unless seated between the small blind and the button."
    ),
    "R-CASH-1": gettext_lazy(
        "Cash games: the player left of the big blind may post a live straddle of twice the "
        "big blind. He acts last preflop and keeps the option to raise."
    ),
    "R-CASH-2": gettext_lazy(
        "Cash games: the button may straddle twice the big blind; if the player left of the "
        "big blind straddles too, his straddle comes first."
    ),
    "R-CASH-3": gettext_lazy(
        "Cash games: a new player waits for his big blind, posts one to be dealt in at once "
        "(live, with the option) or straddles; he is never dealt in between the small blind "
        "and the button."
    ),
    "R-CASH-4": gettext_lazy(
        "Cash games: a player who missed his blinds comes back by posting the small blind dead "
        "and the big blind live, or waits for his big blind."
    ),
    "R-CASH-5": gettext_lazy(
        "Cash games: the blinds are the table's stakes, e.g. 5 and 10 in a 5/10 game; every "
        "bet is a multiple of the small blind."
    ),
    "R-ACT-1": gettext_lazy(
        "Players act in turn; an action in turn, spoken or with chips, is binding and chips "
        "put in stay in."
    ),
    "R-ACT-2": gettext_lazy(
        "Players should wait until the amount of a bet is clear before acting."
    ),
    "R-ACT-3": gettext_lazy(
        "A generic word in turn, such as “call” or “raise”, binds the player to the full, "
        "correct action."
    ),
    "R-ACT-4": gettext_lazy("A player who has acted cannot turn his call into a raise."),
    "R-ACT-5": gettext_lazy(
        "Bets are made by word, with chips or both: whichever comes first defines the bet; if "
        "they come together a clear word wins. Unclear cases go to the TD."
    ),
    "R-ACT-5a": gettext_lazy(
        "Whatever the house rule on words and chips, one oversized chip facing a bet is a call "
        "unless “raise” was said before the chip touched the table."
    ),
    "R-ACT-6": gettext_lazy(
        "A declaration may be a word (“call”, “raise”), an amount, or both. An amount alone is "
        "the same as pushing that many chips: it is the player's total."
    ),
    "R-ACT-7": gettext_lazy(
        "“Raise” with an amount and nothing else means that amount as the total bet, not as "
        "the raise on top."
    ),
    "R-ACT-8": gettext_lazy(
        "A spoken amount that can mean several things is the largest reasonable amount below "
        "the pot (the house may choose the smallest instead)."
    ),
    "R-ACT-9": gettext_lazy(
        "Not facing a bet, “call” is a check and “raise” a bet of at least the minimum; facing "
        "a bet, “check” is no action and the player may call or fold, but not raise."
    ),
    "R-ACT-10": gettext_lazy(
        "Folding when not facing a bet, or out of turn, is binding and may be penalised."
    ),
    "R-ACT-11": gettext_lazy(
        "In no-limit “pot” is not a valid bet, but it binds the player to at least a minimum "
        "bet, or a minimum raise if he faces a bet."
    ),
    "R-ACT-12": gettext_lazy(
        "String bets are not allowed: a raise made in two motions without saying “raise” first "
        "is only a call."
    ),
    "R-ACT-13": gettext_lazy(
        "Conditional statements about future action (“if you bet, I raise”) are discouraged; "
        "the TD decides whether they bind."
    ),
    "R-ACT-14": gettext_lazy(
        "A caller is bound to the correct amount of the bet, even if he was given a wrong count."
    ),
    "R-ACT-15": gettext_lazy(
        "Only a player in turn facing an all-in may ask for a precise count of an opponent's stack."
    ),
    "R-CALL-1": gettext_lazy(
        "Facing a bet or a blind, one chip larger than the call is a call unless “raise” was "
        "said before it touched the table. Not facing a bet, it is a bet of the chip's full "
        "value."
    ),
    "R-CALL-2": gettext_lazy(
        # The "%" is a percentage, not a placeholder (xgettext would flag it).
        # xgettext:no-python-format
        "Facing a bet, several chips are a call if taking away one of the smallest leaves less "
        "than the call; otherwise the 50% rule decides, and a player's last chips are an "
        "all-in."
    ),
    "R-CALL-3": gettext_lazy(
        "Putting in less than the call (not all-in) becomes a full call heads-up or facing the "
        "opening bet; otherwise the TD decides between completing the call and forfeiting the "
        "chips."
    ),
    "R-RAISE-1": gettext_lazy(
        "The minimum bet is the big blind on every round; a smaller bet that is not all-in is "
        "made up to it."
    ),
    "R-RAISE-2": gettext_lazy(
        "A raise must be at least the largest full bet or raise of the current round: the "
        "increase counts, not the previous total."
    ),
    "R-RAISE-3": gettext_lazy(
        "Raise by putting in the whole amount in one motion, by saying the total first, or by "
        "saying “raise”, putting in the call, then the raise in one more motion."
    ),
    "R-RAISE-5": gettext_lazy(
        # The "%" is a percentage, not a placeholder (xgettext would flag it).
        # xgettext:no-python-format
        "A raise of 50% or more of the last full bet or raise, but short of a minimum raise, "
        "must be completed to a minimum raise; under 50% it is a call unless “raise” was said "
        "first."
    ),
    "R-RAISE-6": gettext_lazy(
        "After an all-in below the minimum bet, a raise must be to at least twice the minimum bet."
    ),
    "R-RAISE-7": gettext_lazy(
        "Except in pot-limit, a wrong bet amount is corrected to the proper one at any point "
        "in the current round."
    ),
    "R-REOPEN-1": gettext_lazy(
        "An all-in for less than a full raise (or several that together make less than one) "
        "does not reopen the betting for players who have already acted: they may only call or "
        "fold."
    ),
    "R-LIMIT-1": gettext_lazy(
        "In limit the bets are fixed: the small bet preflop and on the flop, the big bet on "
        "the turn and the river."
    ),
    "R-LIMIT-2": gettext_lazy(
        "In limit a round allows one bet and at most three raises; the house sets the cap."
    ),
    "R-LIMIT-3": gettext_lazy(
        "In limit an all-in reopens the betting for players who have already acted only if it "
        "is at least half a full raise."
    ),
    "R-PL-1": gettext_lazy(
        "In pot-limit the largest bet is the pot, and the largest raise is the size of the pot "
        "after the player's call."
    ),
    "R-PL-2": gettext_lazy(
        "In pot-limit a blind all-in for less counts as a full blind when the preflop maximum "
        "is worked out; after the flop the real pot counts."
    ),
    "R-PL-3": gettext_lazy(
        "Players may ask for a pot count only in pot-limit, where “pot” means the largest bet; "
        "in no-limit and limit the pot is not counted."
    ),
    "R-PL-4": gettext_lazy(
        "A pot-limit bet made on a count that was too high is reduced for everyone during the "
        "round; one on a count too low is corrected only if no substantial action followed."
    ),
    "R-OOT-1": gettext_lazy(
        "Action out of turn goes back to the right player. It binds if the action to that "
        "player does not change (the others only check, call or fold); a bet or raise frees "
        "him. A fold out of turn always binds."
    ),
    "R-OOT-2": gettext_lazy(
        "A player skipped by action out of turn must speak up; if substantial action follows "
        "to his left, that action binds and the TD decides about his hand."
    ),
    "R-TIME-1": gettext_lazy(
        "When the clock runs out, a player facing a bet has a dead hand; a player not facing a "
        "bet checks."
    ),
    "R-POT-1": gettext_lazy(
        "The part of a bet that nobody called is returned to the player before the pots are made."
    ),
    "R-POT-2": gettext_lazy(
        "An all-in player can win from each opponent only what he put in himself; the rest "
        "makes side pots for the others."
    ),
    "R-POT-3": gettext_lazy("The main pot and each side pot are split separately."),
    "R-POT-4": gettext_lazy(
        "Side pots are awarded before the main pot, starting with the last one formed."
    ),
    "R-SD-1": gettext_lazy(
        "At showdown the cards speak: what a player says about his hand does not bind him, and "
        "a misread hand should be pointed out."
    ),
    "R-SD-2": gettext_lazy(
        "To win any part of a pot a player must show all his cards face up; a hand properly "
        "shown and clearly winning cannot be killed."
    ),
    "R-SD-3": gettext_lazy("If everyone else mucks, the last hand wins and need not be shown."),
    "R-SD-4": gettext_lazy(
        "Once a player is all-in and the betting is over, all hands are turned face up at "
        "once, and none may be mucked."
    ),
    "R-SD-5": gettext_lazy(
        "With no all-in, the last player to bet or raise in the last round shows first; if "
        "nobody did, the first player left of the button. Then clockwise."
    ),
    "R-SD-6": gettext_lazy(
        "After a river bet, a caller who still holds or has shown his cards may see the last "
        "aggressor's hand; other requests are up to the TD."
    ),
    "R-SD-7": gettext_lazy(
        "A player who plays the board must still show both his cards to share the pot."
    ),
    "R-SD-8": gettext_lazy("Equal best hands split the pot equally; each pot is split on its own."),
    "R-SD-9": gettext_lazy(
        "After breaking down to the smallest chip in play, an odd chip left from a split goes "
        "to the first winner left of the button."
    ),
    "R-RANK-1": gettext_lazy(
        "Hands rank, best first: royal flush, straight flush, four of a kind, full house, "
        "flush, straight, three of a kind, two pair, one pair, high card."
    ),
    "R-RANK-2": gettext_lazy(
        "A hand is the best five of the seven cards (the two hole cards and the board); only "
        "those five count."
    ),
    "R-RANK-3": gettext_lazy("Suits never rank hands and never break ties."),
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


def rule_title(rule_id: str) -> str:
    """Return the short title of a rule anchor, or "" for a source reference."""
    title = RULE_TITLES.get(rule_id.split(" ")[0])
    return str(title) if title is not None else ""

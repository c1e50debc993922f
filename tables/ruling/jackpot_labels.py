"""Words of the jackpot judgements: each reason code of `tables.cash.jackpot` in the user's
language. The pure rules return codes only; the claim screens and slips show these."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from tables.cash.jackpot import REASONS

REASON_TEXTS: dict[str, Any] = {
    "bad_beat_qualifies": gettext_lazy("The bad beat qualifies: the jackpot is paid."),
    "new_high_hand": gettext_lazy("A new high hand for the period."),
    "ties_high_hand": gettext_lazy(
        "The hand ties the period's high hand: the prize will be shared."
    ),
    "game_not_covered": gettext_lazy("This game does not take part in the jackpot."),
    "board_incomplete": gettext_lazy("All five board cards are needed."),
    "too_few_players": gettext_lazy("Too few players were dealt in the hand."),
    "loser_below_minimum": gettext_lazy("The losing hand is below the minimum hand."),
    "loser_hole_card_not_playing": gettext_lazy(
        "Both of the loser's hole cards must play in the best hand."
    ),
    "winner_not_better": gettext_lazy("The winning hand does not beat the losing hand."),
    "winner_below_minimum": gettext_lazy("The winning hand is below the minimum hand."),
    "winner_hole_card_not_playing": gettext_lazy(
        "Both of the winner's hole cards must play in the best hand."
    ),
    "hand_below_minimum": gettext_lazy("The hand is below the minimum hand."),
    "hand_hole_card_not_playing": gettext_lazy("Both hole cards must play in the best hand."),
    "below_high_hand": gettext_lazy("The hand does not reach the period's high hand."),
}
assert set(REASON_TEXTS) == set(REASONS), "every reason code has its words"

PERIOD_LABELS: dict[str, Any] = {
    "hour": gettext_lazy("hourly"),
    "shift": gettext_lazy("per shift"),
    "day": gettext_lazy("daily"),
}

FUND_LABELS: dict[str, Any] = {
    "main": gettext_lazy("jackpot"),
    "backup": gettext_lazy("backup fund"),
    "next": gettext_lazy("next jackpot fund"),
}


def reason_texts(reasons: tuple[str, ...]) -> list[str]:
    """The words of a judgement's reasons, in the active language."""
    return [str(REASON_TEXTS[r]) for r in reasons]

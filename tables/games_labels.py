"""Words of the pit ruling tool: each rule id's article in the user's language, each step
of the explanation trail, and the codes of results and refusals.

The pure rules (`tables.games`) return codes and rule ids only; every user-visible word is
here, through gettext, so a saved ruling prints in the language of whoever reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from tables.games.cards import symbol_text
from tables.games.money import BetResult, Line
from tables.games.trail import Step

SOURCE = "000_488cc5ab758b19d7.txt"

# What each article decides (Casinò Sanremo rulebooks, v2 of 17 Oct 2023).
RULES: dict[str, Any] = {
    "BJ Art.1.2": gettext_lazy("Values: ace 1 or 11, tens and pictures 10; a hand over 21 loses."),
    "BJ Art.2.2": gettext_lazy("The first five cards of every shoe are burnt."),
    "BJ Art.3.1": gettext_lazy("Limits are per box, as posted at the table."),
    "BJ Art.3.3": gettext_lazy(
        "Winnings on a stake over the maximum are not recognised; the excess is returned."
    ),
    "BJ Art.3.4": gettext_lazy("At most three bets on a box, together within the box maximum."),
    "BJ Art.4.1": gettext_lazy("At least two boxes must carry a bet."),
    "BJ Art.6.2": gettext_lazy(
        "One card to every box and to the Banco, then a second card to the boxes only: "
        "no hole card."
    ),
    "BJ Art.6.3": gettext_lazy(
        "Surrender: half the bet is given up; the titolare's surrender binds the box."
    ),
    "BJ Art.6.4": gettext_lazy(
        "Double on any two cards (one card only); split equal values up to three hands; "
        "aces once, one card each, no Black-Jack."
    ),
    "BJ Art.6.5": gettext_lazy(
        "Bets behind need not follow a double or split; not following a split, they play "
        "on the first split card."
    ),
    "BJ Art.6.7": gettext_lazy("The Banco draws on 16 or less and stands on 17 or more."),
    "BJ Art.6.8": gettext_lazy("The Banco over 21: every bet still in play is paid 1:1."),
    "BJ Art.6.9": gettext_lazy(
        "Banco 17 to 21: higher hands paid 1:1, lower collected, equal totals keep the bet."
    ),
    "BJ Art.6.10": gettext_lazy(
        "Black-Jack pays 3:2 unless the Banco makes Black-Jack too; insurance is half the "
        "bet and pays 2:1 on the Banco's Black-Jack."
    ),
    "BJ Art.6.11": gettext_lazy("Black-Jack against an up card 2 to 9 is paid 3:2 at once."),
    "BJ Art.6.11a": gettext_lazy(
        "Black-Jack against a ten-value up card: even money at once on request, or wait."
    ),
    "BJ Art.6.11b": gettext_lazy(
        "Black-Jack against an ace: even money at once on request, insurance, or wait."
    ),
    "BJ Art.7.1": gettext_lazy(
        "No bets left in play: the round is over and the Banco does not draw."
    ),
    "BJ Art.9.1": gettext_lazy("The red cut card marks the last hand of the shoe."),
    "BJ Art.10.2": gettext_lazy("A card drawn and exposed by mistake is annulled."),
    "BJ Art.11.1": gettext_lazy("Cases the rules don't cover are decided by the Direzione."),
    "BJ niWin.3": gettext_lazy("niWin: a bet on the Banco's final score, 17 to 26 or BJ."),
    "BJ niWin.4": gettext_lazy(
        "niWin pays 17 5:1, 18 6:1, 19 6:1, 20 4:1, 21 12:1, 22 12:1, 23 13:1, 24 15:1, "
        "25 18:1, 26 22:1, BJ 19:1."
    ),
    "BJ niWin.7": gettext_lazy(
        "niWin bets are paid or collected at the end of the round, after the main bets."
    ),
    "BJ niWin.8": gettext_lazy(
        "With niWin bets on the layout the Banco must draw, even when every player is out."
    ),
    "PB Art.1.5": gettext_lazy(
        "The cut card goes before the last seven cards; the first five cards are burnt."
    ),
    "PB Art.2.1": gettext_lazy("Limits are posted at the table."),
    "PB Art.2.3": gettext_lazy(
        "Winnings on a stake over the maximum are not recognised; the excess is returned."
    ),
    "PB Art.5.1": gettext_lazy("Égalité wins when both sides make the same total."),
    "PB Art.5.3": gettext_lazy(
        "Four cards: the first and third to Punto, second and fourth to Banco."
    ),
    "PB Art.5.5": gettext_lazy("Totals announced Banco first; the higher total wins."),
    "PB Art.5.6": gettext_lazy("Cards count their face value; tens and pictures count zero."),
    "PB Art.5.7": gettext_lazy(
        "8 or 9 with the first two cards is a natural: the other side may not draw."
    ),
    "PB Art.6.3": gettext_lazy("Winning Number: a bet on the winning hand's total, 1 to 9."),
    "PB Art.6.4": gettext_lazy(
        "Winning Number pays 1 85:1, 2 45:1, 3 30:1, 4 16:1, 5 12:1, 6 6.5:1, 7 4.5:1, "
        "8 3:1, 9 2.5:1."
    ),
    "PB Art.6.5": gettext_lazy("Winning Number is paid after the main bets."),
    "PB Art.6.6": gettext_lazy("On Égalité, Winning Number bets are neither collected nor paid."),
    "PB Art.8.1": gettext_lazy(
        "Punto and Banco pay 1:1, Banco winning with 6 pays half the stake; Égalité pays 8:1."
    ),
    "PB Art.9.5": gettext_lazy("A third card given wrongly: the coup follows the rule."),
    "PB Art.11.1": gettext_lazy(
        "A last coup that starts with the cut card needs at least seven cards behind it, "
        "otherwise it is void."
    ),
    "PB Art.14": gettext_lazy(
        "Drawing table: Punto draws on 0-5; Banco draws by his total and Punto's third card."
    ),
}

STEPS: dict[str, Any] = {
    "bj.deal": gettext_lazy("Banco's up card {up}; no hole card."),
    "bj.offer_surrender": gettext_lazy("Surrender is offered first, against any up card."),
    "bj.offer_insurance": gettext_lazy("Ace up: insurance is offered, after surrender."),
    "bj.offer_even_money": gettext_lazy("Black-Jack boxes are offered even money at once."),
    "bj.blackjack_paid_now": gettext_lazy("Up card 2 to 9: Black-Jacks are paid 3:2 at once."),
    "bj.surrender": gettext_lazy("Box {box}: the titolare surrenders; the whole box follows."),
    "bj.surrender_behind": gettext_lazy("Box {box}: bet {bet} behind surrenders."),
    "bj.insurance": gettext_lazy("Box {box}: bet {bet} takes insurance (half the bet)."),
    "bj.even_money": gettext_lazy("Box {box}: bet {bet} takes even money at once."),
    "bj.split": gettext_lazy("Box {box}: split into {hands} hands."),
    "bj.hand": gettext_lazy("Box {box}, hand {hand}: {cards} = {soft} {total}."),
    "bj.hand_double": gettext_lazy("Box {box}, hand {hand} doubled: {cards} = {soft} {total}."),
    "bj.hand_bust": gettext_lazy("Box {box}, hand {hand}: {cards} = {total}, over 21: lost."),
    "bj.hand_blackjack": gettext_lazy("Box {box}: {cards} is Black-Jack."),
    "bj.hand_split_21": gettext_lazy(
        "Box {box}, hand {hand}: {cards} = 21, not a Black-Jack (a split hand)."
    ),
    "bj.other_boxes": gettext_lazy(
        "Other boxes with a bet, not entered here: {boxes}; with them the round has the two "
        "boxes it needs."
    ),
    "bj.exposed": gettext_lazy(
        "{card} came out as the Banco's card {place}, exposed by mistake before its turn: "
        "annulled; his hand is drawn from the next cards."
    ),
    "bj.dealer_draws_other_boxes": gettext_lazy(
        "Boxes not entered here may be in play: the Banco's cards are taken as he drew them."
    ),
    "bj.dealer_no_draw": gettext_lazy(
        "Nothing is left in play: the Banco does not draw (up card {up})."
    ),
    "bj.dealer_draws_in_play": gettext_lazy("Bets are in play: the Banco completes his hand."),
    "bj.dealer_draws_niwin": gettext_lazy(
        "Every player is out, but niWin bets are on the layout: the Banco draws."
    ),
    "bj.dealer_draws_insurance": gettext_lazy(
        "Only insurance is in play: the Banco draws the card that decides it."
    ),
    "bj.dealer_card": gettext_lazy("Banco draws {card}: {soft} {total}."),
    "bj.dealer_blackjack": gettext_lazy("Banco has Black-Jack."),
    "bj.dealer_bust": gettext_lazy("Banco busts with {total}."),
    "bj.dealer_stands": gettext_lazy("Banco stands on {total}."),
    "bj.annulled": gettext_lazy("Annulled, drawn after the Banco had to stand: {cards}."),
    "pb.deal": gettext_lazy("Punto {p1} {p2}, Banco {b1} {b2}."),
    "pb.natural": gettext_lazy("Natural {total} for {side}: nobody draws."),
    "pb.punto_draws": gettext_lazy("Punto has {total}: draws {card}."),
    "pb.punto_stands": gettext_lazy("Punto has {total}: stands."),
    "pb.banco_draws": gettext_lazy(
        "Banco has {total}, Punto giving {column}: draws {card} (table row {total}, column "
        "{column})."
    ),
    "pb.banco_stands": gettext_lazy(
        "Banco has {total}, Punto giving {column}: stands (table row {total}, column {column})."
    ),
    "pb.totals": gettext_lazy("Banco {banco}, Punto {punto}: {winner}."),
    "pb.unused": gettext_lazy("Not part of the coup: {cards}."),
    "pb.last_coup_valid": gettext_lazy(
        "Last coup from the cut card: {behind} cards behind it, at least seven: valid."
    ),
    "pb.last_coup_void": gettext_lazy(
        "Last coup from the cut card: only {behind} cards behind it: the coup is void."
    ),
}

WORDS: dict[str, Any] = {
    "soft": gettext_lazy("soft"),
    "hard": gettext_lazy("hard"),
    "punto": gettext_lazy("Punto"),
    "banco": gettext_lazy("Banco"),
    "egalite": gettext_lazy("Égalité"),
    "winning_number": gettext_lazy("Winning Number"),
    "none": gettext_lazy("void"),
    "NO": gettext_lazy("NO (Punto stood)"),
}

OUTCOMES: dict[str, Any] = {
    "win": gettext_lazy("paid"),
    "lose": gettext_lazy("collected"),
    "push": gettext_lazy("stake back"),
    "surrender": gettext_lazy("surrendered"),
    "even_money": gettext_lazy("even money"),
    "returned": gettext_lazy("returned"),
    "void": gettext_lazy("void, stake back"),
}

PARTS: dict[str, Any] = {
    "hand": gettext_lazy("hand"),
    "insurance": gettext_lazy("insurance"),
    "niwin": gettext_lazy("niWin"),
    "bet": pgettext_lazy("a punto banco bet line", "bet"),
    "excess": gettext_lazy("over the maximum"),
}

REASONS: dict[str, Any] = {
    "fewer_than_two_boxes": gettext_lazy("At least two boxes must carry a bet (BJ Art.4.1)."),
    "too_many_bets_on_box": gettext_lazy("At most three bets on one box (BJ Art.3.4)."),
    "bet_below_minimum": gettext_lazy("A stake is below the table minimum."),
    "box_over_limit_shared": gettext_lazy(
        "A shared box is over the maximum; whose stake to cut is for the Direzione "
        "(BJ Art.3.4, Art.11.1)."
    ),
    "insurance_not_offered": gettext_lazy(
        "Insurance is offered only against an ace (BJ Art.6.10)."
    ),
    "even_money_not_offered": gettext_lazy(
        "Even money is offered only on a Black-Jack against an ace or a ten (BJ Art.6.11)."
    ),
    "conflicting_options": gettext_lazy(
        "A bet can't take more than one of surrender, insurance and even money, nor insure "
        "a surrendered box."
    ),
    "invalid_split": gettext_lazy("Split hands must start with cards of equal value (BJ Art.6.4)."),
    "too_many_split_hands": gettext_lazy("At most three hands after splitting (BJ Art.6.4)."),
    "aces_resplit": gettext_lazy("Aces are split once only (BJ Art.6.4)."),
    "invalid_split_aces_hand": gettext_lazy(
        "A split ace gets exactly one card and can't be doubled (BJ Art.6.4)."
    ),
    "invalid_double": gettext_lazy(
        "A doubled hand gets exactly one card after its first two (BJ Art.6.4)."
    ),
    "decision_on_blackjack": gettext_lazy("A Black-Jack takes no card, double or surrender."),
    "surrendered_hand_played": gettext_lazy(
        "A surrendered box can't be split, doubled or drawn to (BJ Art.6.3)."
    ),
    "incomplete_hand": gettext_lazy("Every hand needs at least two cards."),
    "card_after_bust": gettext_lazy("A card was added to a hand already over 21 (BJ Art.1.2)."),
    "insufficient_dealer_cards": gettext_lazy(
        "The Banco must draw (BJ Art.6.7): write the cards he drew."
    ),
    "winning_number_out_of_range": gettext_lazy(
        "A Winning Number bet needs a number from 1 to 9 (PB Art.6.3)."
    ),
    "insufficient_cards": gettext_lazy("The drawing rule needs more cards than written."),
    "impossible_cards": gettext_lazy("More copies of one card than six decks hold."),
    "malformed_card": gettext_lazy("A card is not written as rank and suit, e.g. Ah, Td, 9c."),
    "malformed_bet": gettext_lazy("A bet is not readable."),
}


# The article behind each refusal, shown with it; the codes not listed have none.
REASON_RULES: dict[str, str] = {
    "fewer_than_two_boxes": "BJ Art.4.1",
    "too_many_bets_on_box": "BJ Art.3.4",
    "bet_below_minimum": "BJ Art.3.1",
    "box_over_limit_shared": "BJ Art.3.4",
    "insurance_not_offered": "BJ Art.6.10",
    "even_money_not_offered": "BJ Art.6.11",
    "invalid_split": "BJ Art.6.4",
    "too_many_split_hands": "BJ Art.6.4",
    "aces_resplit": "BJ Art.6.4",
    "invalid_split_aces_hand": "BJ Art.6.4",
    "invalid_double": "BJ Art.6.4",
    "surrendered_hand_played": "BJ Art.6.3",
    "card_after_bust": "BJ Art.1.2",
    "insufficient_dealer_cards": "BJ Art.6.7",
    "winning_number_out_of_range": "PB Art.6.3",
    "insufficient_cards": "PB Art.14",
}
PB_REASON_RULES = {"bet_below_minimum": "PB Art.2.1"}

HINTS: dict[str, Any] = {
    "fewer_than_two_boxes": gettext_lazy(
        "If other boxes carried a bet and only the disputed one is entered, count them "
        "under “Other boxes in the round”."
    ),
}

# Step parameters that hold cards: shown in the reader's language like every other card.
CARD_PARAMS = {"up", "card", "cards", "p1", "p2", "b1", "b2"}


def card_text(code: str) -> str:
    """A stored card as the reader reads it. In Italian "c" would be cuori, so a stored
    "8c" (clubs) is shown with its suit symbol, never with a letter that means another suit.
    """
    if (get_language() or "").startswith("it"):
        return symbol_text(code)
    return code


def cards_text(codes: Iterable[str] | str) -> list[str]:
    if isinstance(codes, str):
        codes = codes.split()
    return [card_text(c) for c in codes]


def rule_text(rule: str) -> str:
    text = RULES.get(rule)
    return str(text) if text is not None else ""


def refusals(reasons: Iterable[str], game: str) -> list[dict[str, str]]:
    """Each refusal in words, with the article that decides it and what to do about it."""
    out = []
    for code in reasons:
        rule = (PB_REASON_RULES.get(code) if game == "punto_banco" else None) or (
            REASON_RULES.get(code, "")
        )
        if game == "punto_banco" and rule.startswith("BJ"):
            rule = ""
        hint = HINTS.get(code) if game == "blackjack" else None
        out.append(
            {
                "text": str(REASONS.get(code, code)),
                "rule": rule,
                "article": rule_text(rule) if rule else "",
                "hint": str(hint) if hint else "",
            }
        )
    return out


def step_text(code: str, params: Mapping[str, str]) -> str:
    template = STEPS.get(code)
    if template is None:
        return code
    words = {
        k: " ".join(cards_text(v)) if k in CARD_PARAMS else str(WORDS.get(v, v))
        for k, v in params.items()
    }
    try:
        return str(template).format(**words)
    except (KeyError, IndexError):
        return str(template)


def steps_data(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """The trail as plain JSON (stored in the log, worded again when read)."""
    return [{"code": s.code, "rule": s.rule, "params": dict(s.params)} for s in steps]


def money(value: Decimal) -> str:
    """An exact amount: no decimals when whole, otherwise as many as it has."""
    if value == value.to_integral_value():
        return str(value.quantize(Decimal(1)))
    return str(value.normalize())


def _line_data(line: Line) -> dict[str, Any]:
    return {
        "part": line.part,
        "hand": line.hand,
        "stake": money(line.stake),
        "outcome": line.outcome,
        "net": money(line.net),
        "rule": line.rule,
    }


def results_data(results: Iterable[BetResult]) -> list[dict[str, Any]]:
    return [
        {
            "bet": r.bet_id,
            "player": r.player,
            "net": money(r.net),
            "lines": [_line_data(line) for line in r.lines],
        }
        for r in results
    ]


def worded(data: Mapping[str, Any]) -> dict[str, Any]:
    """A stored ruling with every code turned into words of the current language."""
    out = dict(data)
    for key in ("cards", "unused", "annulled", "exposed"):
        if key in data:
            out[key] = cards_text(data[key])
    for key in ("dealer", "punto", "banco"):
        if isinstance(data.get(key), Mapping):
            out[key] = {**data[key], "cards": cards_text(data[key].get("cards", []))}
    if "hands" in data:
        out["hands"] = [{**h, "cards": cards_text(h.get("cards", []))} for h in data["hands"]]
    out["steps"] = [
        {
            **s,
            "text": step_text(s["code"], s.get("params", {})),
            "article": rule_text(s["rule"]),
        }
        for s in data.get("steps", [])
    ]
    out["results"] = [
        {
            **r,
            "lines": [
                {
                    **line,
                    "part_text": str(PARTS.get(line["part"], line["part"])),
                    "outcome_text": str(OUTCOMES.get(line["outcome"], line["outcome"])),
                    "article": rule_text(line["rule"]),
                }
                for line in r["lines"]
            ],
        }
        for r in data.get("results", [])
    ]
    return out


def summary_text(data: Mapping[str, Any]) -> str:
    """One line for the list of saved rulings, in the reader's language."""
    if data.get("game") == "blackjack":
        dealer = data.get("dealer") or {}
        boxes = len({h.get("box") for h in data.get("hands", [])})
        return _("Banco %(cards)s, %(boxes)d boxes") % {
            "cards": " ".join(cards_text(dealer.get("cards", []))),
            "boxes": boxes,
        }
    winner = str(WORDS.get(data.get("winner", ""), data.get("winner", "")))
    return f"{' '.join(cards_text(data.get('cards', [])))} → {winner}"


def game_name(game: str) -> str:
    return _("Blackjack") if game == "blackjack" else _("Punto banco")

"""The floor ruling tool's words and readings: rule titles, engine errors in the user's
language, parsing what the floor typed into engine objects, and a hand as a page shows it.

The rules themselves stay in `tables.engine`; this module only translates between the
engine and the people at the table (DESIGN.md layer 3 helpers, no database access).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from typing import Any, get_args, get_type_hints

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables import engine
from tables.engine import Action, EngineError, EngineSettings, Hand, SeatStack, TableSetup
from tables.engine.cards import split_concatenated

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
        parts.append(_("Rules: %(rules)s.") % {"rules": ", ".join(exc.rules)})
    return " ".join(parts)


def rule_title(rule_id: str) -> str:
    """Return the short title of a rule anchor, or "" for a source reference."""
    title = RULE_TITLES.get(rule_id.split(" ")[0])
    return str(title) if title is not None else ""


# --- Reading what the floor typed -----------------------------------------------------

_INT = re.compile(r"[0-9]+")


def parse_amount(text: str | None, what: str, *, required: bool = False) -> int | None:
    """Return a whole number of chips from the floor's input ("1200", "1.200", "1 200")."""
    raw = (text or "").strip().replace(" ", "").replace(".", "").replace("'", "")
    if not raw:
        if required:
            raise InputError(_("Write %(what)s.") % {"what": what})
        return None
    # ASCII digits only: str.isdigit() accepts "²", which int() refuses.
    if not _INT.fullmatch(raw):
        raise InputError(
            _("%(what)s must be a whole number of chips, not “%(text)s”.")
            % {"what": what, "text": text}
        )
    return int(raw)


def parse_chips(text: str | None) -> tuple[int, ...]:
    """Read a chip push: "1000 500 500", "1000, 500" or "2x1000 500" (count x value)."""
    chips: list[int] = []
    for token in re.split(r"[\s,;+]+", (text or "").strip()):
        if not token:
            continue
        count, _sep, value = token.lower().rpartition("x")
        if _sep and not (_INT.fullmatch(count) and _INT.fullmatch(value)):
            raise InputError(_("Cannot read the chips “%(text)s”.") % {"text": token})
        if not _sep and not _INT.fullmatch(value):
            raise InputError(_("Cannot read the chips “%(text)s”.") % {"text": token})
        n = int(count) if _sep else 1
        if n > 200 or int(value) == 0:
            raise InputError(_("Cannot read the chips “%(text)s”.") % {"text": token})
        chips.extend([int(value)] * n)
    return tuple(chips)


def parse_cards(text: str | None) -> tuple[str, ...]:
    """Split "Ah 7c 2d", "Ah,7c,2d" or "Ah7c2d" into cards (the engine validates them)."""
    cards: list[str] = []
    for token in re.split(r"[\s,;]+", (text or "").strip()):
        if token:
            cards.extend(split_concatenated(token) if len(token) > 2 else (token,))
    return tuple(cards)


def parse_seat(text: str | None) -> int:
    """Return a seat number (1 and up)."""
    seat = parse_amount(text, _("the seat"), required=True)
    assert seat is not None
    if seat < 1:
        raise InputError(_("Seats are numbered from 1."))
    return seat


def action_from_form(data: Any) -> Action:
    """Build an engine Action from the action form (a QueryDict or a dict of strings)."""
    kind = (data.get("kind") or "").strip()
    if kind not in ACT_LABELS:
        raise InputError(_("Choose what the player did."))
    declared = (data.get("declared") or "").strip() or None
    if declared is not None and declared not in DECLARED_LABELS:
        raise InputError(_("Choose what the player said."))
    chips = parse_chips(data.get("chips"))
    if kind == "chips" and not chips:
        raise InputError(_("Write the chips pushed forward, e.g. 1000 500 500."))
    words = (data.get("words") or "").strip() or None
    if kind == "declare" and not words:
        raise InputError(_("Write the player's words, e.g. “raise 8000”."))
    return Action(
        seat=parse_seat(data.get("seat")),
        kind=kind,  # type: ignore[arg-type]
        to=parse_amount(data.get("to"), _("the amount")),
        chips=chips if kind == "chips" else (),
        declared=declared if kind == "chips" else None,  # type: ignore[arg-type]
        declared_to=parse_amount(data.get("declared_to"), _("the declared amount"))
        if kind == "chips"
        else None,
        words=words,
        forfeit=parse_amount(data.get("forfeit"), _("the forfeited chips")) or 0,
        declared_after_chips=bool(data.get("declared_after_chips")) and kind == "chips",
        unclear=bool(data.get("unclear")),
    )


def setting_choices() -> list[tuple[str, tuple[str, ...] | None, Any]]:
    """Every engine setting: (name, its choices or None for a number, its default)."""
    hints = get_type_hints(EngineSettings)
    out = []
    for f in fields(EngineSettings):
        choices = get_args(hints[f.name]) or None
        out.append((f.name, choices, f.default))
    return out


def settings_from_form(data: Any) -> EngineSettings:
    """Build the engine settings from the form; a missing setting keeps its TDA default."""
    values: dict[str, Any] = {}
    for name, choices, _default in setting_choices():
        raw = data.get(f"setting_{name}")
        if raw in (None, ""):
            continue
        if choices is None:
            values[name] = parse_amount(raw, str(SETTING_LABELS.get(name, name)))
        else:
            values[name] = raw
    return EngineSettings.from_dict(values)


def setup_from_form(data: Any) -> tuple[TableSetup, dict[str, str]]:
    """Build the table setup and the players' names by seat from the setup form."""
    players: list[SeatStack] = []
    names: dict[str, str] = {}
    for seat in range(1, MAX_SEATS + 1):
        name = (data.get(f"name_{seat}") or "").strip()[:60]
        stack = parse_amount(
            data.get(f"stack_{seat}"), _("the stack of seat %(seat)s") % {"seat": seat}
        )
        if stack is None:
            if name:
                raise InputError(
                    _("Seat %(seat)s (%(name)s) needs a stack, or clear the name.")
                    % {"seat": seat, "name": name}
                )
            continue
        players.append(SeatStack(seat, stack))
        if name:
            names[str(seat)] = name
    ante_mode = data.get("ante_mode") or "none"
    setup = TableSetup(
        players=tuple(players),
        button=parse_seat(data.get("button")),
        sb=parse_amount(data.get("sb"), _("the small blind")) or 0,
        bb=parse_amount(data.get("bb"), _("the big blind"), required=True) or 0,
        game=data.get("game") or "NL",
        variant=data.get("variant") or "holdem",
        ante=parse_amount(data.get("ante"), _("the ante")) or 0,
        ante_mode=ante_mode,
        small_bet=parse_amount(data.get("small_bet"), _("the small bet")),
        big_bet=parse_amount(data.get("big_bet"), _("the big bet")),
        street=data.get("street") or "preflop",
        pot=parse_amount(data.get("pot"), _("the pot")) or 0,
    )
    if setup.button > MAX_SEATS:
        # A dead button on an empty seat is fine (R-BTN-1); one beyond the table is a typo.
        raise InputError(_("The button must be on a seat of the table."))
    return setup, names


def hand_from_json(text: str | None) -> Hand:
    """Rebuild the hand carried by the page; raises InputError if it cannot be read."""
    if len(text or "") > MAX_HAND_JSON:
        raise InputError(_("The hand on this page could not be read; start it again."))
    try:
        data = json.loads(text or "")
        if not isinstance(data, dict):
            raise ValueError("not an object")
        return Hand.from_dict(data)
    except EngineError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(_("The hand on this page could not be read; start it again.")) from exc


def names_from_json(text: str | None) -> dict[str, str]:
    """The players' names by seat carried by the page (anything unreadable is dropped)."""
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v)[:60] for k, v in data.items() if str(k).isdigit()}


# --- A hand as the page shows it ------------------------------------------------------


@dataclass(frozen=True)
class RuleRef:
    id: str
    title: str


@dataclass(frozen=True)
class Step:
    """One entry of the hand's log with the engine's answer (None for cards dealt)."""

    number: int
    entry: dict[str, Any]
    ruling: engine.Ruling | None
    recorded: str
    answer: str
    rules: tuple[RuleRef, ...]
    follow_ups: tuple[tuple[int, str, tuple[RuleRef, ...]], ...] = field(default=())


def describe_entry(entry: dict[str, Any]) -> str:
    """What the floor recorded, in words."""
    kind = entry.get("type", "action")
    if kind == "board":
        return _("Board: %(cards)s") % {"cards": " ".join(entry["cards"])}
    if kind == "hole":
        return _("Seat %(seat)s shows %(cards)s") % {
            "seat": entry["seat"],
            "cards": " ".join(entry["cards"]),
        }
    if kind == "muck":
        return _("Seat %(seat)s mucks") % {"seat": entry["seat"]}
    act = entry.get("act", "")
    parts = [_("Seat %(seat)s: %(act)s") % {"seat": entry["seat"], "act": ACT_LABELS.get(act, act)}]
    if entry.get("to") is not None:
        parts.append(_("to %(amount)s") % {"amount": entry["to"]})
    if entry.get("chips"):
        parts.append("[" + " ".join(str(c) for c in entry["chips"]) + "]")
    if entry.get("declared"):
        parts.append(str(DECLARED_LABELS.get(entry["declared"], entry["declared"])))
    if entry.get("declared_to") is not None:
        parts.append(str(entry["declared_to"]))
    if entry.get("words"):
        parts.append(f"“{entry['words']}”")
    if entry.get("forfeit"):
        parts.append(_("forfeits %(amount)s") % {"amount": entry["forfeit"]})
    return " ".join(parts)


def describe_ruling(ruling: engine.Ruling) -> str:
    """The engine's answer, in words."""
    if not ruling.accepted:
        return _("Not accepted as an action")
    if ruling.act is None:
        if ruling.out_of_turn:
            return _("Out of turn: held until his turn")
        return _("Binding declaration: the player must still bet or raise")
    label = str(ACT_LABELS.get(ruling.act, ruling.act))
    text = label if ruling.to is None or ruling.act == "fold" else f"{label} {ruling.to}"
    if ruling.act == "all_in" and ruling.to is not None:
        text = _("all-in for %(amount)s") % {"amount": ruling.to}
    if ruling.out_of_turn:
        text = _("%(action)s (out of turn, pending)") % {"action": text}
        if ruling.act == "fold":
            text = _("fold (out of turn, binding)")
    return text


def _refs(rules: tuple[str, ...]) -> tuple[RuleRef, ...]:
    return tuple(RuleRef(r, rule_title(r)) for r in rules)


def steps(hand: Hand) -> list[Step]:
    """Every log entry with the engine's ruling on it, in order."""
    rulings = iter(hand.rulings)
    out = []
    for number, entry in enumerate(hand.log, start=1):
        ruling = next(rulings) if entry.get("type", "action") == "action" else None
        out.append(
            Step(
                number=number,
                entry=entry,
                ruling=ruling,
                recorded=describe_entry(entry),
                answer=describe_ruling(ruling) if ruling else "",
                rules=_refs(ruling.rules) if ruling else (),
                follow_ups=tuple(
                    (f.seat, describe_ruling(f), _refs(f.rules)) for f in ruling.follow_ups
                )
                if ruling
                else (),
            )
        )
    return out


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    start: int
    stack: int
    committed: int
    folded: bool
    all_in: bool
    hole: str
    final: int | None


@dataclass(frozen=True)
class HandView:
    """What the ruling page shows about a hand right now."""

    street: str
    board: str
    next_to_act: int | None
    to_call: int
    min_raise_to: int | None
    max_raise_to: int | None
    pot_total: int
    pots: list[tuple[str, int, tuple[int, ...]]]
    seats: list[SeatRow]
    betting_over: bool
    winners: list[tuple[str, tuple[int, ...]]]
    returned: dict[int, int]
    result_missing: str
    game: str
    steps: list[Step]


def pot_name(index: int) -> str:
    return str(_("Main pot")) if index == 0 else _("Side pot %(n)s") % {"n": index}


def _winners(result: engine.HandResult) -> list[tuple[str, tuple[int, ...]]]:
    out = []
    for index, award in enumerate(result.awards):
        if award.lo_winners:
            out.append((_("%(pot)s, high") % {"pot": pot_name(index)}, award.winners))
            out.append((_("%(pot)s, low") % {"pot": pot_name(index)}, award.lo_winners))
        else:
            out.append((pot_name(index), award.winners))
    return out


def hand_view(hand: Hand, names: dict[str, str]) -> HandView:
    """Summarise a hand for the page: who acts, the amounts, pots, and the end result."""
    result = None
    missing = ""
    if hand.betting_over:
        try:
            result = hand.result()
        except EngineError as exc:
            missing = _(
                "To award the pots, enter the board and the hole cards of the hands still in."
            )
            missing = f"{missing} ({exc})"
    final = result.final_stacks if result else {}
    start = {p.seat: p.stack for p in hand.setup.players}
    seats = [
        SeatRow(
            seat=s,
            name=names.get(str(s), ""),
            start=start[s],
            stack=hand.stack(s),
            committed=hand.committed(s),
            folded=hand.is_folded(s),
            all_in=hand.stack(s) == 0 and not hand.is_folded(s),
            hole=" ".join(hand.hole(s)),
            final=final.get(s),
        )
        for s in hand.seats
    ]
    nxt = hand.next_to_act
    return HandView(
        street=str(STREET_LABELS.get(hand.street, hand.street)),
        board=" ".join(hand.board),
        next_to_act=nxt,
        to_call=hand.to_call() if nxt is not None else 0,
        min_raise_to=hand.min_raise_to() if nxt is not None else None,
        max_raise_to=hand.max_raise_to() if nxt is not None else None,
        pot_total=hand.pot_total(),
        pots=[(pot_name(i), p.amount, p.eligible) for i, p in enumerate(hand.pots())],
        seats=seats,
        betting_over=hand.betting_over,
        winners=_winners(result) if result else [],
        returned=dict(result.returned) if result else {},
        result_missing=missing,
        game=hand.setup.game,
        steps=steps(hand),
    )

"""A hand as the ruling pages show it: its steps with the rules that decided them, the
seats, the pots and who won them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tables import engine
from tables.engine import EngineError, Hand
from tables.ruling.labels import ACT_LABELS, DECLARED_LABELS, STREET_LABELS, rule_title

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
    if entry.get("second_motion"):
        parts.append(
            _("then back to the stack: %(chips)s")
            % {"chips": "[" + " ".join(str(c) for c in entry["second_motion"]) + "]"}
        )
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
    what_next: str = ""


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


def _who(seat: int, names: dict[str, str]) -> str:
    name = names.get(str(seat), "")
    if name:
        return _("seat %(seat)s (%(name)s)") % {"seat": seat, "name": name}
    return _("seat %(seat)s") % {"seat": seat}


def _last_step(hand: Hand, names: dict[str, str]) -> str:
    """The last action ruled, in a sentence (a string raise says what went back)."""
    if not hand.log or hand.log[-1].get("type", "action") != "action" or not hand.rulings:
        return ""
    entry, ruling = hand.log[-1], hand.rulings[-1]
    who = _who(ruling.seat, names)
    if not ruling.accepted and "R-ACT-12" in ruling.rules:
        return _("The second motion of %(who)s is not an action: its chips go back.") % {"who": who}
    if not ruling.accepted:
        return _("That is not an action for %(who)s.") % {"who": who}
    if ruling.act is None:
        return ""
    if "R-ACT-12" in ruling.rules and entry.get("second_motion"):
        return _(
            "Only the first motion counts: %(who)s, %(action)s; the %(chips)s of the second "
            "motion go back to his stack."
        ) % {"who": who, "action": describe_ruling(ruling), "chips": sum(entry["second_motion"])}
    return _("The ruling: %(who)s, %(action)s.") % {"who": who, "action": describe_ruling(ruling)}


def _what_next(
    hand: Hand, names: dict[str, str], result: engine.HandResult | None, missing: str
) -> str:
    """What happens now at the table, in plain sentences."""
    sentences = [_last_step(hand, names)]
    nxt = hand.next_to_act
    if nxt is not None:
        who = _who(nxt, names)
        to_call, min_raise = hand.to_call(), hand.min_raise_to()
        if to_call and min_raise is not None:
            text = _(
                "Next to act: %(who)s, %(call)s to call; or fold, or raise to at least %(raise)s."
            )
        elif to_call:
            text = _("Next to act: %(who)s, %(call)s to call, or fold; he may not raise.")
        elif min_raise is not None:
            text = _("Next to act: %(who)s: check, or bet at least %(raise)s.")
        else:
            text = _("Next to act: %(who)s: check.")
        sentences.append(text % {"who": who, "call": to_call, "raise": min_raise})
    elif result is not None:
        for pot, seats in _winners(result):
            winners = ", ".join(_who(s, names) for s in seats)
            sentences.append(_("%(pot)s goes to %(winners)s.") % {"pot": pot, "winners": winners})
    elif missing:
        sentences.append(
            _("The betting is over: enter the board and the hole cards still in to award the pots.")
        )
    return " ".join(s[:1].upper() + s[1:] for s in sentences if s)


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
        what_next=_what_next(hand, names, result, missing),
    )

"""Conformance adapter for the table games (table-games.md §1.2): blackjack and punto banco.

Only translation lives here: JSON in, tables.games decides, JSON out. A typed error of the
rules becomes `valid: false` with its reason codes.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from tables.games import GameError
from tables.games import blackjack as bj
from tables.games import punto_banco as pb
from tables.games.cards import Card, names, parse_cards
from tables.games.money import BetResult, Line, amount_of

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


def _num(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _line(line: Line) -> dict[str, Any]:
    out: dict[str, Any] = {"part": line.part}
    if line.hand is not None:
        out["hand"] = line.hand
    out.update(stake=_num(line.stake), outcome=line.outcome, net=_num(line.net), rule=line.rule)
    return out


def results_json(results: tuple[BetResult, ...]) -> dict[str, Any]:
    return {
        r.bet_id: {"net": _num(r.net), "lines": [_line(line) for line in r.lines]} for r in results
    }


def _invalid(exc: GameError) -> dict[str, Any]:
    return {"valid": False, "reasons": list(exc.reasons)}


# --- blackjack --------------------------------------------------------------------------


def bj_bet(raw: dict[str, Any]) -> bj.Bet:
    return bj.Bet(
        bet_id=str(raw["id"]),
        player=str(raw.get("player", "")),
        amount=amount_of(raw.get("amount")),
        surrender=bool(raw.get("surrender", False)),
        insurance=bool(raw.get("insurance", False)),
        even_money=bool(raw.get("even_money", False)),
        follow_double=bool(raw.get("follow_double", False)),
        follow_split=bool(raw.get("follow_split", False)),
    )


def bj_box(raw: dict[str, Any]) -> bj.Box:
    return bj.Box(
        box=int(raw["box"]),
        bets=tuple(bj_bet(b) for b in raw.get("bets", [])),
        hands=tuple(
            bj.Hand(cards=parse_cards(h.get("cards", [])), double=bool(h.get("double")))
            for h in raw.get("hands", [])
        ),
    )


def bj_limits(raw: dict[str, Any] | None) -> bj.Limits | None:
    if not raw:
        return None
    return bj.Limits(
        minimum=amount_of(raw["min"]) if raw.get("min") is not None else None,
        maximum=amount_of(raw["max"]) if raw.get("max") is not None else None,
    )


def _bj_dealer_json(hand: bj.DealerHand) -> dict[str, Any]:
    v = hand.value
    return {
        "cards": names(hand.cards),
        "total": v.total,
        "soft": v.soft,
        "blackjack": hand.blackjack,
        "bust": v.bust,
        "completed": hand.completed,
    }


def dealer_draw(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    hand = bj.dealer_hand(parse_cards(given["dealer"]))
    out = _bj_dealer_json(hand)
    del out["completed"]
    out.update(niwin_score=hand.niwin_score, annulled=names(hand.annulled))
    return out


def settle_round(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    try:
        result = bj.settle_round(
            parse_cards(given["dealer"]),
            [bj_box(b) for b in given.get("boxes", [])],
            [
                bj.NiwinBet(
                    str(n["id"]), str(n.get("player", "")), str(n["score"]), amount_of(n["amount"])
                )
                for n in given.get("niwin", [])
            ],
            limits=bj_limits(given.get("limits")),
        )
    except GameError as exc:
        return _invalid(exc)
    box_hands: dict[str, list[dict[str, Any]]] = {}
    for h in result.hands:
        box_hands.setdefault(str(h.box), []).append(
            {"total": h.total, "soft": h.soft, "blackjack": h.blackjack, "bust": h.bust}
        )
    return {
        "valid": True,
        "reasons": [],
        "dealer": _bj_dealer_json(result.dealer),
        "annulled": names(result.dealer.annulled),
        "box_hands": box_hands,
        "results": results_json(result.results),
    }


# --- punto banco ------------------------------------------------------------------------


def _pb_hand(hand: pb.PBHand) -> dict[str, Any]:
    return {
        "cards": names(hand.cards),
        "total": hand.total,
        "natural": hand.natural,
        "drew": hand.drew,
    }


def third_card(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    d = pb.deal(parse_cards(given["cards"]))
    return {
        "punto": _pb_hand(d.punto),
        "banco": _pb_hand(d.banco),
        "winner": d.winner,
        "unused_cards": names(d.unused),
    }


def pb_bet(raw: dict[str, Any]) -> pb.PBBet:
    number = raw.get("number")
    return pb.PBBet(
        bet_id=str(raw["id"]),
        player=str(raw.get("player", "")),
        on=str(raw.get("on", "")),
        amount=amount_of(raw.get("amount")),
        number=number if isinstance(number, int) and not isinstance(number, bool) else None,
    )


def pb_limits(raw: dict[str, Any] | None) -> pb.PBLimits | None:
    if not raw:
        return None
    return pb.PBLimits(
        minimum={k: amount_of(v) for k, v in (raw.get("min") or {}).items()},
        maximum={k: amount_of(v) for k, v in (raw.get("max") or {}).items()},
    )


def settle_coup(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    last = given.get("last_coup")
    cards: tuple[Card, ...] = ()
    try:
        cards = parse_cards(given["cards"])
        coup = pb.settle_coup(
            cards,
            [pb_bet(b) for b in given.get("bets", [])],
            limits=pb_limits(given.get("limits")),
            last_coup=None
            if last is None
            else pb.LastCoup(
                bool(last["starts_with_cut_card"]), int(last["cards_behind_cut_card"])
            ),
        )
    except GameError as exc:
        return _invalid(exc)
    d = coup.deal
    return {
        "valid": True,
        "reasons": [],
        "punto": _pb_hand(d.punto),
        "banco": _pb_hand(d.banco),
        "winner": coup.winner,
        "void": coup.void,
        "unused_cards": names(d.unused),
        "results": results_json(coup.results),
    }


HANDLERS: dict[tuple[str, str], Handler] = {
    ("blackjack", "dealer_draw"): dealer_draw,
    ("blackjack", "settle_round"): settle_round,
    ("punto_banco", "third_card"): third_card,
    ("punto_banco", "settle_coup"): settle_coup,
}

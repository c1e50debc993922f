"""Conformance adapter for the jackpots (tables/cash/jackpots.md §8): cases to
tables.cash.jackpot and back.

Topics jackpot_drop, jackpot_funds, bad_beat and high_hand. Only translation lives here;
every decision is made by tables.cash.jackpot. A case's `rule` names only the settings it
changes; the rest are the spec's defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from tables.cash.jackpot import (
    BadBeatRule,
    ClaimedHand,
    DropRule,
    Funds,
    FundShares,
    HighHandRule,
    Judgement,
    best_five,
    drop_for_hand,
    hand_rank,
    judge_bad_beat,
    judge_high_hand,
    period_of,
    roll_over,
    split_bad_beat,
    split_drop,
    split_high_hand,
)
from tables.engine.ranking import category

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


def _none(value: Any) -> Any:
    return "none" if value is None else value


def _opt(value: Any) -> Any:
    return None if value in ("none", "off") else value


def _rule_values(raw: dict[str, Any]) -> dict[str, Any]:
    values = {key: _opt(value) for key, value in raw.items()}
    if "games" in values:
        values["games"] = frozenset(values["games"])
    return values


def _claimed(raw: dict[str, Any]) -> ClaimedHand:
    return ClaimedHand(int(raw["seat"]), tuple(raw["hole"]))


def _category(rank: int | None) -> str:
    return "none" if rank is None else category(rank).name.lower()


def drop_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """jackpot_drop · drop (§2)."""
    hand = given["hand"]
    cents = drop_for_hand(
        DropRule(**_rule_values(given["rule"])),
        game=hand["game"],
        pot_cents=int(hand["pot_cents"]),
        flop_dealt=bool(hand["flop_dealt"]),
    )
    return {"drop_cents": cents}


def split_drop_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """jackpot_funds · split_drop (§3)."""
    funds = split_drop(int(given["drop_cents"]), FundShares(**given["shares"]))
    return {"funds": funds, "total": sum(funds.values())}


def roll_over_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """jackpot_funds · roll_over (§3)."""
    after = roll_over(Funds(**given["funds"]), int(given["paid_cents"]))
    return {"funds_after": {"main": after.main, "backup": after.backup, "next": after.next}}


def _judgement(j: Judgement) -> dict[str, Any]:
    return {
        "pay": j.pay,
        "reasons": list(j.reasons),
        "loser_rank": _none(j.loser_rank),
        "winner_rank": _none(j.winner_rank),
        "loser_category": _category(j.loser_rank),
        "winner_category": _category(j.winner_rank),
    }


def judge_bad_beat_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """bad_beat · judge (§4)."""
    loser = _claimed(given["loser"])
    j = judge_bad_beat(
        BadBeatRule(**_rule_values(given["rule"])),
        game=given["game"],
        board=given["board"],
        loser=loser,
        winner=_claimed(given["winner"]),
        players_dealt=int(given["players_dealt"]),
    )
    result = _judgement(j)
    if j.loser_rank is not None:
        result["loser_best_five"] = list(best_five(given["game"], loser.hole, given["board"]))
    return result


def split_bad_beat_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """bad_beat · split (§5): the shares as an ordered list, so a case compares them whole."""
    shares = split_bad_beat(
        int(given["amount_cents"]),
        BadBeatRule(**_rule_values(given["rule"])),
        loser_seat=int(given["loser_seat"]),
        winner_seat=int(given["winner_seat"]),
        other_seats=[int(s) for s in given["other_seats"]],
    )
    order = ["loser", "winner", *(k for k in shares if k.startswith("table:")), "room"]
    return {"shares": [[k, shares[k]] for k in order], "total": sum(shares.values())}


def judge_high_hand_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """high_hand · judge (§6). The current high hand is written in hand notation."""
    current = _opt(given["current_high_hand"])
    claimed = _claimed(given["hand"])
    j = judge_high_hand(
        HighHandRule(**_rule_values(given["rule"])),
        game=given["game"],
        board=given["board"],
        hand=claimed,
        current_best_rank=None if current is None else hand_rank(current),
    )
    result = {"pay": j.pay, "reasons": list(j.reasons), "rank": _none(j.winner_rank)}
    result["category"] = _category(j.winner_rank)
    if j.winner_rank is not None:
        result["best_five"] = list(best_five(given["game"], claimed.hole, given["board"]))
    return result


def split_high_hand_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """high_hand · split (§6)."""
    shares = split_high_hand(int(given["amount_cents"]), [int(w) for w in given["winners"]])
    return {"shares": [[w, c] for w, c in shares.items()], "total": sum(shares.values())}


def period_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """high_hand · period (§6): wall-clock times, ISO without a zone."""
    start, end = period_of(
        HighHandRule(**_rule_values(given["rule"])),
        datetime.fromisoformat(given["at"]),
        day_start_minutes=int(given["day_start_minutes"]),
        shift_starts=[int(m) for m in given["shift_starts"]],
    )
    return {"start": start.isoformat(), "end": end.isoformat()}


HANDLERS: dict[tuple[str, str], Handler] = {
    ("jackpot_drop", "drop"): drop_handler,
    ("jackpot_funds", "split_drop"): split_drop_handler,
    ("jackpot_funds", "roll_over"): roll_over_handler,
    ("bad_beat", "judge"): judge_bad_beat_handler,
    ("bad_beat", "split"): split_bad_beat_handler,
    ("high_hand", "judge"): judge_high_hand_handler,
    ("high_hand", "split"): split_high_hand_handler,
    ("high_hand", "period"): period_handler,
}

"""Conformance adapter for the cash room (cash-room.md §1): cases to tables.cash and back.

Topics waitlist, table_open, seat_change, table_close, sit_out, missed_blind_seat, rake and
buy_in. Only translation lives here; every decision is made by the tables.cash modules.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from tables.cash.absence import check_absence, missed_blind_event, request_sit_out
from tables.cash.buyin import Game, check_buy_in
from tables.cash.changes import SeatRequest, fill_vacated_seat, seat_change_post
from tables.cash.closing import close_table, seat_from_closed_table
from tables.cash.opening import SeatedPlayer, must_move_proposal, open_table
from tables.cash.rake import Contribution, compute_rake
from tables.cash.settings import CashSettings
from tables.cash.waitlist import Response, Seated, call_for_seat, join_list
from tables.rules.buttons import Positions

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
EVENING = datetime(2026, 1, 1, tzinfo=UTC)  # cases never cross midnight (§1.1)


def _at(clock: str) -> datetime:
    hours, minutes = clock.split(":")
    return EVENING + timedelta(hours=int(hours), minutes=int(minutes))


def _clock(moment: datetime | None) -> str:
    return "none" if moment is None else moment.strftime("%H:%M")


def _none(value: Any) -> Any:
    return "none" if value is None else value


def _opt(value: Any) -> Any:
    return None if value in ("none", "off") else value


def _settings(rules: dict[str, Any]) -> CashSettings:
    values = dict(rules)
    for key in ("rake_cap", "release_after_markers", "max_buy_in"):
        if key in values:
            values[key] = _opt(values[key])
    if "suit_order" in values:
        values["suit_order"] = tuple(values["suit_order"])
    return CashSettings(**values)


def _pairs(raw: list[list[str]]) -> list[tuple[str, str]]:
    return [(a, b) for a, b in raw]


def _seats(raw: dict[str, str]) -> dict[int, str]:
    return {int(seat): player for seat, player in raw.items()}


def join_list_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """waitlist · join_list (§6.2-§6.3)."""
    player = given["player"]
    seated = _opt(player["seated_in"])
    decision = join_list(
        game=given["game"]["id"],
        bb=int(given["game"]["bb"]),
        waiting=given["list"],
        player=player["id"],
        present=player["present"],
        seated_in=None if seated is None else Seated(seated["game"], int(seated["bb"])),
        settings=_settings(given["rules"]),
    )
    result: dict[str, Any] = {
        "accepted": decision.accepted,
        "position": _none(decision.position),
        "list_after": list(decision.list_after),
    }
    if decision.reason is not None:
        result["reason"] = decision.reason
    return result


def call_for_seat_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """waitlist · call_for_seat (§6.4-§6.7)."""
    responses = {
        name: Response(after=_opt(r["after"]), takes_seat=bool(r["takes_seat"]))
        for name, r in given["responses"].items()
    }
    outcome = call_for_seat(
        waiting=given["list"],
        called_at=_at(given["called_at"]),
        responses=responses,
        table_players=given["table_players"],
        left_table_at={p: _at(t) for p, t in given["left_table_at"].items()},
        declined_at={p: _at(t) for p, t in given["declined_at"].items()},
        keep_apart=_pairs(given["keep_apart"]),
        settings=_settings(given["rules"]),
    )
    result: dict[str, Any] = {
        "calls": [
            {"player": c.player, "at": _clock(c.at), "result": c.result} for c in outcome.calls
        ],
        "seated": _none(outcome.seated),
        "seated_at": _clock(outcome.seated_at),
        "list_after": list(outcome.list_after),
    }
    if outcome.locked_out_until:
        result["locked_out_until"] = {p: _clock(t) for p, t in outcome.locked_out_until.items()}
    return result


def open_table_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """table_open · open_table (§7.2-§7.3)."""
    opening = open_table(
        waiting=given["list"],
        present=set(given["present"]),
        max_seats=int(given["table"]["max_seats"]),
        seat_card_stack=[int(s) for s in given["seat_card_stack"]],
        button_cards=given["button_cards"],
        keep_apart=_pairs(given["keep_apart"]),
        settings=_settings(given["rules"]),
    )
    return {
        "seated": list(opening.seated),
        "seats": {str(seat): name for seat, name in opening.seats.items()},
        "button": opening.positions.button,
        "sb": opening.positions.sb,
        "bb": opening.positions.bb,
        "list_after": list(opening.list_after),
    }


def must_move_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """table_open · must_move_to_new_table (§7.4)."""
    tables = [
        [SeatedPlayer(p["id"], t["id"], _at(p["seated_at"])) for p in t["players"]]
        for t in given["older_tables"]
    ]
    movers = must_move_proposal(older_tables=tables, moves_wanted=int(given["moves_wanted"]))
    return {"movers": list(movers), "status": dict.fromkeys(movers, "moved_by_house")}


def fill_vacated_seat_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """seat_change · fill_vacated_seat (§8.1)."""
    requests = [
        SeatRequest(r["player"], r["table"], int(r["seat"]), r["wants"], int(r["seated_order"]))
        for r in given["requests"]
    ]
    plan = fill_vacated_seat(
        table=given["vacated"]["table"],
        seat=int(given["vacated"]["seat"]),
        main_table=given["main_table"],
        requests=requests,
        waiting=given["list"],
        settings=_settings(given["rules"]),
    )
    return {
        "moves": [
            {
                "player": m.player,
                "from_table": "list" if m.from_table is None else m.from_table,
                "from_seat": _none(m.from_seat),
                "to_table": m.to_table,
                "to_seat": m.to_seat,
            }
            for m in plan.moves
        ],
        "status": {m.player: m.status for m in plan.moves},
        "list_after": list(plan.list_after),
    }


def seat_change_post_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """seat_change · seat_change_post (§8.4)."""
    table = given["table"]
    decision = seat_change_post(
        max_seats=int(table["max_seats"]),
        occupied=list(_seats(table["seats"])),
        next_button=int(given["next_button"]),
        from_seat=int(given["player"]["from_seat"]),
        to_seat=int(given["player"]["to_seat"]),
        settings=_settings(given["rules"]),
    )
    return {
        "moves_away_from_button": decision.moves_away_from_button,
        "active_players_passed": decision.active_players_passed,
        "must_post": decision.must_post,
    }


def close_table_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """table_close · close_table (§9.1)."""
    closing = close_table(
        players=given["players"],
        cards=given["cards"],
        waiting=given["list"],
        settings=_settings(given["rules"]),
    )
    return {
        "order": list(closing.order),
        "list_after": list(closing.list_after),
        "status": dict.fromkeys(given["players"], "from_closed_table"),
    }


def seat_from_closed_table_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """table_close · seat_player_from_closed_table (§9.2)."""
    table = given["table"]
    last = table["last_hand"]
    arrival = seat_from_closed_table(
        max_seats=int(table["max_seats"]),
        occupied=list(_seats(table["seats"])),
        last_hand=Positions(button=int(last["button"]), sb=int(last["sb"]), bb=int(last["bb"])),
        seat=int(given["arriving"]["seat"]),
    )
    p = arrival.next_hand.positions
    positions: dict[str, Any] = {"button": p.button, "sb": p.sb, "bb": p.bb}
    if p.heads_up:
        positions["heads_up"] = True
    else:
        positions.update(button_dead=p.button_dead, sb_dead=p.sb_dead)
    return {
        "next_hand": {table["id"]: positions},
        "dealt_in": arrival.dealt_in,
        "posts": arrival.posts,
        "dealt_in_from": arrival.dealt_in_from,
        "owes_missed_blinds": arrival.owes_missed_blinds,
        "min_buy_in_applies": arrival.min_buy_in_applies,
    }


def request_sit_out_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """sit_out · request_sit_out (§11.2)."""
    decision = request_sit_out(
        max_seats=int(given["table"]["max_seats"]),
        player_count=int(given["table"]["player_count"]),
        away_now=int(given["away_now"]),
        sit_outs_today=int(given["player"]["sit_outs_today"]),
        at=_at(given["time"]),
        settings=_settings(given["rules"]),
    )
    result: dict[str, Any] = {"granted": decision.granted, "return_by": _clock(decision.return_by)}
    if decision.reason is not None:
        result["reason"] = decision.reason
    return result


def check_absence_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """sit_out · check_absence (§11.1-§11.2)."""
    check = check_absence(
        kind=given["absence"]["kind"],
        since=_at(given["absence"]["since"]),
        now=_at(given["now"]),
        settings=_settings(given["rules"]),
    )
    return {
        "minutes_away": check.minutes_away,
        "limit_minutes": check.limit_minutes,
        "seat_releasable": check.seat_releasable,
    }


def missed_blind_event_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """missed_blind_seat · missed_blind_event (§11.4)."""
    decision = missed_blind_event(
        event=given["event"],
        markers=int(given["player"]["markers"]),
        on_sit_out=bool(given["player"]["on_sit_out"]),
        waiting_list_length=int(given["waiting_list_length"]),
        settings=_settings(given["rules"]),
    )
    return {
        "markers": decision.markers,
        "seat_released": decision.seat_released,
        "stack": decision.stack,
    }


def compute_rake_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """rake · compute_rake (§12)."""
    result = compute_rake(
        contributions=[
            Contribution(c["player"], int(c["amount"]), bool(c["folded"]), bool(c["all_in"]))
            for c in given["contributions"]
        ],
        flop_dealt=bool(given["flop_dealt"]),
        dead_money=int(given.get("dead_money", 0)),
        winners=given.get("winners"),
        settings=_settings(given["rules"]),
    )
    actual: dict[str, Any] = {
        "uncalled_returned": result.uncalled_returned,
        "uncalled_returned_to": _none(result.uncalled_returned_to),
        "pots": [pot.amount for pot in result.pots],
        "rake_by_pot": [pot.rake for pot in result.pots],
        "rake_total": result.rake_total,
    }
    if result.awards is not None:
        actual["awards"] = dict(result.awards)
    return actual


def check_buy_in_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """buy_in · check_buy_in (§10)."""
    game, player = given["game"], given["player"]
    decision = check_buy_in(
        game=Game(
            structure=game["structure"],
            bb=int(game["bb"]),
            min_buy_in=int(game["min_buy_in"]),
            max_buy_in=_opt(game["max_buy_in"]),
        ),
        kind=player["kind"],
        stack=int(player["stack"]),
        amount=int(given["amount"]),
        short_buy_ins_used=int(player["short_buy_ins_used"]),
        earlier_cash_out=_opt(player["earlier_cash_out"]),
        between_hands=bool(given["between_hands"]),
        settings=_settings(given["rules"]),
    )
    result: dict[str, Any] = {
        "allowed": decision.allowed,
        "stack_after": decision.stack_after,
        "short_buy_in": decision.short_buy_in,
    }
    if decision.reason is not None:
        result["reason"] = decision.reason
    return result


HANDLERS: dict[tuple[str, str], Handler] = {
    ("waitlist", "join_list"): join_list_handler,
    ("waitlist", "call_for_seat"): call_for_seat_handler,
    ("table_open", "open_table"): open_table_handler,
    ("table_open", "must_move_to_new_table"): must_move_handler,
    ("seat_change", "fill_vacated_seat"): fill_vacated_seat_handler,
    ("seat_change", "seat_change_post"): seat_change_post_handler,
    ("table_close", "close_table"): close_table_handler,
    ("table_close", "seat_player_from_closed_table"): seat_from_closed_table_handler,
    ("sit_out", "request_sit_out"): request_sit_out_handler,
    ("sit_out", "check_absence"): check_absence_handler,
    ("missed_blind_seat", "missed_blind_event"): missed_blind_event_handler,
    ("rake", "compute_rake"): compute_rake_handler,
    ("buy_in", "check_buy_in"): check_buy_in_handler,
}

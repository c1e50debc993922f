"""Conformance adapter for the room topics: translate floor cases to the room rule modules.

Topics balance, break_table, final_table, seat_draw, late_entry_deal_in and button_movement
(tournament.md §1.2). Each handler takes a case's `given` and `do` and returns the actual
result shaped like its `expect`. Only translation lives here; every decision is made by
tables.rules.balancing, tables.rules.buttons and tables.rules.seating.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from tables.rules.balancing import (
    RoomSettings,
    Table,
    check_break,
    distribute_seat_cards,
    plan_final_table,
    plan_room,
)
from tables.rules.buttons import NextHand, Positions, deal_in, draw_button, project_hands
from tables.rules.seating import (
    SeatRef,
    correct_wrong_seat,
    seat_in,
    transfer_to_new_seat,
)

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


# --- translation helpers ----------------------------------------------------------------


def _number(table_id: str) -> int:
    """Read the number of a `T<n>` table id (the default lists order by it)."""
    match = re.search(r"\d+", table_id)
    return int(match.group()) if match else 0


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def _positions(raw: dict[str, Any]) -> Positions:
    return Positions(button=int(raw["button"]), sb=int(raw["sb"]), bb=int(raw["bb"]))


def _table(raw: dict[str, Any]) -> Table:
    seats = raw.get("seats")
    return Table(
        table_id=raw["id"],
        max_seats=int(raw["max_seats"]),
        seats=None if seats is None else {int(s): p for s, p in seats.items()},
        player_count=raw.get("player_count"),
        last_hand=_positions(raw["last_hand"]) if raw.get("last_hand") else None,
        number=_number(raw["id"]),
        vacated_at={int(v["seat"]): _minutes(v["time"]) for v in raw.get("vacated_log", [])},
    )


def _positions_json(hand: NextHand) -> dict[str, Any]:
    p = hand.positions
    if p.heads_up:
        return {"button": p.button, "sb": p.sb, "bb": p.bb, "heads_up": True}
    return {
        "button": p.button,
        "sb": p.sb,
        "bb": p.bb,
        "button_dead": p.button_dead,
        "sb_dead": p.sb_dead,
    }


def _seat_json(ref: SeatRef) -> dict[str, Any]:
    return {"table": ref.table, "seat": ref.seat}


def _seat_ref(raw: dict[str, Any]) -> SeatRef:
    return SeatRef(table=raw["table"], seat=int(raw["seat"]))


def _settings(rules: dict[str, Any], **extra: Any) -> RoomSettings:
    known = {
        "game",
        "format",
        "balance_max_diff",
        "halt_short_table_diff",
        "break_order",
        "final_table_rule",
        "deal_in_exclusion",
        "event_type",
        "seats_per_table",
    }
    values: dict[str, Any] = {k: v for k, v in rules.items() if k in known}
    if "break_list" in rules:
        values["break_list"] = tuple(rules["break_list"])
    if "suit_order" in rules:
        values["suit_order"] = tuple(rules["suit_order"])
    values.update(extra)
    return RoomSettings(**values)


# --- handlers -------------------------------------------------------------------------


def balance_after_current_hand(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """balance · balance_after_current_hand (tournament.md §8)."""
    settings = _settings(given["rules"])
    tables = [_table(raw) for raw in given["tables"]]
    plan = plan_room(tables, settings)
    moves = []
    for move in plan.moves:
        entry: dict[str, Any] = {"from_table": move.from_table, "to_table": move.to_table}
        if move.player is not None:
            entry["player"] = move.player
        if move.from_seat is not None:
            entry["from_seat"] = move.from_seat
        if move.to_seat is not None:
            entry["to_seat"] = move.to_seat
        moves.append(entry)
    return {
        "halted_tables": list(plan.halted_tables),
        "moves": moves,
        "moves_count": len(plan.moves),
        "counts_after": dict(plan.counts_after),
        "next_hand": {tid: _positions_json(hand) for tid, hand in plan.next_hand.items()},
    }


def check_break_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """break_table · check_break (003 Art.7.3, §9.1-9.2)."""
    settings = _settings(given["rules"])
    tables = [_table(raw) for raw in given["tables"]]
    # A random order (RP-19) needs a draw; a case can only fix what does not depend on it.
    decision = check_break(tables, settings, rng=random.Random(0))
    return {
        "break_now": decision.break_now,
        "table_to_break": decision.table_id if decision.break_now else "none",
        "free_seats_elsewhere": decision.free_seats_elsewhere,
    }


def seat_card_draw(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """break_table · seat_card_draw (TDA-10b, §9.3)."""
    draw = given["draw"]
    result = distribute_seat_cards(
        cards=draw["cards"],
        seat_card_stack=[_seat_ref(raw) for raw in draw["seat_card_stack"]],
        suit_order=tuple(given["rules"]["suit_order"]),
    )
    return {
        "distribution_order": list(result.distribution_order),
        "assignments": {p: _seat_json(ref) for p, ref in result.assignments.items()},
    }


def _newcomer_result(
    raw_table: dict[str, Any], seat: int, exclusion: str
) -> tuple[dict[str, Any], bool, str, str]:
    table = _table(raw_table)
    assert table.seats is not None and table.last_hand is not None
    decision = deal_in(
        max_seats=table.max_seats,
        occupied=list(table.seats),
        last_hand=table.last_hand,
        seat=seat,
        deal_in_exclusion=exclusion,  # type: ignore[arg-type]
    )
    next_hand = {table.table_id: _positions_json(decision.next_hand)}
    return next_hand, decision.dealt_in, decision.posts, decision.dealt_in_from


def seat_broken_table_player(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """break_table · seat_broken_table_player (TDA-10a, FIGP §51, §9.4)."""
    arriving = given["arriving_player"]
    raw_table = next(t for t in given["tables"] if t["id"] == arriving["to_table"])
    next_hand, dealt_in, posts, dealt_in_from = _newcomer_result(
        raw_table, int(arriving["to_seat"]), given["rules"]["deal_in_exclusion"]
    )
    player = arriving["id"]
    return {
        "next_hand": next_hand,
        "dealt_in": {player: dealt_in},
        "posts": {player: posts},
        "dealt_in_from": dealt_in_from,
    }


def absent_player_move(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """break_table · absent_player_move (RP-16, TDA-30, §9.5)."""
    absent = set(given["absent_players"])
    chips_moved_by: dict[str, str] = {}
    seat_kept: dict[str, Any] = {}
    while_absent = "none"
    for player, raw in given["assigned_seat"].items():
        transfer = transfer_to_new_seat(
            player=player, assigned=_seat_ref(raw), absent=player in absent
        )
        chips_moved_by[player] = transfer.chips_moved_by
        seat_kept[player] = _seat_json(transfer.seat_kept)
        if transfer.while_absent is not None:
            while_absent = transfer.while_absent
    return {"chips_moved_by": chips_moved_by, "seat_kept": seat_kept, "while_absent": while_absent}


def plan_tables(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """final_table · plan_tables (RP-9, TDA2015-§11, FIGP §53)."""
    settings = _settings(
        given["rules"],
        seats_per_table=int(given["seats_per_table"]),
        game=given.get("game", "holdem"),
        event_type=given.get("event_type", "standard"),
        **({"format": given["format"]} if "format" in given else {}),
    )
    plan = plan_final_table(players_remaining=int(given["players_remaining"]), settings=settings)
    return {
        "final_table_formed": plan.formed,
        "final_table_size": plan.size,
        "table_layout": list(plan.layout),
    }


def correct_wrong_seat_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """seat_draw · correct_wrong_seat (TDA-7, §6.2)."""
    result = correct_wrong_seat(
        assigned=_seat_ref(given["assigned"]),
        observed=_seat_ref(given["observed"]),
        started_with_correct_stack=bool(given["started_with_correct_stack"]),
        current_stack=int(given["current_stack"]),
    )
    return {
        "seat": _seat_json(result.seat),
        "stack": result.stack,
        "allowed_to_play": result.allowed_to_play,
    }


def seat_in_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """seat_draw · seat_in (FIGP §50, §5.2)."""
    day = int(given["day"])
    result = seat_in(
        assigned=_seat_ref(given["assigned"]),
        day=day,
        id_checked_days={day} if given["id_verified"] else set(),
    )
    out: dict[str, Any] = {
        "seat": _seat_json(result.seat),
        "allowed_to_play": result.allowed_to_play,
    }
    if result.reason is not None:
        out["reason"] = result.reason
    return out


def start_next_hand(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """late_entry_deal_in · start_next_hand (TDA-8a, TDA-10a, FIGP §6, §5.3-5.4, §7.4)."""
    newcomer = given["new_player"]
    next_hand, dealt_in, posts, _ = _newcomer_result(
        given["table"], int(newcomer["seat"]), given["rules"]["deal_in_exclusion"]
    )
    return {
        "next_hand": next_hand,
        "new_player_dealt_in": dealt_in,
        "new_player_posts": posts,
        # TDA-8a: late registrants and re-entries get a full starting stack at any level.
        "new_player_stack": int(given["starting_stack"]),
    }


def project_hands_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """button_movement · project_hands (TDA-32, TDA-34, §7.1-7.2)."""
    table = _table(given["table"])
    assert table.seats is not None and table.last_hand is not None
    count = int(do["count"])
    hands = project_hands(
        max_seats=table.max_seats,
        occupied=list(table.seats),
        last_hand=table.last_hand,
        count=count,
    )
    out: dict[str, Any] = {
        "hands": [_positions_json(hand) for hand in hands],
        "acts_last": [hand.acts_last for hand in hands],
    }
    if count == 1 and hands[0].positions.heads_up:
        out["preflop_first_to_act"] = hands[0].preflop_first_to_act
    return out


def draw_button_handler(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    """button_movement · draw_button (§6.3-6.4)."""
    table = given["table"]
    result = draw_button(
        max_seats=int(table["max_seats"]),
        cards={int(seat): card for seat, card in given["draw_cards"].items()},
        suit_order=tuple(given["rules"]["suit_order"]),
    )
    p = result.positions
    return {"button": p.button, "sb": p.sb, "bb": p.bb}


HANDLERS: dict[tuple[str, str], Handler] = {
    ("balance", "balance_after_current_hand"): balance_after_current_hand,
    ("break_table", "check_break"): check_break_handler,
    ("break_table", "seat_card_draw"): seat_card_draw,
    ("break_table", "seat_broken_table_player"): seat_broken_table_player,
    ("break_table", "absent_player_move"): absent_player_move,
    ("final_table", "plan_tables"): plan_tables,
    ("seat_draw", "correct_wrong_seat"): correct_wrong_seat_handler,
    ("seat_draw", "seat_in"): seat_in_handler,
    ("late_entry_deal_in", "start_next_hand"): start_next_hand,
    ("button_movement", "project_hands"): project_hands_handler,
    ("button_movement", "draw_button"): draw_button_handler,
}

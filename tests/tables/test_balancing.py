"""The room planner: halts, moves, seats, breaks, final table and the policy check (§8-§10)."""

from __future__ import annotations

import random

import pytest

from tables.rules.balancing import (
    Move,
    RoomSettings,
    Table,
    check_break,
    check_room,
    distribute_seat_cards,
    plan_final_table,
    plan_room,
    seat_cards_for_break,
    shuffle_seat_cards,
    worst_seat,
)
from tables.rules.buttons import Positions
from tables.rules.seating import SeatRef


def table(
    number: int,
    seats: list[int] | None = None,
    *,
    last: tuple[int, int, int] | None = (1, 2, 3),
    max_seats: int = 9,
    count: int | None = None,
    **extra: object,
) -> Table:
    """Build table T<number> with players P<number>-<seat> in `seats`."""
    return Table(
        table_id=f"T{number}",
        max_seats=max_seats,
        seats=None if seats is None else {s: f"P{number}-{s}" for s in seats},
        player_count=count,
        last_hand=Positions(*last) if last else None,
        number=number,
        **extra,  # type: ignore[arg-type]
    )


def counts_only(*counts: int, max_seats: int = 10) -> list[Table]:
    return [
        table(n, None, last=None, count=c, max_seats=max_seats) for n, c in enumerate(counts, 1)
    ]


FULL = list(range(1, 10))


# --- counts, halts, minimal moves -----------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "max_diff", "moves", "after"),
    [
        ((10, 10, 7), 1, 2, (9, 9, 9)),
        ((10, 8), 1, 1, (9, 9)),
        ((10, 8), 2, 0, (10, 8)),
        ((10, 7), 2, 1, (9, 8)),
        ((9, 9, 9, 5), 1, 3, (8, 8, 8, 8)),
        ((10, 10, 10, 10, 4), 1, 4, (9, 9, 9, 9, 8)),
        ((8, 8, 7), 1, 0, (8, 8, 7)),
    ],
)
def test_fewest_moves_bring_counts_within_the_limit(
    counts: tuple[int, ...], max_diff: int, moves: int, after: tuple[int, ...]
) -> None:
    plan = plan_room(
        counts_only(*counts),
        RoomSettings(seats_per_table=10, balance_max_diff=max_diff, halt_short_table_diff="off"),
    )
    assert len(plan.moves) == moves
    assert tuple(plan.counts_after[f"T{n}"] for n in range(1, len(counts) + 1)) == after
    assert not plan.break_table.break_now


def test_ties_follow_the_balance_list_then_descending_number() -> None:
    tables = counts_only(9, 9, 6, max_seats=9)
    default = plan_room(tables, RoomSettings())
    assert [m.from_table for m in default.moves] == ["T2", "T1"]
    listed = plan_room(tables, RoomSettings(balance_source_list=("T1", "T2", "T3")))
    assert [m.from_table for m in listed.moves] == ["T1", "T2"]


@pytest.mark.parametrize(
    ("counts", "settings", "halted"),
    [
        ((9, 9, 6), RoomSettings(), {"T3"}),
        ((9, 9, 7), RoomSettings(), set()),
        ((9, 8, 5, 6), RoomSettings(), {"T3", "T4"}),
        # Short-handed events leave halting to the TD (TDA-11d): off by default.
        ((6, 6, 3), RoomSettings(format="short_handed", seats_per_table=6), set()),
        ((9, 9, 6), RoomSettings(halt_short_table_diff="off"), set()),
    ],
)
def test_halted_tables(counts: tuple[int, ...], settings: RoomSettings, halted: set[str]) -> None:
    plan = plan_room(counts_only(*counts, max_seats=9), settings)
    assert set(plan.halted_tables) == halted
    assert all(h.rule == "TDA-11c" for h in plan.halts)


# --- who moves and where --------------------------------------------------------------------


def test_next_big_blind_moves_to_the_seat_that_reaches_the_bb_soonest() -> None:
    # BAL-08 shape: T2's next BB seat is taken, so the first empty seat after it is chosen.
    source = table(1, FULL, last=(4, 5, 6))
    target = table(2, [1, 2, 4, 5, 7, 8, 9], last=(7, 8, 9))
    plan = plan_room([source, target], RoomSettings())
    (move,) = plan.moves
    assert (move.player, move.from_seat, move.to_seat) == ("P1-7", 7, 3)
    assert move.dealt_in_from == "next_hand"
    assert "TDA-11a" in move.rules
    # At the source the BB passes to the player after the mover.
    assert plan.next_hand["T1"].positions.bb == 8


def test_mover_becomes_next_big_blind_when_that_seat_is_empty() -> None:
    source = table(1, FULL, last=(1, 2, 3))
    target = table(2, [1, 2, 3, 4, 5, 8], last=(3, 4, 5))
    plan = plan_room([source, target], RoomSettings())
    first = plan.moves[0]
    assert first.to_seat == 6
    assert plan.next_hand["T2"].positions.bb == 6
    assert plan.next_hand["T2"].post_for(6) == "bb"
    assert plan.halted_tables == ("T2",)


def test_two_moves_from_one_table_take_players_in_big_blind_order() -> None:
    source = table(1, FULL, last=(8, 9, 1))
    target = table(2, [1, 2, 3, 4, 5], last=(3, 4, 5))
    plan = plan_room([source, target], RoomSettings())
    assert [(m.player, m.to_seat) for m in plan.moves] == [("P1-2", 6), ("P1-3", 7)]
    assert plan.counts_after == {"T1": 7, "T2": 7}


def test_small_blind_seat_is_never_the_worst_position() -> None:
    # BAL-10 shape: T2's BB (seat 4) busted; empty seats 4 (dead SB) and 8.
    target = table(2, [1, 2, 3, 5, 6, 7, 9], last=(2, 3, 4))
    seat, alert = worst_seat(target, target.seats or {})
    assert (seat, alert) == (8, None)


def test_small_blind_seat_only_when_nothing_else_is_free_and_floor_is_alerted() -> None:
    target = table(2, [1, 2, 3, 5, 6, 7, 8, 9], last=(2, 3, 4))
    assert worst_seat(target, target.seats or {}) == (4, "small_blind_seat")


def test_locked_seats_are_never_used() -> None:
    source = table(1, FULL, last=(1, 2, 3))
    target = table(2, [1, 2, 3, 4, 5, 8, 9], last=(3, 4, 5), locked_seats=frozenset({6}))
    plan = plan_room([source, target], RoomSettings())
    assert plan.moves[0].to_seat == 7


def test_locked_seats_reduce_capacity_so_the_table_cannot_receive() -> None:
    full_with_locks = table(1, [1, 2, 3, 4, 5, 6, 7], locked_seats=frozenset({8, 9}))
    plan = plan_room([table(2, FULL), full_with_locks], RoomSettings())
    assert plan.moves == ()
    assert plan.unresolved  # 9 v 7 is over the limit but T1 has no usable seat


def test_accessible_seats_are_kept_for_last() -> None:
    source = table(1, FULL, last=(1, 2, 3))
    target = table(2, [1, 2, 3, 4, 5, 8, 9], last=(3, 4, 5), accessible_seats=frozenset({6}))
    plan = plan_room([source, target], RoomSettings())
    assert plan.moves[0].to_seat == 7


def test_unmovable_next_big_blind_is_passed_over() -> None:
    source = table(1, FULL, last=(1, 2, 3), unmovable=frozenset({"P1-4"}))
    target = table(2, [1, 2, 3, 4, 5, 6, 7], last=(1, 2, 3))
    plan = plan_room([source, target], RoomSettings())
    assert plan.moves[0].player == "P1-5"


def test_table_where_nobody_may_move_gives_no_player() -> None:
    everyone = frozenset(f"P1-{s}" for s in FULL)
    source = table(1, FULL, unmovable=everyone)
    plan = plan_room([source, table(2, [1, 2, 3, 4, 5, 6, 7])], RoomSettings())
    assert plan.moves == ()
    assert plan.unresolved and not plan.complete


def test_unknown_button_is_reported_not_guessed() -> None:
    source = table(1, FULL, last=None)
    target = table(2, [1, 2, 3, 4, 5, 6, 7], last=(1, 2, 3))
    plan = plan_room([source, target], RoomSettings())
    assert plan.needs_button == ("T1",)
    assert not plan.complete
    (move,) = plan.moves
    assert (move.from_table, move.to_table) == ("T1", "T2")
    # The player is left open; the receiving table's side is still decided.
    assert move.player is None and move.from_seat is None
    assert move.to_seat == 8


def test_unknown_button_at_the_receiving_table_leaves_the_seat_open() -> None:
    source = table(1, FULL, last=(1, 2, 3))
    target = table(2, [1, 2, 3, 4, 5, 6, 7], last=None)
    plan = plan_room([source, target], RoomSettings())
    assert plan.needs_button == ("T2",)
    (move,) = plan.moves
    assert (move.player, move.from_seat, move.to_seat) == ("P1-4", 4, None)
    assert "T2" not in plan.next_hand


def test_balanced_room_needs_no_button() -> None:
    plan = plan_room([table(1, FULL, last=None), table(2, FULL[:8], last=None)], RoomSettings())
    assert plan.moves == () and plan.needs_button == ()


def test_mover_landing_between_button_and_small_blind_sits_out_a_hand() -> None:
    # Only seat 3 is free at T2: between next button (2) and next SB (4)... after last (1,2,4).
    target = table(2, [1, 2, 4, 5, 6, 7, 8], last=(1, 2, 4), max_seats=8)
    source = table(1, FULL, last=(1, 2, 3))
    plan = plan_room([source, target], RoomSettings(seats_per_table=9))
    move = plan.moves[0]
    assert move.to_seat == 3
    assert move.dealt_in_from == "hand_after_next"
    assert 3 in plan.next_hand["T2"].waiting


def test_stud_fills_the_most_recently_vacated_seat() -> None:
    source = table(1, FULL, last=None)
    target = table(
        2,
        [1, 2, 3, 5, 6, 8, 9],
        last=None,
        vacated_at={4: 21 * 60 + 10, 7: 21 * 60 + 40},
    )
    plan = plan_room([source, target], RoomSettings(game="stud"))
    (move,) = plan.moves
    assert move.to_seat == 7
    assert move.player is None  # the sources leave the choice of player to the floor
    assert plan.needs_button == ()


# --- breaking -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "break_list", "break_now", "to_break", "free"),
    [
        ((8, 7, 5), ("T3", "T2", "T1"), True, "T3", 5),
        ((8, 7, 6), ("T3", "T2", "T1"), False, None, 5),
        # Default list: highest number first.
        ((8, 7, 5), (), True, "T3", 5),
        ((5, 7, 8), ("T1",), True, "T1", 5),
        ((9, 9), (), False, None, 1),
    ],
)
def test_check_break(
    counts: tuple[int, ...],
    break_list: tuple[str, ...],
    break_now: bool,
    to_break: str | None,
    free: int,
) -> None:
    decision = check_break(counts_only(*counts), RoomSettings(break_list=break_list))
    assert decision.break_now is break_now
    assert decision.table_id == to_break
    assert decision.free_seats_elsewhere == free
    assert len(decision.seat_cards) == (counts[int(to_break[1:]) - 1] if to_break else 0)


def test_a_table_waits_to_break_while_its_player_who_needs_an_accessible_seat_has_none() -> None:
    # T2's player in seat 1 needs an accessible seat; T1's only accessible seat is taken.
    needing = table(2, [1, 2], needs_accessible=frozenset({"P2-1"}))
    receiving = table(1, [1, 2, 3, 4, 5], accessible_seats=frozenset({1}))
    settings = RoomSettings(break_order="fewest")
    decision = check_break([receiving, needing], settings)
    assert not decision.break_now
    assert "TDA-9" in decision.rules
    # With the accessible seat free, it breaks and he draws it.
    receiving = table(1, [2, 3, 4, 5, 6], accessible_seats=frozenset({1}))
    decision = check_break([receiving, needing], settings)
    assert decision.break_now and decision.table_id == "T2"
    assert SeatRef("T1", 1) in decision.seat_cards


def test_random_break_order_is_reproducible_and_only_picks_tables_that_fit() -> None:
    tables = counts_only(5, 5, 5, 9)
    settings = RoomSettings(break_order="random")
    first = check_break(tables, settings, rng=random.Random(7))
    again = check_break(tables, settings, rng=random.Random(7))
    assert first == again
    assert first.break_now and first.table_id in {"T1", "T2", "T3"}
    assert "RP-19" in first.rules
    with pytest.raises(ValueError):
        check_break(tables, settings)


def test_locked_seats_do_not_count_as_free() -> None:
    tables = [
        table(1, [1, 2, 3, 4, 5, 6, 7], locked_seats=frozenset({8, 9})),
        table(2, [1, 2, 3]),
    ]
    assert not check_break(tables, RoomSettings(break_list=("T2",))).break_now


def test_break_seat_cards_leave_the_receiving_tables_balanced() -> None:
    receiving = [
        table(1, [1, 2, 3, 4, 5, 6]),
        table(2, [1, 2, 3, 4, 5, 6, 7, 8]),
        table(3, [1, 2, 3, 4, 5]),
    ]
    cards = seat_cards_for_break(receiving, 6, RoomSettings())
    per_table = {t.table_id: t.count for t in receiving}
    for card in cards:
        per_table[card.table] += 1
    assert len(set(cards)) == 6
    assert max(per_table.values()) - min(per_table.values()) <= 1
    for card in cards:
        home = next(t for t in receiving if t.table_id == card.table)
        assert card.seat not in (home.seats or {})


def test_plan_room_breaks_instead_of_balancing() -> None:
    tables = [table(1, [1, 2, 3, 4, 5, 6, 7]), table(2, [1, 2, 3, 4, 5, 6]), table(3, [1, 2, 3])]
    plan = plan_room(tables, RoomSettings())
    assert plan.break_table.break_now and plan.break_table.table_id == "T3"
    assert plan.moves == ()
    assert plan.counts_after == {"T1": 8, "T2": 8, "T3": 0}


def test_seat_cards_go_out_highest_card_first() -> None:
    # BRK-03's worked example: AH, KS, KH, KD, 7C, 2S get the 1st to 6th seat cards.
    cards = {"P1": "7c", "P2": "Kh", "P3": "Ah", "P4": "2s", "P5": "Kd", "P6": "Ks"}
    stack = [SeatRef("T1", s) for s in (4, 8, 1, 6, 2, 9)]
    draw = distribute_seat_cards(cards=cards, seat_card_stack=stack)
    assert draw.distribution_order == ("P3", "P6", "P2", "P5", "P1", "P4")
    assert draw.assignments["P3"] == SeatRef("T1", 4)
    assert draw.assignments["P4"] == SeatRef("T1", 9)


def test_shuffle_is_driven_by_the_given_generator() -> None:
    cards = [SeatRef("T1", s) for s in range(1, 10)]
    assert shuffle_seat_cards(cards, random.Random(3)) == shuffle_seat_cards(
        cards, random.Random(3)
    )
    assert sorted(shuffle_seat_cards(cards, random.Random(3)), key=lambda c: c.seat) == cards


# --- final table ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "remaining", "formed", "size", "layout"),
    [
        (RoomSettings(seats_per_table=9), 10, False, 9, (5, 5)),
        (RoomSettings(seats_per_table=9), 9, True, 9, (9,)),
        (RoomSettings(seats_per_table=8), 10, False, 8, (5, 5)),
        (RoomSettings(seats_per_table=8), 9, False, 8, (5, 4)),
        (RoomSettings(seats_per_table=7), 8, False, 7, (4, 4)),
        (RoomSettings(seats_per_table=6), 7, False, 6, (4, 3)),
        (RoomSettings(seats_per_table=9), 19, False, 9, (7, 6, 6)),
        (RoomSettings(seats_per_table=9, final_table_rule="tda2015_plus_one"), 10, True, 10, (10,)),
        (
            RoomSettings(seats_per_table=8, final_table_rule="tda2015_plus_one"),
            10,
            False,
            9,
            (5, 5),
        ),
        (RoomSettings(seats_per_table=6, final_table_rule="tda2015_plus_one"), 7, True, 7, (7,)),
        (
            RoomSettings(seats_per_table=10, final_table_rule="tda2015_plus_one"),
            11,
            False,
            10,
            (6, 5),
        ),
        (
            RoomSettings(
                seats_per_table=2, final_table_rule="tda2015_plus_one", event_type="heads_up"
            ),
            3,
            False,
            2,
            (2, 1),
        ),
        (RoomSettings(seats_per_table=9, final_table_rule="figp"), 10, True, 10, (10,)),
        (
            RoomSettings(seats_per_table=6, final_table_rule="figp", format="short_handed"),
            8,
            False,
            7,
            (4, 4),
        ),
        (RoomSettings(seats_per_table=9, final_table_rule=8), 8, True, 8, (8,)),
    ],
)
def test_final_table_plan(
    settings: RoomSettings, remaining: int, formed: bool, size: int, layout: tuple[int, ...]
) -> None:
    plan = plan_final_table(players_remaining=remaining, settings=settings)
    assert (plan.formed, plan.size, plan.layout) == (formed, size, layout)
    assert sum(plan.layout) == remaining


def test_plus_one_final_table_is_formed_even_without_a_free_seat_break() -> None:
    # Two nine-seat tables of five: no table can break into the other, yet 10 left under
    # TDA2015-§11 means the ten-seat final table forms.
    tables = [table(1, [1, 2, 3, 4, 5]), table(2, [1, 2, 3, 4, 5])]
    plan = plan_room(tables, RoomSettings(final_table_rule="tda2015_plus_one"))
    assert plan.final_table.formed and plan.final_table.size == 10
    assert not plan.break_table.break_now and plan.moves == ()


# --- policy check ---------------------------------------------------------------------------


def test_check_room_accepts_a_sound_room() -> None:
    assert check_room([table(1, FULL), table(2, FULL[:8])], RoomSettings()) == []


def test_check_room_reports_each_breach() -> None:
    tables = [
        table(1, FULL, max_seats=9, locked_seats=frozenset({9})),
        table(2, [1, 2, 3, 4, 5, 6]),
    ]
    codes = {
        v.code
        for v in check_room(
            tables, RoomSettings(), assignments=[("T2", 1, "X"), ("T2", 12, "P1-1")]
        )
    }
    assert codes == {
        "over_capacity",
        "locked_seat_occupied",
        "seat_double_booked",
        "seat_out_of_range",
        "player_seated_twice",
        "unbalanced",
    }


def test_check_room_balance_only_when_required() -> None:
    tables = [table(1, FULL), table(2, [1, 2, 3, 4, 5, 6])]
    assert [v.code for v in check_room(tables, RoomSettings())] == ["unbalanced"]
    assert check_room(tables, RoomSettings(), require_balanced=False) == []


# --- scale ----------------------------------------------------------------------------------


def _big_room(seed: int, *, busts: list[int]) -> list[Table]:
    """Build 1,112 nine-seat tables (10,008 seats) with random buttons and busted seats."""
    rng = random.Random(seed)
    tables = []
    for number in range(1, 1113):
        seats = {s: f"P{number}-{s}" for s in FULL}
        for gone in rng.sample(FULL, rng.choice(busts)):
            del seats[gone]
        button = rng.randint(1, 9)
        last = Positions(button, button % 9 + 1, (button + 1) % 9 + 1)
        tables.append(Table(f"T{number}", 9, seats=seats, last_hand=last, number=number))
    return tables


def test_balances_a_ten_thousand_entry_room_by_halting_the_short_table() -> None:
    tables = _big_room(5, busts=[0])
    # One table lost four players: too few free seats to break anything, so it is balanced.
    short = tables[500]
    seats = dict(list((short.seats or {}).items())[:5])
    tables[500] = Table(short.table_id, 9, seats=seats, last_hand=short.last_hand, number=501)
    plan = plan_room(tables, RoomSettings())
    assert plan.halted_tables == ("T501",)
    assert len(plan.moves) == 3 and plan.complete
    assert {m.to_table for m in plan.moves} == {"T501"}
    assert max(plan.counts_after.values()) - min(plan.counts_after.values()) <= 1


def test_breaks_the_right_table_in_a_ten_thousand_entry_room() -> None:
    # Its speed is measured by `simulate_field --entries 10000`, not timed here.
    tables = _big_room(6, busts=[0, 0, 0, 1, 2])
    plan = plan_room(tables, RoomSettings())
    decision = plan.break_table
    assert decision.break_now and decision.table_id == "T1112"
    assert len(decision.seat_cards) == next(t.count for t in tables if t.table_id == "T1112")
    assert check_room(tables, RoomSettings(), require_balanced=False) == []


# --- properties -----------------------------------------------------------------------------


def _apply(tables: list[Table], plan_moves: tuple[Move, ...]) -> list[Table]:
    """Carry out the moves as the service would, checking each seat was free."""
    seats = {t.table_id: dict(t.seats or {}) for t in tables}
    for move in plan_moves:
        assert move.from_seat is not None and move.to_seat is not None
        player = seats[move.from_table].pop(move.from_seat)
        assert player == move.player
        assert move.to_seat not in seats[move.to_table]
        seats[move.to_table][move.to_seat] = player
    return [
        Table(
            t.table_id, t.max_seats, seats=seats[t.table_id], last_hand=t.last_hand, number=t.number
        )
        for t in tables
    ]


@pytest.mark.parametrize("seed", range(40))
def test_random_rooms_end_within_policy(seed: int) -> None:
    rng = random.Random(seed)
    max_seats = rng.choice([6, 9, 10])
    tables = []
    for number in range(1, rng.randint(2, 12) + 1):
        occupied = rng.sample(range(1, max_seats + 1), rng.randint(2, max_seats))
        bb = rng.randint(1, max_seats)
        last = Positions((bb - 3) % max_seats + 1, (bb - 2) % max_seats + 1, bb)
        tables.append(
            Table(
                f"T{number}",
                max_seats,
                seats={s: f"P{number}-{s}" for s in occupied},
                last_hand=last,
                number=number,
            )
        )
    settings = RoomSettings(seats_per_table=max_seats, balance_max_diff=rng.choice([1, 2]))
    plan = plan_room(tables, settings)
    if plan.break_table.break_now or plan.final_table.formed:
        assert plan.moves == ()
        return
    after = _apply(tables, plan.moves)
    assert check_room(after, settings) == []
    assert {t.table_id: t.count for t in after} == dict(plan.counts_after)
    # The fewest moves: each table gives at most what it holds above the final maximum.
    top = max(plan.counts_after.values())
    assert len(plan.moves) == sum(max(t.count - top, 0) for t in tables)
    for move in plan.moves:
        assert move.dealt_in_from in ("next_hand", "hand_after_next")

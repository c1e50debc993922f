"""The pure cash-room rules beyond the public cases: settings, edges of limits, variants."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables.cash.absence import check_absence, missed_blind_event, request_sit_out
from tables.cash.buyin import Game, check_buy_in
from tables.cash.changes import SeatRequest, fill_vacated_seat, seat_change_post
from tables.cash.closing import close_table, seat_from_closed_table
from tables.cash.opening import SeatedPlayer, must_move_proposal, open_table
from tables.cash.rake import Contribution, compute_rake, rake_of
from tables.cash.settings import DEFAULTS, CashSettings
from tables.cash.waitlist import Response, Seated, call_for_seat, join_list
from tables.rules.buttons import Positions

NINE = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return NINE + timedelta(minutes=minutes)


def test_defaults_are_the_documented_ones() -> None:
    assert DEFAULTS.answer_minutes == 15
    assert DEFAULTS.decline_lockout_minutes == 30
    assert DEFAULTS.return_wait_minutes == 30
    assert DEFAULTS.declined_seat_to_bottom is False
    assert DEFAULTS.level_down_moves == "forbidden"
    assert DEFAULTS.sit_out_minutes == 30
    assert DEFAULTS.max_away_full_table == 2
    assert DEFAULTS.max_away_short_table == 1
    assert DEFAULTS.release_after_markers == 2
    assert DEFAULTS.rake_percent == 5
    assert DEFAULTS.rake_rounding == "half_up"
    assert DEFAULTS.close_order == "highest_first"
    assert DEFAULTS.suit_order == ("s", "h", "d", "c")


def test_join_refusals_in_order_and_level_down_when_allowed() -> None:
    already = join_list(
        game="NLH-2-5", bb=5, waiting=["Anna"], player="Anna", present=True, seated_in=None
    )
    assert already.reason == "already_on_list"
    same = join_list(
        game="NLH-2-5",
        bb=5,
        waiting=[],
        player="Bo",
        present=True,
        seated_in=Seated("NLH-2-5", 5),
    )
    assert same.reason == "seated_in_this_game"
    down = join_list(
        game="NLH-2-5",
        bb=5,
        waiting=["Anna"],
        player="Bo",
        present=True,
        seated_in=Seated("NLH-5-10", 10),
        settings=CashSettings(level_down_moves="allowed"),
    )
    assert down.accepted and down.position == 2
    same_bb_other_variant = join_list(
        game="PLO-2-5",
        bb=5,
        waiting=[],
        player="Bo",
        present=True,
        seated_in=Seated("NLH-2-5", 5),
    )
    assert same_bb_other_variant.accepted


def test_answer_at_exactly_the_limit_is_in_time() -> None:
    outcome = call_for_seat(
        waiting=["Anna", "Bo"],
        called_at=NINE,
        responses={"Anna": Response(after=15, takes_seat=True)},
    )
    assert outcome.seated == "Anna" and outcome.seated_at == at(15)
    late = call_for_seat(
        waiting=["Anna", "Bo"],
        called_at=NINE,
        responses={"Anna": Response(after=16, takes_seat=True), "Bo": Response(1, True)},
    )
    assert [c.result for c in late.calls] == ["no_answer", "took_seat"]
    assert late.list_after == ("Anna",)


def test_returning_too_soon_is_passed_over_and_keeps_his_place() -> None:
    outcome = call_for_seat(
        waiting=["Anna", "Bo"],
        called_at=NINE,
        responses={"Anna": Response(1, True), "Bo": Response(2, True)},
        left_table_at={"Anna": at(-29)},
    )
    assert outcome.seated == "Bo" and outcome.list_after == ("Anna",)
    assert "Norme di comportamento" in outcome.passed_over["Anna"]
    after_thirty = call_for_seat(
        waiting=["Anna", "Bo"],
        called_at=NINE,
        responses={"Anna": Response(1, True)},
        left_table_at={"Anna": at(-30)},
    )
    assert after_thirty.seated == "Anna"


def test_declined_seat_to_bottom_setting_moves_the_name() -> None:
    outcome = call_for_seat(
        waiting=["Anna", "Bo", "Cleo"],
        called_at=NINE,
        responses={"Anna": Response(2, False), "Bo": Response(3, True)},
        settings=CashSettings(declined_seat_to_bottom=True),
    )
    assert outcome.list_after == ("Cleo", "Anna")
    assert outcome.locked_out_until == {"Anna": at(32)}


def test_nobody_eligible_leaves_the_seat_free() -> None:
    outcome = call_for_seat(
        waiting=["Anna"],
        called_at=NINE,
        responses={},
        keep_apart=[("Anna", "Zed")],
        table_players=["Zed"],
    )
    assert outcome.seated is None and outcome.calls == () and outcome.list_after == ("Anna",)


def test_opening_skips_kept_apart_and_stops_at_max_seats() -> None:
    opening = open_table(
        waiting=["A", "B", "C", "D"],
        present={"A", "B", "C", "D"},
        max_seats=2,
        seat_card_stack=[2, 1],
        button_cards={"A": "2c", "C": "Kd"},
        keep_apart=[("A", "B")],
    )
    assert opening.seated == ("A", "C")
    assert opening.seats == {1: "C", 2: "A"}
    assert opening.positions.button == 1  # heads-up: the button posts the small blind
    assert opening.list_after == ("B", "D")


def test_must_move_skips_keep_apart() -> None:
    movers = must_move_proposal(
        older_tables=[[SeatedPlayer("A", "T1", at(0)), SeatedPlayer("B", "T1", at(5))]],
        moves_wanted=1,
        new_table_players=["Z"],
        keep_apart=[("B", "Z")],
    )
    assert movers == ("A",)


def test_empty_list_leaves_the_end_of_the_chain_free() -> None:
    plan = fill_vacated_seat(
        table="T1",
        seat=4,
        main_table="T1",
        requests=[SeatRequest("Eva", "T2", 3, "main_table", 1)],
        waiting=[],
    )
    assert [m.player for m in plan.moves] == ["Eva"]
    assert plan.left_free == (("T2", 3),)


def test_must_move_feeding_makes_the_mover_moved_by_house() -> None:
    plan = fill_vacated_seat(
        table="T1",
        seat=4,
        main_table="T1",
        requests=[SeatRequest("Eva", "T2", 3, "main_table", 1)],
        waiting=["Lia"],
        settings=CashSettings(main_table_feeding="must_move"),
    )
    assert [m.status for m in plan.moves] == ["moved_by_house", "new_player"]


def test_seat_change_post_off_posts_nothing() -> None:
    decision = seat_change_post(
        max_seats=9,
        occupied=[1, 2, 3, 4, 6, 8, 9],
        next_button=1,
        from_seat=3,
        to_seat=7,
        settings=CashSettings(seat_change_post_rule=False),
    )
    assert decision.moves_away_from_button and decision.must_post == "none"


def test_close_lowest_first_and_already_listed_players_move_up() -> None:
    closing = close_table(
        players=["A", "B"],
        cards={"A": "Ah", "B": "2c"},
        waiting=["X", "B"],
        settings=CashSettings(close_order="lowest_first"),
    )
    assert closing.list_after == ("B", "A", "X")


def test_arrival_clears_markers_and_owes_nothing() -> None:
    arrival = seat_from_closed_table(
        max_seats=9,
        occupied=[1, 2, 3, 4, 6, 7, 8, 9],
        last_hand=Positions(button=2, sb=3, bb=4),
        seat=5,
    )
    assert arrival.markers_after == 0 and not arrival.owes_missed_blinds
    assert arrival.posts == "bb"


@pytest.mark.parametrize(
    ("kind", "stack", "amount", "used", "reason"),
    [
        ("seated", 40, 100, 1, "short_buy_in_used"),
        ("seated", 40, 0, 1, None),
        ("moved_by_house", 50, 0, 0, None),
    ],
)
def test_buy_in_short_rules(kind: str, stack: int, amount: int, used: int, reason: str) -> None:
    game = Game(structure="no_limit", bb=5, min_buy_in=200)
    decision = check_buy_in(
        game=game,
        kind=kind,
        stack=stack,
        amount=amount,
        short_buy_ins_used=used,  # type: ignore[arg-type]
    )
    assert decision.reason == reason


def test_buy_in_during_a_hand_limit_purchase_and_maximum() -> None:
    nl = Game(structure="no_limit", bb=5, min_buy_in=200, max_buy_in=500)
    assert check_buy_in(
        game=nl, kind="seated", stack=300, amount=50, between_hands=False
    ).reason == ("hand_in_progress")
    assert check_buy_in(game=nl, kind="seated", stack=300, amount=250).reason == "above_max_buy_in"
    limit = Game(structure="limit", bb=10, min_buy_in=100)
    assert check_buy_in(game=limit, kind="seated", stack=300, amount=150).reason == (
        "below_limit_minimum_purchase"
    )
    assert check_buy_in(game=limit, kind="new", stack=0, amount=199).reason == "below_min_buy_in"


def test_sit_out_on_a_short_table_allows_one_away() -> None:
    refused = request_sit_out(max_seats=9, player_count=7, away_now=1, sit_outs_today=0, at=NINE)
    assert refused.reason == "too_many_away"
    granted = request_sit_out(
        max_seats=9,
        player_count=7,
        away_now=0,
        sit_outs_today=0,
        at=NINE,
        settings=CashSettings(sit_out_minutes=60),
    )
    assert granted.return_by == at(60)


def test_unannounced_absence_at_exactly_twenty_minutes_is_not_over() -> None:
    assert not check_absence(kind="unannounced", since=NINE, now=at(20)).seat_releasable
    assert check_absence(kind="unannounced", since=NINE, now=at(21)).seat_releasable


def test_markers_sit_out_protects_and_list_joined_releases() -> None:
    assert not missed_blind_event(
        event="misses_big_blind", markers=1, on_sit_out=True, waiting_list_length=3
    ).seat_released
    joined = missed_blind_event(
        event="list_joined", markers=2, on_sit_out=False, waiting_list_length=1
    )
    assert joined.markers == 2 and joined.stack == "counted_and_held"
    off = missed_blind_event(
        event="misses_big_blind",
        markers=5,
        on_sit_out=False,
        waiting_list_length=3,
        settings=CashSettings(release_after_markers=None),
    )
    assert not off.seat_released


@pytest.mark.parametrize(("rounding", "expected"), [("half_up", 7), ("down", 6), ("up", 7)])
def test_rake_rounding(rounding: str, expected: int) -> None:
    settings = CashSettings(rake_rounding=rounding, rake_cap=None)  # type: ignore[arg-type]
    assert rake_of(130, settings) == expected


def test_rake_without_cap_and_with_dead_money_and_odd_chip() -> None:
    result = compute_rake(
        contributions=[Contribution("A", 100), Contribution("B", 100)],
        flop_dealt=True,
        dead_money=3,
        winners=[["A", "B"]],
        settings=CashSettings(rake_cap=None),
    )
    assert [p.amount for p in result.pots] == [203]
    assert result.rake_total == 10
    assert result.awards == {"A": 97, "B": 96}


def test_no_flop_no_drop_off_rakes_a_preflop_pot() -> None:
    result = compute_rake(
        contributions=[Contribution("A", 100), Contribution("B", 100)],
        flop_dealt=False,
        settings=CashSettings(no_flop_no_drop=False, rake_cap=30),
    )
    assert result.rake_total == 10

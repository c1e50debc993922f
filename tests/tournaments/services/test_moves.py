"""Room services against the real database and channel layer: button and hands, applying
the plan (balance, break by seat cards, final table), confirmations, manual control, undo."""

from __future__ import annotations

import json
from random import Random

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from config.speedups import switch
from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors, realtime
from tournaments.events import event_undo
from tournaments.models import Entry, Event, Seat, Table
from tournaments.selectors import tables as room_reads
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services
from tournaments.services import moves as room
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def seat_players(tournament, layout: dict[int, list[int]]) -> dict[tuple[int, int], Entry]:
    """Seat a new entry in each (table, seat) of `layout` and open those tables."""
    placed = {}
    number = Entry.objects.filter(tournament=tournament).count()
    for table_number, seats in layout.items():
        table = Table.objects.get(tournament=tournament, number=table_number)
        for seat in seats:
            number += 1
            entry = Entry.objects.create(
                tournament=tournament,
                player=make_player(),
                number=number,
                chips=30000,
                created_at=NOW,
            )
            seat_services.seat_place(entry=entry, table=table, seat=seat, now=NOW)
            placed[(table_number, seat)] = entry
    return placed


def started(tournament) -> None:
    """Play has begun: the planner balances (before the start it only evens out the draw)."""
    type(tournament).objects.filter(pk=tournament.pk).update(clock_status="running")
    tournament.refresh_from_db()


def where(entry: Entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def counts(tournament) -> dict[int, int]:
    return {
        t.number: t.seats.count()
        for t in Table.objects.filter(tournament=tournament, status=Table.Status.OPEN)
    }


class Listener:
    """A channel subscribed to groups through the real channel layer."""

    def __init__(self, *groups: str) -> None:
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        for group in groups:
            async_to_sync(self.layer.group_add)(group, self.channel)

    def payloads(self) -> list[dict]:
        received = []

        async def drain():
            import asyncio

            while True:
                try:
                    message = await asyncio.wait_for(self.layer.receive(self.channel), 0.05)
                except TimeoutError:
                    return
                received.append(json.loads(message["text"]))

        async_to_sync(drain)()
        return received


# --- button and hands ------------------------------------------------------------------


def test_marking_the_button_sets_the_blinds_and_undo_forgets_them(tournament, td):
    seat_players(tournament, {1: [1, 2, 3, 4, 5, 6]})
    hands_services.button_set(tournament=tournament, table_number=1, button=1, actor=td, now=NOW)
    table = Table.objects.get(tournament=tournament, number=1)
    assert (table.button, table.sb, table.bb) == (1, 2, 3)
    event = Event.objects.get(action="table.button")
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    table.refresh_from_db()
    assert table.button is None and not table.positions_known


def test_button_on_an_empty_seat_is_refused(tournament, td):
    seat_players(tournament, {1: [1, 2, 3]})
    with pytest.raises(errors.DomainError):
        hands_services.button_set(
            tournament=tournament, table_number=1, button=7, actor=td, now=NOW
        )


def test_hand_done_moves_a_dead_button_when_the_small_blind_busts(tournament, td):
    # tournament.md §7.1 case 1: button 1, SB 2, BB 3; seat 2 busts.
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5, 6]})
    hands_services.button_set(tournament=tournament, table_number=1, button=1, actor=td, now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=placed[(1, 2)], actor=td, now=NOW)
    hands = hands_services.hand_done(tournament=tournament, table_numbers=[1], actor=td, now=NOW)
    table = Table.objects.get(tournament=tournament, number=1)
    assert (table.button, table.sb, table.bb, table.button_dead) == (2, 3, 4, True)
    assert table.hands == 1 and hands[1].acts_last == 1
    hands_services.hand_done(tournament=tournament, table_numbers=[1], actor=td, now=NOW)
    table.refresh_from_db()
    assert (table.button, table.sb, table.bb, table.button_dead) == (3, 4, 5, False)


def test_hand_done_without_a_button_asks_for_it(tournament, td):
    seat_players(tournament, {1: [1, 2, 3]})
    with pytest.raises(errors.DomainError, match="button"):
        hands_services.hand_done(tournament=tournament, table_numbers=[1], actor=td, now=NOW)


def test_buttons_draw_gives_every_unknown_table_a_button_on_a_player(tournament, td):
    seat_players(tournament, {1: [1, 4, 7], 2: [2, 3, 9]})
    drawn = hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(3))
    assert set(drawn) == {1, 2}
    for number, seat in drawn.items():
        table = Table.objects.get(tournament=tournament, number=number)
        assert table.button == seat and table.seats.filter(number=seat).exists()
    event = Event.objects.get(action="table.button_draw")
    assert set(event.data["cards"]["1"]) == {"1", "4", "7"}


# --- balancing -------------------------------------------------------------------------


def test_apply_moves_the_next_big_blind_to_the_worst_seat_and_pushes_it(
    tournament, td, django_capture_on_commit_callbacks
):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    listener = Listener(
        realtime.tournament_group(tournament.pk),
        realtime.table_group(tournament.pk, 1),
        realtime.table_group(tournament.pk, 2),
    )
    with django_capture_on_commit_callbacks(execute=True):
        applied = room.plan_apply(tournament=tournament, actor=td, now=NOW)
    mover = placed[(1, 4)]  # TDA-11a: BB is on 3, so seat 4 is next hand's big blind
    assert applied.kind == "balance" and len(applied.moves) == 1
    assert where(mover) == (2, 7)  # §8.4: first empty seat clockwise after the BB (seat 3)
    assert counts(tournament) == {1: 8, 2: 7}
    seat = Seat.objects.get(entry=mover)
    assert not seat.arrived and seat.moved_from == "1/4"
    moves = [p for p in listener.payloads() if p["type"] == "move"]
    assert len(moves) == 3  # the tournament group and both tables' groups
    assert moves[0]["name"] == str(mover.player)
    assert moves[0]["from"] == {"table": 1, "seat": 4} and moves[0]["to"] == {"table": 2, "seat": 7}
    assert "TDA-11a" in moves[0]["rules"]


def test_a_moved_player_is_confirmed_seated_with_who_carried_his_chips(tournament, td):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(1))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW)
    entry = Entry.objects.get(pk=applied.moves[0].entry)
    chips = entry.chips
    room.move_confirm(tournament=tournament, entry=entry, actor=td, now=NOW, carried_by="Luca")
    seat = Seat.objects.get(entry=entry)
    assert seat.arrived and seat.chips_carried_by == "Luca"
    assert Event.objects.get(action="seat.arrive").data["rule"] == "RP-16"
    entry.refresh_from_db()
    assert entry.chips == chips
    with pytest.raises(errors.DomainError):
        room.move_confirm(tournament=tournament, entry=entry, actor=td, now=NOW)
    assert placed  # the room had players to move


def test_undo_of_a_balance_puts_the_player_back(tournament, td):
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    room.plan_apply(tournament=tournament, actor=td, now=NOW)
    event = Event.objects.get(action="room.balance")
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert where(placed[(1, 4)]) == (1, 4)
    assert counts(tournament) == {1: 9, 2: 6}


def test_without_a_button_nothing_moves_and_the_plan_asks_for_it(tournament, td):
    seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    started(tournament)
    plan = room_reads.room_plan(tournament=tournament)
    assert set(plan.needs_button) == {"1", "2"}
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW)
    assert applied.kind == "none" and counts(tournament) == {1: 9, 2: 6}


def test_a_locked_seat_is_never_filled_by_a_move(tournament, td):
    seat_players(tournament, {1: list(range(1, 10)), 2: [1, 2, 3, 4, 5, 6]})
    for number in (1, 2):
        hands_services.button_set(
            tournament=tournament, table_number=number, button=1, actor=td, now=NOW
        )
    room.seat_lock(tournament=tournament, table_number=2, seat=7, locked=True, actor=td, now=NOW)
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW)
    assert applied.moves[0].to_seat == 8
    with pytest.raises(errors.SeatTaken):
        room.seat_lock(
            tournament=tournament, table_number=2, seat=8, locked=True, actor=td, now=NOW
        )


# --- breaking --------------------------------------------------------------------------


def test_the_highest_table_breaks_by_seat_cards_when_the_others_can_take_its_players(
    td, django_capture_on_commit_callbacks
):
    tournament = make_tournament(td, tables=3)
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5, 8]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    listener = Listener(realtime.table_group(tournament.pk, 3))
    with django_capture_on_commit_callbacks(execute=True):
        applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    assert applied.kind == "break" and applied.broken_table == 3
    assert Table.objects.get(tournament=tournament, number=3).status == Table.Status.CLOSED
    movers = [placed[(3, s)] for s in (2, 5, 8)]
    assert all(where(e)[0] in (1, 2) for e in movers)
    assert sorted(counts(tournament).values()) == [7, 8]  # §9.3: receivers end up balanced
    event = Event.objects.get(action="room.break")
    assert "003 Art.7.3" in event.data["rules"] and "TDA-10b" in event.data["rules"]
    # The highest face-up card took the first seat card off the shuffled stack.
    cards = event.data["cards"]
    assert len(set(cards.values())) == 3
    first = event.data["order"][0]
    assert list(where(Entry.objects.get(pk=first))) == event.data["seat_cards"][0]
    assert all(m.dealt_in in ("next_hand", "hand_after_next") for m in applied.moves)
    pushed = [p for p in listener.payloads() if p["type"] == "move"]
    assert {p["entry"] for p in pushed} == {e.pk for e in movers}
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert [where(e) for e in movers] == [(3, 2), (3, 5), (3, 8)]
    assert Table.objects.get(tournament=tournament, number=3).status == Table.Status.OPEN


def test_no_break_while_the_other_tables_lack_free_seats(td):
    tournament = make_tournament(td, tables=3)
    seat_players(tournament, {1: list(range(1, 9)), 2: list(range(1, 9)), 3: [1, 2, 3, 4, 5, 6, 7]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(1))
    assert room.plan_apply(tournament=tournament, actor=td, now=NOW).kind == "none"


# --- final table -----------------------------------------------------------------------


def test_final_table_redraws_every_seat_and_draws_the_button(td):
    tournament = make_tournament(td, tables=2)
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5], 2: [2, 4, 6, 8]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(2))
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(5))
    assert applied.kind == "final_table" and applied.final_table == 1
    seats = {where(e) for e in placed.values()}
    assert len(seats) == 9 and {t for t, _s in seats} == {1}
    final = Table.objects.get(tournament=tournament, number=1)
    assert final.button in {s for _t, s in seats}
    assert Table.objects.get(tournament=tournament, number=2).status == Table.Status.CLOSED
    event = Event.objects.get(action="room.final_table")
    assert "RP-9" in event.data["rules"] and event.data["button"] == final.button
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert {k: where(e) for k, e in placed.items()} == {k: k for k in placed}


def test_ten_left_in_a_nine_handed_event_stay_on_two_tables(td):
    tournament = make_tournament(td, tables=2)
    seat_players(tournament, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(2))
    assert room.plan_apply(tournament=tournament, actor=td, now=NOW).kind == "none"


# --- flow ------------------------------------------------------------------------------


def test_auto_apply_balances_after_an_elimination(td):
    tournament = make_tournament(td, tables=2, auto_apply_moves=True)
    placed = seat_players(tournament, {1: list(range(1, 10)), 2: list(range(1, 9))})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(4))
    entry_services.entry_eliminate(tournament=tournament, entry=placed[(2, 1)], actor=td, now=NOW)
    assert sorted(counts(tournament).values()) == [8, 8]
    assert Event.objects.filter(action="room.balance").count() == 1


def test_the_desk_answers_deal_in_from_the_known_button(td):
    tournament = make_tournament(td, tables=1, late_registration_level=5)
    seat_players(tournament, {1: [1, 2, 3, 4, 5, 6]})
    hands_services.button_set(tournament=tournament, table_number=1, button=1, actor=td, now=NOW)
    tournament.clock_status = "running"
    tournament.clock_started_at = NOW
    tournament.save()
    reg = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    # Free seats 7-9 all lie after the next BB (seat 4) and before the next button (seat 2).
    assert reg.seat in (7, 8, 9)
    assert reg.dealt_in == "next_hand"
    assert Seat.objects.get(entry=reg.entry).dealt_in == "next_hand"


# --- manual control --------------------------------------------------------------------


def test_open_close_and_renumber_tables_with_undo(tournament, td):
    seat_players(tournament, {1: [1, 2]})
    with pytest.raises(errors.TablesInUse):
        room.table_set_status(
            tournament=tournament, table_number=1, status="closed", actor=td, now=NOW
        )
    room.table_set_status(tournament=tournament, table_number=3, status="open", actor=td, now=NOW)
    assert Table.objects.get(tournament=tournament, number=3).status == "open"
    room.table_renumber(tournament=tournament, table_number=1, new_number=12, actor=td, now=NOW)
    assert Table.objects.get(tournament=tournament, number=12).seats.count() == 2
    with pytest.raises(errors.DomainError):
        room.table_renumber(tournament=tournament, table_number=12, new_number=3, actor=td, now=NOW)
    event = Event.objects.get(action="table.renumber")
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert Table.objects.get(tournament=tournament, number=1).seats.count() == 2


def test_room_check_flags_a_manual_move_that_unbalances(tournament, td):
    placed = seat_players(tournament, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    started(tournament)
    seat_services.seat_move(
        tournament=tournament, entry=placed[(2, 1)], table_number=1, seat=5, actor=td, now=NOW
    )
    seat_services.seat_move(
        tournament=tournament, entry=placed[(2, 2)], table_number=1, seat=6, actor=td, now=NOW
    )
    codes = [v.code for v in room_reads.room_check(tournament=tournament)]
    assert codes == ["unbalanced"]


def test_a_late_entry_between_the_button_and_the_small_blind_waits_a_hand(td):
    # §7.4 (TDA-8a): only seat 3 is free; next hand the button is on 2 and the SB on 4.
    import datetime as dt

    tournament = make_tournament(td, tables=1, late_registration_level=5)
    seat_players(tournament, {1: [1, 2, 4, 5, 6, 7, 8, 9]})
    hands_services.button_set(tournament=tournament, table_number=1, button=1, actor=td, now=NOW)
    table = Table.objects.get(tournament=tournament, number=1)
    assert (table.sb, table.bb) == (2, 4)
    tournament.clock_status = "running"
    tournament.clock_started_at = NOW
    tournament.save()
    later = NOW + dt.timedelta(minutes=1)
    reg = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=later
    )
    assert (reg.table, reg.seat, reg.dealt_in) == (1, 3, "hand_after_next")
    hands = hands_services.hand_done(
        tournament=tournament, table_numbers=[1], actor=td, now=later + dt.timedelta(minutes=1)
    )
    assert hands[1].waiting == frozenset({3})
    assert (hands[1].positions.button, hands[1].positions.sb, hands[1].positions.bb) == (2, 4, 5)


def test_hand_done_pushes_the_new_positions_to_the_table(
    tournament, td, django_capture_on_commit_callbacks
):
    seat_players(tournament, {1: [1, 3, 5, 7]})
    hands_services.button_set(tournament=tournament, table_number=1, button=1, actor=td, now=NOW)
    listener = Listener(realtime.table_group(tournament.pk, 1))
    with django_capture_on_commit_callbacks(execute=True):
        hands_services.hand_done(tournament=tournament, table_numbers=[1], actor=td, now=NOW)
    [payload] = [p for p in listener.payloads() if p["type"] == "hand"]
    assert (payload["button"], payload["sb"], payload["bb"], payload["hand"]) == (3, 5, 7, 1)


def test_a_refused_apply_pushes_nothing(td, django_capture_on_commit_callbacks):
    # A final table that does not fit its table is refused: nothing moves, nothing is sent.
    tournament = make_tournament(td, tables=2, seats=9, final_table_rule="figp")
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(1))
    listener = Listener(realtime.tournament_group(tournament.pk))
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(errors.DomainError):
        room.plan_apply(tournament=tournament, actor=td, now=NOW)
    assert listener.payloads() == []
    assert {k: where(e) for k, e in placed.items()} == {k: k for k in placed}


def test_a_broken_table_comes_back_as_it_was_on_undo(td, django_capture_on_commit_callbacks):
    """The room is read as rows and only the tables written become models: the broken
    table's button, blinds, hands and seats settings are logged and restored whole."""
    tournament = make_tournament(td, tables=3)
    seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5, 8]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    Table.objects.filter(tournament=tournament, number=3).update(
        hands=12, hand_started_at=NOW, locked_seats=[9], accessible_seats=[1]
    )
    fields = [f.attname for f in Table._meta.concrete_fields]
    before = Table.objects.filter(tournament=tournament, number=3).values(*fields).get()
    applied = room.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    assert applied.kind == "break" and applied.broken_table == 3
    broken = Table.objects.get(tournament=tournament, number=3)
    assert (broken.status, broken.button) == (Table.Status.CLOSED, None)
    event = Event.objects.get(action="room.break")
    assert event.data["table_before"]["hands"] == 12
    listener = Listener(realtime.tournament_group(tournament.pk))
    with django_capture_on_commit_callbacks(execute=True):
        event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    after = Table.objects.filter(tournament=tournament, number=3).values(*fields).get()
    assert after == before
    # The moves back change no figure; the table open again does: the clock screens hear
    # of it with their figures (tables open 3), not only of the moves.
    pushed = listener.payloads()
    moves = [p for p in pushed if p["type"] == "move"]
    assert len(moves) == 3 and all(p["same_figures"] for p in moves)
    assert all("figures" not in p.get("fragments", {}) for p in moves)
    if switch.on("fragments"):
        # No tablet listens: nothing rendered for the tables either (the plain path does
        # not ask who listens, and brings every named table's list).
        assert all("fragments" not in p for p in moves)
    reopened = [p for p in pushed if p["type"] == "table"]
    assert [(p["table"], p["status"]) for p in reopened] == [(3, "open")]
    assert "<dt>Tables</dt><dd>3</dd>" in reopened[0]["fragments"]["figures"]["en"]

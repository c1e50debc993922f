"""The desk's services: entries, re-entries, rebuys, add-ons, refusals, undo."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors, selectors
from tournaments.events import event_undo
from tournaments.models import Entry, Event, Purchase, Seat, Table
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def register(tournament, player, actor, **kwargs):
    return entry_services.entry_register(
        tournament=tournament, player=player, actor=actor, now=NOW, **kwargs
    )


def test_entry_gets_a_seat_at_once_and_is_logged(tournament, desk):
    player = make_player("Anna", "Bianchi")
    reg = register(tournament, player, desk)
    seat = Seat.objects.get(entry=reg.entry)
    assert (seat.table.number, seat.number) == (reg.table, reg.seat)
    assert 1 <= reg.seat <= 9
    assert reg.entry.chips == tournament.starting_stack
    event = Event.objects.get(action="entry.register")
    assert event.actor == desk
    assert event.data["table"] == reg.table and event.data["name"] == "Bianchi Anna"


def test_tables_fill_evenly_and_the_next_table_opens_when_full(td):
    tournament = make_tournament(td, tables=3, seats=2)
    counts = []
    for _ in range(6):
        register(tournament, make_player(), td)
        counts.append(
            sorted(
                Seat.objects.filter(table__tournament=tournament).values_list(
                    "table__number", flat=True
                )
            )
        )
    # One open table fills first (2 seats), then table 2 opens, then table 3.
    assert Table.objects.filter(tournament=tournament, status="open").count() == 3
    assert counts[1] == [1, 1] and counts[3] == [1, 1, 2, 2] and counts[5] == [1, 1, 2, 2, 3, 3]


def test_an_entry_goes_to_a_table_with_the_fewest_players(td):
    tournament = make_tournament(td, tables=3, seats=9)
    Table.objects.filter(tournament=tournament).update(status="open")
    for _ in range(7):
        register(tournament, make_player(), td)
    counts = [t.seats.count() for t in Table.objects.filter(tournament=tournament)]
    assert sorted(counts) == [2, 2, 3]


def test_full_room_is_refused_and_changes_nothing(td):
    tournament = make_tournament(td, tables=1, seats=2)
    register(tournament, make_player(), td)
    register(tournament, make_player(), td)
    before = Entry.objects.count(), Event.objects.count()
    with pytest.raises(errors.RoomFull):
        register(tournament, make_player(), td)
    assert (Entry.objects.count(), Event.objects.count()) == before


def test_reserved_seats_are_never_drawn_and_accessible_seats_go_to_who_needs_them(td):
    tournament = make_tournament(td, tables=0)
    layout_services.tables_add(
        tournament=tournament,
        actor=td,
        first=1,
        last=1,
        max_seats=4,
        accessible_seats=[1],
        reserved_seats=[4],
        now=NOW,
    )
    needs = make_player("Sara", "Verdi", needs_accessible_seat=True)
    seats = [register(tournament, make_player(), td).seat for _ in range(2)]
    assert 4 not in seats and 1 not in seats
    assert register(tournament, needs, td).seat == 1


def test_a_player_already_playing_is_refused(tournament, desk):
    player = make_player()
    reg = register(tournament, player, desk)
    with pytest.raises(errors.PlayerAlreadyActive) as refused:
        register(tournament, player, desk)
    assert f"table {reg.table}" in str(refused.value).lower()
    assert Entry.objects.filter(player=player).count() == 1


def test_reentry_only_after_elimination_and_within_the_limit(td):
    tournament = make_tournament(td, max_entries=2)
    player = make_player()
    first = register(tournament, player, td)
    entry_services.entry_eliminate(tournament=tournament, entry=first.entry, actor=td, now=NOW)
    second = register(tournament, player, td)
    assert second.entry.kind == Entry.Kind.REENTRY
    entry_services.entry_eliminate(tournament=tournament, entry=second.entry, actor=td, now=NOW)
    with pytest.raises(errors.EntryLimitReached):
        register(tournament, player, td)


def test_freezeout_refuses_a_reentry(td):
    tournament = make_tournament(td, reentry_allowed=False)
    player = make_player()
    first = register(tournament, player, td)
    entry_services.entry_eliminate(tournament=tournament, entry=first.entry, actor=td, now=NOW)
    with pytest.raises(errors.ReentryNotAllowed):
        register(tournament, player, td)


def test_forfeit_and_reenter_takes_the_old_chips_out_of_play(td):
    tournament = make_tournament(td, reentry_forfeit_allowed=True, starting_stack=20000)
    player = make_player()
    register(tournament, player, td)
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 20000
    with pytest.raises(errors.PlayerAlreadyActive):
        register(tournament, player, td)  # not without saying so
    reg = register(tournament, player, td, forfeit=True)
    assert reg.forfeited.status == Entry.Status.FORFEITED
    figures = selectors.tournament_figures(tournament)
    assert figures["chips_in_play"] == 20000 and figures["players_left"] == 1


def test_forfeit_is_refused_when_the_event_does_not_allow_it(tournament, desk):
    player = make_player()
    register(tournament, player, desk)
    with pytest.raises(errors.ForfeitNotAllowed):
        register(tournament, player, desk, forfeit=True)


def test_late_registration_closes_after_the_named_level(td):
    tournament = make_tournament(td, late_registration_level=1)
    tournament.clock_status = "running"
    tournament.clock_index = 0
    tournament.clock_started_at = NOW
    tournament.save()
    register(tournament, make_player(), td)  # level 1: open
    later = NOW + dt.timedelta(minutes=25)  # level 2
    with pytest.raises(errors.LateRegistrationClosed):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=later
        )


def test_undo_an_entry_frees_the_seat_and_takes_its_chips_out_of_play(tournament, desk):
    reg = register(tournament, make_player(), desk)
    event = Event.objects.get(action="entry.register")
    event_undo(event_id=event.pk, tournament=tournament, actor=desk, now=NOW)
    reg.entry.refresh_from_db()
    assert reg.entry.status == Entry.Status.VOIDED
    assert not Seat.objects.filter(entry=reg.entry).exists()
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 0
    with pytest.raises(errors.CannotUndo):
        event_undo(event_id=event.pk, tournament=tournament, actor=desk, now=NOW)


def test_undo_an_elimination_puts_the_player_back_in_his_seat(tournament, floor):
    reg = register(tournament, make_player(), floor)
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=floor, now=NOW)
    event = Event.objects.get(action="entry.eliminate")
    event_undo(event_id=event.pk, tournament=tournament, actor=floor, now=NOW)
    seat = Seat.objects.get(entry=reg.entry)
    assert (seat.table.number, seat.number) == (reg.table, reg.seat)


def test_rebuy_rules_and_undo(td):
    tournament = make_tournament(
        td,
        rebuys_allowed=True,
        rebuy_max=1,
        rebuy_price=50,
        rebuy_chips=10000,
        rebuy_stack_threshold=5000,
        starting_stack=10000,
    )
    reg = register(tournament, make_player(), td)
    with pytest.raises(errors.RebuyNotAllowed):
        entry_services.entry_purchase(
            tournament=tournament, entry=reg.entry, kind="rebuy", actor=td, now=NOW, stack=9000
        )
    entry_services.entry_purchase(
        tournament=tournament, entry=reg.entry, kind="rebuy", actor=td, now=NOW, stack=1500
    )
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 20000
    with pytest.raises(errors.RebuyNotAllowed):
        entry_services.entry_purchase(
            tournament=tournament, entry=reg.entry, kind="rebuy", actor=td, now=NOW, stack=0
        )
    event = Event.objects.get(action="entry.rebuy")
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert Purchase.objects.get().voided
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 10000


def test_rebuy_declared_before_the_hand_needs_no_stack_check(td):
    tournament = make_tournament(
        td,
        rebuys_allowed=True,
        rebuy_max=2,
        rebuy_price=50,
        rebuy_chips=10000,
        rebuy_stack_threshold=5000,
    )
    reg = register(tournament, make_player(), td)
    purchase = entry_services.entry_purchase(
        tournament=tournament,
        entry=reg.entry,
        kind="rebuy",
        actor=td,
        now=NOW,
        declared_before_hand=True,
    )
    assert purchase.declared_before_hand and purchase.price == 50


def test_addon_once_and_only_when_offered(td):
    tournament = make_tournament(td, addon_allowed=True, addon_price=30, addon_chips=15000)
    reg = register(tournament, make_player(), td)
    entry_services.entry_purchase(
        tournament=tournament, entry=reg.entry, kind="addon", actor=td, now=NOW
    )
    with pytest.raises(errors.AddonNotAllowed):
        entry_services.entry_purchase(
            tournament=tournament, entry=reg.entry, kind="addon", actor=td, now=NOW
        )


def test_id_check_is_recorded_once_per_day_and_undoable(tournament, desk):
    player = make_player()
    entry_services.id_check(tournament=tournament, player=player, actor=desk, now=NOW)
    entry_services.id_check(tournament=tournament, player=player, actor=desk, now=NOW)
    assert Event.objects.filter(action="id.check").count() == 1
    event_undo(
        event_id=Event.objects.get(action="id.check").pk, tournament=tournament, actor=desk, now=NOW
    )
    assert not player.id_checks.exists()


def test_seat_move_keeps_the_chips_and_refuses_a_taken_seat(tournament, floor):
    a = register(tournament, make_player(), floor)
    b = register(tournament, make_player(), floor)
    with pytest.raises(errors.SeatTaken):
        seat_services.seat_move(
            tournament=tournament,
            entry=a.entry,
            table_number=b.table,
            seat=b.seat,
            actor=floor,
            now=NOW,
        )
    free = next(
        s for s in range(1, 10) if not Seat.objects.filter(table__number=4, number=s).exists()
    )
    seat_services.seat_move(
        tournament=tournament, entry=a.entry, table_number=4, seat=free, actor=floor, now=NOW
    )
    seat = Seat.objects.get(entry=a.entry)
    assert (seat.table.number, seat.number) == (4, free)
    a.entry.refresh_from_db()
    assert a.entry.chips == tournament.starting_stack


def test_seat_move_opens_a_table_not_open_yet_and_to_his_own_seat_moves_nothing(tournament, floor):
    a = register(tournament, make_player("Anna", "Verdi"), floor)
    reserve = Table.objects.filter(tournament=tournament).exclude(number=a.table).first()
    Table.objects.filter(pk=reserve.pk).update(status=Table.Status.RESERVE)
    Seat.objects.filter(table=reserve).delete()

    def to_seat_3() -> None:
        seat_services.seat_move(
            tournament=tournament,
            entry=a.entry,
            table_number=reserve.number,
            seat=3,
            actor=floor,
            now=NOW,
        )

    to_seat_3()
    reserve.refresh_from_db()
    assert reserve.status == Table.Status.OPEN
    seat = Seat.objects.get(entry=a.entry)
    assert (seat.table_id, seat.number) == (reserve.pk, 3)
    assert (seat.board_last_name, seat.board_first_name) == ("Verdi", "Anna")  # the board's

    to_seat_3()  # the seat he holds
    assert Seat.objects.filter(entry=a.entry).count() == 1
    assert Seat.objects.get(entry=a.entry).number == 3
    moves = Event.objects.filter(tournament=tournament, action="seat.move").order_by("pk")
    assert [m.data["to"] for m in moves] == [[reserve.number, 3], [reserve.number, 3]]


def test_the_draw_uses_every_table_and_seat(td):
    """Over many draws every seat of the open tables comes up (a biased draw would not)."""
    tournament = make_tournament(td, tables=2, seats=3)
    Table.objects.filter(tournament=tournament).update(status="open")
    seen = set()
    for _ in range(30):
        regs = [register(tournament, make_player(), td) for _ in range(2)]
        seen.update((r.table, r.seat) for r in regs)
        for r in regs:
            entry_services.entry_eliminate(tournament=tournament, entry=r.entry, actor=td, now=NOW)
    assert seen == {(t, s) for t in (1, 2) for s in (1, 2, 3)}

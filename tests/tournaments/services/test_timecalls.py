"""Time calls as the floor makes them (tournament.md §18): the grant of the event's
profile, the refusals, the ruling when the time runs out, and undo."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import events
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import Event, TimeCall
from tournaments.services import entries as entry_services
from tournaments.services import seats as seat_services
from tournaments.services import timecalls as tc
from tournaments.tasks import expire_time_call

pytestmark = pytest.mark.django_db

S = dt.timedelta(seconds=1)


def _seated(tournament, td, name="Bianchi"):
    return entry_services.entry_register(
        tournament=tournament, player=make_player("Gino", name), actor=td, now=NOW
    )


def _elsewhere(tournament, td, reg):
    """Move him to another table, seat 1 (so two tables each have a player to act)."""
    table = 2 if reg.table == 1 else 1
    seat_services.seat_move(
        tournament=tournament, entry=reg.entry, table_number=table, seat=1, actor=td, now=NOW
    )
    return entry_services.Registration(
        entry=reg.entry, table=table, seat=1, dealt_in="", opened_table=False, forfeited=None
    )


def _call(tournament, actor, reg, *, facing_bet=True, now=NOW, **kwargs):
    return tc.timecall_start(
        tournament=tournament,
        actor=actor,
        now=now,
        table_number=reg.table,
        seat_number=reg.seat,
        facing_bet=facing_bet,
        **kwargs,
    )


@pytest.mark.parametrize(
    ("profile", "grant", "countdown", "facing", "not_facing"),
    [
        ("tda2022", 30, 5, "dead_hand", "check"),
        ("tda2015", 60, 10, "dead_hand", "dead_hand"),
        ("figp", 70, 10, "fold", "fold"),
        ("codice003", 60, 0, "fold", "fold"),
    ],
)
def test_the_grant_and_the_ruling_follow_the_event_profile(
    td, profile, grant, countdown, facing, not_facing
):
    tournament = make_tournament(td, tables=2, time_call_profile=profile)
    first = _seated(tournament, td, "Uno")
    second = _elsewhere(tournament, td, _seated(tournament, td, "Due"))
    waited = {"seconds_used": 30} if profile in {"figp", "codice003"} else {}
    call = _call(tournament, td, first, facing_bet=True, **waited)
    assert (call.grant_seconds, call.countdown_seconds) == (grant, countdown)
    assert call.expires_at == NOW + grant * S
    assert call.on_expiry == facing and call.outcome == "running"
    assert call.player_name == str(first.entry.player) and call.entry == first.entry
    other = _call(tournament, td, second, facing_bet=False, **waited)
    assert other.on_expiry == not_facing and other.table_number != call.table_number


def test_a_call_is_logged_with_who_called_it(tournament, td, floor):
    reg = _seated(tournament, td)
    call = _call(tournament, floor, reg)
    event = Event.objects.get(action="timecall.start")
    assert event.actor == floor and call.called_by == floor and not call.from_tablet
    assert event.data["table"] == reg.table and event.data["seat"] == reg.seat
    assert event.data["seconds"] == 30 and event.data["rules"] == "TDA-29, TDA-30"


def _nothing_changed(tournament):
    assert not TimeCall.objects.filter(tournament=tournament).exists()
    assert not Event.objects.filter(tournament=tournament, action__startswith="timecall").exists()


def test_an_empty_seat_is_refused(tournament, td):
    reg = _seated(tournament, td)
    empty = reg.seat % 9 + 1
    with pytest.raises(DomainError, match=f"seat {empty} is empty"):
        tc.timecall_start(
            tournament=tournament,
            actor=td,
            now=NOW,
            table_number=reg.table,
            seat_number=empty,
            facing_bet=False,
        )
    with pytest.raises(DomainError, match="no table 99"):
        tc.timecall_start(
            tournament=tournament,
            actor=td,
            now=NOW,
            table_number=99,
            seat_number=1,
            facing_bet=False,
        )
    _nothing_changed(tournament)


def test_an_eliminated_player_cannot_be_put_on_the_clock(tournament, td):
    from tournaments.services import results

    reg = _seated(tournament, td)
    _seated(tournament, td, "Altro")
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=reg.entry)], actor=td, now=NOW
    )
    with pytest.raises(DomainError, match="is empty"):
        _call(tournament, td, reg)
    assert not TimeCall.objects.exists()


def test_the_profile_refuses_a_call_too_early(td):
    tournament = make_tournament(td, tables=1, time_call_profile="figp")
    reg = _seated(tournament, td)
    with pytest.raises(DomainError, match="30 s to act"):
        _call(tournament, td, reg, seconds_used=10)
    _nothing_changed(tournament)
    assert _call(tournament, td, reg, seconds_used=30).grant_seconds == 70


def test_one_clock_at_a_time_per_table(tournament, td):
    first = _seated(tournament, td, "Uno")
    _call(tournament, td, first)
    with pytest.raises(DomainError, match="already running at table"):
        _call(tournament, td, first, now=NOW + S)
    assert TimeCall.objects.count() == 1
    assert Event.objects.filter(action="timecall.start").count() == 1


def test_expiry_facing_a_bet_is_a_dead_hand(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg, facing_bet=True)
    # A second early, by the server's clock: nothing happens.
    early = tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 29 * S, call_id=call.pk)
    assert early.outcome == "running" and not Event.objects.filter(action="timecall.expire")
    ended = tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 31 * S, call_id=call.pk)
    assert (ended.outcome, ended.ruling) == ("expired", "dead_hand")
    assert ended.ended_at == NOW + 30 * S  # when the time ran out, not when we heard
    event = Event.objects.get(action="timecall.expire")
    assert event.data["ruling"] == "dead_hand" and event.data["rules"] == "TDA-29, TDA-30"
    assert events.action_label(event) == "Time ran out: Dead hand (TDA-29, TDA-30)"


def test_expiry_with_no_bet_to_him_is_a_check(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg, facing_bet=False)
    ended = tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 30 * S, call_id=call.pk)
    assert (ended.outcome, ended.ruling) == ("expired", "check")


def test_expiry_is_idempotent(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    for seconds in (30, 31, 45):
        tc.timecall_expire(
            tournament=tournament, actor=None, now=NOW + seconds * S, call_id=call.pk
        )
    assert Event.objects.filter(action="timecall.expire").count() == 1
    # The Celery task does the same (here the call is long over): nothing more.
    expire_time_call.apply(args=(call.pk,))
    assert Event.objects.filter(action="timecall.expire").count() == 1


def test_the_task_records_the_ruling_when_the_time_is_up(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg, facing_bet=False, now=dt.datetime.now(dt.UTC) - 31 * S)
    assert expire_time_call.apply(args=(call.pk,)).get() is True
    call.refresh_from_db()
    assert (call.outcome, call.ruling) == ("expired", "check")


def test_acted_in_time_stops_the_clock_without_a_ruling(tournament, td, floor):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    acted = tc.timecall_acted(tournament=tournament, actor=floor, now=NOW + 12 * S, call_id=call.pk)
    assert (acted.outcome, acted.ruling) == ("acted", "")
    # Too late now to expire it, and the table is free for the next call.
    tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 40 * S, call_id=call.pk)
    acted.refresh_from_db()
    assert acted.outcome == "acted"
    assert _call(tournament, td, reg, now=NOW + 60 * S).outcome == "running"


def test_acted_after_the_time_ran_out_is_refused(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    with pytest.raises(DomainError, match="run out: Dead hand"):
        tc.timecall_acted(tournament=tournament, actor=td, now=NOW + 30 * S, call_id=call.pk)
    call.refresh_from_db()
    assert call.outcome == "running"


def test_cancel_ends_it_with_no_ruling_and_cannot_end_it_twice(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    tc.timecall_cancel(tournament=tournament, actor=td, now=NOW + 3 * S, call_id=call.pk)
    call.refresh_from_db()
    assert (call.outcome, call.ruling) == ("cancelled", "")
    with pytest.raises(DomainError, match="already over"):
        tc.timecall_acted(tournament=tournament, actor=td, now=NOW + 4 * S, call_id=call.pk)


def test_another_table_cannot_touch_the_call(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    with pytest.raises(DomainError, match="no such time call"):
        tc.timecall_cancel(
            tournament=tournament,
            actor=None,
            now=NOW,
            call_id=call.pk,
            table_number=reg.table + 1,
        )
    call.refresh_from_db()
    assert call.outcome == "running"


def _undo(tournament, td, action):
    event = Event.objects.filter(action=action).latest("id")
    return events.event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)


def test_undo_acted_runs_the_clock_again(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    tc.timecall_acted(tournament=tournament, actor=td, now=NOW + 5 * S, call_id=call.pk)
    _undo(tournament, td, "timecall.acted")
    call.refresh_from_db()
    assert (call.outcome, call.ended_at) == ("running", None)
    assert call.expires_at == NOW + 30 * S  # the same grant, from the same call


def test_undo_expire_withdraws_the_ruling(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 30 * S, call_id=call.pk)
    _undo(tournament, td, "timecall.expire")
    call.refresh_from_db()
    assert (call.outcome, call.ruling) == ("cancelled", "")
    # It does not come back: asking again records nothing.
    tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 60 * S, call_id=call.pk)
    call.refresh_from_db()
    assert call.outcome == "cancelled"


def test_undo_start_removes_the_call_and_its_ruling(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    tc.timecall_expire(tournament=tournament, actor=None, now=NOW + 30 * S, call_id=call.pk)
    _undo(tournament, td, "timecall.start")
    assert not TimeCall.objects.exists()
    with pytest.raises(CannotUndo, match="gone"):
        _undo(tournament, td, "timecall.expire")


def test_undo_acted_refused_while_another_call_runs_there(tournament, td):
    reg = _seated(tournament, td)
    call = _call(tournament, td, reg)
    tc.timecall_acted(tournament=tournament, actor=td, now=NOW + 5 * S, call_id=call.pk)
    _call(tournament, td, reg, now=NOW + 10 * S)
    with pytest.raises(CannotUndo, match="another time call"):
        _undo(tournament, td, "timecall.acted")


def test_catch_up_expires_every_call_whose_time_is_up(td):
    tournament = make_tournament(td, tables=2)
    first = _seated(tournament, td, "Uno")
    second = _elsewhere(tournament, td, _seated(tournament, td, "Due"))
    _call(tournament, td, first, facing_bet=True)
    _call(tournament, td, second, facing_bet=False, now=NOW + 20 * S)
    assert tc.timecall_catch_up(tournament=tournament, now=NOW + 35 * S) == 1
    assert tc.timecall_catch_up(tournament=tournament, now=NOW + 35 * S) == 0
    assert [c.outcome for c in TimeCall.objects.order_by("called_at")] == ["expired", "running"]


@pytest.fixture
def broker():
    """Celery with a broker (in memory, or Redis with REDIS_URL) instead of inline tasks."""
    from django.test import override_settings

    from config.celery import app

    app.conf.task_always_eager = False
    app.control.purge()
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        yield app
    app.conf.task_always_eager = True


def test_with_a_broker_the_expiry_is_queued_for_when_the_time_runs_out(
    tournament, td, broker, django_capture_on_commit_callbacks
):
    reg = _seated(tournament, td)
    with django_capture_on_commit_callbacks(execute=True):
        call = _call(tournament, td, reg)
    found = []
    with broker.connection_for_read() as connection:
        queue = connection.SimpleQueue("celery")
        while True:
            try:
                message = queue.get(timeout=0.1)
            except queue.Empty:
                break
            found.append(
                (message.headers["task"], list(message.decode()[0]), message.headers["eta"])
            )
            message.ack()
        queue.close()
    assert found == [("tournaments.tasks.expire_time_call", [call.pk], call.expires_at.isoformat())]

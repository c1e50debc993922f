"""Clock services: state, version, event row, broadcast, undo, announcements, h4h, end of day."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import override_settings

from tests.conftest import NOW
from tournaments import events, realtime, selectors
from tournaments.models import Event, Table
from tournaments.services import clock as svc
from tournaments.services import endofday as endofday_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import level_announcements as announcement_services

pytestmark = pytest.mark.django_db(transaction=True)

MIN = dt.timedelta(minutes=1)
SEC = dt.timedelta(seconds=1)


def fresh(tournament):
    tournament.refresh_from_db()
    return tournament


def view(tournament, now):
    return selectors.clock_view_for(fresh(tournament), now)


class Listener:
    """A real channel-layer member of the tournament's group."""

    def __init__(self, tournament):
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(realtime.tournament_group(tournament.pk), self.channel)

    def messages(self):
        received = []
        while True:
            try:
                message = async_to_sync(self._receive)()
            except TimeoutError:
                return received
            received.append(json.loads(message["text"]))

    async def _receive(self):
        import asyncio

        return await asyncio.wait_for(self.layer.receive(self.channel), 0.2)


def test_start_pause_resume_store_state_log_and_broadcast(tournament, td):
    listener = Listener(tournament)
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    started = fresh(tournament)
    assert (started.clock_status, started.clock_version) == ("running", 1)
    assert started.status == "running"
    svc.clock_pause(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    paused = view(tournament, NOW + 30 * MIN)
    assert paused.status == "paused"
    assert paused.time_left == 15 * MIN  # paused time does not run
    svc.clock_resume(tournament=tournament, actor=td, now=NOW + 30 * MIN)
    assert view(tournament, NOW + 31 * MIN).time_left == 14 * MIN
    actions = list(Event.objects.order_by("id").values_list("action", flat=True))
    assert actions[-3:] == ["clock.start", "clock.pause", "clock.resume"]
    pushed = listener.messages()
    assert [(m["type"], m["status"], m["version"]) for m in pushed] == [
        ("clock", "running", 1),
        ("clock", "paused", 2),
        ("clock", "running", 3),
    ]
    assert pushed[1]["remaining_seconds"] == 15 * 60
    assert pushed[0]["ends_at"] == (NOW + 20 * MIN).isoformat()


def test_scheduled_start_counts_down_then_runs(tournament, td):
    svc.clock_start(tournament=tournament, actor=td, now=NOW, at=NOW + 10 * MIN)
    assert view(tournament, NOW + 5 * MIN).time_to_start == 5 * MIN
    later = view(tournament, NOW + 12 * MIN)
    assert (later.status, later.time_left) == ("running", 18 * MIN)


@pytest.mark.parametrize(
    ("seconds", "left"),
    [(60, 16 * MIN), (-60, 14 * MIN), (3600, 20 * MIN)],  # never above the level's length
)
def test_adjust(tournament, td, seconds, left):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    svc.clock_adjust(tournament=tournament, actor=td, seconds=seconds, now=NOW + 5 * MIN)
    assert view(tournament, NOW + 5 * MIN).time_left == left


def test_levels_next_previous_jump(tournament, td):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    svc.clock_next_level(tournament=tournament, actor=td, now=NOW + MIN)
    assert view(tournament, NOW + MIN).level_number == 2
    svc.clock_next_level(tournament=tournament, actor=td, now=NOW + MIN)
    assert view(tournament, NOW + MIN).is_break
    svc.clock_previous_level(tournament=tournament, actor=td, now=NOW + MIN)
    assert view(tournament, NOW + MIN).level_number == 2
    svc.clock_jump(tournament=tournament, actor=td, index=3, now=NOW + MIN)
    assert view(tournament, NOW + MIN).level_number == 3


@pytest.mark.parametrize(
    ("operation", "kwargs"),
    [
        (svc.clock_pause, {}),
        (svc.clock_resume, {}),
        (svc.clock_adjust, {"seconds": 60}),
        (svc.clock_next_level, {}),
        (svc.clock_jump, {"index": 99}),
    ],
)
def test_refused_operations_change_nothing(tournament, td, operation, kwargs):
    with pytest.raises(svc.ClockRefused):
        operation(tournament=tournament, actor=td, now=NOW, **kwargs)
    assert fresh(tournament).clock_version == 0
    assert not Event.objects.filter(action__startswith="clock.").exists()


def test_undo_restores_the_previous_state_with_a_new_version(tournament, td):
    listener = Listener(tournament)
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    svc.clock_next_level(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    event = Event.objects.get(action="clock.next")
    events.event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW + 6 * MIN)
    restored = view(tournament, NOW + 6 * MIN)
    assert (restored.level_number, restored.time_left) == (1, 14 * MIN)
    assert restored.version == 3
    assert listener.messages()[-1]["version"] == 3


def test_announcement_is_claimed_once_and_logged(tournament, td):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    listener = Listener(tournament)
    boundary = NOW + 20 * MIN
    assert not announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=boundary - MIN
    )
    assert announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=boundary
    )
    assert not announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=boundary
    )
    rows = Event.objects.filter(action="clock.level")
    assert [(r.data["index"], r.data["level"]) for r in rows] == [(1, 2)]
    pushed = listener.messages()
    assert len(pushed) == 1 and pushed[0]["announce"]["index"] == 1
    # The next boundary of the same clock version is still announced.
    assert announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=2, now=NOW + 40 * MIN
    )


def test_stale_announcement_does_nothing(tournament, td):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    svc.clock_adjust(tournament=tournament, actor=td, seconds=120, now=NOW + MIN)
    listener = Listener(tournament)
    assert not announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=NOW + 25 * MIN
    )
    assert not Event.objects.filter(action="clock.level").exists()
    assert listener.messages() == []


def test_the_task_runs_the_claim(tournament, td):
    from tournaments.tasks import announce_boundary

    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    with time_machine.travel(NOW + 20 * MIN + 5 * SEC, tick=False):
        # apply() runs the task here, as a worker would, whatever broker is configured.
        assert announce_boundary.apply(args=(tournament.pk, 1, 1)).get() is True
        assert announce_boundary.apply(args=(tournament.pk, 1, 1)).get() is False


def test_catch_up_logs_a_passed_boundary_once(tournament, td):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    listener = Listener(tournament)
    assert announcement_services.clock_catch_up(tournament=fresh(tournament), now=NOW + 21 * MIN)
    assert not announcement_services.clock_catch_up(
        tournament=fresh(tournament), now=NOW + 22 * MIN
    )
    assert Event.objects.filter(action="clock.level").count() == 1
    # A minute late: the screens changed level long ago, no banner and sound now.
    (pushed,) = listener.messages()
    assert pushed["index"] == 1 and "announce" not in pushed


@override_settings(CLOCK_ANNOUNCE_GRACE_SECONDS=15)
def test_a_late_task_is_skipped_as_stale(tournament, td, caplog):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    listener = Listener(tournament)
    boundary = NOW + 20 * MIN
    # The worker was down at the boundary and comes back 16 s later.
    assert not announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=boundary + 16 * SEC
    )
    assert "skipped as stale" in caplog.text
    assert not Event.objects.filter(action="clock.level").exists()
    # Within the grace period it is still announced, with the banner: the only message.
    assert announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=boundary + 15 * SEC
    )
    (pushed,) = listener.messages()
    assert pushed["announce"]["index"] == 1


@override_settings(CLOCK_ANNOUNCE_GRACE_SECONDS=15, CLOCK_SWEEP_SECONDS=30)
def test_sweep_announces_a_missed_boundary_and_requeues_the_next(tournament, td, broker):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    _queued(broker)  # the task queued at the start is lost, as when Redis restarts
    listener = Listener(tournament)
    # Long before the boundary: nothing to do yet.
    assert announcement_services.clock_sweep(now=NOW + 5 * MIN) == 0
    assert _queued(broker) == []
    # Within two sweeps of it: the boundary's task is queued again.
    assert announcement_services.clock_sweep(now=NOW + 19 * MIN) == 1
    assert [args for args, _eta in _queued(broker)] == [[tournament.pk, 1, 1]]
    # Passed 10 s ago and nobody announced it: the sweep announces it now.
    assert announcement_services.clock_sweep(now=NOW + 20 * MIN + 10 * SEC) == 1
    assert Event.objects.filter(action="clock.level").count() == 1
    assert listener.messages()[0]["announce"]["index"] == 1
    # Claimed: the next sweep does not announce it twice.
    _queued(broker)
    announcement_services.clock_sweep(now=NOW + 20 * MIN + 40 * SEC)
    assert Event.objects.filter(action="clock.level").count() == 1


@pytest.fixture
def broker():
    """Celery with a real (in-memory) broker instead of running tasks inline."""
    from config.celery import app

    app.conf.task_always_eager = False
    # With REDIS_URL the broker is real and outlives each test: start from an empty queue
    # (earlier tests queued their boundaries and time-call expiries, with no worker).
    app.control.purge()
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        yield app
    app.conf.task_always_eager = True


def _queued(app) -> list[tuple[list, str]]:
    """Drain the broker: each queued task's arguments and ETA."""
    found = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue("celery")
        while True:
            try:
                message = queue.get(timeout=0.1)
            except queue.Empty:
                break
            assert message.headers["task"] == "tournaments.tasks.announce_boundary"
            found.append((list(message.decode()[0]), message.headers["eta"]))
            message.ack()
        queue.close()
    return found


def test_with_a_broker_each_change_schedules_the_next_boundary(tournament, td, broker):
    _queued(broker)
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    svc.clock_pause(tournament=tournament, actor=td, now=NOW + MIN)  # nothing to announce
    svc.clock_resume(tournament=tournament, actor=td, now=NOW + 2 * MIN)
    queued = _queued(broker)
    assert [args for args, _eta in queued] == [[tournament.pk, 1, 1], [tournament.pk, 3, 1]]
    assert [dt.datetime.fromisoformat(eta) for _args, eta in queued] == [
        NOW + 20 * MIN,
        NOW + 21 * MIN,
    ]
    # The first task is stale by the time it runs: the clock moved to version 3.
    assert not announcement_services.clock_announce(
        tournament_id=tournament.pk, version=1, index=1, now=NOW + 21 * MIN
    )
    assert announcement_services.clock_announce(
        tournament_id=tournament.pk, version=3, index=1, now=NOW + 21 * MIN
    )


def _open_tables(tournament, numbers):
    Table.objects.filter(tournament=tournament, number__in=numbers).update(status="open")


def test_hand_for_hand_deducts_per_hand_when_all_tables_are_done(tournament, td):
    _open_tables(tournament, [1, 2])
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    at = NOW + 2 * MIN + 30 * dt.timedelta(seconds=1)  # 17:30 left, as in RP-8b
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=at)
    assert view(tournament, at + 5 * MIN).status == "paused"
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=1, now=at + 3 * MIN
    )
    assert view(tournament, at + 3 * MIN).time_left == 17 * MIN + 30 * dt.timedelta(seconds=1)
    handforhand_services.h4h_table_done(
        tournament=tournament, actor=td, table_number=2, now=at + 4 * MIN
    )
    t = fresh(tournament)
    assert (t.h4h_hands, t.h4h_tables_done) == (1, [])
    assert view(tournament, at + 4 * MIN).time_left == 15 * MIN + 30 * dt.timedelta(seconds=1)
    payload = selectors.clock_payload(t, at)
    assert payload["hand_for_hand"] == {"hands": 1, "tables_done": []}
    with pytest.raises(svc.errors.DomainError):
        handforhand_services.h4h_table_done(tournament=tournament, actor=td, table_number=4, now=at)
    handforhand_services.h4h_stop(tournament=tournament, actor=td, now=at + 5 * MIN)
    assert selectors.clock_payload(fresh(tournament), at)["hand_for_hand"] is None


def test_end_of_day_in_window_counts_hands_per_table(tournament, td):
    _open_tables(tournament, [1, 2])
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    at = NOW + 10 * MIN + 20 * dt.timedelta(seconds=1)  # 9:40 left (ED-01)
    endofday_services.eod_start(
        tournament=tournament, actor=td, card="6d", last_level_of_day=True, now=at
    )
    t = fresh(tournament)
    assert t.clock_status == "paused" and t.eod_remaining == {"1": 6, "2": 6}
    endofday_services.eod_hand(tournament=tournament, actor=td, table_number=1, now=at)
    payload = selectors.clock_payload(fresh(tournament), at)
    assert payload["end_of_day"]["hands_left"] == 6
    assert payload["end_of_day"]["tables"] == {"1": 5, "2": 6}


@pytest.mark.parametrize(
    ("minutes", "card", "last"),
    [(16, "6d", True), (4, "6d", True), (10, "8c", True), (10, "6d", False), (10, "xx", True)],
)
def test_end_of_day_refusals_leave_the_clock_running(tournament, td, minutes, card, last):
    svc.clock_start(tournament=tournament, actor=td, now=NOW)
    at = NOW + 20 * MIN - minutes * MIN
    with pytest.raises(svc.ClockRefused):
        endofday_services.eod_start(
            tournament=tournament, actor=td, card=card, last_level_of_day=last, now=at
        )
    t = fresh(tournament)
    assert (t.clock_status, t.eod_card, t.clock_version) == ("running", "", 1)

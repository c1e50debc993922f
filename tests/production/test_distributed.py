"""Production mode across processes, and its faults.

Two uvicorn servers share a private Redis and the pytest PostgreSQL database; screens
are WebSocket clients that reconnect as the screen's JavaScript does; the TD logs in
through the login form of server a and works the clock console there.
"""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest

from tests.production.cluster import Screen, wait_until
from tournaments.models import Event, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LEVEL = 20 * 60  # the first level of make_tournament's structure, in seconds
HEALTHY = {"status": "ok", "database": "ok", "channel_layer": "ok", "broker": "ok"}


def at(iso: str) -> float:
    return dt.datetime.fromisoformat(iso).timestamp()


def screens(cluster, room, *names):
    path = f"/ws/screens/{room['screen'].token}/"
    return [Screen(cluster.servers[name], path) for name in names]


def first_state(screen: Screen) -> dict:
    return screen.wait_for(lambda m: m.get("type") == "clock", 10)[1]


def end_level_in(td_on_a, slug: str, seconds: int) -> None:
    """Take time off the running level through the console so it ends `seconds` from now."""
    tournament = Tournament.objects.get(slug=slug)
    from django.utils import timezone

    from tournaments import selectors

    left = selectors.clock_view_for(tournament, timezone.now()).time_left.total_seconds()
    assert td_on_a.clock(slug, "adjust", seconds=-int(left - seconds))[0] == 302


def test_a_change_on_one_server_reaches_the_other_and_the_worker_announces_to_both(
    cluster, room, td_on_a
):
    slug = room["tournament"].slug
    on_a, on_b = screens(cluster, room, "a", "b")
    try:
        assert first_state(on_a)["status"] == first_state(on_b)["status"] == "not_started"
        # The screen page and its CSS and JavaScript load from server b in production mode.
        status, page = cluster.servers["b"].get(f"/s/{room['screen'].token}/")
        assert status == 200
        assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
        assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
        assert all(cluster.servers["b"].get(asset)[0] == 200 for asset in assets)

        # A clock change posted on a reaches the screen connected to b.
        sent = time.monotonic()
        assert td_on_a.clock(slug, "start") == (302, f"/t/{slug}/clock/")
        arrived, state = on_b.wait_for(lambda m: m.get("status") == "running", 5, after=sent)
        assert arrived - sent < 2
        assert state["version"] == 1 and state["remaining_seconds"] > LEVEL - 5

        # The Celery worker announces the level boundary to the screens of both servers.
        cluster.start_worker()
        end_level_in(td_on_a, slug, 2)
        boundary = at(on_a.wait_for(lambda m: m.get("version") == 2, 5)[1]["ends_at"])
        for screen in (on_a, on_b):
            _at, announced = screen.wait_for(lambda m: "announce" in m, 10)
            assert announced["announce"]["index"] == 1 and announced["index"] == 1
            assert announced["level"]["small_blind"] == 200
            assert abs(at(announced["server_time"]) - boundary) < 2
        assert Event.objects.filter(action="clock.level", data__index=1).count() == 1
    finally:
        on_a.close()
        on_b.close()
        cluster.worker.kill9()


def test_kill_9_a_server_mid_level_and_restart_it_the_clock_is_right(cluster, room, td_on_a):
    """After a restart the clock shows the same time left (state from the
    database), to the second."""
    slug = room["tournament"].slug
    (on_b,) = screens(cluster, room, "b")
    try:
        first_state(on_b)
        assert td_on_a.clock(slug, "start")[0] == 302
        before = on_b.wait_for(lambda m: m.get("status") == "running", 5)[1]
        ends_at = at(before["ends_at"])

        cluster.servers["b"].kill9()
        killed = time.monotonic()
        wait_until(lambda: any(t >= killed for t, _c in on_b.closes), 5, "the socket to drop")
        time.sleep(1)
        cluster.servers["b"].start()

        _at, after = on_b.wait_for(lambda m: m.get("type") == "clock", 15, after=killed)
        assert after["version"] == before["version"]
        # The time left it shows is the time left by the wall clock, within a second.
        expected_left = ends_at - at(after["server_time"])
        assert abs(after["remaining_seconds"] - expected_left) <= 1
        assert abs(at(after["ends_at"]) - ends_at) < 1
        assert after["remaining_seconds"] < before["remaining_seconds"]
    finally:
        on_b.close()


def test_redis_restart_screens_resync_within_5_s_and_no_floor_action_is_lost(
    cluster, room, td_on_a
):
    slug = room["tournament"].slug
    on_a, on_b = screens(cluster, room, "a", "b")
    try:
        first_state(on_a), first_state(on_b)
        assert td_on_a.clock(slug, "start")[0] == 302
        for screen in (on_a, on_b):
            screen.wait_for(lambda m: m.get("status") == "running", 5)

        cluster.redis.kill()
        status, report = cluster.servers["a"].health()
        assert status == 503
        assert report["channel_layer"].startswith("error")
        assert report["broker"].startswith("error")
        assert report["database"] == "ok"

        # A pause during the outage: committed, never a 500; the screens cannot hear it now.
        assert td_on_a.clock(slug, "pause") == (302, f"/t/{slug}/clock/")
        paused = Tournament.objects.get(slug=slug)
        assert paused.clock_status == "paused" and paused.clock_version == 2

        cluster.redis.start()
        back = time.monotonic()
        for screen in (on_a, on_b):
            arrived, state = screen.wait_for(lambda m: m.get("version") == 2, 8, after=back)
            assert state["status"] == "paused"
            timeline = [("close", round(t - back, 2), c) for t, c in screen.closes] + [
                ("open", round(t - back, 2)) for t in screen.opens
            ]
            assert arrived - back < 5, (
                f"resynced {arrived - back:.1f} s after Redis was back",
                sorted(timeline, key=lambda x: x[1]),
            )
        health = cluster.servers["a"].health()
        assert health == (200, HEALTHY), health

        # A quick restart, back before the sockets noticed: the groups are gone all the
        # same. The watcher sees Redis's new run id and closes the sockets, so a change
        # made now still reaches both screens.
        cluster.redis.kill()
        cluster.redis.start()
        sent = time.monotonic()
        assert td_on_a.clock(slug, "resume")[0] == 302
        for screen in (on_a, on_b):
            arrived, state = screen.wait_for(lambda m: m.get("version") == 3, 8, after=sent)
            assert state["status"] == "running"
            assert arrived - sent < 5, f"resynced {arrived - sent:.1f} s after the restart"
    finally:
        on_a.close()
        on_b.close()


def test_worker_down_at_a_boundary_screens_change_level_and_the_late_task_is_stale(
    cluster, room, td_on_a
):
    cluster.worker.kill9()
    slug = room["tournament"].slug
    tournament = room["tournament"]
    (on_a,) = screens(cluster, room, "a")
    try:
        held = first_state(on_a)  # the levels, which clock changes name by their key
        assert td_on_a.clock(slug, "start")[0] == 302
        end_level_in(td_on_a, slug, 1)
        state = on_a.wait_for(lambda m: m.get("version") == 2, 5)[1]
        # What a screen needs to change level by itself: when this level ends, and the
        # next level's blinds and length (screen.js rolls over on its own count).
        assert state["status"] == "running" and state["ends_at"]
        assert at(state["ends_at"]) - at(state["server_time"]) <= 2
        assert state["structure"] == held["structure"]
        coming = held["items"][state["index"] + 1]
        assert (coming["small_blind"], coming["big_blind"]) == (200, 400)
        assert coming["duration"] == LEVEL

        # The worker comes back after the boundary and the grace period (2 s here).
        time.sleep(max(0.0, at(state["ends_at"]) + 3 - time.time()))
        cluster.start_worker()
        line = f"item 1 skipped as stale: tournament {tournament.pk} passed it"
        wait_until(lambda: line in cluster.worker.log(), 15, "the stale task to be skipped")
        assert not Event.objects.filter(tournament=tournament, action="clock.level").exists()
        assert not [m for m in on_a.clocks() if "announce" in m]
    finally:
        on_a.close()
        cluster.worker.kill9()

"""The pure clock: derived on read, rolled over by itself, never negative."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules import clock, handforhand
from tournaments.rules.clock import (
    AnteMode,
    Break,
    ClockState,
    ClockStatus,
    LateRegistration,
    Level,
)

T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)
SEC = timedelta(seconds=1)

STRUCTURE = (
    Level(number=1, small_blind=100, big_blind=200, duration=20 * 60),  # 0: 18:00-18:20
    Level(number=2, small_blind=200, big_blind=400, duration=20 * 60),  # 1: 18:20-18:40
    Break(duration=10 * 60, color_up=25),  # 2: 18:40-18:50
    Level(  # 3: 18:50-19:10
        number=3,
        small_blind=300,
        big_blind=600,
        ante=600,
        ante_mode=AnteMode.BIG_BLIND_ANTE,
        duration=20 * 60,
    ),
    Level(number=4, small_blind=400, big_blind=800, duration=20 * 60),  # 4: 19:10-19:30
    Break(duration=15 * 60),  # 5: 19:30-19:45
    Level(number=5, small_blind=500, big_blind=1000, duration=30 * 60),  # 6: 19:45-20:15
)
TOTAL = timedelta(minutes=135)


def running_from(at: datetime = T0) -> ClockState:
    return clock.start(STRUCTURE, ClockState(), now=at)


def test_structure_is_valid():
    clock.validate_structure(STRUCTURE)


@pytest.mark.parametrize(
    "structure",
    [
        (),
        (Break(duration=600),),
        (Level(number=1, small_blind=100, big_blind=200, duration=0),),
        (
            Level(number=2, small_blind=100, big_blind=200, duration=60),
            Level(number=2, small_blind=200, big_blind=400, duration=60),
        ),
        (Level(number=1, small_blind=200, big_blind=100, duration=60),),
    ],
    ids=["empty", "only-break", "zero-duration", "repeated-number", "bb-below-sb"],
)
def test_invalid_structures_are_refused(structure):
    with pytest.raises(ValueError):
        clock.validate_structure(structure)


def test_a_clock_that_has_not_started_shows_the_first_level_in_full():
    view = clock.clock_view(STRUCTURE, ClockState(), T0)
    assert view.status is ClockStatus.NOT_STARTED
    assert view.level_number == 1
    assert view.time_left == 20 * MIN
    assert view.ends_at is None
    assert view.estimated_finish is None
    assert clock.next_boundary(STRUCTURE, ClockState(), T0) is None


def test_starting_now_runs_the_first_level():
    state = running_from(T0)
    view = clock.clock_view(STRUCTURE, state, T0 + 5 * MIN)
    assert view.status is ClockStatus.RUNNING
    assert view.time_left == 15 * MIN
    assert view.ends_at == T0 + 20 * MIN
    assert state.version == 1


def test_a_scheduled_start_counts_down_then_runs_by_itself():
    state = clock.start(STRUCTURE, ClockState(), now=T0 - 10 * MIN, at=T0)
    before = clock.clock_view(STRUCTURE, state, T0 - 4 * MIN)
    assert before.status is ClockStatus.SCHEDULED
    assert before.time_to_start == 4 * MIN
    assert before.time_left == 20 * MIN
    assert before.estimated_finish == T0 + TOTAL
    assert clock.next_boundary(STRUCTURE, state, T0 - 4 * MIN) == T0
    after = clock.clock_view(STRUCTURE, state, T0 + 3 * MIN)
    assert after.status is ClockStatus.RUNNING
    assert after.time_left == 17 * MIN


def test_a_scheduled_start_in_the_past_starts_at_that_time():
    state = clock.start(STRUCTURE, ClockState(), now=T0 + 2 * MIN, at=T0)
    assert clock.time_left(STRUCTURE, state, T0 + 2 * MIN) == 18 * MIN


@pytest.mark.parametrize(
    ("after", "index", "left", "level", "is_break"),
    [
        (timedelta(0), 0, 20 * MIN, 1, False),
        (20 * MIN - SEC, 0, SEC, 1, False),
        (20 * MIN, 1, 20 * MIN, 2, False),  # zero left: the next level is in play (TDA-23)
        (40 * MIN, 2, 10 * MIN, None, True),
        (49 * MIN, 2, MIN, None, True),
        (50 * MIN, 3, 20 * MIN, 3, False),
        (TOTAL - SEC, 6, SEC, 5, False),
    ],
)
def test_a_running_clock_rolls_over_levels_and_breaks_when_read(
    after, index, left, level, is_break
):
    view = clock.clock_view(STRUCTURE, running_from(), T0 + after)
    assert (view.index, view.time_left, view.level_number, view.is_break) == (
        index,
        left,
        level,
        is_break,
    )
    assert view.status is ClockStatus.RUNNING


def test_the_clock_finishes_when_the_structure_runs_out():
    view = clock.clock_view(STRUCTURE, running_from(), T0 + TOTAL + 5 * MIN)
    assert view.status is ClockStatus.FINISHED
    assert view.time_left == timedelta(0)
    assert view.estimated_finish is None
    assert clock.next_boundary(STRUCTURE, running_from(), T0 + TOTAL) is None


def test_pausing_after_a_boundary_keeps_the_new_level_and_its_banked_time():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 25 * MIN)
    assert state.status is ClockStatus.PAUSED
    for later in (T0 + 25 * MIN, T0 + 3 * timedelta(hours=1)):
        view = clock.clock_view(STRUCTURE, state, later)
        assert (view.level_number, view.time_left, view.ends_at) == (2, 15 * MIN, None)
    assert clock.next_boundary(STRUCTURE, state, T0 + 30 * MIN) is None
    resumed = clock.resume(STRUCTURE, state, now=T0 + 60 * MIN)
    view = clock.clock_view(STRUCTURE, resumed, T0 + 60 * MIN)
    assert view.ends_at == T0 + 75 * MIN
    # Resumed, it rolls into the break 15 minutes later, not at the original 18:40.
    assert clock.clock_view(STRUCTURE, resumed, T0 + 75 * MIN).is_break


def test_a_pause_shifts_every_later_boundary():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 5 * MIN)
    state = clock.resume(STRUCTURE, state, now=T0 + 12 * MIN)
    assert clock.next_boundary(STRUCTURE, state, T0 + 12 * MIN) == T0 + 27 * MIN
    view = clock.clock_view(STRUCTURE, state, T0 + 12 * MIN)
    assert view.estimated_finish == T0 + TOTAL + 7 * MIN


@pytest.mark.parametrize(
    ("seconds", "left"),
    [
        (60, 16 * MIN),
        (-60, 14 * MIN),
        (10 * 60, 20 * MIN),  # clamped to the level's duration
        (-14 * 60 - 59, SEC),
    ],
)
def test_adjusting_moves_time_left_within_the_level(seconds, left):
    state = clock.adjust(STRUCTURE, running_from(), now=T0 + 5 * MIN, seconds=seconds)
    view = clock.clock_view(STRUCTURE, state, T0 + 5 * MIN)
    assert (view.index, view.time_left) == (0, left)


def test_adjusting_below_zero_ends_the_level_and_never_goes_negative():
    state = clock.adjust(STRUCTURE, running_from(), now=T0 + 5 * MIN, seconds=-3600)
    view = clock.clock_view(STRUCTURE, state, T0 + 5 * MIN)
    assert (view.index, view.time_left) == (1, 20 * MIN)


def test_adjusting_a_paused_clock_changes_the_banked_time():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 5 * MIN)
    state = clock.adjust(STRUCTURE, state, now=T0 + 9 * MIN, seconds=-120)
    assert state.status is ClockStatus.PAUSED
    assert clock.time_left(STRUCTURE, state, T0 + 30 * MIN) == 13 * MIN


def test_moving_between_items():
    state = clock.next_level(STRUCTURE, running_from(), now=T0 + 5 * MIN)
    assert clock.clock_view(STRUCTURE, state, T0 + 5 * MIN).level_number == 2
    state = clock.next_level(STRUCTURE, state, now=T0 + 6 * MIN)
    view = clock.clock_view(STRUCTURE, state, T0 + 6 * MIN)
    assert view.is_break and view.time_left == 10 * MIN
    state = clock.previous_level(STRUCTURE, state, now=T0 + 7 * MIN)
    view = clock.clock_view(STRUCTURE, state, T0 + 7 * MIN)
    assert (view.level_number, view.time_left) == (2, 20 * MIN)
    state = clock.jump_to_level(STRUCTURE, state, now=T0 + 8 * MIN, number=5)
    assert clock.clock_view(STRUCTURE, state, T0 + 8 * MIN).index == 6
    state = clock.next_level(STRUCTURE, state, now=T0 + 9 * MIN)
    assert clock.clock_view(STRUCTURE, state, T0 + 9 * MIN).status is ClockStatus.FINISHED
    with pytest.raises(ValueError):
        clock.jump_to_level(STRUCTURE, state, now=T0, number=99)


def test_previous_on_the_first_level_restarts_it_and_keeps_a_pause():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 5 * MIN)
    state = clock.previous_level(STRUCTURE, state, now=T0 + 6 * MIN)
    view = clock.clock_view(STRUCTURE, state, T0 + 30 * MIN)
    assert (view.status, view.index, view.time_left) == (ClockStatus.PAUSED, 0, 20 * MIN)


def test_jumping_before_the_start_chooses_where_the_clock_starts():
    state = clock.jump_to(STRUCTURE, ClockState(), now=T0, index=3)
    state = clock.start(STRUCTURE, state, now=T0)
    assert clock.clock_view(STRUCTURE, state, T0 + MIN).level_number == 3


@pytest.mark.parametrize(
    ("operation", "state", "error"),
    [
        (clock.start, running_from(), clock.ClockAlreadyRunning),
        (clock.pause, ClockState(), clock.ClockNotRunning),
        (clock.resume, running_from(), clock.ClockNotRunning),
        (clock.next_level, ClockState(), clock.ClockNotStarted),
        (clock.pause, clock.finish(STRUCTURE, running_from(), now=T0), clock.ClockFinished),
    ],
    ids=["start-twice", "pause-not-started", "resume-running", "next-not-started", "pause-done"],
)
def test_operations_the_status_does_not_allow_are_refused(operation, state, error):
    with pytest.raises(error):
        operation(STRUCTURE, state, now=T0 + MIN)


def test_adjust_before_the_start_is_refused():
    with pytest.raises(clock.ClockNotStarted):
        clock.adjust(STRUCTURE, ClockState(), now=T0, seconds=30)


OPERATIONS = [
    ("pause", lambda s, now: clock.pause(STRUCTURE, s, now=now)),
    ("adjust", lambda s, now: clock.adjust(STRUCTURE, s, now=now, seconds=30)),
    ("next", lambda s, now: clock.next_level(STRUCTURE, s, now=now)),
    ("previous", lambda s, now: clock.previous_level(STRUCTURE, s, now=now)),
    ("jump", lambda s, now: clock.jump_to(STRUCTURE, s, now=now, index=4)),
    ("finish", lambda s, now: clock.finish(STRUCTURE, s, now=now)),
]


@pytest.mark.parametrize("operation", [op for _, op in OPERATIONS], ids=[n for n, _ in OPERATIONS])
def test_every_operation_increments_the_version(operation):
    state = running_from()
    assert operation(state, T0 + MIN).version == state.version + 1


def test_a_start_pause_resume_sequence_counts_versions():
    state = ClockState()
    state = clock.start(STRUCTURE, state, now=T0)
    state = clock.pause(STRUCTURE, state, now=T0 + MIN)
    state = clock.resume(STRUCTURE, state, now=T0 + 2 * MIN)
    assert state.version == 3


def test_the_view_names_the_next_level_skipping_a_break():
    view = clock.clock_view(STRUCTURE, running_from(), T0 + 25 * MIN)
    assert view.next_item == STRUCTURE[2]
    assert view.next_level == STRUCTURE[3]
    assert view.next_level.ante_mode is AnteMode.BIG_BLIND_ANTE


@pytest.mark.parametrize(
    ("after", "to_break"),
    [
        (timedelta(0), 40 * MIN),
        (25 * MIN, 15 * MIN),
        (45 * MIN, 45 * MIN),  # in the first break: the next one is after levels 3 and 4
        (100 * MIN, None),  # after the last break
    ],
)
def test_time_to_the_next_break(after, to_break):
    assert clock.clock_view(STRUCTURE, running_from(), T0 + after).time_to_next_break == to_break


@pytest.mark.parametrize(
    ("after", "denomination", "starts_in"),
    [
        (timedelta(0), 25, 40 * MIN),
        (39 * MIN, 25, MIN),
        (42 * MIN, 25, timedelta(0)),  # during the colour-up break itself
        (55 * MIN, None, None),  # the coming break has no colour-up
    ],
)
def test_the_colour_up_due_at_the_coming_break_is_announced(after, denomination, starts_in):
    notice = clock.clock_view(STRUCTURE, running_from(), T0 + after).color_up
    if denomination is None:
        assert notice is None
    else:
        assert notice is not None
        assert (notice.denomination, notice.break_index, notice.starts_in) == (
            denomination,
            2,
            starts_in,
        )


@pytest.mark.parametrize(
    ("until_level", "through_break", "after", "is_open"),
    [
        (2, False, 40 * MIN - SEC, True),  # last second of level 2
        (2, False, 40 * MIN, False),  # the break after level 2 has begun
        (2, True, 40 * MIN, True),  # open through the following break
        (2, True, 50 * MIN - SEC, True),
        (2, True, 50 * MIN, False),  # level 3 has begun
        (1, True, 25 * MIN, False),  # level 1 is not followed by a break
        (4, False, 45 * MIN, True),  # a break before the last late level stays open
        (4, True, 100 * MIN, True),  # second break, after level 4
        (4, True, 105 * MIN, False),
    ],
)
def test_late_registration_at_the_edges(until_level, through_break, after, is_open):
    rule = LateRegistration(until_level=until_level, through_break=through_break)
    view = clock.clock_view(STRUCTURE, running_from(), T0 + after, late_registration=rule)
    assert view.late_registration_open is is_open


def test_late_registration_close_time_follows_the_pace():
    rule = LateRegistration(until_level=2, through_break=True)
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 10 * MIN)
    state = clock.resume(STRUCTURE, state, now=T0 + 15 * MIN)
    view = clock.clock_view(STRUCTURE, state, T0 + 15 * MIN, late_registration=rule)
    assert view.late_registration_closes_at == T0 + 55 * MIN


def test_late_registration_is_open_before_the_start_and_closed_at_the_finish():
    rule = LateRegistration(until_level=2)
    assert clock.clock_view(
        STRUCTURE, ClockState(), T0, late_registration=rule
    ).late_registration_open
    done = clock.finish(STRUCTURE, running_from(), now=T0)
    assert not clock.clock_view(STRUCTURE, done, T0, late_registration=rule).late_registration_open


def test_estimated_finish_and_the_end_of_a_given_level():
    state = running_from()
    view = clock.clock_view(STRUCTURE, state, T0 + 10 * MIN)
    assert view.estimated_finish == T0 + TOTAL
    assert clock.estimated_end(STRUCTURE, state, T0 + 10 * MIN, index=3) == T0 + 70 * MIN
    assert clock.estimated_end(STRUCTURE, state, T0 + 30 * MIN, index=0) is None
    paused = clock.pause(STRUCTURE, state, now=T0 + 10 * MIN)
    # A paused clock estimates as if resumed at the moment of reading.
    assert clock.clock_view(STRUCTURE, paused, T0 + 40 * MIN).estimated_finish == (
        T0 + TOTAL + 30 * MIN
    )


@pytest.mark.parametrize(
    ("hand_started", "level"),
    [
        (20 * MIN - SEC, 1),  # started before zero: finishes at the old level (TDA-23)
        (20 * MIN, 2),
        (45 * MIN, 2),  # during the break the next level has not begun
        (50 * MIN, 3),
    ],
)
def test_the_level_that_applies_to_a_hand_is_the_one_in_play_when_it_started(hand_started, level):
    found = clock.level_for_hand(STRUCTURE, running_from(), hand_started_at=T0 + hand_started)
    assert found.number == level


def test_payload_is_json_safe_while_running():
    state = running_from()
    view = clock.clock_view(
        STRUCTURE, state, T0 + 25 * MIN, late_registration=LateRegistration(until_level=2)
    )
    payload = json.loads(json.dumps(clock.to_payload(view)))
    assert payload["type"] == "clock"
    assert payload["version"] == state.version
    assert payload["level"]["number"] == 2
    assert datetime.fromisoformat(payload["ends_at"]) == T0 + 40 * MIN
    assert datetime.fromisoformat(payload["server_time"]) == T0 + 25 * MIN
    assert payload["remaining_seconds"] == 15 * 60
    assert payload["color_up"]["denomination"] == 25
    assert payload["late_registration_open"] is True


def test_payload_of_a_paused_clock_carries_remaining_seconds_and_no_end():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 90 * SEC)
    payload = json.loads(json.dumps(clock.to_payload(clock.clock_view(STRUCTURE, state, T0))))
    assert payload["status"] == "paused"
    assert payload["ends_at"] is None
    assert payload["remaining_seconds"] == 18 * 60 + 30


def test_payload_of_a_break_has_no_level():
    view = clock.clock_view(STRUCTURE, running_from(), T0 + 45 * MIN)
    payload = json.loads(json.dumps(clock.to_payload(view)))
    assert payload["is_break"] is True
    assert payload["level"] is None
    assert payload["next_level"]["ante_mode"] == "big_blind_ante"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (timedelta(minutes=17, seconds=30), "17:30"),
        (timedelta(seconds=50), "00:50"),
        (timedelta(seconds=49.2), "00:50"),  # part seconds round up
        (timedelta(0), "00:00"),
        (timedelta(minutes=75), "75:00"),
    ],
)
def test_clock_values_format_and_parse(value, text):
    assert clock.format_clock(value) == text
    if value.microseconds == 0:
        assert clock.parse_clock(text) == value


@pytest.mark.parametrize("text", ["1730", "17:3x", "17:60", ":30"])
def test_bad_clock_values_are_refused(text):
    with pytest.raises(ValueError):
        clock.parse_clock(text)


# --- Property: whatever the TD does, the clock stays within the item ------------------

operation = st.one_of(
    st.tuples(st.just("wait"), st.integers(min_value=0, max_value=4000)),
    st.tuples(st.just("start"), st.integers(min_value=-600, max_value=600)),
    st.tuples(st.just("pause"), st.just(0)),
    st.tuples(st.just("resume"), st.just(0)),
    st.tuples(st.just("adjust"), st.integers(min_value=-5000, max_value=5000)),
    st.tuples(st.just("next"), st.just(0)),
    st.tuples(st.just("previous"), st.just(0)),
    st.tuples(st.just("jump"), st.integers(min_value=0, max_value=len(STRUCTURE) - 1)),
    st.tuples(st.just("deduct"), st.integers(min_value=1, max_value=30)),
)


def _apply(state: ClockState, now: datetime, name: str, arg: int) -> ClockState:
    if name == "start":
        return clock.start(STRUCTURE, state, now=now, at=now + timedelta(seconds=arg))
    if name == "pause":
        return clock.pause(STRUCTURE, state, now=now)
    if name == "resume":
        return clock.resume(STRUCTURE, state, now=now)
    if name == "adjust":
        return clock.adjust(STRUCTURE, state, now=now, seconds=arg)
    if name == "next":
        return clock.next_level(STRUCTURE, state, now=now)
    if name == "previous":
        return clock.previous_level(STRUCTURE, state, now=now)
    if name == "jump":
        return clock.jump_to(STRUCTURE, state, now=now, index=arg)
    return handforhand.hand_for_hand_deduct(STRUCTURE, state, now=now, minutes_per_hand=arg)


@settings(max_examples=300, deadline=None)
@given(st.lists(operation, max_size=30))
def test_time_left_is_never_negative_nor_above_the_item_duration(operations):
    state, now = ClockState(), T0
    for name, arg in operations:
        if name == "wait":
            now += timedelta(seconds=arg)
        else:
            try:
                new_state = _apply(state, now, name, arg)
            except clock.ClockError:
                continue
            assert new_state.version == state.version + 1
            state = new_state
        view = clock.clock_view(STRUCTURE, state, now)
        assert timedelta(0) <= view.time_left <= timedelta(seconds=view.item.duration)
        assert view.item is STRUCTURE[view.index]
        json.dumps(clock.to_payload(view))


# --- Hand-for-hand (tournament.md §14.3, §14.4) ----------------------------------------


def h4h_paused_at(after: timedelta) -> ClockState:
    return clock.pause(STRUCTURE, running_from(), now=T0 + after)


def test_hand_for_hand_deducts_per_hand_however_long_it_took():
    state = h4h_paused_at(2 * MIN + 30 * SEC)  # 17:30 left in level 1
    state = handforhand.hand_for_hand_deduct(STRUCTURE, state, now=T0 + 9 * MIN)
    # Wall-clock time passed, but a stopped clock only moves by the 2 minutes (RP-8b).
    assert clock.time_left(STRUCTURE, state, T0 + 30 * MIN) == 15 * MIN + 30 * SEC
    assert state.status is ClockStatus.PAUSED


def test_hand_for_hand_needs_the_clock_stopped():
    with pytest.raises(clock.ClockNotRunning):
        handforhand.hand_for_hand_deduct(STRUCTURE, running_from(), now=T0)


@pytest.mark.parametrize(
    ("minutes_per_hand", "during_hand", "expected"),
    [
        (2, True, [(1, "15:30", 1), (1, "13:30", 1), (1, "11:30", 1)]),
        (2, False, [(1, "17:30", 1), (1, "15:30", 1), (1, "13:30", 1)]),
        (3, True, [(1, "14:30", 1), (1, "11:30", 1), (1, "08:30", 1)]),
    ],
)
def test_the_clock_at_each_hand_start(minutes_per_hand, during_hand, expected):
    starts = handforhand.project_hand_for_hand(
        STRUCTURE,
        h4h_paused_at(2 * MIN + 30 * SEC),
        now=T0,
        count=3,
        minutes_per_hand=minutes_per_hand,
        announcement_during_hand=during_hand,
    )
    got = [(s.level_number, clock.format_clock(s.remaining), s.blinds_level) for s in starts]
    assert got == expected


def test_a_hand_that_overruns_the_level_plays_old_blinds_and_the_overrun_counts_next():
    starts = handforhand.project_hand_for_hand(
        STRUCTURE, h4h_paused_at(16 * MIN + 30 * SEC), now=T0, count=3
    )  # 3:30 left in level 1
    got = [(s.level_number, clock.format_clock(s.remaining), s.blinds_level) for s in starts]
    assert got == [(1, "01:30", 1), (2, "19:30", 2), (2, "17:30", 2)]


def test_a_hand_start_at_exactly_zero_plays_the_new_level():
    starts = handforhand.project_hand_for_hand(STRUCTURE, h4h_paused_at(18 * MIN), now=T0, count=1)
    assert [(s.level_number, s.remaining, s.blinds_level) for s in starts] == [(2, 20 * MIN, 2)]


def test_reaching_a_break_stops_the_deduction_at_the_break():
    state = h4h_paused_at(39 * MIN)  # 1:00 left in level 2, the colour-up break next
    state = handforhand.hand_for_hand_deduct(STRUCTURE, state, now=T0)
    view = clock.clock_view(STRUCTURE, state, T0)
    assert view.is_break and view.time_left == 10 * MIN


def test_the_projection_takes_a_break_it_reaches_before_the_next_hand():
    starts = handforhand.project_hand_for_hand(STRUCTURE, h4h_paused_at(37 * MIN), now=T0, count=3)
    got = [(s.level_number, clock.format_clock(s.remaining), s.blinds_level) for s in starts]
    assert got == [(2, "01:00", 2), (3, "20:00", 3), (3, "18:00", 3)]


def test_the_service_step_charges_the_previous_hand_only_when_asked():
    state = h4h_paused_at(10 * MIN)
    same, first = handforhand.hand_for_hand_hand_start(
        STRUCTURE, state, now=T0, charge_previous_hand=False
    )
    assert (first.remaining, same.version) == (10 * MIN, state.version)
    after, second = handforhand.hand_for_hand_hand_start(STRUCTURE, same, now=T0)
    assert (second.remaining, after.version) == (8 * MIN, state.version + 1)


@pytest.mark.parametrize(
    ("called", "hold", "first"),
    [
        (["T2", "T5"], ("T2", "T5"), ("T1", "T3", "T4")),
        (["T3"], ("T3",), ("T1", "T2", "T4", "T5")),
        ([], (), ("T1", "T2", "T3", "T4", "T5")),
        (["T1", "T2", "T3", "T4", "T5"], ("T1", "T2", "T3", "T4", "T5"), ()),
    ],
)
def test_all_ins_in_hand_for_hand_hold_until_the_others_finish(called, hold, first):
    result = handforhand.hand_for_hand_all_in(
        tables=["T1", "T2", "T3", "T4", "T5"], called_all_in_tables=called
    )
    assert (result.hold_cards_face_down, result.must_finish_first) == (hold, first)
    assert result.resume == "one_at_a_time_after_others_finish"
    assert result.next_hand_signal_after == "all_tables_complete"


def test_an_all_in_at_a_table_not_in_the_hand_is_refused():
    with pytest.raises(ValueError):
        handforhand.hand_for_hand_all_in(tables=["T1", "T2"], called_all_in_tables=["T9"])


@pytest.mark.parametrize(
    ("finished", "ready"), [([True, True], True), ([True, False], False), ([], True)]
)
def test_the_next_hand_is_signalled_only_when_every_table_is_done(finished, ready):
    assert handforhand.hand_for_hand_next_hand_ready(finished) is ready


@pytest.mark.parametrize(
    ("after", "wait"),
    [
        (18 * MIN + 29 * SEC, False),
        (18 * MIN + 30 * SEC, True),  # 90 s before the level change (RP-7)
        (19 * MIN + 59 * SEC, True),
        (20 * MIN, False),  # the new level has just begun
        (38 * MIN + 45 * SEC, True),  # before the break
    ],
)
def test_dealer_rotations_wait_near_a_level_change_or_break(after, wait):
    assert clock.rotation_should_wait(STRUCTURE, running_from(), T0 + after) is wait


def test_a_paused_clock_never_holds_rotations():
    state = clock.pause(STRUCTURE, running_from(), now=T0 + 19 * MIN + 30 * SEC)
    assert not clock.rotation_should_wait(STRUCTURE, state, T0 + 19 * MIN + 30 * SEC)


def test_late_registration_close_time_before_a_scheduled_start_and_while_paused():
    rule = LateRegistration(until_level=1)
    scheduled = clock.start(STRUCTURE, ClockState(), now=T0 - 30 * MIN, at=T0)
    view = clock.clock_view(STRUCTURE, scheduled, T0 - 10 * MIN, late_registration=rule)
    assert view.late_registration_closes_at == T0 + 20 * MIN
    paused = clock.pause(STRUCTURE, running_from(), now=T0 + MIN)
    view = clock.clock_view(STRUCTURE, paused, T0 + MIN, late_registration=rule)
    assert view.late_registration_open and view.late_registration_closes_at is None


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=int(TOTAL.total_seconds()) - 1),
    st.integers(min_value=0, max_value=int(TOTAL.total_seconds()) - 1),
)
def test_a_running_clock_only_moves_forward_and_keeps_its_finish(first, second):
    earlier, later = sorted((first, second))
    state = running_from()
    a = clock.clock_view(STRUCTURE, state, T0 + timedelta(seconds=earlier))
    b = clock.clock_view(STRUCTURE, state, T0 + timedelta(seconds=later))
    assert (a.index, a.elapsed) <= (b.index, b.elapsed)
    assert a.estimated_finish == b.estimated_finish == T0 + TOTAL

"""Time calls per profile (tournament.md §18)."""

from __future__ import annotations

import pytest

from tournaments.rules.timecalls import (
    Caller,
    Expiry,
    Refusal,
    Role,
    ShotClockPhase,
    TimeCallProfile,
    call_time,
    profile_rules,
    shot_clock,
)

PLAYER = Caller(Role.PLAYER)


@pytest.mark.parametrize(
    ("profile", "approved_by", "facing_bet", "grant", "countdown", "expiry"),
    [
        ("tda2022", Role.TD, True, 25, 5, Expiry.DEAD_HAND),  # 30 s in all (TDA-29/30)
        ("tda2022", Role.TD, False, 25, 5, Expiry.CHECK),
        ("tda2015", Role.FLOOR, True, 50, 10, Expiry.DEAD_HAND),
        ("tda2015", Role.FLOOR, False, 50, 10, Expiry.DEAD_HAND),
        ("figp", None, True, 60, 10, Expiry.FOLD),
        ("figp", None, False, 60, 10, Expiry.FOLD),
        ("codice003", None, True, 60, 0, Expiry.FOLD),
    ],
)
def test_accepted_calls_grant_the_profiles_time(
    profile, approved_by, facing_bet, grant, countdown, expiry
):
    decision = call_time(
        rules=profile_rules(profile),
        caller=PLAYER,
        facing_bet=facing_bet,
        seconds_already_used=45,
        approved_by=approved_by,
    )
    assert decision.accepted and decision.reason is None
    assert (decision.seconds_before_countdown, decision.countdown_seconds) == (grant, countdown)
    assert decision.total_after_call == grant + countdown
    assert decision.on_expiry is expiry
    assert decision.rules


@pytest.mark.parametrize(
    ("profile", "caller", "used", "approved_by", "reason"),
    [
        ("tda2022", Caller(Role.PLAYER, at_own_seat=False), 90, Role.TD, "caller_not_at_own_seat"),
        (
            "tda2022",
            Caller(Role.PLAYER, at_own_seat=False, same_table=False),
            90,
            Role.TD,
            "caller_not_at_own_seat",  # the first failing check is reported
        ),
        ("tda2022", Caller(Role.PLAYER, same_table=False), 90, Role.TD, "caller_not_at_table"),
        ("tda2022", PLAYER, 90, None, "not_approved"),
        (
            "tda2015",
            Caller(Role.PLAYER, at_own_seat=False),
            90,
            Role.FLOOR,
            "caller_not_at_own_seat",
        ),
        ("tda2015", PLAYER, 90, None, "not_approved"),
        ("figp", Caller(Role.PLAYER, same_table=False), 45, None, "caller_not_at_table"),
        ("figp", PLAYER, 29, None, "requested_too_early"),
        ("codice003", PLAYER, 10, None, "requested_too_early"),
        ("codice003", Caller(Role.PLAYER, same_table=False), 10, None, "caller_not_at_table"),
    ],
)
def test_refused_calls_name_the_first_failing_check(profile, caller, used, approved_by, reason):
    decision = call_time(
        rules=profile_rules(profile),
        caller=caller,
        facing_bet=True,
        seconds_already_used=used,
        approved_by=approved_by,
    )
    assert not decision.accepted
    assert decision.reason == Refusal(reason)
    assert decision.total_after_call == 0


def test_tda2015_lets_any_player_in_the_event_ask():
    decision = call_time(
        rules=profile_rules("tda2015"),
        caller=Caller(Role.PLAYER, same_table=False),
        facing_bet=True,
        seconds_already_used=90,
        approved_by=Role.FLOOR,
    )
    assert decision.accepted


@pytest.mark.parametrize("used", [30, 31])
def test_figp_allows_the_request_from_30_seconds(used):
    decision = call_time(
        rules=profile_rules("figp"), caller=PLAYER, facing_bet=True, seconds_already_used=used
    )
    assert decision.accepted


@pytest.mark.parametrize("role", [Role.TD, Role.FLOOR])
def test_staff_call_time_without_approval(role):
    decision = call_time(
        rules=profile_rules("tda2022"),
        caller=Caller(role, at_own_seat=False, same_table=False),
        facing_bet=False,
        seconds_already_used=90,
    )
    assert decision.accepted and decision.on_expiry is Expiry.CHECK


def test_the_td_may_approve_where_the_floor_is_named():
    decision = call_time(
        rules=profile_rules("tda2015"),
        caller=PLAYER,
        facing_bet=True,
        seconds_already_used=90,
        approved_by=Role.TD,
    )
    assert decision.accepted


def test_a_td_override_shortens_the_grant():
    rules = profile_rules(TimeCallProfile.TDA2022, seconds_before_countdown=15)
    decision = call_time(
        rules=rules, caller=PLAYER, facing_bet=True, seconds_already_used=60, approved_by=Role.TD
    )
    assert decision.total_after_call == 20


def test_the_default_profile_is_tda2022():
    assert profile_rules().profile is TimeCallProfile.TDA2022


@pytest.mark.parametrize(
    ("since", "phase", "left"),
    [
        (0, ShotClockPhase.GRANT, 30),
        (24, ShotClockPhase.GRANT, 6),
        (25, ShotClockPhase.COUNTDOWN, 5),
        (29.5, ShotClockPhase.COUNTDOWN, 0.5),
        (30, ShotClockPhase.EXPIRED, 0),
        (100, ShotClockPhase.EXPIRED, 0),
    ],
)
def test_the_shot_clock_counts_down_inside_the_thirty_seconds(since, phase, left):
    decision = call_time(
        rules=profile_rules("tda2022"),
        caller=PLAYER,
        facing_bet=True,
        seconds_already_used=60,
        approved_by=Role.TD,
    )
    shown = shot_clock(decision, seconds_since_call=since)
    assert (shown.phase, shown.seconds_left) == (phase, left)


def test_a_refused_call_runs_no_shot_clock():
    decision = call_time(
        rules=profile_rules("figp"), caller=PLAYER, facing_bet=True, seconds_already_used=5
    )
    with pytest.raises(ValueError):
        shot_clock(decision, seconds_since_call=1)

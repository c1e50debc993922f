"""Re-entry, freezeout, forfeit-and-re-enter, rebuys and add-ons (tournament.md §5.4-§5.6)."""

from __future__ import annotations

import pytest

from tournaments.rules.entry_rules import (
    AddOnPolicy,
    EntryFormat,
    EntryPolicy,
    RebuyPolicy,
    SeatAssignment,
    addon_eligibility,
    forfeit_and_reenter,
    rebuy_eligibility,
    request_reentry,
    resolve_rebuy,
)


@pytest.mark.parametrize(
    ("policy", "stack", "entries_used", "level", "eliminated", "allowed", "reasons"),
    [
        (EntryPolicy(EntryFormat.FREEZEOUT), 0, 1, None, True, False, ("freezeout",)),  # RB-03
        (EntryPolicy(EntryFormat.REENTRY), 0, 1, None, True, True, ()),
        (EntryPolicy(EntryFormat.REENTRY), 500, 1, None, False, False, ("still_has_chips",)),
        (
            EntryPolicy(EntryFormat.REENTRY, reentry_forfeit_allowed=True),
            500,
            1,
            None,
            False,
            True,
            (),
        ),
        (
            EntryPolicy(EntryFormat.REENTRY, max_entries=2),
            0,
            2,
            None,
            True,
            False,
            ("max_entries_reached",),
        ),
        (EntryPolicy(EntryFormat.REENTRY, max_entries=3), 0, 2, None, True, True, ()),
        (
            EntryPolicy(EntryFormat.REENTRY, late_registration_until=8),
            0,
            1,
            9,
            True,
            False,
            ("registration_closed",),
        ),
        (EntryPolicy(EntryFormat.REENTRY, late_registration_until=8), 0, 1, 8, True, True, ()),
    ],
)
def test_request_reentry(policy, stack, entries_used, level, eliminated, allowed, reasons):
    decision = request_reentry(policy, stack=stack, entries_used=entries_used, current_level=level)
    assert decision.eliminated is eliminated
    assert decision.reentry_allowed is allowed
    assert decision.reasons == reasons


def test_forfeited_stack_leaves_play_and_the_new_entry_draws_a_seat():
    # TDA-8b (RB-02 shape): 3,200 forfeited, 20,000 bought.
    result = forfeit_and_reenter(
        reentry_forfeit_allowed=True, stack=3200, starting_stack=20000, chips_in_play_before=500000
    )
    assert result.removed_from_play == 3200
    assert result.new_stack == 20000
    assert result.chips_in_play_after == 516800
    assert result.seat_assignment is SeatAssignment.RANDOM_DRAW


def test_forfeit_refused_when_the_event_does_not_allow_it():
    result = forfeit_and_reenter(
        reentry_forfeit_allowed=False, stack=3200, starting_stack=20000, chips_in_play_before=500000
    )
    assert not result.allowed
    assert (result.removed_from_play, result.new_stack, result.chips_in_play_after) == (
        0,
        3200,
        500000,
    )


@pytest.mark.parametrize(
    ("stack", "rebuy", "announced", "net", "plays_with", "charged", "after", "eliminated"),
    [
        (1500, 10000, True, -6000, 11500, True, 5500, False),  # RB-01
        (1500, 10000, True, -11500, 11500, True, 0, True),  # charged even though he busts
        (1500, 10000, True, 3000, 11500, True, 14500, False),  # charged even though he wins
        (1500, 10000, False, -1500, 1500, False, 0, True),
        (1500, 10000, False, 1500, 1500, False, 3000, False),
    ],
)
def test_rebuy_declared_before_the_hand(
    stack, rebuy, announced, net, plays_with, charged, after, eliminated
):
    outcome = resolve_rebuy(
        stack=stack, rebuy_stack=rebuy, announced_before_hand=announced, net_chips=net
    )
    assert outcome.plays_hand_with == plays_with
    assert outcome.rebuy_charged is charged
    assert outcome.stack_after_hand == after
    assert outcome.eliminated is eliminated


def test_rebuy_hand_cannot_lose_more_than_is_played():
    with pytest.raises(ValueError):
        resolve_rebuy(stack=1500, rebuy_stack=0, announced_before_hand=False, net_chips=-2000)


REBUYS = RebuyPolicy(first_level=1, last_level=6, max_rebuys=2, stack_threshold=10000)


@pytest.mark.parametrize(
    ("level", "taken", "stack", "reasons"),
    [
        (3, 0, 0, ()),
        (6, 1, 10000, ()),
        (7, 0, 0, ("outside_rebuy_period",)),
        (3, 2, 0, ("max_rebuys_reached",)),
        (3, 0, 10001, ("stack_above_threshold",)),
        (7, 2, 20000, ("outside_rebuy_period", "max_rebuys_reached", "stack_above_threshold")),
    ],
)
def test_rebuy_eligibility(level, taken, stack, reasons):
    result = rebuy_eligibility(REBUYS, current_level=level, rebuys_taken=taken, stack=stack)
    assert result.reasons == reasons
    assert result.allowed is (not reasons)


def test_unlimited_rebuys():
    policy = RebuyPolicy(max_rebuys=None, stack_threshold=0)
    assert rebuy_eligibility(policy, current_level=2, rebuys_taken=50, stack=0).allowed


ADDON = AddOnPolicy(available_from_level=6, available_until_level=6, max_addons=1, stack_limit=None)


@pytest.mark.parametrize(
    ("policy", "level", "taken", "stack", "reasons"),
    [
        (ADDON, 6, 0, 15000, ()),
        (ADDON, 5, 0, 15000, ("outside_addon_window",)),
        (ADDON, 6, 1, 15000, ("max_addons_reached",)),
        (ADDON, 6, 0, 0, ("eliminated",)),
        (AddOnPolicy(stack_limit=10000), 6, 0, 15000, ("stack_above_limit",)),
    ],
)
def test_addon_eligibility(policy, level, taken, stack, reasons):
    result = addon_eligibility(policy, current_level=level, addons_taken=taken, stack=stack)
    assert result.reasons == reasons

"""Colour-up exchange, chip race and leftovers (tournament.md §12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rules.chips import (
    RaceCard,
    RaceRounding,
    apply_race,
    award_race,
    card_strength,
    chip_value,
    chips_to_race,
    clear_leftovers,
    color_up,
    exchange_full_sets,
    plan_chip_race,
    race_order,
    rank_race_cards,
)


@pytest.mark.parametrize(
    ("stack", "removed", "lowest", "handed_in", "received", "odd", "before_race"),
    [
        # CR-01: 4 x 25 make a 100; three 25s are raced.
        ({25: 7, 100: 12, 500: 3}, 25, 100, {25: 4}, {100: 1}, {25: 3}, {100: 13, 500: 3}),
        # Exactly full sets: nothing to race.
        ({25: 8}, 25, 100, {25: 8}, {100: 2}, {}, {100: 2}),
        # Fewer than a set: everything is raced, nothing exchanged.
        ({25: 3, 1000: 2}, 25, 100, {}, {}, {25: 3}, {1000: 2}),
        # No retired chips at all.
        ({100: 5}, 25, 100, {}, {}, {}, {100: 5}),
        # Denominations that don't divide: 5 x 200 = 2 x 500 is the smallest set.
        ({200: 7, 500: 1}, 200, 500, {200: 5}, {500: 2}, {200: 2}, {500: 3}),
    ],
)
def test_exchange_full_sets_races_only_the_odd_chips(
    stack, removed, lowest, handed_in, received, odd, before_race
):
    ex = exchange_full_sets(
        stack, removed_denomination=removed, lowest_remaining_denomination=lowest
    )
    assert (ex.handed_in, ex.received, ex.odd_chips) == (handed_in, received, odd)
    assert ex.stack_before_race == before_race
    # Equal value: nothing is lost or created by the exchange itself.
    assert chip_value(ex.stack_before_race) + ex.odd_value == chip_value(stack)


def test_exchange_refuses_a_retired_chip_worth_more_than_the_new_lowest():
    with pytest.raises(ValueError):
        exchange_full_sets({100: 1}, removed_denomination=100, lowest_remaining_denomination=25)


@pytest.mark.parametrize(
    ("seats", "max_seats", "order"),
    [
        ([9, 2, 7, 4], 9, [2, 4, 7, 9]),  # CR-02
        ([1, 10, 5], 10, [1, 5, 10]),
        ([3], 9, [3]),
        ([], 9, []),
    ],
)
def test_race_deals_from_seat_one_in_seat_order(seats, max_seats, order):
    assert race_order(seats, max_seats=max_seats) == order


def test_race_order_rejects_a_seat_beyond_the_table():
    with pytest.raises(ValueError):
        race_order([10], max_seats=9)


@pytest.mark.parametrize(
    ("odd_value", "rounding", "chips"),
    [
        (275, RaceRounding.HALF_UP, 3),  # CR-03: 2.75 -> 3
        (250, RaceRounding.HALF_UP, 3),  # half a chip rounds up
        (225, RaceRounding.HALF_UP, 2),
        (200, RaceRounding.HALF_UP, 2),
        (225, RaceRounding.UP, 3),
        (275, RaceRounding.DOWN, 2),
        (0, RaceRounding.HALF_UP, 0),
    ],
)
def test_chips_to_race(odd_value, rounding, chips):
    assert chips_to_race(odd_value, lowest_remaining_denomination=100, rounding=rounding) == chips


CR03_RANKING = [
    RaceCard(4, "As"),
    RaceCard(4, "Kh"),
    RaceCard(7, "Qd"),
    RaceCard(2, "Jc"),
    RaceCard(9, "9s"),
    RaceCard(7, "8h"),
]


@pytest.mark.parametrize(
    ("chips", "awarded", "not_awarded"),
    [
        (3, {4: 1, 7: 1, 2: 1}, {9}),  # CR-03: seat 4's second card is skipped
        (1, {4: 1}, {2, 7, 9}),
        (4, {4: 1, 7: 1, 2: 1, 9: 1}, set()),
    ],
)
def test_no_player_wins_more_than_one_chip(chips, awarded, not_awarded):
    award = award_race(chips, CR03_RANKING)
    assert award.awarded == awarded
    assert award.not_awarded == not_awarded
    assert all(n == 1 for n in award.awarded.values())


def test_more_chips_than_racing_players_leaves_chips_unawarded():
    award = award_race(3, [RaceCard(1, "As"), RaceCard(1, "Ks"), RaceCard(2, "2c")])
    assert award.awarded == {1: 1, 2: 1}
    assert award.unawarded_chips == 1


def test_seats_racing_without_listed_cards_are_not_awarded():
    award = award_race(1, [RaceCard(3, "Ah")], racing_seats=[3, 5])
    assert award.not_awarded == {5}


def test_cards_rank_by_rank_then_suit_order():
    ranked = rank_race_cards(
        [RaceCard(1, "Kc"), RaceCard(2, "Ks"), RaceCard(3, "Ah"), RaceCard(4, "2s")]
    )
    assert [rc.seat for rc in ranked] == [3, 2, 1, 4]
    # Another suit order reverses the two kings.
    reversed_suits = rank_race_cards(
        [RaceCard(1, "Kc"), RaceCard(2, "Ks")], suit_order=("c", "d", "h", "s")
    )
    assert [rc.seat for rc in reversed_suits] == [1, 2]


def test_card_strength_rejects_junk():
    with pytest.raises(ValueError):
        card_strength("1x")


@pytest.mark.parametrize(
    ("stacks", "winners", "final", "protected"),
    [
        # CR-04: a lone 25 chip loses the race: one 100 chip, not raced out.
        ({6: {25: 1}}, {3, 8}, {6: {100: 1}}, {6}),
        # Winner of the race with odd chips and other chips.
        ({3: {25: 3, 500: 2}}, {3}, {3: {100: 1, 500: 2}}, set()),
        # Loser who still has other chips gets nothing extra.
        ({4: {25: 2, 100: 5}}, {3}, {4: {100: 5}}, set()),
        # A stack with unexchanged full sets is exchanged first.
        ({5: {25: 6}}, set(), {5: {100: 1}}, set()),
        # A winner whose only chips were odd ones keeps his won chip (no extra).
        ({7: {25: 2}}, {7}, {7: {100: 1}}, set()),
    ],
)
def test_apply_race(stacks, winners, final, protected):
    result = apply_race(
        stacks, winners=winners, removed_denomination=25, lowest_remaining_denomination=100
    )
    assert result.final_stacks == final
    assert result.eliminated == frozenset()
    assert result.protected == protected


@pytest.mark.parametrize(
    ("stack", "after", "removed"),
    [
        ({25: 3, 500: 10}, {500: 10}, 75),  # CU-02
        ({25: 5, 100: 2}, {100: 3}, 25),  # a full set is still exchanged at equal value
        ({25: 8}, {100: 2}, 0),
        ({100: 4}, {100: 4}, 0),
    ],
)
def test_leftovers_exchanged_at_equal_value_only(stack, after, removed):
    left = clear_leftovers(stack, removed_denomination=25, lowest_remaining_denomination=100)
    assert left.chips_after == after
    assert left.removed_without_compensation == removed


def test_plan_chip_race_for_a_table():
    plan = plan_chip_race(
        {9: {25: 3}, 2: {25: 6, 100: 1}, 7: {100: 10}, 4: {25: 1}},
        max_seats=9,
        removed_denomination=25,
        lowest_remaining_denomination=100,
    )
    assert plan.deal_order == [2, 4, 9]
    assert plan.cards_per_seat == {9: 3, 2: 2, 4: 1}
    assert plan.odd_value == 150
    assert plan.chips_to_race == 2  # 1.5 rounds half up
    assert plan.exchanges[2].received == {100: 1}
    assert plan.announcement_required


@pytest.mark.parametrize(
    ("stack", "target", "after"),
    [
        ({100: 40, 1000: 6}, 1000, {1000: 10}),  # CU-01
        ({100: 43, 1000: 6}, 1000, {100: 3, 1000: 10}),
        ({25: 3, 100: 10, 5000: 1}, 1000, {25: 3, 1000: 1, 5000: 1}),
        ({25: 40, 100: 5}, 500, {500: 3}),
        ({500: 1}, 1000, {500: 1}),  # nothing whole to convert
        ({1000: 3}, 500, {1000: 3}),  # never breaks higher chips down
    ],
)
def test_discretionary_color_up_keeps_value_and_is_announced(stack, target, after):
    result = color_up(stack, target_denomination=target)
    assert result.chips_after == after
    assert result.value_before == result.value_after == chip_value(stack)
    assert result.announcement_required


def test_color_up_of_a_chosen_number_of_units():
    assert color_up({100: 40}, target_denomination=1000, units=2).chips_after == {100: 20, 1000: 2}
    with pytest.raises(ValueError):
        color_up({100: 5}, target_denomination=1000, units=1)


chip_sets = st.dictionaries(
    st.sampled_from([25, 100, 500, 1000, 5000]), st.integers(0, 60), max_size=5
)


@given(chip_sets, st.sampled_from([100, 500, 1000, 5000]))
def test_color_up_never_changes_value(stack, target):
    result = color_up(stack, target_denomination=target)
    assert result.value_after == result.value_before
    # Whatever lower chips remain are worth less than one target chip.
    lower = sum(d * c for d, c in result.chips_after.items() if d < target)
    assert lower < target


@given(st.dictionaries(st.integers(1, 10), chip_sets, max_size=10), st.sets(st.integers(1, 10)))
def test_nobody_is_raced_out(stacks, winners):
    result = apply_race(
        stacks, winners=winners, removed_denomination=25, lowest_remaining_denomination=100
    )
    for seat, stack in stacks.items():
        if chip_value(stack) > 0:
            assert chip_value(result.final_stacks[seat]) >= 100
        assert 25 not in result.final_stacks[seat]

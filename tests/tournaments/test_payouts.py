"""Prize pool, paid places, payout tables, ICM and chops (tournament.md §16)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rules.payouts import (
    BuyIn,
    amounts_for,
    chip_chop,
    compute_prize_pool,
    generate_payout_table,
    icm_deal,
    icm_equities,
    min_paid_places,
    percentages_decreasing,
    validate_payout_structure,
)

# --- prize pool ---------------------------------------------------------------


def test_percent_variant_pz01():
    pool = compute_prize_pool(entries=120, entry_fee=100, house_and_dealer_percent=10)
    assert (pool.gross, pool.organiser_share, pool.prize_pool) == (12000, 1200, 10800)


def test_buy_in_variant_pz02():
    pool = compute_prize_pool(entries=80, buy_in=BuyIn(prize_part=50, fee=10))
    assert (pool.gross, pool.organiser_share, pool.prize_pool) == (4800, 800, 4000)


@pytest.mark.parametrize(
    ("kwargs", "organiser", "taxes", "prize_pool"),
    [
        # Fractional percent: 12.5% of 1000 exactly.
        ({"entries": 10, "entry_fee": 100, "house_and_dealer_percent": 12.5}, 125, 0, 875),
        # Half a euro rounds half up on the organiser's share.
        ({"entries": 1, "entry_fee": 25, "house_and_dealer_percent": 10}, 3, 0, 22),
        # A fixed tax amount comes off the pool.
        (
            {"entries": 10, "entry_fee": 100, "house_and_dealer_percent": 10, "taxes": 50},
            100,
            50,
            850,
        ),
        # Tax rate applied after the house share (default) or on the gross.
        (
            {"entries": 10, "entry_fee": 100, "house_and_dealer_percent": 10, "tax_percent": 10},
            100,
            90,
            810,
        ),
        (
            {
                "entries": 10,
                "entry_fee": 100,
                "house_and_dealer_percent": 10,
                "tax_percent": 10,
                "tax_mode": "on_gross",
            },
            100,
            100,
            800,
        ),
        # Added money and rebuy/add-on prize parts go into the pool.
        (
            {
                "entries": 10,
                "buy_in": BuyIn(50, 10),
                "added_money": 200,
                "extra_prize_contributions": 300,
            },
            100,
            0,
            1000,
        ),
    ],
)
def test_prize_pool_deductions_and_additions(kwargs, organiser, taxes, prize_pool):
    pool = compute_prize_pool(**kwargs)
    assert pool.organiser_share == organiser
    assert pool.taxes == taxes
    assert pool.prize_pool == prize_pool


def test_guarantee_adds_an_overlay_only_when_short():
    short = compute_prize_pool(entries=10, buy_in=BuyIn(100, 10), guarantee=2000)
    assert (short.prize_pool, short.overlay) == (2000, 1000)
    enough = compute_prize_pool(entries=30, buy_in=BuyIn(100, 10), guarantee=2000)
    assert (enough.prize_pool, enough.overlay) == (3000, 0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"entries": 10},
        {"entries": 10, "entry_fee": 100, "house_and_dealer_percent": 10, "buy_in": BuyIn(50, 10)},
        {"entries": 10, "entry_fee": 100, "house_and_dealer_percent": 120},
        {"entries": 1, "entry_fee": 10, "house_and_dealer_percent": 0, "taxes": 20},
    ],
)
def test_prize_pool_rejects_inconsistent_input(kwargs):
    with pytest.raises(ValueError):
        compute_prize_pool(**kwargs)


# --- paid places and validation -----------------------------------------------


@pytest.mark.parametrize(
    ("entries", "minimum"),
    [(87, 9), (100, 10), (101, 11), (1, 1), (9, 1), (10, 1), (11, 2), (0, 0), (10000, 1000)],
)
def test_min_paid_places_is_ten_percent_rounded_up(entries, minimum):
    assert min_paid_places(entries) == minimum


def test_min_paid_fraction_is_a_setting():
    assert min_paid_places(87, fraction=0.15) == 14  # 13.05 -> 14
    assert min_paid_places(100, fraction="0.125") == 13


@pytest.mark.parametrize(
    ("entries", "places", "percentages", "reasons"),
    [
        (100, 10, None, ()),  # PP-02
        (101, 10, None, ("paid_below_min",)),  # PP-03
        (45, 5, [25, 30, 20, 15, 10], ("percentages_not_decreasing",)),  # PP-04
        (45, 5, [40, 25, 15, 12, 8], ()),  # PP-05
        (45, 5, [40, 25, 15, 12, 7], ("percentages_sum_not_100",)),
        (45, 4, [25, 30, 20, 25], ("paid_below_min", "percentages_not_decreasing")),
        (45, 4, [50, 50, 0, 0], ("paid_below_min", "percentages_not_decreasing")),
        (30, 3, [30, 40, 20], ("percentages_not_decreasing", "percentages_sum_not_100")),
        # A flat band below first place is allowed (§16.2 default reading).
        (45, 5, [40, 20, 20, 10, 10], ()),
        # Decimal percentages sum exactly.
        (30, 3, [50.5, 30.3, 19.2], ()),
        (10, 1, [100], ()),
    ],
)
def test_validate_payout_structure(entries, places, percentages, reasons):
    result = validate_payout_structure(entries=entries, paid_places=places, percentages=percentages)
    assert result.reasons == reasons
    assert result.valid is (not reasons)


@pytest.mark.parametrize(
    ("percentages", "decreasing"),
    [([40, 30, 30], True), ([30, 30, 40], False), ([50, 50], False), ([100], True), ([], True)],
)
def test_decreasing_means_first_strictly_largest(percentages, decreasing):
    assert percentages_decreasing(percentages) is decreasing


# --- payout tables -------------------------------------------------------------


def test_amounts_for_rounds_to_unit_with_remainder_to_first():
    assert amounts_for([50, 30, 20], prize_pool=1003, unit=5) == (503, 300, 200)
    assert amounts_for([40, 35, 25], prize_pool=999, unit=10) == (
        419,
        340,
        240,
    )  # 399.6 -> 390, 349.65 -> 340, 249.75 -> 240
    with pytest.raises(ValueError):
        amounts_for([50, 40], prize_pool=1000)


@pytest.mark.parametrize(
    ("entries", "pool", "unit", "places"),
    [(100, 10000, 1, 10), (87, 8700, 5, 9), (2, 200, 1, 1), (10000, 1_000_000, 10, 1000)],
)
def test_generated_table_examples(entries, pool, unit, places):
    table = generate_payout_table(prize_pool=pool, entries=entries, unit=unit)
    assert table.paid_places == places
    assert sum(table.amounts) == pool
    assert table.amounts[0] > table.amounts[-1] or places == 1
    assert all(a % unit == 0 for a in table.amounts[1:])
    assert table.prizes()[1] == table.amounts[0]


def test_generated_table_pays_more_places_on_request():
    table = generate_payout_table(prize_pool=5000, entries=50, paid_places=8)
    assert table.paid_places == 8
    assert validate_payout_structure(entries=50, paid_places=8, percentages=table.percentages).valid


def test_generated_table_refuses_a_pool_too_small_to_pay_everyone():
    with pytest.raises(ValueError):
        generate_payout_table(prize_pool=9, entries=100, paid_places=10)


@settings(max_examples=150, deadline=None)
@given(
    entries=st.integers(2, 10_000),
    per_entry=st.integers(1, 500),
    unit=st.sampled_from([1, 5, 10, 25, 100]),
    extra=st.integers(0, 10_000),
)
def test_generated_table_sums_exactly_and_decreases(entries, per_entry, unit, extra):
    places = min_paid_places(entries)
    pool = places * unit + 1 + per_entry * entries + extra
    table = generate_payout_table(prize_pool=pool, entries=entries, unit=unit)
    assert table.paid_places == places >= entries / 10
    assert sum(table.amounts) == pool
    assert sum(table.percentages) == 100
    assert all(a > b for a, b in zip(table.percentages, table.percentages[1:], strict=False))
    assert all(a >= b for a, b in zip(table.amounts, table.amounts[1:], strict=False))
    assert all(a >= unit and a % unit == 0 for a in table.amounts[1:])
    assert validate_payout_structure(
        entries=entries, paid_places=places, percentages=table.percentages
    ).valid


# --- ICM and chops ---------------------------------------------------------------


def test_icm_two_players_is_the_chip_share_of_the_difference():
    # 1st 100, 2nd 50; stacks 3000 / 1000: P(A first) = 3/4.
    # A: 3/4*100 + 1/4*50 = 87.5; B: 1/4*100 + 3/4*50 = 62.5.
    assert icm_equities([3000, 1000], [100, 50]) == (Fraction(175, 2), Fraction(125, 2))


def test_icm_three_players_by_hand():
    # Stacks 50/30/20, prizes 50/30/20.
    # P(A 1st)=.5; P(A 2nd)= .3*(50/70) + .2*(50/80) = 15/70 + 10/80 = 3/14 + 1/8 = 19/56.
    # A = .5*50 + 19/56*30 + (1 - .5 - 19/56)*20.
    a = Fraction(1, 2) * 50 + Fraction(19, 56) * 30 + (1 - Fraction(1, 2) - Fraction(19, 56)) * 20
    equities = icm_equities([50, 30, 20], [50, 30, 20])
    assert equities[0] == a
    assert sum(equities) == 100
    assert equities[0] > equities[1] > equities[2]


def test_icm_equal_stacks_share_equally_and_pad_missing_prizes():
    assert icm_equities([10, 10, 10], [90]) == (30, 30, 30)


@settings(max_examples=40, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 100_000), min_size=1, max_size=7),
    prizes=st.lists(st.integers(0, 10_000), min_size=1, max_size=9),
)
def test_icm_equities_sum_to_the_prizes_in_play(stacks, prizes):
    prizes = sorted(prizes, reverse=True)
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == sum(prizes[: len(stacks)])
    # More chips never means less equity.
    order = sorted(range(len(stacks)), key=lambda i: stacks[i])
    for low, high in zip(order, order[1:], strict=False):
        assert equities[low] <= equities[high]


def test_icm_limits():
    with pytest.raises(ValueError):
        icm_equities([1] * 11, [10])
    with pytest.raises(ValueError):
        icm_equities([10, 0], [10, 5])


def test_icm_deal_with_an_amount_left_to_play_for():
    deal = icm_deal([3000, 1000], [100, 50], left_to_play_for=10)
    # Prizes become 90/50: A = 3/4*90 + 1/4*50 = 80, B = 1/4*90 + 3/4*50 = 60.
    assert deal.amounts == (80, 60)
    assert deal.left_to_play_for == 10
    with pytest.raises(ValueError):
        icm_deal([3000, 1000], [100, 50], left_to_play_for=60)


def test_icm_deal_rounds_to_whole_euros_summing_exactly():
    deal = icm_deal([50, 30, 20], [500, 300, 199])
    assert sum(deal.amounts) == 999
    assert all(abs(a - s) < 1 for a, s in zip(deal.amounts, deal.exact_shares, strict=True))


def test_chip_chop_guarantees_the_lowest_prize_then_shares_by_chips():
    # 3 left, prizes 500/300/200: each gets 200, the other 400 goes 60/30/10.
    deal = chip_chop([60_000, 30_000, 10_000], [500, 300, 200])
    assert deal.amounts == (440, 320, 240)
    pure = chip_chop([60_000, 30_000, 10_000], [500, 300, 200], guarantee_lowest_prize=False)
    assert pure.amounts == (600, 300, 100)
    played = chip_chop([1, 1], [100, 60], left_to_play_for=20)
    assert played.amounts == (70, 70)

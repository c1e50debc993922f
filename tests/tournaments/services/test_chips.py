"""Money services one rule at a time: races, colour-ups, payouts, places, penalties, days."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors, realtime, selectors
from tournaments.events import event_undo
from tournaments.models import ChipAdjustment, Entry, Event, Penalty, Seat, Tournament
from tournaments.services import chips as chip_services
from tournaments.services import days, results
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db

CHIPSET = [
    chip_services.DenominationSpec(25, "green", 40),
    chip_services.DenominationSpec(100, "black", 90),
    chip_services.DenominationSpec(1000, "yellow", 20),
]


def fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
        for _ in range(n)
    ]


def running(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(clock_status="running")
    tournament.refresh_from_db()


def undo(tournament, td, action):
    event = Event.objects.filter(tournament=tournament, action=action, undone_at=None).first()
    return event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)


# --- Chips ------------------------------------------------------------------------------


def test_the_chip_set_must_make_the_starting_stack(tournament, td):
    with pytest.raises(errors.DomainError, match="30000"):
        chip_services.chipset_set(
            tournament=tournament,
            actor=td,
            denominations=[chip_services.DenominationSpec(100, "black", 10)],
            now=NOW,
        )
    chip_services.chipset_set(tournament=tournament, actor=td, denominations=CHIPSET, now=NOW)
    assert [d.value for d in tournament.denominations.all()] == [25, 100, 1000]


def race_table(tournament, td):
    regs = fill(tournament, td, 4)
    chip_services.chipset_set(tournament=tournament, actor=td, denominations=CHIPSET, now=NOW)
    table = regs[0].table
    seats = sorted(r.seat for r in regs if r.table == table)
    return table, seats


def test_a_player_whose_only_chip_is_raced_away_keeps_one_chip(tournament, td):
    table, seats = race_table(tournament, td)
    a, b = seats[:2]
    before = selectors.tournament_figures(tournament)["chips_in_play"]
    # Two odd 25s each: 100 in all, one 100 raced; b wins it, a had nothing else.
    outcome = chip_services.chip_race_record(
        tournament=tournament,
        table_number=table,
        removed=25,
        held={a: 2, b: 2},
        cards={a: ["2c", "3d"], b: ["Ks", "4h"]},
        nothing_else=frozenset({a}),
        actor=td,
        now=NOW,
    )
    assert outcome.winners == (b,) and outcome.protected == (a,)
    assert outcome.chips_added == 2 * 100 - 100
    assert selectors.tournament_figures(tournament)["chips_in_play"] == before + 100
    assert tournament.denominations.get(value=25).retired
    undo(tournament, td, "chips.race")
    assert selectors.tournament_figures(tournament)["chips_in_play"] == before


def test_no_player_wins_two_race_chips(tournament, td):
    table, seats = race_table(tournament, td)
    a, b = seats[:2]
    # 3 + 3 odd 25s = 150: two 100s race (half up); a holds the two best cards.
    outcome = chip_services.chip_race_record(
        tournament=tournament,
        table_number=table,
        removed=25,
        held={a: 3, b: 3},
        cards={a: ["As", "Ah", "2c"], b: ["3c", "4c", "5c"]},
        actor=td,
        now=NOW,
    )
    assert outcome.plan.chips_to_race == 2
    assert outcome.winners == (a, b)


@pytest.mark.parametrize(
    "cards",
    [
        {"first": ["Ah"]},  # one card for two odd chips
        {"first": ["Ah", "Ah"]},  # the same card twice
        {"first": ["Zz", "Ah"]},  # not a card
    ],
)
def test_wrong_race_cards_are_refused_and_change_nothing(tournament, td, cards):
    table, seats = race_table(tournament, td)
    entered = {seats[0]: cards["first"]}
    with pytest.raises(errors.DomainError):
        chip_services.chip_race_record(
            tournament=tournament,
            table_number=table,
            removed=25,
            held={seats[0]: 2},
            cards=entered,
            actor=td,
            now=NOW,
        )
    assert not ChipAdjustment.objects.exists()
    assert not tournament.denominations.get(value=25).retired


def test_a_race_at_an_empty_seat_is_refused(tournament, td):
    table, seats = race_table(tournament, td)
    empty = next(s for s in range(1, 10) if s not in seats)
    with pytest.raises(errors.DomainError, match="Nobody sits"):
        chip_services.color_up_plan(
            tournament=tournament, table_number=table, removed=25, held={empty: 3}
        )


def test_a_discretionary_colour_up_keeps_the_value_and_is_announced(tournament, td):
    regs = fill(tournament, td, 1)
    chip_services.chipset_set(tournament=tournament, actor=td, denominations=CHIPSET, now=NOW)
    result = chip_services.color_up_discretionary(
        tournament=tournament,
        entry=regs[0].entry,
        stack={25: 10, 100: 12},
        target=1000,
        actor=td,
        now=NOW,
    )
    assert result.value_after == result.value_before == 1450
    assert result.chips_after.get(1000) == 1
    assert Event.objects.get(action="chips.color_up").data["announced"] is True


# --- Prize pool and payouts --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "purchases", "pool"),
    [
        ({"house_percent": 10}, 0, 10 * 90),
        ({"guarantee": 5000}, 0, 5000),
        ({"added_money": 250}, 0, 1250),
        ({"tax_percent": 10, "house_percent": 10}, 0, 810),
        ({}, 2, 1000 + 2 * 50),
    ],
)
def test_the_prize_pool(td, fields, purchases, pool):
    tournament = make_tournament(
        td, rebuys_allowed=True, rebuy_max=3, rebuy_price=50, rebuy_chips=1000, **fields
    )
    regs = fill(tournament, td, 10)
    for _ in range(purchases):
        entry_services.entry_purchase(
            tournament=tournament, entry=regs[0].entry, kind="rebuy", actor=td, now=NOW, stack=0
        )
    assert selectors.prize_pool(tournament).prize_pool == pool


def test_the_generated_table_pays_ten_percent_decreasing_in_units(tournament, td):
    fill(tournament, td, 31)  # 3100 pool, 4 paid
    amounts = results.payouts_generate(tournament=tournament, actor=td, now=NOW)
    assert len(amounts) == 4 and sum(amounts) == 3100
    assert all(a > b for a, b in zip(amounts, amounts[1:], strict=False))
    assert all(a % 5 == 0 for a in amounts[1:])
    with pytest.raises(errors.DomainError, match="between 4"):
        results.payouts_generate(tournament=tournament, actor=td, paid_places=3, now=NOW)


def test_the_payouts_are_fixed_once_the_money_is_reached(tournament, td):
    regs = fill(tournament, td, 12)
    results.payouts_set(tournament=tournament, actor=td, amounts=[600, 400, 200], now=NOW)
    running(tournament)
    for r in regs[:9]:
        entry_services.entry_eliminate(tournament=tournament, entry=r.entry, actor=td, now=NOW)
    with pytest.raises(errors.DomainError, match="money"):
        results.payouts_set(tournament=tournament, actor=td, amounts=[700, 300, 200], now=NOW)
    assert Tournament.objects.get(pk=tournament.pk).payouts == [600, 400, 200]


def test_a_payout_change_reaches_the_screens(tournament, td, django_capture_on_commit_callbacks):
    fill(tournament, td, 10)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(realtime.tournament_group(tournament.pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        results.payouts_set(tournament=tournament, actor=td, amounts=[1000], now=NOW)
    message = async_to_sync(layer.receive)(channel)
    payload = json.loads(message["text"])
    assert payload["type"] == "payouts"
    assert payload["places"] == [{"place": 1, "amount": 1000}]


# --- Places ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "places"),
    [("figp", [(2,), (3,)]), ("tda_share_all", [(2, 3), (2, 3)])],
)
def test_the_same_hand_rule_setting(td, rule, places):
    tournament = make_tournament(td, tables=1, same_hand_elimination_rule=rule)
    regs = fill(tournament, td, 3)
    results.payouts_set(tournament=tournament, actor=td, amounts=[200, 100], now=NOW)
    running(tournament)
    # Two out at one table in the bubble hand (3 left, 2 paid).
    results.eliminations_record(
        tournament=tournament,
        busts=[
            results.Bust(entry=regs[0].entry, start_stack=9000),
            results.Bust(entry=regs[1].entry, start_stack=4000),
        ],
        actor=td,
        now=NOW,
    )
    got = [Entry.objects.get(pk=r.entry.pk) for r in regs[:2]]
    assert [tuple(range(e.place, (e.place_last or e.place) + 1)) for e in got] == places
    assert sum(e.prize for e in got) == 100
    winner = Entry.objects.get(pk=regs[2].entry.pk)
    assert winner.place == 1 and winner.prize == 200


def test_elimination_as_a_penalty_keeps_the_prize_and_removes_the_chips(tournament, td):
    regs = fill(tournament, td, 3)
    results.payouts_set(tournament=tournament, actor=td, amounts=[200, 100], now=NOW)
    running(tournament)
    penalty_services.penalty_give(
        tournament=tournament,
        entry=regs[0].entry,
        kind="elimination",
        stack=12000,
        actor=td,
        now=NOW,
    )
    out = Entry.objects.get(pk=regs[0].entry.pk)
    assert (out.place, out.prize, out.disqualified) == (3, 0, False)
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 90000 - 12000
    with pytest.raises(errors.CannotUndo):
        undo(tournament, td, "penalty.give")
    undo(tournament, td, "entry.eliminate")
    undo(tournament, td, "penalty.give")
    assert Penalty.objects.get().voided
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 90000


def test_busts_before_the_start_never_end_the_tournament(tournament, td):
    regs = fill(tournament, td, 2)
    entry_services.entry_eliminate(tournament=tournament, entry=regs[0].entry, actor=td, now=NOW)
    tournament.refresh_from_db()
    assert tournament.status != "finished"
    assert Entry.objects.get(pk=regs[1].entry.pk).place is None


def test_a_deal_needs_every_stack_and_can_be_undone(tournament, td):
    regs = fill(tournament, td, 3)
    results.payouts_set(tournament=tournament, actor=td, amounts=[200, 100], now=NOW)
    with pytest.raises(errors.DomainError, match="every player"):
        results.deal_propose(tournament=tournament, stacks={regs[0].entry.pk: 10}, method="icm")
    stacks = {r.entry.pk: 1000 * (i + 1) for i, r in enumerate(regs)}
    results.deal_record(tournament=tournament, stacks=stacks, method="icm", actor=td, now=NOW)
    assert sum(Entry.objects.values_list("deal_amount", flat=True)) == 300
    undo(tournament, td, "deal.record")
    assert set(Entry.objects.values_list("deal_amount", flat=True)) == {None}


# --- Penalties ---------------------------------------------------------------------------


def test_two_penalties_are_served_one_after_the_other(tournament, td):
    regs = fill(tournament, td, 2)
    entry = regs[0].entry
    for hands in (2, 3):
        penalty_services.penalty_give(
            tournament=tournament, entry=entry, kind="missed_hands", hands=hands, actor=td, now=NOW
        )
    table = Seat.objects.get(entry=entry).table
    for _ in range(3):
        penalty_services.penalty_hand_dealt(table=table, now=NOW)
    first, second = Penalty.objects.order_by("pk")
    assert (first.served, second.served) == (2, 1)


def test_a_penalty_is_counted_at_the_players_new_table(tournament, td):
    regs = fill(tournament, td, 3)
    entry = regs[0].entry
    penalty_services.penalty_give(
        tournament=tournament, entry=entry, kind="missed_hands", hands=4, actor=td, now=NOW
    )
    old = Seat.objects.get(entry=entry).table
    new = tournament.tables.exclude(pk=old.pk).first()
    seat_services.seat_move(
        tournament=tournament, entry=entry, table_number=new.number, seat=9, actor=td, now=NOW
    )
    penalty_services.penalty_hand_dealt(table=old, now=NOW)
    penalty_services.penalty_hand_dealt(table=new, now=NOW)
    assert Penalty.objects.get().served == 1


def test_escalation_suggests_the_next_step(tournament, td):
    regs = fill(tournament, td, 1)
    player = regs[0].entry.player
    assert penalty_services.penalty_suggestion(tournament=tournament, player=player).kind == (
        "warning"
    )
    penalty_services.penalty_give(
        tournament=tournament, entry=regs[0].entry, kind="warning", actor=td, now=NOW
    )
    suggestion = penalty_services.penalty_suggestion(tournament=tournament, player=player)
    assert (suggestion.kind, suggestion.rounds) == ("missed_rounds", 1)


# --- Days and flights ----------------------------------------------------------------------


def two_flights(td, rule):
    event = make_tournament(td, name="Main", flight_stack_rule=rule)
    a = days.flight_create(event=event, actor=td, name="1A", date=NOW.date(), now=NOW)
    b = days.flight_create(event=event, actor=td, name="1B", date=NOW.date(), now=NOW)
    return event, a, b


@pytest.mark.parametrize(("rule", "kept"), [("best", 40000), ("most_recent", 20000)])
def test_a_player_through_two_flights_keeps_one_stack(td, rule, kept):
    event, a, b = two_flights(td, rule)
    player = make_player()
    ea = entry_services.entry_register(tournament=a, player=player, actor=td, now=NOW).entry
    other = fill(a, td, 1)[0].entry
    eb = entry_services.entry_register(tournament=b, player=player, actor=td, now=NOW).entry
    days.chips_bag(tournament=a, counts={ea.pk: 40000, other.pk: 20000}, actor=td, now=NOW)
    with pytest.raises(errors.DomainError, match="1B"):
        days.flights_merge(event=event, actor=td, now=NOW)
    days.chips_bag(tournament=b, counts={eb.pk: 20000}, actor=td, now=NOW)
    assert days.bag_check(b).discrepancy == 20000 - 30000
    merged = days.flights_merge(event=event, actor=td, now=NOW)
    assert merged.carried[player.pk] == kept
    assert event.entries.count() == 2 and selectors.buy_ins(event) == 3
    with pytest.raises(errors.DomainError, match="already"):
        days.flights_merge(event=event, actor=td, now=NOW)
    undo(event, td, "flights.merge")
    assert event.entries.count() == 0


def test_a_flight_pays_nothing_and_the_event_pool_counts_every_flight(td):
    event, a, b = two_flights(td, "best")
    fill(a, td, 12)
    fill(b, td, 8)
    assert selectors.payout_amounts(a) == []
    assert selectors.prize_pool(event).prize_pool == 2000
    assert selectors.prize_pool(a).prize_pool == 1200


def test_only_players_still_in_bag_chips(tournament, td):
    regs = fill(tournament, td, 2)
    entry_services.entry_eliminate(tournament=tournament, entry=regs[0].entry, actor=td, now=NOW)
    with pytest.raises(errors.DomainError):
        days.chips_bag(tournament=tournament, counts={regs[0].entry.pk: 100}, actor=td, now=NOW)


@pytest.mark.parametrize(("count", "received", "lost"), [(4, {100: 1}, 0), (6, {100: 1}, 50)])
def test_retired_chips_found_later_are_exchanged_at_equal_value_only(
    tournament, td, count, received, lost
):
    regs = fill(tournament, td, 1)
    chip_services.chipset_set(tournament=tournament, actor=td, denominations=CHIPSET, now=NOW)
    tournament.denominations.filter(value=25).update(retired=True)
    result = chip_services.leftovers_clear(
        tournament=tournament, entry=regs[0].entry, removed=25, count=count, actor=td, now=NOW
    )
    assert result.chips_after == received and result.removed_without_compensation == lost
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 30000 - lost


def test_the_day_ends_only_when_every_stack_is_bagged(tournament, td):
    regs = fill(tournament, td, 2)
    penalty_services.penalty_give(
        tournament=tournament, entry=regs[0].entry, kind="missed_hands", hands=3, actor=td, now=NOW
    )
    days.chips_bag(tournament=tournament, counts={regs[0].entry.pk: 30000}, actor=td, now=NOW)
    with pytest.raises(errors.DomainError, match="1 players"):
        days.day_next(tournament=tournament, actor=td, now=NOW)
    days.chips_bag(tournament=tournament, counts={regs[1].entry.pk: 30000}, actor=td, now=NOW)
    assert days.day_next(tournament=tournament, actor=td, now=NOW) == 2
    # The unfinished penalty is served on Day 2 (FIGP §89).
    penalty_services.penalty_hand_dealt(table=Seat.objects.get(entry=regs[0].entry).table, now=NOW)
    assert Penalty.objects.get().served == 1
    assert days.bag_check(Tournament.objects.get(pk=tournament.pk)).missing != ()


def test_a_payout_table_made_for_a_smaller_field_is_flagged(tournament, td):
    fill(tournament, td, 10)
    results.payouts_generate(tournament=tournament, actor=td, now=NOW)
    assert not selectors.payouts_board(tournament)["stale"]
    fill(tournament, td, 1)
    tournament.refresh_from_db()
    assert selectors.payouts_board(tournament)["stale"]


def test_tables_reporting_the_same_hand_for_hand_hand_separately_share_the_places(td):
    from datetime import timedelta

    from tournaments.services import clock as clock_services
    from tournaments.services import handforhand as handforhand_services

    tournament = make_tournament(td, tables=2)
    regs = fill(tournament, td, 5)
    results.payouts_set(tournament=tournament, actor=td, amounts=[250, 150, 100], now=NOW)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    later = NOW + timedelta(minutes=5)
    other = 2 if regs[0].table == 1 else 1
    for seat, reg in enumerate(regs[3:], start=1):
        seat_services.seat_move(
            tournament=tournament, entry=reg.entry, table_number=other, seat=seat, actor=td, now=NOW
        )
    by_table = {regs[0].table: [r.entry for r in regs[:3]], other: [r.entry for r in regs[3:]]}
    first, second = regs[0].table, other
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=by_table[first][0], start_stack=1000)],
        actor=td,
        now=later,
    )
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=later)
    handforhand_services.h4h_next_hand(tournament=tournament, actor=td, now=later)
    a, b = by_table[first][1], by_table[second][0]

    # Table one reports first: alone, its player is the bubble (4th, nothing).
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=a, start_stack=3000)], actor=td, now=later
    )
    a.refresh_from_db()
    assert (a.place, a.place_last, a.prize) == (4, None, 0)

    # Table two reports a bust in the same hand: FIGP ties different tables, 3rd-4th shared.
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=b, start_stack=8000)], actor=td, now=later
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.place, a.place_last, a.prize) == (3, 4, 50)
    assert (b.place, b.place_last, b.prize) == (3, 4, 50)

    # Undo the second report: the first player is the bubble again.
    undo_last = Event.objects.filter(tournament=tournament, action="entry.eliminate").latest("pk")
    event_undo(event_id=undo_last.pk, tournament=tournament, actor=td, now=later)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.place, a.place_last, a.prize) == (4, None, 0)
    assert b.status == Entry.Status.ACTIVE

    # The next hand is another hand: a bust there is placed alone, in the money.
    handforhand_services.h4h_next_hand(tournament=tournament, actor=td, now=later)
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=b, start_stack=8000)], actor=td, now=later
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert (b.place, b.place_last, b.prize) == (3, None, 100)
    assert (a.place, a.prize) == (4, 0)

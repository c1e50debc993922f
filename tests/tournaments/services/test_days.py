"""One multi-flight event from Day 1A registration to the winner, at service level:
colour-ups with a chip race, penalties carried across days, bagging, the merge and the
Day 2 redraw, a hand-for-hand bubble, a disqualification, a final-table deal. Every figure
must stay consistent: chips in play against the bags, prize pool = sum of the prizes."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import selectors
from tournaments.events import event_undo
from tournaments.models import ChipCount, Entry, Event, Penalty, Seat, Table, Tournament
from tournaments.services import chips as chip_services
from tournaments.services import days, results
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services
from tournaments.services import seats as seat_services
from tournaments.services import setup as setup_services

pytestmark = pytest.mark.django_db

CHIPSET = [
    chip_services.DenominationSpec(25, "green", 8),
    chip_services.DenominationSpec(100, "black", 8),
    chip_services.DenominationSpec(500, "purple", 10),
    chip_services.DenominationSpec(1000, "yellow", 24),
]


def later(minutes: int) -> dt.datetime:
    return NOW + dt.timedelta(minutes=minutes)


def seated(entry: Entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry)


def test_a_multi_flight_event_runs_from_day_1a_to_the_winner(td):
    rng = random.Random(7)
    event = make_tournament(
        td, tables=3, seats=9, name="Main Event", house_percent=10, payout_unit=5
    )
    setup_services.tournament_update(
        tournament=event, actor=td, fields={"redraw_rule": "spread"}, now=NOW
    )
    chip_services.chipset_set(tournament=event, actor=td, denominations=CHIPSET, now=NOW)
    flight_a = days.flight_create(event=event, actor=td, name="Day 1A", date=NOW.date(), now=NOW)
    flight_b = days.flight_create(event=event, actor=td, name="Day 1B", date=NOW.date(), now=NOW)
    assert flight_a.denominations.count() == 4 and flight_a.tables.count() == 3

    # --- Day 1A: 12 entries, a colour-up with a race, two busts, a penalty, the bags.
    players = [make_player("P", f"Player{i:02d}") for i in range(16)]
    a_entries = [
        entry_services.entry_register(tournament=flight_a, player=p, actor=td, now=NOW).entry
        for p in players[:12]
    ]
    assert selectors.tournament_figures(flight_a)["chips_in_play"] == 12 * 30000

    table = seated(a_entries[0]).table
    at_table = list(Seat.objects.filter(table=table).order_by("number"))
    held = {s.number: 0 for s in at_table}
    first, second = at_table[0].number, at_table[1].number
    held[first], held[second] = 3, 2  # odd 25s: 75 and 50, 125 in all -> one 100 raced
    race = chip_services.chip_race_record(
        tournament=flight_a,
        table_number=table.number,
        removed=25,
        held=held,
        cards={first: ["2c", "3c", "4c"], second: ["Ah", "Kd"]},
        actor=td,
        now=later(45),
    )
    assert race.plan.chips_to_race == 1 and race.winners == (second,)
    assert race.chips_added == 100 - 125
    assert selectors.tournament_figures(flight_a)["chips_in_play"] == 12 * 30000 - 25

    offender = a_entries[1]
    at_his_table = seated(offender).table.seats.count()
    penalty = penalty_services.penalty_give(
        tournament=flight_a,
        entry=offender,
        kind="missed_rounds",
        rounds=1,
        offence="phone at the table",
        actor=td,
        now=later(50),
    )
    assert penalty.total_hands == at_his_table
    for _ in range(3):
        penalty_services.penalty_hand_dealt(table=seated(offender).table, now=later(55))
    penalty_services.penalty_hand_dealt(table=seated(offender).table, event="misdeal", now=NOW)
    penalty.refresh_from_db()
    assert penalty.served == 3

    busted = [a_entries[10], a_entries[11]]
    for entry in busted:
        entry_services.entry_eliminate(tournament=flight_a, entry=entry, actor=td, now=later(60))
    assert Entry.objects.get(pk=busted[0].pk).prize == 0  # a flight pays nothing

    survivors_a = [e for e in a_entries if e not in busted]
    in_play = selectors.tournament_figures(flight_a)["chips_in_play"]
    stacks_a = {e.pk: in_play // len(survivors_a) for e in survivors_a}
    stacks_a[survivors_a[0].pk] += in_play - sum(stacks_a.values())
    wrong = {**stacks_a, survivors_a[1].pk: stacks_a[survivors_a[1].pk] + 1000}
    check = days.chips_bag(tournament=flight_a, counts=wrong, actor=td, now=later(300))
    assert check.discrepancy == 1000  # flagged, not hidden
    check = days.chips_bag(tournament=flight_a, counts=stacks_a, actor=td, now=later(301))
    assert check.discrepancy == 0 and check.missing == ()

    # --- Day 1B: 10 entries, two of them Day 1A survivors playing again.
    b_players = players[:2] + players[12:16] + [make_player("Q", f"Late{i}") for i in range(4)]
    b_entries = [
        entry_services.entry_register(
            tournament=flight_b, player=p, actor=td, now=later(24 * 60)
        ).entry
        for p in b_players
    ]
    entry_services.entry_eliminate(
        tournament=flight_b, entry=b_entries[9], actor=td, now=later(1500)
    )
    survivors_b = b_entries[:9]
    in_play_b = selectors.tournament_figures(flight_b)["chips_in_play"]
    stacks_b = {e.pk: in_play_b // 9 for e in survivors_b}
    stacks_b[survivors_b[2].pk] += in_play_b - sum(stacks_b.values())
    stacks_b[survivors_b[0].pk] += 5000  # player 0 does better in 1B...
    stacks_b[survivors_b[1].pk] -= 5000  # ...player 1 worse
    days.chips_bag(tournament=flight_b, counts=stacks_b, actor=td, now=later(1800))

    # --- Merge: each player once, with his biggest stack (the default rule).
    merged = days.flights_merge(event=event, actor=td, now=later(2800))
    assert len(merged.carried) == 10 + 9 - 2
    assert set(merged.players_through_twice) == {players[0].pk, players[1].pk}
    assert merged.carried[players[0].pk] == stacks_b[survivors_b[0].pk]
    assert merged.carried[players[1].pk] == stacks_a[survivors_a[1].pk]
    event.refresh_from_db()
    assert event.day == 2
    assert selectors.buy_ins(event) == 22
    day2_chips = sum(merged.carried.values())
    assert selectors.tournament_figures(event)["chips_in_play"] == day2_chips

    # --- Day 2 redraw spreads the big stacks: the two biggest sit at different tables.
    assignments = days.day_redraw(tournament=event, actor=td, now=later(2880), rng=rng)
    assert len(assignments) == 17
    by_stack = sorted(event.entries.filter(status="active"), key=lambda e: -e.chips)
    assert seated(by_stack[0]).table != seated(by_stack[1]).table

    # The Day 1A penalty follows the player to Day 2 and counts down there.
    offender_day2 = event.entries.get(player=offender.player, status="active")
    penalty_services.penalty_hand_dealt(table=seated(offender_day2).table, now=later(2890))
    penalty.refresh_from_db()
    assert penalty.served == 4 and penalty.remaining == at_his_table - 4
    suggestion = penalty_services.penalty_suggestion(tournament=event, player=offender.player)
    assert suggestion.kind == "missed_rounds" and suggestion.rounds == 2

    Tournament.objects.filter(pk=event.pk).update(clock_status="running", clock_started_at=NOW)
    event.refresh_from_db()

    # --- Prize pool and payouts: 22 buy-ins x 100, 10% to the house.
    pool = selectors.prize_pool(event).prize_pool
    assert pool == 1980
    amounts = results.payouts_generate(tournament=event, actor=td, paid_places=3, now=later(2900))
    assert sum(amounts) == pool and amounts == sorted(amounts, reverse=True)
    assert selectors.payouts_board(event)["paid_places"] == 3

    # A disqualification: no place, no prize, his chips leave play.
    cheat = event.entries.filter(status="active").exclude(player=offender.player).last()
    penalty_services.penalty_give(
        tournament=event,
        entry=cheat,
        kind="disqualification",
        offence="chip dumping",
        stack=cheat.chips,
        actor=td,
        now=later(2910),
    )
    cheat.refresh_from_db()
    assert cheat.disqualified and cheat.place is None and cheat.prize == 0
    removed = cheat.chips
    assert selectors.tournament_figures(event)["chips_in_play"] == day2_chips - removed

    # Busts down to the bubble: 4 left, 3 paid.
    active = list(event.entries.filter(status="active").order_by("number"))
    for entry in active[:-4]:
        results.eliminations_record(
            tournament=event,
            busts=[results.Bust(entry=entry, start_stack=1000)],
            actor=td,
            now=later(3000),
        )
    four = list(event.entries.filter(status="active").order_by("number"))
    assert len(four) == 4
    assert all(e.prize == 0 for e in event.entries.filter(status="eliminated"))

    # The bubble in hand-for-hand: two out at two tables share 3rd and 4th (FIGP §60).
    tables = list(Table.objects.filter(tournament=event).order_by("number"))
    seat_a, seat_b = Seat.objects.filter(entry=four[0]).first(), None
    for entry in four[1:]:
        if seated(entry).table != seat_a.table:
            seat_b = seated(entry)
            break
    if seat_b is None:  # put one at another table for the bubble hand
        other = next(t for t in tables if t != seat_a.table)
        seat_services.seat_move(
            tournament=event, entry=four[1], table_number=other.number, seat=1, actor=td, now=NOW
        )
        seat_b = seated(four[1])
    out = [four[0], seat_b.entry]
    settlement = results.eliminations_record(
        tournament=event,
        busts=[results.Bust(entry=e, start_stack=5000) for e in out],
        hand_for_hand=True,
        actor=td,
        now=later(3100),
    )
    assert [g.places for g in settlement.groups] == [(3, 4)]
    bubble = [Entry.objects.get(pk=e.pk) for e in out]
    assert sum(e.prize for e in bubble) == amounts[2]
    assert abs(bubble[0].prize - bubble[1].prize) <= 1

    # Heads-up deal: ICM with 100 left to play for.
    last_two = list(event.entries.filter(status="active").order_by("number"))
    stacks = {last_two[0].pk: 2 * day2_chips // 3, last_two[1].pk: day2_chips // 3}
    proposal = results.deal_propose(
        tournament=event, stacks=stacks, method="icm", left_to_play_for=100
    )
    assert sum(proposal.amounts) == amounts[0] + amounts[1] - 100
    results.deal_record(
        tournament=event,
        stacks=stacks,
        method="icm",
        left_to_play_for=100,
        actor=td,
        now=later(3200),
    )
    results.eliminations_record(
        tournament=event,
        busts=[results.Bust(entry=last_two[0], start_stack=stacks[last_two[0].pk])],
        actor=td,
        now=later(3300),
    )
    runner_up = Entry.objects.get(pk=last_two[0].pk)
    winner = Entry.objects.get(pk=last_two[1].pk)
    event.refresh_from_db()
    assert event.status == "finished"
    assert (winner.place, runner_up.place) == (1, 2)
    assert winner.prize == winner.deal_amount + 100
    assert runner_up.prize == runner_up.deal_amount

    # Every figure consistent: the prizes add up to the pool, places are 1..17 but the DQ.
    prizes = sum(event.entries.values_list("prize", flat=True))
    assert prizes == pool
    covered = set()
    for e in event.entries.exclude(disqualified=True):
        covered |= set(range(e.place, (e.place_last or e.place) + 1))
    assert covered == set(range(1, 17))  # 17 on Day 2, one disqualified: places 1..16
    assert Penalty.objects.filter(player=offender.player).count() == 1
    assert ChipCount.objects.filter(tournament=flight_a).count() == 10


def test_undo_of_a_shared_bubble_brings_both_players_back(td):
    event = make_tournament(td, tables=2, seats=9, house_percent=0, payout_unit=1)
    entries = [
        entry_services.entry_register(
            tournament=event, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(10)
    ]
    results.payouts_generate(tournament=event, actor=td, now=NOW)  # 1 place paid
    out = entries[:3]
    results.eliminations_record(
        tournament=event,
        busts=[results.Bust(entry=e, start_stack=100 * (i + 1)) for i, e in enumerate(out)],
        actor=td,
        now=NOW,
    )
    seats_before = {e.pk for e in out}
    event_undo(
        event_id=Event.objects.filter(action="entry.eliminate").first().pk,
        tournament=event,
        actor=td,
        now=NOW,
    )
    back = Entry.objects.filter(pk__in=seats_before)
    assert {e.status for e in back} == {"active"}
    assert all(e.place is None and e.prize == 0 for e in back)
    assert Seat.objects.filter(entry__in=back).count() == 3

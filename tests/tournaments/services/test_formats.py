"""Event formats on the floor: bounty awards, mystery draws, satellite seats and tickets."""

from __future__ import annotations

import json
from random import Random

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import BountyAward, Entry, Event, SeatTicket, Tournament
from tournaments.selectors import formats as format_selectors
from tournaments.services import bounties as bounties_services
from tournaments.services import entries as entry_services
from tournaments.services import mystery as mystery_services
from tournaments.services import results
from tournaments.services import satellites as satellites_services

pytestmark = pytest.mark.django_db


def fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]


def bust(tournament, td, entry, stack=1000):
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=stack)],
        actor=td,
        now=NOW,
    )
    entry.refresh_from_db()
    return entry


def undo(tournament, td, event):
    return event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)


def pko(td, **fields):
    return make_tournament(
        td,
        bounty_format="progressive",
        bounty_part_cents=2000,
        buy_in_prize=80,
        buy_in_fee=10,
        **fields,
    )


def test_the_desk_sees_what_a_buy_in_pays_into_each_part(td):
    tournament = pko(td)
    assert format_selectors.buy_in_split(tournament) == {
        "prize": 8000,
        "bounty": 2000,
        "fee": 1000,
        "total": 11000,
    }
    fill(tournament, td, 3)
    pools = format_selectors.bounty_pools(tournament)
    assert (pools.bounty_pool, pools.prize_pool, pools.starting_bounty) == (6000, 24000, 2000)


def test_a_pko_award_pays_half_and_grows_the_eliminators_bounty_then_undoes(td):
    tournament = pko(td)
    a, b, c = fill(tournament, td, 3)
    bust(tournament, td, b)
    preview = bounties_services.bounty_award_preview(
        tournament=tournament, eliminated=b, portions=[[a]]
    )
    assert [(line["cash"], line["bounty_after"]) for line in preview.lines] == [(1000, 3000)]
    assert not BountyAward.objects.exists()  # the preview saves nothing
    event = bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    json.dumps(event.data)
    a.refresh_from_db()
    assert format_selectors.bounty_of(a, tournament) == 3000
    assert format_selectors.bounty_totals(tournament) == {a.pk: 1000}
    board = format_selectors.bounty_board(tournament)
    assert board["leaders"] == [str(a.player)] and board["in_play"] == 5000
    with pytest.raises(errors.DomainError, match="already awarded"):
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=b, portions=[[c]], actor=td, now=NOW
        )
    undo(tournament, td, event)
    a.refresh_from_db()
    assert format_selectors.bounty_of(a, tournament) == 2000
    assert format_selectors.bounty_totals(tournament) == {}


def test_undo_refuses_when_a_later_award_changed_the_same_bounty(td):
    tournament = pko(td)
    a, b, c, d = fill(tournament, td, 4)
    bust(tournament, td, b)
    first = bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    bust(tournament, td, a)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=a, portions=[[c]], actor=td, now=NOW
    )
    with pytest.raises(errors.CannotUndo, match="undo “Bounty awarded”"):
        undo(tournament, td, first)


def test_a_split_pot_shares_the_bounty_and_odd_cents(td):
    tournament = make_tournament(td, bounty_format="fixed", bounty_part_cents=2501)
    a, b, c = fill(tournament, td, 3)
    bust(tournament, td, c)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=c, portions=[[a, b]], actor=td, now=NOW
    )
    totals = format_selectors.bounty_totals(tournament)
    assert sorted(totals.values()) == [1250, 1251]


def test_an_award_refuses_bad_input_and_changes_nothing(td):
    tournament = pko(td)
    a, b = fill(tournament, td, 2)
    with pytest.raises(errors.DomainError, match="not eliminated"):
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
        )
    bust(tournament, td, b)
    with pytest.raises(errors.DomainError, match="last chips"):
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=b, portions=[], actor=td, now=NOW
        )
    assert not BountyAward.objects.exists()


def test_the_winner_collects_his_own_grown_bounty(td):
    tournament = pko(td)
    a, b = fill(tournament, td, 2)
    bust(tournament, td, b)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    with pytest.raises(errors.DomainError, match="Only the winner"):
        bounties_services.own_bounty_record(tournament=tournament, winner=a, actor=td, now=NOW)
    # The clock closed registration and results gave him first place.
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    Entry.objects.filter(pk=a.pk).update(place=1)
    tournament.refresh_from_db()
    a.refresh_from_db()
    bounties_services.own_bounty_record(tournament=tournament, winner=a, actor=td, now=NOW)
    assert format_selectors.bounty_totals(tournament) == {a.pk: 1000 + 3000}


def test_mystery_envelopes_must_add_up_and_draws_start_with_the_stage(td):
    tournament = make_tournament(
        td, bounty_format="mystery", bounty_part_cents=5000, stage_trigger_players=2
    )
    a, b, c = fill(tournament, td, 3)
    with pytest.raises(errors.DomainError, match="add up"):
        mystery_services.envelopes_publish(
            tournament=tournament, envelopes={"E1": 10000, "E2": 1000}, actor=td, now=NOW
        )
    mystery_services.envelopes_publish(
        tournament=tournament, envelopes={"E1": 10000, "E2": 4000, "E3": 1000}, actor=td, now=NOW
    )
    bust(tournament, td, c)
    with pytest.raises(errors.DomainError, match="starts at 2 players"):
        mystery_services.mystery_draw_record(
            tournament=tournament,
            eliminated=c,
            portions=[[a]],
            envelope_code="E1",
            actor=td,
            now=NOW,
        )
    Tournament.objects.filter(pk=tournament.pk).update(stage_trigger_players=3)
    with pytest.raises(errors.DomainError, match="not among"):
        mystery_services.mystery_draw_record(
            tournament=tournament,
            eliminated=c,
            portions=[[a]],
            envelope_code="E9",
            actor=td,
            now=NOW,
        )
    event = mystery_services.mystery_draw_record(
        tournament=tournament, eliminated=c, portions=[[a]], envelope_code="E2", actor=td, now=NOW
    )
    assert format_selectors.bounty_totals(tournament) == {a.pk: 4000}
    left = format_selectors.bounty_board(tournament)["envelopes_left"]
    assert left == [{"value": 10000, "count": 1}, {"value": 1000, "count": 1}]
    undo(tournament, td, event)
    assert format_selectors.bounty_board(tournament)["envelopes_left_total"] == 15000


def test_an_electronic_draw_uses_the_random_source_passed_in(td):
    tournament = make_tournament(
        td,
        bounty_format="mystery",
        bounty_part_cents=5000,
        stage_trigger_players=3,
        mystery_draw_method="electronic",
    )
    a, b, c = fill(tournament, td, 3)
    mystery_services.envelopes_publish(
        tournament=tournament, envelopes={"E1": 10000, "E2": 4000, "E3": 1000}, actor=td, now=NOW
    )
    bust(tournament, td, c)
    event = mystery_services.mystery_draw_record(
        tournament=tournament,
        eliminated=c,
        portions=[[a]],
        envelope_code="",
        actor=td,
        now=NOW,
        rng=Random(7),
    )
    order = ["E1", "E2", "E3"]
    Random(7).shuffle(order)
    assert event.data["envelope"] == order[0]
    tournament.refresh_from_db()
    # The order was fixed before the first draw, and its fingerprint can be checked after.
    assert tournament.mystery_permutation == order
    assert tournament.mystery_fingerprint == mystery_services.fingerprint(order)


def test_a_satellite_awards_seats_and_the_target_desk_recognises_them(td):
    target = make_tournament(td, name="Main Event", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td,
        name="Satellite",
        prize_type="seats",
        target_event=target,
        buy_in_prize=100,
        buy_in_fee=10,
    )
    entries = fill(satellite, td, 24)
    figures = format_selectors.satellite_figures(satellite, NOW)
    assert (figures["seats"], figures["leftover"], figures["cash_prizes"]) == (2, 20000, {3: 20000})
    with pytest.raises(errors.DomainError, match="must still go out"):
        satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    for place, entry in enumerate(entries[2:], start=3):
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ELIMINATED, place=place)
    assert format_selectors.satellite_figures(satellite, NOW)["status"] == "seats_awarded"
    event = satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    tickets = list(SeatTicket.objects.filter(satellite=satellite, kind="seat"))
    assert len(tickets) == 2
    # The leftover goes in cash to the first player out after the seats (§11.5).
    cash = SeatTicket.objects.get(satellite=satellite, kind="cash")
    assert (cash.player_id, cash.amount_cents) == (entries[2].player_id, 20000)
    winner = entries[0].player
    assert format_selectors.tickets_for(target, [winner.pk])[winner.pk].target == target
    registration = entry_services.entry_register(
        tournament=target, player=winner, actor=td, now=NOW
    )
    used = satellites_services.ticket_redeem(
        tournament=target, entry=registration.entry, actor=td, now=NOW
    )
    assert used is not None and format_selectors.tickets_for(target, [winner.pk]) == {}
    with pytest.raises(errors.CannotUndo, match="used in the target event"):
        undo(satellite, td, event)


def test_a_player_who_already_holds_a_seat_gets_a_credit(td):
    target = make_tournament(td, name="Main Event", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td,
        name="Satellite",
        prize_type="seats",
        target_event=target,
        buy_in_prize=100,
        buy_in_fee=10,
    )
    entries = fill(satellite, td, 11)
    entry_services.entry_register(tournament=target, player=entries[0].player, actor=td, now=NOW)
    for entry in entries[1:]:
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ELIMINATED)
    event = satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    ticket = SeatTicket.objects.get(satellite=satellite)
    assert (ticket.kind, ticket.amount_cents) == ("credit", 110000)
    undo(satellite, td, event)
    assert not SeatTicket.objects.filter(voided=False).exists()
    assert Event.objects.filter(action="event.undo").exists()


def test_results_show_prize_and_bounty_money_separately_and_in_total(td):
    tournament = pko(td)
    a, b = fill(tournament, td, 2)
    bust(tournament, td, b)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    rows = {r["entry"].pk: r for r in format_selectors.results_with_bounties(tournament)}
    assert rows[a.pk]["bounty"] == 1000
    assert rows[a.pk]["total"] == rows[a.pk]["prize"] + 1000


def test_a_disqualified_players_bounty_goes_to_the_prize_pool_and_undoes(td):
    tournament = pko(td)
    a, b, c = fill(tournament, td, 3)
    bust(tournament, td, c)
    with pytest.raises(errors.DomainError, match="lost his chips in play"):
        bounties_services.bounty_forfeit_record(tournament=tournament, entry=c, actor=td, now=NOW)
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=b, start_stack=500, reason="disqualification")],
        actor=td,
        now=NOW,
    )
    event = bounties_services.bounty_forfeit_record(
        tournament=tournament, entry=b, actor=td, now=NOW
    )
    assert format_selectors.bounties_to_prize_pool(tournament) == 2000
    assert format_selectors.bounty_totals(tournament) == {}  # nobody won it
    with pytest.raises(errors.DomainError, match="already awarded"):
        bounties_services.bounty_forfeit_record(tournament=tournament, entry=b, actor=td, now=NOW)
    undo(tournament, td, event)
    assert format_selectors.bounties_to_prize_pool(tournament) == 0


def _bubble_satellite(td, resolution):
    satellite = make_tournament(
        td,
        name="Satellite",
        prize_type="seats",
        seat_value_cents=15000,
        buy_in_prize=100,
        buy_in_fee=10,
        same_hand_elimination_rule="tda_share_all",
        seat_tie_resolution=resolution,
    )
    a, b, c, d = fill(satellite, td, 4)  # 400.00: 2 seats of 150.00 + 100.00 to 3rd
    bust(satellite, td, d)
    results.eliminations_record(
        tournament=satellite,
        busts=[results.Bust(entry=b, start_stack=5000), results.Bust(entry=c, start_stack=3000)],
        actor=td,
        now=NOW,
        hand_for_hand=True,
    )
    return satellite, a, b, c


def test_a_tie_across_the_last_seat_is_played_off_and_both_share_the_cash(td):
    satellite, a, b, c = _bubble_satellite(td, "play_off")
    with pytest.raises(errors.DomainError, match="Play-off for 1 seat"):
        satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    satellites_services.satellite_award(
        tournament=satellite, actor=td, now=NOW, play_off_winners=[c]
    )
    seats = set(SeatTicket.objects.filter(kind="seat").values_list("player_id", flat=True))
    assert seats == {a.player_id, c.player_id}
    cash = dict(SeatTicket.objects.filter(kind="cash").values_list("player_id", "amount_cents"))
    assert cash == {b.player_id: 5000, c.player_id: 5000}


def test_under_stack_order_the_larger_starting_stack_takes_the_seat(td):
    satellite, a, b, c = _bubble_satellite(td, "stack_order")
    satellites_services.satellite_award(tournament=satellite, actor=td, now=NOW)
    seats = set(SeatTicket.objects.filter(kind="seat").values_list("player_id", flat=True))
    assert seats == {a.player_id, b.player_id}
    cash = dict(SeatTicket.objects.filter(kind="cash").values_list("player_id", "amount_cents"))
    assert cash == {c.player_id: 10000}


def test_a_guarantee_over_both_pools_counts_the_bounty_pool_first(td):
    from tournaments import selectors

    # KO-09: 90 entries of 80+20+10 against a 10,000 guarantee: overlay 1,000.
    tournament = make_tournament(
        td,
        bounty_format="fixed",
        bounty_part_cents=2000,
        buy_in_prize=80,
        buy_in_fee=10,
        guarantee=10000,
        tables=10,
    )
    fill(tournament, td, 90)
    assert selectors.prize_pool(tournament).overlay == 1000
    assert format_selectors.bounty_pools(tournament).overlay == 100000  # the same, in cents
    Tournament.objects.filter(pk=tournament.pk).update(guarantee_scope="prize_pool")
    tournament.refresh_from_db()
    assert selectors.prize_pool(tournament).overlay == 2800

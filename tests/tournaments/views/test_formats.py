"""The bounty and satellite pages as staff use them: permissions, preview, confirm, slip."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_manager, make_player, make_tournament
from tournaments.errors import DomainError
from tournaments.models import (
    BountyAward,
    Entry,
    Role,
    SeatTicket,
    StaffAssignment,
    Tournament,
)
from tournaments.selectors import formats as format_selectors
from tournaments.services import bounties as bounties_services
from tournaments.services import entries as entry_services
from tournaments.services import mystery as mystery_services
from tournaments.services import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def pko(td):
    return make_tournament(
        td, bounty_format="progressive", bounty_part_cents=2000, buy_in_prize=80, buy_in_fee=10
    )


def fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]


def staff(tournament, user, role):
    StaffAssignment.objects.create(tournament=tournament, user=user, role=role)
    return user


def test_the_td_chooses_the_format_when_creating_the_event(client, td):
    client.force_login(make_manager(td))
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "PKO Tuesday",
            "date": "2026-11-24",
            "game": "nlhe",
            "currency": "EUR",
            "buy_in_prize": 80,
            "buy_in_fee": 10,
            "house_percent": 0,
            "guarantee": 0,
            "added_money": 0,
            "starting_stack": 30000,
            "seats_per_table": 9,
            "max_entries": 2,
            "reentry_allowed": "on",
            "rebuy_max": 0,
            "rebuy_price": 0,
            "rebuy_chips": 0,
            "addon_price": 0,
            "addon_chips": 0,
            "balance_max_diff": 1,
            "final_table_rule": Tournament._meta.get_field("final_table_rule").get_default(),
            "deal_in_exclusion": Tournament._meta.get_field("deal_in_exclusion").get_default(),
            "bounty_format": "progressive",
            "bounty_part_cents": "20",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="PKO Tuesday")
    assert (tournament.bounty_format, tournament.bounty_part_cents) == ("progressive", 2000)
    assert tournament.progressive_cash_percent == 50  # the default (formats.md §3)


def test_a_bounty_event_without_a_bounty_part_is_refused(client, td, tournament):
    client.force_login(td)
    response = client.get(reverse("tournament_edit", args=[tournament.slug]))
    assert "Event format: bounties" in response.content.decode()
    from tournaments.forms.setup import TournamentForm

    data = {name: getattr(tournament, name) for name in TournamentForm.Meta.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if not isinstance(v, bool) or v}
    data.update(bounty_format="fixed", bounty_part_cents=0, target_event="")
    form = TournamentForm(data, instance=tournament)
    assert not form.is_valid()
    assert "bounty part" in str(form.errors["bounty_part_cents"])


def test_the_desk_shows_what_a_buy_in_pays_into_each_part(client, pko, td, desk):
    staff(pko, desk, Role.DESK)
    client.force_login(desk)
    page = client.get(reverse("desk", args=[pko.slug])).content.decode()
    assert "What a buy-in pays" in page
    assert "80.00" in page and "20.00" in page and "110.00" in page


@pytest.mark.parametrize(
    ("who", "status"), [("td", 302), ("floor", 302), ("desk", 403), ("outsider", 403)]
)
def test_only_the_floor_awards_bounties(client, pko, td, who, status, django_user_model):
    a, b = fill(pko, td, 2)
    results.eliminations_record(tournament=pko, busts=[results.Bust(entry=b)], actor=td, now=NOW)
    user = td
    if who != "td":
        user = django_user_model.objects.create_user(username=who, password="x")
        if who in ("floor", "desk"):
            staff(pko, user, Role.FLOOR if who == "floor" else Role.DESK)
    client.force_login(user)
    response = client.post(
        reverse("bounty_award", args=[pko.slug]),
        {"eliminated": b.number, "winners": str(a.number), "confirm": "on"},
    )
    assert (
        response.status_code in (status, 404)
        if who == "outsider"
        else response.status_code == status
    )
    assert BountyAward.objects.exists() == (status == 302)


def test_the_award_is_shown_before_it_is_confirmed_and_printed_on_a_slip(client, pko, td):
    a, b = fill(pko, td, 2)
    results.eliminations_record(tournament=pko, busts=[results.Bust(entry=b)], actor=td, now=NOW)
    client.force_login(td)
    url = reverse("bounty_award", args=[pko.slug])
    preview = client.post(url, {"eliminated": b.number, "winners": str(a.number)})
    page = preview.content.decode()
    assert "Confirm the award" in page and "10.00" in page and "20.00 → 30.00" in page
    assert not BountyAward.objects.exists()
    done = client.post(url, {"eliminated": b.number, "winners": str(a.number), "confirm": "on"})
    assert done.status_code == 302
    slip = client.get(done["Location"]).content.decode()
    assert "Bounty payout slip" in slip and str(a.player) in slip and "10.00" in slip
    assert "paid with the final payout" not in slip
    Tournament.objects.filter(pk=pko.pk).update(bounty_payout_timing="at_end")
    assert "paid with the final payout" in client.get(done["Location"]).content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"eliminated": "x", "winners": "1"},
        {"eliminated": "999", "winners": "1"},
        {"eliminated": "2", "winners": "a,b"},
        {"eliminated": "2", "winners": "99999", "confirm": "on"},
        {"eliminated": "2", "winners": "2", "confirm": "on"},
        {},
    ],
)
def test_bad_award_input_gets_a_message_and_changes_nothing(client, pko, td, data):
    fill(pko, td, 2)
    client.force_login(td)
    response = client.post(reverse("bounty_award", args=[pko.slug]), data)
    assert response.status_code in (200, 302)
    assert not BountyAward.objects.exists()


def test_the_slip_of_another_tournament_is_not_found(client, pko, td):
    client.force_login(td)
    assert client.get(reverse("bounty_slip", args=[pko.slug, 999999])).status_code == 404


def test_envelopes_are_published_by_the_td_and_bad_lines_refused(client, td):
    tournament = make_tournament(td, bounty_format="mystery", bounty_part_cents=5000)
    fill(tournament, td, 2)
    client.force_login(td)
    url = reverse("envelopes", args=[tournament.slug])
    client.post(url, {"envelopes": "E1 = banana"})
    assert not tournament.envelopes.exists()
    client.post(url, {"envelopes": "E1 = 60.00\nE2 = 40,00"})
    assert sorted(tournament.envelopes.values_list("value_cents", flat=True)) == [4000, 6000]
    page = client.get(reverse("bounties", args=[tournament.slug])).content.decode()
    assert "Envelopes left" in page


def test_the_satellite_page_awards_seats_at_the_end(client, td):
    target = make_tournament(td, name="Main", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td, name="Sat", prize_type="seats", target_event=target, buy_in_prize=100, buy_in_fee=10
    )
    entries = fill(satellite, td, 12)
    client.force_login(td)
    page = client.get(reverse("bounties", args=[satellite.slug])).content.decode()
    assert "1 seat" in page and "11 to go to the seats" in page
    Entry.objects.filter(pk__in=[e.pk for e in entries[1:]]).update(status="eliminated")
    client.post(reverse("satellite_award", args=[satellite.slug]))
    assert satellite.tickets.count() == 1


def _screen(tournament, kind, table=None):
    from tournaments.models import DisplayScreen

    return DisplayScreen.objects.create(
        tournament=tournament, name=kind, kind=kind, table_number=table
    )


def test_each_players_bounty_is_on_the_tablet_the_board_and_the_phone(client, pko, td):
    a, b = fill(pko, td, 2)
    results.eliminations_record(tournament=pko, busts=[results.Bust(entry=b)], actor=td, now=NOW)

    bounties_services.bounty_award_record(
        tournament=pko, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    table = a.seat.table.number
    tablet = client.get(
        reverse("screen", args=[_screen(pko, "table", table).token])
    ).content.decode()
    assert "Bounty 30.00" in tablet
    board = client.get(reverse("screen", args=[_screen(pko, "seating").token])).content.decode()
    assert "Bounty 30.00" in board
    phone = client.get(reverse("seat_finder", args=[pko.slug]), {"q": a.player.last_name})
    assert "Bounty 30.00" in phone.content.decode()
    clock = client.get(reverse("screen", args=[_screen(pko, "clock").token])).content.decode()
    assert "Bounty pool" in clock and f"Bounty leader: {a.player} 30.00" in clock
    assert f"{a.player} knocked out {b.player}: +10.00" in clock


def test_the_clock_shows_a_mystery_draw_as_it_happens_and_the_envelopes_left(client, td):

    tournament = make_tournament(
        td, bounty_format="mystery", bounty_part_cents=5000, stage_trigger_players=3
    )
    a, b, c = fill(tournament, td, 3)
    mystery_services.envelopes_publish(
        tournament=tournament, envelopes={"E1": 10000, "E2": 4000, "E3": 1000}, actor=td, now=NOW
    )
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=c)], actor=td, now=NOW
    )
    from django.utils import timezone

    mystery_services.mystery_draw_record(
        tournament=tournament,
        eliminated=c,
        portions=[[a]],
        envelope_code="E1",
        actor=td,
        now=timezone.now(),
    )
    clock = client.get(
        reverse("screen", args=[_screen(tournament, "clock").token])
    ).content.decode()
    assert f"{a.player} drew envelope E1 for {c.player}: 100.00" in clock
    assert "40.00 × 1" in clock and "100.00 × 1" not in clock
    tablet = client.get(
        reverse("screen", args=[_screen(tournament, "table", a.seat.table.number).token])
    ).content.decode()
    assert "mystery bounty" in tablet


def test_the_satellite_clock_shows_the_seats_and_the_seat_bubble(client, td):
    satellite = make_tournament(
        td, name="Sat", prize_type="seats", seat_value_cents=50000, buy_in_prize=100, buy_in_fee=10
    )
    entries = fill(satellite, td, 11)  # 1100 → 2 seats + 100
    Entry.objects.filter(pk__in=[e.pk for e in entries[3:]]).update(status="eliminated")
    clock = client.get(reverse("screen", args=[_screen(satellite, "clock").token])).content.decode()
    assert "2 SEATS + 100.00" in clock
    assert "SEAT BUBBLE" in clock


def test_results_and_reports_show_prize_and_bounty_money_separately_and_in_total(client, pko, td):

    a, b = fill(pko, td, 2)
    results.eliminations_record(tournament=pko, busts=[results.Bust(entry=b)], actor=td, now=NOW)
    bounties_services.bounty_award_record(
        tournament=pko, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    Entry.objects.filter(pk=b.pk).update(prize=40)
    public = client.get(reverse("public_results", args=[pko.slug])).content.decode()
    assert "Bounties" in public and "40.00" in public
    client.force_login(td)
    csv_text = client.get(reverse("report", args=[pko.slug, "results", "csv"])).content.decode(
        "utf-8-sig"
    )
    assert "Prize,Bounties,Total" in csv_text
    books = client.get(reverse("report", args=[pko.slug, "bounties", "csv"])).content.decode(
        "utf-8-sig"
    )
    assert f"{a.player},{b.player},,10.00,10.00" in books
    pdf = client.get(reverse("report", args=[pko.slug, "bounties", "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"


@pytest.mark.parametrize(
    ("name", "method", "allowed"),
    [
        ("bounties", "get", {"td", "floor", "desk"}),
        ("bounty_award", "post", {"td", "floor"}),
        ("own_bounty", "post", {"td", "floor"}),
        ("envelopes", "post", {"td"}),
        ("satellite_award", "post", {"td"}),
    ],
)
@pytest.mark.parametrize("who", ["td", "floor", "desk", "outsider", "anonymous"])
def test_the_permission_matrix(client, pko, td, django_user_model, name, method, allowed, who):
    if who == "td":
        client.force_login(td)
    elif who != "anonymous":
        user = django_user_model.objects.create_user(username=who, password="x")
        if who in ("floor", "desk"):
            staff(pko, user, Role.FLOOR if who == "floor" else Role.DESK)
        client.force_login(user)
    response = getattr(client, method)(reverse(name, args=[pko.slug]))
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in allowed:
        assert response.status_code in (200, 302)
    else:
        assert response.status_code in (403, 404)


def test_a_mystery_draw_counts_the_players_before_the_hand_from_the_places(td):

    tournament = make_tournament(
        td, bounty_format="mystery", bounty_part_cents=5000, stage_trigger_players=3
    )
    a, b, c, d = fill(tournament, td, 4)
    mystery_services.envelopes_publish(
        tournament=tournament,
        envelopes={"E1": 5000, "E2": 5000, "E3": 5000, "E4": 5000},
        actor=td,
        now=NOW,
    )
    # Two out in one hand dealt with 4 left: the stage (3 players) had not started, so
    # neither earns a draw, though the better of them finished 3rd (§10.3).
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=c, start_stack=10), results.Bust(entry=d, start_stack=20)],
        actor=td,
        now=NOW,
    )
    for out in (c, d):
        with pytest.raises(DomainError, match="starts at 3 players"):
            mystery_services.mystery_draw_record(
                tournament=tournament,
                eliminated=out,
                portions=[[a]],
                envelope_code="E1",
                actor=td,
                now=NOW,
            )
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=b)], actor=td, now=NOW
    )
    mystery_services.mystery_draw_record(
        tournament=tournament, eliminated=b, portions=[[a]], envelope_code="E2", actor=td, now=NOW
    )
    assert format_selectors.bounty_totals(tournament) == {a.pk: 5000}


def test_the_floor_sends_a_disqualified_players_bounty_to_the_prize_pool(client, pko, td):
    a, b = fill(pko, td, 2)
    results.eliminations_record(
        tournament=pko,
        busts=[results.Bust(entry=b, reason="disqualification")],
        actor=td,
        now=NOW,
    )
    client.force_login(td)
    page = client.get(reverse("bounties", args=[pko.slug])).content.decode()
    assert "Bounties nobody won" in page and str(b.player) in page
    client.post(reverse("bounty_forfeit", args=[pko.slug]), {"entry": b.number})
    money = client.get(reverse("money", args=[pko.slug])).content.decode()
    assert "Bounties nobody won, to add to the payouts: 20.00" in money
    assert (
        client.post(reverse("bounty_forfeit", args=[pko.slug]), {"entry": "x"}).status_code == 302
    )


def test_the_satellite_desk_warns_about_a_player_who_already_holds_a_seat(client, td):
    target = make_tournament(td, name="Main", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td, name="Sat", prize_type="seats", target_event=target, buy_in_prize=100, buy_in_fee=10
    )
    holder = make_player("Anna", "Bianchi")
    entry_services.entry_register(tournament=target, player=holder, actor=td, now=NOW)
    client.force_login(td)
    found = client.get(reverse("desk_search", args=[satellite.slug]), {"q": "Bianchi"})
    assert "Already holds a seat in Main" in found.content.decode()


def _seat_ticket(td, code="SEAT-0001"):
    """A Main event, its satellite, and a seat ticket to Main won there by a player."""
    target = make_tournament(td, name="Main", buy_in_prize=1000, buy_in_fee=100)
    satellite = make_tournament(
        td, name="Sat", prize_type="seats", target_event=target, buy_in_prize=100, buy_in_fee=10
    )
    winner = make_player("Anna", "Bianchi")
    ticket = SeatTicket.objects.create(
        satellite=satellite, target=target, player=winner, place=1, code=code, created_at=NOW
    )
    return target, winner, ticket


def test_the_desk_uses_a_seat_ticket_in_the_registration_itself(client, td):
    target, winner, ticket = _seat_ticket(td)
    client.force_login(td)
    # The ticket makes him a player of Main: the desk's search finds him by name.
    found = client.get(reverse("desk_search", args=[target.slug]), {"q": "Bianchi"})
    assert "Anna" in found.content.decode()
    page = client.post(reverse("register", args=[target.slug, winner.pk]), follow=True)
    assert "Seat ticket SEAT-0001 from Sat used: the buy-in is covered." in page.content.decode()
    entry = Entry.objects.get(tournament=target, player=winner)
    ticket.refresh_from_db()
    assert ticket.redeemed_entry == entry
    logged = list(target.events.order_by("pk").values_list("action", flat=True))
    assert logged[-2:] == ["entry.register", "ticket.redeem"]


def test_a_refused_registration_keeps_the_seat_ticket_unused(client, td):
    target, winner, ticket = _seat_ticket(td)
    Tournament.objects.filter(pk=target.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(td)
    client.get(reverse("desk_search", args=[target.slug]), {"q": "seat-0001"})  # his ticket
    page = client.post(reverse("register", args=[target.slug, winner.pk]), follow=True)
    assert "The tournament is over." in page.content.decode()
    ticket.refresh_from_db()
    assert ticket.redeemed_entry is None
    assert not target.events.filter(action="ticket.redeem").exists()

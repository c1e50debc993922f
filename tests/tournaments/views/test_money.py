"""The money pages as staff use them: what they see, what they may do, what downloads."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments import selectors
from tournaments.models import Entry, Event, Penalty, Seat, Tournament
from tournaments.services import chips as chip_services
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = pytest.mark.django_db


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


def test_the_floor_records_two_players_out_in_one_hand_at_one_table(client, tournament, td, floor):
    regs = fill(tournament, td, 20)
    results.payouts_generate(tournament=tournament, actor=td, now=NOW)  # 2 paid
    running(tournament)
    same_table = [r for r in regs if r.table == regs[0].table][:2]
    client.force_login(floor)
    big, small = same_table
    response = client.post(
        reverse("eliminations_record", args=[tournament.slug]),
        {
            "out": [big.entry.number, small.entry.number],
            f"stack_{big.entry.number}": "9000",
            f"stack_{small.entry.number}": "4000",
        },
        follow=True,
    )
    assert response.status_code == 200
    big_entry, small_entry = (Entry.objects.get(pk=r.entry.pk) for r in same_table)
    # FIGP §60: the bigger starting stack finishes higher.
    assert (big_entry.place, small_entry.place) == (19, 20)
    assert not Seat.objects.filter(entry__in=[big_entry, small_entry]).exists()
    assert str(big_entry.player) in response.content.decode()


def test_a_player_can_be_put_out_by_table_and_seat(client, tournament, td, floor):
    regs = fill(tournament, td, 5)
    client.force_login(floor)
    target = regs[3]
    client.post(
        reverse("eliminations_record", args=[tournament.slug]),
        {"seats": f"{target.table}/{target.seat}"},
    )
    assert Entry.objects.get(pk=target.entry.pk).place == 5


@pytest.mark.parametrize(
    "data",
    [
        {"out": ["999"]},
        {"out": ["abc"]},
        {"seats": "77/3"},
        {"seats": "1/1", "stack_1": "-5"},
        {},
    ],
)
def test_junk_eliminations_are_refused_with_a_message(client, tournament, td, floor, data):
    fill(tournament, td, 3)
    client.force_login(floor)
    before = Entry.objects.filter(status="eliminated").count()
    response = client.post(reverse("eliminations_record", args=[tournament.slug]), data)
    assert response.status_code == 302
    if "stack_1" not in data:
        assert Entry.objects.filter(status="eliminated").count() == before


def test_the_td_edits_the_payout_table_until_the_money(client, tournament, td):
    fill(tournament, td, 30)  # pool 3000 at 100 each, 3 paid
    client.force_login(td)
    url = reverse("payouts_edit", args=[tournament.slug])
    response = client.post(url, {"amounts": "1500, 1000, 400"}, follow=True)
    assert "3000" in response.content.decode()  # refused: the prizes do not add up
    assert tournament.payouts == [] and Tournament.objects.get(pk=tournament.pk).payouts == []
    client.post(url, {"amounts": "1500 900 600"})
    assert Tournament.objects.get(pk=tournament.pk).payouts == [1500, 900, 600]
    response = client.post(url, {"amounts": "1000 1000 1000"}, follow=True)
    assert Tournament.objects.get(pk=tournament.pk).payouts == [1500, 900, 600]
    page = client.get(reverse("money", args=[tournament.slug])).content.decode()
    assert "1500" in page and "900" in page


def test_a_deal_is_computed_then_recorded(client, tournament, td):
    regs = fill(tournament, td, 3)
    results.payouts_set(tournament=tournament, actor=td, amounts=[200, 100], now=NOW)
    client.force_login(td)
    data = {
        "method": "chip_chop",
        "left_to_play_for": "0",
        **{f"stack_{r.entry.number}": "30000" for r in regs},
    }
    response = client.post(reverse("deal", args=[tournament.slug]), {**data, "action": "propose"})
    assert response.status_code == 200
    assert "deal-proposal" in response.content.decode()
    assert not tournament.deals.exists()
    client.post(reverse("deal", args=[tournament.slug]), {**data, "action": "accept"})
    deal = tournament.deals.get()
    assert sum(s["amount"] for s in deal.shares) == 300
    assert sorted(Entry.objects.values_list("deal_amount", flat=True)) == [100, 100, 100]


def test_only_the_td_disqualifies_and_the_floor_gives_penalties(client, tournament, td, floor):
    regs = fill(tournament, td, 4)
    client.force_login(floor)
    url = reverse("penalty_give", args=[tournament.slug])
    client.post(url, {"entry": regs[0].entry.number, "kind": "disqualification", "stack": "100"})
    assert not Penalty.objects.exists()
    client.post(url, {"entry": regs[0].entry.number, "kind": "missed_rounds", "rounds": "2"})
    penalty = Penalty.objects.get()
    assert penalty.total_hands == 2 * Seat.objects.get(entry=regs[0].entry).table.seats.count()
    client.post(
        reverse("penalty_hand", args=[tournament.slug]), {"table": regs[0].table, "event": "hand"}
    )
    penalty.refresh_from_db()
    assert penalty.served == 1
    page = client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    assert str(regs[0].entry.player) in page
    client.force_login(td)
    client.post(url, {"entry": regs[1].entry.number, "kind": "disqualification", "stack": "30000"})
    out = Entry.objects.get(pk=regs[1].entry.pk)
    assert out.disqualified and out.chips_removed == 30000
    assert selectors.tournament_figures(tournament)["chips_in_play"] == 3 * 30000


def test_the_app_draws_the_race_cards_and_records_them(client, tournament, td, floor):
    regs = fill(tournament, td, 3)
    chip_services.chipset_set(
        tournament=tournament,
        actor=td,
        denominations=[
            chip_services.DenominationSpec(25, "green", 40),
            chip_services.DenominationSpec(100, "black", 290),
        ],
        now=NOW,
    )
    table = regs[0].table
    seats = sorted(r.seat for r in regs if r.table == table)
    client.force_login(floor)
    response = client.post(
        reverse("chip_race", args=[tournament.slug]),
        {"table": table, "removed": "25", "draw": "1", **{f"held_{s}": "3" for s in seats}},
    )
    assert response.status_code == 302
    event = Event.objects.get(action="chips.race")
    assert event.data["drawn_by_app"] is True
    assert {int(s) for s in event.data["cards"]} == set(seats)
    assert len(event.data["winners"]) == min(len(seats), event.data["chips_raced"])
    page = client.get(
        reverse("chips", args=[tournament.slug]), {"table": table, "removed": 25}
    ).content.decode()
    assert "Chip race" in page


def test_reports_download_as_csv_and_pdf(client, tournament, td, desk):
    regs = fill(tournament, td, 3)
    running(tournament)
    results.payouts_set(tournament=tournament, actor=td, amounts=[300], now=NOW)
    for r in regs[:2]:
        entry_services.entry_eliminate(tournament=tournament, entry=r.entry, actor=td, now=NOW)
    client.force_login(desk)
    body = client.get(reverse("report", args=[tournament.slug, "results", "csv"])).content
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0][:2] == ["Place", "Player"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3"]
    assert rows[1][3] == "300"
    pdf = client.get(reverse("report", args=[tournament.slug, "payouts", "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF") and len(pdf.content) > 800
    assert pdf.content.rstrip().endswith(b"%%EOF")
    for name in ("chips", "penalties"):
        assert client.get(reverse("report", args=[tournament.slug, name, "csv"])).status_code == 200
    assert client.get(f"/t/{tournament.slug}/reports/secrets.csv").status_code == 404


def test_the_public_results_show_names_places_and_prizes_only(client, tournament, td):
    player = make_player("Anna", "Verdi", document_number="AX123")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    fill(tournament, td, 1)
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)
    page = client.get(reverse("public_results", args=[tournament.slug])).content.decode()
    assert "Verdi Anna" in page and "AX123" not in page
    assert "Staff login" not in page


@pytest.mark.parametrize("htmx", [True, False])
def test_eliminations_answer_htmx_with_the_fragment_and_others_with_the_page(
    client, tournament, td, floor, htmx
):
    regs = fill(tournament, td, 4)
    client.force_login(floor)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        reverse("eliminations_record", args=[tournament.slug]),
        {"out": [regs[0].entry.number]},
        **headers,
    )
    assert Entry.objects.get(pk=regs[0].entry.pk).place == 4
    if htmx:
        body = response.content.decode()
        assert response.status_code == 200
        assert body.lstrip().startswith('<div id="floor">') and "<html" not in body
        assert "is out in place 4" in body  # the message rides along out of band
    else:
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        assert "<html" in page and 'id="floor"' in page


def test_the_deal_calculator_answers_htmx_with_its_card(client, tournament, td):
    regs = fill(tournament, td, 2)
    results.payouts_set(tournament=tournament, actor=td, amounts=[150, 50], now=NOW)
    client.force_login(td)
    response = client.post(
        reverse("deal", args=[tournament.slug]),
        {
            "action": "propose",
            "method": "icm",
            "left_to_play_for": "20",
            f"stack_{regs[0].entry.number}": "45000",
            f"stack_{regs[1].entry.number}": "15000",
        },
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section class="card" id="deal">') and "<html" not in body
    assert "deal-proposal" in body and "20 EUR" in body


def test_the_chips_page_shows_a_tables_exchange_before_the_race(client, tournament, td, floor):
    regs = fill(tournament, td, 2)
    chip_services.chipset_set(
        tournament=tournament,
        actor=td,
        denominations=[
            chip_services.DenominationSpec(25, "green", 40),
            chip_services.DenominationSpec(100, "black", 290),
        ],
        now=NOW,
    )
    seat = regs[0].seat
    client.force_login(floor)
    page = client.get(
        reverse("chips", args=[tournament.slug]),
        {"table": regs[0].table, "removed": "25", "preview": "1", f"held_{seat}": "7"},
    ).content.decode()
    # 7 green: one full set of 4 becomes a black, 3 odd chips race for one black.
    assert 'id="race-plan"' in page
    assert "4 × 25" in page and "1 × 100" in page
    assert "Odd chips worth 75: 1 new chips race" in page
    assert not Event.objects.filter(action="chips.race").exists()


def test_a_big_field_is_listed_table_by_table_on_the_eliminations_page(client, td):
    """At 10,000 entries the page listed every player still in (9,000 rows, seconds to
    render, nobody can find a box in it): past a few tables the floor picks a table."""
    from tests.conftest import make_tournament
    from tests.tournaments.services.test_moves import seat_players

    big = make_tournament(td, tables=8)
    placed = seat_players(big, {n: list(range(1, 10)) for n in range(1, 8)})  # 63 players
    client.force_login(td)
    page = client.get(reverse("eliminations", args=[big.slug])).content.decode()
    assert 'name="out"' not in page  # no list of 63 boxes
    assert "?view_table=7" in page
    table_2 = client.get(reverse("eliminations", args=[big.slug]) + "?view_table=2")
    listed = table_2.content.decode()
    assert listed.count('name="out"') == 9
    assert str(placed[(2, 4)].player) in listed and str(placed[(3, 4)].player) not in listed

    # The seat field still records a bust anywhere, and the page stays on table 2.
    response = client.post(
        reverse("eliminations_record", args=[big.slug]),
        {"seats": "5/3", "view_table": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.content.decode().count('name="out"') == 9
    placed[(5, 3)].refresh_from_db()
    assert placed[(5, 3)].status == Entry.Status.ELIMINATED

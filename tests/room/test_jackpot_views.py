"""The jackpots through their pages: the manager's rules and their printout, a bad beat
claimed at the floor's page, judged in words, confirmed by the floor then a manager, paid
with its slips; the high hand paid with its period; the TV screen and the brush board's
strip; refusals as messages; the payment's undo kept for a manager."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from room.models import CashSeat, CashTable, JackpotClaim, JackpotPayment, RoomEvent
from room.selectors import jackpots as jackpots_reads
from room.services import cash_rake, jackpots
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.models import RoomRole

pytestmark = pytest.mark.django_db

CLAIM = {
    "board": "As Kh Ks 7c 2d",
    "loser_seat": 3,
    "loser_cards": "Ah Ad",
    "winner_seat": 7,
    "winner_cards": "KcKd",
    "dealt": "1 2 3 5 7",
}


@pytest.fixture
def manager(db):
    return make_room_user("direttore", RoomRole.MANAGER)


@pytest.fixture
def floor(db):
    return make_room_user("sala", RoomRole.CASH)


@pytest.fixture
def table(manager, floor):
    game = make_cash_game(manager)
    table = CashTable.objects.create(game=game, number=4, opened_at=NOW)
    for seat in range(1, 9):
        CashSeat.objects.create(
            table=table, player=make_player(f"P{seat}", f"Seat{seat}"), number=seat, seated_at=NOW
        )
    for hand in range(1, 11):
        cash_rake.rake_record(
            actor=floor,
            table=table,
            pot=200,
            flop_dealt=True,
            dealer=None,
            shift="",
            hand=hand,
            now=NOW,
        )
    return table


def page(response) -> str:
    return " ".join(response.content.decode().split())


def test_a_bad_beat_from_claim_to_slips(client, floor, manager, table):
    client.force_login(floor)
    home = page(client.get(reverse("jackpot_home")))
    assert 'data-testid="fund-main">7.00' in home
    response = client.post(
        reverse("jackpot_claim"), {**CLAIM, "table": f"c{table.pk}"}, follow=True
    )
    assert "The engine pays this bad beat: The bad beat qualifies" in page(response)
    claim = JackpotClaim.objects.get()
    assert 'data-card="Ah">A♥' in page(response)  # cards as cards
    client.post(reverse("jackpot_confirm", args=[claim.pk]))
    response = client.post(reverse("jackpot_confirm", args=[claim.pk]), follow=True)
    assert "the second confirmation is a manager&#x27;s" in page(response)
    client.force_login(manager)
    response = client.post(reverse("jackpot_confirm", args=[claim.pk]), follow=True)
    assert "Jackpot paid: 7.00. Print the slips" in page(response)
    payment = JackpotPayment.objects.get()
    slips = client.get(reverse("jackpot_slips", args=[payment.pk]))
    assert slips["Content-Type"] == "application/pdf" and slips.content.startswith(b"%PDF")
    # The cash board's log names it in words; the floor may not undo a payment.
    client.force_login(floor)
    board = page(client.get(reverse("cash_board")))
    assert "Bad-beat jackpot paid" in board and "cash.jackpot" not in board
    paid = RoomEvent.objects.get(action="cash.jackpot_paid")
    assert client.post(reverse("jackpot_undo", args=[paid.pk])).status_code == 403
    assert client.post(reverse("cash_undo", args=[paid.pk])).status_code == 403
    client.force_login(manager)
    client.post(reverse("jackpot_undo", args=[paid.pk]))
    assert not JackpotPayment.objects.exists()


def test_bad_input_is_a_message_and_changes_nothing(client, floor, table):
    client.force_login(floor)
    bad = {**CLAIM, "table": f"c{table.pk}", "winner_cards": "Ah Zz"}
    response = client.post(reverse("jackpot_claim"), bad, follow=True)
    assert "Those cards are not valid" in page(response)
    response = client.post(reverse("jackpot_claim"), {**CLAIM, "table": "c999999"}, follow=True)
    assert response.status_code == 200 and not JackpotClaim.objects.exists()
    response = client.post(reverse("jackpot_pay_period"), {"start": "yesterday"}, follow=True)
    assert "Choose a period to pay." in page(response)


@pytest.mark.parametrize("dealt", ["²", "1 2 ³", "٣ 7", "0 11"])
def test_seats_dealt_in_that_are_no_numbers_are_refused_in_words(client, floor, table, dealt):
    """A superscript digit passed str.isdigit() and broke int(): a 500 on the claim."""
    client.force_login(floor)
    claim = {**CLAIM, "table": f"c{table.pk}", "dealt": dealt}
    response = client.post(reverse("jackpot_claim"), claim, follow=True)
    assert "Write the seats dealt in as numbers, e.g. 1 2 3 5 7." in page(response)
    assert not JackpotClaim.objects.exists()


def test_the_high_hand_is_paid_with_its_period(client, floor, table):
    client.force_login(floor)
    hand = {"table": f"c{table.pk}", "seat": 1, "cards": "9c 9d", "board": "9s 9h 2d Th 4s"}
    response = client.post(reverse("jackpot_high_hand"), hand, follow=True)
    assert "A new high hand for the period." in page(response)
    claim = JackpotClaim.objects.get()
    later = claim.period_end + timedelta(minutes=1)
    with translation.override("en"):
        import time_machine

        with time_machine.travel(later, tick=False):
            home = page(client.get(reverse("jackpot_home")))
            assert 'data-testid="pay-period"' in home
            start = claim.period_start.isoformat()
            response = client.post(reverse("jackpot_pay_period"), {"start": start}, follow=True)
    assert "High hand paid: 7.00" in page(response)


def test_the_manager_sets_the_rules_in_advance_and_prints_them(client, manager, floor):
    client.force_login(manager)
    form = page(client.get(reverse("jackpot_settings")))
    assert "Spec: aces full" not in form and "Spec: AAATT" in form
    values = {
        "drop_kind": "share",
        "drop_fixed": "1.00",
        "drop_share": "10",
        "drop_min_pot": "20",
        "drop_cap": "",
        "drop_flop_required": "on",
        "drop_games": ["holdem"],
        "fund_main": "600",
        "fund_backup": "300",
        "fund_next": "100",
        "bad_min_hand": "kkktt",
        "bad_both_cards": "on",
        "bad_min_players": "5",
        "bad_loser": "500",
        "bad_winner": "250",
        "bad_table": "200",
        "bad_room": "50",
        "tournament_claims": "on",
        "high_period": "day",
        "high_min_hand": "AAAKK",
        "high_prize": "50",
    }
    response = client.post(reverse("jackpot_settings"), values, follow=True)
    assert "Jackpot rules saved." in page(response)
    settings = jackpots_reads.jackpot_settings()
    assert settings.drop.cap_cents is None and settings.bad_beat.min_losing_hand == "KKKTT"
    assert settings.high_hand.prize_cents == 5000 and settings.tournament_claims
    response = client.post(reverse("jackpot_settings"), {**values, "fund_main": "700"})
    assert "must add up to 1000" in page(response)
    rules = client.get(reverse("jackpot_rules"))
    assert rules["Content-Type"] == "application/pdf"
    client.force_login(floor)
    assert client.get(reverse("jackpot_settings")).status_code == 403


def test_the_screens_show_the_jackpot_and_its_hit_in_both_languages(client, floor, manager, table):
    tv = page(client.get(reverse("jackpot_board")))
    assert 'data-testid="jackpot-main">€ 7.00' in tv and "aces full of tens" in tv
    assert "every" not in tv.split('hx-trigger="')[1].split('"')[0]  # the socket, no polling
    brush = page(client.get(reverse("cash_brush")))
    assert 'data-testid="jackpot-strip"' in brush
    claim = jackpots.claim_bad_beat(
        actor=floor,
        where=jackpots.Where(cash_table=table),
        board=["As", "Kh", "Ks", "7c", "2d"],
        loser=jackpots.ClaimedHand(3, ("Ah", "Ad")),
        winner=jackpots.ClaimedHand(7, ("Kc", "Kd")),
        dealt=[1, 2, 3, 5, 7],
        now=NOW,
    )
    jackpots.claim_confirm(actor=floor, claim=claim, now=NOW)
    jackpots.claim_confirm(actor=manager, claim=claim, now=NOW)
    tv = page(client.get(reverse("jackpot_board"), headers={"accept-language": "it"}))
    assert "Jackpot bad beat" in tv or "jackpot" in tv.lower()
    with translation.override("it"):
        client.cookies["django_language"] = "it"
        tv = page(client.get(reverse("jackpot_board")))
    assert 'data-testid="jackpot-hit"' in tv and "Seat3 P3" in tv

"""Remote joins of the cash lists (off by default, as the Sanremo rules want the player in
the room) and the kiosk (a device link with no staff rights, rate limited)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from config import ratelimit
from room.models import Kiosk, RoomEvent, WaitEntry
from room.selectors import kiosk as kiosk_selectors
from room.services import cash_settings
from room.views.cash_phone import phone_token
from tests.conftest import NOW, make_cash_game, make_player, make_room_user
from tournaments.models import Reservation

pytestmark = pytest.mark.django_db
MIN = dt.timedelta(minutes=1)


@pytest.fixture
def floor():
    return make_room_user("cashfloor", "cash")


@pytest.fixture
def game(floor):
    return make_cash_game(floor)


def _allow_remote(floor, minutes=20):
    cash_settings.room_settings_save(
        actor=floor,
        values={"remote_joins": True, "remote_arrival_minutes": minutes},
        now=NOW,
    )


def test_remote_joins_are_off_by_default(client, game):
    player = make_player()
    token = phone_token(player)
    assert b"remote-join" not in client.get(reverse("cash_phone", args=[token])).content
    client.post(reverse("cash_phone_join", args=[token]), {"games": [game.pk]})
    assert not WaitEntry.objects.exists()


def test_a_remote_joiner_is_not_yet_present_until_the_floor_sees_him(client, floor, game):
    _allow_remote(floor)
    player, late = make_player("Remo"), make_player("Tardo")
    for who in (player, late):
        client.post(reverse("cash_phone_join", args=[phone_token(who)]), {"games": [game.pk]})
    entry = WaitEntry.objects.get(player=player)
    assert entry.arrive_by == NOW + 20 * MIN or abs(entry.arrive_by - NOW - 20 * MIN) < MIN
    board = client.get(reverse("cash_brush")).content
    assert f'data-testid="not-present-{player.pk}"'.encode() in board
    client.force_login(floor)
    client.post(reverse("cash_entry_arrived", args=[entry.pk]))
    entry.refresh_from_db()
    assert entry.arrive_by is None
    assert RoomEvent.objects.filter(action="cash.arrived").exists()


def test_the_place_lapses_when_the_window_passes(client, floor, game, frozen_clock):
    _allow_remote(floor, minutes=20)
    late = make_player("Tardo")
    client.post(reverse("cash_phone_join", args=[phone_token(late)]), {"games": [game.pk]})
    frozen_clock.move_to(NOW + 19 * MIN)
    client.get(reverse("cash_brush"))
    assert WaitEntry.objects.filter(player=late).exists()
    frozen_clock.move_to(NOW + 21 * MIN)
    client.get(reverse("cash_brush"))  # reading the list checks the windows
    assert not WaitEntry.objects.filter(player=late).exists()
    lapse = RoomEvent.objects.get(action="cash.remote_lapse")
    assert lapse.data["players"] == [late.pk]


def test_the_kiosk_identifies_by_card_or_qr_and_acts_without_staff_rights(
    client, floor, game, tournament
):
    kiosk = Kiosk.objects.create(name="Ingresso", created_at=NOW)
    player = make_player("Kiko", document_number="CARD77")
    tournament.reservations_open, tournament.reservable_seats = True, 5
    tournament.save()
    start = reverse("kiosk_start", args=[kiosk.token])
    response = client.post(start, {"card": "card77"})
    assert "/v/" in response["Location"]
    page = client.get(response["Location"])
    assert "no-store" in page["Cache-Control"] and b"Kiko" in page.content
    visit = kiosk_selectors.visit_for(kiosk, player)
    act = lambda action, data: client.post(  # noqa: E731
        reverse("kiosk_action", args=[kiosk.token, visit, action]), data
    )
    act("join", {"games": [game.pk]})
    assert WaitEntry.objects.get(player=player).arrive_by is None  # present: at the kiosk
    act("reserve", {"event": tournament.slug, "accepted_terms": "1"})
    assert Reservation.objects.get(player=player).status == Reservation.Status.HELD
    act("accessible", {})
    player.refresh_from_db()
    assert player.needs_accessible_seat
    # His phone's QR code identifies him too; a visit does not open another kiosk.
    qr = f"http://room.example/room/cash/me/{phone_token(player)}/"
    assert "/v/" in client.post(start, {"card": qr})["Location"]
    other = Kiosk.objects.create(name="Bar", created_at=NOW)
    assert client.get(reverse("kiosk_player", args=[other.token, visit])).status_code == 404
    # No staff page opens from a kiosk's browser.
    assert client.get(reverse("cash_board"))["Location"].startswith(reverse("login"))
    kiosk.revoked = True
    kiosk.save()
    assert client.get(start).status_code == 404


def test_the_kiosk_is_rate_limited(client):
    kiosk = Kiosk.objects.create(name="Ingresso", created_at=NOW)
    start = reverse("kiosk_start", args=[kiosk.token])
    make_player("Kiko", document_number="CARD77")
    for _ in range(ratelimit.KIOSK.limit):
        client.post(start, {"card": "nobody"})
    response = client.post(start, {"card": "CARD77"}, follow=True)
    assert b"Too many tries" in response.content

"""Reservations: the room's caps and the waiting list, the desk's one-keystroke
registration through the registration service, the hold released at the set level (the
clock's level change, time moved), no-shows flagged by the room's rule, the lobby's
figures, and the contact's privacy (masked, revealed by the manager and logged, exported,
erased)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse

from room.models import RoomEvent
from room.selectors import lobby
from room.services import people as people_services
from tests.conftest import NOW, make_manager, make_player, make_user
from tournaments.errors import DomainError
from tournaments.events import event_undo
from tournaments.models import Entry, Event, Player, Reservation, ReservationRules, Seat
from tournaments.selectors.people import mask_email, mask_phone
from tournaments.services import clock as clock_services
from tournaments.services import holds
from tournaments.services import level_announcements as announcement_services
from tournaments.services import reservations as services

pytestmark = pytest.mark.django_db
MIN = dt.timedelta(minutes=1)


def _open(tournament, seats=2, level=2):
    tournament.reservations_open, tournament.reservable_seats = True, seats
    tournament.reservation_hold_level = level
    tournament.save()
    return tournament


def _reserve(tournament, n, now=NOW, **fields):
    values = {
        "first_name": "Luca",
        "last_name": f"Bianchi{n}",
        "email": f"luca{n}@example.com",
        "accepted_terms": True,
    }
    return services.reservation_make(tournament=tournament, now=now, **{**values, **fields})


def test_caps_then_waiting_list_then_promotion_on_cancel(tournament):
    _open(tournament, seats=2)
    first, second, third = (_reserve(tournament, n) for n in range(3))
    assert [r.status for r in (first, second, third)] == ["held", "held", "waiting"]
    services.reservation_cancel(tournament=tournament, reservation=first, now=NOW)
    third.refresh_from_db()
    assert third.status == Reservation.Status.HELD
    front = lobby.front_page(NOW)
    (card,) = [c for c in front["upcoming"] + front["running"] if c.tournament == tournament]
    assert (card.reserved, card.reserve_waiting) == (2, 0)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"accepted_terms": False}, "Accept the terms"),
        ({"email": "", "phone": ""}, "phone number or an e-mail"),
        ({"email": "not-an-address"}, "valid e-mail"),
        ({"first_name": " "}, "first and last name"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(tournament, fields, words):
    _open(tournament)
    with pytest.raises(DomainError, match=words):
        _reserve(tournament, 1, **fields)
    assert not Reservation.objects.exists()


def test_closed_events_and_a_second_reservation_of_the_same_contact_are_refused(tournament):
    with pytest.raises(DomainError, match="takes no reservations"):
        _reserve(tournament, 1)
    _open(tournament)
    _reserve(tournament, 1)
    with pytest.raises(DomainError, match="already holds"):
        _reserve(tournament, 2, email="LUCA1@example.com")


def test_the_desk_registers_a_reservation_in_one_action(client, tournament, desk):
    _open(tournament)
    reservation = _reserve(tournament, 1, phone="+39 333 123 4567")
    client.force_login(desk)
    # The desk scans the confirmation's QR code: its address finds the reservation.
    scanned = f"http://room.example/p/{tournament.slug}/reserve/{reservation.code}/"
    page = client.get(reverse("desk_reservations", args=[tournament.slug]), {"q": scanned})
    assert page.context["focus"] == reservation.pk
    assert b"autofocus" in page.content
    assert b"+39 *** *** 4567" in page.content and b"333 123" not in page.content
    url = reverse("reservation_register", args=[tournament.slug, reservation.pk])
    response = client.post(url, {"payment_method": "card"})
    entry = Entry.objects.get(tournament=tournament)
    assert response["Location"] == reverse("seat_card", args=[tournament.slug, entry.number])
    assert Seat.objects.filter(entry=entry).exists()
    assert entry.payment_method == "card" and entry.paid == tournament.buy_in_total
    player = entry.player
    assert (player.first_name, player.last_name) == ("Luca", "Bianchi1")
    assert player.contact_consent and player.phone == "+39 333 123 4567"
    reservation.refresh_from_db()
    assert reservation.status == Reservation.Status.ARRIVED and reservation.entry == entry
    # Twice: refused, nothing more sold.
    client.post(url)
    assert Entry.objects.filter(tournament=tournament).count() == 1
    # Undo in the log's order: the reservation opens again, then the entry goes.
    arrive = Event.objects.get(action="reservation.arrive")
    event_undo(event_id=arrive.pk, tournament=tournament, actor=desk, now=NOW)
    entry_event = Event.objects.get(action="entry.register")
    event_undo(event_id=entry_event.pk, tournament=tournament, actor=desk, now=NOW)
    reservation.refresh_from_db()
    assert reservation.status == Reservation.Status.HELD and reservation.entry is None


def test_a_known_player_is_found_not_made_again(tournament, td):
    _open(tournament)
    known = make_player("Luca", "Bianchi1", email="luca1@example.com", contact_consent=True)
    reservation = _reserve(tournament, 1)
    registration = services.reservation_arrive(
        tournament=tournament, reservation=reservation, actor=td, now=NOW
    )
    assert registration.entry.player == known
    assert Player.objects.count() == 1


def test_the_hold_is_released_when_its_level_starts(tournament, td, frozen_clock):
    _open(tournament, seats=1, level=2)
    held, waiting = _reserve(tournament, 1), _reserve(tournament, 2)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    frozen_clock.move_to(NOW + 19 * MIN)
    announcement_services.clock_catch_up(tournament=tournament, now=NOW + 19 * MIN)
    assert Reservation.objects.get(pk=held.pk).status == Reservation.Status.HELD
    # Level 2 begins: the clock's level change (here a clock read, as with no broker).
    frozen_clock.move_to(NOW + 21 * MIN)
    tournament.refresh_from_db()
    assert announcement_services.clock_catch_up(tournament=tournament, now=NOW + 21 * MIN)
    held.refresh_from_db()
    waiting.refresh_from_db()
    assert held.status == waiting.status == Reservation.Status.RELEASED
    assert held.no_show and not waiting.no_show
    assert held.player is not None and waiting.player is None
    # Reservations are closed now; undoing the release opens them again.
    with pytest.raises(DomainError, match="hold level"):
        _reserve(tournament, 3, now=NOW + 21 * MIN)
    release = Event.objects.get(action="reservation.release")
    event_undo(event_id=release.pk, tournament=tournament, actor=td, now=NOW + 22 * MIN)
    held.refresh_from_db()
    assert held.status == Reservation.Status.HELD and not held.no_show


def test_repeated_no_shows_flag_the_player_per_the_rooms_rule(tournament, td):
    ReservationRules.objects.create(no_show_limit=2, no_show_days=60)
    player = make_player("Anna", "Verdi", email="anna@example.com", contact_consent=True)
    for days in (95, 30, 1):  # the first is older than the rule's window
        event = make_tournament_like(tournament, td, days)
        _open(event, seats=5, level=1)
        reservation = services.reservation_make(
            tournament=event, player=player, accepted_terms=True, now=NOW - dt.timedelta(days=days)
        )
        holds.release_due(tournament=event, level=1, now=NOW - dt.timedelta(days=days))
        player.refresh_from_db()
        if days == 30:
            assert player.no_shows_flagged_at is None  # one no-show within 60 days
    assert reservation.player == player
    assert player.no_shows_flagged_at == NOW - dt.timedelta(days=1)


def make_tournament_like(tournament, td, days):
    from tests.conftest import make_tournament

    return make_tournament(td, tables=1, name=f"Event {days}", date=NOW.date())


def test_contact_masked_revealed_by_the_manager_logged_exported_and_erased(client, tournament, td):
    assert mask_phone("+39 333 123 4567") == "+39 *** *** 4567"
    assert mask_email("mario@example.com") == "m***@example.com"
    player = make_player(
        "Mario", "Neri", phone="+39 333 123 4567", email="mario@example.com", contact_consent=True
    )
    entry_player = player
    from tournaments.services import entries

    entries.entry_register(tournament=tournament, player=entry_player, actor=td, now=NOW)
    _open(tournament)
    _reserve(tournament, 9, first_name="Mario", last_name="Neri", email="mario@example.com")
    client.force_login(td)
    page = client.get(reverse("person", args=[player.pk]))
    assert b"+39 *** *** 4567" in page.content and b"m***@example.com" in page.content
    assert b"mario@example.com" not in page.content and b"333 123" not in page.content
    # The event's TD may not reveal; the room's manager may, and the log says so.
    assert client.post(reverse("person_contact", args=[player.pk])).status_code == 403
    manager = make_manager(make_user("boss"))
    client.force_login(manager)
    shown = client.post(reverse("person_contact", args=[player.pk]))
    assert b"mario@example.com" in shown.content
    assert RoomEvent.objects.filter(action="room.contact_reveal", actor=manager).exists()
    # The export holds the contact with its consent, and his reservations.
    data = json.loads(client.get(reverse("person_export", args=[player.pk])).content)
    assert data["player"]["email"] == "mario@example.com" and data["player"]["contact_consent"]
    Entry.objects.filter(player=player).update(status=Entry.Status.ELIMINATED)
    people_services.player_erase(player=player, actor=manager, now=NOW)
    player.refresh_from_db()
    assert (player.phone, player.email, player.contact_consent) == ("", "", False)
    reservation = Reservation.objects.get()
    assert (reservation.email, reservation.phone) == ("", "")
    assert "Neri" not in reservation.last_name + reservation.first_name


def test_without_consent_saving_the_profile_keeps_no_contact(tournament, td):
    player = make_player("Sara", "Gialli")
    people_services.player_update(
        player=player, actor=td, fields={"phone": "+39 333 000 1111"}, now=NOW
    )
    player.refresh_from_db()
    assert player.phone == ""
    people_services.player_update(
        player=player,
        actor=td,
        fields={"phone": "+39 333 000 1111", "contact_consent": True},
        now=NOW,
    )
    player.refresh_from_db()
    assert player.phone == "+39 333 000 1111" and player.contact_consent_at is not None

"""Staff accounts in the app: create, disable, reset, roles per event, a dealer tablet's
PIN (hashed, rate-limited), every action logged under its person. The room's manager
manages them (tests/tournaments/views/test_accounts_trust.py: who may not)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from room.models import RoomEvent
from room.services import accounts
from tests.conftest import NOW, make_manager, make_user
from tournaments.errors import DomainError
from tournaments.models import Event, StaffAssignment, StaffPin
from tournaments.selectors import pins

pytestmark = pytest.mark.django_db

PASSWORD = "Tavolo-Verde-42"


@pytest.fixture
def manager(db):
    return make_manager(make_user("boss"))


def test_the_manager_creates_disables_and_resets_an_account_in_the_log(manager):
    user = accounts.account_create(actor=manager, username="gigi", password=PASSWORD, now=NOW)
    assert user.check_password(PASSWORD) and not user.is_staff
    accounts.account_active(actor=manager, username="gigi", active=False, now=NOW)
    user.refresh_from_db()
    assert not user.is_active
    accounts.account_reset(actor=manager, username="gigi", password="Nuova-Parola-77", now=NOW)
    user.refresh_from_db()
    assert user.check_password("Nuova-Parola-77")
    logged = list(RoomEvent.objects.order_by("pk").values_list("action", "actor__username"))
    assert logged == [
        ("room.account_create", "boss"),
        ("room.account_disable", "boss"),
        ("room.account_reset", "boss"),
    ]


def test_weak_passwords_and_accounts_of_an_events_td_who_is_no_manager_are_refused(td, manager):
    with pytest.raises(DomainError):
        accounts.account_create(actor=manager, username="gigi", password="123", now=NOW)
    assert not get_user_model().objects.filter(username="gigi").exists()
    make_user("plain")
    with pytest.raises(DomainError, match="room manager"):
        accounts.account_active(actor=td, username="plain", active=False, now=NOW)
    with pytest.raises(DomainError, match="room manager"):
        accounts.account_create(actor=td, username="gigi", password=PASSWORD, now=NOW)


def test_a_role_per_event_goes_to_that_events_log_and_the_rooms(tournament, manager, td):
    accounts.account_create(actor=manager, username="gigi", password=PASSWORD, now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="floor", now=NOW)
    assert StaffAssignment.objects.get(user__username="gigi").role == "floor"
    assert Event.objects.filter(
        action="staff.assign", actor=manager, data__username="gigi"
    ).exists()
    assert RoomEvent.objects.filter(action="room.role_give", actor=manager).exists()
    outsider_td = make_user("td2")
    with pytest.raises(DomainError):
        accounts.role_give(
            actor=outsider_td, tournament=tournament, username="gigi", role="td", now=NOW
        )


def test_the_pin_is_hashed_and_only_for_a_dealer_or_a_floor(tournament, manager):
    accounts.account_create(actor=manager, username="gigi", password=PASSWORD, now=NOW)
    with pytest.raises(DomainError):
        accounts.pin_set(actor=manager, username="gigi", pin="4711", now=NOW)  # no role yet
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="floor", now=NOW)
    pin = accounts.pin_set(actor=manager, username="gigi", pin="4711", now=NOW)
    assert "4711" not in pin.pin_hash
    assert pins.pin_check("gigi", "4711").username == "gigi"
    assert pins.pin_check("gigi", "1234") is None
    with pytest.raises(DomainError):
        accounts.pin_set(actor=manager, username="gigi", pin="12", now=NOW)
    accounts.account_reset(actor=manager, username="gigi", password="Nuova-Parola-77", now=NOW)
    assert not StaffPin.objects.exists()  # a reset drops the PIN


def test_giving_an_events_td_role_drops_the_pin(tournament, manager):
    accounts.account_create(actor=manager, username="gigi", password=PASSWORD, now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="floor", now=NOW)
    accounts.pin_set(actor=manager, username="gigi", pin="4711", now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="td", now=NOW)
    assert not StaffPin.objects.exists()


def _dealer_with_pin(manager, tournament):
    accounts.account_create(actor=manager, username="gigi", password=PASSWORD, now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="floor", now=NOW)
    accounts.pin_set(actor=manager, username="gigi", pin="4711", now=NOW)


def test_a_dealer_unlocks_the_table_with_his_pin_and_wrong_pins_are_limited(
    client, tournament, manager
):
    _dealer_with_pin(manager, tournament)
    url = reverse("pin_unlock", args=[tournament.slug, 2])
    for _ in range(5):
        assert client.post(url, {"username": "gigi", "pin": "0000"}).status_code == 403
    assert client.post(url, {"username": "gigi", "pin": "4711"}).status_code == 429
    client.cookies.clear()


def test_the_right_pin_opens_the_dealer_tablet(client, tournament, manager):
    _dealer_with_pin(manager, tournament)
    url = reverse("pin_unlock", args=[tournament.slug, 2])
    response = client.post(url, {"username": "gigi", "pin": "4711"})
    assert response["Location"] == reverse("dealer_tablet", args=[tournament.slug, 2])
    assert client.get(response["Location"]).status_code == 200


def test_a_pin_page_of_a_table_that_does_not_exist_is_not_found(client, tournament):
    assert client.get(reverse("pin_unlock", args=[tournament.slug, 99])).status_code == 404
    assert client.get(reverse("cash_pin_unlock", args=[99])).status_code == 404


def test_the_accounts_page(client, tournament, td, floor, manager):
    for nobody in (floor, td):
        client.force_login(nobody)
        assert client.get(reverse("staff_accounts")).status_code == 403
    client.force_login(manager)
    client.post(
        reverse("staff_accounts"),
        {"action": "create", "username": "gigi", "password": PASSWORD},
    )
    client.post(
        reverse("staff_accounts"),
        {"action": "assign", "username": "gigi", "slug": tournament.slug, "role": "desk"},
    )
    page = client.get(reverse("staff_accounts")).content.decode()
    assert "gigi" in page and "Registration desk" in page
    bad = client.post(reverse("staff_accounts"), {"action": "create", "username": "a b"})
    assert bad.status_code == 302

"""The room's TD gives and takes room roles on /room/staff/; each change is logged and
undoable, and a later change must be undone first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import RoomEvent, RoomStaff
from tables.permissions import room_role_for
from tests.conftest import make_user
from tournaments.models import Role

pytestmark = pytest.mark.django_db


def _room_td():
    boss = make_user("room-boss")
    RoomStaff.objects.create(user=boss, role=Role.TD)
    return boss


def test_the_room_td_gives_a_role_and_the_person_can_open_the_pit(client):
    boss, dealer = _room_td(), make_user("pit-boss")
    client.force_login(boss)
    response = client.post(reverse("room_staff"), {"username": "pit-boss", "role": "floor"})
    assert response.status_code == 302
    assert room_role_for(dealer) == Role.FLOOR
    page = client.get(reverse("room_staff")).content.decode()
    assert "pit-boss" in page and "Floor" in page and ">floor<" not in page
    client.force_login(dealer)
    assert client.get(reverse("pit_home")).status_code == 200
    assert reverse("pit_home") in client.get(reverse("tournament_list")).content.decode()


def test_undo_puts_back_the_role_before_and_refuses_past_a_later_change(client):
    boss, clerk = _room_td(), make_user("clerk")
    client.force_login(boss)
    client.post(reverse("room_staff"), {"username": "clerk", "role": "desk"})
    first = RoomEvent.objects.get(action="room.staff")
    client.post(reverse("room_staff"), {"username": "clerk", "role": "floor"})
    second = RoomEvent.objects.filter(action="room.staff").latest("pk")

    response = client.post(reverse("room_staff_undo", args=[first.pk]), follow=True)
    assert "undo that first" in response.content.decode()
    assert room_role_for(clerk) == Role.FLOOR  # nothing changed

    client.post(reverse("room_staff_undo", args=[second.pk]))
    assert room_role_for(clerk) == Role.DESK
    client.post(reverse("room_staff_undo", args=[first.pk]))
    assert room_role_for(clerk) is None


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"username": "nobody", "role": "floor"}, "There is no active account named nobody."),
        ({"username": "room-boss", "role": "desk"}, "You cannot change your own room role."),
        ({"username": "x" * 200, "role": "floor"}, "Username"),
        ({"username": "clerk", "role": "king"}, "Role"),
    ],
)
def test_bad_input_is_a_message_and_changes_nothing(client, form, message):
    boss = _room_td()
    make_user("clerk")
    client.force_login(boss)
    response = client.post(reverse("room_staff"), form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert list(RoomStaff.objects.values_list("user__username", flat=True)) == ["room-boss"]
    assert not RoomEvent.objects.exists()


def test_only_the_room_td_may_open_the_staff_page(client):
    floor = make_user("room-floor")
    RoomStaff.objects.create(user=floor, role=Role.FLOOR)
    assert client.get(reverse("room_staff")).status_code == 302  # to the login
    client.force_login(floor)
    assert client.get(reverse("room_staff")).status_code == 403
    assert client.post(reverse("room_staff"), {"username": "room-floor"}).status_code == 403

"""The room's manager gives and takes room roles on /room/staff/; each change is logged and
undoable, and a later change must be undone first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from room.models import RoomEvent
from tests.conftest import make_tournament, make_user
from tournaments.models import RoomRole, RoomStaff
from tournaments.permissions import room_roles_for

pytestmark = pytest.mark.django_db


def _manager():
    boss = make_user("room-boss")
    RoomStaff.objects.create(user=boss, role=RoomRole.MANAGER)
    return boss


def test_the_manager_gives_a_role_and_the_person_can_open_the_pit(client):
    boss, supervisor = _manager(), make_user("pit-boss")
    client.force_login(boss)
    response = client.post(
        reverse("room_staff"), {"username": "pit-boss", "role": "pit", "action": "give"}
    )
    assert response.status_code == 302
    assert room_roles_for(supervisor) == {RoomRole.PIT}
    page = client.get(reverse("room_staff")).content.decode()
    assert "pit-boss" in page and "Pit supervisor" in page and ">pit<" not in page
    client.force_login(supervisor)
    assert client.get(reverse("pit_home")).status_code == 200
    assert reverse("pit_home") in client.get(reverse("tournament_list")).content.decode()
    assert client.get(reverse("cash_board")).status_code == 403


def test_a_person_holds_several_room_roles(client):
    boss, clerk = _manager(), make_user("clerk")
    client.force_login(boss)
    for role in ("books", "cash"):
        client.post(reverse("room_staff"), {"username": "clerk", "role": role, "action": "give"})
    assert room_roles_for(clerk) == {RoomRole.BOOKS, RoomRole.CASH}
    client.post(reverse("room_staff"), {"username": "clerk", "role": "cash", "action": "take"})
    assert room_roles_for(clerk) == {RoomRole.BOOKS}


def test_undo_takes_back_a_role_and_refuses_past_a_later_change(client):
    boss, clerk = _manager(), make_user("clerk")
    client.force_login(boss)
    client.post(reverse("room_staff"), {"username": "clerk", "role": "cash", "action": "give"})
    first = RoomEvent.objects.get(action="room.staff")
    client.post(reverse("room_staff"), {"username": "clerk", "role": "cash", "action": "take"})
    second = RoomEvent.objects.filter(action="room.staff").latest("pk")

    response = client.post(reverse("room_staff_undo", args=[first.pk]), follow=True)
    assert "undo that first" in response.content.decode()
    assert room_roles_for(clerk) == frozenset()  # nothing changed

    client.post(reverse("room_staff_undo", args=[second.pk]))
    assert room_roles_for(clerk) == {RoomRole.CASH}
    client.post(reverse("room_staff_undo", args=[first.pk]))
    assert room_roles_for(clerk) == frozenset()


@pytest.mark.parametrize(
    ("form", "message"),
    [
        (
            {"username": "nobody", "role": "cash", "action": "give"},
            "There is no active account named nobody.",
        ),
        (
            {"username": "room-boss", "role": "pit", "action": "give"},
            "You cannot change your own room roles.",
        ),
        ({"username": "x" * 200, "role": "cash", "action": "give"}, "Username"),
        ({"username": "clerk", "role": "king", "action": "give"}, "Room role"),
        ({"username": "clerk", "role": "cash", "action": "take"}, "clerk is not Cash-room floor."),
    ],
)
def test_bad_input_is_a_message_and_changes_nothing(client, form, message):
    boss = _manager()
    make_user("clerk")
    client.force_login(boss)
    response = client.post(reverse("room_staff"), form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert list(RoomStaff.objects.values_list("user__username", flat=True)) == ["room-boss"]
    assert not RoomEvent.objects.exists()


def test_a_td_of_an_event_is_no_dealer(client):
    boss = _manager()
    td = make_user("event-td")
    make_tournament(td)
    client.force_login(boss)
    response = client.post(
        reverse("room_staff"), {"username": "event-td", "role": "dealer", "action": "give"}
    )
    assert "is an account of its own" in response.content.decode()
    assert room_roles_for(td) == frozenset()


@pytest.mark.parametrize("role", [r for r in RoomRole.values if r != RoomRole.MANAGER])
def test_only_the_manager_may_open_the_staff_page(client, role):
    other = make_user("room-other")
    RoomStaff.objects.create(user=other, role=role)
    assert client.get(reverse("room_staff")).status_code == 302  # to the login
    client.force_login(other)
    assert client.get(reverse("room_staff")).status_code == 403
    form = {"username": "room-other", "role": "manager", "action": "give"}
    assert client.post(reverse("room_staff"), form).status_code == 403
    assert room_roles_for(other) == {role}


def test_is_staff_and_an_events_td_hold_no_room_role(client):
    staff = make_user("staffer", staff=True)
    td = make_user("event-td2", staff=True)
    make_tournament(td)
    for user in (staff, td):
        client.force_login(user)
        assert room_roles_for(user) == frozenset()
        for page in ("cash_board", "pit_home", "room_staff", "staff_accounts", "night_books"):
            assert client.get(reverse(page)).status_code == 403, page
        assert client.get(reverse("tournament_create")).status_code == 403

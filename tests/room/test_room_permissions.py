"""Room roles: who holds which, read fresh on every ask."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from tests.conftest import make_user
from tournaments import permissions
from tournaments.models import RoomRole, RoomStaff

pytestmark = pytest.mark.django_db


def test_room_roles_follow_the_person():
    pit = make_user("pit")
    assert permissions.room_roles_for(pit) == frozenset()
    with pytest.raises(PermissionDenied):
        permissions.require_room_role(pit, permissions.PIT)
    staff = RoomStaff.objects.create(user=pit, role=RoomRole.PIT)
    assert permissions.require_room_role(pit, permissions.PIT) == {RoomRole.PIT}
    with pytest.raises(PermissionDenied):
        permissions.require_room_role(pit, permissions.MANAGER)
    with pytest.raises(PermissionDenied):
        permissions.require_room_role(pit, permissions.CASH)
    staff.delete()  # a removed role counts at the very next ask
    assert permissions.room_roles_for(pit) == frozenset()


def test_a_disabled_account_holds_no_room_role():
    clerk = make_user("cashclerk")
    RoomStaff.objects.create(user=clerk, role=RoomRole.BOOKS)
    clerk.is_active = False
    assert permissions.room_roles_for(clerk) == frozenset()


def test_a_superuser_holds_every_role_but_the_dealers():
    boss = get_user_model().objects.create_superuser("boss", password="pw-boss")
    assert permissions.room_roles_for(boss) == frozenset(RoomRole.values) - {RoomRole.DEALER}

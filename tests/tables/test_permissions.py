"""Room-level roles (cash room, pit): who holds which, read fresh on every ask."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from tables import permissions
from tables.models import RoomStaff
from tests.conftest import make_user
from tournaments.models import Role

pytestmark = pytest.mark.django_db


def test_room_roles_follow_the_person():
    pit = make_user("pit")
    assert permissions.room_role_for(pit) is None
    with pytest.raises(PermissionDenied):
        permissions.require_room_role(pit, permissions.FLOOR)
    staff = RoomStaff.objects.create(user=pit, role=Role.FLOOR)
    assert permissions.require_room_role(pit, permissions.FLOOR) == Role.FLOOR
    with pytest.raises(PermissionDenied):
        permissions.require_room_role(pit, permissions.TD)
    staff.delete()  # a removed role counts at the very next ask
    assert permissions.room_role_for(pit) is None


def test_a_disabled_account_holds_no_room_role():
    desk = make_user("cashdesk")
    RoomStaff.objects.create(user=desk, role=Role.DESK)
    desk.is_active = False
    assert permissions.room_role_for(desk) is None

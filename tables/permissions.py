"""Who may do what in the room itself (cash games, the pit, room-level tools).

Room roles are the tournament roles' names (TD, floor, desk) held once for the whole room
(`RoomStaff`); a superuser is the room's TD. Views and consumers ask through these helpers.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from tables.models import RoomStaff
from tournaments.models import Role

TD = frozenset({Role.TD})
FLOOR = frozenset({Role.TD, Role.FLOOR})
DESK = frozenset({Role.TD, Role.DESK})
STAFF = frozenset({Role.TD, Role.FLOOR, Role.DESK})


def room_role_for(user) -> str | None:
    """The user's role in the room, or None. Read fresh on every call (a socket asks on
    every message, so a changed or removed role takes effect at once)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return Role.TD
    return RoomStaff.objects.filter(user=user).values_list("role", flat=True).first()


def require_room_role(user, roles: frozenset[str]) -> str:
    """The user's room role if it is one of `roles`; PermissionDenied otherwise."""
    role = room_role_for(user)
    if role not in roles:
        raise PermissionDenied
    return role

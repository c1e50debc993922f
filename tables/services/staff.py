"""Who works the room: room-level roles (cash room, pit) given and taken by the room's TD.

Each change is a row of the room's log and undoable: the undo puts back the role the
person held before (or none), and refuses when a later change of the same person's role
came after it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tables.events import room_event_log, undoes
from tables.models import RoomEvent, RoomStaff
from tournaments.errors import CannotUndo, DomainError

STAFF_ACTION = "room.staff"


def _role_of(user_id: int) -> str | None:
    return RoomStaff.objects.filter(user_id=user_id).values_list("role", flat=True).first()


def _apply(user_id: int, role: str | None) -> None:
    if role is None:
        RoomStaff.objects.filter(user_id=user_id).delete()
    else:
        RoomStaff.objects.update_or_create(user_id=user_id, defaults={"role": role})


@transaction.atomic
def room_staff_set(*, actor: Any, username: str, role: str | None, now: datetime) -> RoomEvent:
    """Give `username` the room role `role` (None: take it away)."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise DomainError(_("There is no active account named %(name)s.") % {"name": username})
    before = _role_of(user.pk)
    if before == role:
        raise DomainError(_("%(name)s already has that role in the room.") % {"name": username})
    if actor is not None and user.pk == actor.pk and not actor.is_superuser:
        raise DomainError(_("You cannot change your own room role."))
    _apply(user.pk, role)
    return room_event_log(
        actor=actor,
        action=STAFF_ACTION,
        data={"user": user.pk, "username": username, "role": role, "before": before},
        now=now,
    )


@undoes(STAFF_ACTION)
def _undo_staff(event: RoomEvent, actor: Any, now: datetime) -> None:
    user_id = event.data.get("user")
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        raise CannotUndo(reason=_("the log row does not name a person"))
    later = (
        RoomEvent.objects.filter(action=STAFF_ACTION, pk__gt=event.pk, undone_at__isnull=True)
        .filter(data__user=user_id)
        .exists()
    )
    if later or _role_of(user_id) != event.data.get("role"):
        raise CannotUndo(
            reason=_("this person's room role was changed again since: undo that first")
        )
    _apply(user_id, event.data.get("before"))

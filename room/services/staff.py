"""Who works the room: room roles given and taken by the room's manager.

Each change is a row of the room's log and undoable: the undo takes back a role given or
gives back a role taken, and refuses when a later change of the same person's same role
came after it. Nobody changes his own roles; only a superuser changes a superuser's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, undoes
from room.models import RoomEvent
from tournaments import permissions
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import RoomRole, RoomStaff

STAFF_ACTION = "room.staff"


def _holds(user_id: int, role: str) -> bool:
    return RoomStaff.objects.filter(user_id=user_id, role=role).exists()


def _apply(user_id: int, role: str, given: bool) -> None:
    if given:
        try:
            with transaction.atomic():
                RoomStaff.objects.create(user_id=user_id, role=role)
        except IntegrityError:
            pass  # held already (two tabs at once): the same end either way
    else:
        RoomStaff.objects.filter(user_id=user_id, role=role).delete()


@transaction.atomic
def room_role_set(*, actor: Any, username: str, role: str, given: bool, now: datetime) -> RoomEvent:
    """Give `username` the room role `role` (`given`), or take it away."""
    if role not in RoomRole.values:
        raise DomainError(_("Choose a room role."))
    user = (
        get_user_model()
        .objects.select_for_update()
        .filter(username=username, is_active=True)
        .first()
    )
    if user is None:
        raise DomainError(_("There is no active account named %(name)s.") % {"name": username})
    if actor is not None and user.pk == actor.pk:
        raise DomainError(_("You cannot change your own room roles."))
    if user.is_superuser and not getattr(actor, "is_superuser", False):
        raise DomainError(_("Only an administrator changes this account."))
    label = RoomRole(role).label
    if _holds(user.pk, role) == given:
        message = _("%(name)s is already %(role)s.") if given else _("%(name)s is not %(role)s.")
        raise DomainError(message % {"name": username, "role": label})
    if given and role == RoomRole.DEALER and _runs_something(user):
        raise DomainError(
            _("%(name)s runs events or the room: a dealer's account is an account of its own.")
            % {"name": username}
        )
    _apply(user.pk, role, given)
    return room_event_log(
        actor=actor,
        action=STAFF_ACTION,
        data={"user": user.pk, "username": username, "role": role, "given": given},
        now=now,
    )


def _runs_something(user: Any) -> bool:
    """A TD of an event or a room manager: such an account never holds a dealer's PIN."""
    return permissions.runs_events_or_room(user)


@undoes(STAFF_ACTION)
def _undo_staff(event: RoomEvent, actor: Any, now: datetime) -> None:
    user_id, role = event.data.get("user"), event.data.get("role")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or role not in RoomRole.values:
        raise CannotUndo(reason=_("the log row does not name a person and a role"))
    given = bool(event.data.get("given"))
    later = (
        RoomEvent.objects.filter(action=STAFF_ACTION, pk__gt=event.pk, undone_at__isnull=True)
        .filter(data__user=user_id, data__role=role)
        .exists()
    )
    if later or _holds(user_id, role) != given:
        raise CannotUndo(
            reason=_("this person's room role was changed again since: undo that first")
        )
    if actor is not None and user_id == actor.pk:
        raise CannotUndo(reason=_("you cannot change your own room roles"))
    _apply(user_id, role, not given)

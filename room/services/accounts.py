"""Staff accounts in the app: the room's manager creates, disables, enables and resets
staff accounts, gives them roles per event, and sets a dealer's tablet PIN.

Only the room's manager (a superuser counts) manages accounts, never his own, and never
one that holds what he does not hold: a room role he does not govern, a role in an event
he does not run, a superuser's rights (only a superuser changes a superuser's account).
Every change is a row of the room's log (room.*) under the person who made it; a role
given in an event also goes to that event's log (setup_services.staff_assign).

A PIN is stored hashed (Django's password hashers). It unlocks one table's tablet, so only
an account that runs no event and not the room may hold or use one
(`tournaments.permissions.runs_events_or_room`), and only one that may hold a tablet: a dealer
of the room or the floor of an event.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from room.events import room_event_log
from tournaments import errors, permissions
from tournaments.models import Role, RoomRole, RoomStaff, StaffAssignment, StaffPin, Tournament
from tournaments.services import setup as setup_services

PIN_DIGITS = (4, 8)

# The room's log rows of this page, the words they are shown in on it.
ACTIONS = (
    "room.account_create",
    "room.account_enable",
    "room.account_disable",
    "room.account_reset",
    "room.pin_set",
    "room.role_give",
)


def may_manage(user) -> bool:
    """Who manages staff accounts: the room's manager (a superuser counts)."""
    return permissions.is_manager(user)


def _require_manager(actor) -> None:
    if not may_manage(actor):
        raise errors.DomainError(_("Only the room manager manages staff accounts."))


def _account(username: str, *, lock: bool = False):
    users = get_user_model().objects.filter(username=username)
    user = (users.select_for_update() if lock else users).first()
    if user is None:
        raise errors.DomainError(_("No staff account is called %(name)s."), name=username)
    return user


def _governed_room_roles(actor) -> frozenset[str]:
    """The room roles whose holders the actor may manage: every one for the manager (he
    gives and takes them all), only his own for anybody else."""
    held = permissions.room_roles_for(actor)
    return frozenset(RoomRole.values) if RoomRole.MANAGER in held else held


def _protect(actor, user) -> None:
    """Refuse unless the actor manages accounts and holds everything `user` holds."""
    _require_manager(actor)
    if user.pk == actor.pk:
        raise errors.DomainError(_("You cannot change your own account here."))
    if user.is_superuser and not actor.is_superuser:
        raise errors.DomainError(_("Only an administrator changes this account."))
    # Read as stored, not through room_roles_for: a disabled account's roles count too.
    room_roles = set(RoomStaff.objects.filter(user=user).values_list("role", flat=True))
    mine = permissions.events_for(actor, permissions.TD)
    foreign_event = StaffAssignment.objects.filter(user=user).exclude(tournament__in=mine)
    if not room_roles <= _governed_room_roles(actor) or foreign_event.exists():
        raise errors.DomainError(
            _("%(name)s holds a role you do not hold: only who holds it changes this account."),
            name=user.get_username(),
        )


def _password(password: str, user=None) -> str:
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise errors.DomainError(" ".join(exc.messages)) from None
    return password


def _log(actor, action: str, now: datetime, **data: Any) -> None:
    room_event_log(actor=actor, action=action, data=data, now=now, undoable=False)


@transaction.atomic
def account_create(*, actor, username: str, password: str, now: datetime):
    _require_manager(actor)
    if get_user_model().objects.filter(username=username).exists():
        raise errors.DomainError(_("An account called %(name)s exists already."), name=username)
    user = get_user_model()(username=username)
    user.set_password(_password(password, user))
    user.save()
    _log(actor, "room.account_create", now, username=username)
    return user


@transaction.atomic
def account_active(*, actor, username: str, active: bool, now: datetime):
    """Disable (active=False) or enable an account; a disabled one cannot log in."""
    user = _account(username, lock=True)
    _protect(actor, user)
    user.is_active = active
    user.save(update_fields=["is_active"])
    _log(actor, "room.account_enable" if active else "room.account_disable", now, username=username)
    return user


@transaction.atomic
def account_reset(*, actor, username: str, password: str, now: datetime):
    """Give the account a new password (and drop its PIN: it is set again)."""
    user = _account(username, lock=True)
    _protect(actor, user)
    user.set_password(_password(password, user))
    user.save(update_fields=["password"])
    StaffPin.objects.filter(user=user).delete()
    _log(actor, "room.account_reset", now, username=username)
    return user


def may_hold_a_pin(user) -> bool:
    """A dealer of the room or the floor of an event, who runs no event and not the room."""
    if permissions.runs_events_or_room(user):
        return False
    return (
        RoomStaff.objects.filter(user=user, role=RoomRole.DEALER).exists()
        or StaffAssignment.objects.filter(user=user, role=Role.FLOOR).exists()
    )


@transaction.atomic
def pin_set(*, actor, username: str, pin: str, now: datetime) -> StaffPin:
    user = _account(username, lock=True)
    _protect(actor, user)
    low, high = PIN_DIGITS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise errors.DomainError(_("A PIN is 4 to 8 digits."))
    if permissions.runs_events_or_room(user):
        raise errors.DomainError(
            _("%(name)s runs events or the room: such an account logs in with its password."),
            name=username,
        )
    if not may_hold_a_pin(user):
        raise errors.DomainError(
            _(
                "A PIN unlocks a table's tablet: give %(name)s the dealer's room role or an "
                "event's floor role first."
            ),
            name=username,
        )
    staff_pin, _created = StaffPin.objects.update_or_create(
        user=user, defaults={"pin_hash": make_password(pin), "set_at": now}
    )
    _log(actor, "room.pin_set", now, username=username)
    return staff_pin


@transaction.atomic
def role_give(*, actor, tournament: Tournament, username: str, role: str, now: datetime):
    """A role in one event, logged in that event's log and in the room's, under the actor.
    An account given an event's TD role loses its PIN: it logs in with its password."""
    if permissions.role_for(actor, tournament) != Role.TD:
        raise errors.DomainError(_("You are not the TD of %(event)s."), event=tournament.name)
    user = _account(username, lock=True)
    _protect(actor, user)
    assignment = setup_services.staff_assign(
        tournament=tournament, actor=actor, username=username, role=role, now=now
    )
    if role == Role.TD:
        StaffPin.objects.filter(user=user).delete()
    _log(
        actor,
        "room.role_give",
        now,
        username=username,
        event=tournament.name,
        slug=tournament.slug,
        role=role,
    )
    return assignment

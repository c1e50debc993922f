"""Staff accounts in the app (issue 16, item 6): the TD creates, disables, enables and
resets staff accounts, gives them roles per event, and sets a dealer's tablet PIN.

Account actions belong to no tournament: they are logged in the room's log (room.*),
under the person who did them; a role given in an event goes to that event's log
(setup_services.staff_assign). A PIN is stored hashed (Django's password hashers) and
only accounts that cannot create tournaments or run the room may have one.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tables.events import room_event_log
from tournaments import errors, permissions
from tournaments.models import StaffPin, Tournament
from tournaments.services import setup as setup_services

PIN_DIGITS = (4, 8)


def may_manage(user) -> bool:
    """Who manages staff accounts: superusers and those who may create tournaments."""
    return permissions.can_create_tournaments(user)


def _account(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise errors.DomainError(_("No staff account is called %(name)s."), name=username)
    return user


def _protect(actor, user) -> None:
    """A TD manages plain staff accounts; superusers and other TDs only a superuser."""
    if user.pk == getattr(actor, "pk", None):
        raise errors.DomainError(_("You cannot change your own account here."))
    if (user.is_superuser or user.is_staff) and not actor.is_superuser:
        raise errors.DomainError(_("Only an administrator changes this account."))


def _password(password: str, user=None) -> str:
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise errors.DomainError(" ".join(exc.messages)) from None
    return password


@transaction.atomic
def account_create(*, actor, username: str, password: str, now: datetime):
    if get_user_model().objects.filter(username=username).exists():
        raise errors.DomainError(_("An account called %(name)s exists already."), name=username)
    user = get_user_model()(username=username)
    user.set_password(_password(password, user))
    user.save()
    room_event_log(
        actor=actor,
        action="room.account_create",
        data={"username": username},
        now=now,
        undoable=False,
    )
    return user


@transaction.atomic
def account_active(*, actor, username: str, active: bool, now: datetime):
    """Disable (active=False) or enable an account; a disabled one cannot log in."""
    user = _account(username)
    _protect(actor, user)
    user.is_active = active
    user.save(update_fields=["is_active"])
    room_event_log(
        actor=actor,
        action="room.account_enable" if active else "room.account_disable",
        data={"username": username},
        now=now,
        undoable=False,
    )
    return user


@transaction.atomic
def account_reset(*, actor, username: str, password: str, now: datetime):
    """Give the account a new password (and drop its PIN: it is set again)."""
    user = _account(username)
    _protect(actor, user)
    user.set_password(_password(password, user))
    user.save(update_fields=["password"])
    StaffPin.objects.filter(user=user).delete()
    room_event_log(
        actor=actor,
        action="room.account_reset",
        data={"username": username},
        now=now,
        undoable=False,
    )
    return user


@transaction.atomic
def pin_set(*, actor, username: str, pin: str, now: datetime) -> StaffPin:
    user = _account(username)
    _protect(actor, user)
    low, high = PIN_DIGITS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        raise errors.DomainError(_("A PIN is 4 to 8 digits."))
    if user.is_superuser or user.is_staff:
        raise errors.DomainError(_("An account that runs events logs in with its password."))
    staff_pin, _created = StaffPin.objects.update_or_create(
        user=user, defaults={"pin_hash": make_password(pin), "set_at": now}
    )
    room_event_log(
        actor=actor,
        action="room.pin_set",
        data={"username": username},
        now=now,
        undoable=False,
    )
    return staff_pin


def pin_check(username: str, pin: str):
    """The active account whose PIN this is, or None (same work either way)."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    staff_pin = StaffPin.objects.filter(user=user).first() if user is not None else None
    if staff_pin is None:
        make_password(pin)  # as slow as a real check: no telling names apart by time
        return None
    if user.is_superuser or user.is_staff:
        return None
    return user if check_password(pin, staff_pin.pin_hash) else None


def role_give(*, actor, tournament: Tournament, username: str, role: str, now: datetime):
    """A role in one event (logged in that event's log under the TD who gave it)."""
    if not actor.is_superuser and permissions.role_for(actor, tournament) != "td":
        raise errors.DomainError(_("You are not the TD of %(event)s."), event=tournament.name)
    return setup_services.staff_assign(
        tournament=tournament, actor=actor, username=username, role=role, now=now
    )

"""Whose tablet PIN this is: the check the tablets' unlock and the dealers' clock-in ask.

A PIN is stored hashed (Django's password hashers) by the room's staff accounts page. It
unlocks one table's tablet, so only an account that runs no event and not the room may use
one (`tournaments.permissions.runs_events_or_room`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password

from tournaments import permissions
from tournaments.models import StaffPin


def pin_check(username: str, pin: str):
    """The active account whose PIN this is and who may still hold one, or None (the same
    slow hash either way: no telling names apart by time). Count the attempt first."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    staff_pin = StaffPin.objects.filter(user=user).first() if user is not None else None
    if staff_pin is None or permissions.runs_events_or_room(user):
        make_password(pin)
        return None
    return user if check_password(pin, staff_pin.pin_hash) else None

"""A socket's rights follow the person: when a role is given, changed or
taken away, or a session logs out, the sockets opened with the old rights are closed.

Signals rather than calls in the services, so that every path that changes a role (the
staff page, the admin, a backup import, a deleted tournament) closes them too. The close
leaves after commit (realtime.close_*): a rolled-back change closes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tournaments import realtime
from tournaments.models import StaffAssignment


@receiver(post_save, sender=StaffAssignment, dispatch_uid="staff-role-saved")
@receiver(post_delete, sender=StaffAssignment, dispatch_uid="staff-role-deleted")
def role_changed(sender, instance: StaffAssignment, **kwargs) -> None:
    if kwargs.get("raw"):
        return  # loading fixtures
    realtime.close_user_sockets(instance.user_id)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="account-disabled")
def account_saved(sender, instance, **kwargs) -> None:
    # A disabled account keeps no open socket. (Not on every save: a login elsewhere
    # saves last_login, and must not close the person's other screens.)
    if not kwargs.get("raw") and not instance.is_active:
        realtime.close_user_sockets(instance.pk)


@receiver(user_logged_out, dispatch_uid="close-sockets-on-logout")
def logged_out(sender, request, user, **kwargs) -> None:
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        realtime.close_session_sockets(session_key)

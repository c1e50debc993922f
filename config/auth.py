"""Who is logged in, read in the same trip to the database as the login session.

Every staff request read its login session, then (once the session named its user) the
user: two trips to the database one after the other before the view began (`manage.py bench
fanout --phases`). This process remembers whose each session was when it last read it
(config/sessions.py, `whose`), so the next request of that session reads the session and
that user together (config/speedups/prepared.py, `ahead`: one trip on PostgreSQL). The guess
only chooses what is read: the user is still the one the session names, checked as
Django checks it (the session's hash of the password, an active account); a wrong guess,
a new session or another process's costs the usual second read.

`UserBackend` is Django's ModelBackend with its read compiled once; a session made
before it, by ModelBackend, is read as made by it (config/sessions.py).
"""

from __future__ import annotations

from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import (
    AuthenticationMiddleware as DjangoAuthenticationMiddleware,
)
from django.core.exceptions import ValidationError
from django.utils.functional import SimpleLazyObject

from config import sessions
from config.speedups import prepared
from config.speedups.prepared import NO_ID, Prepared
from tournaments.views import ahead

BACKEND = sessions.BACKEND

_USER = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk), pk=NO_ID)


def _pk(user_id):
    try:
        return get_user_model()._meta.pk.to_python(user_id)
    except ValidationError:
        return None


class UserBackend(ModelBackend):
    """Django's ModelBackend: the same users, passwords and permissions."""

    def get_user(self, user_id):
        pk = _pk(user_id)
        user = _USER.first(pk=pk) if pk is not None else None
        return user if user is not None and self.user_can_authenticate(user) else None


def get_user(request):
    """Django's `auth.get_user`, with the session and its likely user read together."""
    if not hasattr(request, "_cached_user"):
        store = request.session
        guess = None if sessions.loaded(store) else _pk(sessions.whose(store.session_key))
        if guess is None:
            request._cached_user = auth.get_user(request)
        else:
            reads = [sessions.read_of(store.session_key), (_USER, {"pk": guess})]
            # And what a staff page of a tournament reads first, its view's.
            with prepared.ahead(reads, for_request=ahead.page_reads(request, guess)):
                request._cached_user = auth.get_user(request)
    return request._cached_user


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, with `request.user` read by `get_user` above."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))

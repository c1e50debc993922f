"""The session store (SESSION_ENGINE): Django's database store, with its one read on
every request compiled once (config/speedups/prepared.py) instead of built by the ORM every
time. Writes, keys, expiry and the async methods are
Django's own.

It remembers whose each session was when this process last read it (`whose`), so that
the next request reads the session and its user in one trip (config/auth.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.speedups.prepared import NO_TEXT, Prepared

_BY_KEY = Prepared(lambda key: Session.objects.filter(session_key=key), key=NO_TEXT)

# Session key -> the user id it held when last read here. Emptied when it grows past
# WHOSE_MAX: a guess forgotten costs one more read, never a wrong answer.
_WHOSE: dict[str, Any] = {}
WHOSE_MAX = 50_000

# Logins made before config.auth.UserBackend (Django's ModelBackend, which it is) are
# read as made by it: named here, as settings name backends, not imported (config.auth
# reads this module's guesses).
_EARLIER_BACKEND = "django.contrib.auth.backends.ModelBackend"
BACKEND = "config.auth.UserBackend"


def whose(session_key: str | None) -> Any:
    """The user id the session held when this process last read it, or None."""
    return _WHOSE.get(session_key) if session_key else None


def loaded(store: db.SessionStore) -> bool:
    """Whether the store has read its session already."""
    return hasattr(store, "_session_cache")


def read_of(session_key: str) -> tuple[Prepared[Session], dict[str, Any]]:
    """The store's read of that session, to be made ahead (config/speedups/prepared.py)."""
    return _BY_KEY, {"key": session_key}


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """The session row unless it has expired (then, as Django's store does, the key
        is dropped and a new one is made when the session is saved)."""
        session = _BY_KEY.first(key=self.session_key)
        if session is not None and session.expire_date > timezone.now():
            return session
        self._session_key = None
        return None

    def load(self) -> dict[str, Any]:
        data = super().load()
        if data.get(BACKEND_SESSION_KEY) == _EARLIER_BACKEND:
            data[BACKEND_SESSION_KEY] = BACKEND
        user_id = data.get(SESSION_KEY)
        if user_id is not None and self.session_key:
            if len(_WHOSE) >= WHOSE_MAX:
                _WHOSE.clear()
            _WHOSE[self.session_key] = user_id
        return data

"""The session store (SESSION_ENGINE): Django's database store, with its one read on
every request compiled once (tournaments/prepared.py): 0.7 ms of CPU a request through
the ORM, 0.25 ms so (issue 15 item 8). Writes, keys, expiry and the async methods are
Django's own."""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from tournaments.prepared import NO_TEXT, Prepared

_BY_KEY = Prepared(lambda key: Session.objects.filter(session_key=key), key=NO_TEXT)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """The session row unless it has expired (then, as Django's store does, the key
        is dropped and a new one is made when the session is saved)."""
        session = _BY_KEY.first(key=self.session_key)
        if session is not None and session.expire_date > timezone.now():
            return session
        self._session_key = None
        return None

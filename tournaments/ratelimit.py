"""Rate limits kept in Django's cache: the seat finder's searches and failed staff logins.

A limit counts events per key in fixed windows (`limit` per `window` seconds). The cache is
Redis when REDIS_URL is set, so every worker process shares the counts; embedded, it is the
one process's memory. Our own few lines rather than django-axes: axes brings models,
migrations, an authentication backend and middleware to do what two cache counters do
here, and the seat finder needs the same counter for a page that is no login at all.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds

    def _key(self, ident: str, now: float) -> str:
        digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
        return f"ratelimit:{self.name}:{digest}:{int(now // self.window)}"

    def count(self, ident: str, *, now: float | None = None) -> int:
        return int(cache.get(self._key(ident, time.time() if now is None else now), 0))

    def hit(self, ident: str, *, now: float | None = None) -> int:
        """Count one event for `ident`; return the count in this window, this one included."""
        key = self._key(ident, time.time() if now is None else now)
        cache.add(key, 0, timeout=self.window + 60)
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=self.window + 60)
            return 1

    def exceeded(self, ident: str, *, now: float | None = None) -> bool:
        return self.count(ident, now=now) >= self.limit

    def reset(self, ident: str, *, now: float | None = None) -> None:
        cache.delete(self._key(ident, time.time() if now is None else now))

    def minutes_left(self, *, now: float | None = None) -> int:
        """Whole minutes (at least one) until the current window ends."""
        now = time.time() if now is None else now
        return max(1, math.ceil((self.window - now % self.window) / 60))


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind a proxy the ASGI server (uvicorn or daphne with
    --proxy-headers) puts the forwarded address here, so we never trust headers ourselves."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


SEAT_SEARCH = Limit("seat-search", limit=20, window=60)
# Failed staff logins: a name is guessed from anywhere, an address guesses many names (a
# club's Wi-Fi is one address for every tablet, so that limit is looser).
LOGIN_PER_USERNAME = Limit("login-user", limit=5, window=15 * 60)
LOGIN_PER_IP = Limit("login-ip", limit=20, window=15 * 60)


def login_blocked(request: HttpRequest, username: str) -> int:
    """Minutes to wait before this login may be tried again, or 0."""
    blocked = [
        limit
        for limit, ident in (
            (LOGIN_PER_USERNAME, _username(username)),
            (LOGIN_PER_IP, client_ip(request)),
        )
        if limit.exceeded(ident)
    ]
    return max((limit.minutes_left() for limit in blocked), default=0)


def login_failed(request: HttpRequest, username: str) -> None:
    LOGIN_PER_USERNAME.hit(_username(username))
    LOGIN_PER_IP.hit(client_ip(request))


def login_succeeded(request: HttpRequest, username: str) -> None:
    # The name's own count starts again; the address's does not, or one valid account
    # would let an address keep guessing the others.
    LOGIN_PER_USERNAME.reset(_username(username))


def _username(username: str) -> str:
    return username.strip().casefold()

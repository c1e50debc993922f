"""Rate limits kept in Django's cache: the seat finder's searches, staff logins and tablet
PINs.

A limit counts events per key in fixed windows (`limit` per `window` seconds). The cache is
Redis when REDIS_URL is set, so every worker process shares the counts; embedded, it is the
one process's memory. Our own few lines rather than django-axes: axes brings models,
migrations, an authentication backend and middleware to do what two cache counters do
here, and the seat finder needs the same counter for a page that is no login at all.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds

    def _key(self, ident: str, now: float) -> str:
        digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
        return f"ratelimit:{self.name}:{digest}:{int(now // self.window)}"

    # A limit fails open: while the cache (Redis) is down or restarting, nothing is counted
    # and nobody is refused -- a Redis restart must not take logins or the seat finder
    # down. Each such miss is logged.

    def count(self, ident: str, *, now: float | None = None) -> int:
        try:
            return int(cache.get(self._key(ident, time.time() if now is None else now), 0))
        except Exception:  # noqa: BLE001 - the cache's own errors (Redis down)
            logger.warning("rate limit %s not read: the cache is unavailable", self.name)
            return 0

    def hit(self, ident: str, *, now: float | None = None) -> int:
        """Count one event for `ident`; return the count in this window, this one included."""
        key = self._key(ident, time.time() if now is None else now)
        try:
            cache.add(key, 0, timeout=self.window + 60)
            try:
                return cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=self.window + 60)
                return 1
        except Exception:  # noqa: BLE001 - the cache's own errors (Redis down)
            logger.warning("rate limit %s not counted: the cache is unavailable", self.name)
            return 0

    def give_back(self, ident: str, *, now: float | None = None) -> None:
        """Take one event back (never below zero)."""
        key = self._key(ident, time.time() if now is None else now)
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, timeout=self.window + 60)
        except ValueError:  # expired: nothing to give back
            pass
        except Exception:  # noqa: BLE001 - the cache's own errors (Redis down)
            logger.warning("rate limit %s not given back: the cache is unavailable", self.name)

    def exceeded(self, ident: str, *, now: float | None = None) -> bool:
        return self.count(ident, now=now) >= self.limit

    def reset(self, ident: str, *, now: float | None = None) -> None:
        try:
            cache.delete(self._key(ident, time.time() if now is None else now))
        except Exception:  # noqa: BLE001 - the cache's own errors (Redis down)
            logger.warning("rate limit %s not reset: the cache is unavailable", self.name)

    def minutes_left(self, *, now: float | None = None) -> int:
        """Whole minutes (at least one) until the current window ends."""
        now = time.time() if now is None else now
        return max(1, math.ceil((self.window - now % self.window) / 60))


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, unless that is a proxy declared in the
    TRUSTED_PROXIES setting (addresses or networks; none by default). Then the
    X-Forwarded-For chain is read from the right, past the trusted proxies, to the first
    address they did not add themselves. Anyone else's X-Forwarded-For is ignored: a
    client cannot pick the address its failed logins are counted against."""
    return address_of(
        request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", "")
    )


def address_of(remote: str, forwarded: str) -> str:
    """The client's address from the peer's (`remote`) and the X-Forwarded-For header
    (`forwarded`), as `client_ip` reads them (a socket has no request)."""
    remote = remote or "unknown"
    proxies = _trusted_proxies()
    if not proxies or not _is_trusted(remote, proxies):
        return remote
    chain = [a.strip() for a in forwarded.split(",")]
    for address in reversed([a for a in chain if a]):
        if not _is_trusted(address, proxies):
            return address[:64]
    return remote


def _trusted_proxies() -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = []
    for entry in getattr(settings, "TRUSTED_PROXIES", ()):
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue  # checked at start-up (config/settings.py)
    return tuple(networks)


def _is_trusted(address: str, proxies) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


SEAT_SEARCH = Limit("seat-search", limit=20, window=60)
# Reservations and their cancellations from the public page, per address.
RESERVE = Limit("reserve", limit=10, window=10 * 60)
# A kiosk: each player identified (card or QR) and each action, per kiosk device.
KIOSK = Limit("kiosk", limit=30, window=60)


def _feed_limit(name: str, setting: str) -> Limit | None:
    per_minute = getattr(settings, setting, 0)
    return Limit(name, limit=per_minute, window=60) if per_minute > 0 else None


def feed_stream_refused(address: str) -> bool:
    """Count a stream opened on the live feed from `address`; True when over its limit
    (FEED_STREAMS_PER_MINUTE): a follower reconnects now and then, a script looping on
    connect is stopped."""
    limit = _feed_limit("feed-stream", "FEED_STREAMS_PER_MINUTE")
    return limit is not None and limit.hit(address) > limit.limit


def feed_read_refused(address: str) -> bool:
    """Count a read of the feed's document from `address` (FEED_READS_PER_MINUTE)."""
    limit = _feed_limit("feed-read", "FEED_READS_PER_MINUTE")
    return limit is not None and limit.hit(address) > limit.limit


# The desk's player search, per staff account: a desk at full speed searches as it types
# (about a name every two seconds), a script reading players through it is stopped.
PLAYER_SEARCH = Limit("player-search", limit=120, window=60)
# Staff logins. Every attempt is counted, atomically, BEFORE the password
# is checked, so a burst of parallel guesses cannot all be tried; a good login gives its
# attempt back. A name is locked first for the address guessing it (the pair), so an
# attacker elsewhere does not lock the person out; the name's own limit, over every
# address, is softer and stops a guesser that hops addresses. An address guessing many
# names is stopped last, loosely: a club's Wi-Fi is one address for every tablet.
LOGIN_PER_PAIR = Limit("login-pair", limit=5, window=15 * 60)
LOGIN_PER_USERNAME = Limit("login-user", limit=25, window=15 * 60)
LOGIN_PER_IP = Limit("login-ip", limit=40, window=15 * 60)


def _login_limits(request: HttpRequest, username: str) -> list[tuple[Limit, str]]:
    name, address = normalise_username(username), client_ip(request)
    return [
        (LOGIN_PER_PAIR, f"{name}\n{address}"),
        (LOGIN_PER_USERNAME, name),
        (LOGIN_PER_IP, address),
    ]


def login_attempt(request: HttpRequest, username: str, *, now: float | None = None) -> int:
    """Count this attempt against every limit, atomically; return the minutes to wait
    when one is exceeded (the password must then not be checked), or 0 to go ahead.

    A refused attempt counts only up to the limit that refused it, so a guesser locked
    out of one pair does not also run up the name's count for everyone else."""
    now = time.time() if now is None else now
    return _attempt(_login_limits(request, username), now)


def _attempt(limits: list[tuple[Limit, str]], now: float) -> int:
    for limit, ident in limits:
        if limit.hit(ident, now=now) > limit.limit:
            return limit.minutes_left(now=now)
    return 0


def login_succeeded(request: HttpRequest, username: str, *, now: float | None = None) -> None:
    """The attempt was no guess: the pair's count starts again, and the name's and the
    address's get this attempt back (never more, or one valid account would let an
    address keep guessing the others)."""
    now = time.time() if now is None else now
    limits = _login_limits(request, username)
    limits[0][0].reset(limits[0][1], now=now)
    for limit, ident in limits[1:]:
        limit.give_back(ident, now=now)


# A tablet's PIN is short (4 to 8 digits): few tries per name, over every address, and
# per address, counted as a login's are, BEFORE the PIN's slow hash is checked, so a burst
# of parallel guesses checks at most the limit; a right PIN gives its attempt back.
PIN_PER_USERNAME = Limit("pin-user", limit=5, window=15 * 60)
PIN_PER_IP = Limit("pin-ip", limit=20, window=15 * 60)


def _pin_limits(request: HttpRequest, username: str) -> list[tuple[Limit, str]]:
    return [
        (PIN_PER_USERNAME, normalise_username(username)),
        (PIN_PER_IP, client_ip(request)),
    ]


def pin_attempt(request: HttpRequest, username: str, *, now: float | None = None) -> int:
    """Count this PIN attempt against both limits; the minutes to wait when one is
    exceeded (the PIN must then not be checked), or 0 to go ahead."""
    now = time.time() if now is None else now
    return _attempt(_pin_limits(request, username), now)


def pin_succeeded(request: HttpRequest, username: str, *, now: float | None = None) -> None:
    """A right PIN: the name's count starts again, the address gets this attempt back."""
    now = time.time() if now is None else now
    (name_limit, name), (address_limit, address) = _pin_limits(request, username)
    name_limit.reset(name, now=now)
    address_limit.give_back(address, now=now)


def normalise_username(username: str) -> str:
    """The name as authentication compares it (NFKC, as Django's username field cleans
    it), folded for case: "ｆloor", "ᶠloor" and "FLOOR " all count as "floor"."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return unicodedata.normalize("NFKC", folded).strip()

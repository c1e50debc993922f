"""The signed links of the players' phones: each is its own capability, so a public address
never takes an id anyone could guess (a changed digit breaks the signature)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core import signing

PLAYER_SALT = "room.notify.player"
OFF_SALT = "room.notify.off"
ANSWER_SALT = "room.notify.answer"
# A seat card's QR opens his notifications page for a week (a festival's days); a new
# card gives a new link.
PLAYER_MAX_AGE = timedelta(days=7)
# A call's answer link outlives its answer window with room to spare; the service refuses
# a late answer anyway, with the list's own words.
ANSWER_MAX_AGE = timedelta(hours=3)


class BadLink(Exception):
    """A link that opens nothing: never ours, tampered with, or expired."""


def _loads(token: str, salt: str, max_age: timedelta | None = None):
    try:
        return signing.loads(token, salt=salt, max_age=max_age)
    except signing.BadSignature:
        raise BadLink from None


def player_token(player_id: int) -> str:
    return signing.dumps(player_id, salt=PLAYER_SALT)


def player_from(token: str) -> int:
    value = _loads(token, PLAYER_SALT, PLAYER_MAX_AGE)
    if type(value) is not int:
        raise BadLink
    return value


def off_token(kind: str, pk: int) -> str:
    """A one-tap unsubscribe link for one opt-in ("push" or "email"). It never expires: an
    old e-mail's link must still work."""
    return signing.dumps([kind, pk], salt=OFF_SALT)


def off_from(token: str) -> tuple[str, int]:
    value = _loads(token, OFF_SALT)
    if not (
        isinstance(value, list)
        and len(value) == 2
        and value[0] in ("push", "email")
        and type(value[1]) is int
    ):
        raise BadLink
    return value[0], value[1]


def answer_token(*, entry_id: int, player_id: int, called_at: datetime, language: str) -> str:
    """The answer link of one call, carried by its notification: it answers that call only
    (a later call of the same name has another `called_at`)."""
    return signing.dumps(
        [entry_id, player_id, called_at.isoformat(), language], salt=ANSWER_SALT, compress=True
    )


def answer_from(token: str) -> tuple[int, int, str, str]:
    value = _loads(token, ANSWER_SALT, ANSWER_MAX_AGE)
    if not (
        isinstance(value, list)
        and len(value) == 4
        and type(value[0]) is int
        and type(value[1]) is int
        and all(isinstance(v, str) for v in value[2:])
    ):
        raise BadLink
    return value[0], value[1], value[2], value[3]

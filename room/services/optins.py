"""A player's consent to be notified: given on his phone page, taken back in one tap,
erased with his data. Each opt-in row is the consent itself (when, which language)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction

from room.models import EmailOptIn, PushSubscription
from room.services import notify
from tournaments.models import Player

logger = logging.getLogger(__name__)


@transaction.atomic
def push_subscribe(
    *, player: Player, endpoint: str, p256dh: str, auth: str, language: str, now: datetime
) -> PushSubscription:
    """Keep a phone's push subscription for the player. The same browser subscribing again
    (a new key, or another player on a shared phone) replaces its row: one a browser."""
    sub, _created = PushSubscription.objects.select_for_update().update_or_create(
        endpoint=endpoint,
        defaults={
            "player": player,
            "p256dh": p256dh,
            "auth": auth,
            "language": language,
            "consented_at": now,
        },
    )
    # His seat at once, once the opt-in is kept (a failure costs the notice, not the opt-in).
    transaction.on_commit(lambda: _seat_now(player))
    return sub


def _seat_now(player: Player) -> None:
    try:
        notify.seat_now(player=player)
    except Exception:  # noqa: BLE001 - the opt-in stands; the next notice reaches him
        logger.warning("could not tell a new opt-in his seat", exc_info=True)


@transaction.atomic
def email_opt_in(
    *, player: Player, email: str, base_url: str, language: str, now: datetime
) -> EmailOptIn:
    """Keep the player's e-mail address for his notices (and only for them)."""
    opt_in, _created = EmailOptIn.objects.update_or_create(
        player=player,
        email=email.strip().lower(),
        defaults={"language": language, "consented_at": now, "base_url": base_url},
    )
    return opt_in


@transaction.atomic
def opt_out(*, kind: str, pk: int) -> bool:
    """Delete one opt-in ("push" or "email"); whether there was one to delete (a second
    tap on the same link finds none and is told it is off all the same)."""
    model = PushSubscription if kind == "push" else EmailOptIn
    deleted, _per_model = model.objects.filter(pk=pk).delete()
    return bool(deleted)


@transaction.atomic
def push_unsubscribe(*, player: Player, endpoint: str) -> bool:
    """The phone page's "stop": the subscription of this browser, if it is this player's."""
    deleted, _per_model = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return bool(deleted)


def opt_ins_erase(player_ids: Iterable[int]) -> int:
    """Delete every opt-in of these players (an erasure of their data). Call inside the
    erasure's transaction."""
    ids = list(player_ids)
    pushes, _m = PushSubscription.objects.filter(player_id__in=ids).delete()
    emails, _m = EmailOptIn.objects.filter(player_id__in=ids).delete()
    return pushes + emails

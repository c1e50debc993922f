"""What the cash room keeps about a player beyond his seat and his lists: the pairs the
house keeps at different tables (cash-room.md §6.7), checked wherever a player is called,
seated or moved, and his phone link's version, which a new link moves on."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, undoes
from room.models import CashTable, KeepApart, PhoneLink, RoomEvent
from room.services.cash_log import CashRefused
from tables.cash import waitlist
from tournaments.models import Player


@transaction.atomic
def phone_link_new(*, actor: Any, player: Player, now: datetime) -> int:
    """Give the player a new phone link: his key's version moves on, so every link made
    before stops working at once. Returns the new version. Not undoable: an undo would
    bring back the link the floor meant to turn off; a newer link is the remedy."""
    link, _created = PhoneLink.objects.select_for_update().get_or_create(player=player)
    link.version += 1
    link.save(update_fields=["version"])
    room_event_log(
        actor=actor,
        action="cash.phone_link",
        data={"player": player.pk, "version": link.version},
        now=now,
        undoable=False,
    )
    return link.version


def keep_apart_pairs() -> list[tuple[str, str]]:
    return [(str(a), str(b)) for a, b in KeepApart.objects.values_list("player_a", "player_b")]


def _check_not_kept_apart(player_id: int, table: CashTable, *, ignore: int | None = None) -> None:
    others = [str(p) for p in table.seats.exclude(pk=ignore).values_list("player_id", flat=True)]
    if waitlist.kept_apart(str(player_id), others, keep_apart_pairs()):
        raise CashRefused(
            reason=_("the house keeps this player apart from someone at table %(table)s")
            % {"table": table.number}
        )


@transaction.atomic
def keep_apart_add(*, actor: Any, a: Player, b: Player, reason: str, now: datetime) -> KeepApart:
    """Keep two players at different tables from now on (the TD's, §6.7)."""
    if a.pk == b.pk:
        raise CashRefused(reason=_("a player cannot be kept apart from himself"))
    first, second = sorted((a, b), key=lambda p: p.pk)
    pair, _created = KeepApart.objects.get_or_create(
        player_a=first, player_b=second, defaults={"reason": reason.strip(), "created_at": now}
    )
    room_event_log(actor=actor, action="cash.keep_apart", data={"pair": pair.pk}, now=now)
    return pair


@undoes("cash.keep_apart")
def _undo_keep_apart(event: RoomEvent, actor: Any, now: datetime) -> None:
    KeepApart.objects.filter(pk=event.data["pair"]).delete()

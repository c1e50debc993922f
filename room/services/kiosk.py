"""The kiosks: self-service screens the manager sets up (a secret link per device, like a
display screen's) and what a player does there: join cash lists, reserve a tournament
seat, ask for an accessible seat. A kiosk acts for the player it identified, never with
staff rights (no actor: the log says it was the player at the kiosk)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, undoes
from room.models import Kiosk, RoomEvent
from tournaments.errors import CannotUndo, DomainError


@transaction.atomic
def kiosk_create(*, actor: Any, name: str, now: datetime) -> Kiosk:
    name = " ".join(name.split())[:60]
    if not name:
        raise DomainError(_("Give the kiosk a name."))
    kiosk = Kiosk.objects.create(name=name, created_at=now)
    room_event_log(
        actor=actor,
        action="room.kiosk_create",
        data={"kiosk": kiosk.pk, "name": kiosk.name},
        now=now,
        undoable=False,
    )
    return kiosk


@transaction.atomic
def kiosk_revoke(*, actor: Any, kiosk: Kiosk, now: datetime) -> Kiosk:
    """Turn a kiosk's link off at once (a lost tablet): its next page is not found."""
    kiosk = Kiosk.objects.select_for_update().get(pk=kiosk.pk)
    if kiosk.revoked:
        raise DomainError(_("This kiosk is already off."))
    kiosk.revoked = True
    kiosk.save(update_fields=["revoked"])
    room_event_log(
        actor=actor,
        action="room.kiosk_revoke",
        data={"kiosk": kiosk.pk, "name": kiosk.name},
        now=now,
    )
    return kiosk


@undoes("room.kiosk_revoke")
def _undo_revoke(event: RoomEvent, actor: Any, now: datetime) -> None:
    pk = event.data.get("kiosk") if isinstance(event.data, dict) else None
    if type(pk) is not int or not Kiosk.objects.filter(pk=pk).update(revoked=False):
        raise CannotUndo(reason=_("its log row is damaged"))

"""Writes to the room's screens: create a secret link, revoke it (tournament.md §20)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors, realtime
from tournaments.events import event_log
from tournaments.models import DisplayScreen, Table, Tournament


@transaction.atomic
def screen_create(
    *,
    tournament: Tournament,
    actor,
    name: str,
    kind: str,
    table_number: int | None = None,
    now: datetime,
) -> DisplayScreen:
    """Create a screen and its secret link; a table tablet names its table."""
    name = name.strip()
    if not name:
        raise errors.DomainError(_("Give the screen a name, like “Clock by the bar”."))
    if kind not in DisplayScreen.Kind.values:
        raise errors.DomainError(_("Unknown kind of screen."))
    if kind == DisplayScreen.Kind.TABLE:
        if not Table.objects.filter(tournament=tournament, number=table_number or 0).exists():
            raise errors.DomainError(_("A table tablet needs the number of an existing table."))
    else:
        table_number = None
    screen = DisplayScreen.objects.create(
        tournament=tournament, name=name[:60], kind=kind, table_number=table_number
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="screen.create",
        data={"screen": screen.pk, "name": screen.name, "kind": kind},
        now=now,
        undoable=False,
    )
    return screen


@transaction.atomic
def screen_revoke(*, tournament: Tournament, actor, screen_id: int, now: datetime) -> None:
    """Revoke a screen's link: the page 404s from now on and open sockets are closed."""
    screen = (
        DisplayScreen.objects.select_for_update()
        .filter(pk=screen_id, tournament=tournament)
        .first()
    )
    if screen is None or screen.revoked:
        raise errors.DomainError(_("No such screen, or it was already revoked."))
    screen.revoked = True
    screen.save(update_fields=["revoked"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="screen.revoke",
        data={"screen": screen.pk, "name": screen.name},
        now=now,
        undoable=False,
    )
    realtime.broadcast_to_screen(screen.pk, {"type": "close", "reason": "revoked"})

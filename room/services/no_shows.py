"""The room's no-show rule: how many no-shows within how many days flag a player
(reservations; read by the events through `tournaments.services.holds.rules`)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from room.events import room_event_log
from tournaments.errors import DomainError
from tournaments.models import ReservationRules
from tournaments.services.holds import rules


@transaction.atomic
def rules_save(*, actor, no_show_limit: int, no_show_days: int, now: datetime) -> ReservationRules:
    """The manager sets the room's no-show rule (logged in the room's log)."""
    if not 1 <= no_show_limit <= 50 or not 1 <= no_show_days <= 730:
        raise DomainError(_("Write between 1 and 50 no-shows within 1 to 730 days."))
    row = rules()
    before = {"no_show_limit": row.no_show_limit, "no_show_days": row.no_show_days}
    row.no_show_limit, row.no_show_days = no_show_limit, no_show_days
    row.save()
    room_event_log(
        actor=actor, action="room.no_show_rule", data={"before": before}, now=now, undoable=False
    )
    return row

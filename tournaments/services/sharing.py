"""Tables shared between events over an evening: a table one event has
broken (closed) can be opened by another running event. Tables belong to an event and
are numbered per event, so the table is added to (or reopened in) the other event under
the same number; both events' logs say so. A table open in any running event is never
lent."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors
from tournaments.events import event_log
from tournaments.models import Table, Tournament
from tournaments.services import layout as layout_services
from tournaments.services import locks


@transaction.atomic
def table_share(
    *, source: Tournament, target: Tournament, number: int, actor, now: datetime
) -> Table:
    if source.pk == target.pk:
        raise errors.DomainError(_("Choose another event to open the table in."))
    source = locks.tournament_for_update(source)
    target = locks.tournament_for_update(target)
    freed = Table.objects.filter(tournament=source, number=number).first()
    if freed is None or freed.status != Table.Status.CLOSED:
        raise errors.DomainError(
            _("Table %(table)s is not free in %(event)s."), table=number, event=source.name
        )
    busy = (
        Table.objects.filter(number=number, status=Table.Status.OPEN)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .first()
    )
    if busy is not None:
        raise errors.DomainError(
            _("Table %(table)s is in play in %(event)s."), table=number, event=busy.tournament.name
        )
    table = Table.objects.filter(tournament=target, number=number).first()
    if table is None:
        (table,) = layout_services.tables_add(
            tournament=target,
            actor=actor,
            first=number,
            last=number,
            max_seats=min(max(freed.max_seats, 2), 10),
            accessible_seats=list(freed.accessible_seats),
            reserved_seats=[],
            now=now,
        )
    elif table.status == Table.Status.CLOSED:
        table.status = Table.Status.RESERVE  # the planner opens it when the field needs it
        table.save(update_fields=["status"])
    else:
        raise errors.DomainError(
            _("Table %(table)s is already in %(event)s."), table=number, event=target.name
        )
    for event, other in ((source, target), (target, source)):
        event_log(
            tournament=event,
            actor=actor,
            action="table.share",
            data={"table": number, "from": source.slug, "to": target.slug, "other": other.name},
            now=now,
            undoable=False,
        )
    return table

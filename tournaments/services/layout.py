"""The room's layout: tables created, added and changed (seats per table, kept seats)."""

from __future__ import annotations

# --- Tournaments ----------------------------------------------------------------------
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors
from tournaments.events import event_log, logged_fields, logged_id, undoes
from tournaments.models import (
    Event,
    Seat,
    Table,
    Tournament,
)

# What table_update changes and logs: all its undo may restore.
TABLE_SETTINGS = ("opening_order", "break_order", "accessible_seats", "reserved_seats")


@transaction.atomic
def tables_add(
    *,
    tournament: Tournament,
    actor,
    first: int,
    last: int,
    max_seats: int,
    accessible_seats: list[int],
    reserved_seats: list[int],
    now: datetime,
) -> list[Table]:
    """Add the tables numbered first..last."""
    if first < 1 or last < first or last - first >= 2000:
        raise errors.DomainError(_("Give a range of table numbers like 1 to 20."))
    if not 2 <= max_seats <= 10:
        raise errors.DomainError(_("A table has from 2 to 10 seats."))
    bad = [s for s in accessible_seats + reserved_seats if not 1 <= s <= max_seats]
    if bad:
        raise errors.DomainError(_("Seat %(seat)s does not exist at these tables."), seat=bad[0])
    tables = tables_create(
        tournament=tournament,
        numbers=list(range(first, last + 1)),
        max_seats=max_seats,
        accessible_seats=accessible_seats,
        reserved_seats=reserved_seats,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="tables.add",
        data={"numbers": [t.number for t in tables]},
        now=now,
    )
    return tables


@undoes("tables.add")
def _undo_tables_add(event: Event, actor, now: datetime) -> None:
    tables = Table.objects.filter(
        tournament_id=event.tournament_id, number__in=event.data["numbers"]
    )
    busy = Seat.objects.filter(table__in=tables).select_related("table").first()
    if busy is not None:
        raise errors.TablesInUse(table=busy.table.number)
    tables.delete()


# --- Players and entries --------------------------------------------------------------


@transaction.atomic
def table_update(
    *,
    tournament: Tournament,
    actor,
    number: int,
    opening_order: int,
    break_order: int,
    accessible_seats: list[int],
    reserved_seats: list[int],
    now: datetime,
) -> Table:
    """Change one table's opening and break order and its accessible and reserved seats
    (tournament.md §6.1, §9.2). A seat with a player on it cannot become reserved."""
    table = Table.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if table is None:
        raise errors.DomainError(_("Table %(table)s does not exist."), table=number)
    bad = [s for s in accessible_seats + reserved_seats if not 1 <= s <= table.max_seats]
    if bad:
        raise errors.DomainError(
            _("Table %(table)s has no seat %(seat)s."), table=number, seat=bad[0]
        )
    taken = sorted(set(reserved_seats) & set(table.seats.values_list("number", flat=True)))
    if taken:
        raise errors.DomainError(
            _("Seat %(seat)s at table %(table)s is taken: move the player before reserving it."),
            table=number,
            seat=taken[0],
        )
    names = TABLE_SETTINGS
    before = {name: getattr(table, name) for name in names}
    table.opening_order, table.break_order = opening_order, break_order
    table.accessible_seats = sorted(set(accessible_seats))
    table.reserved_seats = sorted(set(reserved_seats))
    after = {name: getattr(table, name) for name in names}
    if after != before:
        table.save(update_fields=list(names))
        event_log(
            tournament=tournament,
            actor=actor,
            action="table.update",
            data={"table": number, "before": before, "after": after},
            now=now,
        )
    return table


@undoes("table.update")
def _undo_table_update(event: Event, actor, now: datetime) -> None:
    before = logged_fields(event, "before", TABLE_SETTINGS)
    Table.objects.filter(
        tournament_id=event.tournament_id, number=logged_id(event, "table")
    ).update(**before)


def tables_create(
    *,
    tournament: Tournament,
    numbers: list[int],
    max_seats: int,
    accessible_seats: list[int] | None = None,
    reserved_seats: list[int] | None = None,
) -> list[Table]:
    """Add tables; their opening and break order follow their numbers after the last ones."""
    existing = set(Table.objects.filter(tournament=tournament).values_list("number", flat=True))
    clash = sorted(set(numbers) & existing)
    if clash:
        raise errors.DomainError(_("Table %(table)s already exists."), table=clash[0])
    last = Table.objects.filter(tournament=tournament).count()
    tables = [
        Table(
            tournament=tournament,
            number=number,
            max_seats=max_seats,
            opening_order=last + i + 1,
            break_order=last + len(numbers) - i,
            accessible_seats=sorted(set(accessible_seats or [])),
            reserved_seats=sorted(set(reserved_seats or [])),
        )
        for i, number in enumerate(numbers)
    ]
    return Table.objects.bulk_create(tables)


# --- Floor rulings (in-hand.md through tables.engine) ---------------------------------

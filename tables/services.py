"""Writes to the room: opening tables, drawing and freeing seats, correcting seats.

Call these inside the transaction of the floor action that needs them (they do not log:
the calling service writes the event that says why the seat changed).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from random import Random

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tables import draw
from tables.models import Seat, Table
from tournaments import errors
from tournaments.models import Entry, Tournament

# A cryptographic generator for every real draw (tournament.md §6.1: uniform, auditable).
SYSTEM_RANDOM: Random = secrets.SystemRandom()
SEAT_RETRIES = 5


@dataclass(frozen=True)
class SeatResult:
    table: int
    seat: int
    dealt_in: str
    opened_table: bool


def _out_of_draw(table: Table) -> frozenset[int]:
    """Seats no draw may give: reserved ones and those the floor locked."""
    return frozenset(table.reserved_seats) | frozenset(table.locked_seats)


def table_loads(tournament: Tournament) -> list[draw.TableLoad]:
    """Every usable table with its player count and free drawable seats, in two queries."""
    counts = dict(
        Seat.objects.filter(table__tournament=tournament)
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    loads = []
    for table in Table.objects.filter(tournament=tournament).exclude(status=Table.Status.CLOSED):
        players = counts.get(table.pk, 0)
        loads.append(
            draw.TableLoad(
                number=table.number,
                players=players,
                # Reserved seats are assumed empty here; the exact check follows the choice.
                free=max(0, table.max_seats - len(_out_of_draw(table)) - players),
                is_open=table.status == Table.Status.OPEN,
                opening_order=table.opening_order,
            )
        )
    return loads


def table_state(table: Table) -> draw.TableState:
    """A table with its taken seats, as the draw needs it."""
    return draw.TableState(
        number=table.number,
        max_seats=table.max_seats,
        taken=frozenset(table.seats.values_list("number", flat=True)),
        reserved=_out_of_draw(table),
        accessible=frozenset(table.accessible_seats),
        is_open=table.status == Table.Status.OPEN,
        opening_order=table.opening_order,
    )


def _choose(tournament: Tournament, rng: Random, accessible_needed: bool, excluded: set[int]):
    if accessible_needed:
        tables = Table.objects.filter(tournament=tournament).exclude(status=Table.Status.CLOSED)
        states = [table_state(t) for t in tables if t.number not in excluded]
        return draw.choose_seat(states, rng, accessible_needed=True)
    loads = [load for load in table_loads(tournament) if load.number not in excluded]
    number, opened = draw.choose_table(loads, rng)
    seats = table_state(Table.objects.get(tournament=tournament, number=number)).free_seats()
    if not seats:
        excluded.add(number)  # its reserved seats are taken by overrides: try the next one
        return None
    return draw.SeatChoice(number, seats[rng.randrange(len(seats))], opened)


def seat_assign(
    *,
    tournament: Tournament,
    entry: Entry,
    now: datetime,
    rng: Random = SYSTEM_RANDOM,
    dealt_in: str = Seat.DealtIn.NEXT_HAND,
) -> SeatResult:
    """Draw a seat for an entry: fewest-players table, random free seat; open the next
    table when all are full. Retries when another desk took the seat first.

    Call inside a transaction holding the tournament row lock.
    """
    excluded: set[int] = set()
    for _attempt in range(SEAT_RETRIES):
        try:
            choice = _choose(tournament, rng, entry.player.needs_accessible_seat, excluded)
        except draw.RoomFull:
            raise errors.RoomFull from None
        except draw.NoAccessibleSeat:
            raise errors.NoAccessibleSeat from None
        if choice is None:
            continue
        table = Table.objects.get(tournament=tournament, number=choice.table)
        try:
            with transaction.atomic():
                Seat.objects.create(
                    table=table, number=choice.seat, entry=entry, dealt_in=dealt_in, assigned_at=now
                )
        except IntegrityError:
            continue  # another desk took it between our read and our write: draw again
        if choice.opened_table:
            table.status = Table.Status.OPEN
            table.save(update_fields=["status"])
        return SeatResult(choice.table, choice.seat, dealt_in, choice.opened_table)
    raise errors.RoomFull


def seat_place(*, entry: Entry, table: Table, seat: int, now: datetime) -> None:
    """Put an entry in a named seat (TD override, undo, wrong-seat correction)."""
    if not 1 <= seat <= table.max_seats:
        raise errors.SeatTaken(table=table.number, seat=seat)
    try:
        with transaction.atomic():
            Seat.objects.filter(entry=entry).delete()
            Seat.objects.create(table=table, number=seat, entry=entry, assigned_at=now)
    except IntegrityError:
        raise errors.SeatTaken(table=table.number, seat=seat) from None
    if table.status != Table.Status.OPEN:
        table.status = Table.Status.OPEN
        table.save(update_fields=["status"])


def seat_free(*, entry: Entry) -> tuple[int, int] | None:
    """Free an entry's seat; return (table, seat) it held."""
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    if seat is None:
        return None
    held = (seat.table.number, seat.number)
    seat.delete()
    return held


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

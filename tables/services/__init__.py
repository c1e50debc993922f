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
from tables.models import Ruling, Seat, Table
from tournaments import errors
from tournaments.events import event_log, undoes
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
    """Every usable table with its player count and free drawable seats, in one query."""
    rows = (
        Table.objects.filter(tournament=tournament)
        .exclude(status=Table.Status.CLOSED)
        .annotate(players=Count("seats"))
        .values_list(
            "number",
            "max_seats",
            "reserved_seats",
            "locked_seats",
            "status",
            "opening_order",
            "players",
        )
    )
    return [
        draw.TableLoad(
            number=number,
            players=players,
            # Out-of-draw seats are assumed empty here; the exact check follows the choice.
            free=max(0, max_seats - len(set(reserved) | set(locked)) - players),
            is_open=status == Table.Status.OPEN,
            opening_order=opening_order,
        )
        for number, max_seats, reserved, locked, status, opening_order, players in rows
    ]


def table_states(tournament: Tournament) -> list[draw.TableState]:
    """Every usable table with its taken seats, in two queries."""
    taken: dict[int, set[int]] = {}
    for table_id, number in Seat.objects.filter(table__tournament=tournament).values_list(
        "table_id", "number"
    ):
        taken.setdefault(table_id, set()).add(number)
    return [
        draw.TableState(
            number=table.number,
            max_seats=table.max_seats,
            taken=frozenset(taken.get(table.pk, ())),
            reserved=frozenset(table.reserved_seats),
            accessible=frozenset(table.accessible_seats),
            is_open=table.status == Table.Status.OPEN,
            opening_order=table.opening_order,
        )
        for table in Table.objects.filter(tournament=tournament).exclude(status=Table.Status.CLOSED)
    ]


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
        states = [t for t in table_states(tournament) if t.number not in excluded]
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


# --- Floor rulings (in-hand.md through tables.engine) ---------------------------------


@transaction.atomic
def ruling_save(
    *,
    tournament: Tournament,
    actor,
    hand: dict,
    names: dict[str, str],
    table_number: int | None,
    note: str,
    now: datetime,
) -> Ruling:
    """Save a floor ruling: the hand as the engine judged it and the floor's decision.

    The hand is replayed first, so only a hand the engine accepts step by step is stored.
    """
    from tables.engine import EngineError, Hand
    from tables.ruling_tool import engine_error_message

    try:
        replayed = Hand.from_dict(hand)
    except EngineError as exc:
        raise errors.InvalidHand(reason=engine_error_message(exc)) from None
    if (
        table_number is not None
        and not Table.objects.filter(tournament=tournament, number=table_number).exists()
    ):
        raise errors.DomainError(_("Table %(table)s does not exist."), table=table_number)
    ruling = Ruling.objects.create(
        tournament=tournament,
        table_number=table_number,
        hand=replayed.to_dict(),
        names=names,
        note=note.strip(),
        created_by=actor if actor is not None and actor.is_authenticated else None,
        created_at=now,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="ruling.save",
        data={
            "ruling": ruling.pk,
            "table": table_number,
            "steps": len(replayed.log),
            "note": ruling.note[:200],
        },
        now=now,
    )
    return ruling


@undoes("ruling.save")
def _undo_ruling_save(event, actor, now: datetime) -> None:
    Ruling.objects.filter(pk=event.data["ruling"], tournament_id=event.tournament_id).delete()

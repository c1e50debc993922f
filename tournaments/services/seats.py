"""Every write to a seat: the draw of one seat or all, a seat's place and release, moves."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from random import Random

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from config.speedups import prepared
from config.speedups.prepared import INT_MAX, NO_ID, Prepared
from tables.rules import draw
from tournaments import errors, realtime
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import (
    Entry,
    Event,
    Seat,
    Table,
    Tournament,
    fill_board_keys,
)
from tournaments.selectors.draw import (
    TAKEN_SEATS,
    expected_before_start,
    planned_tables,
    table_loads,
    table_row,
    table_states,
    tables_for_draw,
)
from tournaments.selectors.planner_stats import analyze_after_bulk
from tournaments.services import locks

# A move's reads, compiled once (config/speedups/prepared.py): the floor moves players all
# night. The stand-ins are no row's key and no table's number, and differ from each other.
_MOVED_ENTRY = Prepared(
    lambda pk, tournament_id: (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=pk, tournament_id=tournament_id)
    ),
    pk=-1_000_037,
    tournament_id=NO_ID,
)
_TABLE = Prepared(
    lambda tournament_id, number: Table.objects.filter(
        tournament_id=tournament_id, number=number
    ).order_by("pk")[:1],
    tournament_id=NO_ID,
    number=2_147_483_629,
)
_HELD_SEAT = Prepared(
    lambda entry_id: Seat.objects.select_related("table").filter(entry_id=entry_id)[:1],
    entry_id=NO_ID,
)
SEAT_MAX = 32_767  # a seat's number is a small integer (PositiveSmallIntegerField)
# Who holds the seat a move goes to (its table named by number: read in the lock's trip).
_SEAT_HOLDER = Prepared(
    lambda tournament_id, table, number: (
        Seat.objects.filter(table__tournament_id=tournament_id, table__number=table, number=number)
        .order_by()
        .values_list("entry_id")[:1]
    ),
    tournament_id=NO_ID,
    table=2_147_483_629,
    number=SEAT_MAX - 17,
)


def _table(tournament: Tournament, number: int) -> Table | None:
    """The tournament's table with this number, or None."""
    if not 0 < number <= INT_MAX:
        return None
    return _TABLE.first(tournament_id=tournament.pk, number=number)


@transaction.atomic
def seat_move(
    *,
    tournament: Tournament,
    entry: Entry,
    table_number: int,
    seat: int,
    actor,
    now: datetime,
    reason: str = "",
) -> None:
    """Move a player to a named seat (a TD override or a wrong-seat correction, §6.1-6.2);
    his chips go with him unchanged."""
    # The row lock and what the move reads under it (the entry, locked; the table it goes
    # to; who holds the seat it goes to; the seat it leaves) go to the database in one
    # trip (prepared.ahead), in that order, so all of it is read under the lock as it was
    # one after another. Its writes then go with the COMMIT, in its trip: the seat was
    # read free under the lock every write to a seat of the event takes first (and on
    # PostgreSQL a seat inserted elsewhere meanwhile would wait for it: its row names the
    # tournament, whose lock blocks the foreign key's check).
    reads = [
        locks.read_of(tournament),
        (_MOVED_ENTRY, {"pk": entry.pk, "tournament_id": tournament.pk}),
        (_HELD_SEAT, {"entry_id": entry.pk}),
    ]
    if 0 < table_number <= INT_MAX:
        reads.append((_TABLE, {"tournament_id": tournament.pk, "number": table_number}))
        if 0 < seat <= SEAT_MAX:
            holder = {"tournament_id": tournament.pk, "table": table_number, "number": seat}
            reads.append((_SEAT_HOLDER, holder))
    with prepared.ahead(reads):
        tournament = locks.tournament_for_update(tournament)
        # The player with the entry (his name goes in the log, the push and the seat's board
        # copies), the entry's row alone locked.
        entry = _MOVED_ENTRY.first(pk=entry.pk, tournament_id=tournament.pk)
        if entry is None:
            raise Entry.DoesNotExist("Entry matching query does not exist.")
        if entry.status != Entry.Status.ACTIVE:
            raise errors.NotPlaying(player=str(entry.player))
        table = _table(tournament, table_number)
        if table is None or table.status == Table.Status.CLOSED:
            raise errors.DomainError(_("Table %(table)s is not in play."), table=table_number)
        before = _HELD_SEAT.first(entry_id=entry.pk)
        if not 1 <= seat <= table.max_seats:
            raise errors.SeatTaken(table=table.number, seat=seat)
        held = _SEAT_HOLDER.rows(tournament_id=tournament.pk, table=table_number, number=seat)
        if held and held[0][0] != entry.pk:
            raise errors.SeatTaken(table=table.number, seat=seat)
        _seat_later(entry=entry, table=table, seat=seat, now=now)
        event_log(
            later=True,  # with the COMMIT, in its trip
            tournament=tournament,
            actor=actor,
            action="seat.move",
            data={
                "entry": entry.pk,
                "name": str(entry.player),
                "from": [before.table.number, before.number] if before else None,
                "to": [table_number, seat],
                "reason": reason,
            },
            now=now,
        )
        realtime.broadcast(
            tournament.pk,
            {
                "type": "move",
                "entry": entry.pk,
                "name": str(entry.player),
                "from": {"table": before.table.number, "seat": before.number} if before else None,
                "to": {"table": table_number, "seat": seat},
            },
            tables=tuple({table_number, *([before.table.number] if before else [])}),
        )


@undoes("seat.move")
def _undo_seat_move(event: Event, actor, now: datetime) -> None:
    entry = scoped(Entry, event).get(pk=logged_id(event, "entry"))
    if event.data["from"] is None:
        seat_free(entry=entry)
        return
    table_number, seat = event.data["from"]
    table = Table.objects.get(tournament_id=event.tournament_id, number=table_number)
    seat_place(entry=entry, table=table, seat=seat, now=now)


@transaction.atomic
def seats_draw_all(
    *, tournament: Tournament, actor, now: datetime, rng=None
) -> dict[int, tuple[int, int]]:
    """Seat every unseated active entry at once (the start-of-event draw, §6.1): as few
    tables as needed, counts differing by at most one, the permutation recorded."""

    tournament = locks.tournament_for_update(tournament)
    rng = rng or SYSTEM_RANDOM
    unseated = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE, seat__isnull=True)
        .order_by("number")
        .values_list(
            "pk", "player__needs_accessible_seat", "player__last_name", "player__first_name"
        )
    )
    if not unseated:
        return {}
    states, table_ids = tables_for_draw(tournament)
    try:
        result = draw.initial_draw(
            [pk for pk, _needs, _last, _first in unseated],
            states,
            rng,
            accessible_needed=frozenset(pk for pk, needs, _last, _first in unseated if needs),
            expected=expected_before_start(tournament),
        )
    except draw.RoomFull:
        raise errors.RoomFull from None
    except draw.NoAccessibleSeat:
        raise errors.NoAccessibleSeat from None
    names = {pk: (last, first) for pk, _needs, last, first in unseated}
    _seats_insert(
        [
            (table_ids[table], seat, entry_id, *names[entry_id])
            for entry_id, (table, seat) in result.assignments.items()
        ],
        tournament_id=tournament.pk,
        assigned_at=now,
    )
    # A big field seated at once: the next minute's plans must know it (planner_stats).
    analyze_after_bulk([Seat, Entry, Table], rows=len(result.assignments))
    Table.objects.filter(tournament=tournament, number__in=result.opened_tables).exclude(
        status=Table.Status.OPEN
    ).update(status=Table.Status.OPEN)
    event_log(
        tournament=tournament,
        actor=actor,
        action="seats.draw",
        data={
            "method": "SystemRandom",
            "seated": len(result.assignments),
            "assignments": {str(k): list(v) for k, v in result.assignments.items()},
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "seating"})
    return result.assignments


@undoes("seats.draw")
def _undo_seats_draw(event: Event, actor, now: datetime) -> None:
    entry_ids = [int(k) for k in event.data["assignments"]]
    Seat.objects.filter(entry_id__in=entry_ids, entry__tournament_id=event.tournament_id).delete()


# A cryptographic generator for every real draw (tournament.md §6.1: uniform, auditable).
SYSTEM_RANDOM: Random = secrets.SystemRandom()


SEAT_RETRIES = 5


@dataclass(frozen=True)
class SeatResult:
    table: int
    seat: int
    dealt_in: str
    opened_table: bool


# The columns a drawn seat names, row by row (the last two: the seating board's copies of
# the player's name, see Seat), then the two every seat of the draw shares; every other
# column of a seat takes its default.
_DRAWN = ("table", "number", "entry", "board_last_name", "board_first_name")
_SHARED = ("tournament", "assigned_at")


def _seats_insert(
    rows: list[tuple[int, int, int, str, str]], *, tournament_id: int, assigned_at: datetime
) -> None:
    """Insert drawn seats, (table id, seat number, entry id, last name, first name) each,
    in one statement and no model built: a 10,000-entry draw spent more on 10,000 Seat
    instances and bulk_create's per-field preparation than PostgreSQL spent writing the
    rows. The other columns take their model defaults. No signal is sent (bulk_create
    sends none either)."""
    if not rows:
        return
    meta = Seat._meta
    named = [meta.get_field(name) for name in (*_DRAWN, *_SHARED)]
    defaults = [f for f in meta.concrete_fields if not f.primary_key and f not in named]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in (*named, *defaults))
    constants = [
        tournament_id,
        meta.get_field("assigned_at").get_db_prep_save(assigned_at, connection),
        *(f.get_db_prep_save(f.get_default(), connection) for f in defaults),
    ]
    table = connection.ops.quote_name(meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The numbers as array text: psycopg dumps a Python list item by item (the
            # names it must, to quote them).
            def array(values: Iterable[int]) -> str:
                return "{" + ",".join(map(str, values)) + "}"

            placeholders = ", ".join(["%s"] * len(constants))
            cursor.execute(
                f"INSERT INTO {table} ({columns}) "  # noqa: S608 - names from the model
                f"SELECT t, n, e, l, f, {placeholders} FROM unnest("
                "%s::bigint[], %s::integer[], %s::bigint[], %s::text[], %s::text[]"
                ") AS r(t, n, e, l, f)",
                [
                    *constants,
                    array(r[0] for r in rows),
                    array(r[1] for r in rows),
                    array(r[2] for r in rows),
                    [r[3] for r in rows],
                    [r[4] for r in rows],
                ],
            )
        else:
            placeholders = ", ".join(["%s"] * (len(_DRAWN) + len(constants)))
            cursor.executemany(
                f"INSERT INTO {table} ({columns}) VALUES ({placeholders})",  # noqa: S608
                [(*row, *constants) for row in rows],
            )


def _choose(
    tournament: Tournament, rng: Random, accessible_needed: bool, excluded: set[int]
) -> tuple[int, draw.SeatChoice] | None:
    """The table (its id) and seat drawn for one entry; None when the table chosen has no
    drawable seat after all (try again without it)."""
    if accessible_needed:
        states = [t for t in table_states(tournament) if t.number not in excluded]
        planned = planned_tables(tournament, [load for _row, load in table_loads(tournament)])
        choice = draw.choose_seat(states, rng, accessible_needed=True, planned=planned)
        table_id = Table.objects.values_list("pk", flat=True).get(
            tournament=tournament, number=choice.table
        )
        return table_id, choice
    loaded = table_loads(tournament)
    rows = {load.number: row for row, load in loaded}
    loads = [load for _row, load in loaded if load.number not in excluded]
    planned = planned_tables(tournament, [load for _row, load in loaded])
    number, opened = draw.choose_table(loads, rng, planned=planned)
    row = table_row(rows[number])
    state = draw.TableState(
        number=number,
        max_seats=row.max_seats,
        taken=frozenset(number for (number,) in TAKEN_SEATS.rows(table_id=row.pk)),
        reserved=row.out_of_draw,
        accessible=row.accessible,
    )
    seats = state.free_seats()
    if not seats:
        excluded.add(number)  # its reserved seats are taken by overrides: try the next one
        return None
    return row.pk, draw.SeatChoice(number, seats[rng.randrange(len(seats))], opened)


def seat_assign(
    *,
    tournament: Tournament,
    entry: Entry,
    now: datetime,
    rng: Random = SYSTEM_RANDOM,
    dealt_in: str = Seat.DealtIn.NEXT_HAND,
) -> SeatResult:
    """Draw a seat for an entry: fewest-players table, random free seat; before the start,
    the tables planned for the expected field count as open; open the next table when all
    are full. Retries when another desk took the seat first.

    Call inside a transaction holding the tournament row lock.
    """
    excluded: set[int] = set()
    for _attempt in range(SEAT_RETRIES):
        try:
            chosen = _choose(tournament, rng, entry.player.needs_accessible_seat, excluded)
        except draw.RoomFull:
            raise errors.RoomFull from None
        except draw.NoAccessibleSeat:
            raise errors.NoAccessibleSeat from None
        if chosen is None:
            continue
        table_id, choice = chosen
        try:
            with transaction.atomic():
                Seat.objects.create(
                    table_id=table_id,
                    number=choice.seat,
                    entry=entry,
                    dealt_in=dealt_in,
                    assigned_at=now,
                )
        except IntegrityError:
            continue  # another desk took it between our read and our write: draw again
        if choice.opened_table:
            Table.objects.filter(pk=table_id).update(status=Table.Status.OPEN)
        return SeatResult(choice.table, choice.seat, dealt_in, choice.opened_table)
    raise errors.RoomFull


def seat_place(*, entry: Entry, table: Table, seat: int, now: datetime) -> None:
    """Put an entry in a named seat (TD override, undo, wrong-seat correction)."""
    if not 1 <= seat <= table.max_seats:
        raise errors.SeatTaken(table=table.number, seat=seat)
    try:
        with transaction.atomic():
            # The seat he leaves goes with the one he takes, in one trip (both are taken
            # back if that one is taken: the savepoint).
            prepared.delete_later(Seat.objects.filter(entry=entry))
            Seat.objects.create(table=table, number=seat, entry=entry, assigned_at=now)
    except IntegrityError:
        raise errors.SeatTaken(table=table.number, seat=seat) from None
    if table.status != Table.Status.OPEN:
        table.status = Table.Status.OPEN
        table.save(update_fields=["status"])


def _seat_later(*, entry: Entry, table: Table, seat: int, now: datetime) -> None:
    """`seat_place` for a seat read free under the tournament's lock: its writes go with
    the transaction's next trip (prepared), its COMMIT most often."""
    prepared.delete_later(Seat.objects.filter(entry=entry))
    taken = Seat(table=table, number=seat, entry=entry, assigned_at=now)
    fill_board_keys([taken])
    prepared.insert_later(taken)
    if table.status != Table.Status.OPEN:
        table.status = Table.Status.OPEN
        prepared.save_later(table, ["status"])


def seat_free(*, entry: Entry) -> tuple[int, int] | None:
    """Free an entry's seat; return (table, seat) it held."""
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    if seat is None:
        return None
    held = (seat.table.number, seat.number)
    seat.delete()
    return held

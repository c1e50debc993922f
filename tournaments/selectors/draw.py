"""What a seat draw reads: every usable table of a tournament with its load or its taken
seats, the tables planned for the field the TD expects, the seats taken at the table
chosen. The draw itself, and every write to a seat, is `tournaments.services.seats`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from config.speedups.prepared import NO_ID, Prepared
from tables.rules import draw
from tournaments.models import Seat, Table, Tournament


@dataclass(frozen=True)
class TableRow:
    """What the draw of one seat reads of a table, beside its load (no model built)."""

    pk: int
    max_seats: int
    out_of_draw: frozenset[int]  # reserved and locked seats
    accessible: frozenset[int]


# What a draw reads of each table, beside its seats.
_DRAW_COLUMNS = (
    "pk",
    "number",
    "max_seats",
    "reserved_seats",
    "locked_seats",
    "accessible_seats",
    "status",
    "opening_order",
)


def usable_tables(tournament: Tournament):
    return Table.objects.filter(tournament=tournament).exclude(status=Table.Status.CLOSED)


# Every usable table of a tournament with its player count, compiled once
# (config/speedups/prepared.py): every seat drawn reads it.
_TABLE_LOADS = Prepared(
    lambda tournament_id: (
        Table.objects.filter(tournament_id=tournament_id)
        .exclude(status=Table.Status.CLOSED)
        .annotate(players=Count("seats"))
        .order_by("number")
        .values_list(*_DRAW_COLUMNS, "players")
    ),
    tournament_id=NO_ID,
)


def _seat_numbers(value) -> frozenset[int]:
    """A list of seat numbers as the driver gives a JSON column: text (decoded here),
    or already a list."""
    if isinstance(value, str):
        value = json.loads(value) if value != "[]" else ()
    return frozenset(value or ())


def loads_read(tournament: Tournament) -> tuple[Prepared[Any], dict[str, Any]]:
    """The first read of `seat_assign` (every usable table and its load), as
    `prepared.ahead` takes it."""
    return _TABLE_LOADS, {"tournament_id": tournament.pk}


def table_loads(tournament: Tournament) -> list[tuple[tuple[Any, ...], draw.TableLoad]]:
    """Every usable table with its player count and free drawable seats, in one query:
    each table's row as read (`table_row` makes it a TableRow, for the one chosen) and
    its load. Most tables have no reserved or locked seat: their JSON is not decoded
    (a 10,000-entry room has 1,112 tables, read for every seat drawn)."""
    loads = []
    load = draw.TableLoad
    is_open = Table.Status.OPEN
    for row in _TABLE_LOADS.rows(tournament_id=tournament.pk):
        _pk, number, max_seats, reserved, locked, _accessible, status, order, players = row
        if _no_seats(reserved) and _no_seats(locked):
            out = 0
        else:
            out = len(_seat_numbers(reserved) | _seat_numbers(locked))
        # Out-of-draw seats are assumed empty here; the exact check follows the choice.
        free = max_seats - out - players
        loads.append(
            (row, load(number, players, free if free > 0 else 0, status == is_open, order))
        )
    return loads


def _no_seats(value: Any) -> bool:
    return value == "[]" or value == [] or value is None


def table_row(row: tuple[Any, ...]) -> TableRow:
    pk, _number, max_seats, reserved, locked, accessible, *_rest = row
    return TableRow(
        pk, max_seats, _seat_numbers(reserved) | _seat_numbers(locked), _seat_numbers(accessible)
    )


def table_states(tournament: Tournament) -> list[draw.TableState]:
    """Every usable table with its taken seats, in two queries."""
    return tables_for_draw(tournament)[0]


def tables_for_draw(tournament: Tournament) -> tuple[list[draw.TableState], dict[int, int]]:
    """Every usable table with its taken seats, and each one's id by number: two queries,
    no model built (a 10,000-entry draw reads 1,112 tables)."""
    taken: dict[int, set[int]] = {}
    for table_id, number in (
        Seat.objects.filter(table__tournament=tournament)
        .order_by()
        .values_list("table_id", "number")
    ):
        taken.setdefault(table_id, set()).add(number)
    rows = usable_tables(tournament).values_list(*_DRAW_COLUMNS)
    states, ids = [], {}
    for pk, number, max_seats, reserved, locked, accessible, status, order in rows:
        ids[number] = pk
        states.append(
            draw.TableState(
                number=number,
                max_seats=max_seats,
                taken=frozenset(taken.get(pk, ())),
                # Out of the draw, as for one seat drawn (`table_loads`): reserved and
                # locked seats alike.
                reserved=frozenset(reserved) | frozenset(locked),
                accessible=frozenset(accessible),
                is_open=status == Table.Status.OPEN,
                opening_order=order,
            )
        )
    return states, ids


# The seats taken at the table a registration's draw chose: compiled once.
TAKEN_SEATS = Prepared(
    lambda table_id: Seat.objects.filter(table_id=table_id).order_by().values_list("number"),
    table_id=NO_ID,
)


def expected_before_start(tournament: Tournament) -> int:
    """The field the TD expects, until the clock starts (0 without one): after it, a late
    entry sits where the room plays (a table broken since is no gap to fill) and a new
    day's redraw seats the players left, not the field expected on the first."""
    if tournament.clock_status not in {"not_started", "scheduled"}:
        return 0
    return tournament.expected_entries or 0


def planned_tables(tournament: Tournament, loads: list[draw.TableLoad]) -> frozenset[int]:
    """The tables planned for the field the TD expects, until the clock starts."""
    expected = expected_before_start(tournament)
    return draw.planned_tables(loads, expected) if expected else frozenset()


def tables_planned(tournament: Tournament) -> list[int]:
    """The numbers of the tables planned for the expected field (none without one), as
    the tables page shows them."""
    if not tournament.expected_entries:
        return []
    loads = [load for _row, load in table_loads(tournament)]
    return sorted(draw.planned_tables(loads, tournament.expected_entries))

"""Writes to the room: buttons and hands, balancing moves, table breaks, the final table,
move confirmations, and the floor's manual control of tables and seats.

Decisions come from the pure planner (`tables.rules.balancing`, `tables.rules.buttons`); these services
load the room, call it, write the result in one transaction, log it (undoable) and push
it to the screens after commit (tournament.md §7-§10).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from random import Random
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, Q, TextField
from django.db.models.functions import Cast
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tables.models import Seat, Table
from tables.rules import balancing, buttons, draw
from tables.services import seats as seat_services
from tournaments import errors, realtime
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import Entry, Event, Tournament

RANKS = "23456789TJQKA"
SUITS = "shdc"
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

# --- reading the room -----------------------------------------------------------------


def room_settings(
    tournament: Tournament, tables: Sequence[Table | TableRow] = ()
) -> balancing.RoomSettings:
    """The tournament's room policy as the planner reads it (tournament.md §3)."""
    # The break list follows each table's break order (set on the tables page); by
    # default the table with the fewest players breaks first (the fewest moves), the
    # list breaking ties.
    order = sorted(tables, key=lambda t: (t.break_order, -t.number))
    return balancing.RoomSettings(
        seats_per_table=tournament.seats_per_table,
        balance_max_diff=tournament.balance_max_diff,
        break_order="list" if tournament.break_rule == "list" else "fewest",
        break_list=tuple(str(t.number) for t in order),
        final_table_rule=tournament.final_table_rule,  # type: ignore[arg-type]
        deal_in_exclusion=tournament.deal_in_exclusion,  # type: ignore[arg-type]
    )


def positions_of(table: Table | TableRow) -> buttons.Positions | None:
    """The table's current hand positions, or None when nobody has told us."""
    if not table.positions_known:
        return None
    return buttons.Positions(
        button=table.button,  # type: ignore[arg-type]
        sb=table.sb,  # type: ignore[arg-type]
        bb=table.bb,  # type: ignore[arg-type]
        button_dead=table.button_dead,
        sb_dead=table.sb_dead,
        heads_up=table.heads_up,
    )


def _set_positions(table: Table, positions: buttons.Positions | None) -> None:
    if positions is None:
        table.button = table.sb = table.bb = None
        table.button_dead = table.sb_dead = table.heads_up = False
        return
    table.button, table.sb, table.bb = positions.button, positions.sb, positions.bb
    table.button_dead, table.sb_dead = positions.button_dead, positions.sb_dead
    table.heads_up = positions.heads_up


def _positions_data(table: Table) -> dict[str, Any]:
    return {
        "button": table.button,
        "sb": table.sb,
        "bb": table.bb,
        "button_dead": table.button_dead,
        "sb_dead": table.sb_dead,
        "heads_up": table.heads_up,
        "hands": table.hands,
        "hand_started_at": table.hand_started_at.isoformat() if table.hand_started_at else None,
    }


def _restore_positions(table: Table, data: dict[str, Any]) -> None:

    for name in ("button", "sb", "bb", "button_dead", "sb_dead", "heads_up", "hands"):
        setattr(table, name, data[name])
    started = data.get("hand_started_at")
    table.hand_started_at = parse_datetime(started) if started else None


def _save_positions(tables: Sequence[Table]) -> None:
    """Write many tables' positions in one executemany (bulk_update's CASE is slow at 1,000+)."""
    if not tables:
        return

    columns = ", ".join(f"{name} = %s" for name in POSITION_FIELDS)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Table._meta.db_table} SET {columns} WHERE id = %s",  # noqa: S608
            [
                [
                    *(
                        Table._meta.get_field(name).get_db_prep_save(getattr(t, name), connection)
                        for name in POSITION_FIELDS
                    ),
                    t.pk,
                ]
                for t in tables
            ],
        )


POSITION_FIELDS = [
    "button",
    "sb",
    "bb",
    "button_dead",
    "sb_dead",
    "heads_up",
    "hands",
    "hand_started_at",
]


class TableRow(NamedTuple):
    """A table as read for the planner: every column, no model built (a room of 1,112
    tables is read on every Apply; the models are built only for the tables written)."""

    id: int
    tournament_id: int
    number: int
    max_seats: int
    status: str
    opening_order: int
    break_order: int
    accessible_seats: list[int]
    reserved_seats: list[int]
    locked_seats: list[int]
    button: int | None
    sb: int | None
    bb: int | None
    button_dead: bool
    sb_dead: bool
    heads_up: bool
    hands: int
    hand_started_at: datetime | None

    @property
    def positions_known(self) -> bool:
        return self.bb is not None and self.sb is not None and self.button is not None


class RoomTables(Mapping[int, Table]):
    """The room's tables by number, read as rows; a table's model is built the first time
    it is asked for (to be written or shown) and kept, so its changes stay in the room.

    `light()` gives each table without building models: the model when there is one
    (it may have changed), else the row, for code that only reads the columns."""

    def __init__(self, rows: dict[int, TableRow]) -> None:
        self._rows = rows
        self._models: dict[int, Table] = {}

    def __getitem__(self, number: int) -> Table:
        table = self._models.get(number)
        if table is None:
            row = self._rows[number]  # KeyError for a table not in the room
            table = Table.from_db(Table.objects.db, TableRow._fields, row)
            self._models[number] = table
        return table

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, number: object) -> bool:
        return number in self._rows

    def pop(self, number: int, default: Table | None = None) -> Table | None:
        if number not in self._rows:
            return default
        table = self[number]
        del self._rows[number]
        self._models.pop(number, None)
        return table

    def light(self, number: int) -> Table | TableRow:
        return self._models.get(number) or self._rows[number]

    def light_values(self) -> Iterator[Table | TableRow]:
        return (self.light(number) for number in self._rows)


@dataclass
class Room:
    """The room as loaded once: open tables, who sits where, and the planner's view.

    Services that change seats in memory call `touch(numbers)` and then `refresh()`, so only
    the changed tables are rebuilt for the planner (a break touches a handful of 1,112).
    """

    tournament: Tournament
    tables: RoomTables  # by number, closed tables left out
    seats: dict[int, dict[int, int]]  # table number -> seat -> entry id
    settings: balancing.RoomSettings
    by_number: dict[int, balancing.Table] = field(default_factory=dict)
    touched: set[int] = field(default_factory=set)
    # Entries moved and not yet seated: the planner never picks them (they are on the way).
    travelling: set[int] = field(default_factory=set)
    # Seated entries whose player needs an accessible seat (TDA-9): a hard constraint of
    # every draw and move.
    needy: frozenset[int] = frozenset()
    _where: dict[int, tuple[int, int]] | None = None

    @property
    def where(self) -> dict[int, tuple[int, int]]:
        """Entry -> (table, seat), in table and seat order; made when first asked for (an
        Apply with nothing to do never needs it)."""
        if self._where is None:
            self._where = {
                entry: (number, seat)
                for number, held in self.seats.items()
                for seat, entry in held.items()
            }
        return self._where

    @property
    def planner(self) -> list[balancing.Table]:
        return list(self.by_number.values())

    def entry_seat(self) -> dict[int, tuple[int, int]]:
        return dict(self.where)

    def touch(self, numbers: Iterable[int]) -> None:
        self.touched.update(numbers)

    def refresh(self) -> None:
        """Rebuild the planner's view of the tables changed in memory since the last call."""
        for number in self.touched:
            table = self.tables.light(number) if number in self.tables else None
            if table is None or table.status == Table.Status.CLOSED:
                self.tables.pop(number, None)
                self.seats.pop(number, None)
                self.by_number.pop(number, None)
                continue
            planned = _planned(table, self.seats[number], self.travelling, self.needy)
            if planned is None:
                self.by_number.pop(number, None)
            else:
                self.by_number[number] = planned
        self.touched.clear()


NO_SEATS: frozenset[int] = frozenset()


def _planned(
    table: Table | TableRow,
    seats: dict[int, int],
    travelling: set[int] = frozenset(),  # type: ignore[assignment]
    needy: frozenset[int] = frozenset(),
) -> balancing.Table | None:
    """A table as the pure planner sees it; None for a table not in play and empty."""
    if table.status != Table.Status.OPEN and not seats:
        return None
    reserved = table.reserved_seats
    return balancing.Table(
        table_id=str(table.number),
        max_seats=table.max_seats,
        seats={seat: str(entry) for seat, entry in seats.items()},
        last_hand=positions_of(table),
        number=table.number,
        # Reserved seats are out of the moves too, unless a TD put someone there.
        locked_seats=frozenset(table.locked_seats) | (frozenset(reserved) - set(seats))
        if table.locked_seats or reserved
        else NO_SEATS,
        accessible_seats=frozenset(table.accessible_seats) if table.accessible_seats else NO_SEATS,
        unmovable=frozenset(str(entry) for entry in seats.values() if entry in travelling)
        if travelling
        else frozenset(),
        needs_accessible=frozenset(str(entry) for entry in seats.values() if entry in needy)
        if needy
        else frozenset(),
    )


def _needy(seats: Any) -> frozenset[int]:
    """The entries of these seats whose player needs an accessible seat (one query)."""
    return frozenset(
        seats.filter(entry__player__needs_accessible_seat=True)
        .order_by()
        .values_list("entry_id", flat=True)
    )


# The seat lists are read as text and decoded only when not empty (most are): decoding
# 3,336 JSON lists was a fifth of the room's load at 1,112 tables.
SEAT_LISTS = ("accessible_seats", "reserved_seats", "locked_seats")


def _seat_list(text: str | None) -> list[int]:
    return [] if not text or text == "[]" else json.loads(text)


@contextmanager
def _no_collection() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while the room is read: the load makes
    ~30,000 containers that all stay alive, so a collection in the middle finds nothing,
    and in a big process it scans the whole heap (it tripled an Apply's time, bench balance).
    Reference counting still frees everything as usual."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def room_load(tournament: Tournament) -> Room:
    """Load every table still in play and every seat, in two queries (rows, not models)."""
    with _no_collection():
        return _room_load(tournament)


def _table_values(tournament: Tournament) -> list[tuple[Any, ...]]:
    """Every table still in play as read: TableRow's columns, the seat lists as text."""
    texts = {f"{name}_text": Cast(name, TextField()) for name in SEAT_LISTS}
    columns = [f"{name}_text" if name in SEAT_LISTS else name for name in TableRow._fields]
    return list(
        Table.objects.filter(tournament=tournament)
        .exclude(status=Table.Status.CLOSED)
        .order_by("number")
        .annotate(**texts)
        .values_list(*columns)
    )


_LISTS_AT = [i for i, name in enumerate(TableRow._fields) if name in SEAT_LISTS]


def _rows_of(table_values: Iterable[tuple[Any, ...]]) -> dict[int, TableRow]:
    rows: dict[int, TableRow] = {}
    for values in table_values:
        decoded = list(values)
        for i in _LISTS_AT:
            decoded[i] = _seat_list(decoded[i])
        row = TableRow._make(decoded)
        rows[row.number] = row
    return rows


def _table_rows(tournament: Tournament) -> dict[int, TableRow]:
    """Every table still in play, by number, as rows (no models)."""
    return _rows_of(_table_values(tournament))


def _read_seats(
    seats: Any, rows: Mapping[int, TableRow], into: dict[int, dict[int, int]], travelling: set[int]
) -> None:
    """Put each seat of the `seats` query that is at one of `rows` into `into` (table ->
    seat -> entry, in seat order) and the players not yet seated into `travelling`."""
    held_at: dict[int, dict[int, int]] = {}
    for row in rows.values():
        held_at[row.id] = into.setdefault(row.number, {})
    for table_id, number, entry_id, arrived in seats.order_by().values_list(
        "table_id", "number", "entry_id", "arrived"
    ):
        held = held_at.get(table_id)
        if held is not None:
            held[number] = entry_id
            if not arrived:
                travelling.add(entry_id)
    # Read unsorted (sorting 10,000 rows in the database costs more): the room is kept in
    # table and seat order, as the planner and the seat cards of a break read it.
    for row in rows.values():
        held = into[row.number]
        if len(held) > 1:
            into[row.number] = dict(sorted(held.items()))


def _room_load(tournament: Tournament) -> Room:
    rows = _table_rows(tournament)
    seats: dict[int, dict[int, int]] = {}
    travelling: set[int] = set()
    _read_seats(Seat.objects.filter(table__tournament=tournament), rows, seats, travelling)
    tables = RoomTables(rows)
    room = Room(tournament, tables, seats, room_settings(tournament, list(rows.values())))
    room.travelling = travelling
    room.needy = _needy(Seat.objects.filter(table__tournament=tournament))
    for number, row in rows.items():
        planned = _planned(row, seats[number], travelling, room.needy)
        if planned is not None:
            room.by_number[number] = planned
    return room


@dataclass
class RoomOverview:
    """The room as its page shows it: every table in play with its head count, whom the
    room waits for, the plan and the breaches of the room policy."""

    tables: RoomTables  # by number, closed tables left out
    counts: dict[int, int]  # table number -> players seated (0 for an empty table)
    waiting: int  # players moved and not seated yet
    plan: balancing.RoomPlan
    violations: list[balancing.Violation]


def room_overview(tournament: Tournament) -> RoomOverview:
    """The room's plan and check as `room_plan` and `room_check` make them from the whole
    room, reading the seats only of the tables they look at seat by seat.

    The planner sees every other table as a head count (one GROUP BY): halts, the final
    table, whether a table breaks and which tables give and take players all follow from
    the counts; only the tables a move takes a player from or brings one to need their
    seats (who is next to be big blind, the worst free seat), and the plan is made again
    until it has the seats of every table it moves players at (usually once more). The
    seats are read everywhere when a table breaks (its seat cards are free seats all over
    the room) or before the first hand (the draw is evened out seat by seat), and at the
    tables where the counts do not tell the capacity or the check needs the seats: locked
    or reserved seats, a seat past the table's size. A double booking is impossible by
    the database's constraints (one player a seat, one seat an entry). The plan's
    `next_hand` covers the tables whose seats were read."""
    with _no_collection():
        return _room_overview(tournament)


@dataclass
class _Made:
    """An overview's plan and check with everything they were made from (`_OVERVIEWS`)."""

    made_from: tuple[Any, ...]  # the tournament's settings, the tables as read, the counts
    rows: dict[int, TableRow]  # the tables as read, decoded
    seats: dict[int, dict[int, int]]  # the tables whose seats were read: seat -> entry
    travelling: set[int]  # whom of those the room waits for
    plan: balancing.RoomPlan
    violations: list[balancing.Violation]


# The last plan and check made for each tournament in this process (the page reloads
# itself every 20 s; most reloads find the room as it was). One is used again only when
# everything it was made from is the same, read again now: every column of every table in
# play, every head count, the event's settings, and the seats it read (a plan is a pure
# function of these). The plan is never stale: nothing is kept that was not compared.
_OVERVIEWS: dict[int, _Made] = {}
_OVERVIEWS_KEPT = 16


def _settings_of(tournament: Tournament) -> tuple[Any, ...]:
    return (
        tournament.seats_per_table,
        tournament.balance_max_diff,
        tournament.break_rule,
        tournament.final_table_rule,
        tournament.deal_in_exclusion,
        tournament.clock_status,
    )


def _room_overview(tournament: Tournament) -> RoomOverview:
    table_values = _table_values(tournament)
    made = _OVERVIEWS.get(tournament.pk)
    # The tables decoded last time while they are as they were (a tenth of the page at
    # 1,112 tables); the rows are only read (each page has its own RoomTables of them).
    rows = (
        made.rows
        if made is not None and made.made_from[1] == table_values
        else _rows_of(table_values)
    )
    by_id = {row.id: row for row in rows.values()}
    counts = dict.fromkeys(rows, 0)
    waiting = 0
    read = {number for number, row in rows.items() if row.locked_seats or row.reserved_seats}
    for table_id, players, travelling, outside in _seat_counts(tournament):
        row = by_id.get(table_id)
        if row is None:
            continue
        counts[row.number] = players
        waiting += travelling
        if outside:
            read.add(row.number)
    if _not_started(tournament, rows.values()):
        return _overview_of(room_load(tournament), counts, waiting)
    needy = _needy(Seat.objects.filter(table__tournament=tournament))
    made_from = (_settings_of(tournament), table_values, counts, needy)
    if made is not None and made.made_from == made_from:
        seats: dict[int, dict[int, int]] = {}
        travelling_ids: set[int] = set()
        _read_seats_at(rows, made.seats.keys(), seats, travelling_ids)
        if seats == made.seats and travelling_ids == made.travelling:
            return RoomOverview(RoomTables(dict(rows)), counts, waiting, made.plan, made.violations)
    settings = room_settings(tournament, list(rows.values()))
    seats = {}
    travelling_ids = set()
    while True:
        _read_seats_at(rows, read - seats.keys(), seats, travelling_ids)
        planner = [
            table
            for number, row in rows.items()
            if (
                table := _planned(row, seats[number], travelling_ids, needy)
                if number in seats
                else _counted(row, counts[number])
            )
            is not None
        ]
        plan = balancing.plan_room(planner, settings)
        if plan.break_table.break_now:
            return _overview_of(room_load(tournament), counts, waiting)
        moved = {int(t) for m in plan.moves for t in (m.from_table, m.to_table)}
        if moved <= seats.keys():
            break
        read |= moved
    violations = balancing.check_room(planner, settings, require_balanced=True)
    if len(_OVERVIEWS) >= _OVERVIEWS_KEPT:
        _OVERVIEWS.clear()
    _OVERVIEWS[tournament.pk] = _Made(made_from, rows, seats, travelling_ids, plan, violations)
    return RoomOverview(RoomTables(dict(rows)), counts, waiting, plan, violations)


def _seat_counts(tournament: Tournament) -> Iterable[tuple[int, int, int, int]]:
    """Each table's (id, players, players not seated yet, seats past its size or below 1);
    tables without seats may be left out."""
    if connection.vendor == "postgresql":
        # Each table's seats counted through the seats' table index (LATERAL): hashing all
        # 10,000 seats of the room by table (the GROUP BY below) took twice as long.
        table, seat = Table._meta.db_table, Seat._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT t.id, c.players, c.travelling, c.outside FROM {table} t"  # noqa: S608
                " CROSS JOIN LATERAL (SELECT count(*) AS players,"
                " count(*) FILTER (WHERE NOT s.arrived) AS travelling,"
                " count(*) FILTER (WHERE s.number < 1 OR s.number > t.max_seats) AS outside"
                f" FROM {seat} s WHERE s.table_id = t.id) c"
                " WHERE t.tournament_id = %s AND t.status <> %s",
                [tournament.pk, Table.Status.CLOSED],
            )
            return cursor.fetchall()
    return (
        Seat.objects.filter(table__tournament=tournament)
        .order_by()
        .values("table_id")
        .annotate(
            players=Count("id"),
            travelling=Count("id", filter=Q(arrived=False)),
            outside=Count("id", filter=Q(number__lt=1) | Q(number__gt=F("table__max_seats"))),
        )
        .values_list("table_id", "players", "travelling", "outside")
    )


def _read_seats_at(
    rows: Mapping[int, TableRow],
    numbers: Iterable[int],
    into: dict[int, dict[int, int]],
    travelling: set[int],
) -> None:
    wanted = {number: rows[number] for number in numbers if number in rows}
    if wanted:
        ids = [row.id for row in wanted.values()]
        _read_seats(Seat.objects.filter(table_id__in=ids), wanted, into, travelling)


def _overview_of(room: Room, counts: dict[int, int], waiting: int) -> RoomOverview:
    return RoomOverview(
        tables=room.tables,
        counts=counts,
        waiting=waiting,
        plan=room_plan(tournament=room.tournament, room=room),
        violations=room_check(tournament=room.tournament, room=room),
    )


def _counted(row: TableRow, players: int) -> balancing.Table | None:
    """A table as the planner sees it from its head count (no locked or reserved seats:
    `_room_overview` reads those tables' seats)."""
    if row.status != Table.Status.OPEN and not players:
        return None
    return balancing.Table(
        table_id=str(row.number),
        max_seats=row.max_seats,
        player_count=players,
        last_hand=positions_of(row),
        number=row.number,
    )


RULE_INITIAL_DRAW = "§6.1"


def before_start(tournament: Tournament, room: Room | None = None) -> bool:
    """Whether no hand has been played yet (clock not started, no button marked): the
    draw may still be evened out."""
    return _not_started(
        tournament, room.tables.light_values() if room is not None else tournament.tables.all()
    )


def _not_started(tournament: Tournament, tables: Iterable[Table | TableRow]) -> bool:
    if tournament.clock_status not in {"not_started", "scheduled"}:
        return False
    return all(t.button is None and not t.hands for t in tables)


def even_out_moves(room: Room) -> tuple[draw.EvenMove, ...]:
    """The moves that spread the players drawn before the start evenly over the fewest
    tables that hold them (§6.1). The latest registrations move first (least likely to be
    at the table yet); the seats are drawn with a generator seeded by the seating, so the
    plan shown is the plan applied."""
    states = [
        draw.TableState(
            number=number,
            max_seats=table.max_seats,
            taken=frozenset(room.seats[number]),
            reserved=frozenset(table.reserved_seats) | frozenset(table.locked_seats),
            accessible=frozenset(table.accessible_seats),
            is_open=table.status == Table.Status.OPEN,
            opening_order=table.opening_order,
        )
        for number, table in zip(room.tables, room.tables.light_values(), strict=True)
    ]
    seated = dict(room.where)
    seed = f"{room.tournament.pk}:" + ",".join(
        f"{e}@{t}/{s}" for e, (t, s) in sorted(seated.items())
    )
    # A player in an accessible seat keeps it (TDA-9).
    movable = sorted(
        (e for e in seated if e not in room.travelling and e not in room.needy), reverse=True
    )
    try:
        return draw.even_out(states, seated, Random(seed), movable=movable)  # noqa: S311
    except draw.RoomFull:
        return ()


def _even_out_plan(room: Room, moves: Sequence[draw.EvenMove]) -> balancing.RoomPlan:
    counts = {str(n): len(seats) for n, seats in room.seats.items()}
    for move in moves:
        counts[str(move.from_table)] -= 1
        counts[str(move.to_table)] += 1
    return balancing.RoomPlan(
        halts=(),
        moves=tuple(
            balancing.Move(
                str(m.from_table),
                str(m.to_table),
                player=str(m.player),
                from_seat=m.from_seat,
                to_seat=m.to_seat,
                rules=(RULE_INITIAL_DRAW,),
            )
            for m in moves
        ),
        counts_after=counts,
        next_hand={},
        break_table=balancing.BreakDecision(break_now=False, table_id=None, free_seats_elsewhere=0),
        final_table=balancing.plan_final_table(
            players_remaining=len(room.where), settings=room.settings
        ),
        rules=(RULE_INITIAL_DRAW,) if moves else (),
    )


def room_plan(*, tournament: Tournament, room: Room | None = None) -> balancing.RoomPlan:
    """What the floor should do now (moves, break, final table), without doing it.

    Before the start it is the evening out of the draw: nobody is halted before a hand."""
    room = room or room_load(tournament)
    if before_start(tournament, room):
        return _even_out_plan(room, even_out_moves(room))
    # A random break order is drawn when applied; the plan shows the list order.
    return balancing.plan_room(room.planner, room.settings)


def room_check(*, tournament: Tournament, room: Room | None = None) -> list[balancing.Violation]:
    """Every breach of the room policy now (capacity, double seats, balance).

    Without a loaded `room`, the check the room's page makes (`room_overview`): from the
    tables' head counts, the seats read only where the counts do not tell, and made again
    only when the room changed. Loading every seat would double a manual move's
    work in a room of a thousand tables."""
    if room is None:
        return room_overview(tournament).violations
    return balancing.check_room(
        room.planner, room.settings, require_balanced=not before_start(tournament, room)
    )


# --- deal-in for newcomers ------------------------------------------------------------


def dealt_in_for(table: Table, seat: int, occupied: Iterable[int], exclusion: str) -> str:
    """Tell a newcomer in `seat` when he plays: next hand, after the button, or ask the
    dealer when the table's positions are unknown (tournament.md §7.4)."""
    last = positions_of(table)
    others = set(occupied) - {seat}
    if last is None or len(others) < 1:
        return Seat.DealtIn.ASK_DEALER if last is None else Seat.DealtIn.NEXT_HAND
    decision = buttons.deal_in(
        max_seats=table.max_seats,
        occupied=others,
        last_hand=last,
        seat=seat,
        deal_in_exclusion=exclusion,  # type: ignore[arg-type]
    )
    return decision.dealt_in_from


# --- button and hands -----------------------------------------------------------------


def _table_for(tournament: Tournament, number: int) -> Table:
    table = (
        Table.objects.select_for_update()
        .filter(tournament=tournament, number=number)
        .exclude(status=Table.Status.CLOSED)
        .first()
    )
    if table is None:
        raise errors.DomainError(_("Table %(table)s is not in play."), table=number)
    return table


def _occupied(table: Table) -> list[int]:
    return list(table.seats.values_list("number", flat=True))


@transaction.atomic
def button_set(
    *, tournament: Tournament, table_number: int, button: int, actor, now: datetime
) -> Table:
    """Mark where the button is for the hand being dealt now; blinds follow (§6.3, §7.1)."""
    table = _table_for(tournament, table_number)
    occupied = _occupied(table)
    try:
        positions = buttons.first_hand(max_seats=table.max_seats, occupied=occupied, button=button)
    except ValueError:
        raise errors.DomainError(
            _("The button must be on a seat with a player, at a table with two or more."),
        ) from None
    before = _positions_data(table)
    _set_positions(table, positions)
    table.hand_started_at = now
    table.save(update_fields=POSITION_FIELDS)
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.button",
        data={"table": table.number, "before": before, "after": _positions_data(table)},
        now=now,
    )
    _broadcast_hand(tournament, table)
    return table


@transaction.atomic
def buttons_draw(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    rng: Random = seat_services.SYSTEM_RANDOM,
    table_numbers: Sequence[int] | None = None,
) -> dict[int, int]:
    """Draw the button by high card at every open table whose button is unknown (or at the
    named tables): one face-up card per seat, highest wins, suits break ties (§6.3-6.4).
    Returns table -> button seat."""
    room = room_load(tournament)
    numbers = table_numbers if table_numbers is not None else list(room.tables)
    drawn: dict[int, int] = {}
    cards_log: dict[str, dict[str, str]] = {}
    befores: dict[str, dict[str, Any]] = {}
    changed: list[Table] = []
    for number in numbers:
        if number not in room.tables:
            continue
        occupied = room.seats[number]
        if len(occupied) < 2 or (
            table_numbers is None and room.tables.light(number).positions_known
        ):
            continue
        table = room.tables[number]
        cards = dict(zip(sorted(occupied), rng.sample(DECK, len(occupied)), strict=True))
        result = buttons.draw_button(max_seats=table.max_seats, cards=cards)
        befores[str(number)] = _positions_data(table)
        _set_positions(table, result.positions)
        table.hand_started_at = now
        changed.append(table)
        drawn[number] = result.winner_seat
        cards_log[str(number)] = {str(seat): card for seat, card in cards.items()}
    if not changed:
        return drawn
    _save_positions(changed)
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.button_draw",
        data={
            "cards": cards_log,
            "before": befores,
            "buttons": {str(k): v for k, v in drawn.items()},
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "buttons", "tables": sorted(drawn)})
    return drawn


@transaction.atomic
def hand_done(
    *, tournament: Tournament, table_numbers: Sequence[int], actor, now: datetime
) -> dict[int, buttons.NextHand]:
    """Start the next hand at each table: the button and blinds move on by the dead-button
    rule and newcomers are dealt in or wait (tournament.md §7.1-7.4)."""
    # Table numbers run 1-9999 (`table_renumber`); a bigger one is no table, and one past
    # the database's integers would fail the IN lookup.
    table_numbers = [n for n in table_numbers if 1 <= n <= 9999]
    tables = list(
        Table.objects.select_for_update()
        .filter(tournament=tournament, number__in=list(table_numbers))
        .exclude(status=Table.Status.CLOSED)
    )
    unknown = [t.number for t in tables if not t.positions_known]
    if unknown:
        raise errors.DomainError(_("Mark the button at table %(table)s first."), table=unknown[0])
    seats: dict[int, list[tuple[int, datetime]]] = {t.pk: [] for t in tables}
    for table_id, number, assigned_at in Seat.objects.filter(
        table__tournament=tournament, table__number__in=list(table_numbers)
    ).values_list("table_id", "number", "assigned_at"):
        if table_id in seats:
            seats[table_id].append((number, assigned_at))
    hands: dict[int, buttons.NextHand] = {}
    befores: dict[str, dict[str, Any]] = {}
    for table in tables:
        occupied = [number for number, _at in seats[table.pk]]
        if len(occupied) < 2:
            continue
        started = table.hand_started_at
        newcomers = [n for n, at in seats[table.pk] if started and at > started]
        hand = buttons.next_hand(
            max_seats=table.max_seats,
            occupied=occupied,
            last_hand=positions_of(table),  # type: ignore[arg-type]
            newcomers=newcomers,
            deal_in_exclusion=tournament.deal_in_exclusion,  # type: ignore[arg-type]
        )
        befores[str(table.number)] = _positions_data(table)
        _set_positions(table, hand.positions)
        table.hands += 1
        table.hand_started_at = now
        hands[table.number] = hand
    changed = [t for t in tables if t.number in hands]
    _save_positions(changed)
    if changed:
        event_log(
            tournament=tournament,
            actor=actor,
            action="table.hand",
            data={"before": befores},
            now=now,
        )
    if len(changed) == 1:
        _broadcast_hand(tournament, changed[0])
    elif changed:
        realtime.broadcast(tournament.pk, {"type": "hands", "tables": sorted(hands)})
    return hands


def _broadcast_hand(tournament: Tournament, table: Table) -> None:
    realtime.broadcast(
        tournament.pk,
        {
            "type": "hand",
            "table": table.number,
            "hand": table.hands,
            "button": table.button,
            "sb": table.sb,
            "bb": table.bb,
            "button_dead": table.button_dead,
            "sb_dead": table.sb_dead,
        },
        tables=(table.number,),
    )


def _undo_positions(event: Event, actor, now: datetime) -> None:
    befores = event.data["before"]
    if "table" in event.data:
        befores = {str(event.data["table"]): befores}
    tables = list(
        Table.objects.filter(
            tournament_id=event.tournament_id, number__in=[int(n) for n in befores]
        )
    )
    for table in tables:
        _restore_positions(table, befores[str(table.number)])
    Table.objects.bulk_update(tables, POSITION_FIELDS)


undoes("table.button")(_undo_positions)
undoes("table.button_draw")(_undo_positions)
undoes("table.hand")(_undo_positions)


# --- applying the plan: moves, breaks, final table ------------------------------------


@dataclass(frozen=True)
class MoveDone:
    entry: int
    name: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    dealt_in: str
    rules: tuple[str, ...] = ()

    def payload(self) -> dict[str, Any]:
        return {
            "type": "move",
            "entry": self.entry,
            "name": self.name,
            "from": {"table": self.from_table, "seat": self.from_seat},
            "to": {"table": self.to_table, "seat": self.to_seat},
            "dealt_in": self.dealt_in,
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class Applied:
    """What one click on Apply did."""

    kind: str  # "balance", "break", "final_table" or "none"
    moves: tuple[MoveDone, ...] = ()
    broken_table: int | None = None
    final_table: int | None = None
    needs_button: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


def _names(entry_ids: Iterable[int]) -> dict[int, str]:
    return {
        e.pk: str(e.player)
        for e in Entry.objects.filter(pk__in=list(entry_ids)).select_related("player")
    }


def _relocate(
    room: Room, moves: list[tuple[int, int, int, int]], now: datetime
) -> dict[tuple[int, int], str]:
    """Move entries (entry, table, seat, dealt_in placeholder) in one delete and one insert;
    each keeps his chips (they are the entry's), and holds the seat until he arrives."""
    where = room.entry_seat()
    Seat.objects.filter(entry_id__in=[m[0] for m in moves]).delete()
    for entry, _t, _s, _d in moves:
        old_table, old_seat = where[entry]
        del room.seats[old_table][old_seat]
        room.touch((old_table,))
    dealt: dict[tuple[int, int], str] = {}
    rows = []
    for entry, table_number, seat, _d in moves:
        table = room.tables[table_number]
        old_table, old_seat = where[entry]
        rows.append(
            Seat(
                table=table,
                number=seat,
                entry_id=entry,
                assigned_at=now,
                moved_from=f"{old_table}/{old_seat}",
                arrived=False,
            )
        )
        room.seats[table_number][seat] = entry
        room.where[entry] = (table_number, seat)
        room.travelling.add(entry)
        room.touch((table_number,))
    # Deal-in is decided per receiving table with all its newcomers at once (§7.4, §9.4).
    by_table: dict[int, list[Seat]] = {}
    for row in rows:
        by_table.setdefault(row.table.number, []).append(row)
    for number, newcomers in by_table.items():
        table = room.tables[number]
        last = positions_of(table)
        occupied = list(room.seats[number])
        if last is None or len(occupied) < 2:
            for row in newcomers:
                row.dealt_in = Seat.DealtIn.ASK_DEALER if last is None else Seat.DealtIn.NEXT_HAND
            continue
        hand = buttons.next_hand(
            max_seats=table.max_seats,
            occupied=occupied,
            last_hand=last,
            newcomers=[r.number for r in newcomers],
            deal_in_exclusion=room.tournament.deal_in_exclusion,  # type: ignore[arg-type]
        )
        for row in newcomers:
            row.dealt_in = (
                Seat.DealtIn.HAND_AFTER_NEXT
                if row.number in hand.waiting
                else Seat.DealtIn.NEXT_HAND
            )
    Seat.objects.bulk_create(rows, batch_size=500)
    for row in rows:
        dealt[(row.table.number, row.number)] = row.dealt_in
    return dealt


def _open(tables: Iterable[Table]) -> None:
    ids = [t.pk for t in tables if t.status != Table.Status.OPEN]
    if ids:
        Table.objects.filter(pk__in=ids).update(status=Table.Status.OPEN)
        for table in tables:
            table.status = Table.Status.OPEN


@transaction.atomic
def plan_apply(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    rng: Random = seat_services.SYSTEM_RANDOM,
) -> Applied:
    """Carry out what the planner says now: form the final table, break the next table by
    seat cards, or make the balancing moves (tournament.md §8-§10). Moves whose table has
    no known button are left for later (the planner asks for it)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    return _apply_once(room_load(tournament), actor, now, rng)


@transaction.atomic
def plan_apply_all(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    rng: Random = seat_services.SYSTEM_RANDOM,
    limit: int = 10_000,
) -> list[Applied]:
    """Apply the plan again and again until nothing is left to do (each break, balance and
    the final table logged on its own, so each can be undone)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    room = room_load(tournament)
    done: list[Applied] = []
    for _step in range(limit):
        applied = _apply_once(room, actor, now, rng)
        if applied.kind == "none":
            break
        done.append(applied)
        room.refresh()
    return done


def _apply_once(room: Room, actor, now: datetime, rng: Random) -> Applied:
    tournament = room.tournament
    settings = room.settings
    if before_start(tournament, room):
        return _even_out(room, actor, now)
    open_tables = [t for t in room.planner if t.count > 0]
    players = sum(t.count for t in open_tables)
    final = balancing.plan_final_table(players_remaining=players, settings=settings)
    if final.formed and len(open_tables) > 1:
        return _final_table(room, final, actor, now, rng)
    decision = balancing.check_break(room.planner, settings, rng=rng)
    if decision.break_now and decision.table_id is not None:
        return _break(room, decision, actor, now, rng)
    plan = balancing.plan_room(room.planner, settings)
    ready = [m for m in plan.moves if m.player is not None and m.to_seat is not None]
    if not ready:
        return Applied("none", needs_button=plan.needs_button, rules=plan.rules)
    where = room.entry_seat()
    moves = [(int(m.player), int(m.to_table), m.to_seat, 0) for m in ready]  # type: ignore[arg-type]
    dealt = _relocate(room, moves, now)
    names = _names(m[0] for m in moves)
    done = tuple(
        MoveDone(
            entry=entry,
            name=names[entry],
            from_table=where[entry][0],
            from_seat=where[entry][1],
            to_table=table,
            to_seat=seat,
            dealt_in=dealt[(table, seat)],
            rules=move.rules,
        )
        for (entry, table, seat, _d), move in zip(moves, ready, strict=True)
    )
    _log_and_push(tournament, actor, now, "room.balance", done, {"rules": list(plan.rules)})
    return Applied("balance", done, needs_button=plan.needs_button, rules=plan.rules)


def _even_out(room: Room, actor, now: datetime) -> Applied:
    """Carry out the evening out of the draw before the start (§6.1), as one undoable
    balance: each mover keeps his entry and holds the new seat until he sits."""
    planned = even_out_moves(room)
    if not planned:
        return Applied("none")
    where = room.entry_seat()
    moves = [(m.player, m.to_table, m.to_seat, 0) for m in planned]
    _open(room.tables[m.to_table] for m in planned)
    dealt = _relocate(room, moves, now)
    names = _names(m.player for m in planned)
    done = tuple(
        MoveDone(
            entry=m.player,
            name=names[m.player],
            from_table=where[m.player][0],
            from_seat=where[m.player][1],
            to_table=m.to_table,
            to_seat=m.to_seat,
            dealt_in=dealt[(m.to_table, m.to_seat)],
            rules=(RULE_INITIAL_DRAW,),
        )
        for m in planned
    )
    _log_and_push(room.tournament, actor, now, "room.balance", done, {"rules": [RULE_INITIAL_DRAW]})
    return Applied("balance", done, rules=(RULE_INITIAL_DRAW,))


@transaction.atomic
def seats_even_out(*, tournament: Tournament, actor, now: datetime) -> Applied:
    """Even out the draw before the first hand (the clock's start calls it)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    room = room_load(tournament)
    return _even_out(room, actor, now)


def _log_and_push(
    tournament: Tournament,
    actor,
    now: datetime,
    action: str,
    done: Sequence[MoveDone],
    extra: dict[str, Any],
) -> None:
    event_log(
        tournament=tournament,
        actor=actor,
        action=action,
        data={
            **extra,
            "moves": [
                {
                    "entry": m.entry,
                    "name": m.name,
                    "from": [m.from_table, m.from_seat],
                    "to": [m.to_table, m.to_seat],
                    "dealt_in": m.dealt_in,
                }
                for m in done
            ],
        },
        now=now,
    )
    for move in done:
        realtime.broadcast(
            tournament.pk,
            move.payload(),
            tables=tuple(dict.fromkeys((move.from_table, move.to_table))),
        )


def _break(
    room: Room, decision: balancing.BreakDecision, actor, now: datetime, rng: Random
) -> Applied:
    """Break a table by the seat-card procedure (TDA-10b, §9.3): the seat cards are shuffled
    face down, each player gets a face-up card, the highest card takes the top seat card."""
    number = int(decision.table_id)  # type: ignore[arg-type]
    players = dict(room.seats[number])
    stack = balancing.shuffle_seat_cards(decision.seat_cards, rng)
    cards = dict(
        zip((str(e) for e in players.values()), rng.sample(DECK, len(players)), strict=True)
    )
    accessible = [
        ref
        for ref in decision.seat_cards
        if ref.seat in room.tables.light(int(ref.table)).accessible_seats
    ]
    draw = balancing.distribute_seat_cards(
        cards=cards,
        seat_card_stack=stack,
        suit_order=room.settings.suit_order,
        accessible=accessible,
        needs_accessible=[str(e) for e in players.values() if e in room.needy],
    )
    where = room.entry_seat()
    moves = [(int(entry), int(ref.table), ref.seat, 0) for entry, ref in draw.assignments.items()]
    receiving = [room.tables[int(ref.table)] for ref in draw.assignments.values()]
    _open(receiving)
    names = _names(players.values())
    dealt = _relocate(room, moves, now)
    done = tuple(
        MoveDone(
            entry=entry,
            name=names[entry],
            from_table=where[entry][0],
            from_seat=where[entry][1],
            to_table=table,
            to_seat=seat,
            dealt_in=dealt[(table, seat)],
            rules=(*decision.rules, draw.rule),
        )
        for entry, table, seat, _d in moves
    )
    broken = room.tables[number]
    before = {"status": broken.status, **_positions_data(broken)}
    broken.status = Table.Status.CLOSED
    _set_positions(broken, None)
    broken.save(update_fields=["status", *POSITION_FIELDS])
    _log_and_push(
        room.tournament,
        actor,
        now,
        "room.break",
        done,
        {
            "table": number,
            "table_before": before,
            "seat_cards": [[int(ref.table), ref.seat] for ref in stack],
            # Face-up cards by entry id, and the order the seat cards went out (TDA-10b).
            "cards": dict(cards),
            "order": [int(e) for e in draw.distribution_order],
            "rules": [*decision.rules, draw.rule],
        },
    )
    realtime.broadcast(room.tournament.pk, {"type": "table_break", "table": number})
    return Applied("break", done, broken_table=number, rules=(*decision.rules, draw.rule))


def _final_table(
    room: Room, final: balancing.FinalTablePlan, actor, now: datetime, rng: Random
) -> Applied:
    """Form the final table: every remaining player redrawn at random to its seats, then the
    button drawn by high card (tournament.md §10, §6.3)."""
    sequence = balancing.break_sequence(room.planner, room.settings)
    number = int(sequence[-1])  # the table that would break last hosts the final
    table = room.tables[number]
    where = room.entry_seat()
    entries = sorted(where)
    usable = [
        s
        for s in range(1, table.max_seats + 1)
        if s not in table.locked_seats and s not in table.reserved_seats
    ]
    if len(usable) < len(entries):
        raise errors.DomainError(
            _("Table %(table)s has too few free seats for the final table."), table=number
        )
    seats = _final_seats(room, number, entries, usable, rng)
    others = [t for n, t in room.tables.items() if n != number and room.seats[n]]
    befores = {str(t.number): {"status": t.status, **_positions_data(t)} for t in [table, *others]}
    moves = [(entry, number, seat, 0) for entry, seat in zip(entries, seats, strict=True)]
    _relocate(room, moves, now)
    cards = dict(zip(sorted(seats), rng.sample(DECK, len(seats)), strict=True))
    drawn = buttons.draw_button(max_seats=table.max_seats, cards=cards)
    _set_positions(table, drawn.positions)
    table.hand_started_at = now
    table.status = Table.Status.OPEN
    table.save(update_fields=["status", *POSITION_FIELDS])
    for other in others:
        other.status = Table.Status.CLOSED
        _set_positions(other, None)
    Table.objects.bulk_update(others, ["status", *POSITION_FIELDS])
    # Everyone plays the first hand of the final table.
    Seat.objects.filter(table=table).update(dealt_in=Seat.DealtIn.NEXT_HAND)
    names = _names(entries)
    done = tuple(
        MoveDone(
            entry=entry,
            name=names[entry],
            from_table=where[entry][0],
            from_seat=where[entry][1],
            to_table=number,
            to_seat=seat,
            dealt_in=Seat.DealtIn.NEXT_HAND,
            rules=(final.rule,),
        )
        for entry, _t, seat, _d in moves
    )
    _log_and_push(
        room.tournament,
        actor,
        now,
        "room.final_table",
        done,
        {
            "table": number,
            "tables_before": befores,
            "button_cards": {str(s): c for s, c in cards.items()},
            "button": drawn.winner_seat,
            "rules": [final.rule, drawn.rule],
        },
    )
    realtime.broadcast(
        room.tournament.pk,
        {"type": "final_table", "table": number, "button": drawn.winner_seat},
        tables=(number,),
    )
    return Applied("final_table", done, final_table=number, rules=(final.rule, drawn.rule))


def _final_seats(
    room: Room, number: int, entries: list[int], usable: list[int], rng: Random
) -> list[int]:
    """Each entry's seat at the final table, drawn at random, except that a player who
    needs an accessible seat gets one (TDA-9): he keeps his own when it is one at this
    table, else one is drawn among the free accessible seats."""
    table = room.tables.light(number)
    accessible = [s for s in usable if s in table.accessible_seats]
    where = room.where
    chosen: dict[int, int] = {}
    needing = [e for e in entries if e in room.needy]
    for entry in needing:
        at, seat = where[entry]
        if at == number and seat in accessible:
            chosen[entry] = seat
            accessible.remove(seat)
    for entry in needing:
        if entry in chosen:
            continue
        if not accessible:
            raise errors.DomainError(
                _("Table %(table)s has too few accessible seats for the final table."),
                table=number,
            )
        chosen[entry] = accessible.pop(rng.randrange(len(accessible)))
    rest = [s for s in usable if s not in chosen.values()]
    others = [e for e in entries if e not in chosen]
    drawn = rng.sample(rest, len(others))
    chosen.update(zip(others, drawn, strict=True))
    return [chosen[e] for e in entries]


def _undo_moves(event: Event, actor, now: datetime) -> None:
    """Put every moved player back in the seat he came from (all or nothing)."""
    moves = event.data["moves"]
    tables = {t.number: t for t in Table.objects.filter(tournament_id=event.tournament_id)}
    restored = list((event.data.get("tables_before") or {}).items())
    if "table_before" in event.data:
        restored.append((event.data["table"], event.data["table_before"]))
    for number, before in restored:
        table = tables[int(number)]
        reopened = table.status != before["status"]
        table.status = before["status"]
        _restore_positions(table, before)
        table.save(update_fields=["status", *POSITION_FIELDS])
        if reopened:
            # The moves' pushes change no figure; a table open again does (tables open).
            realtime.broadcast(
                event.tournament_id,
                {"type": "table", "table": table.number, "status": table.status},
            )
    entries = [m["entry"] for m in moves]
    if any(type(e) is not int for e in entries):
        raise errors.CannotUndo(reason=_("its log row is damaged"))
    if scoped(Entry, event).filter(pk__in=entries).count() != len(set(entries)):
        raise errors.CannotUndo(reason=_("its log row does not match this tournament"))
    current = {
        s.entry_id: (s.table.number, s.number)
        for s in scoped(Seat, event).filter(entry_id__in=entries).select_related("table")
    }
    for move in moves:
        if current.get(move["entry"]) != tuple(move["to"]):
            raise errors.CannotUndo(
                reason=_("%(player)s has moved or left since") % {"player": move["name"]}
            )
    Seat.objects.filter(entry_id__in=entries).delete()
    try:
        with transaction.atomic():
            Seat.objects.bulk_create(
                Seat(
                    table=tables[m["from"][0]],
                    number=m["from"][1],
                    entry_id=m["entry"],
                    assigned_at=now,
                )
                for m in moves
            )
    except IntegrityError:
        raise errors.CannotUndo(reason=_("a seat they came from is taken now")) from None
    tournament_id = event.tournament_id
    for move in moves:
        realtime.broadcast(
            tournament_id,
            {
                "type": "move",
                "entry": move["entry"],
                "name": move["name"],
                "from": {"table": move["to"][0], "seat": move["to"][1]},
                "to": {"table": move["from"][0], "seat": move["from"][1]},
                "dealt_in": Seat.DealtIn.ASK_DEALER,
                "undo": True,
            },
            tables=tuple(dict.fromkeys((move["from"][0], move["to"][0]))),
        )


undoes("room.balance")(_undo_moves)
undoes("room.break")(_undo_moves)
undoes("room.final_table")(_undo_moves)


def auto_apply(*, tournament: Tournament, actor, now: datetime) -> list[Applied]:
    """Apply the plan until nothing is left to do, when the TD lets moves apply themselves.

    Call inside the transaction of the action that changed the room.
    """
    if not tournament.auto_apply_moves:
        return []
    return plan_apply_all(tournament=tournament, actor=actor, now=now)


# --- the player arrives ---------------------------------------------------------------


@transaction.atomic
def move_confirm(
    *, tournament: Tournament, entry: Entry, actor, now: datetime, carried_by: str = ""
) -> Seat:
    """Confirm a moved player sat at his new seat with his chips; when he was absent, record
    which staff member carried them (RP-16, tournament.md §9.5)."""
    seat = (
        Seat.objects.select_for_update()
        .select_related("table")
        .filter(entry=entry, table__tournament=tournament)
        .first()
    )
    if seat is None:
        raise errors.NotPlaying(player=str(entry.player))
    if seat.arrived:
        raise errors.DomainError(_("%(player)s is already seated."), player=str(entry.player))
    carried_by = carried_by.strip()[:60]
    seat.arrived = True
    seat.chips_carried_by = carried_by
    seat.save(update_fields=["arrived", "chips_carried_by"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="seat.arrive",
        data={
            "entry": entry.pk,
            "name": str(entry.player),
            "table": seat.table.number,
            "seat": seat.number,
            "carried_by": carried_by,
            "rule": "RP-16" if carried_by else "",
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {
            "type": "arrived",
            "entry": entry.pk,
            "name": str(entry.player),
            "table": seat.table.number,
            "seat": seat.number,
        },
        tables=(seat.table.number,),
    )
    return seat


@undoes("seat.arrive")
def _undo_arrive(event: Event, actor, now: datetime) -> None:
    if (
        not scoped(Seat, event)
        .filter(entry_id=logged_id(event, "entry"))
        .update(arrived=False, chips_carried_by="")
    ):
        raise errors.CannotUndo(reason=_("the player is no longer in that seat"))


# --- manual control -------------------------------------------------------------------


@transaction.atomic
def table_set_status(
    *, tournament: Tournament, table_number: int, status: str, actor, now: datetime
) -> Table:
    """Open or close a table; a table with players cannot close (move them first)."""
    if status not in (Table.Status.OPEN, Table.Status.CLOSED):
        raise errors.DomainError(_("Unknown table status."))
    table = (
        Table.objects.select_for_update().filter(tournament=tournament, number=table_number).first()
    )
    if table is None:
        raise errors.DomainError(_("Table %(table)s does not exist."), table=table_number)
    if status == Table.Status.CLOSED and table.seats.exists():
        raise errors.TablesInUse(table=table_number)
    before = table.status
    if before == status:
        return table
    table.status = status
    table.save(update_fields=["status"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.status",
        data={"table": table_number, "before": before, "after": status},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "table", "table": table_number, "status": status})
    return table


@undoes("table.status")
def _undo_table_status(event: Event, actor, now: datetime) -> None:
    table = Table.objects.get(tournament_id=event.tournament_id, number=event.data["table"])
    if event.data["before"] == Table.Status.CLOSED and table.seats.exists():
        raise errors.CannotUndo(reason=_("the table has players now"))
    table.status = event.data["before"]
    table.save(update_fields=["status"])


@transaction.atomic
def table_renumber(
    *, tournament: Tournament, table_number: int, new_number: int, actor, now: datetime
) -> Table:
    """Give a table a new number (its seats and players stay)."""
    if not 1 <= new_number <= 9999:
        raise errors.DomainError(_("Give a table number from 1 to 9999."))
    table = (
        Table.objects.select_for_update().filter(tournament=tournament, number=table_number).first()
    )
    if table is None:
        raise errors.DomainError(_("Table %(table)s does not exist."), table=table_number)
    if Table.objects.filter(tournament=tournament, number=new_number).exists():
        raise errors.DomainError(_("Table %(table)s already exists."), table=new_number)
    table.number = new_number
    table.save(update_fields=["number"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.renumber",
        data={"before": table_number, "after": new_number},
        now=now,
    )
    realtime.broadcast(
        tournament.pk, {"type": "table", "table": new_number, "renumbered_from": table_number}
    )
    return table


@undoes("table.renumber")
def _undo_table_renumber(event: Event, actor, now: datetime) -> None:
    if Table.objects.filter(
        tournament_id=event.tournament_id, number=event.data["before"]
    ).exists():
        raise errors.CannotUndo(reason=_("the old number is used by another table"))
    Table.objects.filter(tournament_id=event.tournament_id, number=event.data["after"]).update(
        number=event.data["before"]
    )


@transaction.atomic
def seat_lock(
    *, tournament: Tournament, table_number: int, seat: int, locked: bool, actor, now: datetime
) -> Table:
    """Take a seat out of play (or give it back): no move or draw fills a locked seat."""
    table = _table_for(tournament, table_number)
    if not 1 <= seat <= table.max_seats:
        raise errors.DomainError(
            _("Table %(table)s has no seat %(seat)s."), table=table_number, seat=seat
        )
    if locked and table.seats.filter(number=seat).exists():
        raise errors.SeatTaken(table=table_number, seat=seat)
    before = list(table.locked_seats)
    after = sorted(set(before) | {seat}) if locked else sorted(set(before) - {seat})
    if after == before:
        return table
    table.locked_seats = after
    table.save(update_fields=["locked_seats"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="seat.lock",
        data={
            "table": table_number,
            "seat": seat,
            "locked": locked,
            "before": before,
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {"type": "seat_lock", "table": table_number, "seat": seat, "locked": locked},
        tables=(table_number,),
    )
    return table


@undoes("seat.lock")
def _undo_seat_lock(event: Event, actor, now: datetime) -> None:
    """Unlock (or lock again) this seat only: other seats' locks set since stay."""
    seat, locked = event.data["seat"], event.data["locked"]
    if type(seat) is not int or type(locked) is not bool:
        raise errors.CannotUndo(reason=_("its log row is damaged"))
    table = scoped(Table, event).select_for_update().get(number=event.data["table"])
    current = set(table.locked_seats)
    if locked:
        current.discard(seat)
    elif table.seats.filter(number=seat).exists():
        raise errors.SeatTaken(table=table.number, seat=seat)
    else:
        current.add(seat)
    table.locked_seats = sorted(current)
    table.save(update_fields=["locked_seats"])

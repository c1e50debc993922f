"""Reading a tournament's room: its tables and seats loaded once, the overview the floor
sees, the planner's proposal and its check (tournament.md §7-§10), the deal-in rule for a
newcomer. Writes live in `tournaments/services/moves.py` and `tournaments/services/hands.py`."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from random import Random
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, F, Q, TextField
from django.db.models.functions import Cast

from tables.rules import balancing, buttons, draw
from tournaments.models import Seat, Table, Tournament

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

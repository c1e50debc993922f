"""Seats and tables: the seating board, moves, a table's seats, the public seat finder."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    Func,
    JSONField,
    OuterRef,
    Q,
    QuerySet,
    Window,
)
from django.db.models.functions import Lead, RowNumber

from config.speedups.prepared import NO_ID, Prepared
from tournaments.models import (
    Entry,
    Penalty,
    Seat,
    SeatBoardVersion,
    Table,
    Tournament,
)
from tournaments.rules.penalties import HAND_KINDS
from tournaments.selectors.figures import _one_row
from tournaments.selectors.money import _family_keys
from tournaments.selectors.screens import bounty_shown, entry_bounty

# The seating board's order: the seat's copies of the player's name (one index holds
# them with the tournament), the entry as the tie-break.
BOARD_ORDER = ("board_last_name", "board_first_name", "entry_id")


def seating_board(
    tournament: Tournament, *, page: int, per_page: int = 120, with_entry: bool = False
) -> tuple[list[dict[str, Any]], int, int, list[dict[str, Any]]]:
    """One page of the seating board: active players A-Z with table and seat; the number
    of pages, the page shown (clamped to them) and, on a board of several pages, which
    surnames each page holds ("Bianchi – Colombo"), so a player sees at once which page
    is his.

    What it reads depends on the page, not the field: the page index (the count, the
    first and last seat of every page) is kept for the board's version (`_board_index`),
    then only the page's rows are read, as a range of the seats' board index
    (`Seat.board_*`). A seat is only ever an active entry's (the services free it before
    an entry leaves play), so the seats are the board.

    `with_entry`: each row also names its entry's key, for the board to match pushes."""
    seats = Seat.objects.filter(tournament=tournament)
    fields = ("board_last_name", "board_first_name", "entry_id", "number")
    asked = page
    for fresh in (False, True):
        total, edges = _board_index(tournament, seats, per_page=per_page, fresh=fresh)
        pages = max(len(edges), 1)
        page = min(max(asked, 1), pages)
        if pages == 1:
            break
        # The page's seats: a range of the board's index, from its first seat's surname
        # to its last's, cut at those two seats in the database's own order (a namesake
        # beyond either is another page's).
        first, last = edges[page - 1]
        read: list[tuple] = []
        for r in (
            seats.filter(board_last_name__gte=first[0], board_last_name__lte=last[0])
            .order_by(*BOARD_ORDER)
            .values_list(*fields, "table_id")
        ):
            if read or r[2] == first[2]:
                read.append(r)
            if r[2] == last[2]:
                break
        if read:
            break
        # Its first seat was freed since the version was read (a change committed in
        # between): the index is read again, as it now is.
    index: list[dict[str, Any]] = []
    if pages > 1:
        index = [
            {"page": number, "first": first[0], "last": last[0]}
            for number, (first, last) in enumerate(edges, start=1)
        ]
    if pages == 1:  # the whole board is the page (a small field, a printout)
        found = list(
            seats.order_by(*BOARD_ORDER).values_list(
                *fields, "table__number", "entry__bounty_cents"
            )
        )
    else:
        # Their tables and bounties by key: joined in one query, the planner hashes every
        # entry and table of the event for 120 rows.
        tables = dict(Table.objects.filter(pk__in={r[4] for r in read}).values_list("pk", "number"))
        bounties: dict[int, int | None] = {}
        if tournament.bounty_format in ("fixed", "progressive"):  # else the same for all
            bounties = dict(
                Entry.objects.filter(pk__in=[r[2] for r in read]).values_list("pk", "bounty_cents")
            )
        found = [(*r[:4], tables[r[4]], bounties.get(r[2])) for r in read]
    rows = []
    for last_name, first_name, entry_id, seat, table, bounty_cents in found:
        row: dict[str, Any] = {
            "name": f"{last_name} {first_name}".strip(),  # as str(Player), no model per row
            "table": table,
            "seat": seat,
            "bounty": bounty_shown(tournament, bounty_cents),
        }
        if with_entry:
            row["entry"] = entry_id
        rows.append(row)
    return rows, pages, page, index


# A seat's place in the board's order: (last name, first name, entry).
BoardKey = tuple[str, str, int]
BoardIndex = tuple[int, tuple[tuple[BoardKey, BoardKey], ...]]

# The boards' page indexes, per process, by (tournament, board version, page size): a
# version is the database's random token for the board's order (`SeatBoardVersion`), so
# an index kept here is the board's for as long as its token is the tournament's.
_BOARD_INDEXES: OrderedDict[tuple[int, str, int], BoardIndex] = OrderedDict()
_BOARD_INDEXES_KEPT = 64
_BOARD_INDEXES_LOCK = threading.Lock()


def _board_index(
    tournament: Tournament, seats: QuerySet[Seat], *, per_page: int, fresh: bool = False
) -> BoardIndex:
    """The board's count of seats and each page's first and last seat: kept for the
    board's version, else (or when `fresh`) read (`_board_edges`) and kept. The version is
    read first, so an index is never kept for a version older than the seats it was read
    from."""
    version = _board_version(tournament.pk)
    key = (tournament.pk, version or "", per_page)
    if version is not None and not fresh:
        with _BOARD_INDEXES_LOCK:
            found = _BOARD_INDEXES.get(key)
            if found is not None:
                _BOARD_INDEXES.move_to_end(key)
                return found
    index = _board_edges(seats, per_page=per_page)
    if version is not None:
        with _BOARD_INDEXES_LOCK:
            _BOARD_INDEXES[key] = index
            while len(_BOARD_INDEXES) > _BOARD_INDEXES_KEPT:
                _BOARD_INDEXES.popitem(last=False)
    return index


def _board_version(tournament_id: int) -> str | None:
    """The tournament's board version (`tournaments.models.SeatBoardVersion`); None when it has
    none yet, or when this transaction has itself written (on PostgreSQL the token
    changes when the writer commits: until then it is the one before the writes)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT token, pg_current_xact_id_if_assigned() IS NULL"
                f" FROM {SeatBoardVersion._meta.db_table} WHERE tournament_id = %s",
                [tournament_id],
            )
        else:
            cursor.execute(
                f"SELECT token, 1 FROM {SeatBoardVersion._meta.db_table} WHERE tournament_id = %s",
                [tournament_id],
            )
        row = cursor.fetchone()
    return row[0] if row is not None and row[1] else None


def _board_edges(seats: QuerySet[Seat], *, per_page: int) -> BoardIndex:
    """(count, each page's first and last seat) of the board, in one pass over the
    board's index (index-only: no join, no sort, no count apart). The pages' edges are
    picked by remainder: a list of ranks would be compared with each row."""
    order = [F(key).asc() for key in BOARD_ORDER]
    keys: dict[int, BoardKey] = {}
    total = 0
    for rank, last, first, entry, following in (
        seats.annotate(
            rank=Window(RowNumber(), order_by=order),
            following=Window(Lead("entry_id"), order_by=order),
        )
        .annotate(edge=F("rank") % per_page)
        .filter(Q(edge__in=(0, 1 % per_page)) | Q(following__isnull=True))
        .order_by()
        .values_list("rank", "board_last_name", "board_first_name", "entry_id", "following")
    ):
        keys[rank] = (last, first, entry)
        if following is None:
            total = rank
    edges = tuple(
        (keys[start], keys[min(start + per_page - 1, total)])
        for start in range(1, total + 1, per_page)
    )
    return total, edges


def seating_page(
    tournament: Tournament, *, page: int, per_page: int = 120, with_entry: bool = False
) -> tuple[list[dict[str, Any]], int]:
    """One page of the seating board (`seating_board`) and the number of pages."""
    rows, pages, _page, _index = seating_board(
        tournament, page=page, per_page=per_page, with_entry=with_entry
    )
    return rows, pages


MOVE_ACTIONS = ("seat.move", "room.balance", "room.break", "room.final_table")


MOVES_SHOWN = 12


def recent_moves(tournament: Tournament, now: datetime, *, minutes: int = 15) -> list[dict]:
    """The moves of the last minutes, newest first, for the seating board to list after a
    reload as well as when they are pushed."""
    events = tournament.events.filter(
        action__in=MOVE_ACTIONS, undone_at__isnull=True, at__gte=now - timedelta(minutes=minutes)
    ).order_by("-at", "-pk")[:20]
    if connection.vendor == "postgresql":
        # A balance or a draw of the whole room names every seat moved (9,000 at 10,000
        # entries, 76 kB): only the first twelve of an event's moves are read, in one pass
        # over its log; a single move's log is read whole (it holds no list).
        logged = list(events.annotate(shown=_FirstMoves(F("data"))).values_list("at", "shown"))
    else:
        logged = [
            (event.at, (event.data or {}).get("moves") or [event.data or {}]) for event in events
        ]
    moves: list[dict] = []
    for at, rows in logged:
        # A balance of the whole room names hundreds: only the newest twelve are shown.
        for move in rows[: MOVES_SHOWN - len(moves)]:
            if not move.get("to"):
                continue  # a log of no move (no list, no seat to go to)
            origin, target = move.get("from") or [None, None], move["to"]
            moves.append(
                {
                    "name": move.get("name", ""),
                    "from_table": origin[0],
                    "from_seat": origin[1],
                    "table": target[0],
                    "seat": target[1],
                    "at": at.isoformat(),
                }
            )
    return moves


class _FirstMoves(Func):
    """PostgreSQL: a logged move's list of moves, its first MOVES_SHOWN only, else the log
    itself in a list (a single move), as `recent_moves` reads them; the log is read once."""

    template = (
        "COALESCE(NULLIF(jsonb_path_query_array(%(expressions)s, "
        f"'$.moves[0 to {MOVES_SHOWN - 1}]'), '[]'::jsonb), jsonb_build_array(%(expressions)s))"
    )
    output_field = JSONField()


def table_seats(tournament: Tournament, number: int) -> list[dict[str, Any]]:
    """A table's seats, 1..max, with the player on each (None when empty) and the hands
    left of any penalty he is sitting out (tournament.md §19.2)."""
    return tables_seats(tournament, [number]).get(number, [])


def tables_seats(tournament: Tournament, numbers: list[int]) -> dict[int, list[dict[str, Any]]]:
    """`table_seats` of each named table (those not in the room left out), read in three
    queries however many are named: a break's push brings the list of every table it
    fills, and a trip to the database for each table's table, seats and penalties was
    the push's whole wait."""
    tables = {
        table.pk: table
        for table in Table.objects.filter(tournament=tournament, number__in=numbers).only(
            "number", "max_seats"
        )
    }
    if not tables:
        return {}
    seated: dict[int, dict[int, Entry]] = {table_id: {} for table_id in tables}
    for seat in Seat.objects.select_related("entry__player").filter(
        table_id__in=list(tables), entry__status=Entry.Status.ACTIVE
    ):
        seated[seat.table_id][seat.number] = seat.entry
    players = [e.player_id for held in seated.values() for e in held.values()]
    sitting_out: dict[int, int] = {}
    if players:
        for penalty in Penalty.objects.filter(
            tournament__in=_family_keys(tournament),
            player_id__in=players,
            voided=False,
            kind__in=[k.value for k in HAND_KINDS],
        ):
            if penalty.remaining:
                sitting_out[penalty.player_id] = (
                    sitting_out.get(penalty.player_id, 0) + penalty.remaining
                )
    lists = {}
    for table_id, table in tables.items():
        held = seated[table_id]
        lists[table.number] = [
            {
                "seat": n,
                "name": str(held[n].player) if n in held else None,
                "penalty_hands": sitting_out.get(held[n].player_id, 0) if n in held else 0,
                "bounty": entry_bounty(tournament, held[n]) if n in held else None,
            }
            for n in range(1, table.max_seats + 1)
        ]
    return lists


def public_seat_search(tournament: Tournament, query: str, *, limit: int = 10) -> list[dict]:
    """Players found by name: only name, table and seat (nothing else is public)."""
    words = query.split()[:4]
    if not words or len(query.strip()) < 2:
        return []
    # Through the seats' copies of the names (`Seat.board_*`, a seat is only an active
    # entry's) and their trigram indexes on PostgreSQL (tables 0007): the players' own
    # names are every player's in the database, read whole for a LIKE '%...%'.
    seats = Seat.objects.filter(tournament=tournament)
    for word in words:
        seats = seats.filter(
            Q(board_last_name__icontains=word) | Q(board_first_name__icontains=word)
        )
    found = list(
        seats.order_by("board_last_name", "board_first_name").values_list(
            "entry_id", "table_id", "number"
        )[:limit]
    )
    entries = Entry.objects.select_related("player").in_bulk([r[0] for r in found])
    tables = dict(Table.objects.filter(pk__in={r[1] for r in found}).values_list("pk", "number"))
    return [
        {
            # The entry lets the phone follow its player's pushes (they name the entry).
            "entry": entry,
            "name": str(entries[entry].player),
            "table": tables[table],
            "seat": number,
            "bounty": entry_bounty(tournament, entries[entry]),
        }
        for entry, table, number in found
    ]


CHIP_RACE_SHOWN = timedelta(minutes=30)


def table_chip_race(tournament: Tournament, number: int, now: datetime) -> dict[str, Any] | None:
    """The latest chip race at a table, for its tablet (§12): per seat the chips exchanged,
    the odd chips raced, the cards and who won a chip; shown for half an hour after it."""
    event = (
        tournament.events.filter(
            action="chips.race",
            undone_at__isnull=True,
            at__gte=now - CHIP_RACE_SHOWN,
            data__table=number,
        )
        .order_by("-pk")
        .first()
    )
    if event is None:
        return None
    data = event.data
    seats = sorted(
        {int(s) for s in (data.get("exchanged") or {})}
        | {int(s) for s in (data.get("odd_chips") or {})}
    )
    winners = set(data.get("winners") or [])
    protected = set(data.get("protected") or [])
    return {
        "removed": data.get("removed"),
        "into": data.get("into"),
        "chips_raced": data.get("chips_raced", 0),
        "drawn_by_app": bool(data.get("drawn_by_app")),
        "rows": [
            {
                "seat": seat,
                "exchanged": (data.get("exchanged") or {}).get(str(seat), 0),
                "odd_chips": (data.get("odd_chips") or {}).get(str(seat), 0),
                "cards": (data.get("cards") or {}).get(str(seat), []),
                "won": seat in winners,
                "protected": seat in protected,
            }
            for seat in seats
        ],
    }


def tables_in_play(tournament: Tournament) -> list[dict[str, int]]:
    """Each table with players on it, and how many (one query): a floor page's table
    picker for a big field."""
    rows = (
        Seat.objects.filter(table__tournament=tournament)
        .values("table__number")
        .annotate(players=Count("id"))
        .order_by("table__number")
    )
    return [{"number": r["table__number"], "players": r["players"]} for r in rows]


_TABLES_IN_PLAY = Prepared(
    lambda tournament_id: (
        _one_row(
            Table.objects.filter(tournament_id=tournament_id).filter(
                Exists(Seat.objects.filter(table_id=OuterRef("pk")))
            )
        )
        .annotate(n=Count("id"))
        .values_list("n")
    ),
    tournament_id=NO_ID,
)


def tables_in_play_count(tournament: Tournament) -> int:
    """How many tables have players on them: counted, not listed (`tables_in_play`)."""
    return _TABLES_IN_PLAY.rows(tournament_id=tournament.pk)[0][0]

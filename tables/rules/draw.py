"""The random seat draw (tournament.md §6.1), pure.

Randomness comes from a generator passed in: the services pass a cryptographic one
(`secrets.SystemRandom`), tests pass a seeded `random.Random`. Nothing here touches the
database; the services record what was drawn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random


@dataclass(frozen=True)
class TableState:
    """A table as the draw sees it: which seats are taken and which may be drawn."""

    number: int
    max_seats: int
    taken: frozenset[int] = frozenset()
    reserved: frozenset[int] = frozenset()
    accessible: frozenset[int] = frozenset()
    is_open: bool = True
    opening_order: int = 0

    @property
    def players(self) -> int:
        return len(self.taken)

    def free_seats(self, *, accessible_needed: bool = False) -> list[int]:
        """Seats a random draw may give: free, not reserved; accessible ones kept for those
        who need them while another seat is free."""
        free = [
            s
            for s in range(1, self.max_seats + 1)
            if s not in self.taken and s not in self.reserved
        ]
        if accessible_needed:
            return [s for s in free if s in self.accessible]
        ordinary = [s for s in free if s not in self.accessible]
        return ordinary or free


@dataclass(frozen=True)
class TableLoad:
    """A table as the choice of table sees it: counts only."""

    number: int
    players: int
    free: int  # seats a draw may give
    is_open: bool = True
    opening_order: int = 0


@dataclass(frozen=True)
class SeatChoice:
    table: int
    seat: int
    opened_table: bool = False


class RoomFull(Exception):
    """No free seat at an open table and no table left to open."""


class NoAccessibleSeat(Exception):
    """The player needs an accessible seat and none is free."""


def planned_tables(loads: Sequence[TableLoad], expected: int) -> frozenset[int]:
    """The tables the room plans for an expected field: the fewest that seat it, those
    already open first, then the others in their opening order (tournament.md §6.1).
    Drawing every registration over them from the first keeps the field within one seat
    at every moment, so the start moves nobody."""
    ordered = sorted(loads, key=lambda t: (not t.is_open, t.opening_order, t.number))
    planned: list[int] = []
    room = 0
    for table in ordered:
        if room >= expected:
            break
        planned.append(table.number)
        room += table.free + table.players
    return frozenset(planned)


def choose_table(
    loads: Sequence[TableLoad], rng: Random, *, planned: Collection[int] = ()
) -> tuple[int, bool]:
    """Pick the table for one entry: among open tables with a free seat, and the tables
    `planned` for the expected field, one with the fewest players (drawn among equals);
    when all are full, the next table in the opening order opens (tournament.md §5.3,
    §6.1). Returns (table number, opened)."""
    open_tables = [t for t in loads if (t.is_open or t.number in planned) and t.free > 0]
    if not open_tables:
        closed = sorted(
            (t for t in loads if not t.is_open and t.free > 0),
            key=lambda t: (t.opening_order, t.number),
        )
        if not closed:
            raise RoomFull
        return closed[0].number, True
    fewest = min(t.players for t in open_tables)
    candidates = [t for t in open_tables if t.players == fewest]
    chosen = candidates[rng.randrange(len(candidates))]
    return chosen.number, not chosen.is_open


def choose_seat(
    tables: Sequence[TableState],
    rng: Random,
    *,
    accessible_needed: bool = False,
    planned: Collection[int] = (),
) -> SeatChoice:
    """Pick a table (fewest players, `planned` ones counted open) and a random free seat."""
    by_number = {t.number: t for t in tables}
    loads = [
        TableLoad(
            number=t.number,
            players=t.players,
            free=len(t.free_seats(accessible_needed=accessible_needed)),
            is_open=t.is_open,
            opening_order=t.opening_order,
        )
        for t in tables
    ]
    try:
        number, opened = choose_table(loads, rng, planned=planned)
    except RoomFull:
        if accessible_needed and any(t.free_seats() for t in tables):
            raise NoAccessibleSeat from None
        raise
    seats = by_number[number].free_seats(accessible_needed=accessible_needed)
    return SeatChoice(table=number, seat=seats[rng.randrange(len(seats))], opened_table=opened)


@dataclass(frozen=True)
class InitialDraw:
    """The start-of-event draw: which tables open and where each entry sits."""

    opened_tables: tuple[int, ...]
    assignments: dict[int, tuple[int, int]] = field(default_factory=dict)  # entry -> (table, seat)


def initial_draw(
    entries: Sequence[int],
    tables: Sequence[TableState],
    rng: Random,
    *,
    accessible_needed: frozenset[int] = frozenset(),
    expected: int = 0,
) -> InitialDraw:
    """Seat every entry at random on as few tables as needed, counts differing by at most one.

    Tables open in their opening order; reserved seats are never drawn; players who need an
    accessible seat get one first. With an `expected` field, the draw spreads over the
    tables planned for it (as many as seat it, as far as the room has them), so the players
    still to come fill them evenly and no seat card changes before the first hand. Raises
    RoomFull when the room cannot hold them all, NoAccessibleSeat when the tables drawn have
    too few accessible seats.
    """
    ordered = sorted((t for t in tables if not t.taken), key=lambda t: (t.opening_order, t.number))
    capacity = [len(t.free_seats()) for t in ordered]
    needed, room = 0, 0
    while room < len(entries) or (room < expected and needed < len(ordered)):
        if needed == len(ordered):
            raise RoomFull
        room += capacity[needed]
        needed += 1
    chosen = ordered[:needed]
    quotas = _even_quotas(len(entries), [len(t.free_seats()) for t in chosen], rng)
    # Accessible needs first: give those players tables with accessible seats.
    shuffled = list(entries)
    rng.shuffle(shuffled)
    needing = [e for e in shuffled if e in accessible_needed]
    others = [e for e in shuffled if e not in accessible_needed]
    assignments: dict[int, tuple[int, int]] = {}
    remaining = dict(zip((t.number for t in chosen), quotas, strict=True))
    free: dict[int, list[int]] = {}
    for table in chosen:
        seats = [s for s in range(1, table.max_seats + 1) if s not in table.reserved]
        rng.shuffle(seats)
        # Accessible seats last in the ordinary pool, so they stay free for those who need them.
        seats.sort(key=lambda s: s in table.accessible)
        free[table.number] = seats
    for entry in needing:
        for table in chosen:
            if remaining[table.number] == 0:
                continue
            access = [s for s in free[table.number] if s in table.accessible]
            if access:
                seat = access[0]
                free[table.number].remove(seat)
                remaining[table.number] -= 1
                assignments[entry] = (table.number, seat)
                break
        else:
            # An accessible seat is a hard constraint (TDA-9): never an ordinary seat instead.
            raise NoAccessibleSeat
    # Fill the tables in opening order (one pass over them, not one scan per player: a
    # 10,000-entry draw over 1,112 tables was quadratic here).
    pending = iter(t.number for t in chosen)
    table_number = next(pending, None)
    for entry in others:
        while table_number is not None and not remaining[table_number]:
            table_number = next(pending, None)
        if table_number is None:  # pragma: no cover - the quotas hold every entry
            raise RoomFull
        seat = free[table_number].pop(0)
        remaining[table_number] -= 1
        assignments[entry] = (table_number, seat)
    return InitialDraw(opened_tables=tuple(t.number for t in chosen), assignments=assignments)


def _even_quotas(total: int, capacities: list[int], rng: Random) -> list[int]:
    """Split `total` over tables so counts differ by at most one where capacity permits;
    which tables take the odd players is drawn."""
    if not capacities:
        return []
    quotas = [0] * len(capacities)
    left = total
    while left:
        open_ = [i for i, cap in enumerate(capacities) if quotas[i] < cap]
        if not open_:
            raise RoomFull
        share = left // len(open_)
        if share:
            for i in open_:
                add = min(share, capacities[i] - quotas[i])
                quotas[i] += add
                left -= add
        else:
            for i in rng.sample(open_, left):
                quotas[i] += 1
            left = 0
    return quotas


@dataclass(frozen=True)
class EvenMove:
    """One move of the start-of-event evening out: `player` from one seat to another."""

    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


def even_out(
    tables: Sequence[TableState],
    seated: Mapping[int, tuple[int, int]],
    rng: Random,
    *,
    movable: Sequence[int] | None = None,
) -> tuple[EvenMove, ...]:
    """Spread the players drawn before the start evenly over the fewest tables that hold
    them (tournament.md §6.1: counts differing by at most one), in as few moves as can be.

    `seated` maps each player to (table, seat); `movable` lists the players who may move,
    preferred first (the latest registrations, likely not yet at the table); by default
    every seated player, in a drawn order. Tables keep their opening order: the tables
    already in play stay, and a table opens only when the players outgrow them.
    Destination seats are drawn among the free seats of the table that needs players.
    """
    usable = sorted(tables, key=lambda t: (t.opening_order, t.number))
    total = len(seated)
    if total == 0:
        return ()
    # A draw already within one seat over the tables in play stays as it is: the seat
    # cards handed out are right, whatever the fewest tables would have been.
    counts_in_play = [t.players for t in usable if t.players]
    if max(counts_in_play) - min(counts_in_play) <= 1 and all(
        t.players or not t.is_open for t in usable
    ):
        return ()
    # The fewest tables that hold everyone: the fullest in play first, then opening order.
    in_play = sorted((t for t in usable if t.taken), key=lambda t: -t.players)
    chosen: list[TableState] = []
    room = 0
    for table in [*in_play, *(t for t in usable if not t.taken)]:
        if room >= total:
            break
        chosen.append(table)
        room += len(table.free_seats()) + table.players
    if room < total:
        raise RoomFull
    counts = {t.number: t.players for t in [*in_play, *chosen]}
    split = sorted(
        _even_quotas(total, [len(t.free_seats()) + t.players for t in chosen], rng),
        reverse=True,
    )
    # The larger shares go to the tables that already hold more: fewer moves.
    quotas = dict.fromkeys(counts, 0)
    for table, share in zip(chosen, split, strict=True):
        quotas[table.number] = share
    if movable is None:
        movable = list(seated)
        rng.shuffle(movable)
    free = {t.number: t.free_seats() for t in chosen}
    for seats in free.values():
        rng.shuffle(seats)
    givers = {n for n in counts if counts[n] > quotas[n]}
    moves: list[EvenMove] = []
    for player in movable:
        origin, seat = seated[player]
        if origin not in givers:
            continue
        takers = [n for n in counts if counts[n] < quotas[n] and free[n]]
        if not takers:
            break
        target = takers[rng.randrange(len(takers))]
        to_seat = free[target].pop()
        moves.append(EvenMove(player, origin, seat, target, to_seat))
        counts[origin] -= 1
        counts[target] += 1
        if counts[origin] <= quotas[origin]:
            givers.discard(origin)
    return tuple(moves)

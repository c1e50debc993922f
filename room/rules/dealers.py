"""The dealers' rotation: who goes to which table and who goes on break at the next push (pure).

Given the open tables of the whole room (tournament, cash, pit, each with its game), the
dealers on shift and the time, `next_push` says when the next push is due and what it
does; `apply_push` gives the dealers' state after it. The rules and their settings are
described in room/rules/README.md. No Django, no I/O, no clock: time is passed in.

Planning is O(n log n) in tables + dealers: one pass to find what is due, one sort of the
dealers out, then a greedy choice over the (at most 16) kinds of dealer by the games they
deal, so the whole room (thousands of tables) is planned in milliseconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

GAMES = ("holdem", "omaha", "blackjack", "punto_banco")

_GAME_BIT = {game: 1 << index for index, game in enumerate(GAMES)}
_ALL_MASKS = range(1 << len(GAMES))
# For each set of games, the sets that hold it (as a list, and as bits over set numbers).
_SUPERSETS = {mask: [s for s in _ALL_MASKS if s & mask == mask] for mask in _ALL_MASKS}
_SUPERSET_BITS = {mask: sum(1 << s for s in _SUPERSETS[mask]) for mask in _ALL_MASKS}
_MINUTE = timedelta(minutes=1)


@dataclass(frozen=True)
class RotationSettings:
    """The room's rotation: the length of a down, of a break, and the most a dealer deals
    between two breaks (four downs of 30 minutes by default)."""

    down_minutes: int = 30
    break_minutes: int = 20
    max_minutes_without_break: int = 120

    def __post_init__(self) -> None:
        if self.down_minutes < 1 or self.break_minutes < 1:
            raise ValueError("a down and a break last at least one minute")
        if self.max_minutes_without_break < self.down_minutes:
            raise ValueError("the time without a break must hold at least one down")


@dataclass(frozen=True)
class OpenTable:
    key: str  # stable across kinds: "tournament:12", "cash:3", "pit:2"
    game: str  # one of GAMES
    keep_dealer: bool = False  # a final table, a TV table: its dealer stays put


@dataclass(frozen=True)
class DealerOnShift:
    id: int
    games: frozenset[str]
    table: str | None  # table key dealt now; None when out (break/waiting)
    since: datetime  # sat at that table at / went out at
    # Minutes on the box since the last break, not counting the down being dealt now.
    box_minutes_since_break: int
    # Seated: the table dealt before this one. Out: the table of the last down.
    last_table: str | None = None
    on_break_until: datetime | None = None
    # Minutes dealt this shift, the down being dealt not counted: of dealers out since
    # the same moment, the one who has dealt less goes in first.
    shift_box_minutes: int = 0


@dataclass(frozen=True)
class Move:
    dealer_id: int
    table: str | None  # None: goes out (on break when break_until is set, else waiting)
    break_until: datetime | None = None
    # Sits down after a break (on break, or out a break's length): his minutes on the box
    # start again from zero.
    rested: bool = False


@dataclass(frozen=True)
class Push:
    at: datetime  # when this push is due (now when a table is unstaffed and someone can deal it)
    moves: tuple[Move, ...]
    unstaffed: tuple[str, ...]  # open tables nobody able can deal


def minutes_between(start: datetime, end: datetime) -> int:
    """Whole minutes from start to end; a part of a minute counts as a minute."""
    if end <= start:
        return 0
    whole, rest = divmod(end - start, _MINUTE)
    return int(whole) + (1 if rest else 0)


def games_mask(games: Iterable[str]) -> int:
    """The bit set of the known games among `games` (unknown names deal nothing)."""
    mask = 0
    for game in games:
        mask |= _GAME_BIT.get(game, 0)
    return mask


def had_break(dealer: DealerOnShift, at: datetime, settings: RotationSettings) -> bool:
    """True when the dealer, out, has had a break by `at`: his break is over, or he has
    been out at least a break's length."""
    if dealer.table is not None:
        return False
    if dealer.on_break_until is not None and dealer.on_break_until <= at:
        return True
    return at - dealer.since >= settings.break_minutes * _MINUTE


def box_minutes(dealer: DealerOnShift, at: datetime, settings: RotationSettings) -> int:
    """Minutes on the box since the last break as of `at`, the down being dealt included."""
    if dealer.table is None:
        return 0 if had_break(dealer, at, settings) else dealer.box_minutes_since_break
    return dealer.box_minutes_since_break + minutes_between(dealer.since, at)


def down_ends(dealer: DealerOnShift, keep_dealer: bool, settings: RotationSettings) -> datetime:
    """When the seated dealer's down ends: after a down's length, or (a table that keeps its
    dealer) only when his break is due; never past his time without a break."""
    left = max(0, settings.max_minutes_without_break - dealer.box_minutes_since_break)
    minutes = left if keep_dealer else min(settings.down_minutes, left)
    return dealer.since + minutes * _MINUTE


def _ready_at(dealer: DealerOnShift, settings: RotationSettings) -> datetime:
    """The first moment a dealer who is out may deal a full down."""
    ready = dealer.since
    if dealer.on_break_until is not None and dealer.on_break_until > ready:
        ready = dealer.on_break_until
    needs_break = (
        dealer.box_minutes_since_break + settings.down_minutes > settings.max_minutes_without_break
    )
    if needs_break:
        break_over = dealer.since + settings.break_minutes * _MINUTE
        if dealer.on_break_until is not None:
            break_over = min(break_over, dealer.on_break_until)
        ready = max(ready, break_over)
    return ready


@dataclass
class _Candidate:
    """A dealer who may sit down at this push, in the line's order (longest out first)."""

    out_since: datetime
    dealt: int
    id: int
    mask: int
    # The table of his last down when he has had no break since (he may not go back),
    # and that table's game bit (0 when none or when that table is closed).
    barred: str | None
    barred_game: int
    rested: bool = False


def next_push(
    tables: Sequence[OpenTable],
    dealers: Sequence[DealerOnShift],
    now: datetime,
    settings: RotationSettings,
) -> Push:
    """Plan the next push: when it is due and who goes where.

    The push is due now when a table is open with nobody at it and a free dealer can deal
    it, or when a dealer sits at a table that is no longer open; otherwise at the first
    down that ends (or the first dealer free for a table nobody deals yet). Raises
    ValueError for a table of an unknown game or two tables with one key.
    """
    open_tables: dict[str, OpenTable] = {}
    for table in tables:
        if table.game not in _GAME_BIT:
            raise ValueError(f"table {table.key}: unknown game {table.game!r}")
        if table.key in open_tables:
            raise ValueError(f"table {table.key} is listed twice")
        open_tables[table.key] = table

    seated: dict[str, DealerOnShift] = {}
    freed: list[DealerOnShift] = []  # at a table no longer open, or a second dealer at one
    out: list[DealerOnShift] = []
    for dealer in dealers:
        key = dealer.table
        if key is None:
            out.append(dealer)
        elif key not in open_tables:
            freed.append(dealer)
        elif key not in seated:
            seated[key] = dealer
        else:
            # Two at one table: the one who sat first stays.
            other = seated[key]
            if (dealer.since, dealer.id) < (other.since, other.id):
                seated[key], dealer = dealer, other
            freed.append(dealer)

    masks: dict[frozenset[str], int] = {}
    due = _downs_end(open_tables, seated, settings)
    unstaffed_mask = 0
    for key, table in open_tables.items():
        if key not in seated:
            unstaffed_mask |= _GAME_BIT[table.game]

    at = _push_time(due, freed, out, unstaffed_mask, masks, now, settings)
    return _plan(open_tables, seated, due, freed, out, masks, at, settings)


def _mask(dealer: DealerOnShift, masks: dict[frozenset[str], int]) -> int:
    mask = masks.get(dealer.games)
    if mask is None:
        mask = masks[dealer.games] = games_mask(dealer.games)
    return mask


def _downs_end(
    open_tables: dict[str, OpenTable], seated: dict[str, DealerOnShift], settings: RotationSettings
) -> dict[str, datetime]:
    """When each dealt table's down ends (`down_ends`, in one pass)."""
    down = settings.down_minutes * _MINUTE
    limit = settings.max_minutes_without_break
    full_down_below = limit - settings.down_minutes
    due: dict[str, datetime] = {}
    for key, dealer in seated.items():
        box = dealer.box_minutes_since_break
        if box <= full_down_below and not open_tables[key].keep_dealer:
            due[key] = dealer.since + down
        else:
            due[key] = dealer.since + max(0, limit - box) * _MINUTE
    return due


def _push_time(
    due: dict[str, datetime],
    freed: list[DealerOnShift],
    out: list[DealerOnShift],
    unstaffed_mask: int,
    masks: dict[frozenset[str], int],
    now: datetime,
    settings: RotationSettings,
) -> datetime:
    if freed:
        return now
    first: datetime | None = min(due.values()) if due else None
    if unstaffed_mask:
        for dealer in out:
            if not _mask(dealer, masks) & unstaffed_mask:
                continue
            ready = _ready_at(dealer, settings)
            if ready <= now:
                return now
            if first is None or ready < first:
                first = ready
    return now if first is None or first < now else first


def _plan(
    open_tables: dict[str, OpenTable],
    seated: dict[str, DealerOnShift],
    due: dict[str, datetime],
    freed: list[DealerOnShift],
    out: list[DealerOnShift],
    masks: dict[frozenset[str], int],
    at: datetime,
    settings: RotationSettings,
) -> Push:
    moves: dict[int, Move] = {}
    break_until = at + settings.break_minutes * _MINUTE
    room_for_a_down = settings.max_minutes_without_break - settings.down_minutes

    # Tables to fill at this push: nobody at them, or their down ends by `at`.
    to_fill: list[str] = []
    # A dealer freed from a table still open (a second dealer there) may not go back to it.
    leaving: list[tuple[DealerOnShift, str | None]] = [(d, d.table) for d in freed]
    for key in open_tables:
        ends = due.get(key)
        if ends is None:
            to_fill.append(key)
        elif ends <= at:
            to_fill.append(key)
            leaving.append((seated[key], key))
    to_fill.sort()

    line: list[_Candidate] = []
    for dealer in out:
        if _ready_at(dealer, settings) > at:
            continue
        rested = had_break(dealer, at, settings)
        barred = None if rested else dealer.last_table
        candidate = _candidate(dealer, dealer.since, barred, open_tables, _mask(dealer, masks))
        candidate.rested = rested
        line.append(candidate)
    # Leaving dealers go to the back of the line, or on break when another down would take
    # them past the time without a break.
    for dealer, left_table in sorted(leaving, key=lambda item: item[0].id):
        if box_minutes(dealer, at, settings) > room_for_a_down:
            moves[dealer.id] = Move(dealer.id, None, break_until)
        else:
            line.append(_candidate(dealer, at, left_table, open_tables, _mask(dealer, masks)))
            moves[dealer.id] = Move(dealer.id, None)
    line.sort(key=lambda c: (c.out_since, c.dealt, c.id))

    by_game: dict[int, list[str]] = {bit: [] for bit in _GAME_BIT.values()}
    for key in to_fill:
        by_game[_GAME_BIT[open_tables[key].game]].append(key)
    need = {bit: len(keys) for bit, keys in by_game.items()}

    chosen, passed_over = _choose(line, need)
    games = _share_games(chosen, need)
    seats = [
        (candidate, key, bit)
        for bit, keys in by_game.items()
        for candidate, key in _seat(games.get(bit, []), keys)
    ]
    filled: set[str] = set()
    # A dealer who leaves and comes back to his own table still moves (a new down starts
    # there), so that the push is not due again at once.
    for candidate, key, _ in _unbar(seats, passed_over):
        moves[candidate.id] = Move(candidate.id, key, rested=candidate.rested)
        filled.add(key)
    unstaffed = tuple(key for key in to_fill if key not in filled)
    return Push(at, tuple(moves[i] for i in sorted(moves)), unstaffed)


def _candidate(
    dealer: DealerOnShift,
    out_since: datetime,
    barred: str | None,
    open_tables: dict[str, OpenTable],
    mask: int,
) -> _Candidate:
    table = open_tables.get(barred) if barred is not None else None
    dealt = dealer.shift_box_minutes
    if dealer.table is not None:
        dealt += minutes_between(dealer.since, out_since)
    if table is None:
        return _Candidate(out_since, dealt, dealer.id, mask, None, 0)
    return _Candidate(out_since, dealt, dealer.id, mask, barred, _GAME_BIT[table.game])


def _choose(
    line: list[_Candidate], need: dict[int, int]
) -> tuple[list[_Candidate], list[_Candidate]]:
    """Pick who sits down: the longest out first, skipping only a dealer whose games could
    not be dealt beside those already picked (a greedy over a transversal matroid, so as
    many tables as possible are dealt). Hall's condition is kept per set of games:
    for every set S, the dealers picked who deal only games in S fit S's tables."""
    capacity = [0] * len(_ALL_MASKS)
    for subset in _ALL_MASKS:
        capacity[subset] = sum(n for bit, n in need.items() if bit & subset)
    used = [0] * len(_ALL_MASKS)
    full = 0  # bit s set: the sets of games s has no table left for one more dealer
    for subset in _ALL_MASKS:
        if capacity[subset] == 0:
            full |= 1 << subset
    total = capacity[-1]
    chosen: list[_Candidate] = []
    passed_over: list[_Candidate] = []
    for candidate in line:
        mask = candidate.mask
        if len(chosen) == total or not mask or full & _SUPERSET_BITS[mask]:
            passed_over.append(candidate)
            continue
        for subset in _SUPERSETS[mask]:
            used[subset] += 1
            if used[subset] == capacity[subset]:
                full |= 1 << subset
        chosen.append(candidate)
    return chosen, passed_over


def _share_games(chosen: list[_Candidate], need: dict[int, int]) -> dict[int, list[_Candidate]]:
    """Give each chosen dealer one of his games so that no game gets more dealers than it
    has tables to fill (a small max flow over the kinds of dealer, then dealers in line
    order, each away from the game of the table he may not go back to when he can, those
    for whom it is the only table of its game to fill first)."""
    count: dict[int, int] = {}
    for candidate in chosen:
        count[candidate.mask] = count.get(candidate.mask, 0) + 1
    flow = _kind_flow(count, need)
    share: dict[int, list[_Candidate]] = {}
    waiting: list[_Candidate] = []
    # Those whose barred table is the only one of its game to fill choose first.
    tight = sorted(chosen, key=lambda c: not (c.barred_game and need[c.barred_game] == 1))
    for candidate in tight:
        left = flow[candidate.mask]
        barred_bit = candidate.barred_game
        bit = next((b for b in left if left[b] > 0 and b != barred_bit), None)
        if bit is None:
            waiting.append(candidate)
            continue
        left[bit] -= 1
        share.setdefault(bit, []).append(candidate)
    for candidate in waiting:
        left = flow[candidate.mask]
        bit = next(b for b in left if left[b] > 0)
        left[bit] -= 1
        share.setdefault(bit, []).append(candidate)
    for dealers in share.values():
        dealers.sort(key=lambda c: (c.out_since, c.dealt, c.id))
    return share


def _kind_flow(count: dict[int, int], need: dict[int, int]) -> dict[int, dict[int, int]]:
    """How many dealers of each kind (bit set of games) deal each game: a max flow from
    the kinds to the games' tables, augmented by whole bottlenecks (a graph of at most
    15 kinds and 4 games)."""
    flow: dict[int, dict[int, int]] = {kind: {} for kind in count}
    for kind in count:
        for bit in _GAME_BIT.values():
            if kind & bit:
                flow[kind][bit] = 0
    supply = dict(count)
    room = dict(need)
    while True:
        path = _augmenting_path(supply, room, flow)
        if path is None:
            return flow
        kind0, steps, last_bit = path
        amount = min(supply[kind0], room[last_bit])
        for kind, bit, forward in steps:
            if not forward:
                amount = min(amount, flow[kind][bit])
        supply[kind0] -= amount
        room[last_bit] -= amount
        for kind, bit, forward in steps:
            flow[kind][bit] += amount if forward else -amount


def _augmenting_path(
    supply: dict[int, int], room: dict[int, int], flow: dict[int, dict[int, int]]
) -> tuple[int, list[tuple[int, int, bool]], int] | None:
    """A shortest path source -> kind -> game (-> kind back along a used edge -> game)* ->
    sink in the residual graph, as (first kind, edges, last game), or None."""
    came_to_game: dict[int, tuple[int, int | None]] = {}  # game <- (kind, previous game)
    came_to_kind: dict[int, int | None] = {}  # kind <- game it was reached back from
    frontier = [kind for kind, left in supply.items() if left > 0]
    for kind in frontier:
        came_to_kind[kind] = None
    while frontier:
        games_reached: list[int] = []
        for kind in frontier:
            for bit in flow[kind]:
                if bit not in came_to_game:
                    came_to_game[bit] = (kind, came_to_kind[kind])
                    games_reached.append(bit)
        for bit in games_reached:
            if room[bit] > 0:
                return _unwind(bit, came_to_game, came_to_kind)
        frontier = []
        for bit in games_reached:
            for kind, edges in flow.items():
                if kind not in came_to_kind and edges.get(bit, 0) > 0:
                    came_to_kind[kind] = bit
                    frontier.append(kind)
    return None


def _unwind(
    bit: int, came_to_game: dict[int, tuple[int, int | None]], came_to_kind: dict[int, int | None]
) -> tuple[int, list[tuple[int, int, bool]], int]:
    steps: list[tuple[int, int, bool]] = []
    last = bit
    game: int | None = bit
    while True:
        assert game is not None
        kind, _ = came_to_game[game]
        steps.append((kind, game, True))
        back = came_to_kind[kind]
        if back is None:
            return kind, steps, last
        steps.append((kind, back, False))
        game = back


def _seat(dealers: list[_Candidate], keys: list[str]) -> list[tuple[_Candidate, str]]:
    """Seat one game's dealers (line order) at its tables (in order), each away from the
    table he may not go back to while another is left; the last one may be left there."""
    remaining = deque(keys)
    seats: list[tuple[_Candidate, str]] = []
    for dealer in dealers:
        if not remaining:
            break
        first = remaining.popleft()
        if first == dealer.barred and remaining:
            seats.append((dealer, remaining.popleft()))
            remaining.appendleft(first)
        else:
            seats.append((dealer, first))
    return seats


def _unbar(
    seats: list[tuple[_Candidate, str, int]], passed_over: list[_Candidate]
) -> list[tuple[_Candidate, str, int]]:
    """A dealer left at the table he may not go back to swaps with a seated dealer who may
    take it (and whose table he may deal), else gives it to the first dealer passed over
    at this push who may deal it; else he goes back to it: nobody else can."""
    for index, (dealer, key, bit) in enumerate(seats):
        if key != dealer.barred:
            continue
        for other_index, (other, other_key, other_bit) in enumerate(seats):
            if (
                other.barred != key
                and other.mask & bit
                and dealer.mask & other_bit
                and other_key != dealer.barred
            ):
                seats[index] = (dealer, other_key, other_bit)
                seats[other_index] = (other, key, bit)
                break
        else:
            for other_index, other in enumerate(passed_over):
                if other.mask & bit and other.barred != key:
                    del passed_over[other_index]
                    seats[index] = (other, key, bit)
                    break
    return seats


def apply_push(
    push: Push, dealers: Sequence[DealerOnShift], now: datetime
) -> tuple[DealerOnShift, ...]:
    """The dealers' state once the push is made at `now` (in the order given).

    A dealer who sits down starts a down at `now`, his minutes on the box carried (none
    after a break); one who goes on break has his minutes cleared; one who goes out to
    wait keeps them until he has been out a break's length. Raises ValueError for a move
    of a dealer not on shift.
    """
    by_id = {dealer.id: dealer for dealer in dealers}
    moves: dict[int, Move] = {}
    for move in push.moves:
        if move.dealer_id not in by_id:
            raise ValueError(f"dealer {move.dealer_id} is not on shift")
        moves[move.dealer_id] = move
    after: list[DealerOnShift] = []
    for dealer in dealers:
        found = moves.get(dealer.id)
        after.append(dealer if found is None else _moved(dealer, found, now))
    return tuple(after)


def _moved(dealer: DealerOnShift, move: Move, now: datetime) -> DealerOnShift:
    shift = dealer.shift_box_minutes
    if dealer.table is None:
        box = 0 if move.rested else dealer.box_minutes_since_break
        last = dealer.last_table
    else:
        dealt = minutes_between(dealer.since, now)
        box = dealer.box_minutes_since_break + dealt
        shift += dealt
        last = dealer.table
    if move.table is not None:
        return replace(
            dealer,
            table=move.table,
            since=now,
            box_minutes_since_break=box,
            last_table=last,
            on_break_until=None,
            shift_box_minutes=shift,
        )
    return replace(
        dealer,
        table=None,
        since=now,
        box_minutes_since_break=0 if move.break_until is not None else box,
        last_table=last,
        on_break_until=move.break_until,
        shift_box_minutes=shift,
    )

"""The room planner: halting, balancing moves, table breaks and the final table (pure).

Implements tournament.md §8 (balancing), §9 (breaking, seat cards), §10 (final table) on
top of `tables.rules.buttons` for who is dealt in where. The services call `plan_room` after
every hand or elimination and carry out what it returns; `check_room` is the policy check
the simulation runs after every step. No Django, no I/O, no clock, no global random.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import repeat
from operator import attrgetter, sub
from random import Random
from types import MappingProxyType

from tables.rules.buttons import (
    DEFAULT_SUIT_ORDER,
    DealInExclusion,
    NextHand,
    clockwise,
    next_hand,
    rank_cards,
)
from tables.rules.floor import (
    _EMPTY,
    RULE_ACCESSIBLE,
    RULE_BALANCE,
    RULE_BREAK,
    RULE_FINAL_TABLE,
    RULE_MOVER,
    RULE_RANDOM_BREAK,
    RULE_STUD_MOVE,
    BreakDecision,
    FinalTablePlan,
    Halt,
    Move,
    RoomPlan,
    RoomSettings,
    SeatCardDraw,
    Table,
    Violation,
)
from tables.rules.seating import SeatRef

# --- ordering -------------------------------------------------------------------------


# A room of 1,112 tables is read on every plan: its figures are gathered with these in
# C loops (map, sum, max), not a Python expression per table.
_NUMBER = attrgetter("number")
_TABLE_ID = attrgetter("table_id")
_COUNT = attrgetter("count")
_CAPACITY = attrgetter("capacity")


def _by_id(tables: Sequence[Table]) -> dict[str, Table]:
    return dict(zip(map(_TABLE_ID, tables), tables, strict=True))


def _counts(tables: Sequence[Table]) -> dict[str, int]:
    return dict(zip(map(_TABLE_ID, tables), map(_COUNT, tables), strict=True))


def _free_seats(tables: Sequence[Table]) -> int:
    """The seats left at `tables` (none at a table over its capacity)."""
    return sum(map(max, map(sub, map(_CAPACITY, tables), map(_COUNT, tables)), repeat(0)))


def _order(tables: Iterable[Table], preferred: Sequence[str]) -> dict[str, int]:
    """Rank tables: listed ones first in list order, then the rest by descending number
    (equal numbers by table id)."""
    listed = {table_id: index for index, table_id in enumerate(preferred)}
    rest = [t for t in tables if t.table_id not in listed] if listed else list(tables)
    # Two stable sorts on plain keys (id, then number descending: a reversed sort keeps
    # equal keys in order) instead of a key tuple built per table: a room of 1,112
    # tables is ranked on every plan.
    rest.sort(key=_TABLE_ID)
    rest.sort(key=_NUMBER, reverse=True)
    rank = dict(listed)
    rank.update(
        zip(map(_TABLE_ID, rest), range(len(preferred), len(preferred) + len(rest)), strict=True)
    )
    return rank


def _first_in_order(tables: Sequence[Table], preferred: Sequence[str]) -> str:
    """The table `_order` ranks first, found without ranking them all."""
    listed = {table_id: index for index, table_id in enumerate(preferred)}
    first_listed = [t.table_id for t in tables if t.table_id in listed]
    if first_listed:
        return min(first_listed, key=listed.__getitem__)
    top = max(map(_NUMBER, tables))
    return min(t.table_id for t in tables if t.number == top)


# --- final table ----------------------------------------------------------------------


def final_table_size(settings: RoomSettings) -> int:
    """Return the final-table size the event's rule gives (tournament.md §10)."""
    rule = settings.final_table_rule
    seats = settings.seats_per_table
    if isinstance(rule, int):
        return rule
    if settings.event_type == "heads_up":
        # TDA2015-§11's plus-one does not apply to heads-up events; a heads-up event's
        # final is one more match of its own size. [interpretation for the other rules]
        return seats
    if rule == "tda_rp9":
        return seats  # RP-9: the final table is the event's table size
    if rule == "tda2015_plus_one":
        return min(seats + 1, 10)  # TDA2015-§11: full table plus one, never more than 10
    # FIGP §53: ten, or seven in six-handed events.
    return 7 if settings.format == "short_handed" and seats == 6 else 10


def plan_final_table(*, players_remaining: int, settings: RoomSettings) -> FinalTablePlan:
    """Say whether the final table forms now, its size, and how the last tables look.

    Before it forms, players sit at as few tables of `seats_per_table` as hold them, spread
    evenly, largest first (RP-9: ten left in a nine-handed event play five and five).
    """
    size = final_table_size(settings)
    rule_key = "fixed" if isinstance(settings.final_table_rule, int) else settings.final_table_rule
    rule = RULE_FINAL_TABLE[rule_key]
    if players_remaining <= size:
        return FinalTablePlan(formed=True, size=size, layout=(players_remaining,), rule=rule)
    tables = math.ceil(players_remaining / settings.seats_per_table)
    base, extra = divmod(players_remaining, tables)
    layout = (base + 1,) * extra + (base,) * (tables - extra)
    return FinalTablePlan(formed=False, size=size, layout=layout, rule=rule)


# --- breaking -------------------------------------------------------------------------


def break_sequence(tables: Sequence[Table], settings: RoomSettings) -> list[str]:
    """Return the open tables in break order: the event's list, then highest number first;
    with the "fewest" order, the fewest players first, the list breaking ties."""
    open_tables = [t for t in tables if t.count > 0]
    rank = _order(open_tables, settings.break_list)
    if settings.break_order == "fewest":
        counts = _counts(open_tables)
        return sorted((t.table_id for t in open_tables), key=lambda tid: (counts[tid], rank[tid]))
    return sorted((t.table_id for t in open_tables), key=rank.__getitem__)


def _fewest_first(tables: Sequence[Table], preferred: Sequence[str]) -> str:
    """The table with the fewest players, the list order breaking ties: breaking it moves
    the fewest players."""
    fewest = min(map(_COUNT, tables))
    return _first_in_order([t for t in tables if t.count == fewest], preferred)


def check_break(
    tables: Sequence[Table],
    settings: RoomSettings,
    *,
    rng: Random | None = None,
    drawn_table: str | None = None,
) -> BreakDecision:
    """Decide whether a table breaks now: when the free seats at the other tables can take
    all its players (003 Art.7.3), and build its seat cards.

    With break_order "random" (RP-19) pass the drawn table, or an `rng` to draw it among the
    tables that can break now.
    """
    open_tables = [t for t in tables if t.count > 0]
    if len(open_tables) < 2:
        return BreakDecision(False, None, 0, rules=(RULE_BREAK,))
    by_id = _by_id(open_tables)
    total_free = _free_seats(open_tables)

    def free_elsewhere(table_id: str) -> int:
        table = by_id[table_id]
        return total_free - max(table.capacity - table.count, 0)

    rules: tuple[str, ...] = (RULE_BREAK,)
    if settings.break_order == "random":
        rules = (RULE_BREAK, RULE_RANDOM_BREAK)
        eligible = sorted(tid for tid, t in by_id.items() if t.count <= free_elsewhere(tid))
        if drawn_table is None and eligible:
            if rng is None:
                raise ValueError("a random break order needs rng or drawn_table")
            drawn_table = rng.choice(eligible)
        if drawn_table is None:
            # Nobody can break yet: report against the first table of the break sequence,
            # as the list order would (tournament.md §1.2 check_break).
            first = _first_in_order(open_tables, settings.break_list)
            return BreakDecision(False, None, free_elsewhere(first), rules=rules)
        candidate = drawn_table
    elif settings.break_order == "fewest":
        candidate = _fewest_first(open_tables, settings.break_list)
    else:
        candidate = _first_in_order(open_tables, settings.break_list)
    free = free_elsewhere(candidate)
    if by_id[candidate].count > free:
        return BreakDecision(False, None, free, rules=rules)
    others = [t for t in open_tables if t.table_id != candidate]
    breaking = by_id[candidate]
    needing = len(breaking.needs_accessible & set((breaking.seats or _EMPTY).values()))
    try:
        cards = seat_cards_for_break(others, breaking.count, settings, accessible_needed=needing)
    except ValueError:
        # Too few free accessible seats elsewhere for its players who need one: an
        # accessible seat is never given up to break a table, so it waits for seats to free.
        return BreakDecision(False, None, free, rules=(*rules, RULE_ACCESSIBLE))
    return BreakDecision(True, candidate, free, seat_cards=tuple(cards), rules=rules)


def seat_cards_for_break(
    receiving: Sequence[Table],
    players: int,
    settings: RoomSettings,
    *,
    accessible_needed: int = 0,
) -> list[SeatRef]:
    """Choose exactly `players` seats at the receiving tables, filling the emptiest first so
    they end up balanced (tournament.md §9.3 [interpretation]).

    At a table the seats go in "worst position" order when its button is known (so broken
    players do not dodge blinds), else in seat order. The receiving tables have room.
    `accessible_needed` of the cards are accessible seats (for the players of the breaking
    table who need one, TDA-9); raises ValueError when the room has too few free.
    """
    cards = _seat_cards(receiving, players, settings)
    if not accessible_needed:
        return cards
    accessible = [c for c in cards if c.seat in _accessible_of(receiving, c.table)]
    missing = accessible_needed - len(accessible)
    if missing <= 0:
        return cards
    # Swap ordinary cards for free accessible seats, at the same table where there is one
    # (the counts stay as balanced), else anywhere free.
    taken = set(cards)
    spare = [
        SeatRef(t.table_id, s)
        for t in receiving
        for s in sorted(t.accessible_seats)
        if s not in (t.seats or _EMPTY)
        and s not in t.locked_seats
        and SeatRef(t.table_id, s) not in taken
    ]
    ordinary = [c for c in reversed(cards) if c.seat not in _accessible_of(receiving, c.table)]
    for _ in range(missing):
        if not spare or not ordinary:
            raise ValueError("not enough free accessible seats to break the table")
        out = ordinary.pop(0)
        same = [c for c in spare if c.table == out.table]
        chosen = (same or spare)[0]
        spare.remove(chosen)
        cards[cards.index(out)] = chosen
    return cards


def _accessible_of(tables: Sequence[Table], table_id: str) -> frozenset[int]:
    for t in tables:
        if t.table_id == table_id:
            return t.accessible_seats
    return frozenset()


def _seat_cards(receiving: Sequence[Table], players: int, settings: RoomSettings) -> list[SeatRef]:
    rank = _order(receiving, settings.balance_source_list)
    by_id = {t.table_id: t for t in receiving}
    # A table's seats in fill order are worked out when it first receives a card: a break
    # in a room of 1,112 tables touches a handful of them.
    offered: dict[str, list[int]] = {}
    heap = [(t.count, rank[t.table_id], t.table_id) for t in receiving if t.has_free_seat]
    heapq.heapify(heap)
    cards: list[SeatRef] = []
    while len(cards) < players:
        if not heap:
            raise ValueError("not enough free seats to break the table")
        count, order, table_id = heapq.heappop(heap)
        seats = offered.get(table_id)
        if seats is None:
            seats = offered[table_id] = _seats_in_fill_order(by_id[table_id])
        if not seats:
            continue
        cards.append(SeatRef(table_id, seats.pop(0)))
        if seats:
            heapq.heappush(heap, (count + 1, order, table_id))
    return cards


def shuffle_seat_cards(cards: Sequence[SeatRef], rng: Random) -> list[SeatRef]:
    """Return the seat cards shuffled face down, top first (§9.3 step 1)."""
    stack = list(cards)
    rng.shuffle(stack)
    return stack


def distribute_seat_cards(
    *,
    cards: Mapping[str, str],
    seat_card_stack: Sequence[SeatRef],
    suit_order: Sequence[str] = DEFAULT_SUIT_ORDER,
    accessible: Iterable[SeatRef] = (),
    needs_accessible: Iterable[str] = (),
) -> SeatCardDraw:
    """Hand the seat cards out from the top, highest face-up card first (TDA-10b, §6.4).

    `cards` maps each player of the breaking table to his face-up card (distinct cards);
    the stack holds at least as many seat cards as players. The players in
    `needs_accessible` take the `accessible` seat cards (the highest of them the top one),
    the others the rest of the stack: an accessible seat is never drawn away (TDA-9).
    """
    if len(seat_card_stack) < len(cards):
        raise ValueError("fewer seat cards than players")
    order = rank_cards(cards, suit_order)
    needing = set(needs_accessible) & set(cards)
    if not needing:
        assignments = {player: seat_card_stack[index] for index, player in enumerate(order)}
        return SeatCardDraw(distribution_order=tuple(order), assignments=assignments)
    kept = set(accessible)
    special = [c for c in seat_card_stack if c in kept]
    if len(special) < len(needing):
        raise ValueError("fewer accessible seat cards than players who need one")
    special = special[: len(needing)]
    ordinary = [c for c in seat_card_stack if c not in special]
    assignments = {}
    for player in order:
        assignments[player] = (special if player in needing else ordinary).pop(0)
    return SeatCardDraw(distribution_order=tuple(order), assignments=assignments)


# --- balancing ------------------------------------------------------------------------


def _usable_free_seats(table: Table, occupied: Mapping[int, str]) -> list[int]:
    return [
        seat
        for seat in range(1, table.max_seats + 1)
        if seat not in occupied and seat not in table.locked_seats
    ]


def _seats_in_fill_order(table: Table) -> list[int]:
    occupied = table.seats or _EMPTY
    free = _usable_free_seats(table, occupied)
    if table.last_hand is not None:
        position = {
            seat: index for index, seat in enumerate(clockwise(table.last_hand.bb, table.max_seats))
        }
        free.sort(key=position.__getitem__)
    ordinary = [s for s in free if s not in table.accessible_seats]
    return ordinary + [s for s in free if s in table.accessible_seats]


def worst_seat(table: Table, occupied: Mapping[int, str]) -> tuple[int | None, str | None]:
    """Pick the seat a balanced player gets: the worst position (TDA-11a, tournament.md §8.4).

    Scan clockwise from the seat after the current BB and take the first free seat: it
    reaches the big blind soonest. The current BB seat (next hand's SB) comes last and is
    flagged. Needs the table's last_hand; returns (None, None) when no seat is free.
    """
    assert table.last_hand is not None
    current_bb = table.last_hand.bb
    free = set(_usable_free_seats(table, occupied))
    scan = clockwise(current_bb, table.max_seats)[:-1]
    for seat in scan:
        if seat in free and seat not in table.accessible_seats:
            return seat, None
    for seat in scan:
        if seat in free:
            return seat, None
    if current_bb in free:
        return current_bb, "small_blind_seat"  # TDA-10a allows it; §8.4 says alert the floor
    return None, None


def _stud_seat(table: Table, occupied: Mapping[int, str]) -> int | None:
    """Pick the most recently vacated free seat (TDA-11a stud, §8.5); None if not logged."""
    free = [s for s in _usable_free_seats(table, occupied) if s in table.vacated_at]
    if table.seats is None:
        free = [s for s in table.vacated_at if s not in table.locked_seats and s not in occupied]
    if not free:
        return None
    return max(free, key=lambda seat: (table.vacated_at[seat], -seat))


def _next_mover(
    table: Table, occupied: Mapping[int, str], moved: set[str]
) -> tuple[int, str] | None:
    """Return the seat and player who would be BB next and may move (TDA-11a, §8.3).

    Players who may not move are passed over for the next in BB order [interpretation].
    """
    assert table.last_hand is not None
    for seat in clockwise(table.last_hand.bb, table.max_seats):
        player = occupied.get(seat)
        if (
            player is not None
            and player not in table.unmovable
            and player not in table.needs_accessible
            and player not in moved
        ):
            return seat, player
    return None


def halted_tables(tables: Sequence[Table], settings: RoomSettings) -> tuple[Halt, ...]:
    """List the tables that stop play: `halt_short_table_diff` or more below the largest
    table (TDA-11c, full-ring events by default)."""
    diff = settings.halt_diff
    open_tables = [t for t in tables if t.count > 0]
    if diff is None or not open_tables:
        return ()
    largest = max(map(_COUNT, open_tables))
    if largest - min(map(_COUNT, open_tables)) < diff:
        return ()
    return tuple(
        Halt(t.table_id, largest - t.count) for t in open_tables if largest - t.count >= diff
    )


def plan_room(
    tables: Sequence[Table],
    settings: RoomSettings,
    *,
    rng: Random | None = None,
    drawn_break_table: str | None = None,
) -> RoomPlan:
    """Plan the room after the current hand: halts, then final table, break or balance.

    Table ids are unique. The final table and a break take precedence over balancing: the
    break's seat cards already leave the receiving tables balanced. With a random break
    order pass `rng` or the drawn table (RP-19).
    """
    open_tables = [t for t in tables if t.count > 0]
    players = sum(map(_COUNT, open_tables))
    halts = halted_tables(open_tables, settings)
    final = plan_final_table(players_remaining=players, settings=settings)
    decision = check_break(open_tables, settings, rng=rng, drawn_table=drawn_break_table)
    counts = _counts(tables)
    if (final.formed and len(open_tables) > 1) or decision.break_now:
        if decision.break_now and decision.table_id is not None:
            for card in decision.seat_cards:
                counts[card.table] += 1
            counts[decision.table_id] = 0
        return RoomPlan(
            halts=halts,
            moves=(),
            counts_after=counts,
            next_hand={},
            break_table=decision,
            final_table=final,
            rules=(final.rule, *decision.rules),
        )
    by_id = _by_id(open_tables)
    moves, needs_button, unresolved, seats_after, newcomers = _balance(open_tables, by_id, settings)
    for move in moves:
        counts[move.from_table] -= 1
        counts[move.to_table] += 1
    hands: Mapping[str, NextHand] = _EMPTY_HANDS
    if settings.game == "holdem":
        hands = _NextHands(by_id, seats_after, newcomers, settings.deal_in_exclusion)
        moves = [
            _with_deal_in(move, hands.get(move.to_table)) if move.to_seat is not None else move
            for move in moves
        ]
    return RoomPlan(
        halts=halts,
        moves=tuple(moves),
        counts_after=counts,
        next_hand=hands,
        break_table=decision,
        final_table=final,
        needs_button=tuple(needs_button),
        unresolved=tuple(unresolved),
        rules=(RULE_BALANCE.get(settings.balance_max_diff, "balance_max_diff"),),
    )


class _NextHands(Mapping[str, NextHand]):
    """Each table's next hand after the plan, computed when first asked for.

    A room of 1,112 tables needs only the receiving tables' hands to plan a move; the
    others are worked out if and when someone reads them (the same result either way).
    """

    def __init__(
        self,
        tables: Mapping[str, Table],
        seats_after: Mapping[str, Mapping[int, str]],
        newcomers: Mapping[str, Sequence[int]],
        exclusion: DealInExclusion,
    ) -> None:
        # Which tables deal a next hand is decided per table as it is asked for; the whole
        # list only when someone goes through them all.
        self._by_id = tables
        self._listed: list[str] | None = None
        self._seats_after = seats_after
        self._newcomers = newcomers
        self._exclusion = exclusion
        self._done: dict[str, NextHand] = {}

    def __getitem__(self, table_id: str) -> NextHand:
        hand = self._done.get(table_id)
        if hand is None:
            table = self._by_id[table_id]
            if not self._deals(table):
                raise KeyError(table_id)
            assert table.seats is not None and table.last_hand is not None
            hand = next_hand(
                max_seats=table.max_seats,
                occupied=list(self._seats_after.get(table_id, table.seats)),
                last_hand=table.last_hand,
                newcomers=self._newcomers.get(table_id, ()),
                deal_in_exclusion=self._exclusion,
            )
            self._done[table_id] = hand
        return hand

    def _deals(self, table: Table) -> bool:
        """Whether the table deals a next hand: its seats and button known, two players."""
        return (
            table.seats is not None
            and table.last_hand is not None
            and len(self._seats_after.get(table.table_id, table.seats)) >= 2
        )

    def _tables(self) -> list[str]:
        if self._listed is None:
            self._listed = [tid for tid, t in self._by_id.items() if self._deals(t)]
        return self._listed

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables())

    def __len__(self) -> int:
        return len(self._tables())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"_NextHands({dict(self.items())!r})"


_EMPTY_HANDS: Mapping[str, NextHand] = MappingProxyType({})


def _with_deal_in(move: Move, hand: NextHand | None) -> Move:
    """Record when the mover plays at his new seat (tournament.md §8.6, §7.4)."""
    if hand is None or move.to_seat is None:
        return move
    waits = move.to_seat in hand.waiting
    return replace(
        move,
        dealt_in_from="hand_after_next" if waits else "next_hand",
        rules=(*move.rules, *hand.rules[-1:]),
    )


def _balance(
    tables: Sequence[Table], by_id: Mapping[str, Table], settings: RoomSettings
) -> tuple[list[Move], list[str], list[str], dict[str, dict[int, str]], dict[str, list[int]]]:
    """Move players one at a time from the fullest table to the emptiest until every gap is
    within balance_max_diff: the fewest moves (tournament.md §8.1-8.2)."""
    limit = settings.balance_max_diff
    counts = _counts(tables)
    if not counts or max(counts.values()) - min(counts.values()) <= limit:
        return [], [], [], {}, {}  # balanced already (most eliminations): nobody moves
    rank = _order(tables, settings.balance_source_list)
    seats_after: dict[str, dict[int, str]] = {}
    newcomers: dict[str, list[int]] = {}
    moved: set[str] = set()
    moves: list[Move] = []
    needs_button: list[str] = []
    unresolved: list[str] = []

    def live_seats(table: Table) -> dict[int, str]:
        if table.table_id not in seats_after:
            seats_after[table.table_id] = dict(table.seats or _EMPTY)
        return seats_after[table.table_id]

    # Heaps keyed on the count when pushed; every count change pushes a fresh entry, so an
    # entry whose count is out of date is simply dropped (1,112 tables stay fast).
    givers = [(-counts[tid], rank[tid], tid) for tid in counts]
    takers = [(counts[tid], rank[tid], tid) for tid in counts]
    heapq.heapify(givers)
    heapq.heapify(takers)
    cannot_give: set[str] = set()
    while givers and takers:
        neg, _, source_id = givers[0]
        if -neg != counts[source_id] or source_id in cannot_give:
            heapq.heappop(givers)
            continue
        count, _, target_id = takers[0]
        if count != counts[target_id] or count >= by_id[target_id].capacity:
            heapq.heappop(takers)
            continue
        if counts[source_id] - count <= limit:
            break
        move = _one_move(
            by_id[source_id],
            by_id[target_id],
            stud=settings.game == "stud",
            live_seats=live_seats,
            moved=moved,
            needs_button=needs_button,
        )
        if move is None:
            cannot_give.add(source_id)
            unresolved.append(f"{source_id}: no player may move")
            continue
        moves.append(move)
        if move.to_seat is not None:
            newcomers.setdefault(target_id, []).append(move.to_seat)
        counts[source_id] -= 1
        counts[target_id] += 1
        for tid in (source_id, target_id):
            heapq.heappush(givers, (-counts[tid], rank[tid], tid))
            heapq.heappush(takers, (counts[tid], rank[tid], tid))
    live = list(counts.values())
    if live and max(live) - min(live) > limit and not unresolved:
        unresolved.append("no free seat to balance into")
    return moves, needs_button, unresolved, seats_after, newcomers


def _one_move(
    source: Table,
    target: Table,
    *,
    stud: bool,
    live_seats: Callable[[Table], dict[int, str]],
    moved: set[str],
    needs_button: list[str],
) -> Move | None:
    """Make one move from `source` to `target`, or return None if nobody there may move."""
    if stud:
        # §8.5: the seat to fill is the most recently vacated; who leaves is the floor's pick.
        target_seats = live_seats(target)
        stud_seat = _stud_seat(target, target_seats)
        if stud_seat is not None:
            holder = f"?{source.table_id}:{len(moved)}"  # placeholder: the seat is now taken
            target_seats[stud_seat] = holder
            moved.add(holder)
        return Move(source.table_id, target.table_id, to_seat=stud_seat, rules=(RULE_STUD_MOVE,))
    # Never guess a button: a table without seats or positions is named in needs_button and
    # its side of the move stays open; the other side is still decided.
    for table in (source, target):
        if (table.seats is None or table.last_hand is None) and table.table_id not in needs_button:
            needs_button.append(table.table_id)
    player: str | None = None
    from_seat: int | None = None
    if source.seats is not None and source.last_hand is not None:
        mover = _next_mover(source, live_seats(source), moved)
        if mover is None:
            return None
        from_seat, player = mover
    elif source.seats is not None and all(p in source.unmovable for p in source.seats.values()):
        return None
    to_seat: int | None = None
    alert: str | None = None
    if target.seats is not None and target.last_hand is not None:
        to_seat, alert = worst_seat(target, live_seats(target))
        if to_seat is None:
            return None
        # Hold the seat for the mover (a placeholder when the source side is open).
        holder = player if player is not None else f"?{source.table_id}:{len(moved)}"
        live_seats(target)[to_seat] = holder
        moved.add(holder)
    if player is not None and from_seat is not None:
        del live_seats(source)[from_seat]
    return Move(
        source.table_id,
        target.table_id,
        player=player,
        from_seat=from_seat,
        to_seat=to_seat,
        rules=(RULE_MOVER,),
        floor_alert=alert,
    )


# --- policy check ---------------------------------------------------------------------


def check_room(
    tables: Sequence[Table],
    settings: RoomSettings,
    *,
    assignments: Iterable[tuple[str, int, str]] = (),
    require_balanced: bool = True,
) -> list[Violation]:
    """List every breach of the room policy; empty means the room is sound.

    Checks capacity, seats in range and not locked, each seat and each player used once
    (across `tables` and any raw (table, seat, player) `assignments`), and, when
    `require_balanced`, every gap within balance_max_diff.
    """
    problems: list[Violation] = []
    seat_holder: dict[tuple[str, int], str] = {}
    player_seat: dict[str, tuple[str, int]] = {}
    rows: list[tuple[str, int, str]] = []
    by_id = {t.table_id: t for t in tables}
    for table in tables:
        if table.count > table.capacity:
            problems.append(
                Violation(
                    "over_capacity",
                    table.table_id,
                    f"{table.count} players for {table.capacity} seats",
                )
            )
        for seat, player in (table.seats or _EMPTY).items():
            rows.append((table.table_id, seat, player))
    rows.extend(assignments)
    for table_id, seat, player in rows:
        known = by_id.get(table_id)
        if known is not None and not 1 <= seat <= known.max_seats:
            problems.append(Violation("seat_out_of_range", table_id, f"seat {seat}"))
        if known is not None and seat in known.locked_seats:
            problems.append(Violation("locked_seat_occupied", table_id, f"seat {seat}"))
        holder = seat_holder.get((table_id, seat))
        if holder is not None and holder != player:
            problems.append(
                Violation("seat_double_booked", table_id, f"seat {seat}: {holder} and {player}")
            )
        seat_holder.setdefault((table_id, seat), player)
        where = player_seat.get(player)
        if where is not None and where != (table_id, seat):
            problems.append(
                Violation("player_seated_twice", table_id, f"{player} at {where} and {seat}")
            )
        player_seat.setdefault(player, (table_id, seat))
    open_counts = [t.count for t in tables if t.count > 0]
    if require_balanced and open_counts:
        gap = max(open_counts) - min(open_counts)
        if gap > settings.balance_max_diff:
            problems.append(
                Violation("unbalanced", None, f"gap {gap} > {settings.balance_max_diff}")
            )
    return problems


__all__ = [
    "BreakDecision",
    "FinalTablePlan",
    "Halt",
    "Move",
    "RoomPlan",
    "RoomSettings",
    "SeatCardDraw",
    "Table",
    "Violation",
    "break_sequence",
    "check_break",
    "check_room",
    "distribute_seat_cards",
    "final_table_size",
    "halted_tables",
    "plan_final_table",
    "plan_room",
    "seat_cards_for_break",
    "shuffle_seat_cards",
    "worst_seat",
]

"""Properties of the dealers' rotation (room/rules/dealers.py) over random rooms.

One push from any state: nobody in two places, only games a dealer deals, tables that keep
their dealer keep him, as many tables dealt as the free dealers can deal (checked against
a plain bipartite matching), and the longest out first. Hours of pushes made one after the
other (tables opening and breaking meanwhile): nobody ever deals past the time without a
break (counted here from the moves, not from the rules' own field), every table dealt when
there are dealers enough, and the minutes dealt shared out evenly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from room.rules.dealers import (
    GAMES,
    DealerOnShift,
    OpenTable,
    Push,
    RotationSettings,
    apply_push,
    next_push,
)

START = datetime(2026, 3, 14, 18, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
POKER = ("holdem", "omaha")
PIT = ("blackjack", "punto_banco")

rotation_settings = st.builds(
    lambda down, brk, downs: RotationSettings(down, brk, down * downs),
    st.integers(10, 40),
    st.integers(5, 30),
    st.integers(1, 5),
)
game_sets = st.frozensets(st.sampled_from(GAMES), min_size=1)


@st.composite
def open_tables(draw: st.DrawFn, max_tables: int = 10) -> list[OpenTable]:
    tables = []
    for number in range(draw(st.integers(0, max_tables))):
        kind = draw(st.sampled_from(("tournament", "cash", "pit")))
        game = draw(st.sampled_from(PIT if kind == "pit" else POKER))
        tables.append(OpenTable(f"{kind}:{number}", game, draw(st.integers(0, 5)) == 0))
    return tables


@st.composite
def rooms(draw: st.DrawFn) -> tuple[list[OpenTable], list[DealerOnShift], RotationSettings]:
    """Any state the floor could be in, odd ones included: dealers at tables since closed,
    two at one table, past their time without a break, on a break or waiting."""
    setup = draw(rotation_settings)
    tables = draw(open_tables())
    keys = [t.key for t in tables] + ["tournament:99", "cash:98"]  # the last two closed
    dealers = []
    for dealer_id in range(1, draw(st.integers(0, 14)) + 1):
        since = START - draw(st.integers(0, 150)) * MINUTE
        seated = draw(st.booleans())
        on_break = not seated and draw(st.booleans())
        dealers.append(
            DealerOnShift(
                id=dealer_id,
                games=draw(game_sets),
                table=draw(st.sampled_from(keys)) if seated else None,
                since=since,
                box_minutes_since_break=draw(st.integers(0, setup.max_minutes_without_break + 10)),
                last_table=draw(st.none() | st.sampled_from(keys)),
                on_break_until=since + setup.break_minutes * MINUTE if on_break else None,
            )
        )
    return tables, dealers, setup


def _had_break(dealer: DealerOnShift, at: datetime, setup: RotationSettings) -> bool:
    if dealer.on_break_until is not None and dealer.on_break_until <= at:
        return True
    return at - dealer.since >= setup.break_minutes * MINUTE


def _seated(dealers: tuple[DealerOnShift, ...] | list[DealerOnShift]) -> dict[str, int]:
    where: dict[str, int] = {}
    for dealer in dealers:
        if dealer.table is not None:
            assert dealer.table not in where, f"two dealers at {dealer.table}"
            where[dealer.table] = dealer.id
    return where


def _max_matching(able: dict[int, set[str]]) -> int:
    """Size of a maximum matching of dealers to tables (Kuhn's augmenting paths)."""
    holder: dict[str, int] = {}

    def place(dealer: int, seen: set[str]) -> bool:
        for key in sorted(able[dealer]):
            if key in seen:
                continue
            seen.add(key)
            if key not in holder or place(holder[key], seen):
                holder[key] = dealer
                return True
        return False

    return sum(place(dealer, set()) for dealer in sorted(able))


@dataclass
class _Push:
    """One push read back: what was filled, who was free, in which order."""

    push: Push
    tables: dict[str, OpenTable]
    to_fill: set[str] = field(default_factory=set)
    # id -> place in the line: went out at, minutes dealt this shift, id
    free: dict[int, tuple[datetime, int, int]] = field(default_factory=dict)
    barred: dict[int, str | None] = field(default_factory=dict)


def _read_back(
    tables: list[OpenTable], dealers: list[DealerOnShift], push: Push, setup: RotationSettings
) -> _Push:
    """Which tables the push had to fill and which dealers were free to fill them, worked
    out from the state and the push's moves (relieved = moved away from an open table)."""
    seen = _Push(push, {t.key: t for t in tables})
    moves = {m.dealer_id: m for m in push.moves}
    staffed: set[str] = set()
    for dealer in sorted(dealers, key=lambda d: (d.since, d.id)):
        table = dealer.table
        if table is None:
            ready = dealer.on_break_until is None or dealer.on_break_until <= push.at
            rested = _had_break(dealer, push.at, setup)
            fits = dealer.box_minutes_since_break + setup.down_minutes
            if ready and (rested or fits <= setup.max_minutes_without_break):
                seen.free[dealer.id] = (dealer.since, dealer.shift_box_minutes, dealer.id)
                seen.barred[dealer.id] = None if rested else dealer.last_table
            continue
        if table in seen.tables and table not in staffed:
            staffed.add(table)
            if dealer.id not in moves:
                continue
            seen.to_fill.add(table)
        move = moves[dealer.id]
        if move.table is not None or move.break_until is None:
            dealt = dealer.shift_box_minutes - ((dealer.since - push.at) // MINUTE)
            seen.free[dealer.id] = (push.at, dealt, dealer.id)
            seen.barred[dealer.id] = table
    seen.to_fill |= set(seen.tables) - staffed
    return seen


@settings(max_examples=200, deadline=None)
@given(room=rooms(), ahead=st.integers(0, 90))
def test_one_push(
    room: tuple[list[OpenTable], list[DealerOnShift], RotationSettings], ahead: int
) -> None:
    tables, dealers, setup = room
    now = START + ahead * MINUTE
    push = next_push(tables, dealers, now, setup)
    assert push == next_push(list(reversed(tables)), list(reversed(dealers)), now, setup)
    assert push.at >= now
    by_id = {d.id: d for d in dealers}
    seen = _read_back(tables, dealers, push, setup)

    # Nobody in two places: one move a dealer, one dealer a table, and so after the push.
    ids = [m.dealer_id for m in push.moves]
    assert len(ids) == len(set(ids))
    assigned = [m.table for m in push.moves if m.table is not None]
    assert len(assigned) == len(set(assigned))
    after = apply_push(push, dealers, push.at)
    where = _seated(after)
    assert set(where) <= seen.tables.keys()
    assert not set(where) & set(push.unstaffed)
    assert set(where) | set(push.unstaffed) == set(seen.tables)

    for move in push.moves:
        dealer = by_id[move.dealer_id]
        if move.table is None:
            continue
        # Only tables to fill, only games the dealer deals, only free dealers.
        assert move.table in seen.to_fill
        assert seen.tables[move.table].game in dealer.games
        assert move.dealer_id in seen.free
        # Seated, he can deal a whole down without passing the limit.
        state = next(d for d in after if d.id == move.dealer_id)
        assert state.box_minutes_since_break + setup.down_minutes <= (
            setup.max_minutes_without_break
        )

    # A table that keeps its dealer keeps him until his break is due.
    moved = {m.dealer_id for m in push.moves}
    kept: set[str] = set()
    for dealer in sorted(dealers, key=lambda d: (d.since, d.id)):
        table = seen.tables.get(dealer.table or "")
        if table is None or not table.keep_dealer or table.key in kept:
            continue
        kept.add(table.key)
        if dealer.id in moved:
            dealt = -((dealer.since - push.at) // MINUTE)  # a part of a minute counts
            assert dealer.box_minutes_since_break + dealt >= setup.max_minutes_without_break

    # As many tables dealt as the free dealers can (so all when there are enough).
    able = {
        dealer_id: {k for k in seen.to_fill if seen.tables[k].game in by_id[dealer_id].games}
        for dealer_id in seen.free
    }
    assert len(seen.to_fill) - len(push.unstaffed) == _max_matching(able)

    # The longest out first: a free dealer left out could not have taken the table of
    # anyone seated after him in the line (not his game, or his own table of a moment ago).
    moves = {m.dealer_id: m for m in push.moves}
    seated_by = {m.table: m.dealer_id for m in push.moves if m.table is not None}
    for waiting, place in seen.free.items():
        if waiting in moves and moves[waiting].table is not None:
            continue
        for key, dealer_id in seated_by.items():
            if seen.free[dealer_id] > place:
                assert (
                    seen.tables[key].game not in by_id[waiting].games or seen.barred[waiting] == key
                ), f"{waiting} waits while {dealer_id}, behind him, sits at {key}"

    # No two downs in a row at one table unless nobody else can: a dealer back at the table
    # he has just dealt leaves nobody free who could take it, and nobody seated to swap with.
    for key, dealer_id in seated_by.items():
        if seen.barred[dealer_id] != key:
            continue
        game = seen.tables[key].game
        for other, other_key in [
            (o, None) for o in seen.free if o not in moves or (moves[o].table is None)
        ] + [(o, k) for k, o in seated_by.items() if o != dealer_id]:
            if game not in by_id[other].games or seen.barred[other] == key:
                continue
            assert other_key is not None, f"{other} waits while {dealer_id} stays at {key}"
            assert (
                seen.tables[other_key].game not in by_id[dealer_id].games
                or other_key == seen.barred[dealer_id]
            ), f"{dealer_id} stays at {key} though he could swap with {other} at {other_key}"


def test_nobody_goes_back_to_his_table_when_the_others_can_deal_it() -> None:
    setup = RotationSettings()
    tables = [OpenTable(f"cash:{n}", "holdem") for n in range(1, 5)]
    dealers = [DealerOnShift(n, frozenset(GAMES), f"cash:{n}", START, 0, None) for n in range(1, 5)]
    push = next_push(tables, dealers, START, setup)
    assert push.at == START + 30 * MINUTE
    assert {m.dealer_id: m.table for m in push.moves} == {
        1: "cash:2",
        2: "cash:1",
        3: "cash:4",
        4: "cash:3",
    }


@dataclass
class _Ledger:
    """The minutes each dealer dealt, kept from the states alone: a down is counted when
    the dealer leaves the table; a break is a stretch out at least a break long."""

    setup: RotationSettings
    since_break: dict[int, int] = field(default_factory=dict)
    dealt: dict[int, int] = field(default_factory=dict)

    def record(
        self, before: tuple[DealerOnShift, ...], after: list[DealerOnShift], at: datetime
    ) -> None:
        now = {d.id: d for d in after}
        for old in before:
            new = now[old.id]
            self.since_break.setdefault(old.id, 0)
            self.dealt.setdefault(old.id, 0)
            if new == old:
                continue
            if old.table is not None:
                minutes = (at - old.since) // MINUTE
                self.since_break[old.id] += minutes
                self.dealt[old.id] += minutes
                assert self.since_break[old.id] <= self.setup.max_minutes_without_break
            elif at - old.since >= self.setup.break_minutes * MINUTE:
                self.since_break[old.id] = 0

    def close(self, dealers: list[DealerOnShift], at: datetime) -> None:
        for dealer in dealers:
            if dealer.table is not None and dealer.since < at:
                minutes = (at - dealer.since) // MINUTE
                self.dealt[dealer.id] += minutes
                assert self.since_break[dealer.id] + minutes <= (
                    self.setup.max_minutes_without_break
                )


@st.composite
def shifts(
    draw: st.DrawFn,
) -> tuple[list[OpenTable], int, RotationSettings, list[tuple[int, str]]]:
    setup = draw(rotation_settings)
    tables = draw(open_tables(max_tables=8).filter(bool))
    extra = draw(st.integers(1, 4))
    events = draw(
        st.lists(
            st.tuples(st.integers(1, 480), st.sampled_from(("open", "close", "keep"))),
            max_size=6,
        )
    )
    return tables, extra, setup, events


def _enough(setup: RotationSettings) -> int:
    """Dealers a table needs so that one is always free: the one dealing, the one coming
    in, and those who may be on break at once (one a down that fits in a break)."""
    return 2 + -(-setup.break_minutes // setup.down_minutes)


NIGHT = timedelta(hours=8)


@settings(max_examples=60, deadline=None)
@given(shift=shifts(), mixed=st.booleans())
def test_a_night_of_pushes(
    shift: tuple[list[OpenTable], int, RotationSettings, list[tuple[int, str]]], mixed: bool
) -> None:
    """Eight hours of pushes, each made at its time, tables opening, breaking and becoming
    final tables meanwhile: nobody in two places, only his games, nobody past the time
    without a break, kept dealers kept, every table dealt when there are dealers enough,
    and the minutes dealt shared out evenly."""
    start_tables, extra, setup, events = shift
    tables = {t.key: t for t in start_tables}
    dealers: list[DealerOnShift] = []
    for game in GAMES:
        count = sum(t.game == game for t in start_tables)
        for _ in range(_enough(setup) * count + (extra if count else 0)):
            games = frozenset({game}) if mixed else frozenset(GAMES)
            dealers.append(DealerOnShift(len(dealers) + 1, games, None, START, 0))
    first_shift = len(dealers)
    ledger = _Ledger(setup)
    now = START
    pending = sorted(events)
    opened = 0
    while True:
        push = next_push(list(tables.values()), dealers, now, setup)
        if pending and START + pending[0][0] * MINUTE <= push.at:
            minute, what = pending.pop(0)
            now = max(now, START + minute * MINUTE)
            keys = sorted(tables)
            if what == "open" or not keys:
                opened += 1
                new = OpenTable(f"cash:new{opened}", "holdem")
                tables[new.key] = new
                # The floor calls in the dealers a new table needs.
                for _ in range(_enough(setup)):
                    games = frozenset({"holdem"})
                    dealers.append(DealerOnShift(len(dealers) + 1, games, None, now, 0))
            elif what == "close":
                del tables[keys[minute % len(keys)]]
            else:
                key = keys[minute % len(keys)]
                tables[key] = OpenTable(key, tables[key].game, keep_dealer=True)
            continue
        if not push.moves:
            # Nothing to do until the tables or the dealers change.
            assert not push.unstaffed
            if not pending:
                break
            now = max(now, START + pending[0][0] * MINUTE)
            continue
        if push.at > START + NIGHT:
            break
        assert push.at >= now
        before = tuple(dealers)
        kept = {d.table: d.id for d in before if d.table in tables and tables[d.table].keep_dealer}
        dealers = list(apply_push(push, before, push.at))
        # Every push changes something: the next one is never the same push again.
        assert tuple(dealers) != before, push
        ledger.record(before, dealers, push.at)
        now = push.at

        where = _seated(dealers)
        assert set(where) <= set(tables)
        for dealer in dealers:
            if dealer.table is not None:
                assert tables[dealer.table].game in dealer.games
        assert not push.unstaffed, f"unstaffed at {now:%H:%M}: {push.unstaffed}"
        for key, dealer_id in kept.items():
            if where.get(key) != dealer_id:
                # A kept dealer moves only for his break.
                assert ledger.since_break[dealer_id] + setup.down_minutes > (
                    setup.max_minutes_without_break
                )
    ledger.close(dealers, START + NIGHT)

    # Fairness over the night: dealers on shift from the start who deal the same games
    # dealt, give or take, the same minutes (a table that keeps its dealer is not fair).
    if any(t.keep_dealer for t in start_tables) or any(e == "keep" for _, e in events):
        return
    kinds: dict[frozenset[str], list[int]] = {}
    for dealer in dealers[:first_shift]:
        kinds.setdefault(dealer.games, []).append(ledger.dealt[dealer.id])
    for minutes in kinds.values():
        assert max(minutes) - min(minutes) <= setup.max_minutes_without_break, minutes

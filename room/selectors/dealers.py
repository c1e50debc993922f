"""What the dealers' pages read: the room's open tables and the dealers on shift as the
rotation rules take them, the board (who deals where, the next push, the breaks) and a
night's hours."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils import timezone

from room.models import (
    GAME_CHOICES,
    CashTable,
    DealerAssignment,
    DealerProfile,
    DealerRoom,
    DealerShift,
    PitTable,
    TipsPool,
)
from room.rules import dealers as rotation
from room.rules import tips as tips_rules
from tournaments import permissions
from tournaments.models import Game, Table, Tournament

GAME_WORDS = dict(GAME_CHOICES)
TOURNAMENT, CASH, PIT = "tournament", "cash", "pit"
KINDS = (TOURNAMENT, CASH, PIT)


def dealer_room() -> DealerRoom:
    """The dealers' settings: the room's row, or the defaults before anyone saved one."""
    return DealerRoom.objects.order_by("pk").first() or DealerRoom()


def rotation_settings(room: DealerRoom | None = None) -> rotation.RotationSettings:
    room = room or dealer_room()
    return rotation.RotationSettings(
        down_minutes=room.down_minutes,
        break_minutes=room.break_minutes,
        max_minutes_without_break=room.max_minutes_without_break,
    )


def table_key(kind: str, pk: int) -> str:
    return f"{kind}:{pk}"


def split_key(key: str) -> tuple[str, int] | None:
    """("cash", 3) from "cash:3"; None for anything else."""
    kind, _sep, pk = key.partition(":")
    if kind not in KINDS or not pk.isdigit():
        return None
    return kind, int(pk)


@dataclass(frozen=True)
class RoomTable:
    """An open table of the room as the dealers' pages show it."""

    key: str
    game: str
    label: str
    keep_dealer: bool
    final: bool = False

    def rule(self) -> rotation.OpenTable:
        return rotation.OpenTable(key=self.key, game=self.game, keep_dealer=self.keep_dealer)


def _tournament_game(game: str) -> str:
    return "omaha" if game == Game.PLO else "holdem"


def _cash_game(variant: str) -> str:
    return "omaha" if "omaha" in variant.lower() else "holdem"


def open_tables(room: DealerRoom | None = None) -> list[RoomTable]:
    """Every table that needs a dealer now: the open tables of the running events, the open
    cash tables, the open pit tables. A final table and a table the floor marked (a TV
    table) keep their dealer."""
    room = room or dealer_room()
    kept = set(room.keep_tables or [])
    found: list[RoomTable] = []
    tournament_tables = (
        Table.objects.filter(status=Table.Status.OPEN, tournament__status=Tournament.Status.RUNNING)
        .select_related("tournament")
        .annotate(
            open_in_event=Count(
                "tournament__tables", filter=Q(tournament__tables__status=Table.Status.OPEN)
            )
        )
        .order_by("tournament__date", "tournament_id", "number")
    )
    for t in tournament_tables:
        key = table_key(TOURNAMENT, t.pk)
        final = t.open_in_event == 1
        found.append(
            RoomTable(
                key=key,
                game=_tournament_game(t.tournament.game),
                label=f"{t.tournament.name} · T{t.number}",
                keep_dealer=final or key in kept,
                final=final,
            )
        )
    cash_tables = CashTable.objects.filter(status=CashTable.Status.OPEN).select_related("game")
    for c in cash_tables.order_by("number"):
        key = table_key(CASH, c.pk)
        found.append(
            RoomTable(
                key=key,
                game=_cash_game(c.game.variant),
                label=f"{c.game} · T{c.number}",
                keep_dealer=key in kept,
            )
        )
    for p in PitTable.objects.filter(status=PitTable.Status.OPEN):
        key = table_key(PIT, p.pk)
        found.append(RoomTable(key=key, game=p.game, label=p.name, keep_dealer=key in kept))
    return found


def table_label(key: str) -> str:
    """A table's words from its key, open or not (the floor's override names one)."""
    parts = split_key(key)
    if parts is None:
        return key
    kind, pk = parts
    if kind == TOURNAMENT:
        t = Table.objects.select_related("tournament").filter(pk=pk).first()
        return f"{t.tournament.name} · T{t.number}" if t else key
    if kind == CASH:
        c = CashTable.objects.select_related("game").filter(pk=pk).first()
        return f"{c.game} · T{c.number}" if c else key
    p = PitTable.objects.filter(pk=pk).first()
    return p.name if p else key


# --- the dealers on shift ---------------------------------------------------------------


def dealers() -> Any:
    """The accounts holding the room's dealer role, by name."""
    return permissions.staff_holding(permissions.DEALER)


def dealer_name(user: Any) -> str:
    return user.get_full_name() or user.get_username()


def open_shifts() -> list[DealerShift]:
    return list(
        DealerShift.objects.filter(clock_out__isnull=True)
        .select_related("dealer", "dealer__dealer_profile")
        .order_by("clock_in", "pk")
    )


def _minutes(start: datetime, end: datetime) -> int:
    return max(0, int((end - start).total_seconds() // 60))


def on_shift(
    shifts: list[DealerShift], now: datetime, settings: rotation.RotationSettings | None = None
) -> list[rotation.DealerOnShift]:
    """The dealers clocked in, as the rotation rules take them: where each is, since when,
    his minutes on the box since his last break (the down he deals now not counted), the
    table he dealt before. A break is a break row, or time out of the box at least a
    break's length long (the rules count it so too)."""
    settings = settings or rotation_settings()
    rest = timedelta(minutes=settings.break_minutes)
    rows: dict[int, list[DealerAssignment]] = defaultdict(list)
    for a in DealerAssignment.objects.filter(shift__in=shifts).order_by("started_at", "pk"):
        rows[a.shift_id].append(a)
    found = []
    for shift in shifts:
        profile = getattr(shift.dealer, "dealer_profile", None)
        games = frozenset(profile.games if profile else ())
        history = rows.get(shift.pk, [])
        current = next((a for a in history if a.ended_at is None), None)
        box = shift_box = 0
        last_table = None
        left_box: datetime | None = None
        for a in history:
            if a.on_break:
                box = 0
                continue
            if left_box is not None and a.started_at - left_box >= rest:
                box = 0
            if a.ended_at is None:
                break  # the down being dealt now is the rules' to count
            # Counted as the rules count a down: a part of a minute is a minute.
            dealt = rotation.minutes_between(a.started_at, a.ended_at)
            box += dealt
            shift_box += dealt
            last_table, left_box = a.table_key, a.ended_at
        if current is not None:
            since = current.started_at
        else:
            ended = [a.ended_at for a in history if a.ended_at is not None]
            since = max(ended) if ended else shift.clock_in
        found.append(
            rotation.DealerOnShift(
                id=shift.dealer_id,
                games=games,
                table=current.table_key if current and not current.on_break else None,
                since=since,
                box_minutes_since_break=box,
                last_table=last_table,
                on_break_until=current.break_until if current and current.on_break else None,
                shift_box_minutes=shift_box,
            )
        )
    return found


def plan(now: datetime) -> tuple[list[RoomTable], list[rotation.DealerOnShift], rotation.Push]:
    """The open tables, the dealers on shift and the next push as the rules plan it."""
    room = dealer_room()
    tables = open_tables(room)
    settings = rotation_settings(room)
    on = on_shift(open_shifts(), now, settings)
    push = rotation.next_push(tuple(t.rule() for t in tables), tuple(on), now, settings)
    return tables, on, push


# --- the board --------------------------------------------------------------------------


@dataclass
class BoardRow:
    table: RoomTable
    dealer: str = ""
    dealer_id: int | None = None
    since: datetime | None = None
    relief: str = ""  # who takes the box at the next push
    relief_id: int | None = None
    relief_at: datetime | None = None
    leaves_to: str = ""  # where the dealer goes at the next push ("break", a table)


@dataclass
class Board:
    now: datetime
    rows: list[BoardRow]
    push_at: datetime | None
    on_break: list[tuple[str, datetime | None]]
    waiting: list[str]
    unstaffed: list[str]
    moves: list[tuple[str, str]] = field(default_factory=list)
    dealers_on: list[tuple[int, str]] = field(default_factory=list)


def board(now: datetime) -> Board:
    """Who deals where now, who takes over at the next push and when, who is on a break and
    until when, who waits for a table."""
    tables, on, push = plan(now)
    names = {
        u.pk: dealer_name(u) for u in get_user_model().objects.filter(pk__in=[d.id for d in on])
    }
    labels = {t.key: t.label for t in tables}
    at_table = {d.table: d for d in on if d.table}
    moves_to = {m.table: m for m in push.moves if m.table}
    moved = {m.dealer_id: m for m in push.moves}
    rows = []
    for t in tables:
        d = at_table.get(t.key)
        row = BoardRow(table=t)
        if d is not None:
            row.dealer, row.dealer_id, row.since = names.get(d.id, ""), d.id, d.since
            leaving = moved.get(d.id)
            if leaving is not None:
                row.leaves_to = labels.get(leaving.table, "") if leaving.table else "break"
        coming = moves_to.get(t.key)
        if coming is not None:
            row.relief, row.relief_at = names.get(coming.dealer_id, ""), push.at
            row.relief_id = coming.dealer_id
        rows.append(row)
    breaks = sorted(
        (names.get(d.id, ""), d.on_break_until)
        for d in on
        if d.on_break_until is not None and d.on_break_until > now
    )
    waiting = sorted(
        names.get(d.id, "")
        for d in on
        if d.table is None and (d.on_break_until is None or d.on_break_until <= now)
    )
    moves = [
        (names.get(m.dealer_id, ""), labels.get(m.table, "") if m.table else "") for m in push.moves
    ]
    return Board(
        now=now,
        rows=rows,
        push_at=push.at if push.moves or push.unstaffed else None,
        on_break=breaks,
        waiting=waiting,
        unstaffed=[labels.get(k, k) for k in push.unstaffed],
        moves=moves,
        dealers_on=sorted(((d.id, names.get(d.id, "")) for d in on), key=lambda p: p[1]),
    )


def relief(key: str, now: datetime) -> BoardRow | None:
    """One open table's row of the board (its tablet shows who relieves the dealer)."""
    for row in board(now).rows:
        if row.table.key == key:
            return row
    return None


# --- the clock-in page and the floor's list -----------------------------------------------


def scheduled_start(profile: DealerProfile | None, clock_in: datetime) -> datetime | None:
    """The planned start of the shift a clock-in belongs to: the profile's start time on
    the day nearest the clock-in (a night shift starts before midnight)."""
    if profile is None:
        return None
    local = timezone.localtime(clock_in)
    nearest = None
    for days in (-1, 0, 1):
        day = local.date() + timedelta(days=days)
        start = timezone.make_aware(datetime.combine(day, profile.shift_start))
        if nearest is None or abs(start - clock_in) < abs(nearest - clock_in):
            nearest = start
    return nearest


def night_of(clock_in: datetime) -> date:
    """The night a shift belongs to, as the night's books count it: the room's local date
    of the clock-in."""
    return timezone.localdate(clock_in)


def open_shift_of(user: Any) -> DealerShift | None:
    return DealerShift.objects.filter(dealer=user, clock_out__isnull=True).first()


def place_of(user: Any) -> DealerAssignment | None:
    return DealerAssignment.objects.filter(dealer=user, ended_at__isnull=True).first()


# --- hours and tips ---------------------------------------------------------------------


@dataclass
class ShiftHours:
    shift: DealerShift
    name: str
    box_minutes: int
    by_game: dict[str, int]
    by_table: list[tuple[str, int]]
    breaks: int
    break_minutes: int
    tips: int | None = None  # cents

    @property
    def games_cells(self) -> list[int]:
        """Minutes on the box by game, in the games' order."""
        return [self.by_game.get(code, 0) for code, _words in GAME_CHOICES]


def _break_end(a: DealerAssignment, now: datetime) -> datetime:
    end = a.ended_at or now
    return min(end, a.break_until) if a.break_until else end


def hours(night: date, now: datetime) -> list[ShiftHours]:
    """Each shift of the night: minutes on the box by game and by table, breaks, lateness,
    and its share of the night's tips when the pool is entered."""
    shifts = list(
        DealerShift.objects.filter(night=night).select_related("dealer").order_by("clock_in", "pk")
    )
    rows: dict[int, list[DealerAssignment]] = defaultdict(list)
    for a in DealerAssignment.objects.filter(shift__in=shifts).order_by("started_at", "pk"):
        rows[a.shift_id].append(a)
    found = []
    for shift in shifts:
        by_game: dict[str, int] = defaultdict(int)
        by_table: dict[str, int] = defaultdict(int)
        breaks = break_minutes = 0
        for a in rows.get(shift.pk, []):
            if a.on_break:
                breaks += 1
                break_minutes += _minutes(a.started_at, _break_end(a, now))
                continue
            minutes = _minutes(a.started_at, a.ended_at or shift.clock_out or now)
            by_game[a.game] += minutes
            by_table[a.table_label or a.table_key] += minutes
        found.append(
            ShiftHours(
                shift=shift,
                name=dealer_name(shift.dealer),
                box_minutes=sum(by_game.values()),
                by_game=dict(by_game),
                by_table=sorted(by_table.items()),
                breaks=breaks,
                break_minutes=break_minutes,
            )
        )
    pool = TipsPool.objects.filter(night=night).first()
    if pool is not None:
        weight = tips_rules.weights({h.shift.pk: h.box_minutes for h in found}, pool.split)
        shares = tips_rules.split_pool(pool.amount, weight)
        for h in found:
            h.tips = shares.get(h.shift.pk, 0)
    return found


def tips_pool(night: date) -> TipsPool | None:
    return TipsPool.objects.filter(night=night).first()


def game_words(game: str) -> str:
    return str(GAME_WORDS.get(game, game))

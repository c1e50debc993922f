"""Every write of the dealers' floor: profiles, clock-in and clock-out, the push, the floor's
override, the plan's re-flow when tables open or close, the pit's tables, the settings and
the night's tips pool.

Each runs in one transaction, logs one row of the room's log (`room.dealer_*`), registers
its undo, and tells the dealers' screens after commit. An assignment's rows are the truth
of where each dealer was: a change ends rows and starts rows, and its log row names both,
so that its undo removes what it started and reopens what it ended.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, undoes
from room.live import broadcast_dealers
from room.models import (
    DealerAssignment,
    DealerProfile,
    DealerRoom,
    DealerShift,
    PitTable,
    RoomEvent,
    TipsPool,
)
from room.rules import dealers as rotation
from room.selectors import dealers as selectors
from tournaments import permissions
from tournaments.errors import CannotUndo, DomainError

PROFILE = "room.dealer_profile"
CLOCK_IN = "room.dealer_clock_in"
CLOCK_OUT = "room.dealer_clock_out"
PUSH = "room.dealer_push"
OVERRIDE = "room.dealer_override"
REFLOW = "room.dealer_reflow"
SETTINGS = "room.dealer_settings"
KEEP = "room.dealer_keep"
PIT_TABLE = "room.pit_table"
TIPS = "room.dealer_tips"
ACTIONS = (PROFILE, CLOCK_IN, CLOCK_OUT, PUSH, OVERRIDE, REFLOW, SETTINGS, KEEP, PIT_TABLE, TIPS)

MAX_TIPS_CENTS = 100_000_000  # a million euros: a typing slip beyond it, never a night's tips


# --- the assignments' rows ----------------------------------------------------------------


class _Changes:
    """What one action did to the assignments: rows ended and rows started, by id."""

    def __init__(self) -> None:
        self.ended: list[int] = []
        self.started: list[int] = []

    def data(self) -> dict[str, list[int]]:
        return {"ended": self.ended, "started": self.started}

    def __bool__(self) -> bool:
        return bool(self.ended or self.started)


def _end_current(dealer_id: int, now: datetime, changes: _Changes) -> DealerAssignment | None:
    current = (
        DealerAssignment.objects.select_for_update()
        .filter(dealer_id=dealer_id, ended_at__isnull=True)
        .first()
    )
    if current is not None:
        current.ended_at = now
        current.save(update_fields=["ended_at"])
        changes.ended.append(current.pk)
    return current


def _start(
    shift: DealerShift,
    *,
    table: selectors.RoomTable | None,
    now: datetime,
    changes: _Changes,
    break_until: datetime | None = None,
) -> DealerAssignment:
    row = DealerAssignment.objects.create(
        shift=shift,
        dealer_id=shift.dealer_id,
        table_key=table.key if table else "",
        table_label=table.label if table else "",
        game=table.game if table else "",
        started_at=now,
        break_until=break_until,
    )
    changes.started.append(row.pk)
    return row


def _apply(
    moves: tuple[rotation.Move, ...],
    tables: dict[str, selectors.RoomTable],
    shifts: dict[int, DealerShift],
    now: datetime,
    changes: _Changes,
) -> int:
    """Carry the rules' moves out: each moved dealer's row ends; he starts at his table or
    on his break (a move to no table and no break leaves him waiting for a table). Those
    leaving a table go first, so that a table's new dealer never meets the old one."""
    ordered = sorted(moves, key=lambda m: m.table is not None)
    for move in ordered:
        _end_current(int(move.dealer_id), now, changes)
    done = 0
    for move in ordered:
        shift = shifts.get(int(move.dealer_id))
        if shift is None:
            continue
        if move.table is not None:
            table = tables.get(move.table)
            if table is None:
                continue
            _start(shift, table=table, now=now, changes=changes)
        elif move.break_until is not None:
            _start(shift, table=None, now=now, changes=changes, break_until=move.break_until)
        done += 1
    return done


def _lock_room() -> DealerRoom:
    """The dealers' settings row, locked: every change of the plan queues behind it, so two
    pushes pressed at once make one."""
    room = DealerRoom.objects.select_for_update().order_by("pk").first()
    if room is None:
        DealerRoom.objects.get_or_create(pk=1)
        room = DealerRoom.objects.select_for_update().get(pk=1)
    return room


def _shifts() -> dict[int, DealerShift]:
    return {s.dealer_id: s for s in selectors.open_shifts()}


def _close_gone_tables(
    tables: dict[str, selectors.RoomTable], now: datetime, changes: _Changes
) -> None:
    """A table that closed or broke frees its dealer at once: he waits for the next table."""
    gone = DealerAssignment.objects.filter(ended_at__isnull=True).exclude(table_key="")
    for row in gone.exclude(table_key__in=list(tables)).select_for_update():
        row.ended_at = now
        row.save(update_fields=["ended_at"])
        changes.ended.append(row.pk)


def _fill_unstaffed(now: datetime, changes: _Changes) -> None:
    """The tables without a dealer take one now, from those waiting (off the box and off
    a break), as the rules would choose them for the next push."""
    tables, on, push = selectors.plan(now)
    if push.at > now:
        return  # nobody free can deal them yet: the next push will
    staffed = {d.table for d in on if d.table}
    free = {d.id for d in on if d.table is None and (d.on_break_until or now) <= now}
    moves = tuple(
        m
        for m in push.moves
        if m.table is not None and m.table not in staffed and m.dealer_id in free
    )
    if moves:
        _apply(moves, {t.key: t for t in tables}, _shifts(), now, changes)


def _reflow(now: datetime, changes: _Changes) -> None:
    tables = {t.key: t for t in selectors.open_tables()}
    _close_gone_tables(tables, now, changes)
    _fill_unstaffed(now, changes)


@transaction.atomic
def reflow(*, now: datetime, actor: Any = None) -> RoomEvent | None:
    """The plan after a table opened, broke or closed: the closed tables' dealers are
    freed, the new tables get a dealer from those waiting. Logged when anything moved."""
    _lock_room()
    changes = _Changes()
    _reflow(now, changes)
    if not changes:
        return None
    broadcast_dealers("reflow")
    return room_event_log(actor=actor, action=REFLOW, data=changes.data(), now=now)


@transaction.atomic
def push(*, actor: Any, now: datetime, only_if_due: bool = False) -> RoomEvent | None:
    """The push: every move of the next push as the rules plan it, now (the floor pressed
    it), or only when its time has come (`only_if_due`). None when nothing moves."""
    _lock_room()
    changes = _Changes()
    tables = {t.key: t for t in selectors.open_tables()}
    _close_gone_tables(tables, now, changes)
    _tables, _on, planned = selectors.plan(now)
    if only_if_due and planned.at > now:
        if changes:
            broadcast_dealers("reflow")
            return room_event_log(actor=actor, action=REFLOW, data=changes.data(), now=now)
        return None
    moved = _apply(planned.moves, tables, _shifts(), now, changes)
    _fill_unstaffed(now, changes)
    if not changes:
        if only_if_due:
            return None
        raise DomainError(_("Nobody moves at this push: no table is due for a new dealer."))
    broadcast_dealers("push")
    return room_event_log(
        actor=actor, action=PUSH, data={**changes.data(), "moves": moved}, now=now
    )


@transaction.atomic
def override(*, actor: Any, dealer_id: int, table_key: str, now: datetime) -> RoomEvent:
    """The floor puts one dealer at one open table now (or, with no table, on a break of
    the room's length). The table's dealer leaves the box; the plan re-flows around it."""
    room = _lock_room()
    shift = DealerShift.objects.filter(dealer_id=dealer_id, clock_out__isnull=True).first()
    if shift is None:
        raise DomainError(_("This dealer is not clocked in."))
    tables = {t.key: t for t in selectors.open_tables(room)}
    changes = _Changes()
    if table_key:
        table = tables.get(table_key)
        if table is None:
            raise DomainError(_("That table is not open."))
        profile = DealerProfile.objects.filter(user_id=dealer_id).first()
        if profile is None or table.game not in (profile.games or []):
            raise DomainError(
                _("%(name)s does not deal %(game)s.")
                % {
                    "name": selectors.dealer_name(shift.dealer),
                    "game": selectors.game_words(table.game),
                }
            )
        here = DealerAssignment.objects.filter(table_key=table_key, ended_at__isnull=True)
        if here.filter(dealer_id=dealer_id).exists():
            raise DomainError(_("This dealer is already at that table."))
        for row in here.select_for_update():
            row.ended_at = now
            row.save(update_fields=["ended_at"])
            changes.ended.append(row.pk)
        _end_current(dealer_id, now, changes)
        _start(shift, table=table, now=now, changes=changes)
    else:
        current = selectors.place_of(shift.dealer)
        if current is not None and current.on_break:
            raise DomainError(_("This dealer is already on a break."))
        _end_current(dealer_id, now, changes)
        until = now + timedelta(minutes=room.break_minutes)
        _start(shift, table=None, now=now, changes=changes, break_until=until)
    _reflow(now, changes)
    broadcast_dealers("override")
    return room_event_log(
        actor=actor,
        action=OVERRIDE,
        data={
            **changes.data(),
            "dealer": dealer_id,
            "name": selectors.dealer_name(shift.dealer),
            "table": table_key,
            "label": tables[table_key].label if table_key else "",
        },
        now=now,
    )


def _undo_changes(event: RoomEvent, now: datetime) -> None:
    """Remove the rows an action started and reopen the rows it ended, unless a later
    change moved them since."""
    data = event.data if isinstance(event.data, dict) else {}
    started = DealerAssignment.objects.select_for_update().filter(pk__in=data.get("started", []))
    if started.filter(ended_at__isnull=False).exists():
        raise CannotUndo(reason=_("a later push or change has moved these dealers since"))
    ended = list(DealerAssignment.objects.select_for_update().filter(pk__in=data.get("ended", [])))
    started.delete()
    for row in ended:
        if row.shift.clock_out is not None:
            raise CannotUndo(reason=_("a dealer it moved has clocked out since"))
        row.ended_at = None
        try:
            with transaction.atomic():
                row.save(update_fields=["ended_at"])
        except IntegrityError:
            raise CannotUndo(
                reason=_("a later push or change has moved these dealers since")
            ) from None
    broadcast_dealers("undo")


@undoes(OVERRIDE)
def _undo_override(event: RoomEvent, actor: Any, now: datetime) -> None:
    _lock_room()
    _undo_changes(event, now)


@undoes(PUSH)
def _undo_push(event: RoomEvent, actor: Any, now: datetime) -> None:
    _lock_room()
    _undo_changes(event, now)


# --- clocking in and out ------------------------------------------------------------------


@transaction.atomic
def clock_in(*, dealer: Any, now: datetime) -> DealerShift:
    """A dealer clocks in with his PIN: his shift starts (late when after its planned
    start), and a table waiting for a dealer takes him at once."""
    if not permissions.has_room_role(dealer, permissions.DEALER):
        raise DomainError(_("Only a dealer of the room clocks in here."))
    _lock_room()
    if DealerShift.objects.filter(dealer=dealer, clock_out__isnull=True).exists():
        raise DomainError(_("You are already clocked in."))
    profile = DealerProfile.objects.filter(user=dealer).first()
    start = selectors.scheduled_start(profile, now)
    late = max(0, int((now - start).total_seconds() // 60)) if start else 0
    shift = DealerShift.objects.create(
        dealer=dealer, night=selectors.night_of(now), clock_in=now, late_minutes=late
    )
    changes = _Changes()
    _reflow(now, changes)
    room_event_log(
        actor=dealer,
        action=CLOCK_IN,
        data={"shift": shift.pk, "name": selectors.dealer_name(dealer), "late": late},
        now=now,
        undoable=False,
    )
    broadcast_dealers("clock")
    return shift


@transaction.atomic
def clock_out(*, dealer: Any, now: datetime) -> DealerShift:
    """A dealer clocks out: his table (if any) waits for the next dealer."""
    _lock_room()
    shift = (
        DealerShift.objects.select_for_update()
        .filter(dealer=dealer, clock_out__isnull=True)
        .first()
    )
    if shift is None:
        raise DomainError(_("You are not clocked in."))
    changes = _Changes()
    _end_current(dealer.pk, now, changes)
    shift.clock_out = now
    shift.save(update_fields=["clock_out"])
    _reflow(now, changes)
    room_event_log(
        actor=dealer,
        action=CLOCK_OUT,
        data={"shift": shift.pk, "name": selectors.dealer_name(dealer), **changes.data()},
        now=now,
        undoable=False,
    )
    broadcast_dealers("clock")
    return shift


# --- the dealers' profiles, the settings, the pit's tables -----------------------------


@transaction.atomic
def profile_save(
    *, actor: Any, dealer: Any, games: list[str], start: time, end: time, now: datetime
) -> DealerProfile:
    """The games a dealer deals and his shift's planned hours."""
    games = [g for g in rotation.GAMES if g in set(games)]
    if not games:
        raise DomainError(_("Tick at least one game he deals."))
    profile = DealerProfile.objects.select_for_update().filter(user=dealer).first()
    before = (
        {
            "games": profile.games,
            "start": profile.shift_start.isoformat(),
            "end": profile.shift_end.isoformat(),
        }
        if profile
        else None
    )
    if profile is None:
        profile = DealerProfile(user=dealer)
    profile.games, profile.shift_start, profile.shift_end = games, start, end
    profile.save()
    room_event_log(
        actor=actor,
        action=PROFILE,
        data={"user": dealer.pk, "name": selectors.dealer_name(dealer), "before": before},
        now=now,
    )
    broadcast_dealers("profile")
    return profile


@undoes(PROFILE)
def _undo_profile(event: RoomEvent, actor: Any, now: datetime) -> None:
    data = event.data
    profile = DealerProfile.objects.select_for_update().filter(user_id=data["user"]).first()
    if profile is None:
        return
    before = data.get("before")
    if before is None:
        profile.delete()
        return
    profile.games = before["games"]
    profile.shift_start = time.fromisoformat(before["start"])
    profile.shift_end = time.fromisoformat(before["end"])
    profile.save()


SETTING_FIELDS = ("down_minutes", "break_minutes", "max_minutes_without_break", "tips_split")


@transaction.atomic
def settings_save(*, actor: Any, values: dict[str, Any], now: datetime) -> DealerRoom:
    room = _lock_room()
    before = {name: getattr(room, name) for name in SETTING_FIELDS}
    for name in SETTING_FIELDS:
        if name in values:
            setattr(room, name, values[name])
    room.save()
    room_event_log(actor=actor, action=SETTINGS, data={"before": before}, now=now)
    broadcast_dealers("settings")
    return room


@undoes(SETTINGS)
def _undo_settings(event: RoomEvent, actor: Any, now: datetime) -> None:
    room = _lock_room()
    for name, value in event.data.get("before", {}).items():
        if name in SETTING_FIELDS:
            setattr(room, name, value)
    room.save()


@transaction.atomic
def keep_dealer(*, actor: Any, table_key: str, keep: bool, now: datetime) -> DealerRoom:
    """Mark an open table as one that keeps its dealer at the pushes (a TV table), or not."""
    room = _lock_room()
    if table_key not in {t.key for t in selectors.open_tables(room)}:
        raise DomainError(_("That table is not open."))
    before = list(room.keep_tables or [])
    kept = [k for k in before if k != table_key] + ([table_key] if keep else [])
    room.keep_tables = kept
    room.save(update_fields=["keep_tables"])
    room_event_log(
        actor=actor,
        action=KEEP,
        data={"before": before, "table": table_key, "keep": keep},
        now=now,
    )
    broadcast_dealers("settings")
    return room


@undoes(KEEP)
def _undo_keep(event: RoomEvent, actor: Any, now: datetime) -> None:
    room = _lock_room()
    room.keep_tables = list(event.data.get("before", []))
    room.save(update_fields=["keep_tables"])


@transaction.atomic
def pit_table_add(*, actor: Any, name: str, game: str, now: datetime) -> PitTable:
    name = (name or "").strip()[:40]
    if not name:
        raise DomainError(_("Give the table a name."))
    if game not in PitTable.Game.values:
        raise DomainError(_("Choose blackjack or punto banco."))
    if PitTable.objects.filter(name=name).exists():
        raise DomainError(_("A pit table is already called %(name)s.") % {"name": name})
    table = PitTable.objects.create(name=name, game=game)
    room_event_log(
        actor=actor,
        action=PIT_TABLE,
        data={"table": table.pk, "name": name, "before": None},
        now=now,
    )
    return table


@transaction.atomic
def pit_table_status(*, actor: Any, table: PitTable, status: str, now: datetime) -> PitTable:
    """Open or close a pit table; the dealers' plan re-flows at once."""
    if status not in PitTable.Status.values:
        raise DomainError(_("Unknown table status."))
    table = PitTable.objects.select_for_update().get(pk=table.pk)
    before = table.status
    if before == status:
        return table
    table.status = status
    table.save(update_fields=["status"])
    _lock_room()
    changes = _Changes()
    _reflow(now, changes)
    room_event_log(
        actor=actor,
        action=PIT_TABLE,
        data={"table": table.pk, "name": table.name, "before": before, **changes.data()},
        now=now,
    )
    broadcast_dealers("pit")
    return table


@undoes(PIT_TABLE)
def _undo_pit_table(event: RoomEvent, actor: Any, now: datetime) -> None:
    data = event.data
    table = PitTable.objects.select_for_update().filter(pk=data["table"]).first()
    if table is None:
        return
    _lock_room()
    if data.get("before") is None:
        if DealerAssignment.objects.filter(table_key=f"pit:{table.pk}").exists():
            raise CannotUndo(reason=_("dealers have dealt at this table since"))
        table.delete()
        return
    _undo_changes(event, now)
    table.status = data["before"]
    table.save(update_fields=["status"])
    changes = _Changes()
    _reflow(now, changes)


# --- the night's tips ---------------------------------------------------------------------


@transaction.atomic
def tips_set(*, actor: Any, night: Any, amount: int, now: datetime) -> TipsPool:
    """The night's tips pool, in cents, split by the room's setting as it stands now. A
    second entry replaces the first (the row is unique by night, locked while changed)."""
    if not 0 <= amount <= MAX_TIPS_CENTS:
        raise DomainError(_("Write the tips as an amount from 0 to 1,000,000."))
    room = _lock_room()
    pool = TipsPool.objects.select_for_update().filter(night=night).first()
    before = {"amount": pool.amount, "split": pool.split} if pool else None
    if pool is None:
        pool = TipsPool(night=night)
    pool.amount, pool.split = amount, room.tips_split
    pool.entered_at, pool.entered_by = now, actor
    pool.save()
    room_event_log(
        actor=actor,
        action=TIPS,
        data={"night": night.isoformat(), "amount": amount, "before": before},
        now=now,
    )
    return pool


@undoes(TIPS)
def _undo_tips(event: RoomEvent, actor: Any, now: datetime) -> None:
    data = event.data
    pool = TipsPool.objects.select_for_update().filter(night=data["night"]).first()
    if pool is None or pool.amount != data["amount"]:
        raise CannotUndo(reason=_("the tips were entered again since"))
    before = data.get("before")
    if before is None:
        pool.delete()
        return
    pool.amount, pool.split = before["amount"], before["split"]
    pool.save(update_fields=["amount", "split"])

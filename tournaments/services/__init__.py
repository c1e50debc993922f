"""Writes to the event: setup, structure, staff, players, entries, rebuys, add-ons.

Every function is keyword-only, runs in one transaction, writes an audit row through
`event_log` and broadcasts after commit. Refusals raise a DomainError and change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tables import services as table_services
from tables.models import Seat, Table
from tournaments import entry_rules, errors, realtime, selectors
from tournaments.events import event_log, undoes
from tournaments.models import (
    Entry,
    Event,
    IdCheck,
    Player,
    Purchase,
    Role,
    StaffAssignment,
    StructureItem,
    Tournament,
)

# --- Tournaments ----------------------------------------------------------------------


def _unique_slug(name: str, date) -> str:
    base = slugify(f"{name}-{date:%Y-%m-%d}")[:70] or "torneo"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(*, actor, fields: dict[str, Any], now: datetime) -> Tournament:
    """Create a tournament; its creator becomes its TD."""
    tournament = Tournament(**fields)
    tournament.slug = _unique_slug(tournament.name, tournament.date)
    tournament.save()
    StaffAssignment.objects.create(tournament=tournament, user=actor, role=Role.TD)
    event_log(
        tournament=tournament,
        actor=actor,
        action="tournament.create",
        data={"name": tournament.name},
        now=now,
    )
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, actor, fields: dict[str, Any], now: datetime
) -> Tournament:
    """Change the settings of a tournament; the old values are logged for undo."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: _jsonable(getattr(locked, name)) for name in fields}
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save(update_fields=list(fields))
    changed = {k: _jsonable(v) for k, v in fields.items() if before[k] != _jsonable(v)}
    if changed:
        event_log(
            tournament=locked,
            actor=actor,
            action="tournament.update",
            data={"before": {k: before[k] for k in changed}, "after": changed},
            now=now,
        )
    return locked


@undoes("tournament.update")
def _undo_tournament_update(event: Event, actor, now: datetime) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    for name, value in event.data["before"].items():
        field = Tournament._meta.get_field(name)
        setattr(tournament, field.attname, field.to_python(value))  # attname: FKs by pk
    tournament.save(update_fields=list(event.data["before"]))


def _jsonable(value: Any) -> Any:
    if hasattr(value, "_meta") and hasattr(value, "pk"):
        return value.pk  # a related row (a satellite's target event) is logged by its key
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if value.__class__.__name__ == "Decimal":
        return str(value)
    return value


@dataclass(frozen=True)
class ItemSpec:
    """One row of the structure editor."""

    kind: str
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_mode: str = "none"
    minutes: int = 20
    color_up: int | None = None


def structure_validate(items: list[ItemSpec]) -> None:
    """Refuse a structure a clock could not run or a TD would not mean."""
    levels = [i for i in items if i.kind == StructureItem.Kind.LEVEL]
    if not levels:
        raise errors.InvalidStructure(reason=_("it needs at least one level"))
    previous = None
    number = 0
    for position, item in enumerate(items, start=1):
        if item.minutes <= 0:
            raise errors.InvalidStructure(
                reason=_("row %(row)s: the duration must be at least one minute")
                % {"row": position}
            )
        if item.kind != StructureItem.Kind.LEVEL:
            continue
        number += 1
        if item.small_blind <= 0 or item.big_blind <= 0:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: blinds must be positive") % {"level": number}
            )
        if item.big_blind < item.small_blind:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: the big blind is smaller than the small blind")
                % {"level": number}
            )
        if item.ante < 0:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: the ante cannot be negative") % {"level": number}
            )
        if item.ante and item.ante_mode == "none":
            raise errors.InvalidStructure(
                reason=_("level %(level)s: an ante needs an ante mode") % {"level": number}
            )
        if previous is not None and (
            item.small_blind < previous.small_blind or item.big_blind < previous.big_blind
        ):
            raise errors.InvalidStructure(
                reason=_("level %(level)s: blinds go down from the level before")
                % {"level": number}
            )
        previous = item


@transaction.atomic
def structure_set(
    *, tournament: Tournament, actor, items: list[ItemSpec], now: datetime
) -> list[StructureItem]:
    """Replace the whole structure (the editor sends every row, in order)."""
    structure_validate(items)
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = [_item_data(i) for i in locked.items.all()]
    locked.items.all().delete()
    rows = StructureItem.objects.bulk_create(
        StructureItem(tournament=locked, position=p, **vars(spec))
        for p, spec in enumerate(items, start=1)
    )
    event_log(
        tournament=locked,
        actor=actor,
        action="structure.set",
        data={"before": before, "after": [vars(spec) for spec in items]},
        now=now,
    )
    realtime.broadcast(locked.pk, {"type": "structure", "version": locked.clock_version})
    return rows


def _item_data(item: StructureItem) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "ante_mode": item.ante_mode,
        "minutes": item.minutes,
        "color_up": item.color_up,
    }


@undoes("structure.set")
def _undo_structure_set(event: Event, actor, now: datetime) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    tournament.items.all().delete()
    StructureItem.objects.bulk_create(
        StructureItem(tournament=tournament, position=p, **data)
        for p, data in enumerate(event.data["before"], start=1)
    )


@transaction.atomic
def tournament_clone(
    *, tournament: Tournament, actor, name: str, date, now: datetime
) -> Tournament:
    """Copy a tournament's settings, structure and tables (no players) under a new name."""
    skip = {"id", "slug", "name", "date", "status", "created_at"}
    fields = {
        f.name: getattr(tournament, f.name)
        for f in Tournament._meta.concrete_fields
        if f.name not in skip and not f.name.startswith("clock_")
    }
    clone = tournament_create(actor=actor, fields={**fields, "name": name, "date": date}, now=now)
    StructureItem.objects.bulk_create(
        StructureItem(tournament=clone, position=i.position, **_item_data(i))
        for i in tournament.items.all()
    )
    Table.objects.bulk_create(
        Table(
            tournament=clone,
            number=t.number,
            max_seats=t.max_seats,
            opening_order=t.opening_order,
            break_order=t.break_order,
            accessible_seats=t.accessible_seats,
            reserved_seats=t.reserved_seats,
        )
        for t in tournament.tables.all()
    )
    event_log(
        tournament=clone,
        actor=actor,
        action="tournament.clone",
        data={"from": tournament.slug},
        now=now,
        undoable=False,
    )
    return clone


@transaction.atomic
def staff_assign(
    *, tournament: Tournament, actor, username: str, role: str, now: datetime
) -> StaffAssignment:
    """Give a staff account a role in this tournament (replacing any earlier one)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise errors.DomainError(_("No staff account is called %(name)s."), name=username)
    if role not in Role.values:
        raise errors.DomainError(_("Unknown role."))
    assignment, _created = StaffAssignment.objects.update_or_create(
        tournament=tournament, user=user, defaults={"role": role}
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="staff.assign",
        data={"username": username, "role": role},
        now=now,
        undoable=False,
    )
    return assignment


@transaction.atomic
def tables_add(
    *,
    tournament: Tournament,
    actor,
    first: int,
    last: int,
    max_seats: int,
    accessible_seats: list[int],
    reserved_seats: list[int],
    now: datetime,
) -> list[Table]:
    """Add the tables numbered first..last."""
    if first < 1 or last < first or last - first >= 2000:
        raise errors.DomainError(_("Give a range of table numbers like 1 to 20."))
    if not 2 <= max_seats <= 10:
        raise errors.DomainError(_("A table has from 2 to 10 seats."))
    bad = [s for s in accessible_seats + reserved_seats if not 1 <= s <= max_seats]
    if bad:
        raise errors.DomainError(_("Seat %(seat)s does not exist at these tables."), seat=bad[0])
    tables = table_services.tables_create(
        tournament=tournament,
        numbers=list(range(first, last + 1)),
        max_seats=max_seats,
        accessible_seats=accessible_seats,
        reserved_seats=reserved_seats,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="tables.add",
        data={"numbers": [t.number for t in tables]},
        now=now,
    )
    return tables


@undoes("tables.add")
def _undo_tables_add(event: Event, actor, now: datetime) -> None:
    tables = Table.objects.filter(
        tournament_id=event.tournament_id, number__in=event.data["numbers"]
    )
    busy = Seat.objects.filter(table__in=tables).select_related("table").first()
    if busy is not None:
        raise errors.TablesInUse(table=busy.table.number)
    tables.delete()


# --- Players and entries --------------------------------------------------------------


@transaction.atomic
def player_create(
    *,
    tournament: Tournament,
    actor,
    first_name: str,
    last_name: str,
    document_number: str = "",
    nationality: str = "",
    needs_accessible_seat: bool = False,
    now: datetime,
) -> Player:
    """Record a new player (names are trimmed; a document number may be registered once)."""
    first_name, last_name = first_name.strip(), last_name.strip()
    document_number = document_number.strip().upper()
    if not first_name or not last_name:
        raise errors.DomainError(_("Write the player's first and last name."))
    if document_number and Player.objects.filter(document_number=document_number).exists():
        raise errors.DomainError(
            _("Document %(document)s belongs to a player already registered: search for it."),
            document=document_number,
        )
    player = Player.objects.create(
        first_name=first_name,
        last_name=last_name,
        document_number=document_number,
        nationality=nationality.strip(),
        needs_accessible_seat=needs_accessible_seat,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="player.create",
        data={"player": player.pk, "name": str(player)},
        now=now,
        undoable=False,
    )
    return player


@dataclass(frozen=True)
class Registration:
    entry: Entry
    table: int
    seat: int
    dealt_in: str
    opened_table: bool
    forfeited: Entry | None


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def entry_register(
    *, tournament: Tournament, player: Player, actor, now: datetime, forfeit: bool = False
) -> Registration:
    """Sell an entry (or a re-entry) and draw its seat at once (tournament.md §5, §6.1).

    Refused with a DomainError, changing nothing, when registration is closed, the player
    is already playing (unless `forfeit` and the event allows forfeit-and-re-enter), the
    entry limit is reached, or the room is full.
    """
    tournament = _lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.TournamentFinished
    if not selectors.registration_open(tournament, now):
        raise errors.LateRegistrationClosed
    entries = list(tournament.entries.filter(player=player).exclude(status=Entry.Status.VOIDED))
    active = next((e for e in entries if e.status == Entry.Status.ACTIVE), None)
    if entries and not tournament.reentry_allowed:
        if active is not None:
            raise _already_active(active)
        raise errors.ReentryNotAllowed
    if active is not None and not forfeit:
        raise _already_active(active)
    if active is not None and not tournament.reentry_forfeit_allowed:
        raise errors.ForfeitNotAllowed
    limit = tournament.max_entries if tournament.reentry_allowed else 1
    if len(entries) >= limit:
        raise errors.EntryLimitReached(player=str(player), limit=limit)

    forfeited_seat = None
    if active is not None:
        # TDA-8b: the surrendered chips leave play; they go to nobody.
        forfeited_seat = table_services.seat_free(entry=active)
        active.status = Entry.Status.FORFEITED
        active.chips_removed = active.chips
        active.ended_at = now
        active.save(update_fields=["status", "chips_removed", "ended_at"])
    number = (tournament.entries.aggregate(n=Max("number"))["n"] or 0) + 1
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number,
        kind=Entry.Kind.REENTRY if entries else Entry.Kind.ENTRY,
        chips=tournament.starting_stack,
        paid=tournament.buy_in_total,
        created_at=now,
    )
    # The new entry finishes above everyone already out: their places move down one, so
    # two busts from different hands never share a place (issue 13).
    from tournaments.services.results import places_make_room

    shifted = places_make_room(tournament=tournament, by=1)
    seat = table_services.seat_assign(
        tournament=tournament, entry=entry, now=now, dealt_in=_dealt_in(tournament)
    )
    if seat.dealt_in == Seat.DealtIn.ASK_DEALER:
        seat = _deal_in_known(tournament, entry, seat)
    event_log(
        tournament=tournament,
        actor=actor,
        action="entry.register",
        data={
            "entry": entry.pk,
            "number": entry.number,
            "player": player.pk,
            "name": str(player),
            "kind": entry.kind,
            "table": seat.table,
            "seat": seat.seat,
            "dealt_in": seat.dealt_in,
            "opened_table": seat.opened_table,
            "forfeited_entry": active.pk if active else None,
            "forfeited_seat": list(forfeited_seat) if forfeited_seat else None,
            "chips_removed": active.chips if active else 0,
            "places_shifted": shifted,
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {
            "type": "seat",
            "entry": entry.pk,
            "name": str(player),
            "table": seat.table,
            "seat": seat.seat,
            "dealt_in": seat.dealt_in,
        },
        tables=(seat.table,),
    )
    return Registration(entry, seat.table, seat.seat, seat.dealt_in, seat.opened_table, active)


def _already_active(entry: Entry) -> errors.PlayerAlreadyActive:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return errors.PlayerAlreadyActive(
        player=str(entry.player),
        table=seat.table.number if seat else "-",
        seat=seat.number if seat else "-",
    )


def _dealt_in(tournament: Tournament) -> str:
    """Before the first hand everyone is dealt in; once play runs, the seat decides
    (§7.4) and the table tablet reports the button: until then the desk is told the rule."""
    if tournament.clock_status in {"not_started", "scheduled"}:
        return Seat.DealtIn.NEXT_HAND
    return Seat.DealtIn.ASK_DEALER


def _deal_in_known(tournament: Tournament, entry: Entry, seat):
    """Answer "dealt in now?" from the table's last-hand positions when the tablet or the
    floor has reported them (tournament.md §7.4, setting deal_in_exclusion)."""
    from dataclasses import replace

    from tournaments.services.room import dealt_in_for

    table = Table.objects.get(tournament=tournament, number=seat.table)
    occupied = table.seats.values_list("number", flat=True)
    answer = dealt_in_for(table, seat.seat, occupied, tournament.deal_in_exclusion)
    if answer != seat.dealt_in:
        Seat.objects.filter(entry=entry).update(dealt_in=answer)
    return replace(seat, dealt_in=answer)


@undoes("entry.register")
def _undo_entry_register(event: Event, actor, now: datetime) -> None:
    entry = Entry.objects.select_for_update().get(pk=event.data["entry"])
    if entry.status != Entry.Status.ACTIVE:
        raise errors.CannotUndo(reason=_("the entry is no longer playing"))
    if entry.purchases.filter(voided=False).exists():
        raise errors.CannotUndo(reason=_("undo its rebuys and add-ons first"))
    shifted = event.data.get("places_shifted") or []
    if (
        shifted
        and Entry.objects.filter(
            tournament_id=event.tournament_id, status=Entry.Status.ELIMINATED, ended_at__gt=event.at
        ).exists()
    ):
        raise errors.CannotUndo(reason=_("players went out after it: undo their bust-outs first"))
    table_services.seat_free(entry=entry)
    entry.status = Entry.Status.VOIDED
    entry.ended_at = now
    entry.save(update_fields=["status", "ended_at"])
    if shifted:
        from tournaments.services.results import places_make_room

        places_make_room(tournament=entry.tournament, by=-1, entries=shifted)
    if event.data.get("forfeited_entry"):
        old = Entry.objects.get(pk=event.data["forfeited_entry"])
        old.status = Entry.Status.ACTIVE
        old.chips_removed = 0
        old.ended_at = None
        old.save(update_fields=["status", "chips_removed", "ended_at"])
        table_number, seat_number = event.data["forfeited_seat"] or (event.data["table"], None)
        table = Table.objects.get(tournament_id=event.tournament_id, number=table_number)
        table_services.seat_place(
            entry=old, table=table, seat=seat_number or event.data["seat"], now=now
        )


def entry_eliminate(
    *, tournament: Tournament, entry: Entry, actor, now: datetime, start_stack: int = 0
) -> Entry:
    """Record a lone bust-out: the entry takes its finishing place and prize (§15.1)."""
    from tournaments.services import results

    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=start_stack)],
        actor=actor,
        now=now,
    )
    return Entry.objects.get(pk=entry.pk)


def entries_eliminate(
    *, tournament: Tournament, entries: list[Entry], actor, now: datetime
) -> list[Entry]:
    """Record the bust-outs of one hand, at one table or many, in one settlement."""
    from tournaments.services import results

    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=0) for entry in entries],
        actor=actor,
        now=now,
    )
    return list(Entry.objects.filter(pk__in=[e.pk for e in entries]))


def _purchase_window_reason(tournament: Tournament, kind: str, now: datetime) -> str | None:
    spot = selectors.clock_spot(tournament, now)
    if kind == Purchase.Kind.REBUY:
        if not entry_rules.rebuy_window_open(spot, until_level=tournament.rebuy_until_level):
            return _("the rebuy period ended with level %(level)s") % {
                "level": tournament.rebuy_until_level
            }
        return None
    if not entry_rules.addon_window_open(
        spot, break_after_level=tournament.addon_break_after_level
    ):
        return _("add-ons are sold at the break after level %(level)s") % {
            "level": tournament.addon_break_after_level
        }
    return None


@transaction.atomic
def entry_purchase(
    *,
    tournament: Tournament,
    entry: Entry,
    kind: str,
    actor,
    now: datetime,
    stack: int | None = None,
    declared_before_hand: bool = False,
) -> Purchase:
    """Sell a rebuy or an add-on on an active entry (tournament.md §5.5, §5.6).

    A rebuy declared before the hand (§5.5) is charged at once and cannot be refused by
    the hand's outcome: the chips count as in play for that hand.
    """
    tournament = _lock(tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
    if entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    bought = entry.purchases.filter(kind=kind, voided=False).count()
    if kind == Purchase.Kind.REBUY:
        reason = None
        if not tournament.rebuys_allowed:
            reason = _("this tournament has no rebuys")
        elif bought >= tournament.rebuy_max:
            reason = _("%(player)s has had all %(limit)s rebuys") % {
                "player": entry.player,
                "limit": tournament.rebuy_max,
            }
        elif (
            tournament.rebuy_stack_threshold is not None
            and not declared_before_hand
            and (stack is None or stack > tournament.rebuy_stack_threshold)
        ):
            reason = _("the stack must be %(limit)s or less (write the current stack)") % {
                "limit": tournament.rebuy_stack_threshold
            }
        reason = reason or _purchase_window_reason(tournament, kind, now)
        if reason:
            raise errors.RebuyNotAllowed(reason=reason)
        price, chips = tournament.rebuy_price, tournament.rebuy_chips
    else:
        reason = None
        if not tournament.addon_allowed:
            reason = _("this tournament has no add-on")
        elif bought >= 1:
            reason = _("%(player)s has already had the add-on") % {"player": entry.player}
        reason = reason or _purchase_window_reason(tournament, kind, now)
        if reason:
            raise errors.AddonNotAllowed(reason=reason)
        price, chips = tournament.addon_price, tournament.addon_chips
    purchase = Purchase.objects.create(
        entry=entry,
        kind=kind,
        price=price,
        chips=chips,
        declared_before_hand=declared_before_hand,
        created_at=now,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action=f"entry.{kind}",
        data={
            "purchase": purchase.pk,
            "entry": entry.pk,
            "name": str(entry.player),
            "chips": chips,
            "price": price,
            "declared_before_hand": declared_before_hand,
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "figures"})
    return purchase


def _undo_purchase(event: Event, actor, now: datetime) -> None:
    purchase = Purchase.objects.select_for_update().get(pk=event.data["purchase"])
    purchase.voided = True
    purchase.save(update_fields=["voided"])


undoes("entry.rebuy")(_undo_purchase)
undoes("entry.addon")(_undo_purchase)


@transaction.atomic
def id_check(
    *, tournament: Tournament, player: Player, actor, now: datetime, day: int = 1
) -> IdCheck:
    """Record that the player's photo ID was checked for this playing day (FIGP §50)."""
    check, created = IdCheck.objects.get_or_create(
        tournament=tournament,
        player=player,
        day=day,
        defaults={"checked_at": now, "checked_by": actor},
    )
    if created:
        event_log(
            tournament=tournament,
            actor=actor,
            action="id.check",
            data={"check": check.pk, "player": player.pk, "name": str(player), "day": day},
            now=now,
        )
    return check


@undoes("id.check")
def _undo_id_check(event: Event, actor, now: datetime) -> None:
    IdCheck.objects.filter(pk=event.data["check"]).delete()


@transaction.atomic
def seat_move(
    *,
    tournament: Tournament,
    entry: Entry,
    table_number: int,
    seat: int,
    actor,
    now: datetime,
    reason: str = "",
) -> None:
    """Move a player to a named seat (a TD override or a wrong-seat correction, §6.1-6.2);
    his chips go with him unchanged."""
    tournament = _lock(tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
    if entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    table = Table.objects.filter(tournament=tournament, number=table_number).first()
    if table is None or table.status == Table.Status.CLOSED:
        raise errors.DomainError(_("Table %(table)s is not in play."), table=table_number)
    before = Seat.objects.select_related("table").filter(entry=entry).first()
    table_services.seat_place(entry=entry, table=table, seat=seat, now=now)
    event_log(
        tournament=tournament,
        actor=actor,
        action="seat.move",
        data={
            "entry": entry.pk,
            "name": str(entry.player),
            "from": [before.table.number, before.number] if before else None,
            "to": [table_number, seat],
            "reason": reason,
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {
            "type": "move",
            "entry": entry.pk,
            "name": str(entry.player),
            "from": {"table": before.table.number, "seat": before.number} if before else None,
            "to": {"table": table_number, "seat": seat},
        },
        tables=tuple({table_number, *([before.table.number] if before else [])}),
    )


@undoes("seat.move")
def _undo_seat_move(event: Event, actor, now: datetime) -> None:
    entry = Entry.objects.get(pk=event.data["entry"])
    if event.data["from"] is None:
        table_services.seat_free(entry=entry)
        return
    table_number, seat = event.data["from"]
    table = Table.objects.get(tournament_id=event.tournament_id, number=table_number)
    table_services.seat_place(entry=entry, table=table, seat=seat, now=now)


@transaction.atomic
def seats_draw_all(
    *, tournament: Tournament, actor, now: datetime, rng=None
) -> dict[int, tuple[int, int]]:
    """Seat every unseated active entry at once (the start-of-event draw, §6.1): as few
    tables as needed, counts differing by at most one, the permutation recorded."""
    from tables import draw

    tournament = _lock(tournament)
    rng = rng or table_services.SYSTEM_RANDOM
    unseated = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE, seat__isnull=True)
        .order_by("number")
        .values_list("pk", "player__needs_accessible_seat")
    )
    if not unseated:
        return {}
    tables = list(tournament.tables.exclude(status=Table.Status.CLOSED))
    states = table_services.table_states(tournament)
    try:
        result = draw.initial_draw(
            [pk for pk, _needs in unseated],
            states,
            rng,
            accessible_needed=frozenset(pk for pk, needs in unseated if needs),
        )
    except draw.RoomFull:
        raise errors.RoomFull from None
    by_number = {t.number: t for t in tables}
    Seat.objects.bulk_create(
        Seat(table=by_number[table], number=seat, entry_id=entry_id, assigned_at=now)
        for entry_id, (table, seat) in result.assignments.items()
    )
    Table.objects.filter(tournament=tournament, number__in=result.opened_tables).update(
        status=Table.Status.OPEN
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="seats.draw",
        data={
            "method": "SystemRandom",
            "seated": len(result.assignments),
            "assignments": {str(k): list(v) for k, v in result.assignments.items()},
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "seating"})
    return result.assignments


@undoes("seats.draw")
def _undo_seats_draw(event: Event, actor, now: datetime) -> None:
    entry_ids = [int(k) for k in event.data["assignments"]]
    Seat.objects.filter(entry_id__in=entry_ids, entry__tournament_id=event.tournament_id).delete()


@transaction.atomic
def table_update(
    *,
    tournament: Tournament,
    actor,
    number: int,
    opening_order: int,
    break_order: int,
    accessible_seats: list[int],
    reserved_seats: list[int],
    now: datetime,
) -> Table:
    """Change one table's opening and break order and its accessible and reserved seats
    (tournament.md §6.1, §9.2). A seat with a player on it cannot become reserved."""
    table = Table.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if table is None:
        raise errors.DomainError(_("Table %(table)s does not exist."), table=number)
    bad = [s for s in accessible_seats + reserved_seats if not 1 <= s <= table.max_seats]
    if bad:
        raise errors.DomainError(
            _("Table %(table)s has no seat %(seat)s."), table=number, seat=bad[0]
        )
    taken = sorted(set(reserved_seats) & set(table.seats.values_list("number", flat=True)))
    if taken:
        raise errors.DomainError(
            _("Seat %(seat)s at table %(table)s is taken: move the player before reserving it."),
            table=number,
            seat=taken[0],
        )
    names = ("opening_order", "break_order", "accessible_seats", "reserved_seats")
    before = {name: getattr(table, name) for name in names}
    table.opening_order, table.break_order = opening_order, break_order
    table.accessible_seats = sorted(set(accessible_seats))
    table.reserved_seats = sorted(set(reserved_seats))
    after = {name: getattr(table, name) for name in names}
    if after != before:
        table.save(update_fields=list(names))
        event_log(
            tournament=tournament,
            actor=actor,
            action="table.update",
            data={"table": number, "before": before, "after": after},
            now=now,
        )
    return table


@undoes("table.update")
def _undo_table_update(event: Event, actor, now: datetime) -> None:
    Table.objects.filter(tournament_id=event.tournament_id, number=event.data["table"]).update(
        **event.data["before"]
    )

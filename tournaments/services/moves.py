"""Writes to the room: balancing moves, table breaks, the final table,
move confirmations, and the floor's manual control of tables and seats.

Decisions come from the pure planner (`tables.rules.balancing`, `tables.rules.buttons`); these services
load the room, call it, write the result in one transaction, log it (undoable) and push
it to the screens after commit (tournament.md §7-§10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from random import Random
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tables.rules import balancing, buttons
from tournaments import errors, realtime
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import Entry, Event, Seat, Table, Tournament
from tournaments.selectors.tables import (
    RULE_INITIAL_DRAW,
    Room,
    before_start,
    even_out_moves,
    positions_of,
    room_load,
)
from tournaments.services import seats as seat_services
from tournaments.services.hands import (
    POSITION_FIELDS,
    _positions_data,
    _restore_positions,
    _set_positions,
    _table_for,
)

RANKS = "23456789TJQKA"
SUITS = "shdc"
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

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

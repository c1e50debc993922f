"""Writes to a table's button and hands: the button set or drawn by high card, a hand
finished (the button moves, hand-for-hand counts it), each logged and undoable."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from random import Random
from typing import Any

from django.db import connection, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tables.rules import buttons
from tournaments import errors, realtime
from tournaments.events import event_log, undoes
from tournaments.models import Event, Seat, Table, Tournament
from tournaments.selectors.tables import positions_of, room_load
from tournaments.services import seats as seat_services

RANKS = "23456789TJQKA"
SUITS = "shdc"
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)


def _set_positions(table: Table, positions: buttons.Positions | None) -> None:
    if positions is None:
        table.button = table.sb = table.bb = None
        table.button_dead = table.sb_dead = table.heads_up = False
        return
    table.button, table.sb, table.bb = positions.button, positions.sb, positions.bb
    table.button_dead, table.sb_dead = positions.button_dead, positions.sb_dead
    table.heads_up = positions.heads_up


def _positions_data(table: Table) -> dict[str, Any]:
    return {
        "button": table.button,
        "sb": table.sb,
        "bb": table.bb,
        "button_dead": table.button_dead,
        "sb_dead": table.sb_dead,
        "heads_up": table.heads_up,
        "hands": table.hands,
        "hand_started_at": table.hand_started_at.isoformat() if table.hand_started_at else None,
    }


def _restore_positions(table: Table, data: dict[str, Any]) -> None:

    for name in ("button", "sb", "bb", "button_dead", "sb_dead", "heads_up", "hands"):
        setattr(table, name, data[name])
    started = data.get("hand_started_at")
    table.hand_started_at = parse_datetime(started) if started else None


def _save_positions(tables: Sequence[Table]) -> None:
    """Write many tables' positions in one executemany (bulk_update's CASE is slow at 1,000+)."""
    if not tables:
        return

    columns = ", ".join(f"{name} = %s" for name in POSITION_FIELDS)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Table._meta.db_table} SET {columns} WHERE id = %s",  # noqa: S608
            [
                [
                    *(
                        Table._meta.get_field(name).get_db_prep_save(getattr(t, name), connection)
                        for name in POSITION_FIELDS
                    ),
                    t.pk,
                ]
                for t in tables
            ],
        )


POSITION_FIELDS = [
    "button",
    "sb",
    "bb",
    "button_dead",
    "sb_dead",
    "heads_up",
    "hands",
    "hand_started_at",
]


# --- button and hands -----------------------------------------------------------------


def _table_for(tournament: Tournament, number: int) -> Table:
    table = (
        Table.objects.select_for_update()
        .filter(tournament=tournament, number=number)
        .exclude(status=Table.Status.CLOSED)
        .first()
    )
    if table is None:
        raise errors.DomainError(_("Table %(table)s is not in play."), table=number)
    return table


def _occupied(table: Table) -> list[int]:
    return list(table.seats.values_list("number", flat=True))


@transaction.atomic
def button_set(
    *, tournament: Tournament, table_number: int, button: int, actor, now: datetime
) -> Table:
    """Mark where the button is for the hand being dealt now; blinds follow (§6.3, §7.1)."""
    table = _table_for(tournament, table_number)
    occupied = _occupied(table)
    try:
        positions = buttons.first_hand(max_seats=table.max_seats, occupied=occupied, button=button)
    except ValueError:
        raise errors.DomainError(
            _("The button must be on a seat with a player, at a table with two or more."),
        ) from None
    before = _positions_data(table)
    _set_positions(table, positions)
    table.hand_started_at = now
    table.save(update_fields=POSITION_FIELDS)
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.button",
        data={"table": table.number, "before": before, "after": _positions_data(table)},
        now=now,
    )
    _broadcast_hand(tournament, table)
    return table


@transaction.atomic
def buttons_draw(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    rng: Random = seat_services.SYSTEM_RANDOM,
    table_numbers: Sequence[int] | None = None,
) -> dict[int, int]:
    """Draw the button by high card at every open table whose button is unknown (or at the
    named tables): one face-up card per seat, highest wins, suits break ties (§6.3-6.4).
    Returns table -> button seat."""
    room = room_load(tournament)
    numbers = table_numbers if table_numbers is not None else list(room.tables)
    drawn: dict[int, int] = {}
    cards_log: dict[str, dict[str, str]] = {}
    befores: dict[str, dict[str, Any]] = {}
    changed: list[Table] = []
    for number in numbers:
        if number not in room.tables:
            continue
        occupied = room.seats[number]
        if len(occupied) < 2 or (
            table_numbers is None and room.tables.light(number).positions_known
        ):
            continue
        table = room.tables[number]
        cards = dict(zip(sorted(occupied), rng.sample(DECK, len(occupied)), strict=True))
        result = buttons.draw_button(max_seats=table.max_seats, cards=cards)
        befores[str(number)] = _positions_data(table)
        _set_positions(table, result.positions)
        table.hand_started_at = now
        changed.append(table)
        drawn[number] = result.winner_seat
        cards_log[str(number)] = {str(seat): card for seat, card in cards.items()}
    if not changed:
        return drawn
    _save_positions(changed)
    event_log(
        tournament=tournament,
        actor=actor,
        action="table.button_draw",
        data={
            "cards": cards_log,
            "before": befores,
            "buttons": {str(k): v for k, v in drawn.items()},
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "buttons", "tables": sorted(drawn)})
    return drawn


@transaction.atomic
def hand_done(
    *, tournament: Tournament, table_numbers: Sequence[int], actor, now: datetime
) -> dict[int, buttons.NextHand]:
    """Start the next hand at each table: the button and blinds move on by the dead-button
    rule and newcomers are dealt in or wait (tournament.md §7.1-7.4)."""
    # Table numbers run 1-9999 (`table_renumber`); a bigger one is no table, and one past
    # the database's integers would fail the IN lookup.
    table_numbers = [n for n in table_numbers if 1 <= n <= 9999]
    tables = list(
        Table.objects.select_for_update()
        .filter(tournament=tournament, number__in=list(table_numbers))
        .exclude(status=Table.Status.CLOSED)
    )
    unknown = [t.number for t in tables if not t.positions_known]
    if unknown:
        raise errors.DomainError(_("Mark the button at table %(table)s first."), table=unknown[0])
    seats: dict[int, list[tuple[int, datetime]]] = {t.pk: [] for t in tables}
    for table_id, number, assigned_at in Seat.objects.filter(
        table__tournament=tournament, table__number__in=list(table_numbers)
    ).values_list("table_id", "number", "assigned_at"):
        if table_id in seats:
            seats[table_id].append((number, assigned_at))
    hands: dict[int, buttons.NextHand] = {}
    befores: dict[str, dict[str, Any]] = {}
    for table in tables:
        occupied = [number for number, _at in seats[table.pk]]
        if len(occupied) < 2:
            continue
        started = table.hand_started_at
        newcomers = [n for n, at in seats[table.pk] if started and at > started]
        hand = buttons.next_hand(
            max_seats=table.max_seats,
            occupied=occupied,
            last_hand=positions_of(table),  # type: ignore[arg-type]
            newcomers=newcomers,
            deal_in_exclusion=tournament.deal_in_exclusion,  # type: ignore[arg-type]
        )
        befores[str(table.number)] = _positions_data(table)
        _set_positions(table, hand.positions)
        table.hands += 1
        table.hand_started_at = now
        hands[table.number] = hand
    changed = [t for t in tables if t.number in hands]
    _save_positions(changed)
    if changed:
        event_log(
            tournament=tournament,
            actor=actor,
            action="table.hand",
            data={"before": befores},
            now=now,
        )
    if len(changed) == 1:
        _broadcast_hand(tournament, changed[0])
    elif changed:
        realtime.broadcast(tournament.pk, {"type": "hands", "tables": sorted(hands)})
    return hands


def _broadcast_hand(tournament: Tournament, table: Table) -> None:
    realtime.broadcast(
        tournament.pk,
        {
            "type": "hand",
            "table": table.number,
            "hand": table.hands,
            "button": table.button,
            "sb": table.sb,
            "bb": table.bb,
            "button_dead": table.button_dead,
            "sb_dead": table.sb_dead,
        },
        tables=(table.number,),
    )


def _undo_positions(event: Event, actor, now: datetime) -> None:
    befores = event.data["before"]
    if "table" in event.data:
        befores = {str(event.data["table"]): befores}
    tables = list(
        Table.objects.filter(
            tournament_id=event.tournament_id, number__in=[int(n) for n in befores]
        )
    )
    for table in tables:
        _restore_positions(table, befores[str(table.number)])
    Table.objects.bulk_update(tables, POSITION_FIELDS)


undoes("table.button")(_undo_positions)
undoes("table.button_draw")(_undo_positions)
undoes("table.hand")(_undo_positions)

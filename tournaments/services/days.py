"""Multi-day events: end-of-day bagging, flights merged into Day 2, the Day 2 redraw.

A Day 1 flight is a Tournament whose `parent` is the main event (tournament.md §17; how
chips are bagged is [not in sources]: counts per player, checked against the ledger).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_id, undoes
from tournaments.models import ChipCount, ChipDenomination, Entry, Event, Seat, Table, Tournament
from tournaments.selectors.planner_stats import analyze_after_bulk
from tournaments.services import seats as seat_services
from tournaments.services import setup as setup_services

SYSTEM_RANDOM = random.SystemRandom()


@dataclass(frozen=True)
class BagResult:
    counted: int  # total chips bagged
    chips_in_play: int  # what the ledger says
    discrepancy: int  # counted - chips_in_play (0 when the bags agree)
    missing: tuple[int, ...]  # entry pks still playing with no count


@transaction.atomic
def chips_bag(
    *, tournament: Tournament, counts: dict[int, int], actor, now: datetime, bags=None
) -> BagResult:
    """Record the stacks bagged at the end of the day, one per player still in; the total
    is checked against the chips in play and any difference is flagged, not hidden."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    active = {
        e.pk: e
        for e in tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    }
    unknown = set(counts) - set(active)
    if unknown:
        raise errors.DomainError(_("Only players still in can bag chips."))
    if any(c < 0 for c in counts.values()):
        raise errors.DomainError(_("A chip count cannot be negative."))
    bags = bags or {}
    for pk, chips in counts.items():
        ChipCount.objects.update_or_create(
            entry_id=pk,
            day=tournament.day,
            defaults={
                "tournament": tournament,
                "chips": chips,
                "bag": str(bags.get(pk, ""))[:20],
                "table": None,  # a bag, not a count at the table
                "counted_at": now,
            },
        )
    result = bag_check(tournament)
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.bag",
        data={
            "day": tournament.day,
            "counts": {str(k): v for k, v in counts.items()},
            "counted": result.counted,
            "chips_in_play": result.chips_in_play,
            "discrepancy": result.discrepancy,
            "missing": list(result.missing),
        },
        now=now,
        undoable=False,
    )
    return result


def bag_check(tournament: Tournament) -> BagResult:
    """Compare today's bags with the chips-in-play ledger. Read only."""
    active = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    )
    counts = dict(
        ChipCount.objects.filter(
            entry_id__in=active, day=tournament.day, table__isnull=True
        ).values_list("entry_id", "chips")
    )
    counted = sum(counts.values())
    in_play = selectors.tournament_figures(tournament)["chips_in_play"]
    return BagResult(
        counted=counted,
        chips_in_play=in_play,
        discrepancy=counted - in_play,
        missing=tuple(pk for pk in active if pk not in counts),
    )


@transaction.atomic
def flight_create(*, event: Tournament, actor, name: str, date, now: datetime) -> Tournament:
    """Open a Day 1 flight of `event`: the event's settings and structure, its own tables
    and registration."""

    if event.parent_id is not None:
        raise errors.DomainError(_("A flight cannot have flights of its own."))
    flight = setup_services.tournament_clone(
        tournament=event, actor=actor, name=name, date=date, now=now
    )
    flight.parent = event
    flight.payouts = []  # prizes are paid by the main event, never by a flight
    flight.day = 1
    flight.save(update_fields=["parent", "payouts", "day"])
    ChipDenomination.objects.bulk_create(
        ChipDenomination(
            tournament=flight,
            value=d.value,
            colour=d.colour,
            in_starting_stack=d.in_starting_stack,
        )
        for d in event.denominations.all()
    )
    event_log(
        tournament=event,
        actor=actor,
        action="flight.create",
        data={"flight": flight.slug, "name": name},
        now=now,
        undoable=False,
    )
    return flight


@dataclass(frozen=True)
class MergeResult:
    carried: dict[int, int]  # player pk -> chips brought into the event
    flights: tuple[str, ...]
    players_through_twice: tuple[int, ...]


@transaction.atomic
def flights_merge(*, event: Tournament, actor, now: datetime) -> MergeResult:
    """Bring every flight survivor into the main event with his bagged stack.

    A player who survived several flights keeps one stack, by the event's
    `flight_stack_rule`: his biggest, or the one from the most recent flight [not in
    sources: a house setting]. Every flight must have bagged every survivor first.
    """
    event = Tournament.objects.select_for_update().get(pk=event.pk)
    flights = list(event.flights.order_by("date", "created_at", "pk"))
    if not flights:
        raise errors.DomainError(_("This event has no flights."))
    if event.entries.filter(kind=Entry.Kind.CARRIED).exists():
        raise errors.DomainError(_("The flights were already merged."))
    found: dict[int, list[tuple[int, int]]] = {}  # player -> [(flight order, chips)]
    for order, flight in enumerate(flights):
        check = bag_check(flight)
        if check.missing:
            raise errors.DomainError(
                _("%(flight)s: %(n)s players still in have no bagged count."),
                flight=flight.name,
                n=len(check.missing),
            )
        for count in ChipCount.objects.filter(
            entry__tournament=flight, entry__status=Entry.Status.ACTIVE, day=flight.day
        ).select_related("entry"):
            found.setdefault(count.entry.player_id, []).append((order, count.chips))
    carried: dict[int, int] = {}
    for player, stacks in found.items():
        if event.flight_stack_rule == "most_recent":
            carried[player] = max(stacks)[1]
        else:
            carried[player] = max(chips for _order, chips in stacks)
    number = event.entries.aggregate(n=Max("number"))["n"] or 0
    created = []
    for player in sorted(carried, key=lambda p: -carried[p]):
        number += 1
        created.append(
            Entry(
                tournament=event,
                player_id=player,
                number=number,
                kind=Entry.Kind.CARRIED,
                chips=carried[player],
                paid=0,
                created_at=now,
            )
        )
    Entry.objects.bulk_create(created)
    analyze_after_bulk([Entry], rows=len(created))  # a big day 2 (planner_stats)
    for flight in flights:
        flight.status = Tournament.Status.FINISHED
        flight.save(update_fields=["status"])
    event.day = max(event.day, max(f.day for f in flights) + 1)
    event.status = Tournament.Status.RUNNING
    event.save(update_fields=["day", "status"])
    event_log(
        tournament=event,
        actor=actor,
        action="flights.merge",
        data={
            "flights": [f.slug for f in flights],
            "carried": {str(k): v for k, v in carried.items()},
            "rule": event.flight_stack_rule,
        },
        now=now,
    )
    realtime.broadcast(event.pk, {"type": "figures"})
    return MergeResult(
        carried=carried,
        flights=tuple(f.slug for f in flights),
        players_through_twice=tuple(sorted(p for p, s in found.items() if len(s) > 1)),
    )


@undoes("flights.merge")
def _undo_merge(event: Event, actor, now: datetime) -> None:
    flights = event.data.get("flights")
    own = set(
        Tournament.objects.filter(parent_id=event.tournament_id).values_list("slug", flat=True)
    )
    if not isinstance(flights, list) or not flights or not set(flights) <= own:
        raise errors.CannotUndo(reason=_("its log row does not match this tournament"))
    carried = Entry.objects.filter(tournament_id=event.tournament_id, kind=Entry.Kind.CARRIED)
    if carried.exclude(status=Entry.Status.ACTIVE).exists():
        raise errors.CannotUndo(reason=_("Day 2 play has started"))
    Seat.objects.filter(entry__in=carried).delete()
    carried.delete()
    # Only this event's own flights (a crafted payload may name any slug).
    Tournament.objects.filter(parent_id=event.tournament_id, slug__in=event.data["flights"]).update(
        status=Tournament.Status.RUNNING
    )


def _accessible_seat(
    tables: dict[int, Table], free: dict[int, list[int]], order: list[int], first: int
) -> tuple[int, int]:
    """A free accessible seat for a player who needs one, taken out of `free`: at table
    `first` when it has one, else at the first table in `order` that has."""
    for number in [first, *order]:
        seats = [s for s in free[number] if s in tables[number].accessible_seats]
        if seats:
            free[number].remove(seats[-1])
            return number, seats[-1]
    raise errors.NoAccessibleSeat


@transaction.atomic
def day_redraw(
    *, tournament: Tournament, actor, now: datetime, rng: random.Random | None = None
) -> dict[int, tuple[int, int]]:
    """Seat every unseated player for the new day by the event's `redraw_rule`: a random
    draw, or the big stacks spread over the tables (biggest first, one per table in turn,
    then a random seat at that table) [not in sources: a house setting]."""

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.redraw_rule != "spread":
        return seat_services.seats_draw_all(tournament=tournament, actor=actor, now=now, rng=rng)
    rng = rng or SYSTEM_RANDOM
    unseated = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE, seat__isnull=True)
        .select_related("player")
        .order_by("-chips", "number")
    )
    if not unseated:
        return {}
    tables = list(
        tournament.tables.exclude(status=Table.Status.CLOSED).order_by("opening_order", "number")
    )
    seats_each = tournament.seats_per_table or 9
    needed = math.ceil(len(unseated) / seats_each)
    usable = [t for t in tables if not t.seats.exists()][:needed]
    if len(usable) < needed:
        raise errors.RoomFull
    free = {
        t.number: [s for s in range(1, t.max_seats + 1) if s not in t.reserved_seats]
        for t in usable
    }
    for seats in free.values():
        rng.shuffle(seats)
    assignments: dict[int, tuple[int, int]] = {}
    by_number = {t.number: t for t in usable}
    order = [t.number for t in usable]
    for i, entry in enumerate(unseated):
        # Snake order: 1..n then n..1, so no table collects two of the biggest stacks.
        lap, pos = divmod(i, len(order))
        table_number = order[pos] if lap % 2 == 0 else order[-1 - pos]
        if entry.player.needs_accessible_seat:
            # A hard constraint (TDA-9): an accessible seat, at his turn's table when it
            # has one free, else at the first table that has.
            table_number, seat = _accessible_seat(by_number, free, order, table_number)
            assignments[entry.pk] = (table_number, seat)
            seat_services.seat_place(entry=entry, table=by_number[table_number], seat=seat, now=now)
            continue
        if not free[table_number]:
            table_number = next(n for n in order if free[n])
        # Ordinary players take accessible seats last.
        free[table_number].sort(key=lambda s: s not in by_number[table_number].accessible_seats)
        seat = free[table_number].pop()
        seat_services.seat_place(entry=entry, table=by_number[table_number], seat=seat, now=now)
        assignments[entry.pk] = (table_number, seat)
    event_log(
        tournament=tournament,
        actor=actor,
        action="seats.draw",
        data={
            "method": "spread",
            "seated": len(assignments),
            "assignments": {str(k): list(v) for k, v in assignments.items()},
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "seating"})
    return assignments


@transaction.atomic
def day_next(*, tournament: Tournament, actor, now: datetime) -> int:
    """End the playing day once every player still in has a bagged count; play resumes
    on the next day with the same entries (unfinished penalties carry over, §19.3)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    check = bag_check(tournament)
    if check.missing:
        raise errors.DomainError(
            _("%(n)s players still in have no bagged count."), n=len(check.missing)
        )
    if not tournament.entries.filter(status=Entry.Status.ACTIVE).exists():
        raise errors.DomainError(_("Nobody is left to play another day."))
    tournament.day += 1
    tournament.save(update_fields=["day"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="day.next",
        data={"day": tournament.day, "discrepancy": check.discrepancy},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "day", "day": tournament.day})
    return tournament.day


@undoes("day.next")
def _undo_day_next(event: Event, actor, now: datetime) -> None:
    day = logged_id(event, "day")
    Tournament.objects.filter(pk=event.tournament_id, day=day).update(day=day - 1)

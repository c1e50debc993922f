"""The front door, the room dashboard and the lobby screen.

Read only: what the public front page lists (today's and upcoming events, running
clocks, results) and what the TD's room dashboard shows of every running event (level,
time, players, tables, alerts). The start time is the clock's scheduled start
(`clock_scheduled_start`), which every clock screen already counts down to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import Entry, Table, Tournament
from tournaments.rules import clock
from tournaments.selectors import reservations as reservation_selectors

LIVE = {clock.ClockStatus.RUNNING, clock.ClockStatus.PAUSED}


@dataclass
class EventCard:
    """One event as the front page and the dashboard show it."""

    tournament: Tournament
    starts_at: datetime | None
    registered: int
    players_left: int
    view: clock.ClockView | None
    remaining: str
    late_registration_ends: datetime | None
    structure: list[clock.Item]
    tables_open: int = 0
    # Seats held by reservations and names on the reservations' waiting list.
    reserved: int = 0
    reserve_waiting: int = 0
    alerts: list[str] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return self.view is not None and self.view.status in LIVE

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED or (
            self.view is not None and self.view.status == clock.ClockStatus.FINISHED
        )

    @property
    def levels(self) -> list[clock.Item]:
        return [item for item in self.structure if isinstance(item, clock.Level)]


def _card(tournament: Tournament, now: datetime, counts: dict[int, tuple[int, int]]) -> EventCard:
    structure = selectors.clock_structure(tournament)
    view = selectors.clock_view_for(tournament, now, structure=structure)
    registered, left = counts.get(tournament.pk, (0, 0))
    return EventCard(
        tournament=tournament,
        starts_at=tournament.clock_scheduled_start
        or (view.starts_at if view is not None else None),
        registered=registered,
        players_left=left,
        view=view,
        remaining=clock.format_clock(view.time_left) if view is not None else "",
        late_registration_ends=view.late_registration_closes_at if view is not None else None,
        structure=structure,
    )


def _counts(tournaments: list[Tournament]) -> dict[int, tuple[int, int]]:
    rows = (
        Entry.objects.filter(tournament__in=tournaments)
        .exclude(status=Entry.Status.VOIDED)
        .values("tournament")
        .annotate(n=Count("id"), left=Count("id", filter=Q(status=Entry.Status.ACTIVE)))
    )
    return {row["tournament"]: (row["n"], row["left"]) for row in rows}


def front_page(now: datetime, *, recent_days: int = 7) -> dict[str, list[EventCard]]:
    """Today's and upcoming events, the running ones, and recent results."""
    today = timezone.localdate(now)
    since = today - timedelta(days=recent_days)
    found = list(
        Tournament.objects.filter(date__gte=since)
        .select_related("target_event")
        .prefetch_related("items")
        .order_by("date", "name")[:200]
    )
    counts = _counts(found)
    cards = [_card(t, now, counts) for t in found]
    _with_reservations(cards)
    running = [c for c in cards if c.running]
    finished = [c for c in cards if c.finished and not c.running]
    upcoming = [c for c in cards if not c.running and not c.finished and c.tournament.date >= today]
    upcoming.sort(key=lambda c: (c.starts_at or _at_date(c.tournament), c.tournament.name))
    finished.sort(key=lambda c: c.tournament.date, reverse=True)
    return {"running": running, "upcoming": upcoming, "finished": finished}


def _with_reservations(cards: list[EventCard]) -> None:
    held = reservation_selectors.counts(c.tournament for c in cards)
    for card in cards:
        card.reserved, card.reserve_waiting = held.get(card.tournament.pk, (0, 0))


def _at_date(tournament: Tournament) -> datetime:
    return timezone.make_aware(datetime.combine(tournament.date, datetime.min.time()))


def running_events(now: datetime, tournaments=None) -> list[EventCard]:
    """Every running event (clock running or paused), with its tables and alerts."""
    if tournaments is None:
        tournaments = Tournament.objects.all()
    found = list(
        tournaments.exclude(status=Tournament.Status.FINISHED)
        .select_related("target_event")
        .prefetch_related("items")
        .order_by("date", "name")
    )
    counts = _counts(found)
    cards = [c for c in (_card(t, now, counts) for t in found) if c.running]
    _with_reservations(cards)
    tables = {
        row["tournament"]: row
        for row in Table.objects.filter(tournament__in=[c.tournament for c in cards])
        .values("tournament")
        .annotate(
            open=Count("id", filter=Q(status=Table.Status.OPEN)),
        )
    }
    for card in cards:
        card.tables_open = tables.get(card.tournament.pk, {}).get("open", 0)
        card.alerts = alerts(card)
    return cards


def alerts(card: EventCard) -> list[str]:
    """What the TD should look at: halted tables, breaks, add-ons, late registration."""
    tournament, view = card.tournament, card.view
    found: list[str] = []
    if view is None:
        return found
    if view.status == clock.ClockStatus.PAUSED:
        found.append(_("Clock paused"))
    if tournament.h4h_active:
        done = set(tournament.h4h_tables_done or [])
        found.append(_("Hand-for-hand: %(done)d tables done") % {"done": len(done)})
    if view.is_break:
        before = card.structure[view.index - 1] if view.index > 0 else None
        if (
            tournament.addon_allowed
            and isinstance(before, clock.Level)
            and before.number == tournament.addon_break_after_level
        ):
            found.append(_("Add-on break"))
        else:
            found.append(_("Break"))
    elif (
        tournament.addon_allowed
        and tournament.addon_break_after_level
        and view.level is not None
        and view.level_number == tournament.addon_break_after_level
    ):
        found.append(_("Add-on break next"))
    if view.late_registration_open and view.late_registration_closes_at is not None:
        minutes = int((view.late_registration_closes_at - view.now).total_seconds() // 60)
        if 0 <= minutes <= 15:
            found.append(_("Late registration closes in %(minutes)d min") % {"minutes": minutes})
    if card.players_left and card.tables_open:
        seats = tournament.seats_per_table
        if card.players_left <= (card.tables_open - 1) * seats:
            found.append(_("A table can break"))
    for number in halted_tables(tournament, view.now):
        found.append(_("Table %(number)d halted") % {"number": number})
    return found


HALTED_MINUTES = 10


def halted_tables(tournament: Tournament, now: datetime) -> list[int]:
    """Open tables whose current hand started over HALTED_MINUTES ago (a stuck table)."""
    limit = now - timedelta(minutes=HALTED_MINUTES)
    return list(
        Table.objects.filter(
            tournament=tournament, status=Table.Status.OPEN, hand_started_at__lt=limit
        )
        .order_by("number")
        .values_list("number", flat=True)
    )


@dataclass(frozen=True)
class FreeTable:
    number: int
    seats: int
    freed_by: Tournament


def free_tables(cards: list[EventCard]) -> list[FreeTable]:
    """Tables a running event has broken that no running event has in play: another
    event may open them (tables shared over an evening)."""
    events = [c.tournament for c in cards]
    # In play or waiting to open in some event (a lent table waits as reserve).
    in_play = set(
        Table.objects.filter(tournament__in=events)
        .exclude(status=Table.Status.CLOSED)
        .values_list("number", flat=True)
    )
    found: dict[int, FreeTable] = {}
    for table in (
        Table.objects.filter(tournament__in=events, status=Table.Status.CLOSED)
        .select_related("tournament")
        .order_by("number")
    ):
        if table.number not in in_play and table.number not in found:
            found[table.number] = FreeTable(table.number, table.max_seats, table.tournament)
    return list(found.values())

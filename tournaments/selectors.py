"""Reads: what the floor, the desk and the screens look at."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Count, Q, QuerySet, Sum

from tournaments import clock
from tournaments.models import Entry, Player, Purchase, StructureItem, Tournament


def clock_structure(tournament: Tournament) -> list[clock.Item]:
    """The tournament's structure as the pure clock reads it (levels numbered 1, 2, ...)."""
    items: list[clock.Item] = []
    number = 0
    for item in tournament.items.all():
        if item.kind == StructureItem.Kind.BREAK:
            items.append(clock.Break(duration=item.minutes * 60, color_up=item.color_up))
        else:
            number += 1
            items.append(
                clock.Level(
                    number=number,
                    small_blind=item.small_blind,
                    big_blind=item.big_blind,
                    duration=item.minutes * 60,
                    ante=item.ante,
                    ante_mode=clock.AnteMode(item.ante_mode),
                )
            )
    return items


def clock_state(tournament: Tournament) -> clock.ClockState:
    return clock.ClockState(
        status=clock.ClockStatus(tournament.clock_status),
        index=tournament.clock_index,
        started_at=tournament.clock_started_at,
        banked=timedelta(seconds=tournament.clock_elapsed),
        scheduled_start=tournament.clock_scheduled_start,
        version=tournament.clock_version,
    )


def late_registration(tournament: Tournament) -> clock.LateRegistration | None:
    if tournament.late_registration_level is None:
        return None
    return clock.LateRegistration(
        until_level=tournament.late_registration_level,
        through_break=tournament.late_registration_through_break,
    )


def clock_view_for(tournament: Tournament, now: datetime) -> clock.ClockView | None:
    """The clock at `now`, or None while the tournament has no structure to run."""
    structure = clock_structure(tournament)
    try:
        clock.validate_structure(structure)
    except ValueError:
        return None
    return clock.clock_view(
        structure, clock_state(tournament), now, late_registration=late_registration(tournament)
    )


def registration_open(tournament: Tournament, now: datetime) -> bool:
    """Whether a new entry may be sold now (tournament.md §5.3, setting late_registration)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.clock_status in {"not_started", "scheduled"}:
        return True
    if tournament.late_registration_level is None:
        return tournament.clock_status != "finished"
    view = clock_view_for(tournament, now)
    return bool(view and view.late_registration_open)


def player_search(query: str, *, limit: int = 20) -> QuerySet[Player]:
    """Players whose name or document number matches every word typed."""
    players = Player.objects.all()
    for word in query.split()[:5]:
        players = players.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(document_number__iexact=word)
        )
    return players.order_by("last_name", "first_name")[:limit]


def tournament_figures(tournament: Tournament) -> dict[str, int]:
    """Entries, players left, chips in play and the prize pool's raw parts."""
    counted = tournament.entries.exclude(status=Entry.Status.VOIDED)
    figures = counted.aggregate(
        entries=Count("id"),
        active=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        chips=Sum("chips"),
        removed=Sum("chips_removed"),
    )
    bought = Purchase.objects.filter(entry__tournament=tournament, voided=False).aggregate(
        chips=Sum("chips"),
        money=Sum("price"),
        rebuys=Count("id", filter=Q(kind=Purchase.Kind.REBUY)),
        addons=Count("id", filter=Q(kind=Purchase.Kind.ADDON)),
    )
    return {
        "entries": figures["entries"] or 0,
        "players_left": figures["active"] or 0,
        "chips_in_play": (figures["chips"] or 0)
        + (bought["chips"] or 0)
        - (figures["removed"] or 0),
        "rebuys": bought["rebuys"] or 0,
        "addons": bought["addons"] or 0,
        "purchase_money": bought["money"] or 0,
    }

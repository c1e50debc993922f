"""Leagues: a season's events and how their results make points. The
points themselves are computed on read (tournaments.selectors.people, tournaments.rules.leagues), so the
standings follow the results as they are recorded."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from room import permissions as room_permissions
from room.events import room_event_log
from room.models import League
from tournaments import errors, permissions
from tournaments.models import Role, Tournament
from tournaments.rules import leagues

TD = frozenset({Role.TD})

SETTINGS = (
    "name",
    "season",
    "formula",
    "points_table",
    "base",
    "participation_points",
    "bounty_points",
    "best_n",
    "tie_break",
    "public",
)


def _check(values: dict[str, Any]) -> None:
    try:
        leagues.Formula(
            kind=values["formula"],
            table=tuple(values["points_table"]),
            base=values["base"],
            participation=values["participation_points"],
            bounty=values["bounty_points"],
            best_n=values["best_n"],
        )
    except (ValueError, TypeError, KeyError):
        raise errors.DomainError(_("These league settings are not valid.")) from None
    if values["tie_break"] not in leagues.TIE_BREAKS:
        raise errors.DomainError(_("These league settings are not valid."))
    if not str(values["name"]).strip():
        raise errors.DomainError(_("Give the league a name."))


def _free_slug(name: str, exclude: int | None) -> str:
    base = slugify(name)[:60] or "league"
    slug, n = base, 1
    while League.objects.filter(slug=slug).exclude(pk=exclude).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def league_save(
    *,
    actor,
    values: dict[str, Any],
    events: list[Tournament],
    now: datetime,
    league: League | None = None,
) -> League:
    """Create a league or change its settings and events (logged in the room's log).
    The room's manager puts any events in a league; a TD only events he runs, and at
    least one (a TD reaches a league through its events, `room.permissions.leagues_for`)."""
    if not permissions.is_manager(actor):
        runs = set(permissions.events_for(actor, TD).values_list("pk", flat=True))
        if not events:
            raise errors.DomainError(_("Choose at least one of your events for the league."))
        if any(e.pk not in runs for e in events):
            raise errors.DomainError(_("A league holds only events you run."))
        if (
            league is not None
            and not room_permissions.leagues_for(actor).filter(pk=league.pk).exists()
        ):
            raise errors.DomainError(_("A league holds only events you run."))
    values = {k: values.get(k) for k in SETTINGS}
    values["name"] = " ".join(str(values["name"] or "").split())
    values["points_table"] = list(values["points_table"] or [])
    values["best_n"] = values["best_n"] or None
    _check(values)
    if league is None:
        league = League(created_by=actor if actor.is_authenticated else None, created_at=now)
        league.slug = _free_slug(values["name"], None)
    for key, value in values.items():
        setattr(league, key, value)
    league.save()
    league.events.set(events)
    room_event_log(
        actor=actor,
        action="room.league_save",
        data={"league": league.pk, "events": sorted(e.pk for e in events)},
        now=now,
        undoable=False,
    )
    return league

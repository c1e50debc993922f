"""The backup written out: a tournament (with its flights) as one JSON-ready document.

Read only. The document's shape is `backup_format`'s; an id in a payload whose row the
file does not hold is written as its negative, so the importer accepts only ids of rows
the file defines.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from tournaments.events import SLUG, payload_refs, remap
from tournaments.models import Event, Player, Tournament
from tournaments.services.backup_format import (
    FORMAT,
    SECTIONS,
    VERSION,
    _is_user,
    exported_fields,
)


def _plain(model_field: models.Field, value: Any) -> Any:
    if value is None or isinstance(model_field, models.JSONField):
        return value
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    return value


def _rows(objects: Iterable[models.Model], usernames: dict[int, str]) -> list[dict[str, Any]]:
    rows = []
    for obj in objects:
        row: dict[str, Any] = {}
        for f in exported_fields(type(obj)):
            value = getattr(obj, f.attname)
            if f.primary_key:
                row["id"] = value
            elif _is_user(f):
                row[f.name] = usernames.get(value) if value is not None else None
            elif f.is_relation:
                row[f.name] = value
            else:
                row[f.name] = _plain(f, value)
        rows.append(row)
    return rows


def export_tournament(tournament: Tournament, *, now: dt.datetime | None = None) -> dict:
    """The whole tournament as one JSON-ready document (its flights too, if it has any).
    Read only."""
    tournament = Tournament.objects.select_related("parent").get(pk=tournament.pk)  # fresh
    family = [tournament]
    if tournament.parent_id is None:
        family += list(tournament.flights.order_by("pk"))
    querysets = {
        s.key: s.model.objects.filter(**{f"{s.owner}__in": family}).order_by("pk") for s in SECTIONS
    }
    fetched = {key: list(qs) for key, qs in querysets.items()}
    user_ids = {
        getattr(obj, f.attname)
        for s in SECTIONS
        for f in exported_fields(s.model)
        if _is_user(f)
        for obj in fetched[s.key]
    } - {None}
    usernames = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    player_ids = {e.player_id for e in fetched["entries"]}
    player_ids |= {c.player_id for c in fetched["id_checks"]}
    player_ids |= {p.player_id for p in fetched["penalties"]}
    player_ids |= _payload_ids(fetched["events"], Player)
    players = Player.objects.filter(pk__in=player_ids).order_by("pk")

    tournament_rows = _rows(family, usernames)
    main = tournament_rows[0]
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": (now or timezone.now()).isoformat(),
    }
    if tournament.parent_id is not None:
        parent = tournament.parent
        document["flight_of"] = {"slug": parent.slug, "name": parent.name}
        main["parent"] = None
    document["tournament"] = main
    document["flights"] = tournament_rows[1:]
    document["players"] = _rows(players, usernames)
    for s in SECTIONS:
        document[s.key] = _rows(fetched[s.key], usernames)
    # A payload id of a row the file does not hold (an undone ID check is deleted; seat
    # tickets are not carried) is written as its negative: the importer then accepts only
    # ids of rows the file defines.
    held: dict[Any, set] = {s.model: {obj.pk for obj in fetched[s.key]} for s in SECTIONS}
    held[Player] = {p.pk for p in players}
    held[SLUG] = {t.slug for t in family}
    for row in document["events"]:
        refs = payload_refs(row["action"], row["data"]) or ()
        row["data"] = remap(
            row["data"], refs, lambda model, old: old if old in held.get(model, ()) else None
        )
    return document


def _payload_ids(events: Iterable[Event], model: type[models.Model]) -> set[int]:
    """Ids of `model` named in the events' payloads."""
    found: set[int] = set()

    def collect(target: Any, old: Any) -> Any:
        if target is model:
            found.add(old)
        return None

    for event in events:
        refs = payload_refs(event.action, event.data) or ()
        remap(event.data, refs, collect)
    return found


def dumps(document: dict) -> bytes:
    """Compact UTF-8 JSON (a 2,000-entry event with its log is about 3 MB)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()

"""What the database holds: the row count of every model and a digest of the world's own
rows, taken before and after a case (a refused input that changed them is a partial write),
and the size of the event logs (an accepted change writes to them).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import ForeignKey, Q

from bench.fuzzing import room_world

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World

# Sessions change with every login; nothing a user types lands there.
_UNWATCHED = {"sessions.Session"}
_UNHASHED_FIELDS = {"last_login"}


def _scope(model, world: World):
    """The world's rows of `model` (None: only its row count is watched)."""
    from tournaments.models import Player, Tournament

    manager = model._default_manager
    if model is Tournament:
        return manager.filter(Q(pk=world.tournament_id) | Q(parent_id=world.tournament_id))
    if model is Player:
        return manager.filter(pk__in=world.player_ids)
    if model is get_user_model():
        return manager.filter(pk__in=world.user_ids())
    room = room_world.scope(model, world)
    if room is not None:
        return room
    names = {f.name: f for f in model._meta.concrete_fields}
    if "tournament" in names:
        return manager.filter(tournament_id=world.tournament_id)
    for f in model._meta.concrete_fields:
        related = f.related_model if isinstance(f, ForeignKey) else None
        if related is not None and any(
            g.name == "tournament" for g in related._meta.concrete_fields
        ):
            return manager.filter(**{f"{f.name}__tournament_id": world.tournament_id})
    return None


@dataclass
class _Probe:
    """The SQL of a snapshot, compiled once per world (the ORM's compiler is slow)."""

    counts: tuple[str, list[str]]
    digests: list[tuple[str, str, tuple]]


def _probe(world: World) -> _Probe:
    if world.probe is not None:
        return world.probe
    labels, parts, digests = [], [], []
    for model in apps.get_models():
        label = model._meta.label
        if label in _UNWATCHED:
            continue
        labels.append(label)
        parts.append(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)})")
        rows = _scope(model, world)
        if rows is not None:
            names = [
                f.attname for f in model._meta.concrete_fields if f.name not in _UNHASHED_FIELDS
            ]
            sql, params = rows.order_by("pk").values_list(*names).query.sql_with_params()
            digests.append((label, sql, params))
    world.probe = _Probe(("SELECT " + ", ".join(parts), labels), digests)
    return world.probe


def snapshot(world: World) -> dict[str, tuple[int, str]]:
    """Row counts of every model, and a digest of the world's own rows."""
    probe = _probe(world)
    sql, labels = probe.counts
    with connection.cursor() as cursor:
        cursor.execute(sql)
        counts = dict(zip(labels, cursor.fetchone(), strict=True))
        state = {label: (count, "") for label, count in counts.items()}
        for label, query, params in probe.digests:
            cursor.execute(query, params)
            digest = hashlib.md5(repr(cursor.fetchall()).encode(), usedforsecurity=False)
            state[label] = (counts[label], digest.hexdigest())
    return state


def event_count() -> int:
    """Rows of the tournaments' log and of the room's own log (cash room, pit)."""
    from room.models import RoomEvent
    from tournaments.models import Event

    total = 0
    with connection.cursor() as cursor:
        for model in (Event, RoomEvent):
            cursor.execute(
                f"SELECT COUNT(*) FROM {connection.ops.quote_name(model._meta.db_table)}"
            )
            total += cursor.fetchone()[0]
    return total


def changed(before: dict, after: dict) -> list[str]:
    return sorted(label for label in after if before.get(label) != after[label])

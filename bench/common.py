"""What every benchmark shares: the figures type, the bench user, a fresh big event."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from tournaments.models import Entry, Player, Tournament
from tournaments.services import layout as layout_services
from tournaments.services import setup as setup_services

Figures = dict[str, Any]
Summary = tuple[list[str], Figures]


def db_vendor() -> str:
    return connection.vendor


def actor():
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_staff": True})
    return user


def fresh_tournament(name: str, *, entries: int, seats: int = 9) -> Tournament:
    """A tournament with enough tables and `entries` unseated active entries (not timed)."""
    now = timezone.now()
    user = actor()
    tournament = setup_services.tournament_create(
        actor=user,
        fields={"name": name, "date": now.date(), "max_entries": 1, "seats_per_table": seats},
        now=now,
    )
    setup_services.structure_set(
        tournament=tournament,
        actor=user,
        items=[setup_services.ItemSpec(kind="level", small_blind=100, big_blind=200, minutes=20)],
        now=now,
    )
    tables = max(1, math.ceil(entries / seats))
    layout_services.tables_add(
        tournament=tournament,
        actor=user,
        first=1,
        last=tables,
        max_seats=seats,
        accessible_seats=[],
        reserved_seats=[],
        now=now,
    )
    players = Player.objects.bulk_create(
        Player(first_name=f"P{i}", last_name=f"Bench{i:05d}") for i in range(entries)
    )
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=p,
            number=i + 1,
            chips=tournament.starting_stack,
            created_at=now,
        )
        for i, p in enumerate(players)
    )
    return tournament


def cleanup(tournament: Tournament) -> None:
    player_ids = list(tournament.entries.values_list("player_id", flat=True))
    tournament.delete()
    Player.objects.filter(pk__in=player_ids).delete()

"""The tournament row lock every write to an event takes first, so that two desks, the
clock and the floor serialise on the same row (and never deadlock on different orders)."""

from __future__ import annotations

from tournaments.models import Tournament


def tournament_for_update(tournament: Tournament) -> Tournament:
    """The tournament re-read under a row lock. Call inside a transaction."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)

"""The tournament row lock every write to an event takes first, so that two desks, the
clock and the floor serialise on the same row (and never deadlock on different orders)."""

from __future__ import annotations

from typing import Any

from django.db import connections, router
from django.db.transaction import TransactionManagementError

from tournaments.models import Tournament
from tournaments.prepared import NO_ID, Prepared

# Compiled once (tournaments/prepared.py): every write of the floor runs it.
_LOCKED = Prepared(lambda pk: Tournament.objects.select_for_update().filter(pk=pk), pk=NO_ID)


def read_of(tournament: Tournament) -> tuple[Prepared[Tournament], dict[str, Any]]:
    """The lock's read, as `prepared.ahead` takes it: a write that knows what it reads
    next sends the lock and those reads in one trip (run in that order, they are read
    under the lock)."""
    return _LOCKED, {"pk": tournament.pk}


def tournament_for_update(tournament: Tournament) -> Tournament:
    """The tournament re-read under a row lock. Call inside a transaction."""
    using = router.db_for_write(Tournament)
    if connections[using].get_autocommit():
        # What select_for_update() says outside a transaction (its SQL is compiled once).
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    locked = _LOCKED.first(using, pk=tournament.pk)
    if locked is None:
        raise Tournament.DoesNotExist("Tournament matching query does not exist.")
    return locked

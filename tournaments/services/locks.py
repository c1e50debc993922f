"""The tournament row lock every write to an event takes first, so that two desks, the
clock and the floor serialise on the same row (and never deadlock on different orders)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, connections, router, transaction
from django.db.transaction import TransactionManagementError

from config.speedups.prepared import NO_ID, Prepared
from tournaments.errors import DomainError
from tournaments.models import Tournament

# Compiled once (config/speedups/prepared.py): every write of the floor runs it.
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


@contextmanager
def once(refusal: DomainError) -> Iterator[None]:
    """Write a money row a database constraint allows once, in its own savepoint: a copy
    that got past the checks (a race the locks do not cover, an import, a bug) is refused
    with `refusal`, in words, and the caller's transaction stays usable."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise refusal from None

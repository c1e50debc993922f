"""Fresh planner statistics after a bulk write, on PostgreSQL.

PostgreSQL plans each query from its statistics of the tables, which autovacuum renews
about a minute after a tenth of a table has changed. A database analyzed while nearly
empty (a new room, a room whose old events were deleted) that then takes a 10,000-entry
draw or the import of a big event can be planned, until then, as if its entries and
seats were a few rows: nested loops over whole-table scans, many times slower until
autovacuum comes round. This is the guard against it, at the cost of one ANALYZE after
a big write.

So a service that writes many rows at once asks for the tables it wrote to be analyzed
when its transaction commits: after the commit, so no lock of the event is held while
PostgreSQL samples them (ANALYZE takes no lock that stops a read or a write).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.models import Model

logger = logging.getLogger(__name__)

# Fewer rows than this in one write leave the statistics to autovacuum: a table that
# small is planned well either way.
BULK_ROWS = 1_000


def analyze_after_bulk(
    models: Iterable[type[Model]], *, rows: int, using: str = DEFAULT_DB_ALIAS
) -> bool:
    """When `rows` rows were just written to the tables of `models` at once, have them
    analyzed when the transaction commits (at once outside one). Whether it was asked."""
    connection = connections[using]
    if rows < BULK_ROWS or connection.vendor != "postgresql":
        return False
    tables = sorted({connection.ops.quote_name(m._meta.db_table) for m in models})
    transaction.on_commit(lambda: _analyze(tables, using), using=using)
    return True


def _analyze(tables: list[str], using: str) -> None:
    try:
        with connections[using].cursor() as cursor:
            cursor.execute(f"ANALYZE {', '.join(tables)}")
    except DatabaseError:
        # The write is committed; stale statistics only make the next minute slower.
        logger.warning("ANALYZE %s failed", ", ".join(tables), exc_info=True)

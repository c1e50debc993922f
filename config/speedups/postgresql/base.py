"""Django's PostgreSQL backend, sending in one trip what need not wait for an answer.

A floor action's statements went to the database one trip each, and a trip costs the
same however small the statement (`manage.py bench fanout --phases`). Some statements return nothing anybody reads before the
transaction's next trip: a savepoint made or released, a write whose row the transaction
already holds locked (`defer`). Those wait here and go with the next statement, or with
the COMMIT, in psycopg's pipeline: every statement sent, then one Sync. PostgreSQL runs
them in order, so each statement still sees what the ones before it did.

And a COMMIT can carry reads (`ride_commit`): a push after a change reads what the
screens show, and could only ask once the COMMIT had come back, a second trip before the
first screen heard of the change. A rider's reads go after the COMMIT in its own trip,
and see what it committed, as a read made after it would (READ COMMITTED: a statement
sees what was committed before it began).

What fails fails as before, at a later line: a deferred statement that fails makes the
statement it rode with (or the COMMIT) raise its error, and the transaction is rolled
back; the statements after it in the trip are skipped, the COMMIT among them. A read that
fails after a COMMIT cannot undo it: its rider just has nothing (the push reads again). A
rollback drops whatever waits.

What waits is sent before the next statement that goes through Django's cursors (their
execute wrappers). A statement sent past them (psycopg's `copy()`, the raw connection's
own `execute`) would run before it: inside a transaction, go through Django's cursor.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Protocol

import psycopg
from django.db.backends.postgresql import base
from django.db.backends.utils import debug_transaction

logger = logging.getLogger(__name__)


class CommitRider(Protocol):
    def send(self) -> None:
        """Execute the reads (psycopg's pipeline is open: sent, not waited for)."""

    def receive(self) -> None:
        """The pipeline is synced: take the reads' rows."""

    def drop(self) -> None:
        """Nothing came (the COMMIT or a read failed): let go of the cursors."""


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commit_riders: list[CommitRider] = []
        self.deferred: list[tuple[str, Any]] = []
        # A transaction's BEGIN, not sent yet: it goes with the transaction's first
        # statement (psycopg, left to begin, sent it in a trip of its own).
        self.begin_waits = False
        # Outermost: what waits goes before the statement any other wrapper sees.
        self.execute_wrappers.insert(0, self._with_deferred)

    def _pipelines(self) -> bool:
        return self.connection is not None and psycopg.Pipeline.is_supported()

    # --- BEGIN ----------------------------------------------------------------------------
    # psycopg stays in autocommit mode (it sends no BEGIN of its own); a transaction
    # begins with the BEGIN sent here, with its first statement, and psycopg's commit()
    # and rollback() go by what the server says it is in, as ever.

    def _set_autocommit(self, autocommit: bool) -> None:
        raw = self.connection
        plain = raw.isolation_level is None and raw.read_only is None and raw.deferrable is None
        if autocommit or not plain or not psycopg.Pipeline.is_supported():
            self.begin_waits = False
            if raw.autocommit != autocommit:
                super()._set_autocommit(autocommit)
            return
        if not raw.autocommit:
            super()._set_autocommit(True)
        self.begin_waits = True

    def create_cursor(self, name=None):
        if not name:
            return super().create_cursor(name)
        # Django's, holdable only outside a transaction: it asks psycopg whether it is in
        # autocommit mode, and psycopg now always is.
        hold = self.get_autocommit()
        if self.settings_dict["OPTIONS"].get("server_side_binding") is not True:
            cursor = base.ServerSideCursor(
                self.connection, name=name, scrollable=False, withhold=hold
            )
        else:
            cursor = self.connection.cursor(name, scrollable=False, withhold=hold)
        tzloader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, base.Format.TEXT)
        if self.timezone != tzloader.timezone:
            base.register_tzloader(self.timezone, cursor)
        return cursor

    def _waiting(self) -> list[tuple[str, Any]]:
        """What waits to be sent, the BEGIN first; nothing waits after."""
        statements = ([("BEGIN", None)] if self.begin_waits else []) + self.deferred
        self.begin_waits, self.deferred = False, []
        return statements

    # --- statements that wait for the next trip -----------------------------------------

    def defer(self, sql: str, params: Any = None) -> None:
        """Run `sql` with the transaction's next statement or its COMMIT, in its trip;
        at once outside a transaction. The caller reads nothing back (no rows, no row
        count) and takes its errors at that later statement."""
        if not self.in_atomic_block or not self._pipelines():
            with self.cursor() as cursor:
                cursor.execute(sql, params)
            return
        if not self.queries_logged:
            self.deferred.append((sql, params))
            return
        # In the query log (tests count the queries) when Django would have run it; the
        # statement is composed for the log alone (its values quoted in: not for nothing).
        with debug_transaction(self, sql if params is None else self.ops.compose_sql(sql, params)):
            self.deferred.append((sql, params))

    def _send(self, statements: Iterable[tuple[str, Any]]) -> list[Any]:
        # On psycopg's own cursors: each was logged when it was deferred (the BEGIN when
        # the transaction began, debug_transaction).
        cursors = []
        for sql, params in statements:
            cursor = self.connection.cursor()
            cursors.append(cursor)
            cursor.execute(sql, params)
        return cursors

    def _with_deferred(self, execute, sql, params, many, context):
        if not (self.begin_waits or self.deferred):
            return execute(sql, params, many, context)
        deferred = self._waiting()
        raw = self.connection
        cursors: list[Any] = []
        try:
            if raw.pgconn.pipeline_status:  # a pipeline is open: ride with it
                cursors = self._send(deferred)
                return execute(sql, params, many, context)
            alone = isinstance(getattr(context["cursor"], "cursor", None), psycopg.ServerCursor)
            if alone or ";" in str(sql).strip().rstrip(";"):
                # A server-side cursor cannot be declared in a pipeline, nor can several
                # statements in one string be sent there: those go on their own trip.
                with self.wrap_database_errors, raw.pipeline():
                    cursors = self._send(deferred)
                return execute(sql, params, many, context)
            with self.wrap_database_errors, raw.pipeline():
                cursors = self._send(deferred)
                return execute(sql, params, many, context)
        finally:
            for cursor in cursors:
                cursor.close()

    def _savepoint(self, sid) -> None:
        self.defer(self.ops.savepoint_create_sql(sid))

    def _savepoint_commit(self, sid) -> None:
        self.defer(self.ops.savepoint_commit_sql(sid))

    # --- the COMMIT and the reads that ride with it -------------------------------------

    def ride_commit(self, rider: CommitRider) -> bool:
        """Have `rider`'s reads go after this transaction's COMMIT, in its trip; False
        (and nothing done) outside a transaction, or where psycopg has no pipeline."""
        if not self.in_atomic_block or not self._pipelines():
            return False
        self.commit_riders.append(rider)
        return True

    def _commit(self) -> None:
        riders, self.commit_riders = self.commit_riders, []
        if self.begin_waits and not self.deferred:
            # Nothing was sent since the BEGIN, nor was it: nothing to commit.
            self.begin_waits = False
            return None
        deferred = self._waiting()
        if not (riders or deferred) or self.connection is None:
            return super()._commit()
        raw = self.connection
        with debug_transaction(self, "COMMIT"), self.wrap_database_errors:
            committing = raw.cursor()
            cursors: list[Any] = []
            try:
                with raw.pipeline():
                    cursors = self._send(deferred)
                    committing.execute("COMMIT")
                    for rider in riders:
                        rider.send()
            except Exception:
                for rider in riders:
                    rider.drop()
                if committing.statusmessage != "COMMIT":
                    raise
                # Committed; a read after it failed. Its push reads again, as before.
                logger.warning("a read riding with a COMMIT failed", exc_info=True)
                return None
            finally:
                for cursor in (*cursors, committing):
                    cursor.close()
            for rider in riders:
                rider.receive()
        return None

    def _rollback(self) -> None:
        begun = not self.begin_waits
        self.commit_riders, self.deferred, self.begin_waits = [], [], False
        if begun:
            super()._rollback()

    def _close(self) -> None:
        self.commit_riders, self.deferred, self.begin_waits = [], [], False
        return super()._close()

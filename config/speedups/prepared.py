"""Hot reads compiled to SQL once per process, then run with each call's values.

Django compiles a queryset to SQL every time it is evaluated. For the tournament's row
(85 columns) that costs several times what PostgreSQL spends answering it, and every
staff page reads that row, and every write re-reads it under its lock: about a third
of a desk's registration cycle was compiling the same few statements again
(`manage.py bench registration_load`).

A `Prepared` builds its queryset once per database connection alias and vendor, with
stand-in values, finds those stand-ins among the compiled parameters, and from then on
runs the same SQL with the call's values in their places: as model instances
(`instances`: built as the ORM builds them, with every field's converters, the
annotations as attributes and the `select_related` models attached) or as plain rows
(`rows`: the database driver's values, no field converters; JSON comes back as text).

How the ORM turns a row into instances (which columns go to which model, the
converters) is worked out once too, with the SQL: through `raw()` it was worked out
again on every call, and for the tournament's 85 columns that cost twice the statement
itself (`manage.py bench fanout --phases`).

Only for querysets whose SQL does not depend on the values (no `__in` lists, no None
comparisons): a stand-in the compiled parameters do not hold is refused at first use.

On PostgreSQL (unless DB_PREPARE=0, settings.PREPARE_HOT_READS) these statements, and
only these, are bound on the server and prepared on each connection at their first run:
from then on that connection runs them without planning them again. The push's figures
read was planned afresh at every push; prepared, it is planned once a connection.
Every other statement stays bound on the client, as Django binds it: a statement
bound on the server takes at most 65,535 parameters, and the ORM's deletes and bulk
inserts of a big field carry more.

Without the speedups (TORNEO_PLAIN=1, config/speedups/switch.py) this is the ORM as written: each
call builds its queryset with the call's values and runs it, nothing is read ahead or
with a COMMIT, and the `*_later` writes are the ORM's save, delete and create, at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet, signals
from django.db.models.deletion import Collector
from django.db.models.query import get_related_populators
from django.db.models.sql import DeleteQuery, InsertQuery, UpdateQuery

from config.speedups import switch

M = TypeVar("M", bound=Model)

# Stand-ins no caller ever passes: no row has a negative key, no slug or session key
# begins with a dash and holds spaces.
NO_ID = -1_000_003
NO_TEXT = "-prepared stand-in-"
# The largest value an integer column holds on every database: a number a user typed
# above it matches no row (and SQLite's driver refuses it).
INT_MAX = 2**31 - 1


class Prepared(Generic[M]):
    """`build(**stand_ins)` compiled once; `instances(**values)` / `rows(**values)` run
    it with `values` where the stand-ins were. Stand-ins must be values no caller uses
    (a negative id, a string no slug can be) and distinct from each other."""

    def __init__(self, build: Callable[..., QuerySet[M]], **stand_ins: Any) -> None:
        self.build = build
        self.stand_ins = stand_ins
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def compiled(self, using: str = DEFAULT_DB_ALIAS) -> _Compiled:
        """The SQL, each parameter's stand-in name or its fixed value, and how its rows
        become instances."""
        key = (using, connections[using].vendor)
        found = self._compiled.get(key)
        if found is None:
            queryset = self.build(**self.stand_ins).using(using)
            compiler = queryset.query.get_compiler(using)
            sql, params = compiler.as_sql()
            slots: list[Any] = []
            seen = set()
            for value in params:
                name = next(
                    (
                        n
                        for n, stand_in in self.stand_ins.items()
                        # A subclass too: psycopg wraps a small integer field's value
                        # as Int2, an int.
                        if isinstance(value, type(stand_in)) and stand_in == value
                    ),
                    None,
                )
                seen.add(name)
                slots.append(_Slot(name) if name is not None else value)
            missing = set(self.stand_ins) - seen
            if missing:
                raise ValueError(f"stand-ins not among the compiled parameters: {missing}")
            found = self._compiled[key] = _Compiled(sql, tuple(slots), queryset, compiler)
        return found

    def _params(self, slots: Sequence[Any], values: dict[str, Any]) -> list[Any]:
        if set(values) != set(self.stand_ins):
            raise TypeError(f"expected values for {sorted(self.stand_ins)}, got {sorted(values)}")
        return [values[s.name] if isinstance(s, _Slot) else s for s in slots]

    def instances(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[M]:
        """The queryset's model instances, as the queryset itself would give them: its
        annotations as attributes, its `select_related` models attached."""
        if not switch.on("sql"):
            return list(self._built(values).using(using))
        compiled = self.compiled(using)
        rows = self._fetch(compiled, using, values)
        return compiled.instances(rows, using) if rows else []

    def first(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> M | None:
        """The first of `instances`, or None when there is none."""
        found = self.instances(using, **values)
        return found[0] if found else None

    def rows(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[tuple[Any, ...]]:
        """The rows as the database driver gives them (no field converters)."""
        if not switch.on("sql"):
            # The ORM's compiler, on every call, as evaluating the queryset would run it.
            compiler = self._built(values).using(using).query.get_compiler(using)
            try:
                sql, params = compiler.as_sql()
            except EmptyResultSet:
                return []
            with connections[using].cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()
        return self._fetch(self.compiled(using), using, values)

    def _built(self, values: dict[str, Any]) -> QuerySet[M]:
        if set(values) != set(self.stand_ins):
            raise TypeError(f"expected values for {sorted(self.stand_ins)}, got {sorted(values)}")
        return self.build(**values)

    def _fetch(self, compiled: _Compiled, using: str, values: dict[str, Any]) -> list[Any]:
        found = _AHEAD.get()
        if found:
            rows = found.pop((self, using, _key(values)), None)
            if rows is not None:
                return rows
        with _cursor(using) as cursor:
            cursor.execute(compiled.sql, self._params(compiled.slots, values))
            return cursor.fetchall()


class _Compiled:
    """A queryset's SQL and parameters, and what the ORM's model iterable (ModelIterable)
    works out from its compiler to build instances from the rows: the columns of the
    model, the converters, the annotations' columns and the related models'
    populators. Worked out on first use; the same for every call."""

    def __init__(self, sql: str, slots: tuple[Any, ...], queryset: QuerySet, compiler) -> None:
        self.sql = sql
        self.slots = slots
        self._queryset = queryset
        self._compiler = compiler
        self._building: _Building | None = None
        # The columns of each row (a read run beside others is told apart by them); None
        # when the SQL selects more (an ordering's columns), which `one_row_each` refuses.
        self.width = None if compiler.has_extra_select else compiler.col_count

    def instances(self, rows: list[Any], using: str) -> list[Any]:
        building = self._building or self._builder(using)
        if building.converters:
            connection = connections[using]
            rows = [_converted(row, building.converters, connection) for row in rows]
        found = []
        start, end = building.start, building.end
        for row in rows:
            obj = building.model.from_db(using, building.init_list, row[start:end])
            for populator in building.populators:
                populator.populate(row, obj)
            for name, position in building.annotations:
                setattr(obj, name, row[position])
            found.append(obj)
        return found

    def _builder(self, using: str) -> _Building:
        compiler = self._compiler
        select, klass_info = compiler.select, compiler.klass_info
        if klass_info is None:
            raise TypeError("instances() needs a queryset of models, not values()")
        fields = select[klass_info["select_fields"][0] : klass_info["select_fields"][-1] + 1]
        # Django 6 passes the queryset's fetch mode to the populators; 5.2 has none.
        fetch_mode = getattr(self._queryset, "_fetch_mode", None)
        extra = () if fetch_mode is None else (fetch_mode,)
        self._building = _Building(
            model=klass_info["model"],
            init_list=[f[0].target.attname for f in fields],
            start=klass_info["select_fields"][0],
            end=klass_info["select_fields"][-1] + 1,
            populators=get_related_populators(klass_info, select, using, *extra),
            annotations=tuple(compiler.annotation_col_map.items()),
            converters=tuple(
                compiler.get_converters([s[0] for s in select[: compiler.col_count]]).items()
            ),
        )
        return self._building


@dataclass(frozen=True)
class _Building:
    model: type[Model]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    annotations: tuple[tuple[str, int], ...]
    converters: tuple[tuple[int, tuple[list[Any], Any]], ...]


def _converted(row: Sequence[Any], converters, connection) -> list[Any]:
    """The row through each column's converters, as the ORM's compiler converts it."""
    row = list(row)
    for position, (functions, expression) in converters:
        value = row[position]
        for function in functions:
            value = function(value, expression, connection)
        row[position] = value
    return row


class _Slot:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def _joined(
    reads: Sequence[tuple[Prepared[Any], dict[str, Any]]], using: str
) -> tuple[str, list[Any], list[int]]:
    """The statement of `one_row_each`: its SQL, parameters and each read's columns."""
    parts, params, widths = [], [], []
    for position, (prepared, values) in enumerate(reads):
        compiled = prepared.compiled(using)
        if compiled.width is None:
            raise ValueError("a read that selects its ordering's columns cannot run beside others")
        parts.append(f"({compiled.sql}) AS q{position}")
        params.extend(prepared._params(compiled.slots, values))
        widths.append(compiled.width)
    return f"SELECT * FROM {' CROSS JOIN '.join(parts)}", params, widths


def one_row_each(
    reads: Sequence[tuple[Prepared[Any], dict[str, Any]]], using: str = DEFAULT_DB_ALIAS
) -> list[tuple[Any, ...]]:
    """The one row of each read (aggregates without GROUP BY, each exactly one row), in
    one trip to the database: their statements side by side as one (a CROSS JOIN of
    one-row subqueries). Each read's row comes back as its own `rows()` would give it.

    A push after an elimination reads the field's figures in four such statements; each
    trip delays the moment its first screen hears of the change."""
    if not switch.on("sql"):
        found = [prepared.rows(using, **values) for prepared, values in reads]
        if any(len(rows) != 1 for rows in found):
            raise ValueError("one row expected of each read")
        return [tuple(rows[0]) for rows in found]
    sql, params, widths = _joined(reads, using)
    ready = _AHEAD.get()
    found = ready.pop(_joined_key(reads, using), None) if ready else None
    if found is None:
        with _cursor(using) as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
    if len(found) != 1:
        raise ValueError(f"one row expected of each read, the whole gave {len(found)}")
    row, rows, start = found[0], [], 0
    for width in widths:
        rows.append(tuple(row[start : start + width]))
        start += width
    return rows


# What a block of code is about to read, read before it in one trip (`ahead`): each read
# by its Prepared, database and values, answered once.
_AHEAD: ContextVar[dict[Any, list[Any]] | None] = ContextVar("prepared_ahead", default=None)


def _key(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(values.items()))


def _joined_key(reads: Sequence[tuple[Prepared[Any], dict[str, Any]]], using: str) -> Any:
    return ("one_row_each", using, tuple((prepared, _key(values)) for prepared, values in reads))


def _statements(
    reads: Sequence[tuple[Prepared[Any], dict[str, Any]]],
    joined: Sequence[Sequence[tuple[Prepared[Any], dict[str, Any]]]],
    using: str,
) -> tuple[list[tuple[str, list[Any]]], list[Any]]:
    """The statements of `ahead`'s reads and joined reads, and the key of each."""
    statements, keys = [], []
    for prepared, values in reads:
        compiled = prepared.compiled(using)
        statements.append((compiled.sql, prepared._params(compiled.slots, values)))
        keys.append((prepared, using, _key(values)))
    for group in joined:
        sql, params, _widths = _joined(group, using)
        statements.append((sql, params))
        keys.append(_joined_key(group, using))
    return statements, keys


class Riding:
    """Reads that go to the database in the trip of the transaction's COMMIT, run after
    it (`with_commit`); `found` holds what they read once it has come back, else None."""

    def __init__(self, statements: list[tuple[str, list[Any]]], keys: list[Any], using: str):
        self.statements, self.keys, self.using = statements, keys, using
        self.found: dict[Any, list[Any]] | None = None
        self._cursors: list[Any] = []

    def send(self) -> None:
        self._cursors = [_cursor(self.using) for _statement in self.statements]
        for cursor, (sql, params) in zip(self._cursors, self.statements, strict=True):
            cursor.execute(sql, params)

    def receive(self) -> None:
        try:
            rows = [cursor.fetchall() for cursor in self._cursors]
            self.found = dict(zip(self.keys, rows, strict=True))
        finally:
            self.drop()

    def drop(self) -> None:
        for cursor in self._cursors:
            cursor.close()
        self._cursors = []


def with_commit(
    reads: Sequence[tuple[Prepared[Any], dict[str, Any]]] = (),
    joined: Sequence[Sequence[tuple[Prepared[Any], dict[str, Any]]]] = (),
    using: str = DEFAULT_DB_ALIAS,
) -> Riding | None:
    """Read these (as `ahead` takes them) in the trip of the current transaction's
    COMMIT, after it, for the code its on-commit hooks run: `ahead(..., ready=...)`
    answers from them. On PostgreSQL in a transaction (config/speedups/postgresql);
    elsewhere None, and `ahead` reads as usual.

    A push is rendered after its change's COMMIT: its reads were a second trip to the
    database, one after the other, before the first screen heard of the change."""
    if not switch.on("sql"):
        return None
    connection = connections[using]
    ride = getattr(connection, "ride_commit", None)
    if ride is None or not connection.in_atomic_block:
        return None
    riding = Riding(*_statements(reads, joined, using), using)
    return riding if ride(riding) else None


@contextmanager
def ahead(
    reads: Sequence[tuple[Prepared[Any], dict[str, Any]]] = (),
    joined: Sequence[Sequence[tuple[Prepared[Any], dict[str, Any]]]] = (),
    using: str = DEFAULT_DB_ALIAS,
    *,
    ready: Riding | None = None,
) -> Iterator[None]:
    """Read together, before the block, what the code in it is about to read: each of
    `reads` (a Prepared and its values, as `rows()` or `instances()` will be called) and
    each of `joined` (as `one_row_each` will be called). On PostgreSQL they go in one trip
    (psycopg's pipeline: every statement sent, then every answer read); elsewhere one
    after another. In the block, each such call is answered from what was read, once; a
    call with other values (a guess that proved wrong) goes to the database as usual.

    A push after an elimination read the tournament, the field's figures, the chip
    leaders and whether the room has a seating screen in four trips, one after another,
    before its first screen heard of the change.

    `ready`: these reads, already made with a COMMIT (`with_commit`); when they came
    back, the block is answered from them (a read they do not hold goes to the database
    as usual) and nothing is read before it.

    Without the speedups, nothing is read ahead: each call reads when it is made."""
    if not switch.on("sql"):
        yield
        return
    if ready is not None and ready.found is not None:
        found = dict(ready.found)
    else:
        statements, keys = _statements(list(reads), joined, using)
        found = dict(zip(keys, _run_together(statements, using), strict=True))
    token = _AHEAD.set(found)
    try:
        yield
    finally:
        _AHEAD.reset(token)


def _run_together(statements: list[tuple[str, list[Any]]], using: str) -> list[list[Any]]:
    connection = connections[using]
    cursors = [_cursor(using) for _statement in statements]
    try:
        raw = connection.connection
        pipeline = getattr(raw, "pipeline", None) if connection.vendor == "postgresql" else None
        if pipeline is None or len(statements) < 2:
            found = []
            for cursor, (sql, params) in zip(cursors, statements, strict=True):
                cursor.execute(sql, params)
                found.append(cursor.fetchall())
            return found
        # An error PostgreSQL gives at the pipeline's end is Django's, as it would be
        # from a cursor (a lock's timeout is an OperationalError either way).
        with connection.wrap_database_errors, pipeline():
            for cursor, (sql, params) in zip(cursors, statements, strict=True):
                cursor.execute(sql, params)
            return [cursor.fetchall() for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()


# --- Writes that need no answer: with the transaction's next trip --------------------


def _later(using: str, sql: str, params: Any) -> None:
    connection = connections[using]
    defer = getattr(connection, "defer", None)
    if defer is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    else:
        defer(sql, params)


def _plain(model: type[Model], *, saved: bool = True) -> bool:
    """Whether saving (`saved`) or deleting `model` is only its SQL: no signal receivers,
    and for a save no `save()` of its own (a Player's writes its search text)."""
    if saved and model.save is not Model.save:
        return False
    return not any(
        signal.has_listeners(model)
        for signal in (
            signals.pre_save,
            signals.post_save,
            signals.pre_delete,
            signals.post_delete,
        )
    )


def save_later(obj: Model, fields: Sequence[str], using: str = DEFAULT_DB_ALIAS) -> None:
    """`obj.save(update_fields=fields)` for a row the transaction holds locked: on
    PostgreSQL its UPDATE goes with the transaction's next trip to the database (its
    next statement, or its COMMIT: config/speedups/postgresql), not a trip of its own;
    elsewhere it runs now. The row count does not come back, hence the lock: the row is
    there to update. An error comes at that next statement."""
    model = type(obj)
    if not switch.on("sql") or not _plain(model):
        obj.save(update_fields=list(fields), using=using)
        return
    meta = model._meta
    query = UpdateQuery(model)
    query.add_filter("pk", obj.pk)
    values = []
    for name in fields:
        field = meta.get_field(name)
        values.append((field, None, field.pre_save(obj, False)))
    query.add_update_fields(values)
    statement, params = query.get_compiler(using).as_sql()
    _later(using, statement, params)


def delete_later(queryset: QuerySet[Any]) -> None:
    """`queryset.delete()` where that is one DELETE (no cascade, no signal): on
    PostgreSQL it goes with the transaction's next trip (as `save_later`), elsewhere now.
    The number deleted does not come back."""
    using = queryset.db
    if (
        not switch.on("sql")
        or not _plain(queryset.model, saved=False)
        or not Collector(using, origin=None).can_fast_delete(queryset)
    ):
        queryset.delete()
        return
    query = queryset.query.clone()
    query.__class__ = DeleteQuery
    try:
        statement, params = query.get_compiler(using).as_sql()
    except EmptyResultSet:  # `pk__in=[]`: nothing to delete
        return
    _later(using, statement, params)


def create_later(model: type[M], using: str = DEFAULT_DB_ALIAS, **values: Any) -> M:
    """`model.objects.create(**values)` whose key nobody needs: on PostgreSQL its INSERT
    goes with the transaction's next trip (as `save_later`), elsewhere now. The instance
    comes back without its key (`pk` is None)."""
    obj = model(**values)
    if not switch.on("sql") or not _plain(model):
        obj.save(using=using)
        return obj
    return insert_later(obj, using)


def insert_later(obj: M, using: str = DEFAULT_DB_ALIAS) -> M:
    """INSERT `obj` as it stands, whose key nobody needs, with the transaction's next
    trip (as `create_later`); elsewhere now. Its model's own `save()` is not called: the
    caller has done what it adds (a Seat's board copies: `fill_board_keys`). Where the
    model has signal receivers, saved as usual. An error (a unique seat taken) comes at
    that next statement, or at the COMMIT."""
    model = type(obj)
    if not switch.on("sql") or not _plain(model, saved=False):
        obj.save(using=using)
        return obj
    meta = model._meta
    fields = [f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field]
    query = InsertQuery(model)
    query.insert_values(fields, [obj])
    for statement, params in query.get_compiler(using).as_sql():
        _later(using, statement, params)
    return obj


def _cursor(using: str) -> Any:
    """A cursor of the connection `using` for the statements compiled here: Django's own
    (its query log, its wrappers), on PostgreSQL one that prepares what it runs when
    settings.PREPARE_HOT_READS is on (see the module's note)."""
    connection = connections[using]
    if connection.vendor != "postgresql" or not settings.PREPARE_HOT_READS:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_preparing_cursor()(connection.connection))


_PREPARING: list[type] = []


def _preparing_cursor() -> type:
    """psycopg's server-binding cursor, as Django's backend makes it, that prepares each
    statement it runs (psycopg keeps the names per connection and prepares each once)."""
    if not _PREPARING:
        from django.db.backends.postgresql.base import ServerBindingCursor

        class PreparingCursor(ServerBindingCursor):
            def execute(self, query, params=None, *, prepare=None, binary=None):
                return super().execute(query, params, prepare=True, binary=binary)

        _PREPARING.append(PreparingCursor)
    return _PREPARING[0]

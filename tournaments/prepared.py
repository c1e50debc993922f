"""Hot reads compiled to SQL once per process, then run with each call's values.

Django compiles a queryset to SQL every time it is evaluated. For the tournament's row
(85 columns) that costs several times what PostgreSQL spends answering it, and every
staff page reads that row, and every write re-reads it under its lock: about a third
of a desk's registration cycle was compiling the same few statements again
(`manage.py bench registration_load`, issue 15 item 8).

A `Prepared` builds its queryset once per database connection alias and vendor, with
stand-in values, finds those stand-ins among the compiled parameters, and from then on
runs the same SQL with the call's values in their places: as model instances
(`instances`, through `raw`, with every field's converters) or as plain rows (`rows`:
the database driver's values, no field converters; JSON comes back as text).

Only for querysets whose SQL does not depend on the values (no `__in` lists, no None
comparisons): a stand-in the compiled parameters do not hold is refused at first use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

# Stand-ins no caller ever passes: no row has a negative key, no slug or session key
# begins with a dash and holds spaces.
NO_ID = -1_000_003
NO_TEXT = "-prepared stand-in-"


class Prepared(Generic[M]):
    """`build(**stand_ins)` compiled once; `instances(**values)` / `rows(**values)` run
    it with `values` where the stand-ins were. Stand-ins must be values no caller uses
    (a negative id, a string no slug can be) and distinct from each other."""

    def __init__(self, build: Callable[..., QuerySet[M]], **stand_ins: Any) -> None:
        self.build = build
        self.stand_ins = stand_ins
        self._compiled: dict[tuple[str, str], tuple[QuerySet[M], str, tuple[Any, ...]]] = {}

    def compiled(self, using: str = DEFAULT_DB_ALIAS) -> tuple[QuerySet[M], str, tuple[Any, ...]]:
        """(the queryset, its SQL, each parameter's stand-in name or its fixed value)."""
        key = (using, connections[using].vendor)
        found = self._compiled.get(key)
        if found is None:
            queryset = self.build(**self.stand_ins).using(using)
            sql, params = queryset.query.get_compiler(using).as_sql()
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
            found = self._compiled[key] = (queryset, sql, tuple(slots))
        return found

    def _params(self, slots: Sequence[Any], values: dict[str, Any]) -> list[Any]:
        if set(values) != set(self.stand_ins):
            raise TypeError(f"expected values for {sorted(self.stand_ins)}, got {sorted(values)}")
        return [values[s.name] if isinstance(s, _Slot) else s for s in slots]

    def instances(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[M]:
        """The queryset's model instances (annotations as attributes), every field read."""
        queryset, sql, slots = self.compiled(using)
        return list(
            queryset.model._default_manager.raw(sql, self._params(slots, values), using=using)
        )

    def rows(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[tuple[Any, ...]]:
        """The rows as the database driver gives them (no field converters)."""
        _queryset, sql, slots = self.compiled(using)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, self._params(slots, values))
            return cursor.fetchall()


class _Slot:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

"""The event log's list as the log page shows it."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    F,
    Func,
    JSONField,
    QuerySet,
)

from tournaments.models import (
    Event,
    Tournament,
)

# --- the event log's list ---------------------------------------------------------------
# A line of the log reads these keys of a row's payload (labels.event_details and
# events.action_label), looked up in the database: the list never reads a whole payload,
# so the draw of 10,000 seats (190 kB) or a balance of 714 moves costs a line what a
# registration costs. The row's own page (`event_row`) reads everything.
LOG_LINE_KEYS = (
    "name",
    "names",
    "entry",
    "from",
    "to",
    "table",
    "seat",
    "number",
    "kind",
    "chips",
    "price",
    "hands",
    "offence",
    "amount",
    "chips_raced",
    "chips_added",
    "removed_value",
    "seconds",
    "places",
    "prizes",
    "shares",
    "ruling",
    "rules",
    "undone_action",
    "seated",
)
# Lists that grow with the field (a balance's moves, a payout table): a line reads their
# first items and their length.
LOG_LINE_LISTS = ("moves", "after")
LOG_LINE_HEAD = 3


class _LogLine(Func):
    """The keys of LOG_LINE_KEYS and LOG_LINE_LISTS a row's payload has, as one JSON object;
    each list as {"size": its length, "head": its first LOG_LINE_HEAD items}. The payload is
    read once (each `data -> key` of PostgreSQL unpacks the whole payload again: 33 lookups
    of a 190 kB draw took longer than reading it)."""

    output_field = JSONField()

    def __init__(self) -> None:
        super().__init__(F("data"))

    def _sql(self, compiler: Any, template: str) -> tuple[str, list[Any]]:
        sql, params = compiler.compile(self.source_expressions[0])
        keys = [*LOG_LINE_KEYS, *LOG_LINE_LISTS]
        return (
            template.format(
                data=sql,
                lists=", ".join(["%s"] * len(LOG_LINE_LISTS)),
                keys=", ".join(["%s"] * len(keys)),
                last=LOG_LINE_HEAD - 1,
            ),
            [*LOG_LINE_LISTS, *params, *params, *keys],
        )

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return self._sql(
            compiler,
            "(SELECT json_group_object(k.key, CASE"
            " WHEN k.key IN ({lists}) AND k.type = 'array' THEN json_object("
            "'size', json_array_length(k.value), 'head', (SELECT json_group_array(h.value)"
            " FROM json_each(k.value) h WHERE h.key <= {last}))"
            " WHEN k.type = 'true' THEN json('true') WHEN k.type = 'false' THEN json('false')"
            " ELSE k.value END)"
            " FROM json_each(CASE WHEN json_type({data}) = 'object' THEN {data} ELSE '{{}}' END) k"
            " WHERE k.key IN ({keys}))",
        )

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return self._sql(
            compiler,
            "(SELECT jsonb_object_agg(k.key, CASE"
            " WHEN k.key IN ({lists}) AND jsonb_typeof(k.value) = 'array' THEN jsonb_build_object("
            "'size', jsonb_array_length(k.value),"
            " 'head', jsonb_path_query_array(k.value, '$[0 to {last}]'))"
            " ELSE k.value END)"
            " FROM jsonb_each(CASE WHEN jsonb_typeof({data}) = 'object' THEN {data}"
            " ELSE '{{}}'::jsonb END) k"
            " WHERE k.key IN ({keys}))",
        )


def log_lines(tournament: Tournament) -> QuerySet[Event]:
    """The event log newest first, each row without its payload: `line` holds the keys a
    line of the list shows (each list of LOG_LINE_LISTS cut to its first items)."""
    return (
        tournament.events.defer("data")
        .select_related("actor", "undone_by")
        .annotate(line=_LogLine())
    )


def log_line(row: Event) -> tuple[dict[str, Any], dict[str, int]]:
    """A row of `log_lines` as the payload a line reads (lists cut to their first items)
    and the full length of each list cut."""
    found = getattr(row, "line", None)
    line: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
    sizes: dict[str, int] = {}
    for key in LOG_LINE_LISTS:
        cut = line.get(key)
        if isinstance(cut, dict) and set(cut) == {"size", "head"}:
            line[key] = cut["head"] if isinstance(cut["head"], list) else []
            sizes[key] = int(cut["size"])
    return line, sizes

"""An uploaded backup read and checked: what a file must be before anything is written.

`loads` parses the file (its size, JSON, an object); `_check_header` its format, version
and sections; `_value` each field's value against its model field, as a form would. A
JSON field must hold what the services write there (`JSON_SHAPES`), every payload key the
log, the boards, the results and the undos read must hold what they expect
(`PAYLOAD_KEY_SHAPES`, `ACTION_SHAPES`), and the clock must be in a state it knows, its
banked time finite and at most a year. Each refusal is a `BadBackup` (a DomainError,
translated) saying where and what.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.engine import Hand
from tables.engine.phh import export_phh
from tournaments import errors
from tournaments.models import ChipAdjustment, Deal, Event, Ruling, Table, Tournament
from tournaments.rules.clock import ClockStatus
from tournaments.services.backup_format import (
    _TOP_LEVEL,
    FORMAT,
    SECTIONS,
    VERSION,
)

# A 2,000-entry event played down to its final table is 3 MB with its whole log; a file
# ten times that size is not one of ours (and would cost a web worker too much memory).
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity: not JSON, and no number Torneo stores


def loads(data: bytes | str) -> dict:
    """Parse an uploaded or read file; anything but a JSON object raises BadBackup."""
    if len(data) > MAX_DOCUMENT_BYTES:
        raise errors.BadBackup(
            reason=_("the file is larger than %(mb)s MB.")
            % {"mb": MAX_DOCUMENT_BYTES // (1024 * 1024)}
        )
    try:
        document = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError
        raise errors.BadBackup(reason=_("it is not a JSON file.")) from None
    if not isinstance(document, dict):
        raise errors.BadBackup(reason=_("it is not a Torneo tournament export."))
    return document


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise errors.BadBackup(reason=_("it is not a Torneo tournament export."))
    version = document.get("version")
    if version != VERSION:
        raise errors.BadBackup(
            reason=_(
                "it was written in format version %(version)s; this Torneo reads version "
                "%(supported)s."
            )
            % {"version": version, "supported": VERSION}
        )
    unknown = sorted(set(document) - _TOP_LEVEL)
    if unknown:
        raise errors.BadBackup(reason=_("unknown section “%(name)s”.") % {"name": unknown[0]})
    if not isinstance(document.get("tournament"), dict):
        raise errors.BadBackup(reason=_("it holds no tournament."))
    for key in ("flights", "players", *(s.key for s in SECTIONS)):
        rows = document.get(key, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise errors.BadBackup(reason=_("“%(name)s” is not a list of rows.") % {"name": key})


def _broken(where: str, problem: str) -> errors.BadBackup:
    return errors.BadBackup(reason=f"{where}: {problem}.")


_TYPES: tuple[tuple[type[models.Field], tuple[type, ...], Any], ...] = (
    (models.BooleanField, (bool,), gettext_lazy("true or false is expected")),
    (models.IntegerField, (int,), gettext_lazy("a whole number is expected")),
    (models.FloatField, (int, float), gettext_lazy("a number is expected")),
    (models.DecimalField, (str, int), gettext_lazy("a decimal number is expected")),
    (models.DateField, (str,), gettext_lazy("a date is expected")),
    (models.CharField, (str,), gettext_lazy("text is expected")),
    (models.TextField, (str,), gettext_lazy("text is expected")),
    (models.UUIDField, (str,), gettext_lazy("text is expected")),
)


def _value(model_field: models.Field, raw: Any, where: str) -> Any:
    """A document value as the field's Python value, checked like a form would."""
    if raw is None:
        if model_field.null:
            return None
        raise _broken(where, _("a value is missing"))
    if isinstance(model_field, models.JSONField):
        return raw
    for kind, accepted, problem in _TYPES:
        if isinstance(model_field, kind):
            if isinstance(raw, bool) and bool not in accepted:
                raise _broken(where, str(problem))
            if not isinstance(raw, accepted):
                raise _broken(where, str(problem))
            break
    try:
        value = model_field.to_python(raw)
        model_field.validate(value, None)
        model_field.run_validators(value)
    except ValidationError as exc:
        raise _broken(where, " ".join(exc.messages).rstrip(".")) from None
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        raise _broken(where, _("a time with its time zone is expected"))
    if isinstance(value, float) and not math.isfinite(value):
        raise _broken(where, _("a number is expected"))
    return value


# --- What a JSON field and a state field may hold ---------------------------------------
# A value the services would never write makes a read path or an undo fail later: the
# file is refused instead. Each check returns whether the value is well
# formed; bounds are generous (what no real event reaches), never what a form would allow.

Check = Callable[[Any], bool]
_BIG = 10**15  # chips and money: far above any real event, far below a float's precision
_MANY = 100_000  # items in one JSON list or dict


def _whole(low: int = -_BIG, high: int = _BIG) -> Check:
    return lambda v: type(v) is int and low <= v <= high


def _text(longest: int = 1000) -> Check:
    return lambda v: isinstance(v, str) and len(v) <= longest


def _list_of(item: Check, longest: int = _MANY) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= longest and all(item(i) for i in v)


def _number_key(v: Any) -> bool:
    """A dict key that holds a number as text ("3"), ASCII digits only."""
    return isinstance(v, str) and 0 < len(v) <= 20 and v.isascii() and v.lstrip("-").isdigit()


def _dict_of(key: Check, value: Check, longest: int = _MANY) -> Check:
    return lambda v: (
        isinstance(v, dict) and len(v) <= longest and all(key(k) and value(x) for k, x in v.items())
    )


def _record(**fields: Check) -> Check:
    """A dict holding at least these keys, each well formed (other keys are free)."""
    return lambda v: isinstance(v, dict) and all(k in v and c(v[k]) for k, c in fields.items())


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _fields(**fields: Check) -> Check:
    """A dict whose keys among these are well formed (each may be missing)."""
    return lambda v: isinstance(v, dict) and all(c(v[k]) for k, c in fields.items() if k in v)


def _either(*checks: Check) -> Check:
    return lambda v: any(c(v) for c in checks)


def _json(value: Any, depth: int = 0) -> bool:
    """Plain JSON (what `json.loads` gives) no deeper than 20 levels."""
    if depth > 20:
        return False
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json(v, depth + 1) for k, v in value.items())
    return False


def _a_hand(value: Any) -> bool:
    """A ruling's hand: one the engine replays (the ruling pages and the PHH download)."""
    if not isinstance(value, dict):
        return False
    try:
        export_phh(Hand.from_dict(value))
    except Exception:  # noqa: BLE001 - whatever the engine raises, the hand is not one of ours
        return False
    return True


_SEATS = _list_of(_whole(1, 99), 99)
# [table number, seat] or null
_SEAT_PAIR = _optional(lambda v: _list_of(_optional(_whole()), 2)(v) and len(v) == 2)

JSON_SHAPES: dict[tuple[type[models.Model], str], Check] = {
    (Tournament, "payouts"): _list_of(_whole(0), 10_000),
    (Tournament, "h4h_tables_done"): _list_of(_whole(1, 10_000), 10_000),
    (Tournament, "eod_remaining"): _dict_of(_number_key, _whole(0, 1000), 10_000),
    (Tournament, "mystery_permutation"): _list_of(_text(20)),
    (Event, "data"): lambda v: isinstance(v, dict),  # by action: `_payload_problem`
    (ChipAdjustment, "data"): lambda v: isinstance(v, dict),
    (Deal, "shares"): _list_of(_record(entry=_whole(), stack=_whole(0), amount=_whole(0)), 10_000),
    (Table, "accessible_seats"): _SEATS,
    (Table, "reserved_seats"): _SEATS,
    (Table, "locked_seats"): _SEATS,
    (Ruling, "hand"): _a_hand,
    (Ruling, "names"): _dict_of(_number_key, _text(200), 99),
}

# Keys that mean one thing in every payload that has them (the log, the seating board,
# the results and the undo read them); `ACTION_SHAPES` adds what one action reads.
_NAMES = _list_of(_text(300))
PAYLOAD_KEY_SHAPES: dict[str, Check] = {
    "name": _text(300),
    "names": _either(_NAMES, _dict_of(_number_key, _text(300))),
    "shares": _list_of(_fields(entry=_whole(), amount=_whole(0))),
    "from": _either(_SEAT_PAIR, _text(200)),  # a seat, or a slug (clone, import)
    "to": _either(_SEAT_PAIR, _text(200)),
    "table": lambda v: v is None or type(v) is int or _text(20)(v),
    "seat": _optional(_whole(-_BIG)),
    "moves": _list_of(_fields(name=_text(300), **{"from": _SEAT_PAIR, "to": _SEAT_PAIR})),
    "chips": _optional(_whole()),
    "price": _optional(_whole()),
    "kind": _text(40),
    "hands": _optional(_whole()),
    "offence": _text(2000),
    "amount": _optional(_whole()),
    "chips_raced": _optional(_whole()),
    "chips_added": _optional(_whole()),
    "removed_value": _optional(_whole()),
    "seconds": lambda v: type(v) is int or (isinstance(v, float) and math.isfinite(v)),
    "places": _dict_of(_number_key, _list_of(_optional(_whole()), 2)),
    "prizes": _dict_of(_number_key, _optional(_whole())),
    "stacks": _dict_of(_number_key, _whole()),
    "tables": _dict_of(_number_key, lambda v: type(v) is int or _text(20)(v)),
    "entries": _list_of(_whole()),
    "seats": _dict_of(_number_key, _SEAT_PAIR),
    "h4h_hand": _optional(_list_of(_whole(), 2)),
    "exchanged": _dict_of(_number_key, _whole()),
    "odd_chips": _dict_of(_number_key, _whole()),
    "cards": lambda v: isinstance(v, dict) and _json(v),
    "winners": _list_of(_whole()),
    "protected": _list_of(_whole()),
    "ruling": _optional(lambda v: type(v) is int or _text(40)(v)),
    "rules": _either(_text(200), _list_of(_text(200), 100)),
    "undone_action": _text(40),
    "regrouped_names": _NAMES,
    "envelopes": _list_of(_text(20)),
    "envelope": _text(20),
    "value": _optional(_whole()),
    "with_bust": lambda v: v is True,
}

ACTION_SHAPES: dict[str, dict[str, Check]] = {
    "seat.move": {"from": _SEAT_PAIR, "to": _SEAT_PAIR},
    "payouts.set": {"before": _list_of(_whole(0), 10_000), "after": _list_of(_whole(0), 10_000)},
    "bounty.award": {"awards": _list_of(_record(entry=_whole()), 10_000)},
    "seats.draw": {"assignments": _dict_of(_number_key, _json)},
    "tables.add": {"numbers": _list_of(_whole(1, 10_000), 10_000)},
    "flights.merge": {"flights": _list_of(_text(80), 100)},
    "room.break": {"cards": _dict_of(_number_key, _json)},
}


def _payload_problem(action: str, data: Any) -> str:
    """The first payload key whose value the services would never write, or ""."""
    if not isinstance(data, dict) or not _json(data):
        return "data"
    checks = {**PAYLOAD_KEY_SHAPES, **ACTION_SHAPES.get(action, {})}
    for key, value in data.items():
        check = checks.get(key)
        if check is not None and not check(value):
            return key[:40]
    return ""


CLOCK_STATUSES = frozenset(str(s) for s in ClockStatus)
LONGEST_CLOCK = 366 * 24 * 3600  # seconds banked on a clock: a year, far beyond any event


def _check_clock(kwargs: dict[str, Any], where: str) -> None:
    """The stored clock is one the clock could be in (the clock pages read it)."""
    status = kwargs.get("clock_status", "not_started")
    if status not in CLOCK_STATUSES:
        raise _broken(f"{where}, clock_status", _("not a clock state"))
    elapsed = kwargs.get("clock_elapsed", 0)
    if not (math.isfinite(elapsed) and 0 <= elapsed <= LONGEST_CLOCK):
        raise _broken(
            f"{where}, clock_elapsed",
            _("a number of seconds between 0 and %(most)s is expected") % {"most": LONGEST_CLOCK},
        )

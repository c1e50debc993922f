"""Backup: a whole tournament to one JSON document, and back on any instance.

The document (`FORMAT`, `VERSION`)::

    {"format": "torneo-tournament", "version": 1, "exported_at": "...",
     "tournament": {...}, "flights": [{...}], "players": [{...}],
     "structure": [...], "tables": [...], "entries": [...], "seats": [...], ...,
     "events": [...]}

Every row carries every concrete field of its model (read from the model, so a field added
later is carried without touching this module) under the field's name; "id" is the row's
primary key on the exporting instance and only links rows inside the document. Foreign keys
hold those ids; foreign keys to users hold the username. Timestamps, clock state, versions,
numbers and the event log (payloads and times included) are kept exactly.

Decisions, in the order an import meets them:

- Flights. Exporting a main event takes its flights with it ("flights", each with
  "parent" = the main event's id) and they come back as flights of the imported event.
  Exporting a flight alone gives a standalone tournament ("flight_of" names the event it
  belonged to, for the reader only): its rows never point into the main event.
- Slugs. A tournament keeps its slug unless the slug is taken here; then it gets the first
  free "<slug>-2", "<slug>-3"... and `ImportResult.renamed` says so. Slugs inside the event
  log (flight.create, flights.merge) follow.
- Players are shared by every tournament, so an import never duplicates one: a player with
  a document number is the local player with that number; one without is the local player
  with the same names, nationality and creation time (the same record exported earlier from
  here or from a copy of this database). Two people with one name are not one person, so
  names alone never match: otherwise the player is created (with his original creation
  time). A matched player keeps his local details.
- Users are named by username. Staff roles, event actors, ID checkers, penalty and ruling
  authors go to the local account of that name; a name unknown here becomes a new *inactive*
  account with an unusable password (it cannot log in until an administrator enables it),
  so the staff list and the log keep saying who did what. The importing user becomes TD of
  each imported tournament in which the file gives him no role (a superuser needs none).
- Screens get NEW tokens: a screen's link is a secret and is never carried to another
  instance; the old links keep working only where they were made. The screens' names,
  kinds, tables and revoked flags are kept, and the TD hands out the new links.
- Ids inside JSON (event payloads, a deal's shares) are remapped to the new rows: the paths
  are listed per action in `PAYLOAD_REFS` and per field in `JSON_REFS`, so the imported log
  can still undo what the original could. An id whose row no longer existed when exported
  (an undone ID check or ruling is deleted, not voided) becomes its negative: it still reads
  as a number and matches no row, on any instance, however often the file travels.
- The import is one transaction: a wrong format or version, an unknown field or action, a
  value of the wrong type or out of range, or a reference to a row the file does not hold
  raises `BadBackup` (a DomainError, translated) and nothing is written. References are
  whole numbers naming rows of the same file (or negative: a row gone before the export);
  every JSON field holds what the services write there (`JSON_SHAPES`), every payload key
  the log, the boards, the results and the undos read holds what they expect
  (`PAYLOAD_KEY_SHAPES`, `ACTION_SHAPES`), and the clock is in a state it knows, its banked
  time finite and at most a year. One
  "tournament.import" row is added to the imported event's log.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.engine import Hand
from tables.engine.phh import export_phh
from tables.models import (
    CashGame,
    CashOut,
    CashRoom,
    CashSeat,
    CashTable,
    JackpotClaim,
    JackpotDrop,
    JackpotFund,
    JackpotPayment,
    KeepApart,
    PhoneLink,
    RakeRecord,
    RoomEvent,
    RoomStaff,
    Ruling,
    Seat,
    SeatBoardVersion,
    Table,
    WaitEntry,
)
from tournaments import errors
from tournaments.events import PAYLOAD_REFS as PAYLOAD_REFS  # the backup's id map, read by tests
from tournaments.events import SLUG, Ref, event_log, payload_refs, remap, values_at
from tournaments.models import (
    BountyAward,
    CashCorrection,
    CashRefund,
    ChipAdjustment,
    ChipCount,
    ChipDenomination,
    Deal,
    DisplayScreen,
    Entry,
    EntryTally,
    Envelope,
    Event,
    FormerAddress,
    IdCheck,
    League,
    NightClose,
    Penalty,
    Player,
    PlayerPhoto,
    Purchase,
    Reservation,
    ReservationRules,
    Role,
    SeatTicket,
    StaffAssignment,
    StaffPin,
    StructureItem,
    TimeCall,
    Tournament,
)
from tournaments.rules.clock import ClockStatus
from tournaments.selectors.planner_stats import analyze_after_bulk
from tournaments.services.clock import _schedule_announcement

FORMAT = "torneo-tournament"
VERSION = 1
# A 2,000-entry event played down to its final table is 3 MB with its whole log; a file
# ten times that size is not one of ours (and would cost a web worker too much memory).
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
RESERVED_SLUGS = frozenset({"new", "import"})  # URL words under /t/


@dataclass(frozen=True)
class Section:
    """One list of the document: a model's rows and the path from a row to its tournament."""

    key: str
    model: type[models.Model]
    owner: str


# Creation order: a row only points at rows of earlier sections (events come last: their
# payloads point at everything).
SECTIONS = (
    Section("structure", StructureItem, "tournament"),
    Section("tables", Table, "tournament"),
    Section("entries", Entry, "tournament"),
    Section("seats", Seat, "table__tournament"),
    Section("purchases", Purchase, "entry__tournament"),
    Section("id_checks", IdCheck, "tournament"),
    Section("staff", StaffAssignment, "tournament"),
    Section("screens", DisplayScreen, "tournament"),
    Section("denominations", ChipDenomination, "tournament"),
    Section("chip_adjustments", ChipAdjustment, "tournament"),
    Section("deals", Deal, "tournament"),
    Section("penalties", Penalty, "tournament"),
    Section("chip_counts", ChipCount, "tournament"),
    Section("rulings", Ruling, "tournament"),
    Section("time_calls", TimeCall, "tournament"),
    Section("events", Event, "tournament"),
    Section("envelopes", Envelope, "tournament"),
    Section("bounty_awards", BountyAward, "tournament"),
)

# Models of the tournaments and tables apps that are not in the document, with the reason
# (a test fails for a model that is neither exported nor listed here).
EXCLUDED_MODELS: dict[type[models.Model], str] = {
    RoomStaff: "a room-level role, not part of any tournament",
    RoomEvent: "the room's own log (cash room, pit), not part of any tournament",
    SeatTicket: "a satellite's seat links two events (possibly of other instances); the "
    "satellite's results and log keep who won, and the TD issues tickets again after import",
    EntryTally: "the database keeps it from the entries themselves, as they are imported",
}

# An event's old addresses belong to the room that served them: an imported event takes a
# new address of its own, and its old one here may be another event's by then.
EXCLUDED_MODELS[FormerAddress] = "the room's redirects from old addresses, not the event"

# The cash room: room-level rows, not part of any tournament.
EXCLUDED_MODELS.update(
    dict.fromkeys(
        (
            CashRoom,
            CashGame,
            CashTable,
            CashSeat,
            WaitEntry,
            RakeRecord,
            KeepApart,
            CashOut,
            PhoneLink,
            JackpotFund,
            JackpotDrop,
            JackpotClaim,
            JackpotPayment,
        ),
        "the cash room's own data, not part of any tournament",
    )
)

# The books of the night: money records stay where the money moved.
EXCLUDED_MODELS.update(
    dict.fromkeys(
        (CashRefund, NightClose, CashCorrection),
        "the night's books stay on the instance where the money moved",
    )
)
EXCLUDED_MODELS[StaffPin] = "a staff account's tablet PIN (a secret), not part of any tournament"
# A league spans a season's events; the standings are computed from results.
EXCLUDED_MODELS[League] = (
    "a league groups several events (room level); its points come from results"
)
EXCLUDED_MODELS[Reservation] = (
    "a reservation holds the contact of someone who may never play; it stays in the room "
    "that took it (privacy)"
)
EXCLUDED_MODELS[ReservationRules] = "the room's no-show rule, not part of any tournament"
EXCLUDED_MODELS[PlayerPhoto] = "a player's photo stays in the room that took it (privacy)"
EXCLUDED_MODELS[SeatBoardVersion] = (
    "the seating board's version, which the database changes itself when the import seats "
    "the players"
)

# Fields left out of the document, with the reason.
EXCLUDED_FIELDS: dict[tuple[type[models.Model], str], str] = {
    (DisplayScreen, "token"): "a screen's secret link; the importing instance makes new ones",
    (Tournament, "target_event"): "a satellite's target is another event; the TD chooses "
    "it again on the importing instance",
    (Seat, "tournament"): "the seating board's copy of the table's tournament; the import "
    "fills it from the entry",
    (Seat, "board_last_name"): "the seating board's copy of the player's name (idem)",
    (Seat, "board_first_name"): "the seating board's copy of the player's name (idem)",
    (Player, "search_name"): "the player's names folded for the search; the import folds "
    "them again",
}

# Ids inside the JSON fields of exported models; every JSONField is listed (a test checks).
JSON_REFS: dict[tuple[type[models.Model], str], tuple[Ref, ...]] = {
    (Tournament, "payouts"): (),
    (Tournament, "h4h_tables_done"): (),  # table numbers
    (Tournament, "eod_remaining"): (),  # by table number
    (Tournament, "mystery_permutation"): (),  # envelope codes
    (Event, "data"): (),  # by action: PAYLOAD_REFS
    (ChipAdjustment, "data"): (),  # denominations and a note
    (Deal, "shares"): (("[].entry", Entry),),
    (Table, "accessible_seats"): (),
    (Table, "reserved_seats"): (),
    (Table, "locked_seats"): (),
    (Ruling, "hand"): (),  # the engine's hand: seats and chips
    (Ruling, "names"): (),  # by seat
}

_TOP_LEVEL = {"format", "version", "exported_at", "flight_of", "tournament", "flights", "players"}
_TOP_LEVEL |= {s.key for s in SECTIONS}

# --- Export -----------------------------------------------------------------------------


def _plain(model_field: models.Field, value: Any) -> Any:
    if value is None or isinstance(model_field, models.JSONField):
        return value
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    return value


def exported_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's concrete fields in the document (all but EXCLUDED_FIELDS)."""
    return [f for f in model._meta.concrete_fields if (model, f.name) not in EXCLUDED_FIELDS]


def _is_user(model_field: models.Field) -> bool:
    return model_field.is_relation and model_field.related_model is get_user_model()


def _rows(objects: Iterable[models.Model], usernames: dict[int, str]) -> list[dict[str, Any]]:
    rows = []
    for obj in objects:
        row: dict[str, Any] = {}
        for f in exported_fields(type(obj)):
            value = getattr(obj, f.attname)
            if f.primary_key:
                row["id"] = value
            elif _is_user(f):
                row[f.name] = usernames.get(value) if value is not None else None
            elif f.is_relation:
                row[f.name] = value
            else:
                row[f.name] = _plain(f, value)
        rows.append(row)
    return rows


def export_tournament(tournament: Tournament, *, now: dt.datetime | None = None) -> dict:
    """The whole tournament as one JSON-ready document (its flights too, if it has any).
    Read only."""
    tournament = Tournament.objects.select_related("parent").get(pk=tournament.pk)  # fresh
    family = [tournament]
    if tournament.parent_id is None:
        family += list(tournament.flights.order_by("pk"))
    querysets = {
        s.key: s.model.objects.filter(**{f"{s.owner}__in": family}).order_by("pk") for s in SECTIONS
    }
    fetched = {key: list(qs) for key, qs in querysets.items()}
    user_ids = {
        getattr(obj, f.attname)
        for s in SECTIONS
        for f in exported_fields(s.model)
        if _is_user(f)
        for obj in fetched[s.key]
    } - {None}
    usernames = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    player_ids = {e.player_id for e in fetched["entries"]}
    player_ids |= {c.player_id for c in fetched["id_checks"]}
    player_ids |= {p.player_id for p in fetched["penalties"]}
    player_ids |= _payload_ids(fetched["events"], Player)
    players = Player.objects.filter(pk__in=player_ids).order_by("pk")

    tournament_rows = _rows(family, usernames)
    main = tournament_rows[0]
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": (now or timezone.now()).isoformat(),
    }
    if tournament.parent_id is not None:
        parent = tournament.parent
        document["flight_of"] = {"slug": parent.slug, "name": parent.name}
        main["parent"] = None
    document["tournament"] = main
    document["flights"] = tournament_rows[1:]
    document["players"] = _rows(players, usernames)
    for s in SECTIONS:
        document[s.key] = _rows(fetched[s.key], usernames)
    # A payload id of a row the file does not hold (an undone ID check is deleted; seat
    # tickets are not carried) is written as its negative: the importer then accepts only
    # ids of rows the file defines.
    held: dict[Any, set] = {s.model: {obj.pk for obj in fetched[s.key]} for s in SECTIONS}
    held[Player] = {p.pk for p in players}
    held[SLUG] = {t.slug for t in family}
    for row in document["events"]:
        refs = payload_refs(row["action"], row["data"]) or ()
        row["data"] = remap(
            row["data"], refs, lambda model, old: old if old in held.get(model, ()) else None
        )
    return document


def _payload_ids(events: Iterable[Event], model: type[models.Model]) -> set[int]:
    """Ids of `model` named in the events' payloads."""
    found: set[int] = set()

    def collect(target: Any, old: Any) -> Any:
        if target is model:
            found.add(old)
        return None

    for event in events:
        refs = payload_refs(event.action, event.data) or ()
        remap(event.data, refs, collect)
    return found


def dumps(document: dict) -> bytes:
    """Compact UTF-8 JSON (a 2,000-entry event with its log is about 3 MB)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


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


# --- Import -----------------------------------------------------------------------------


@dataclass
class ImportResult:
    tournament: Tournament
    flights: list[Tournament] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)  # old slug -> new slug
    players_matched: int = 0
    players_created: int = 0
    users_created: list[str] = field(default_factory=list)


def import_tournament(document: Any, *, actor, now: dt.datetime) -> Tournament:
    """Create the document's tournament (and its flights) here; see `import_document`."""
    return import_document(document, actor=actor, now=now).tournament


def import_document(document: Any, *, actor, now: dt.datetime) -> ImportResult:
    """Create everything in the document with new primary keys, in one transaction.

    Refuses a document this version cannot read, or one that is damaged, with BadBackup:
    nothing is written then."""
    _check_header(document)
    try:
        with transaction.atomic():
            return _Importer(document, actor, now).run()
    except (IntegrityError, DataError, ValidationError, ValueError, TypeError, OverflowError) as e:
        detail = str(e).strip().splitlines()[0][:200] if str(e).strip() else type(e).__name__
        raise errors.BadBackup(
            reason=_("its rows contradict each other or this database (%(detail)s).")
            % {"detail": detail}
        ) from None


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
# A value the services would never write makes a read path or an undo fail later (issue
# 12, item 1b): the file is refused instead. Each check returns whether the value is well
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


class _Importer:
    def __init__(self, document: dict, actor, now: dt.datetime) -> None:
        self.doc = document
        self.actor = actor if actor is not None and actor.is_authenticated else None
        self.now = now
        self.ids: dict[Any, dict[int, int]] = defaultdict(dict)  # model -> old id -> new id
        self.slugs: dict[str, str] = {}
        self.users: dict[str, Any] = {}
        self.result: ImportResult

    # -- mapping

    def map(self, model: Any, old: Any) -> Any:
        if model == SLUG:
            return self.slugs.get(old)
        return self.ids[model].get(old)

    def _old_id(self, row: dict, where: str) -> int:
        old = row.get("id")
        if isinstance(old, bool) or not isinstance(old, int):
            raise _broken(where, _("the row has no id"))
        return old

    def _build(self, model: type[models.Model], row: dict, where: str) -> dict[str, Any]:
        """The model's keyword arguments from a row, foreign keys mapped to new rows."""
        names = {f.name for f in exported_fields(model)} | {"id"}
        unknown = sorted(set(row) - names)
        if unknown:
            raise _broken(where, _("unknown field “%(name)s”") % {"name": unknown[0]})
        kwargs: dict[str, Any] = {}
        for f in exported_fields(model):
            if f.primary_key or f.name not in row:
                continue  # a field missing from an older file takes its default
            raw = row[f.name]
            at = f"{where}, {f.name}"
            if not f.is_relation:
                value = _value(f, raw, at)
                shape = JSON_SHAPES.get((model, f.name))
                if shape is not None and not (_json(value) and shape(value)):
                    raise _broken(at, _("it does not hold what Torneo writes there"))
                refs = JSON_REFS.get((model, f.name))
                if refs:
                    self._check_refs(value, refs, at)
                    value = remap(value, refs, self.map)
                kwargs[f.attname] = value
            elif raw is None:
                if not f.null:
                    raise _broken(at, _("a value is missing"))
                kwargs[f.attname] = None
            elif _is_user(f):
                kwargs[f.attname] = self.users[raw].pk
            elif f.related_model is model:
                continue  # a link inside the section: set once its rows exist
            else:
                new = self.map(f.related_model, raw) if isinstance(raw, int) else None
                if new is None:
                    raise _broken(
                        at,
                        _("it points at a row the file does not hold (%(id)s)") % {"id": raw},
                    )
                kwargs[f.attname] = new
        return kwargs

    # -- steps

    def run(self) -> ImportResult:
        self._event_ids = {row.get("id") for row in self.doc.get("events", [])}
        self._users()
        main = self._tournament(self.doc["tournament"], None, "tournament")
        self.result = ImportResult(tournament=main)
        for i, row in enumerate(self.doc.get("flights", []), start=1):
            where = _("flights, row %(row)s") % {"row": i}
            if row.get("parent") != self.doc["tournament"].get("id"):
                raise _broken(where, _("a flight must belong to the exported event"))
            self.result.flights.append(self._tournament(row, main, where))
        self._players()
        for section in SECTIONS:
            self._section(section)
        self._finish()
        return self.result

    def _users(self) -> None:
        names: set[str] = set()
        for s in SECTIONS:
            user_fields = [f.name for f in exported_fields(s.model) if _is_user(f)]
            for i, row in enumerate(self.doc.get(s.key, []), start=1):
                for name in user_fields:
                    value = row.get(name)
                    if value is None:
                        continue
                    where = f"{s.key}, {i}, {name}"
                    if not isinstance(value, str) or not 0 < len(value) <= 150:
                        raise _broken(where, _("a username is expected"))
                    try:
                        UnicodeUsernameValidator()(value)
                    except ValidationError:
                        raise _broken(where, _("a username is expected")) from None
                    names.add(value)
        user_model = get_user_model()
        self.users = {u.username: u for u in user_model.objects.filter(username__in=names)}
        created = []
        for name in sorted(names - set(self.users)):
            user = user_model(username=name, is_active=False)
            user.set_unusable_password()
            user.save()
            self.users[name] = user
            created.append(name)
        self._created_users = created

    def _tournament(self, row: dict, parent: Tournament | None, where: str) -> Tournament:
        old = self._old_id(row, where)
        if parent is None and row.get("parent") is not None:
            raise _broken(where, _("the exported tournament cannot be a flight"))
        kwargs = self._build(Tournament, {k: v for k, v in row.items() if k != "parent"}, where)
        _check_clock(kwargs, where)
        tournament = Tournament(**kwargs)
        tournament.parent = parent
        wanted = tournament.slug
        tournament.slug = _free_slug(wanted)
        tournament.save()
        if "created_at" in kwargs:  # auto_now_add set it to now on save
            Tournament.objects.filter(pk=tournament.pk).update(created_at=kwargs["created_at"])
            tournament.created_at = kwargs["created_at"]
        self.ids[Tournament][old] = tournament.pk
        if wanted in self.slugs:
            raise _broken(where, _("two tournaments have the slug %(slug)s") % {"slug": wanted})
        self.slugs[wanted] = tournament.slug
        return tournament

    def _players(self) -> None:
        rows = self.doc.get("players", [])
        built = []
        for i, row in enumerate(rows, start=1):
            where = _("players, row %(row)s") % {"row": i}
            built.append((self._old_id(row, where), self._build(Player, row, where)))
        documents = [k["document_number"] for _o, k in built if k.get("document_number")]
        by_document = {
            p.document_number: p.pk for p in Player.objects.filter(document_number__in=documents)
        }
        times = [k["created_at"] for _o, k in built if "created_at" in k]
        by_record = {
            (p.first_name, p.last_name, p.nationality, p.created_at): p.pk
            for p in Player.objects.filter(document_number="", created_at__in=times).order_by("-pk")
        }
        new: list[tuple[int, dict[str, Any]]] = []
        for old, kwargs in built:
            if kwargs.get("document_number"):
                found = by_document.get(kwargs["document_number"])
            else:
                key = (
                    kwargs.get("first_name"),
                    kwargs.get("last_name"),
                    kwargs.get("nationality", ""),
                    kwargs.get("created_at"),
                )
                found = by_record.get(key)
            if found is not None:
                self.ids[Player][old] = found
                self.result.players_matched += 1
            else:
                new.append((old, kwargs))
        created = Player.objects.bulk_create(Player(**kwargs) for _old, kwargs in new)
        for (old, kwargs), player in zip(new, created, strict=True):
            self.ids[Player][old] = player.pk
            if "created_at" in kwargs:
                Player.objects.filter(pk=player.pk).update(created_at=kwargs["created_at"])
        self.result.players_created = len(created)

    def _section(self, section: Section) -> None:
        model = section.model
        olds, objects, links, stamps, later = [], [], [], [], []
        auto_now = [f.attname for f in exported_fields(model) if getattr(f, "auto_now_add", False)]
        self_links = [f for f in exported_fields(model) if f.related_model is model]
        for i, row in enumerate(self.doc.get(section.key, []), start=1):
            where = f"{section.key}, {i}"
            olds.append(self._old_id(row, where))
            kwargs = self._build(model, row, where)
            own: tuple[Ref, ...] = ()
            if model is Event:
                kwargs["data"], own = self._event_data(kwargs, where)
            objects.append(model(**kwargs))
            links.append({f.attname: row.get(f.name) for f in self_links})
            stamps.append({name: kwargs[name] for name in auto_now if name in kwargs})
            later.append(own)
        created = model.objects.bulk_create(objects, batch_size=500)
        analyze_after_bulk([model], rows=len(created))  # a big event imported (planner_stats)
        for old, obj in zip(olds, created, strict=True):
            if obj.pk is None:  # pragma: no cover - every supported database returns ids
                raise RuntimeError("bulk_create did not return primary keys")
            self.ids[model][old] = obj.pk
        linked = []
        for obj, link in zip(created, links, strict=True):
            for attname, raw in link.items():
                if raw is None:
                    continue
                new = self.ids[model].get(raw) if isinstance(raw, int) else None
                if new is None:
                    raise _broken(
                        section.key,
                        _("it points at a row the file does not hold (%(id)s)") % {"id": raw},
                    )
                setattr(obj, attname, new)
                linked.append(obj)
        if linked:
            model.objects.bulk_update(linked, [f.attname for f in self_links], batch_size=500)
        # Payload ids of rows of this same section (an undo names the undone event).
        pointing = [obj for obj, own in zip(created, later, strict=True) if own]
        for obj, own in zip(created, later, strict=True):
            if own:
                obj.data = remap(obj.data, own, self.map)
        if pointing:
            model.objects.bulk_update(pointing, ["data"], batch_size=500)
        # auto_now_add wrote the time of the import: put the original times back.
        for obj, stamp in zip(created, stamps, strict=True):
            if stamp:
                model.objects.filter(pk=obj.pk).update(**stamp)

    def _event_data(self, kwargs: dict[str, Any], where: str) -> tuple[Any, tuple[Ref, ...]]:
        """The payload with its ids mapped, and the refs to other events, mapped once the
        events exist."""
        action = kwargs.get("action", "")
        data = kwargs.get("data", {})
        refs = payload_refs(action, data)
        if refs is None:
            raise _broken(where, _("unknown action “%(action)s”") % {"action": action})
        own = tuple(ref for ref in refs if ref[1] is Event)
        problem = _payload_problem(action, data)
        if problem:
            raise _broken(
                where, _("its payload holds a wrong value under “%(key)s”") % {"key": problem}
            )
        self._check_refs(data, refs, where)
        return remap(data, [ref for ref in refs if ref[1] is not Event], self.map), own

    def _check_refs(self, data: Any, refs: Iterable[Ref], where: str) -> None:
        for path, model in refs:
            keys = path.endswith("{}")  # a dict's keys hold the ids as text
            for value in values_at(data, path.split(".")):
                if not self._names_a_row(model, value, key=keys):
                    raise _broken(
                        where,
                        _("its payload holds %(id)s where a row's number belongs")
                        % {"id": repr(value)[:40]},
                    )

    def _names_a_row(self, model: Any, value: Any, *, key: bool = False) -> bool:
        """Whether a payload reference is well formed: a whole number (never text or a
        float, which would slip past the remapping and name a row of another tournament)
        that names a row this file defines, or a slug this file defines. A row that no
        longer existed when the file was written is named by its negative (`export`): it
        matches no row."""
        if value is None:  # no row named (an optional reference)
            return True
        if model == SLUG:
            return value == "" or (isinstance(value, str) and self.map(SLUG, value) is not None)
        if key:  # a dict key ("{}" paths) holds the id as text
            if not _number_key(value):
                return False
            value = int(value)
        if type(value) is not int:
            return False
        if value <= 0:
            return value > -(2**63)
        if model is Event:  # events are created after their payloads are read
            return value in self._event_ids
        return self.map(model, value) is not None

    def _finish(self) -> None:
        result = self.result
        result.users_created = self._created_users
        everything = [result.tournament, *result.flights]
        result.renamed = {old: new for old, new in self.slugs.items() if old != new}
        actor = self.actor
        if actor is not None and not actor.is_superuser:
            for tournament in everything:
                StaffAssignment.objects.get_or_create(
                    tournament=tournament, user=actor, defaults={"role": Role.TD}
                )
        event_log(
            tournament=result.tournament,
            actor=actor,
            action="tournament.import",
            data={
                "from": self.doc["tournament"].get("slug"),
                "exported_at": str(self.doc.get("exported_at") or "")[:40],
                "renamed": result.renamed,
                "players_matched": result.players_matched,
                "players_created": result.players_created,
                "users_created": result.users_created,
            },
            now=self.now,
            undoable=False,
        )

        for tournament in everything:
            tournament.refresh_from_db()
            if tournament.clock_status in {"running", "scheduled"}:
                # A broker here should announce the next level as the original would have.
                _schedule_announcement(tournament, self.now)


def _free_slug(wanted: str) -> str:
    base = wanted[:74]
    taken = set(
        Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    ) | set(RESERVED_SLUGS)
    if wanted not in taken:
        return wanted
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"

"""The backup restored: an uploaded document's rows created here, with new primary keys.

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
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils.translation import gettext as _

from tournaments import errors
from tournaments.events import SLUG, Ref, event_log, payload_refs, remap, values_at
from tournaments.models import Event, Player, Role, StaffAssignment, Tournament
from tournaments.selectors.planner_stats import analyze_after_bulk
from tournaments.services.backup_checks import (
    JSON_SHAPES,
    _broken,
    _check_clock,
    _check_header,
    _json,
    _number_key,
    _payload_problem,
    _value,
)
from tournaments.services.backup_format import (
    JSON_REFS,
    SECTIONS,
    Section,
    _is_user,
    exported_fields,
)
from tournaments.services.level_announcements import _schedule_announcement

RESERVED_SLUGS = frozenset({"new", "import"})  # URL words under /t/


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

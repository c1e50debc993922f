"""Crafted backups, fuzzed: the import, then every read and every undo.

The world's tournament is exported once; each case changes one place of that document --
an id (a row's, a foreign key, one inside a JSON field or an event's payload, a payload's
dict key) to a value of any JSON type, a JSON field or a payload value to junk, or a state
field (the clock) to anything -- and uploads it as the TD. Then:

- refused: nothing changed anywhere (bench/fuzzing/snapshot.py), and the message is in Italian;
- accepted: every read page of the imported tournament answers, and so does the undo of
  every imported action (the preview and the confirmed undo); no undo changes a row of the
  world's tournament (an undo that reaches another tournament is a partial write), and a
  refused undo changes nothing of the imported one.

Each request counts as a case. Everything is rolled back afterwards.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import traceback
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.urls import reverse

from bench.fuzzing.forms import _client, _Errors
from bench.fuzzing.language import Catalog, shown_messages
from bench.fuzzing.outcomes import Outcome
from bench.fuzzing.snapshot import changed, snapshot
from bench.fuzzing.strategies import _anything, _st
from bench.fuzzing.worlds import World

# Pages that read an imported tournament: (url name, roles allowed).
READ_PATHS = (
    "tournament_home",
    "clock_console",
    "public_clock",
    "seat_finder",
    "money",
    "public_results",
    "event_log",
    "desk",
    "room",
    "chips",
    "days",
    "penalties",
    "bounties",
    "screens",
    "eliminations",
    "ruling_tool",
)
KINDS = ("id", "key", "json", "state")
UNDO_LIMIT = 60  # undos per accepted document (the world's log is shorter)


@dataclass
class BackupCase:
    kind: str
    path: tuple  # where in the document
    value: Any


def _document(world: World) -> dict:
    """The world exported once per run (cached on the world)."""
    from tournaments.models import Tournament
    from tournaments.services import backup_export

    cached = getattr(world, "_backup_document", None)
    if cached is None:
        cached = backup_export.export_tournament(Tournament.objects.get(pk=world.tournament_id))
        world._backup_document = cached  # type: ignore[attr-defined]
    return cached


def _concrete(node: Any, parts: list[str], at: tuple) -> list[tuple[tuple, bool]]:
    """Concrete paths of a ref path in one payload: (path, is a dict key)."""
    if not parts:
        return [(at, False)]
    head, rest = parts[0], parts[1:]
    found: list[tuple[tuple, bool]] = []
    if head == "[]" and isinstance(node, list):
        for i, item in enumerate(node):
            found += _concrete(item, rest, (*at, i))
    elif head == "{}" and isinstance(node, dict):
        found += [((*at, key), True) for key in node]
    elif isinstance(node, dict) and head in node:
        found += _concrete(node[head], rest, (*at, head))
    return found


def sites(world: World) -> dict[str, list[tuple]]:
    """Every place of the document a case may change, by kind."""
    from tournaments.events import payload_refs
    from tournaments.services import backup_format

    cached = getattr(world, "_backup_sites", None)
    if cached is not None:
        return cached
    doc = _document(world)
    found: dict[str, list[tuple]] = {kind: [] for kind in KINDS}
    sections = {s.key: s.model for s in backup_format.SECTIONS}
    from tournaments.models import Player, Tournament

    sections["players"] = Player
    for field_name in doc["tournament"]:
        if field_name.startswith("clock_") or field_name in {"status", "h4h_active", "h4h_hands"}:
            found["state"].append(("tournament", field_name))
    json_fields = {(m, f) for m, f in backup_format.JSON_REFS}
    for model, name in json_fields:
        if model is Tournament:
            found["json"].append(("tournament", name))
    for key, model in sections.items():
        for i, row in enumerate(doc.get(key, [])):
            found["id"].append((key, i, "id"))
            for f in backup_format.exported_fields(model):
                if f.is_relation and not backup_format._is_user(f) and row.get(f.name) is not None:
                    found["id"].append((key, i, f.name))
                if (model, f.name) in json_fields:
                    found["json"].append((key, i, f.name))
                    for path, _model in backup_format.JSON_REFS[(model, f.name)]:
                        for at, is_key in _concrete(row[f.name], path.split("."), ()):
                            found["key" if is_key else "id"].append((key, i, f.name, *at))
            if key == "events" and isinstance(row.get("data"), dict):
                for data_key in row["data"]:
                    found["json"].append((key, i, "data", data_key))
                for path, _model in payload_refs(row["action"], row["data"]) or ():
                    for at, is_key in _concrete(row["data"], path.split("."), ()):
                        found["key" if is_key else "id"].append((key, i, "data", *at))
    world._backup_sites = found  # type: ignore[attr-defined]
    return found


def _id_values(old: Any):
    """An id written as every JSON type, and ids of no row or of other rows."""
    st = _st()
    number = old if type(old) is int else 1
    return st.one_of(
        st.sampled_from(
            [
                str(number),
                float(number),
                number + 0.5,
                True,
                False,
                None,
                [number],
                {"id": number},
                -number,
                0,
                number + 10**6,
                10**20,
                -(2**63) - 1,
                "٣",
                "",
                math.inf,
                math.nan,
            ]
        ),
        st.integers(min_value=-(10**6), max_value=10**6),
        _anything(),
    )


def _key_values(old: Any):
    st = _st()
    return st.one_of(
        st.sampled_from(
            [f"{old}.0", f" {old}", "٣", "１", "-0", "x", "", str(10**20), f"{old}{old}"]
        ),
        st.integers(min_value=-(10**6), max_value=10**7).map(str),
        st.text(max_size=8),
    )


def _junk_values():
    st = _st()
    return st.one_of(
        _anything(),
        st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -1.0, 10**30, [], {}, ""]),
        st.lists(st.integers(min_value=-(10**16), max_value=10**16), max_size=4),
        st.dictionaries(
            st.one_of(st.integers(-5, 99).map(str), st.text(max_size=3)),
            _anything(),
            max_size=3,
        ),
    )


def _get(doc: Any, path: tuple) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def backup_cases(world: World, kind: str):
    st = _st()
    places = sites(world)[kind] or sites(world)["id"]
    doc = _document(world)

    def values(path: tuple):
        if kind == "key":
            return _key_values(path[-1])
        if kind == "id":
            return _id_values(_get(doc, path))
        return _junk_values()

    return st.sampled_from(places).flatmap(
        lambda path: st.builds(
            BackupCase, kind=st.just(kind), path=st.just(path), value=values(path)
        )
    )


def crafted(world: World, case: BackupCase) -> dict:
    """The world's export with the case's change, every action marked undoable (a file
    may say so of any action: each imported action then reaches its undo handler)."""
    doc = copy.deepcopy(_document(world))
    for row in doc["events"]:
        row["undoable"] = True
    parent = _get(doc, case.path[:-1])
    last = case.path[-1]
    if case.kind == "key":
        parent[str(case.value)] = parent.pop(last)
    else:
        parent[last] = case.value
    return doc


def _fingerprint(tournament) -> str:
    from tournaments.services import backup_export

    document = backup_export.export_tournament(tournament)
    document.pop("exported_at", None)
    text = json.dumps(document, sort_keys=True, default=str)
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def run_backup_case(world: World, case: BackupCase, catalog: Catalog) -> list[Outcome]:
    """Upload the crafted file, then read and undo the imported tournament; roll back."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.signals import got_request_exception

    from tournaments.models import Tournament

    target = f"backup:{case.kind}"
    outcomes: list[Outcome] = []
    where = f"[{case.path} = {repr(case.value)[:80]}]"

    def outcome(name: str) -> Outcome:
        made = Outcome(f"{target}:{name}")
        outcomes.append(made)
        return made

    def answered(made: Outcome, response, what: str) -> bool:
        if response.status_code >= 500:
            made.server_error = f"{where} {what}: {response.status_code} " + (
                recorder.seen[-1] if recorder.seen else "no exception recorded"
            )
            return False
        return True

    recorder = _Errors()
    got_request_exception.connect(recorder)
    try:
        with transaction.atomic():
            client = _client("td", world)
            data = json.dumps(crafted(world, case), ensure_ascii=False).encode()
            before = snapshot(world)
            newest = Tournament.objects.aggregate(n=Max("pk"))["n"] or 0
            made = outcome("import")
            try:
                with transaction.atomic():
                    response = client.post(
                        reverse("tournament_import"),
                        {"file": SimpleUploadedFile("crafted.json", data)},
                        follow=True,
                    )
            except Exception:  # noqa: BLE001 - any exception is the finding
                made.server_error = f"{where}\n{traceback.format_exc(limit=-6)}"
                transaction.set_rollback(True)
                return outcomes
            if not answered(made, response, "import"):
                transaction.set_rollback(True)
                return outcomes
            errors, others = shown_messages(response)
            for text in errors + others:
                english = catalog.english_in(text)
                if english:
                    made.untranslated = f"{where} {text!r} is English ({english!r})"
                    break
            imported = Tournament.objects.filter(pk__gt=newest, parent=None).first()
            if imported is None:
                made.refused = True
                made.message = errors[0] if errors else f"HTTP {response.status_code}"
                diff = changed(before, snapshot(world))
                if diff:
                    made.partial_write = f"{where} refused ({errors[:1]}) but changed {diff}"
                transaction.set_rollback(True)
                return outcomes
            made.accepted = True
            world_rows = {k: v[1] for k, v in snapshot(world).items()}
            _reads(client, imported.slug, outcome, answered)
            events = list(imported.events.order_by("-pk").values_list("pk", "action"))
            for pk, action in events[:UNDO_LIMIT]:
                url = reverse("event_undo", args=[imported.slug, pk])
                made = outcome("undo")
                state = _fingerprint(imported)
                # An undo that moves players, or of an old action, shows what it will change
                # and asks first; any other is done at once.
                response = client.post(url, follow=True)
                if not answered(made, response, f"undo (or its preview) of {action}"):
                    continue
                if "undo_confirm.html" in {t.name for t in response.templates}:
                    response = client.post(url, {"confirm": "1"}, follow=True)
                    if not answered(made, response, f"undo of {action}"):
                        continue
                errors, _others = shown_messages(response)
                made.refused = bool(errors)
                made.accepted = not errors
                made.message = errors[0] if errors else ""
                if errors and _fingerprint(imported) != state:
                    made.partial_write = f"{where} undo of {action} refused but changed it"
                now_rows = {k: v[1] for k, v in snapshot(world).items()}
                moved = sorted(k for k in now_rows if now_rows[k] != world_rows[k])
                if moved:
                    made.partial_write = (
                        f"{where} undo of {action} in the import changed the world's {moved}"
                    )
                    break
            _reads(client, imported.slug, outcome, answered)
            transaction.set_rollback(True)
    finally:
        got_request_exception.disconnect(recorder)
    return outcomes


def _reads(client, slug: str, outcome, answered) -> None:
    for name in READ_PATHS:
        made = outcome("read")
        try:
            response = client.get(reverse(name, args=[slug]))
        except Exception:  # noqa: BLE001 - any exception is the finding
            made.server_error = f"{name}\n{traceback.format_exc(limit=-6)}"
            continue
        if answered(made, response, name):
            made.accepted = True

"""Hostile backups.

A user allowed to import can write any JSON. The import refuses every value the services
would never write -- a reference to a row the file does not define, junk in a JSON field,
a clock in no state the clock knows -- with a translated message and nothing written. A
file that is strange but well formed is accepted, and then every page that reads it, and
the undo of every imported action, answers without a server error.
"""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import NOW
from tests.tournaments.services.test_backup import build_event, counts
from tests.tournaments.services.test_backup import event as event  # noqa: F401 - fixture
from tests.tournaments.services.test_backup import small as small  # noqa: F401 - fixture
from tournaments import errors
from tournaments.models import Event, Tournament
from tournaments.services import backup_checks, backup_export, backup_format, backup_import

pytestmark = pytest.mark.django_db

LATER = NOW + dt.timedelta(days=3)
assert build_event  # the rich event the `event` fixture builds


def first(document: dict, action: str) -> dict:
    return next(e for e in document["events"] if e["action"] == action)


def _set(path: tuple, value):
    def change(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _payload(action: str, key: str, value):
    def change(doc: dict) -> None:
        first(doc, action)["data"][key] = value

    return change


# (what, change, words of the message); each file is damaged in one place.
SMALL_CASES = [
    ("payload id of a row not in the file", _payload("entry.register", "entry", 10**6), "number"),
    (
        "payload id as a dict key not in the file",
        _payload("seats.draw", "assignments", {"999999": [1, 1]}),
        "number",
    ),
    (
        "payload id of a deleted row, positive",
        _payload("entry.register", "player", 424242),
        "number",
    ),
    ("payouts of text", _set(("tournament", "payouts"), ["100", "50"]), "what Torneo writes"),
    ("payouts of floats", _set(("tournament", "payouts"), [1.5]), "what Torneo writes"),
    ("payouts not a list", _set(("tournament", "payouts"), {"1": 100}), "what Torneo writes"),
    ("h4h tables of text", _set(("tournament", "h4h_tables_done"), ["x"]), "what Torneo writes"),
    (
        "end-of-day counts junk",
        _set(("tournament", "eod_remaining"), {"1": "many"}),
        "what Torneo writes",
    ),
    (
        "end-of-day counts keyed by text",
        _set(("tournament", "eod_remaining"), {"one": 2}),
        "what Torneo writes",
    ),
    (
        "end-of-day counts a list",
        _set(("tournament", "eod_remaining"), [1, 2]),
        "what Torneo writes",
    ),
    (
        "mystery permutation of numbers",
        _set(("tournament", "mystery_permutation"), [1, 2]),
        "what Torneo writes",
    ),
    ("reserved seats of text", _set(("tables", 0, "reserved_seats"), ["1"]), "what Torneo writes"),
    (
        "reserved seats out of range",
        _set(("tables", 0, "reserved_seats"), [10**9]),
        "what Torneo writes",
    ),
    (
        "accessible seats a dict",
        _set(("tables", 0, "accessible_seats"), {"a": 1}),
        "what Torneo writes",
    ),
    ("locked seats of floats", _set(("tables", 0, "locked_seats"), [1.0]), "what Torneo writes"),
    ("clock status unknown", _set(("tournament", "clock_status"), "exploded"), "not a clock state"),
    ("clock elapsed negative", _set(("tournament", "clock_elapsed"), -5), "seconds between"),
    ("clock elapsed huge", _set(("tournament", "clock_elapsed"), 1e300), "seconds between"),
    ("clock elapsed infinite", _set(("tournament", "clock_elapsed"), float("inf")), "number"),
    ("clock elapsed not a number", _set(("tournament", "clock_elapsed"), float("nan")), "number"),
    ("payload not a dict", lambda d: first(d, "entry.register").update(data=[1]), "data"),
    ("payload name not text", _payload("entry.register", "name", {"x": 1}), "name"),
    ("payload seat junk", _payload("entry.register", "seat", "x"), "seat"),
    ("payload float inside", _payload("entry.register", "chips", float("nan")), "data"),
]

RICH_CASES = [
    (
        "deal share of an entry not in the file",
        lambda d: d["deals"][0]["shares"][0].update(entry=10**6),
        "number",
    ),
    ("deal shares junk", _set(("deals", 0, "shares"), [{"entry": "x"}]), "what Torneo writes"),
    (
        "undo names an event not in the file",
        lambda d: first(d, "event.undo")["data"].update(undone_event=10**6),
        "number",
    ),
    ("payouts undo restores junk", _payload("payouts.set", "before", ["x"]), "before"),
    ("elimination places junk", _payload("entry.eliminate", "places", {"1": "first"}), "places"),
    ("elimination stacks junk", _payload("entry.eliminate", "stacks", {"1": [1]}), "stacks"),
    ("move from junk", _payload("seat.move", "from", [1]), "from"),
    ("moves junk", _payload("room.break", "moves", [{"name": "x", "to": "nowhere"}]), "moves"),
    ("ruling hand junk", _set(("rulings", 0, "hand"), {"setup": 1}), "what Torneo writes"),
    ("ruling names junk", _set(("rulings", 0, "names"), {"1": ["x"]}), "what Torneo writes"),
]


def _refused(document: dict, td, what: str, words: str) -> None:
    before = counts()
    with pytest.raises(errors.BadBackup) as refused:
        backup_import.import_document(document, actor=td, now=LATER)
    message = str(refused.value)
    assert message.startswith("This file cannot be imported"), (what, message)
    assert words in message, (what, message)
    assert counts() == before, what


@pytest.mark.parametrize(("what", "change", "words"), SMALL_CASES, ids=[c[0] for c in SMALL_CASES])
def test_a_hostile_value_refuses_the_file(small, td, what, change, words):  # noqa: F811
    document = copy.deepcopy(backup_export.export_tournament(small))
    if what.startswith("payload id as a dict key"):
        document["events"].append(
            {
                **first(document, "entry.register"),
                "id": 10**7,
                "action": "seats.draw",
                "data": {},
            }
        )
    change(document)
    _refused(document, td, what, words)


def test_a_hostile_value_in_a_played_event_refuses_the_file(event, td):  # noqa: F811
    exported = backup_export.export_tournament(event)
    for what, change, words in RICH_CASES:
        document = copy.deepcopy(exported)
        change(document)
        _refused(document, td, what, words)


def test_the_refusal_is_translated(small, td):  # noqa: F811
    document = copy.deepcopy(backup_export.export_tournament(small))
    document["tournament"]["clock_status"] = "exploded"
    with translation.override("it"), pytest.raises(errors.BadBackup) as refused:
        backup_import.import_document(document, actor=td, now=LATER)
    assert "non è uno stato dell'orologio" in str(refused.value)


def test_a_file_of_not_json_numbers_is_refused():
    with pytest.raises(errors.BadBackup, match="not a JSON file"):
        backup_checks.loads(b'{"format": "torneo-tournament", "x": NaN}')


def test_an_exported_file_names_gone_rows_by_negative_ids(small, td, desk):  # noqa: F811
    """An undone ID check is deleted; the export says so, and the file still imports."""
    from tournaments.events import event_undo
    from tournaments.services import entries as entry_services

    player = small.entries.first().player
    check = entry_services.id_check(tournament=small, player=player, actor=desk, now=NOW)
    logged = small.events.get(action="id.check")
    event_undo(event_id=logged.pk, tournament=small, actor=td, now=NOW)
    document = backup_export.export_tournament(small)
    assert first(document, "id.check")["data"]["check"] == -check.pk
    backup_import.import_document(document, actor=td, now=LATER)


# --- Accepted, strange files: every page answers and every undo refuses or works (1c) ----


def hostile(document: dict) -> dict:
    """A well-formed file nobody's Torneo wrote: every action marked undoable and not undone,
    payloads naming rows long gone, junk in keys nothing reads, a clock far past its
    structure, end-of-day and hand-for-hand on tables that do not exist."""
    doc = copy.deepcopy(document)
    t = doc["tournament"]
    t.update(
        clock_status="running",
        clock_index=30000,
        clock_elapsed=backup_checks.LONGEST_CLOCK,
        clock_started_at=NOW.isoformat(),
        h4h_active=True,
        h4h_tables_done=[9999],
        eod_card="As",
        eod_remaining={"9999": 1000, "-3": 0},
        payouts=[10**15, 0, 7],
        mystery_permutation=["nope"],
    )
    for table in doc["tables"]:
        table.update(reserved_seats=[99], locked_seats=[1, 99], accessible_seats=[])
    for i, row in enumerate(doc["events"]):
        row.update(undoable=True, undone_at=None, undone_by=None, undo_of=None)
        data = row["data"]
        data["zz junk"] = {"a": [1, None, "x"], "b": -1}
        for key in ("entry", "player", "check", "ruling", "call", "penalty", "deal", "screen"):
            if isinstance(data.get(key), int) and i % 2:
                data[key] = -abs(data[key])  # a row deleted before the export
        if isinstance(data.get("entries"), list):
            data["entries"] = [-abs(pk) for pk in data["entries"]]
        for key in ("before", "seats", "places", "prizes", "stacks", "tables"):
            if isinstance(data.get(key), dict) and i % 3 == 0:
                data[key] = {}
    return doc


READ_PATHS = [
    ("tournament_home", {}),
    ("clock_console", {}),
    ("public_clock", {}),
    ("seat_finder", {}),
    ("money", {}),
    ("public_results", {}),
    ("event_log", {}),
    ("desk", {}),
    ("room", {}),
    ("chips", {}),
    ("days", {}),
    ("penalties", {}),
    ("bounties", {}),
    ("screens", {}),
]


def _reads_answer(client, slug: str) -> None:
    for name, params in READ_PATHS:
        response = client.get(reverse(name, args=[slug]), params)
        assert response.status_code < 500, (name, response.status_code)


@pytest.mark.parametrize("source", ["small", "event"])
def test_a_strange_file_imports_and_every_read_and_undo_answers(request, client, td, source):
    original = request.getfixturevalue(source)
    exported = backup_export.export_tournament(original, now=NOW)
    document = hostile(exported)
    imported = backup_import.import_document(document, actor=td, now=LATER).tournament
    client.force_login(td)
    _reads_answer(client, imported.slug)
    for row in Event.objects.filter(tournament=imported).order_by("-pk"):
        url = reverse("event_undo", args=[imported.slug, row.pk])
        preview = client.post(url)
        assert preview.status_code < 500, (row.action, preview.status_code)
        response = client.post(url, {"confirm": "1"})
        assert response.status_code < 500, (row.action, response.status_code)
    _reads_answer(client, imported.slug)
    # The original is untouched by the undos of its imported copy.
    assert backup_export.export_tournament(original, now=NOW) == exported
    assert Tournament.objects.filter(pk=original.pk).exists()


def test_every_json_field_has_its_shape_checked():
    assert set(backup_checks.JSON_SHAPES) == set(backup_format.JSON_REFS)

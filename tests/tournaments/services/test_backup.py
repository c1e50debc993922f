"""Backup: a whole tournament to JSON and back.

A rich multi-flight event is built through the services, exported, imported (next to the
original, and into a database the original was deleted from), exported again: the two
documents are equal once ids, tokens and slugs are replaced by what they stand for, and
the imported event answers every selector as the original did.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
import random

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models
from django.urls import reverse

from room.events import ROOM_ACTION_PREFIXES
from tables.engine import Action, Hand, SeatStack, TableSetup
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments import errors, events, selectors
from tournaments.documents import reports
from tournaments.events import event_undo
from tournaments.models import (
    DisplayScreen,
    Entry,
    Event,
    Player,
    Purchase,
    Role,
    Seat,
    StaffAssignment,
    Tournament,
)
from tournaments.services import (
    backup_checks,
    backup_export,
    backup_format,
    backup_import,
    days,
    results,
    screens,
)
from tournaments.services import chips as chip_services
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services
from tournaments.services import layout as layout_services
from tournaments.services import moves as room
from tournaments.services import penalties as penalty_services
from tournaments.services import seats as seat_services
from tournaments.services import setup as setup_services
from tournaments.services import timecalls as timecall_services
from tournaments.services.rulings import ruling_save

pytestmark = pytest.mark.django_db

CHIPSET = [
    chip_services.DenominationSpec(25, "green", 8),
    chip_services.DenominationSpec(100, "black", 8),
    chip_services.DenominationSpec(500, "purple", 10),
    chip_services.DenominationSpec(1000, "yellow", 24),
]


def at(minutes: int) -> dt.datetime:
    return NOW + dt.timedelta(minutes=minutes)


def undo_last(tournament, actor, action, now):
    event = tournament.events.filter(action=action, undone_at=None).order_by("-pk").first()
    return event_undo(event_id=event.pk, tournament=tournament, actor=actor, now=now)


def seated(entry: Entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry)


def build_event(td) -> Tournament:
    """A main event with two flights, merged, playing Day 2 with most things that happen."""
    rng = random.Random(11)
    floor, desk = make_user("floorboss"), make_user("deskie")
    event = make_tournament(
        td,
        tables=3,
        seats=6,
        name="Main Event",
        venue="Casinò",
        house_percent="10.50",
        payout_unit=5,
        rebuys_allowed=True,
        rebuy_max=2,
        rebuy_price=100,
        rebuy_chips=20000,
        addon_allowed=True,
        addon_price=50,
        addon_chips=30000,
        max_entries=3,
    )
    setup_services.staff_assign(
        tournament=event, actor=td, username="floorboss", role="floor", now=NOW
    )
    setup_services.staff_assign(tournament=event, actor=td, username="deskie", role="desk", now=NOW)
    chip_services.chipset_set(tournament=event, actor=td, denominations=CHIPSET, now=NOW)
    for number in (1, 2, 3):
        layout_services.table_update(
            tournament=event,
            actor=td,
            number=number,
            opening_order=number,
            break_order=4 - number,
            accessible_seats=[1],
            reserved_seats=[],
            now=NOW,
        )
    flight_a = days.flight_create(event=event, actor=td, name="Day 1A", date=NOW.date(), now=NOW)
    flight_b = days.flight_create(event=event, actor=td, name="Day 1B", date=NOW.date(), now=NOW)

    # --- Day 1A: a created player, ID checks, a rebuy, a bust and a re-entry, a race.
    lisa = entry_services.player_create(
        tournament=flight_a,
        actor=desk,
        first_name="Lisa",
        last_name="Bianchi",
        document_number="ca123",
        nationality="IT",
        needs_accessible_seat=True,
        now=NOW,
    )
    players = [lisa] + [make_player("P", f"Player{i:02d}") for i in range(9)]
    a_entries = [
        entry_services.entry_register(tournament=flight_a, player=p, actor=desk, now=at(1)).entry
        for p in players[:6]
    ]
    entry_services.id_check(tournament=flight_a, player=players[0], actor=desk, now=at(2))
    entry_services.id_check(tournament=flight_a, player=players[1], actor=desk, now=at(2))
    undo_last(flight_a, td, "id.check", at(3))  # the check row is deleted: a dangling id
    entry_services.entry_purchase(
        tournament=flight_a, entry=a_entries[2], kind="rebuy", actor=desk, now=at(5)
    )
    entry_services.entry_eliminate(tournament=flight_a, entry=a_entries[5], actor=floor, now=at(10))
    reentry = entry_services.entry_register(
        tournament=flight_a, player=players[5], actor=desk, now=at(11)
    ).entry
    assert reentry.kind == Entry.Kind.REENTRY
    table = seated(a_entries[0]).table
    at_table = [s.number for s in Seat.objects.filter(table=table).order_by("number")]
    held = dict.fromkeys(at_table, 0)
    held[at_table[0]], held[at_table[1]] = 3, 2
    chip_services.chip_race_record(
        tournament=flight_a,
        table_number=table.number,
        removed=25,
        held=held,
        cards={at_table[0]: ["2c", "3c", "4c"], at_table[1]: ["Ah", "Kd"]},
        actor=floor,
        now=at(45),
    )
    survivors = list(flight_a.entries.filter(status="active").order_by("number"))
    in_play = selectors.tournament_figures(flight_a)["chips_in_play"]
    stacks = {e.pk: in_play // len(survivors) for e in survivors}
    stacks[survivors[0].pk] += in_play - sum(stacks.values())
    days.chips_bag(
        tournament=flight_a,
        counts=stacks,
        bags={survivors[0].pk: "A-01"},
        actor=floor,
        now=at(300),
    )

    # --- Day 1B: two Day 1A players again, and new ones.
    b_entries = [
        entry_services.entry_register(tournament=flight_b, player=p, actor=desk, now=at(1440)).entry
        for p in players[:2] + players[6:10]
    ]
    penalty_services.penalty_give(
        tournament=flight_b,
        entry=b_entries[3],
        kind="missed_rounds",
        rounds=1,
        offence="phone at the table",
        actor=floor,
        now=at(1450),
    )
    in_play = selectors.tournament_figures(flight_b)["chips_in_play"]
    stacks = {e.pk: in_play // len(b_entries) for e in b_entries}
    stacks[b_entries[0].pk] += in_play - sum(stacks.values())
    days.chips_bag(tournament=flight_b, counts=stacks, actor=floor, now=at(1700))

    # --- Day 2: merge, redraw, a running clock, late entries, money and the room.
    days.flights_merge(event=event, actor=td, now=at(2800))
    days.day_redraw(tournament=event, actor=td, now=at(2810), rng=rng)
    clock_services.clock_start(tournament=event, actor=td, now=at(2820))
    clock_services.clock_pause(tournament=event, actor=td, now=at(2825))
    clock_services.clock_resume(tournament=event, actor=td, now=at(2826))
    clock_services.clock_adjust(tournament=event, actor=td, seconds=-60, now=at(2827))
    late = [make_player("Late", "Comer"), make_player("Zoe", "Verdi", document_number="X9")]
    late_entries = [
        entry_services.entry_register(tournament=event, player=p, actor=desk, now=at(2830)).entry
        for p in late
    ]
    entry_services.entry_purchase(
        tournament=event, entry=late_entries[0], kind="addon", actor=desk, now=at(2831)
    )
    entry_services.entry_purchase(
        tournament=event, entry=late_entries[1], kind="rebuy", actor=desk, now=at(2832)
    )
    undo_last(event, td, "entry.rebuy", at(2833))
    oops = entry_services.entry_register(
        tournament=event, player=make_player("Wrong", "Person"), actor=desk, now=at(2834)
    )
    undo_last(event, desk, "entry.register", at(2835))
    assert Entry.objects.get(pk=oops.entry.pk).status == Entry.Status.VOIDED

    hands_services.buttons_draw(tournament=event, actor=floor, now=at(2836), rng=rng)
    open_tables = sorted({seated(e).table.number for e in event.entries.filter(status="active")})
    hands_services.hand_done(tournament=event, table_numbers=open_tables, actor=floor, now=at(2837))
    mover = event.entries.filter(status="active").order_by("number").first()
    target = (3, 2) if seated(mover).table.number != 3 else (1, 2)
    seat_services.seat_move(
        tournament=event,
        entry=mover,
        table_number=target[0],
        seat=target[1],
        actor=floor,
        now=at(2838),
        reason="wrong seat",
    )
    room.plan_apply_all(tournament=event, actor=floor, now=at(2838), rng=rng)
    moved = Seat.objects.filter(table__tournament=event, arrived=False).first()
    room.move_confirm(
        tournament=event, entry=moved.entry, actor=floor, now=at(2839), carried_by="Gino"
    )
    removal = chip_services.chips_remove(
        tournament=event, amount=500, reason="lost_and_found", actor=floor, now=at(2839)
    )
    chip_services.chips_remove(
        tournament=event, amount=100, reason="confiscation", actor=floor, now=at(2840)
    )
    undo_last(event, floor, "chips.remove", at(2841))
    assert removal.pk
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    hand.act(Action(1, "fold"))
    ruling_save(
        tournament=event,
        actor=floor,
        hand=hand.to_dict(),
        names={"1": "Anna", "2": "Bea"},
        table_number=open_tables[0],
        note="Fold out of turn stands.",
        now=at(2842),
    )
    on_clock = Seat.objects.filter(table__tournament=event, entry__status="active").first()
    call = timecall_services.timecall_start(
        tournament=event,
        actor=floor,
        table_number=on_clock.table.number,
        seat_number=on_clock.number,
        facing_bet=True,
        now=at(2842),
    )
    timecall_services.timecall_expire(tournament=event, actor=floor, call_id=call.pk, now=at(2843))
    screens.screen_create(tournament=event, actor=td, name="Clock bar", kind="clock", now=NOW)
    gone = screens.screen_create(
        tournament=event, actor=td, name="Old tablet", kind="table", table_number=1, now=NOW
    )
    screens.screen_revoke(tournament=event, actor=td, screen_id=gone.pk, now=at(2843))
    results.payouts_generate(tournament=event, actor=td, paid_places=3, now=at(2850))

    # Busts down to four: the room breaks and balances tables as they empty.
    active = list(event.entries.filter(status="active").order_by("number"))
    cheat = active.pop()
    penalty_services.penalty_give(
        tournament=event,
        entry=cheat,
        kind="disqualification",
        offence="chip dumping",
        stack=cheat.chips,
        actor=td,
        now=at(2860),
    )
    for minute, entry in enumerate(active[:-4], start=2870):
        results.eliminations_record(
            tournament=event,
            busts=[results.Bust(entry=entry, start_stack=1000)],
            actor=floor,
            now=at(minute),
        )
    hands_services.buttons_draw(tournament=event, actor=floor, now=at(2889), rng=rng)
    room.plan_apply_all(tournament=event, actor=floor, now=at(2890), rng=rng)
    four = list(event.entries.filter(status="active").order_by("number"))
    results.eliminations_record(
        tournament=event,
        busts=[results.Bust(entry=four[0], start_stack=2000)],
        actor=floor,
        now=at(2900),
    )
    undo_last(event, floor, "entry.eliminate", at(2901))
    results.eliminations_record(
        tournament=event,
        busts=[results.Bust(entry=four[0], start_stack=2000)],
        actor=floor,
        now=at(2902),
    )
    three = list(event.entries.filter(status="active").order_by("number"))
    total = selectors.tournament_figures(event)["chips_in_play"]
    stacks = {three[0].pk: total // 2, three[1].pk: total // 3}
    stacks[three[2].pk] = total - sum(stacks.values())
    results.deal_record(
        tournament=event,
        stacks=stacks,
        method="icm",
        left_to_play_for=100,
        actor=td,
        now=at(2910),
    )
    days.chips_bag(tournament=event, counts=stacks, actor=floor, now=at(2920))
    event.refresh_from_db()
    return event


# --- Canonical form: ids replaced by what they stand for ---------------------------------


def canonical(document: dict) -> dict:
    """The document with every id (rows, references, ids inside payloads) replaced by a
    natural key: a player by his identity, a user by username, any other row by its
    position in its list (the importer keeps the order), a tournament's slug by its
    position. What is left must be equal between an export and the export of its import."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at")
    tournaments = [doc["tournament"], *doc["flights"]]
    keys: dict = {Tournament: {row["id"]: f"T{i}" for i, row in enumerate(tournaments)}}
    keys[Player] = {
        row["id"]: (
            row["first_name"],
            row["last_name"],
            row["document_number"],
            row["nationality"],
            row["created_at"],
        )
        for row in doc["players"]
    }
    for section in backup_format.SECTIONS:
        keys[section.model] = {
            row["id"]: f"{section.key}#{i}" for i, row in enumerate(doc[section.key])
        }
    slugs = {row["slug"]: f"T{i}" for i, row in enumerate(tournaments)}

    def mapper(model, old):
        return slugs.get(old) if model == events.SLUG else keys[model].get(old)

    def rewrite(model, rows):
        for row in rows:
            for f in backup_format.exported_fields(model):
                name = "id" if f.primary_key else f.name
                value = row.get(name)
                if f.primary_key or (f.is_relation and f.related_model in keys):
                    target = model if f.primary_key else f.related_model
                    row[name] = keys[target].get(value, value)
                elif (model, f.name) in backup_format.JSON_REFS:
                    row[name] = events.remap(
                        value, backup_format.JSON_REFS[(model, f.name)], mapper
                    )
            if model is Tournament:
                row["slug"] = slugs[row["slug"]]
            if model is Event:
                refs = events.payload_refs(row["action"], row["data"])
                row["data"] = events.remap(row["data"], refs, mapper)

    rewrite(Tournament, tournaments)
    rewrite(Player, doc["players"])
    doc["players"].sort(key=lambda row: row["id"])
    for section in backup_format.SECTIONS:
        rewrite(section.model, doc[section.key])
    return doc


def without_import_row(document: dict) -> dict:
    doc = copy.deepcopy(document)
    imports = [e for e in doc["events"] if e["action"] == "tournament.import"]
    assert len(imports) == 1 and doc["events"][-1] is imports[0]
    doc["events"].pop()
    return doc


def behaviour(tournament: Tournament, now: dt.datetime) -> dict:
    """What the pages and screens show of a tournament (and of each of its flights)."""
    family = selectors.tournament_family(tournament)
    shown = {}
    for i, t in enumerate(family):
        shown[i] = {
            "name": t.name,
            "clock": selectors.clock_payload(t, now),
            "seating": selectors.seating_page(t, page=1, per_page=500),
            "board": selectors.payouts_board(t),
            "figures": selectors.tournament_figures(t),
            "screen": selectors.screen_figures(t),
            "results": [
                (e.number, str(e.player), e.status, e.place, e.place_last, e.prize, e.deal_amount)
                for e in selectors.results(t)
            ],
            "tables": {
                n: selectors.table_seats(t, n)
                for n in t.tables.order_by("number").values_list("number", flat=True)
            },
            "reports": [
                reports.as_csv(table(t))
                for table in (
                    reports.results_table,
                    reports.payouts_table,
                    reports.chip_counts_table,
                    reports.penalties_table,
                )
            ],
            "log": [
                (
                    e.at,
                    e.action,
                    events.action_label(e),
                    events.can_undo(e),
                    e.actor.username if e.actor else None,
                )
                for e in t.events.exclude(action="tournament.import").select_related("actor")
            ],
            "staff": sorted(t.staff.values_list("user__username", "role")),
            "screens": sorted(t.screens.values_list("name", "kind", "table_number", "revoked")),
        }
    return shown


# --- The round trips ---------------------------------------------------------------------


@pytest.fixture
def small(tournament, td, desk):
    """A plain tournament with a few seated entries, a screen and staff."""
    for _ in range(3):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=desk, now=NOW
        )
    screens.screen_create(tournament=tournament, actor=td, name="Clock", kind="clock", now=NOW)
    return tournament


@pytest.fixture
def event(td, monkeypatch):
    # The desk's seat draw uses the system's randomness: seed it, so the room plays out
    # the same way every run (a break, then the final table).
    seeded = random.Random(5)
    for name in ("random", "getrandbits"):
        monkeypatch.setattr(seat_services.SYSTEM_RANDOM, name, getattr(seeded, name))
    built = build_event(td)
    _add_format_rows(built)
    return built


def _add_format_rows(event: Tournament) -> None:
    """An envelope and a bounty award, so the format lists are exported too."""
    from tournaments.models import BountyAward, Envelope

    out = event.entries.filter(status="eliminated").order_by("pk").first()
    winner = event.entries.exclude(pk=out.pk).order_by("pk").first()
    Envelope.objects.create(tournament=event, code="E01", value_cents=5000, drawn_for=out)
    BountyAward.objects.create(
        tournament=event,
        event=event.events.order_by("pk").last(),
        eliminated=out,
        winner=winner,
        cash_cents=1250,
        head_cents=1250,
        created_at=NOW,
    )


LATER = at(2930)


def test_import_next_to_the_original_loses_nothing(event, td):
    first = backup_export.export_tournament(event, now=LATER)
    # The rich event puts rows in every list and most kinds of action in the log.
    assert first["format"] == "torneo-tournament" and first["version"] == 1
    assert [f["name"] for f in first["flights"]] == ["Day 1A", "Day 1B"]
    for section in backup_format.SECTIONS:
        assert first[section.key], f"the rich event has no {section.key}"
    actions = {e["action"] for e in first["events"]}
    assert {
        "event.undo",
        "room.break",
        "room.final_table",
        "seat.arrive",
        "deal.record",
        "flights.merge",
        "clock.start",
    } <= actions
    assert all("token" not in row for row in first["screens"])
    assert backup_checks.loads(backup_export.dumps(first)) == first  # plain JSON types only
    shown = behaviour(event, LATER)
    players_before = Player.objects.count()

    result = backup_import.import_document(
        backup_checks.loads(backup_export.dumps(first)), actor=td, now=LATER
    )
    copy_ = result.tournament
    assert copy_.pk != event.pk and copy_.slug != event.slug
    assert result.renamed == {
        event.slug: copy_.slug,
        **{
            f.slug: c.slug
            for f, c in zip(event.flights.order_by("pk"), result.flights, strict=True)
        },
    }
    # Players are shared: every one was matched, none duplicated.
    assert Player.objects.count() == players_before
    assert result.players_created == 0 and result.players_matched == len(first["players"])
    assert result.users_created == []

    second = backup_export.export_tournament(copy_, now=LATER)
    assert canonical(without_import_row(second)) == canonical(first)
    assert behaviour(copy_, LATER) == shown
    # Screens have new secret links; the original's still work.
    old = set(event.screens.values_list("token", flat=True))
    new = set(copy_.screens.values_list("token", flat=True))
    assert old and new and not old & new


def test_import_into_a_database_without_the_original(event, td):
    first = backup_export.export_tournament(event, now=LATER)
    shown = behaviour(event, LATER)
    slug = event.slug
    player_ids = set(event.entries.values_list("player_id", flat=True))
    for flight in event.flights.all():
        player_ids |= set(flight.entries.values_list("player_id", flat=True))
    event.delete()  # the flights and every row go with it
    Player.objects.filter(pk__in=player_ids).delete()
    get_user_model().objects.filter(username="deskie").delete()
    assert not Tournament.objects.exists()

    result = backup_import.import_document(first, actor=td, now=LATER)
    imported = result.tournament
    assert imported.slug == slug and result.renamed == {}
    assert result.players_created == len(first["players"]) and result.players_matched == 0
    assert result.users_created == ["deskie"]
    deskie = get_user_model().objects.get(username="deskie")
    assert not deskie.is_active and not deskie.has_usable_password()
    assert StaffAssignment.objects.get(tournament=imported, user=deskie).role == Role.DESK

    second = backup_export.export_tournament(imported, now=LATER)
    assert canonical(without_import_row(second)) == canonical(first)
    assert behaviour(imported, LATER) == shown
    log = imported.events.filter(action="tournament.import").get()
    assert log.actor == td and log.data["from"] == slug and log.data["users_created"] == ["deskie"]


def test_the_imported_log_still_undoes_on_the_imported_rows(event, td):
    copy_ = backup_import.import_tournament(
        backup_export.export_tournament(event), actor=td, now=LATER
    )
    # The last elimination: its entry comes back to play in the copy only.
    out = copy_.events.filter(action="entry.eliminate", undone_at=None).order_by("-pk").first()
    entry_id = out.data["entries"][0]
    assert Entry.objects.get(pk=entry_id).tournament_id == copy_.pk
    event_undo(event_id=out.pk, tournament=copy_, actor=td, now=LATER)
    assert Entry.objects.get(pk=entry_id).status == Entry.Status.ACTIVE
    original = event.events.filter(action="entry.eliminate", undone_at=None).order_by("-pk")[0]
    assert Entry.objects.get(pk=original.data["entries"][0]).status == Entry.Status.ELIMINATED
    # An add-on sold on Day 2: undone in the copy, the original's stays.
    sold = copy_.events.get(action="entry.addon")
    event_undo(event_id=sold.pk, tournament=copy_, actor=td, now=LATER)
    assert Purchase.objects.get(pk=sold.data["purchase"]).voided
    assert Purchase.objects.filter(entry__tournament=event, kind="addon", voided=False).exists()
    # The undo of the merge names the copy's flights, not the original's.
    merge = copy_.events.get(action="flights.merge")
    assert set(merge.data["flights"]) == set(copy_.flights.values_list("slug", flat=True))
    # The deal's shares point at the copy's entries.
    deal = copy_.deals.get()
    assert {s["entry"] for s in deal.shares} <= set(copy_.entries.values_list("pk", flat=True))


def test_a_flight_exported_alone_comes_back_standalone(event, td):
    flight = event.flights.order_by("pk").first()
    document = backup_export.export_tournament(flight)
    assert document["flight_of"] == {"slug": event.slug, "name": event.name}
    assert document["flights"] == [] and document["tournament"]["parent"] is None
    imported = backup_import.import_tournament(document, actor=td, now=LATER)
    assert imported.parent is None and imported.name == flight.name
    assert imported.entries.count() == flight.entries.count()
    assert imported.chip_counts.count() == flight.chip_counts.count()


def test_the_importer_becomes_td_and_users_resolve_by_username(tournament, td):
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    document = backup_export.export_tournament(tournament)
    document["staff"][0]["user"] = "someone-else"  # the TD is not the importer
    importer = make_user("importer", staff=True)
    imported = backup_import.import_tournament(document, actor=importer, now=LATER)
    assert imported.staff.get(user=importer).role == Role.TD
    other = get_user_model().objects.get(username="someone-else")
    assert not other.is_active and imported.staff.get(user=other).role == Role.TD
    register = imported.events.get(action="entry.register")
    assert register.actor == td  # the actor found by username on this instance
    assert events.action_label(imported.events.get(action="tournament.import")) == (
        "Imported from a backup file"
    )
    # A slug that is a word of the site's addresses is never given to a tournament.
    document["tournament"]["slug"] = "import"
    assert backup_import.import_tournament(document, actor=importer, now=LATER).slug == "import-2"


# --- Every model and every field is accounted for -----------------------------------------


def test_every_model_is_exported_or_excluded_with_a_reason():
    exported = {Tournament, Player, *(s.model for s in backup_format.SECTIONS)}
    for label in ("tournaments", "tables"):
        for model in apps.get_app_config(label).get_models():
            assert model in exported or backup_format.EXCLUDED_MODELS.get(model), (
                f"{model.__name__} is neither in the backup nor excluded with a reason"
            )
    assert all(reason for reason in backup_format.EXCLUDED_FIELDS.values())


def test_every_json_field_and_every_reference_is_mapped():
    exported = [Tournament, Player, *(s.model for s in backup_format.SECTIONS)]
    known = {*exported, get_user_model()}
    for model in exported:
        for f in backup_format.exported_fields(model):
            if isinstance(f, models.JSONField):
                assert (model, f.name) in backup_format.JSON_REFS, f"{model.__name__}.{f.name}"
            if f.is_relation:
                assert f.related_model in known, f"{model.__name__}.{f.name}"


def test_every_logged_action_has_its_payload_ids_listed():
    """A new action must say where its payload holds ids (or that it holds none)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[3]
    logged = set(events.ACTION_LABELS)
    for path in [*root.glob("tournaments/**/*.py"), *root.glob("tables/**/*.py")]:
        logged |= set(re.findall(r'action="([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text()))
    logged |= {"entry.rebuy", "entry.addon"}  # action=f"entry.{kind}"
    # The room's own log (cash room, pit) is not part of a tournament's backup.
    logged = {action for action in logged if not action.startswith(ROOM_ACTION_PREFIXES)}
    assert logged - set(events.PAYLOAD_REFS) == set()


# --- Bad files change nothing --------------------------------------------------------------


def counts() -> dict:
    return {
        m.__name__: m.objects.count()
        for m in [
            Tournament,
            Player,
            get_user_model(),
            *(s.model for s in backup_format.SECTIONS),
        ]
    }


def broken_copies(document: dict) -> list[tuple[str, dict, str]]:
    """(what, document, words of the message) for documents damaged in one place each."""
    cases = []

    def case(what, change, words):
        doc = copy.deepcopy(document)
        change(doc)
        cases.append((what, doc, words))

    case("format", lambda d: d.update(format="something"), "not a Torneo tournament export")
    case("version", lambda d: d.update(version=2), "format version 2")
    case("section", lambda d: d.update(extra=[]), "unknown section")
    case("rows", lambda d: d.update(entries={}), "not a list of rows")
    case("field", lambda d: d["entries"][0].update(colour="red"), "unknown field")
    case("type", lambda d: d["entries"][0].update(chips="many"), "whole number")
    case("choice", lambda d: d["entries"][0].update(status="asleep"), "not a valid choice")
    case("naive", lambda d: d["entries"][0].update(created_at="2026-11-21T18:00:00"), "zone")
    case("reference", lambda d: d["seats"][0].update(entry=10**9), "does not hold")
    case("user", lambda d: d["staff"][0].update(user="bad name!"), "username")
    case("action", lambda d: d["events"][-1].update(action="moon.landing"), "unknown action")
    case("negative", lambda d: d["entries"][-1].update(chips=-5), "")
    case("duplicate", lambda d: d["seats"].append(dict(d["seats"][0], id=10**9)), "contradict")
    case("long", lambda d: d["tournament"].update(name="x" * 500), "at most 120")
    return cases


def test_a_damaged_file_is_refused_and_changes_nothing(small, td):
    document = backup_export.export_tournament(small)
    before = counts()
    for what, doc, words in broken_copies(document):
        with pytest.raises(errors.BadBackup) as refused:
            backup_import.import_document(doc, actor=td, now=LATER)
        message = str(refused.value)
        assert message.startswith("This file cannot be imported"), (what, message)
        assert words in message, (what, message)
        assert counts() == before, what


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x89PNG\r\n", "not a JSON file"),
        (b"{nope", "not a JSON file"),
        (b"[1, 2]", "not a Torneo tournament export"),
        (b"[" * 100_000, "not a JSON file"),
    ],
)
def test_what_is_not_json_is_refused(data, words):
    with pytest.raises(errors.BadBackup, match=words):
        backup_checks.loads(data)


def test_a_huge_file_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(backup_checks, "MAX_DOCUMENT_BYTES", 1000)
    with pytest.raises(errors.BadBackup, match="larger than"):
        backup_checks.loads(b" " * 1001)


# --- Management commands ------------------------------------------------------------------


def test_export_and_import_commands(small, tmp_path):
    event = small
    path = tmp_path / "event.json"
    call_command("export_tournament", event.slug, "-o", str(path))
    document = json.loads(path.read_text())
    assert document["tournament"]["slug"] == event.slug
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    new_slug = out.getvalue().strip().splitlines()[-1]
    imported = Tournament.objects.get(slug=new_slug)
    assert imported.pk != event.pk and imported.entries.count() == 3
    assert canonical(without_import_row(backup_export.export_tournament(imported))) == canonical(
        document
    )
    # To stdout without -o.
    out = io.StringIO()
    call_command("export_tournament", event.slug, stdout=out)
    assert json.loads(out.getvalue())["tournament"]["name"] == event.name


def test_import_command_refuses_a_bad_file_with_its_message(tmp_path, db):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "torneo-tournament", "version": 99}))
    with pytest.raises(CommandError, match="format version 99"):
        call_command("import_tournament", str(path))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_tournament", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_tournament", "nope")
    assert not Tournament.objects.exists()


def test_display_screen_tokens_are_new(display, td):
    imported = backup_import.import_tournament(
        backup_export.export_tournament(display.tournament), actor=td, now=LATER
    )
    screen = DisplayScreen.objects.get(tournament=imported)
    assert screen.name == display.name and screen.token != display.token


# --- The pages ----------------------------------------------------------------------------


def test_the_td_downloads_the_export_from_the_home_page(client, small, td):
    event = small
    client.force_login(td)
    home = client.get(reverse("tournament_home", args=[event.slug])).content.decode()
    assert reverse("tournament_export", args=[event.slug]) in home
    response = client.get(reverse("tournament_export", args=[event.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith(f'attachment; filename="{event.slug}-')
    document = json.loads(response.content)
    assert canonical(document) == canonical(backup_export.export_tournament(event, now=LATER))


def test_staff_below_td_see_no_export(client, tournament, desk):
    client.force_login(desk)
    home = client.get(reverse("tournament_home", args=[tournament.slug])).content.decode()
    assert reverse("tournament_export", args=[tournament.slug]) not in home
    assert client.get(reverse("tournament_export", args=[tournament.slug])).status_code == 403


def test_upload_creates_the_tournament_and_says_what_happened(client, small, td):
    event = small
    data = backup_export.dumps(backup_export.export_tournament(event))
    client.force_login(make_manager(td))
    listing = client.get(reverse("tournament_list")).content.decode()
    assert reverse("tournament_import") in listing
    assert client.get(reverse("tournament_import")).status_code == 200
    response = client.post(
        reverse("tournament_import"),
        {"file": SimpleUploadedFile("event.json", data, content_type="application/json")},
        follow=True,
    )
    imported = Tournament.objects.exclude(pk=event.pk).get(parent=None)
    assert response.redirect_chain[-1][0] == reverse("tournament_home", args=[imported.slug])
    page = response.content.decode()
    assert f"{event.name} imported: 0 flights, 0 new players, 3 known ones." in page
    assert f"imported as {imported.slug}" in page
    assert "new secret links" in page
    assert imported.entries.count() == 3


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json at all", "it is not a JSON file"),
        (b'{"format": "csv"}', "it is not a Torneo tournament export"),
        (b'{"format": "torneo-tournament", "version": 7}', "format version 7"),
        (b" " * 2000, "larger than"),
        (None, "Choose a file"),
    ],
)
def test_a_bad_upload_says_why_and_changes_nothing(client, td, monkeypatch, content, words):
    monkeypatch.setattr(backup_checks, "MAX_DOCUMENT_BYTES", 1000)
    client.force_login(make_manager(td))
    before = counts()
    data = {} if content is None else {"file": SimpleUploadedFile("x.json", content)}
    response = client.post(reverse("tournament_import"), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("tournament_import")
    assert words in response.content.decode()
    assert counts() == before


def test_import_is_for_those_who_may_create_tournaments(client, floor, tournament):
    data = backup_export.dumps(backup_export.export_tournament(tournament))
    client.force_login(floor)
    response = client.post(
        reverse("tournament_import"), {"file": SimpleUploadedFile("t.json", data)}
    )
    assert response.status_code == 403
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("crafted", ["1", 1.0, True, [1]], ids=["text", "float", "bool", "list"])
def test_a_payload_id_that_is_not_a_whole_number_refuses_the_file(small, td, crafted):
    """An id written as text or a float would slip past the remapping
    and, undone, name a row of another tournament. The file is refused; nothing written."""
    document = copy.deepcopy(backup_export.export_tournament(small))
    registrations = [e for e in document["events"] if e["action"] == "entry.register"]
    assert registrations
    registrations[0]["data"]["entry"] = crafted
    before = counts()
    with pytest.raises(errors.BadBackup) as refused:
        backup_import.import_document(document, actor=td, now=LATER)
    assert "where a row's number belongs" in str(refused.value)
    assert counts() == before

"""An erasure erases: after it, the player's names are in no log row, record, page or
backup, and the cash room neither keeps nor takes him back."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from room.events import room_event_undo
from room.models import CashSeat, CashTable, RoomEvent, WaitEntry
from room.services import cash_lists, cash_seats, cash_tables
from room.services import people as people_services
from tests.conftest import (
    NOW,
    make_cash_game,
    make_player,
    make_room_user,
    make_tournament,
)
from tournaments.errors import CannotUndo, DomainError
from tournaments.models import CashRefund, Event, Penalty, RoomRole, Ruling, TimeCall
from tournaments.rules import names
from tournaments.services import backup_export
from tournaments.services import books as book_services
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services
from tournaments.services import timecalls as timecall_services

pytestmark = pytest.mark.django_db

# Every word that named him: the names he was registered under (a typo, corrected later),
# his nickname and his document.
HIS_WORDS = ("Zebedeo", "Quaglietti", "Quaglieti", "Lo Zebra", "ZQ998877")


@pytest.fixture
def cash_td(db):
    return make_room_user("cashtd", RoomRole.MANAGER)


@pytest.fixture
def game(cash_td):
    return make_cash_game(cash_td)


def _history(tournament, td, cash_td, game):
    """A player with a past: two events (an ID check, a time call, a penalty naming him, a
    refund, a bust-out), a ruling and an evening at a cash table; beside him, Bruna."""
    zeb = make_player("Zebedeo", "Quaglieti")
    bruna = make_player("Bruna", "Bianchetti")
    reg = entry_services.entry_register(tournament=tournament, player=zeb, actor=td, now=NOW)
    entry_services.entry_register(tournament=tournament, player=bruna, actor=td, now=NOW)
    people_services.player_update(
        player=zeb,
        actor=td,
        fields={"last_name": "Quaglietti", "nickname": "Lo Zebra", "document_number": "ZQ998877"},
        now=NOW,
    )
    entry_services.id_check(tournament=tournament, player=zeb, actor=td, now=NOW)
    call = timecall_services.timecall_start(
        tournament=tournament,
        actor=td,
        now=NOW,
        table_number=reg.table,
        seat_number=reg.seat,
        facing_bet=True,
        seconds_used=60,
    )
    timecall_services.timecall_cancel(tournament=tournament, actor=td, now=NOW, call_id=call.pk)
    penalty_services.penalty_give(
        tournament=tournament,
        entry=reg.entry,
        kind="warning",
        actor=td,
        now=NOW,
        offence="Zebedeo Quaglietti (Lo Zebra) threw his cards",
    )
    Ruling.objects.create(
        tournament=tournament,
        table_number=reg.table,
        hand={},
        names={"1": "Quaglietti Zebedeo", "2": "Bianchetti Bruna"},
        note="Quaglietti's hand is dead",
        created_at=NOW,
    )
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)
    monday = make_tournament(td, name="Monday")
    other = entry_services.entry_register(tournament=monday, player=zeb, actor=td, now=NOW)
    book_services.sale_void(
        tournament=monday,
        entry=other.entry,
        reason="Quaglietti left, ID ZQ998877",
        actor=td,
        now=NOW,
    )
    for player in (zeb, bruna):
        cash_lists.list_add(actor=cash_td, player=player, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=cash_td,
        game=game,
        number=7,
        present={zeb.pk, bruna.pk},
        now=NOW,
        rng=random.Random(1),
    )
    seat = CashSeat.objects.get(table=table, player=zeb)
    cash_seats.seat_leave(actor=cash_td, seat=seat, now=NOW, stack=350)
    zeb.refresh_from_db()
    return zeb


def _stored_text() -> str:
    rows = [*Event.objects.values_list("data", flat=True)]
    rows += RoomEvent.objects.values_list("data", flat=True)
    rows += Ruling.objects.values_list("names", "hand", "note")
    rows += TimeCall.objects.values_list("player_name", flat=True)
    rows += Penalty.objects.values_list("offence", flat=True)
    rows += CashRefund.objects.values_list("reason", flat=True)
    return json.dumps(rows, ensure_ascii=False)


def test_no_stored_text_names_an_erased_player(tournament, td, cash_td, game):
    zeb = _history(tournament, td, cash_td, game)
    before = _stored_text()
    assert [word for word in HIS_WORDS if word not in before] == []  # it named him

    people_services.player_erase(player=zeb, actor=td, now=NOW)

    after = _stored_text()
    assert [word for word in HIS_WORDS if word in after] == []
    assert f"Anonymous #{zeb.pk}" in after
    assert "Bianchetti Bruna" in after  # the others keep their names
    assert (
        Penalty.objects.get().offence
        == f"Anonymous #{zeb.pk} (Anonymous #{zeb.pk}) threw his cards"
    )
    assert CashRefund.objects.get().reason == f"Anonymous #{zeb.pk} left, ID Anonymous #{zeb.pk}"


def test_no_page_nor_backup_names_an_erased_player(client, tournament, td, cash_td, game):
    zeb = _history(tournament, td, cash_td, game)
    people_services.player_erase(player=zeb, actor=td, now=NOW)

    client.force_login(td)
    log_page = client.get(reverse("event_log", args=[tournament.slug])).content.decode()
    assert f"Anonymous #{zeb.pk}" in log_page and "Bianchetti Bruna" in log_page
    document = json.dumps(backup_export.export_tournament(tournament, now=NOW), ensure_ascii=False)
    pages = {
        "event log": log_page,
        "backup": document,
        "his page": client.get(reverse("person", args=[zeb.pk])).content.decode(),
        "people": client.get(reverse("people")).content.decode(),
    }
    assert all(f"Anonymous #{zeb.pk}" in pages[p] for p in ("his page", "people"))
    client.force_login(cash_td)
    pages["cash board"] = client.get(reverse("cash_board")).content.decode()
    assert {where: [w for w in HIS_WORDS if w in text] for where, text in pages.items()} == {
        where: [] for where in pages
    }


def test_the_duplicates_merged_into_him_are_erased_with_him(tournament, td):
    kept = make_player("Zebedeo", "Quaglietti")
    duplicate = make_player("Zebedeo", "Quaglieti", document_number="ZQ998877")
    entry_services.entry_register(tournament=tournament, player=duplicate, actor=td, now=NOW)
    people_services.players_merge(source=duplicate, target=kept, actor=td, now=NOW)
    entry_services.entry_eliminate(
        tournament=tournament, entry=kept.entries.get(), actor=td, now=NOW
    )

    people_services.player_erase(player=kept, actor=td, now=NOW)

    duplicate.refresh_from_db()
    assert duplicate.erased_at and duplicate.document_number == ""
    assert str(duplicate) == f"Anonymous #{duplicate.pk}"
    text = _stored_text() + json.dumps(backup_export.export_tournament(tournament, now=NOW))
    assert [word for word in HIS_WORDS if word in text] == []
    logged = RoomEvent.objects.get(action="room.player_erase")
    assert logged.data == {"player": kept.pk, "duplicates": [duplicate.pk]}


def test_a_player_seated_at_a_cash_table_is_not_erased(td, cash_td, game):
    zeb, bruna = make_player("Zebedeo", "Quaglietti"), make_player("Bruna", "Bianchetti")
    for player in (zeb, bruna):
        cash_lists.list_add(actor=cash_td, player=player, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=cash_td, game=game, number=7, present={zeb.pk, bruna.pk}, now=NOW
    )
    seat = CashSeat.objects.get(table=table, player=zeb)

    with pytest.raises(DomainError) as refused:
        people_services.player_erase(player=zeb, actor=td, now=NOW)

    assert f"cash table 7, seat {seat.number}" in str(refused.value)
    zeb.refresh_from_db()
    assert zeb.erased_at is None and zeb.last_name == "Quaglietti"
    assert not RoomEvent.objects.filter(action="room.player_erase").exists()


def test_a_listed_player_is_not_erased_and_the_page_says_which_list(
    client, tournament, td, cash_td, game
):
    zeb = make_player("Zebedeo", "Quaglietti")
    reg = entry_services.entry_register(tournament=tournament, player=zeb, actor=td, now=NOW)
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)
    cash_lists.list_add(actor=cash_td, player=zeb, games=[game], present=True, now=NOW)
    client.force_login(td)

    response = client.post(reverse("person_erase", args=[zeb.pk]), {"confirm": "1"}, follow=True)

    page = response.content.decode()
    assert "on the waiting list for NL Hold&#x27;em 2/5" in page
    zeb.refresh_from_db()
    assert zeb.erased_at is None and WaitEntry.objects.filter(player=zeb).exists()


def test_an_erased_player_is_not_put_back_on_a_list(td, cash_td, game):
    zeb = make_player("Zebedeo", "Quaglietti")
    cash_lists.list_add(actor=cash_td, player=zeb, games=[game], present=True, now=NOW)
    cash_lists.list_remove(actor=cash_td, entry=WaitEntry.objects.get(player=zeb), now=NOW)
    people_services.player_erase(player=zeb, actor=td, now=NOW)
    removal = RoomEvent.objects.get(action="cash.list_remove")

    with pytest.raises(CannotUndo):
        room_event_undo(event_id=removal.pk, actor=cash_td, now=NOW)
    with pytest.raises(DomainError):
        cash_lists.list_add(actor=cash_td, player=zeb, games=[game], present=True, now=NOW)

    assert not WaitEntry.objects.exists() and not CashTable.objects.exists()


def test_a_name_is_replaced_only_where_it_stands_whole():
    pattern = names.redaction_pattern(["Rossi Mario", "Mario Rossi", ""])
    assert pattern is not None
    data = {
        "name": "rossi  mario",
        "names": ["Rossi Marione", "Mario Rossi, Bruna"],
        "Rossi Mario": 3,
        "chips": 100,
    }
    assert names.redact(data, pattern, "Anonymous #1") == {
        "name": "Anonymous #1",
        "names": ["Rossi Marione", "Anonymous #1, Bruna"],
        "Anonymous #1": 3,
        "chips": 100,
    }
    assert names.redaction_pattern(["", "  "]) is None
    assert names.plain_fragment("Nicolò Rossi") == "Nicol"  # a word any JSON text holds as is
    assert names.plain_fragment("Lì Wu") is None  # too short: every row is read


@pytest.mark.parametrize(("first", "last"), [("Nicolò", "Bàrtoli"), ("Jörg", "Öß")])
def test_accented_names_are_found_in_the_log_however_the_database_writes_them(
    tournament, td, first, last
):
    player = make_player(first, last)
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)

    people_services.player_erase(player=player, actor=td, now=NOW)

    assert not [name for name in (first, last) if name in _stored_text()]

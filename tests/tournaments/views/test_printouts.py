"""Printouts: structure sheet, seating stickers, seat list, move and
break slips, final-table draw; A4 and receipt width; English and Italian."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import NOW, make_player, make_tournament
from tournaments.documents import printouts
from tournaments.models import Entry
from tournaments.services import entries as entry_services
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db


def words(blocks) -> str:
    parts = []
    for block in blocks:
        parts.append(block.text)
        parts += map(str, block.head)
        parts += [str(cell) for row in block.rows for cell in row]
    return " | ".join(parts)


def seat_players(tournament, td, n=3):
    for i in range(n):
        entry_services.entry_register(
            tournament=tournament, player=make_player("Ada", f"Zeta{i}"), actor=td, now=NOW
        )


def test_the_structure_sheet_lists_levels_breaks_colour_ups_and_late_registration(td):
    tournament = make_tournament(td, late_registration_level=2)
    rows = printouts.structure_rows(tournament)
    assert [r["starts"] for r in rows] == ["0:00", "0:20", "0:40", "0:50"]
    assert rows[2]["kind"] == "break" and rows[2]["color_up"] == 25
    assert rows[1]["late_end"] and not rows[0]["late_end"]
    text = words(printouts.document_blocks(tournament, "structure", "a4", NOW))
    assert "300 / 600" in text and "colour up 25" in text and "late registration ends" in text


def test_seating_stickers_one_table_a_page_at_receipt_width(tournament, td):
    seat_players(tournament, td, 12)
    receipt = printouts.document_blocks(tournament, "seating", "receipt", NOW)
    a4 = printouts.document_blocks(tournament, "seating", "a4", NOW)
    tables = [b for b in receipt if b.kind == "big"]
    assert len(tables) >= 2
    assert sum(b.kind == "break" for b in receipt) == len(tables) - 1
    assert not any(b.kind == "break" for b in a4)


def test_the_seat_list_is_by_name(tournament, td):
    seat_players(tournament, td, 3)
    (table,) = printouts.document_blocks(tournament, "seatlist", "a4", NOW)
    names = [row[0] for row in table.rows]
    assert names == sorted(names) and len(names) == 3


def test_a_move_slip_names_the_old_and_new_seat(tournament, td):
    seat_players(tournament, td, 2)
    entry = Entry.objects.filter(tournament=tournament).first()
    seat_services.seat_move(
        tournament=tournament, entry=entry, table_number=4, seat=9, actor=td, now=NOW
    )
    text = words(printouts.document_blocks(tournament, "moves", "receipt", NOW))
    assert str(entry.player) in text and "Table 4 · seat 9" in text
    breaks = words(printouts.document_blocks(tournament, "breaks", "a4", NOW))
    assert "No moves in the last two hours." in breaks


def test_the_final_table_draw_when_one_table_is_left(td):
    tournament = make_tournament(td, tables=1)
    seat_players(tournament, td, 4)
    (table,) = printouts.document_blocks(tournament, "final", "a4", NOW)
    assert len(table.rows) == 4 and [r[0] for r in table.rows] == sorted(r[0] for r in table.rows)


def test_printouts_in_italian(tournament, td):
    with translation.override("it"):
        assert printouts.document_titles()["structure"] == "Foglio della struttura"
        text = words(printouts.document_blocks(tournament, "structure", "a4", NOW))
    assert "Livello" in text


@pytest.mark.parametrize("doc", [*printouts.DOCUMENTS, "receipt", "payout"])
@pytest.mark.parametrize("size", ["a4", "receipt"])
def test_every_printout_is_a_pdf_at_both_widths(client, tournament, td, doc, size):
    seat_players(tournament, td, 2)
    client.force_login(td)
    response = client.get(
        reverse("printout", args=[tournament.slug]), {"doc": doc, "size": size, "entry": 1}
    )
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_printouts_page_and_bad_input(client, tournament, td):
    client.force_login(td)
    page = client.get(reverse("printout", args=[tournament.slug]))
    assert b"Seat list by name" in page.content
    bad = client.get(reverse("printout", args=[tournament.slug]), {"doc": "nope"})
    assert bad.status_code == 302

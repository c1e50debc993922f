"""The reports as XLSX: the same tables as the CSV ones, with typed cells
(numbers, money, times in the room's zone), and text that stays text whatever it starts
with."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import NOW, make_player
from tournaments.documents import reports
from tournaments.models import Tournament
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services
from tournaments.services import results

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _sheet(client, tournament, name):
    response = client.get(reverse("report", args=[tournament.slug, name, "xlsx"]))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"].endswith(f'{tournament.slug}-{name}.xlsx"')
    return load_workbook(io.BytesIO(response.content)).active


@pytest.fixture
def played(tournament, td):
    hostile = make_player("Rossi", '=HYPERLINK("http://evil.example","x")')
    players = [hostile, make_player("Anna", "Verdi"), make_player("Bea", "Neri")]
    regs = [
        entry_services.entry_register(tournament=tournament, player=p, actor=td, now=NOW)
        for p in players
    ]
    Tournament.objects.filter(pk=tournament.pk).update(clock_status="running")
    tournament.refresh_from_db()
    results.payouts_set(tournament=tournament, actor=td, amounts=[200, 100], now=NOW)
    penalty_services.penalty_give(
        tournament=tournament, entry=regs[0].entry, kind="warning", actor=td, now=NOW
    )
    for r in regs[1:]:
        entry_services.entry_eliminate(tournament=tournament, entry=r.entry, actor=td, now=NOW)
    return tournament


def test_results_download_as_xlsx_with_typed_cells(client, played, td):
    client.force_login(td)
    rows = list(_sheet(client, played, "results").iter_rows(values_only=True))
    assert rows[0][:4] == ("Place", "Player", "Entry", "Prize")
    assert [r[0] for r in rows[1:]] == [1, 2, 3]  # numbers, not text
    assert rows[1][3] == 200 and rows[2][3] == 100
    assert rows[3][3] is None  # no prize: blank, not 0
    assert all(isinstance(r[2], int) for r in rows[1:])


def test_a_name_written_as_a_formula_stays_text_in_the_xlsx(client, played, td):
    client.force_login(td)
    sheet = _sheet(client, played, "results")
    cells = [row[1] for row in sheet.iter_rows(min_row=2)]
    hostile = next(c for c in cells if "HYPERLINK" in str(c.value))
    assert hostile.data_type == "s"
    assert str(hostile.value).startswith('=HYPERLINK("http://evil.example"')


def test_payouts_and_penalties_keep_money_and_times_typed(client, played, td):
    client.force_login(td)
    payouts = list(_sheet(client, played, "payouts").iter_rows(min_row=2, values_only=True))
    assert payouts[0][:2] == (1, 200)
    assert payouts[0][2] == pytest.approx(float(Decimal("66.67")))
    penalty = next(_sheet(client, played, "penalties").iter_rows(min_row=2))
    assert penalty[0].value.isoformat() == "2026-11-21T19:00:00"  # 18:00 UTC, 19:00 in Rome
    assert penalty[0].is_date
    assert penalty[2].value == "Warning"


def test_every_report_downloads_as_xlsx_and_junk_formats_are_not_found(client, played, td):
    client.force_login(td)
    for name in reports.REPORTS:
        _sheet(client, played, name)
    assert client.get(f"/t/{played.slug}/reports/results.xls").status_code == 404


def test_control_characters_and_formula_text_never_break_the_workbook():
    table = (["Player", "Note"], [["=1+1", "a\x00b\x1bc"], ["-", "@SUM(A1)"]])
    sheet = load_workbook(io.BytesIO(reports.as_xlsx("Penalties: day 1/2", table))).active
    assert sheet.title == "Penalties  day 1 2"
    assert [[c.value for c in row] for row in sheet.iter_rows(min_row=2)] == [
        ["=1+1", "abc"],
        ["-", "@SUM(A1)"],
    ]
    assert all(c.data_type == "s" for row in sheet.iter_rows() for c in row)

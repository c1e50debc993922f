"""The results files for the rankings, from an event played through the services: 20
players (names with accents, one typed in capitals, one with only a nationality), a
re-entry, a payout table of four places, a chip-chop deal among the last three, and a second
event of the same league. Each file is compared with its golden file in both languages, as
CSV text and as the spreadsheet's cells read back.

To write the golden files afresh after a deliberate change of columns:
TORNEO_GOLDEN_UPDATE=1 pytest tests/tournaments/views/test_results_exports.py
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from room.models import League
from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import Entry, Role, StaffAssignment, Tournament
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
MIN = dt.timedelta(minutes=1)

# (first name, last name, country, nationality as the desk typed it)
FIELD = [
    ("José", "Núñez", "ES", ""),
    ("Niccolò", "D'Angelo", "IT", ""),
    ("Zoë", "Müller", "DE", ""),
    ("MARIO", "DE LUCA", "IT", ""),  # typed in capitals: listed "Mario De Luca"
    ("Amélie", "Lefèvre", "FR", ""),
    ("Giulia", "Verdi", "IT", ""),
    ("Luca", "Bianchi", "IT", ""),
    ("Sarah", "O'Brien", "IE", ""),
    ("Marco", "Rossi", "IT", ""),
    ("Anna", "Neri", "IT", ""),
    ("Paolo", "Gallo", "IT", ""),
    ("Chiara", "Fontana", "IT", ""),
    ("Luigi", "Ferrari", "IT", ""),
    ("Elena", "Costa", "IT", ""),
    ("Jan", "Novák", "CZ", ""),
    ("Hans", "Gerber", "", "Svizzera"),  # no country recorded: his nationality as typed
    ("Sofia", "Ricci", "IT", ""),
    ("Davide", "Marino", "IT", ""),
    ("Marta", "Greco", "IT", ""),
    ("Piero", "Conti", "IT", ""),
]


def _bust(tournament, entry, td, at):
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entry)], actor=td, now=at
    )


def _active(tournament, player):
    return tournament.entries.get(player=player, status=Entry.Status.ACTIVE)


@pytest.fixture
def played(db):
    """The main event played to its winner, a second event of the league, the league."""
    td = make_user("td-rankings")
    floor = make_user("floor-rankings")
    event = make_tournament(
        td,
        tables=3,
        seats=9,
        name="Trofeo Città dei Fiori",
        venue="Casinò di Sanremo",
        city="Sanremo",
        country="IT",
        buy_in_prize=100,
        buy_in_fee=20,
    )
    StaffAssignment.objects.create(tournament=event, user=floor, role=Role.FLOOR)
    players = [
        make_player(first, last, country=country, nationality=nationality)
        for first, last, country, nationality in FIELD
    ]
    for player in players:
        entry_services.entry_register(tournament=event, player=player, actor=td, now=NOW)
    clock_services.clock_start(tournament=event, actor=td, now=NOW)
    at = NOW + MIN
    # Piero Conti busts early and re-enters: 21 entries, 20 players.
    _bust(event, _active(event, players[19]), td, at)
    entry_services.entry_register(tournament=event, player=players[19], actor=td, now=at + MIN)
    event.refresh_from_db()
    results.payouts_generate(tournament=event, actor=td, now=at + 2 * MIN, paid_places=4)
    # Out in reverse order of the list, down to three left (Piero's re-entry busts 5th-last).
    order = [*players[3:19][::-1]]
    order.insert(len(order) - 1, players[19])
    for i, player in enumerate(order, start=3):
        event.refresh_from_db()
        _bust(event, _active(event, player), td, at + i * MIN)
    event.refresh_from_db()
    left = {e.player_id: e.pk for e in event.entries.filter(status=Entry.Status.ACTIVE)}
    assert set(left) == {p.pk for p in players[:3]}
    stacks = {left[players[0].pk]: 300000, left[players[1].pk]: 200000, left[players[2].pk]: 130000}
    results.deal_record(
        tournament=event, stacks=stacks, method="chip_chop", actor=td, now=at + 30 * MIN
    )
    _bust(event, _active(event, players[2]), td, at + 31 * MIN)
    event.refresh_from_db()
    _bust(event, _active(event, players[1]), td, at + 32 * MIN)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED

    # A week later, a smaller event of the same league: Giulia wins it.
    second = make_tournament(
        td, tables=1, name="Trofeo d'Inverno", date=NOW.date() + dt.timedelta(days=7)
    )
    later = NOW + dt.timedelta(days=7)
    regulars = [players[5], players[0], players[3], players[9]]
    for player in regulars:
        entry_services.entry_register(tournament=second, player=player, actor=td, now=later)
    clock_services.clock_start(tournament=second, actor=td, now=later)
    for i, player in enumerate(regulars[:0:-1], start=1):
        second.refresh_from_db()
        _bust(second, _active(second, player), td, later + i * MIN)
    league = League.objects.create(
        name="Campionato Riviera",
        slug="campionato-riviera",
        points_table=[25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
        participation_points=2,
        created_at=NOW,
    )
    league.events.set([event, second])
    return {"td": td, "floor": floor, "event": event, "second": second, "league": league}


def _golden(name: str, text: str) -> str:
    path = GOLDEN / name
    if os.environ.get("TORNEO_GOLDEN_UPDATE"):
        path.write_text(text, encoding="utf-8")
    return path.read_text(encoding="utf-8")


def _csv_text(response) -> str:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content
    assert body.startswith("\ufeff".encode())  # spreadsheets read the accents right
    return body.decode("utf-8-sig").replace("\r\n", "\n")


def _xlsx_rows(response) -> list[list[object]]:
    from openpyxl import load_workbook

    assert response.status_code == 200, response.status_code
    sheet = load_workbook(io.BytesIO(response.content)).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def _same_cell(value: object, text: str) -> bool:
    """A spreadsheet cell as its golden CSV text: numbers by value, dates as ISO dates."""
    if value is None:
        return text == ""
    if isinstance(value, dt.datetime):
        return value.time() == dt.time(0) and value.date().isoformat() == text
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(text) == Decimal(str(value))
    return value == text


def _check_xlsx(response, golden: str) -> None:
    rows = _xlsx_rows(response)
    expected = list(csv.reader(io.StringIO(golden)))
    assert len(rows) == len(expected)
    for got, want in zip(rows, expected, strict=True):
        assert len(got) == len(want), (got, want)
        assert all(_same_cell(v, t) for v, t in zip(got, want, strict=True)), (got, want)


EVENT_FILES = [
    ("hendon-mob", "en"),
    ("hendon-mob", "it"),
    ("gpi", "en"),
    ("gpi", "it"),
]


@pytest.mark.parametrize(("export", "language"), EVENT_FILES)
def test_event_files_match_their_golden_files(client, played, export, language):
    client.force_login(played["floor"])
    slug = played["event"].slug
    golden_name = f"{export}.{language}.csv"
    response = client.get(
        reverse("results_export", args=[slug, export, "csv"]), HTTP_ACCEPT_LANGUAGE=language
    )
    text = _csv_text(response)
    assert text == _golden(golden_name, text)
    response = client.get(
        reverse("results_export", args=[slug, export, "xlsx"]), HTTP_ACCEPT_LANGUAGE=language
    )
    _check_xlsx(response, _golden(golden_name, text))


@pytest.mark.parametrize("language", ["en", "it"])
def test_league_ranking_matches_its_golden_file(client, played, language):
    client.force_login(played["td"])
    league = played["league"]
    response = client.get(
        reverse("league_ranking", args=[league.pk, "csv"]), HTTP_ACCEPT_LANGUAGE=language
    )
    text = _csv_text(response)
    assert text == _golden(f"figp-league.{language}.csv", text)
    response = client.get(
        reverse("league_ranking", args=[league.pk, "xlsx"]), HTTP_ACCEPT_LANGUAGE=language
    )
    _check_xlsx(response, text)


def _rows(client, slug, export):
    response = client.get(
        reverse("results_export", args=[slug, export, "csv"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    return list(csv.DictReader(io.StringIO(_csv_text(response))))


def test_what_the_files_say_of_the_played_event(client, played):
    """The figures behind the golden files, said once in words a reader checks."""
    client.force_login(played["td"])
    rows = _rows(client, played["event"].slug, "hendon-mob")
    assert len(rows) == 4  # the places paid
    first = rows[0]
    assert (first["Entries"], first["Unique players"]) == ("21", "20")
    assert (first["Buy-in"], first["Fee"], first["Currency"]) == ("100.00", "20.00", "EUR")
    assert (first["City"], first["Country"]) == ("Sanremo", "Italy")
    assert first["Prize pool"] == "2100.00"
    assert (first["First name"], first["Last name"], first["Player's country"]) == (
        "José",
        "Núñez",
        "Spain",
    )
    assert (rows[3]["First name"], rows[3]["Last name"]) == ("Mario", "De Luca")
    # The chop: the three prizes add up to what the top three places paid, each marked.
    top = [Decimal(r["Prize"]) for r in rows[:3]]
    assert [r["Deal"] for r in rows] == ["yes", "yes", "yes", "no"]
    payouts = played["event"].payouts
    assert sum(top) == sum(payouts[:3]) and Decimal(rows[3]["Prize"]) == payouts[3]

    summary = _rows(client, played["event"].slug, "gpi")
    assert [r["Place"] for r in summary] == [str(p) for p in range(1, 21)]
    assert {r["Field size"] for r in summary} == {"21"}
    assert {r["Buy-in including fee"] for r in summary} == {"120.00"}
    assert {r["Counts for the GPI"] for r in summary} == {"yes"}  # 21 entries, open
    by_name = {(r["First name"], r["Last name"]): r for r in summary}
    # Each player once: Piero Conti by his re-entry's finish, not his first bust.
    assert by_name[("Piero", "Conti")]["Place"] == "5"
    assert by_name[("Piero", "Conti")]["Prize"] == ""
    assert by_name[("Hans", "Gerber")]["Player's country"] == "Svizzera"


def test_a_ladies_event_or_one_closed_to_the_public_does_not_count_for_the_gpi(client, played):
    client.force_login(played["td"])
    event = played["event"]
    Tournament.objects.filter(pk=event.pk).update(category=Tournament.Category.LADIES)
    assert {r["Counts for the GPI"] for r in _rows(client, event.slug, "gpi")} == {"no"}
    assert {r["Category"] for r in _rows(client, event.slug, "gpi")} == {"Ladies"}
    Tournament.objects.filter(pk=event.pk).update(category="open", open_to_public=False)
    assert {r["Counts for the GPI"] for r in _rows(client, event.slug, "gpi")} == {"no"}
    # The second event had 4 entries: under the 21 the GPI asks for.
    second = played["second"]
    assert {r["Counts for the GPI"] for r in _rows(client, second.slug, "gpi")} == {"no"}


def test_desk_and_strangers_get_no_files(client, played):
    slug = played["event"].slug
    url = reverse("results_export", args=[slug, "gpi", "csv"])
    desk = make_user("desk-rankings")
    StaffAssignment.objects.create(tournament=played["event"], user=desk, role=Role.DESK)
    client.force_login(desk)
    assert client.get(url).status_code == 403
    client.force_login(make_user("stranger-rankings"))
    assert client.get(url).status_code == 403
    assert (
        client.get(reverse("league_ranking", args=[played["league"].pk, "csv"])).status_code == 403
    )
    # A TD of another event reaches no league of this one's.
    other = make_user("other-td-rankings")
    make_tournament(other, tables=0, name="Altrove")
    client.force_login(other)
    assert (
        client.get(reverse("league_ranking", args=[played["league"].pk, "csv"])).status_code == 404
    )
    client.force_login(played["td"])
    assert client.get(reverse("results_export", args=[slug, "gpi", "pdf"])).status_code == 404
    assert client.get(reverse("results_export", args=[slug, "other", "csv"])).status_code == 404


def test_the_results_page_offers_the_files_to_the_floor_only(client, played):
    url = reverse("public_results", args=[played["event"].slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "results-exports" not in page and "Sanremo · Italia" in page
    client.force_login(played["floor"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "File per le classifiche" in page
    assert reverse("results_export", args=[played["event"].slug, "hendon-mob", "csv"]) in page
    # The floor runs no league: its ranking is the TD's.
    assert reverse("league_ranking", args=[played["league"].pk, "csv"]) not in page
    client.force_login(played["td"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ranking of Campionato Riviera" in page
    assert reverse("league_ranking", args=[played["league"].pk, "xlsx"]) in page

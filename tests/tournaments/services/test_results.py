"""Money and results add up: the pool's lines, places that belong to
the entry, re-entered players shown playing, reports in the room's words and time zone."""

from __future__ import annotations

import base64
import csv
import datetime as dt
import io
import re
import zlib

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import NOW, make_player, make_tournament
from tournaments import selectors
from tournaments.events import event_undo
from tournaments.models import Event, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import penalties as penalty_services
from tournaments.services import results

pytestmark = pytest.mark.django_db


def running(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(clock_status="running")
    tournament.refresh_from_db()


def register(tournament, td, player=None):
    return entry_services.entry_register(
        tournament=tournament, player=player or make_player(), actor=td, now=NOW
    ).entry


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"house_percent": 10, "tax_percent": 5},
        {"guarantee": 10_000, "added_money": 300},
        {"house_percent": 12, "tax_percent": 20, "tax_mode": "on_gross", "guarantee": 1500},
    ],
)
def test_the_prize_pool_lines_add_up_to_the_pool(td, client, fields):
    tournament = make_tournament(
        td,
        rebuys_allowed=True,
        rebuy_max=3,
        rebuy_price=50,
        rebuy_chips=1000,
        addon_allowed=True,
        addon_price=40,
        addon_chips=2000,
        **fields,
    )
    entries = [register(tournament, td) for _ in range(12)]
    for entry in entries[:3]:
        entry_services.entry_purchase(
            tournament=tournament, entry=entry, kind="rebuy", actor=td, now=NOW, stack=0
        )
    entry_services.entry_purchase(
        tournament=tournament, entry=entries[0], kind="addon", actor=td, now=NOW
    )
    breakdown = selectors.prize_pool_lines(tournament)
    amounts = {line["key"]: line["amount"] for line in breakdown["lines"]}
    assert amounts["rebuys"] == 150 and amounts["addons"] == 40
    assert (
        sum(amounts.values())
        == breakdown["prize_pool"]
        == selectors.prize_pool(tournament).prize_pool
    )
    client.force_login(td)
    page = client.get(reverse("money", args=[tournament.slug])).content.decode()
    shown = [int(a) for a in re.findall(r'data-amount="(-?\d+)"', page)]
    assert sum(shown) == breakdown["prize_pool"]
    assert "Rebuys (3)" in page and "Add-ons (1)" in page


def test_two_busts_from_different_hands_never_share_a_place(tournament, td):
    entries = [register(tournament, td) for _ in range(10)]
    running(tournament)
    first = entries[0]
    entry_services.entry_eliminate(tournament=tournament, entry=first, actor=td, now=NOW)
    first.refresh_from_db()
    assert first.place == 10
    again = register(tournament, td, first.player)  # he re-enters
    entry_services.entry_eliminate(
        tournament=tournament, entry=entries[1], actor=td, now=NOW + dt.timedelta(minutes=5)
    )
    first.refresh_from_db()
    entries[1].refresh_from_db()
    assert {first.place, entries[1].place} == {11, 10}
    assert again.place is None  # the place belongs to the entry, not to the player


def test_undoing_a_registration_gives_the_places_back(tournament, td):
    entries = [register(tournament, td) for _ in range(5)]
    running(tournament)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[0], actor=td, now=NOW)
    late = register(tournament, td)
    entries[0].refresh_from_db()
    assert entries[0].place == 6
    event = Event.objects.get(action="entry.register", data__entry=late.pk)
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    entries[0].refresh_from_db()
    assert entries[0].place == 5


def test_a_reentered_player_is_never_shown_out_while_he_plays(tournament, td, client):
    tournament.reentry_allowed = True
    tournament.max_entries = 3
    tournament.save()
    player = make_player("Luca", "Verdi")
    entries = [register(tournament, td, player)] + [register(tournament, td) for _ in range(5)]
    running(tournament)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[0], actor=td, now=NOW)
    register(tournament, td, player)
    public = client.get(reverse("public_results", args=[tournament.slug])).content.decode()
    assert "Luca Verdi" not in public
    client.force_login(td)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[1], actor=td, now=NOW)
    busts = client.get(reverse("eliminations", args=[tournament.slug])).content.decode()
    # Luca's first entry is marked; the player out for good is not.
    assert busts.count("re-entered, playing") == 1
    money = client.get(reverse("money", args=[tournament.slug])).content.decode()
    assert money.count("re-entered, playing") == 1


def test_reports_use_words_the_room_time_zone_and_blank_zero_prizes(tournament, td, client):
    entries = [register(tournament, td) for _ in range(4)]
    running(tournament)
    penalty_services.penalty_give(
        tournament=tournament, entry=entries[0], kind="warning", actor=td, now=NOW
    )
    results.payouts_set(tournament=tournament, actor=td, amounts=[400], now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[3], actor=td, now=NOW)
    client.force_login(td)
    body = client.get(reverse("report", args=[tournament.slug, "penalties", "csv"])).content
    row = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))[1]
    assert row[0] == "2026-11-21 19:00"  # 18:00 UTC is 19:00 in Rome
    assert row[2] == "Warning"
    body = client.get(reverse("report", args=[tournament.slug, "results", "csv"])).content
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[1][3] == ""  # fourth place: no prize, blank rather than 0
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    page = client.get(reverse("penalties", args=[tournament.slug])).content.decode()
    body = client.get(reverse("report", args=[tournament.slug, "penalties", "csv"])).content
    assert list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))[1][2] == "Ammonizione"
    assert "Ammonizione" in page and ">warning<" not in page


def _pdf_text(content: bytes) -> str:
    """The page streams of a reportlab PDF (ASCII85 then Flate), decoded."""
    text = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", content, re.S):
        data = stream.strip()
        if data.endswith(b"~>"):
            data = base64.a85decode(data[:-2].replace(b"\n", b""))
        try:
            text.append(zlib.decompress(data).decode("latin-1"))
        except zlib.error:
            continue
    return "".join(text)


def test_pdf_reports_carry_venue_date_totals_page_numbers_and_when_made(tournament, td, client):
    tournament.venue = "Casino di Sanremo"
    tournament.save()
    for _ in range(3):
        register(tournament, td)
    client.force_login(td)
    pdf = client.get(reverse("report", args=[tournament.slug, "results", "pdf"])).content
    text = _pdf_text(pdf)
    assert "Casino di Sanremo" in text and "21/11/2026" in text
    assert "Entries: 3" in text and "Prize pool: 300" in text
    assert "Page 1" in text and "made " in text


def test_a_csv_report_never_opens_a_name_as_a_formula():
    """A player named "=HYPERLINK(...)" is text in the spreadsheet."""
    from tournaments.documents import reports

    table = (["Place", "Player"], [[1, '=HYPERLINK("http://x")'], [2, "+39 Rossi"], [3, "@Bo"]])
    text = reports.as_csv(table).decode("utf-8-sig")
    assert "'=HYPERLINK" in text and "'+39 Rossi" in text and "'@Bo" in text
    assert reports.safe_cell(-150) == -150 and reports.safe_cell("Ada") == "Ada"

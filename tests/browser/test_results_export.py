"""The TD opens a finished event's results page and downloads the Hendon Mob-style CSV, in
English and in Italian: the file's headers and words are in the page's language."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import pytest
from django.utils import timezone

from tests.conftest import make_player, make_tournament, make_user
from tournaments.models import Entry
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _played(td):
    """Three players (one with accents), two places paid, played to its winner."""
    now = timezone.now()
    event = make_tournament(td, tables=1, name="Serata Città", city="Sanremo", country="IT")
    players = [make_player("José", "Núñez", country="ES"), make_player("Anna"), make_player("Bo")]
    for player in players:
        entry_services.entry_register(tournament=event, player=player, actor=td, now=now)
    clock_services.clock_start(tournament=event, actor=td, now=now)
    results.payouts_set(tournament=event, actor=td, amounts=[200, 100], now=now)
    for i, player in enumerate(players[:0:-1], start=1):
        event.refresh_from_db()
        entry = event.entries.get(player=player, status=Entry.Status.ACTIVE)
        results.eliminations_record(
            tournament=event,
            busts=[results.Bust(entry=entry)],
            actor=td,
            now=now + dt.timedelta(minutes=i),
        )
    return event


@pytest.mark.parametrize(
    ("locale", "header", "country", "link"),
    [
        ("en-GB", "First name", "Spain", "Results for Hendon Mob"),
        ("it-IT", "Nome", "Spagna", "Risultati per Hendon Mob"),
    ],
)
def test_the_td_downloads_the_hendon_mob_csv(live_server, browser, locale, header, country, link):
    td = make_user(f"td-export-{locale}")
    event = _played(td)
    context = browser.new_context(locale=locale, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", td.username)
    page.fill("#id_password", f"pw-{td.username}")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.goto(f"{live_server.url}/t/{event.slug}/results/")
    files = page.locator("[data-testid=export-hendon-mob]")
    assert link in files.inner_text()
    with page.expect_download() as waiting:
        files.get_by_role("link", name="CSV").click()
    download = waiting.value
    assert download.suggested_filename == f"{event.slug}-hendon-mob.csv"
    text = Path(download.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r[header] for r in rows] == ["José", "Anna"]  # the places paid
    assert rows[0][{"en-GB": "Player's country", "it-IT": "Nazione del giocatore"}[locale]] == (
        country
    )
    context.close()

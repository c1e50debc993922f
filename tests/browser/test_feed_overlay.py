"""A night on stream: the event runs, a player busts, and the stream overlays (OBS
browser sources, transparent, 1920x1080) show it live, in English and in Italian, while a
follower of the public feed's stream receives the same elimination. Real Chromium, real
WebSockets (daphne, tests/browser/conftest.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from django.utils import timezone
from PIL import Image

from tests.conftest import make_player, make_tournament, make_user
from tournaments.models import DisplayScreen, Entry
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where to keep the elimination overlay's screenshot, when asked (FEED_OVERLAY_SHOT).
SHOT = os.environ.get("FEED_OVERLAY_SHOT")

# A follower of the public stream, opened from a page: every message it receives.
FOLLOW = """(url) => {
  window.__feed = [];
  const socket = new WebSocket(url);
  socket.addEventListener("message", (e) => window.__feed.push(JSON.parse(e.data)));
}"""


def _night():
    td = make_user("td-stream", staff=True)
    tournament = make_tournament(td, tables=1, name="Stream Cup")
    tournament.feed_public = True
    tournament.save(update_fields=["feed_public"])
    entries = [
        entry_services.entry_register(
            tournament=tournament, player=make_player(first, last), actor=td, now=timezone.now()
        ).entry
        for first, last in (("Anna", "Bianchi"), ("Carlo", "Verdi"), ("Dario", "Neri"))
    ]
    clock_services.clock_start(tournament=tournament, actor=td, now=timezone.now())
    overlay = DisplayScreen.objects.create(tournament=tournament, name="OBS", kind="overlay")
    return td, tournament, entries, overlay


def _open(browser, url: str, locale: str):
    context = browser.new_context(
        locale=locale, viewport={"width": 1920, "height": 1080}, extra_http_headers={}
    )
    page = context.new_page()
    page.set_default_timeout(10000)
    page.goto(url)
    # The socket has sent the document again: the overlay is live.
    page.wait_for_function("() => window.torneoOverlay && window.torneoOverlay.received > 0")
    return context, page


def _transparent_corners(png: bytes) -> list[int]:
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    width, height = image.size
    assert (width, height) == (1920, 1080)
    corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
    return [image.getpixel(xy)[3] for xy in corners]


def test_a_bust_reaches_the_overlays_and_the_feed_live(daphne_url, browser):
    td, tournament, entries, overlay = _night()
    base = f"{daphne_url}/s/{overlay.token}/overlay"

    index_context = browser.new_context(locale="en-GB")
    index = index_context.new_page()
    index.goto(f"{daphne_url}/s/{overlay.token}/")
    links = index.locator("[data-testid=overlay-link]").all_inner_texts()
    assert [link.rsplit("/", 2)[-2] for link in links] == [
        "clock",
        "final-table",
        "payouts",
        "elimination",
    ]
    index_context.close()

    opened = []
    try:
        clock_en = _open(browser, f"{base}/clock/", "en-GB")
        elimination_en = _open(browser, f"{base}/elimination/", "en-GB")
        final_it = _open(browser, f"{base}/final-table/", "it-IT")
        payouts_it = _open(browser, f"{base}/payouts/", "it-IT")
        opened = [clock_en, elimination_en, final_it, payouts_it]
        clock_page, out_page = clock_en[1], elimination_en[1]
        final_page, payouts_page = final_it[1], payouts_it[1]

        strip = clock_page.locator("[data-testid=overlay-clock]")
        assert "Level 1" in strip.inner_text()
        assert "100/200" in strip.inner_text()
        assert "3/3" in strip.inner_text()
        assert out_page.locator("[data-testid=overlay-elimination]").is_hidden()
        assert "Tavolo finale" in final_page.inner_text("body")
        assert final_page.locator("[data-rows] tr").count() == 3
        assert "montepremi" in payouts_page.inner_text("body").lower()

        # A follower of the public stream, from a page of another kind.
        clock_page.evaluate(
            FOLLOW, f"{daphne_url.replace('http', 'ws')}/api/v1/events/{tournament.pk}/stream"
        )
        clock_page.wait_for_function("() => window.__feed.length > 0")

        out = Entry.objects.get(pk=entries[2].pk)
        entry_services.entry_eliminate(
            tournament=tournament, entry=out, actor=td, now=timezone.now()
        )

        out_page.wait_for_selector("[data-testid=overlay-elimination]:not([hidden])")
        assert "Neri Dario is out in place 3" in out_page.inner_text(
            "[data-testid=overlay-elimination]"
        )
        clock_page.wait_for_function(
            "() => document.querySelector('[data-players]').textContent === '2/3'"
        )
        final_page.wait_for_function(
            "() => document.querySelectorAll('[data-rows] tr').length === 2"
        )
        feed = clock_page.evaluate("() => window.__feed")
        assert feed[0]["type"] == "event"
        busts = [m for m in feed if m["type"] == "elimination"]
        assert busts, [m["type"] for m in feed]
        assert busts[-1]["eliminations"][0]["name"] == "Neri Dario"
        assert busts[-1]["eliminations"][0]["place"] == 3

        # In Italian, the same bust on the Italian elimination overlay.
        out_it_context, out_it = _open(browser, f"{base}/elimination/", "it-IT")
        opened.append((out_it_context, out_it))
        assert "Neri Dario è eliminato al 3° posto" in out_it.inner_text(
            "[data-testid=overlay-elimination]"
        )

        # OBS paints only the overlay: every corner of the page is transparent.
        for page in (clock_page, out_page, final_page, payouts_page):
            png = page.screenshot(omit_background=True)
            assert _transparent_corners(png) == [0, 0, 0, 0]
        if SHOT:
            Path(SHOT).write_bytes(out_page.screenshot(omit_background=True))
    finally:
        for context, _page in opened:
            context.close()

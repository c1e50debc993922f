"""Screens stay live through an event night (issue 13, items 1, 2 and 4), in real Chromium:
a tablet after "Hand dealt", the seating board's row on a move, the TD console's
hand-for-hand tables, the clock's add-on break.

Each assertion waits at most 2 s after the action, without a reload.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.conftest import make_player, make_tournament, make_user
from tournaments import services
from tournaments.models import DisplayScreen
from tournaments.services import clock as clock_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 2000  # ms: what a screen may take to show an action


def _open(browser, url):
    page = browser.new_context(locale="en-GB").new_page()
    page.set_default_timeout(10000)
    page.goto(url)
    page.wait_for_selector("[data-sync][data-state=ok]")
    return page


def test_a_tablet_stays_live_after_hand_dealt_and_the_board_row_moves_at_once(daphne_url, browser):
    td = make_user("td-night", staff=True)
    tournament = make_tournament(td, tables=2)
    now = timezone.now()
    regs = [
        services.entry_register(
            tournament=tournament, player=make_player("Ugo", f"Neri{i}"), actor=td, now=now
        )
        for i in range(4)
    ]
    mover = regs[0]
    table = mover.table
    target = 2 if table == 1 else 1
    tablet_screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=table
    )
    board_screen = DisplayScreen.objects.create(tournament=tournament, name="B", kind="seating")
    tablet = _open(browser, f"{daphne_url}/s/{tablet_screen.token}/")
    board = _open(browser, f"{daphne_url}/s/{board_screen.token}/")

    tablet.click("button[name=hand][value=dealt]")
    tablet.wait_for_function(
        "() => document.querySelector('#seats').getAttribute('hx-get').endsWith('/')"
        " && !document.querySelector('#seats').getAttribute('hx-get').includes('/hand/')"
    )
    # A bust after the hand: the tablet drops the player from its seats, by push.
    out = next(r for r in regs[1:] if r.table == table)
    services.entry_eliminate(tournament=tournament, entry=out.entry, actor=td, now=timezone.now())
    tablet.wait_for_function(
        f"() => !document.querySelector('#seats').textContent.includes('{out.entry.player.last_name}')",
        timeout=LIVE,
    )
    # A move: the board's row shows the new seat and flashes, from the same push.
    services.seat_move(
        tournament=tournament,
        entry=mover.entry,
        table_number=target,
        seat=7,
        actor=td,
        now=timezone.now(),
    )
    row = f"[data-entry='{mover.entry.pk}']"
    board.wait_for_function(
        f"() => document.querySelector(\"{row} [data-where]\").textContent.includes('{target} · Seat 7')",
        timeout=LIVE,
    )
    assert "flash" in board.get_attribute(row, "class")
    board.reload()
    board.wait_for_selector("[data-sync][data-state=ok]")
    assert f"→ {target} · 7" in board.inner_text("[data-moves]")


def test_the_console_shows_each_tables_hand_done_live(daphne_url, browser):
    td = make_user("td-h4h", staff=True)
    get_user_model().objects.filter(pk=td.pk).update(is_superuser=True)
    tournament = make_tournament(td, tables=2)
    now = timezone.now()
    for _ in range(12):
        services.entry_register(tournament=tournament, player=make_player(), actor=td, now=now)
    clock_services.clock_start(tournament=tournament, actor=td, now=now)  # 9/3 evened to 6/6
    clock_services.h4h_start(tournament=tournament, actor=td, now=now)
    context = browser.new_context(locale="en-GB")
    context.add_cookies(_session_cookie(td, daphne_url))
    console = context.new_page()
    console.goto(f"{daphne_url}/t/{tournament.slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    table = 1
    tablet_screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=table
    )
    tablet = _open(browser, f"{daphne_url}/s/{tablet_screen.token}/")
    tablet.click("button[name=hand][value=done]")
    console.wait_for_function(
        f"() => document.querySelector('[data-h4h-table=\"{table}\"]').disabled",
        timeout=LIVE,
    )
    assert "done" in console.inner_text(f"[data-h4h-table='{table}']")


def _session_cookie(user, url):
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": url}]

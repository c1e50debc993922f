"""Two clock screens side by side show the same second, and a pause from the TD console
stops both within a couple of seconds: real Chromium, real WebSockets.

The server is daphne (HTTP and WebSocket on one port) in a thread of the test process, so
it shares the test database the way live_server does.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
import threading
import time

import pytest
from django.utils import timezone

from tests.conftest import make_tournament, make_user
from tournaments.services import clock as clock_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def daphne_url():
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server

    from config.asgi import application

    port = _free_port()
    server = Server(
        application=application,
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=port),
        signal_handlers=False,
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _attempt in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    from twisted.internet import reactor

    reactor.callFromThread(reactor.stop)
    thread.join(timeout=5)
    # Importing daphne installed Twisted's asyncio loop as this thread's loop: give the
    # rest of the session a fresh one, or async tests find a "running" loop here.
    asyncio.set_event_loop(asyncio.new_event_loop())


def _countdowns(first, second) -> tuple[str, str]:
    """Read both screens within the same displayed second."""
    for _attempt in range(10):
        a1 = first.inner_text("[data-testid=countdown]")
        b = second.inner_text("[data-testid=countdown]")
        a2 = first.inner_text("[data-testid=countdown]")
        if a1 == a2:
            return a1, b
    raise AssertionError("the countdown never held still long enough to compare")


def test_two_screens_agree_and_a_pause_stops_both(daphne_url, browser):
    td = make_user("td-clock", staff=True)
    tournament = make_tournament(td, tables=1)
    clock_services.clock_start(tournament=tournament, actor=td, now=timezone.now())

    screens = []
    for _n in range(2):
        context = browser.new_context(locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(10000)
        page.goto(f"{daphne_url}/p/{tournament.slug}/")
        page.wait_for_selector("[data-sync][data-state=ok]")
        screens.append(page)
    first, second = screens

    a, b = _countdowns(first, second)
    assert a == b, (a, b)
    assert a.startswith("19:") or a == "20:00", a
    time.sleep(1.2)
    later, _b = _countdowns(first, second)
    assert later != a  # it counts down by itself

    console = browser.new_context(locale="en-GB").new_page()
    console.goto(f"{daphne_url}/login/")
    console.fill("#id_username", "td-clock")
    console.fill("#id_password", "pw-td-clock")
    console.click("button[type=submit]")
    console.goto(f"{daphne_url}/t/{tournament.slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    console.keyboard.press("Space")  # the console's shortcut: pause

    for page in screens:
        page.wait_for_function("document.body.dataset.clockStatus === 'paused'", timeout=3000)
    stopped = _countdowns(first, second)
    time.sleep(1.5)
    assert _countdowns(first, second) == stopped
    assert stopped[0] == stopped[1]
    assert first.inner_text("[data-status]") == "Paused"
    tournament.refresh_from_db()
    assert tournament.clock_status == "paused"


def test_a_screen_keeps_counting_and_says_so_when_the_socket_is_gone(live_server, page):
    """live_server speaks no WebSocket: the screen counts from the state in its page and
    shows that it is reconnecting."""
    td = make_user("td-offline", staff=True)
    tournament = make_tournament(td, tables=1)
    clock_services.clock_start(tournament=tournament, actor=td, now=timezone.now())
    page.goto(f"{live_server.url}/p/{tournament.slug}/")
    page.wait_for_selector("[data-sync][data-state=reconnecting]")
    before = page.inner_text("[data-testid=countdown]")
    time.sleep(1.2)
    assert page.inner_text("[data-testid=countdown]") != before


def test_a_screen_rolls_over_to_the_next_level_by_itself_and_announces_it(live_server, page):
    """No push needed: the screen knows the structure and shows the new level, with a
    banner, when its own count reaches zero (TDA-23)."""
    td = make_user("td-roll", staff=True)
    tournament = make_tournament(td, tables=1)
    level_one = dt.timedelta(minutes=20)
    clock_services.clock_start(
        tournament=tournament, actor=td, now=timezone.now() - level_one + dt.timedelta(seconds=3)
    )
    page.goto(f"{live_server.url}/p/{tournament.slug}/")
    assert page.inner_text("[data-level]") == "Level 1"
    assert page.inner_text("[data-testid=countdown]") in {"00:03", "00:02", "00:01"}
    page.wait_for_function(
        "document.querySelector('[data-level]').textContent === 'Level 2'", timeout=6000
    )
    assert page.inner_text("[data-blinds]") == "200 / 400"
    assert page.inner_text("[data-testid=countdown]")[:3] in {"20:", "19:"}
    banner = page.locator("[data-banner]")
    assert banner.is_visible() and "200 / 400" in banner.inner_text()
    # The next break is one level away now, and its colour-up is announced.
    assert page.inner_text("[data-next-break]")[:3] in {"20:", "19:"}
    assert "25" in page.inner_text("[data-color-up]")


def test_a_room_move_shows_on_the_seating_board_and_both_tablets(daphne_url, browser):
    """The floor moves a player: the board highlights him and both tables' tablets list it."""
    from tests.conftest import NOW, make_player
    from tournaments import services
    from tournaments.models import DisplayScreen

    td = make_user("td-move", staff=True)
    tournament = make_tournament(td, tables=2)
    reg = services.entry_register(
        tournament=tournament, player=make_player("Ugo", "Neri"), actor=td, now=NOW
    )
    target = 2 if reg.table == 1 else 1
    screens = {
        "board": DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating"),
        "from": DisplayScreen.objects.create(
            tournament=tournament, name="From", kind="table", table_number=reg.table
        ),
        "to": DisplayScreen.objects.create(
            tournament=tournament, name="To", kind="table", table_number=target
        ),
    }
    pages = {}
    for key, screen in screens.items():
        page = browser.new_context(locale="en-GB").new_page()
        page.set_default_timeout(10000)
        page.goto(f"{daphne_url}/s/{screen.token}/")
        page.wait_for_selector("[data-sync][data-state=ok]")
        pages[key] = page

    services.seat_move(
        tournament=tournament,
        entry=reg.entry,
        table_number=target,
        seat=5,
        actor=td,
        now=timezone.now(),
    )
    for key, page in pages.items():
        page.wait_for_function(
            "document.querySelector('[data-moves]').textContent.includes('Neri')", timeout=5000
        )
        assert f"{target} · 5" in page.inner_text("[data-moves]"), key

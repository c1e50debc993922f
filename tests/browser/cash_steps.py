"""Steps shared by the cash room's and the pit's Chromium tests: a screen in a language at a
size, a staff login, names put on a list, the time a call or a sit-out has been running,
and a coup entered at the pit."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.utils import timezone

from room.models import CashSeat, WaitEntry
from room.services import cash_lists
from tests.conftest import make_player

SHOTS = Path("var/screenshots")
LIVE = 3000  # ms: what a screen may take to show an action pushed by another screen
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def screen(browser, locale: str, viewport: dict | None = None, **options):
    """A new browser window (its own cookies) speaking `locale`."""
    context = browser.new_context(locale=locale, viewport=viewport or TABLET, **options)
    page = context.new_page()
    page.set_default_timeout(10000)
    return page


def live(page) -> None:
    """Wait until the cash page's socket has joined the room: a change made before that is
    not pushed to it (the page shows the state as drawn, and every later change)."""
    page.wait_for_function("() => document.body.dataset.cashSocket === 'open'")


def login(page, url: str, username: str) -> None:
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


def listed(game, names, actor, now, last: str = "Rossi"):
    """Players (first names, or (first, last) pairs) on the game's list, here in person."""
    players = []
    for name in names:
        first, surname = name if isinstance(name, tuple) else (name, last)
        player = make_player(first, surname)
        cash_lists.list_add(actor=actor, player=player, games=[game], present=True, now=now)
        players.append(player)
    return players


def call_runs_for(entry: WaitEntry, minutes: int) -> None:
    """The server's clock has run `minutes` since the call (and since "coming", if he
    answered): browser tests keep real time, so the call is dated that much earlier."""
    earlier = timezone.now() - timedelta(minutes=minutes)
    WaitEntry.objects.filter(pk=entry.pk).update(
        called_at=earlier, coming_at=earlier if entry.coming else None
    )


def sit_out_over(seat: CashSeat, minutes: int) -> None:
    """The sit-out ran out `minutes` ago on the server's clock."""
    CashSeat.objects.filter(pk=seat.pk).update(
        sit_out_until=timezone.now() - timedelta(minutes=minutes)
    )


def coup(page, dealer: str, boxes: list[tuple[str, str]], other_boxes: str = "0") -> None:
    """Enter a blackjack coup (the Banco's cards, each box's hands and bet) and settle it."""
    page.fill("#id_dealer", dealer)
    for n in range(3):
        hands, amount = boxes[n] if n < len(boxes) else ("", "")
        page.fill(f"#id_box-{n}-hands", hands)
        page.fill(f"#id_box-{n}-amount", amount)
    page.select_option("#id_other_boxes", other_boxes)
    page.click("button[value=settle]")


class Dialogs:
    """Every question the page asks (confirm()), kept and answered: yes unless told no."""

    def __init__(self, page) -> None:
        self.asked: list[str] = []
        self.accept = True
        page.on("dialog", self._answer)

    def _answer(self, dialog) -> None:
        self.asked.append(dialog.message)
        if self.accept:
            dialog.accept()
        else:
            dialog.dismiss()

"""The lists on a real evening in Chromium, in English and Italian: the opening form of a
second game shows who already plays and does not tick him (ticked anyway: a message, not
an error page); a seat out of list order asks for its reason; a call that ran out refuses
"I'm coming" on the phone, and the floor sends the name to the bottom from the board, where
a player on his way shows the countdown to reach the table."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import CashSeat, CashTable, RoomRole, RoomStaff, WaitEntry
from tables.services import cash as services
from tables.views.cash import phone_token
from tests.conftest import make_cash_game, make_player, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "plays": "T1 seat",
        "open": "Open: draw seats and the button",
        "refused": "already playing: Rossi Anna at table 1",
        "opened": "Table 2 is open",
        "seat": "Seat",
        "order": "Rossi Anna comes before Rossi Elena on the list",
        "seated": "Rossi Elena sits at table 2",
        "late": "The time to answer has run out: ask the floor.",
        "coming": "I'm coming",
        "bottom": "No answer: to the bottom",
    },
    "it-IT": {
        "plays": "T1 posto",
        "open": "Apri: sorteggia posti e bottone",
        "refused": "stanno già giocando: Rossi Anna al tavolo 1",
        "opened": "Il tavolo 2 è aperto",
        "seat": "Posto",
        "order": "Rossi Anna viene prima di Rossi Elena in lista",
        "seated": "Rossi Elena siede al tavolo 2",
        "late": "Il tempo per rispondere è scaduto: chiedi al floor.",
        "coming": "Arrivo",
        "bottom": "Nessuna risposta: in fondo",
    },
}


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


def _listed(game, names, actor, now):
    players = []
    for name in names:
        player = make_player(name, "Rossi")
        services.list_add(actor=actor, player=player, games=[game], present=True, now=now)
        players.append(player)
    return players


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_lists_on_a_real_evening(daphne_url, browser, locale, tmp_path):
    words = WORDS[locale]
    now = timezone.now()
    floor = make_user("flowfloor")
    RoomStaff.objects.create(user=floor, role=RoomRole.CASH)
    nl = make_cash_game(floor, now=now, sb=1, bb=2, min_buy_in=100)
    plo = make_cash_game(floor, now=now, variant="Omaha", structure="pot_limit", sb=1, bb=2)
    anna, bruno = _listed(nl, ["Anna", "Bruno"], floor, now)
    services.list_add(actor=floor, player=anna, games=[plo], present=True, now=now)
    carla, dario = _listed(plo, ["Carla", "Dario"], floor, now)
    services.table_open(
        actor=floor,
        game=nl,
        number=1,
        present={anna.pk, bruno.pk},
        now=now,
        rng=random.Random(1),
    )
    board = browser.new_context(locale=locale, viewport={"width": 1024, "height": 768}).new_page()
    board.set_default_timeout(10000)
    _login(board, daphne_url, "flowfloor")
    board.goto(f"{daphne_url}/room/cash/")

    # 1. The Omaha opening form says where Anna plays and leaves her unticked.
    game = f"[data-testid=game-{plo.pk}]"
    assert words["plays"] in board.text_content(f"{game} [data-testid=playing-{anna.pk}]")
    board.click(f"{game} details:has(input[name=number]) > summary")
    assert not board.is_checked(f"{game} input[name=present][value='{anna.pk}']")
    assert board.is_checked(f"{game} input[name=present][value='{carla.pk}']")
    # Ticked anyway: a message on the board, nothing opened.
    board.check(f"{game} input[name=present][value='{anna.pk}']")
    board.fill(f"{game} input[name=number]", "2")
    board.click(f"{game} button:has-text('{words['open']}')")
    board.wait_for_selector(f"text={words['refused']}")
    assert not CashTable.objects.filter(number=2).exists()
    # With the form's own ticks it opens.
    board.click(f"{game} details:has(input[name=number]) > summary")
    board.fill(f"{game} input[name=number]", "2")
    board.click(f"{game} button:has-text('{words['open']}')")
    board.wait_for_selector(f"text={words['opened']}")
    board.screenshot(path=str(tmp_path / f"board-{locale}.png"), full_page=True)

    # 2. Elena, below Dario, is seated out of order: the reason is asked, then logged.
    (elena,) = _listed(plo, ["Elena"], floor, timezone.now())
    table = CashTable.objects.get(number=2)
    free = [s for s in range(1, 10) if not table.seats.filter(number=s).exists()]
    board.reload()
    board.on("dialog", lambda dialog: dialog.accept())  # "names are ahead of him: seat him?"
    menu = f"[data-testid=entry-menu-{elena.pk}] > summary"
    row = f"[data-testid=entry-{elena.pk}] form[action$='/seat/']"
    board.click(menu)
    board.fill(f"{row} input[name=seat]", str(free[0]))
    board.click(f"{row} button:text-is('{words['seat']}')")
    board.wait_for_selector(f"text={words['order']}")
    assert not CashSeat.objects.filter(player=elena).exists()
    board.click(menu)
    board.fill(f"{row} input[name=seat]", str(free[0]))
    board.fill(f"{row} input[name=reason]", "Anna and Dario at dinner")
    board.click(f"{row} button:text-is('{words['seat']}')")
    board.wait_for_selector(f"text={words['seated']}")

    # 3. Anna, top of the list, is called; her time runs out before she answers.
    (fabio,) = _listed(plo, ["Fabio"], floor, timezone.now())
    entry = services.list_call(actor=floor, table=table, seat=free[1], now=timezone.now())
    assert entry.player == anna
    WaitEntry.objects.filter(pk=entry.pk).update(called_at=timezone.now() - timedelta(minutes=16))
    phone = browser.new_context(locale=locale).new_page()
    phone.goto(f"{daphne_url}/room/cash/me/{phone_token(anna)}/")
    assert words["late"] in phone.text_content("[data-testid=seat-ready]")
    assert phone.locator(f'button:has-text("{words["coming"]}")').count() == 0
    board.reload()
    assert board.text_content(f"[data-testid=call-countdown-{anna.pk}]") == "0:00"
    assert words["bottom"] in board.text_content(f"[data-testid=to-bottom-{anna.pk}]")
    board.click(f"[data-testid=to-bottom-{anna.pk}]")
    board.wait_for_function(f"() => !document.querySelector('[data-testid=to-bottom-{anna.pk}]')")
    order = [e.player_id for e in WaitEntry.objects.filter(game=plo).order_by("position")]
    assert order == [fabio.pk, anna.pk]

    # Fabio is called and says he is coming: the board counts down his time to arrive.
    called = services.list_call(actor=floor, table=table, seat=free[1], now=timezone.now())
    assert called.player == fabio
    services.list_answer(actor=None, entry=called, takes_seat=True, now=timezone.now())
    board.reload()
    countdown = board.text_content(f"[data-testid=call-countdown-{fabio.pk}]")
    assert countdown.startswith(("15:00", "14:5")), countdown
    board.screenshot(path=str(tmp_path / f"board-called-{locale}.png"), full_page=True)

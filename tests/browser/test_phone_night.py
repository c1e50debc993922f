"""A player's evening on his phone, in real Chromium, in English and in Italian: he reserves
from the public page, arrives, and the desk registers him from his reservation in one
keystroke; on his phone (the record his reservation made) he turns notifications on and is
told at once where he sits (the draw at the desk came before his phone was on). His
table breaks: the push is signed, encrypted, received and decrypted by the local push
service, and delivered to his service worker, which shows it. Later his cash seat is called
and "need 5 more minutes", tapped on the notification, moves his timer on the cash board.
"""

from __future__ import annotations

from random import Random

import pytest
from django.utils import timezone

from room.models import PushSubscription, WaitEntry
from room.selectors import cash as cash_reads
from room.services import cash_lists, cash_tables
from tests.browser import cash_steps as steps
from tests.browser import phone_steps
from tests.conftest import NOW, _staff, make_cash_game, make_player, make_room_user, make_tournament
from tests.tournaments.services.test_moves import seat_players
from tournaments.models import Entry, Reservation, Role, Seat
from tournaments.services import hands as hands_services
from tournaments.services import moves as room_services

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("notices_in_process"),
]

WORDS = {
    "en-GB": {
        "held": "Your seat is held",
        "seat": "Your seat",
        "table": "Table",
        "on": "Notifications are on for this phone.",
        "broken": "Your table is broken",
        "ready": "Your seat is ready",
        "kept": "Your seat is kept: be at the table by",
    },
    "it-IT": {
        "held": "Il tuo posto è tenuto",
        "seat": "Il tuo posto",
        "table": "Tavolo",
        "on": "Le notifiche sono attive su questo telefono.",
        "broken": "Il tuo tavolo è chiuso",
        "ready": "Il tuo posto è pronto",
        "kept": "Il posto è tenuto per te: sii al tavolo entro le",
    },
}


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_a_reserved_players_night_on_his_phone(daphne_url, browser, push_service, locale):
    words = WORDS[locale]
    td = make_room_user(f"td-night-{locale}", "manager")
    floor = make_room_user(f"cash-night-{locale}", "cash")
    # Tonight's event, reservable: twelve players at tables 1 and 2, one at table 3, the
    # table with the fewest players, where the desk's draw will seat him.
    event = make_tournament(
        td,
        tables=3,
        name=f"Deepstack {locale}",
        date=timezone.localdate(),
        reservations_open=True,
        reservable_seats=20,
    )
    seat_players(event, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2]})
    hands_services.buttons_draw(tournament=event, actor=td, now=NOW, rng=Random(7))
    desk = _staff(event, f"desk-night-{locale}", Role.DESK)

    # He reserves from the public page; the confirmation carries its QR.
    code, confirmation_url, status = phone_steps.reserve(
        browser, daphne_url, locale, "Giulia", "Marini", "giulia@example.com"
    )
    assert words["held"] in status

    # He arrives: the desk scans his QR and registers him with one keystroke.
    desk_page = steps.screen(browser, locale)
    steps.login(desk_page, daphne_url, desk.username)
    seat_line = phone_steps.register_from_reservation(
        desk_page, daphne_url, event.slug, confirmation_url
    )
    reservation = Reservation.objects.select_related("player", "entry").get(code=code)
    assert reservation.status == Reservation.Status.ARRIVED
    giulia = reservation.player
    assert (giulia.first_name, giulia.last_name) == ("Giulia", "Marini")
    drawn = Seat.objects.select_related("table").get(entry=reservation.entry)
    assert drawn.table.number == 3
    assert words["table"] in seat_line and f"{drawn.table.number}" in seat_line
    desk_page.context.close()

    # On his phone, the page of the record his reservation made: notifications on.
    phone = phone_steps.Phone(browser, daphne_url, locale, push_service.subscription("giulia"))
    page = phone.page
    page.goto(phone_steps.player_page(daphne_url, giulia))
    page.get_by_test_id("push-on").click()
    page.get_by_test_id("push-says").filter(has_text=words["on"]).wait_for()
    assert PushSubscription.objects.get(player=giulia).language == locale[:2]
    phone.worker()  # the service worker registered and controls his page
    # His seat was drawn before his phone was on: turning it on tells him where he sits,
    # signed, encrypted, received and decrypted, then shown by his service worker.
    [seat] = phone_steps.pushes(push_service, "giulia", 1)
    assert seat["title"] == f"{event.name}: {words['seat']}"
    assert f"{drawn.table.number}" in seat["body"] and f"{drawn.number}" in seat["body"]
    phone.deliver(seat)
    page.get_by_test_id("push-notice").filter(has_text=words["seat"]).wait_for()

    # His table breaks (the floor's plan): the push names the broken table and his new seat.
    room_services.plan_apply(tournament=event, actor=td, now=NOW, rng=Random(7))
    new = Seat.objects.select_related("table").get(entry=reservation.entry)
    assert new.table.number != 3
    broken = phone_steps.pushes(push_service, "giulia", 2)[-1]
    assert broken["title"] == f"{event.name}: {words['broken']}"
    assert "3" in broken["body"]
    assert f"{new.table.number}" in broken["body"] and f"{new.number}" in broken["body"]
    phone.deliver(broken)
    page.get_by_test_id("push-notice").filter(has_text=words["broken"]).wait_for()
    phone.shown(broken["title"], pushed=broken)
    assert [n["title"] for n in phone.notifications()][-1] == broken["title"]

    # Later, the cash list: a table of two open, he waits; the floor's board is live.
    game = make_cash_game(floor)
    seated = [make_player("Seduto", "Uno"), make_player("Seduto", "Due")]
    for p in [*seated, giulia]:
        cash_lists.list_add(actor=floor, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=floor, game=game, number=7, present={p.pk for p in seated}, now=NOW
    )
    board = steps.screen(browser, locale, steps.TABLET)
    steps.login(board, daphne_url, floor.username)
    board.goto(f"{daphne_url}/room/cash/")
    steps.live(board)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    # The call is dated by the server's clock, which the board's countdown runs against.
    cash_lists.list_call(actor=floor, table=table, seat=free, now=timezone.now())
    countdown = board.get_by_test_id(f"call-countdown-{giulia.pk}")
    countdown.wait_for()
    before = int(countdown.get_attribute("data-countdown"))
    call = push_service.for_browser("giulia")[-1]
    assert call["title"] == words["ready"]
    assert f"{table.number}" in call["body"] and f"{free}" in call["body"]
    phone.deliver(call)
    assert phone.shown(words["ready"], pushed=call)["actions"][:2] == ["coming", "more"]

    # "Need 5 more minutes" from the notification: the board's timer moves by five minutes.
    reply = phone.tap("more")
    assert reply["ok"] and reply["message"].startswith(words["kept"]), reply
    assert WaitEntry.objects.get(player=giulia).coming
    board.wait_for_function(
        f"""() => {{
          const el = document.querySelector('[data-testid="call-countdown-{giulia.pk}"]');
          return el && parseInt(el.dataset.countdown, 10) >= {before} + 5 * 60 - 10;
        }}"""
    )
    after = int(board.get_by_test_id(f"call-countdown-{giulia.pk}").get_attribute("data-countdown"))
    arrival = cash_reads.game_settings(game).arrival_minutes
    assert (arrival + 5) * 60 - 10 <= after <= (arrival + 5) * 60
    page.get_by_test_id("push-notice").filter(has_text=words["kept"]).wait_for()
    assert Entry.objects.filter(tournament=event, player=giulia).count() == 1
    board.context.close()
    phone.context.close()

"""A player's phone in real Chromium, in English and in Italian: he opens his page from the
seat card's link, turns notifications on, and the room's service worker registers; his
table breaks and his cash seat is called, the pushes go to a push service on 127.0.0.1
that checks the room's VAPID signature and decrypts them with the phone's keys
(tests/room/push_service.py), and the decrypted message is delivered to the service worker
through the DevTools protocol (ServiceWorker.deliverPushMessage): the worker shows the
notification and the open page shows it too. "Need 5 more minutes" tapped on the call's
notification moves his timer on the floor's board; offline, the page shows its last known
state marked "last updated".

Headless Chromium has no push service of its own (its PushManager.subscribe() is refused),
so the page's PushManager answers with the subscription the local push service made: the
one link of the chain this machine cannot run. Everything else is the real thing.
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
from tests.conftest import NOW, make_cash_game, make_player, make_room_user, make_tournament
from tests.tournaments.services.test_moves import seat_players
from tournaments.models import Entry, Seat
from tournaments.services import hands as hands_services
from tournaments.services import moves as room_services

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("notices_in_process"),
]

WORDS = {
    "en-GB": {
        "on": "Notifications are on for this phone.",
        "broken": "Sunday Deepstack: Your table is broken",
        "ready": "Your seat is ready",
        "kept": "Your seat is kept: be at the table by",
        "offline": "Offline: last updated at",
    },
    "it-IT": {
        "on": "Le notifiche sono attive su questo telefono.",
        "broken": "Sunday Deepstack: Il tuo tavolo è chiuso",
        "ready": "Il tuo posto è pronto",
        "kept": "Il posto è tenuto per te: sii al tavolo entro le",
        "offline": "Offline: ultimo aggiornamento alle",
    },
}


def _seat_of(entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry)


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_players_phone_is_notified_through_its_service_worker(
    daphne_url, browser, push_service, locale
):
    words = WORDS[locale]
    td = make_room_user("td-phone", "manager")
    floor = make_room_user("cash-phone", "cash")
    # His event: twelve players at three tables; he sits at the third, of two players.
    tournament = make_tournament(td, tables=3)
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5]})
    carla = make_player("Carla", "Verdi")
    Entry.objects.filter(pk=placed[(3, 5)].pk).update(player=carla)
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    # His cash list: a table open with two players, he waits for a seat.
    game = make_cash_game(floor)
    seated = [make_player("Seduto", "Uno"), make_player("Seduto", "Due")]
    for p in [*seated, carla]:
        cash_lists.list_add(actor=floor, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=floor, game=game, number=7, present={p.pk for p in seated}, now=NOW
    )

    phone = phone_steps.Phone(browser, daphne_url, locale, push_service.subscription("carla"))
    page = phone.page
    # The seat card's QR opens his page; he turns notifications on.
    page.goto(phone_steps.player_page(daphne_url, carla))
    page.get_by_test_id("push-on").click()
    page.get_by_test_id("push-says").filter(has_text=words["on"]).wait_for()
    assert PushSubscription.objects.get(player=carla).language == locale[:2]
    phone.worker()  # the service worker registered and controls his page
    # Turning notifications on tells him where he sits now (his seat came before his phone).
    [seat] = phone_steps.pushes(push_service, "carla", 1)
    assert "3" in seat["body"] and "5" in seat["body"]

    # His table breaks: the push is signed, encrypted, received and decrypted here, then
    # delivered to his phone's service worker, which shows it (and the page says it).
    room_services.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    [_seat, broken] = phone_steps.pushes(push_service, "carla", 2)
    new = _seat_of(placed[(3, 5)])
    assert broken["title"] == words["broken"]
    assert f"{new.table.number}" in broken["body"] and f"{new.number}" in broken["body"]
    phone.deliver(broken)
    page.get_by_test_id("push-notice").filter(has_text=words["broken"]).wait_for()
    phone.shown(words["broken"], pushed=broken)
    assert [n["title"] for n in phone.notifications()] == [words["broken"]]

    # The floor's board, live, and his cash seat called.
    board = steps.screen(browser, locale, steps.TABLET)
    steps.login(board, daphne_url, "cash-phone")
    board.goto(f"{daphne_url}/room/cash/")
    steps.live(board)
    free = next(s for s in range(1, 10) if not table.seats.filter(number=s).exists())
    cash_lists.list_call(actor=floor, table=table, seat=free, now=timezone.now())
    countdown = board.get_by_test_id(f"call-countdown-{carla.pk}")
    countdown.wait_for()
    before = int(countdown.get_attribute("data-countdown"))
    call = push_service.for_browser("carla")[-1]
    assert call["title"] == words["ready"]
    phone.deliver(call)
    assert phone.shown(words["ready"], pushed=call)["actions"][:2] == ["coming", "more"]

    # He taps "need 5 more minutes": the service worker posts it to the call's signed
    # address (what its notificationclick handler runs), and the board's timer moves.
    reply = phone.tap("more")
    assert reply["ok"] and reply["message"].startswith(words["kept"]), reply
    entry = WaitEntry.objects.get(player=carla)
    assert entry.coming
    board.wait_for_function(
        f"""() => {{
          const el = document.querySelector('[data-testid="call-countdown-{carla.pk}"]');
          return el && parseInt(el.dataset.countdown, 10) >= {before} + 5 * 60 - 10;
        }}"""
    )
    after = int(board.get_by_test_id(f"call-countdown-{carla.pk}").get_attribute("data-countdown"))
    arrival = cash_reads.game_settings(game).arrival_minutes
    assert (arrival + 5) * 60 - 10 <= after <= (arrival + 5) * 60
    page.get_by_test_id("push-notice").filter(has_text=words["kept"]).wait_for()

    # Offline: his page comes from the phone's copy, marked with its time.
    assert page.get_by_test_id("last-updated").is_hidden()
    phone.context.set_offline(True)
    page.reload()
    mark = page.get_by_test_id("last-updated")
    mark.wait_for()
    assert mark.inner_text().startswith(words["offline"])
    assert page.get_by_test_id("my-seat").count() == 1
    phone.context.set_offline(False)
    board.context.close()
    phone.context.close()

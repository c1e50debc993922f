"""The players' notifications end to end: a phone subscribes on its page, the floor acts,
and the push reaches a push service on 127.0.0.1 (tests/room/push_service.py) that checks
the room's VAPID signature and decrypts the payload with the phone's own keys. Nothing
goes to an outside service; the floor's actions are the real services, their notices go
out after their transactions commit."""

from __future__ import annotations

import datetime as dt
from random import Random

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from room import tokens
from room.models import EmailOptIn, PushSubscription, RoomEvent, WaitEntry
from room.selectors import cash as cash_reads
from room.services import cash_lists, cash_tables, notify
from room.services import people as people_services
from room.tasks import notify_logged
from tests.conftest import NOW, make_cash_game, make_player, make_room_user, make_tournament
from tests.room.push_service import PushService
from tests.tournaments.services.test_moves import seat_players
from tournaments.models import Seat, Table, Tournament
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import hands as hands_services
from tournaments.services import moves as room_services
from tournaments.services import results
from tournaments.services import seats as seat_services

pytestmark = pytest.mark.django_db(transaction=True)

MIN = dt.timedelta(minutes=1)


@pytest.fixture
def push_service():
    service = PushService().start(notify.vapid_public_key())
    yield service
    service.stop()
    assert service.errors == []


def subscribe(client, player, subscription, language: str) -> dict:
    """The phone page's script: the player's browser posts its subscription."""
    client.cookies["django_language"] = language
    url = reverse("room_notify_subscribe", args=[tokens.player_token(player.pk)])
    response = client.post(url, subscription, content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


def open_table(floor, game, number: int):
    """A table of the game open with two players seated from its list (seats 1-9 free
    but theirs)."""
    seated = [make_player("Seduto", f"Primo{number}"), make_player("Seduto", f"Secondo{number}")]
    for p in seated:
        cash_lists.list_add(actor=floor, player=p, games=[game], present=True, now=NOW)
    table = cash_tables.table_open(
        actor=floor, game=game, number=number, present={p.pk for p in seated}, now=NOW
    )
    free = [s for s in range(1, 10) if not table.seats.filter(number=s).exists()]
    return table, free


def _table_of(entry) -> int:
    return Seat.objects.select_related("table").get(entry=entry).table.number


# --- the cash list's call ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "title", "more", "kept"),
    [
        ("en", "Your seat is ready", "Need 5 more minutes", "Your seat is kept"),
        ("it", "Il tuo posto è pronto", "Mi servono altri 5 minuti", "Il posto è tenuto"),
    ],
)
def test_a_cash_call_reaches_the_phone_and_need_5_more_minutes_moves_its_timer(
    client, push_service, language, title, more, kept
):
    floor = make_room_user("cashfloor", "cash")
    game = make_cash_game(floor)
    table, free = open_table(floor, game, 3)
    player = make_player("Carla", "Verdi")
    cash_lists.list_add(actor=floor, player=player, games=[game], present=True, now=NOW)
    subscribe(client, player, push_service.subscription("carla"), language)

    entry = cash_lists.list_call(actor=floor, table=table, seat=free[0], now=timezone.now())

    [payload] = push_service.for_browser("carla")
    assert payload["title"] == title
    assert f"3, {free[0]}" in payload["body"].replace("seat ", "").replace("posto ", "")
    assert [a["action"] for a in payload["actions"]] == ["coming", "more", "cancel"]
    assert payload["actions"][1]["title"] == more
    # The notification's button posts to the call's signed address (the service worker).
    answered_at = timezone.now()
    response = client.post(payload["answer"], {"answer": "more"})
    assert response.status_code == 200 and response.json()["ok"], response.content
    assert response.json()["message"].startswith(kept)
    entry.refresh_from_db()
    status = cash_reads.call_status(entry, answered_at)
    arrival = cash_reads.game_settings(game).arrival_minutes
    # His seat is held 5 minutes longer than "on my way" would hold it.
    assert entry.coming
    held = status.deadline - answered_at  # the clock ticks on: within the answer's trip
    assert dt.timedelta(minutes=arrival + 5) <= held < dt.timedelta(minutes=arrival + 5, seconds=5)
    # The same link cannot answer another call, nor a forged one anything.
    assert client.post(payload["answer"][:-3] + "abc/", {"answer": "cancel"}).status_code == 404


def test_on_my_way_and_cancel_answer_the_call_as_the_floor_would(client, push_service):
    floor = make_room_user("cashfloor", "cash")
    game = make_cash_game(floor)
    table, free = open_table(floor, game, 1)
    anna, bruno = make_player("Anna", "Blu"), make_player("Bruno", "Neri")
    for p in (anna, bruno):
        cash_lists.list_add(actor=floor, player=p, games=[game], present=True, now=NOW)
    subscribe(client, anna, push_service.subscription("anna"), "en")
    subscribe(client, bruno, push_service.subscription("bruno"), "en")
    cash_lists.list_call(actor=floor, table=table, seat=free[0], now=timezone.now())
    cash_lists.list_call(actor=floor, table=table, seat=free[1], now=timezone.now())

    # The Celery task (where a broker runs it) sends the same notices again when asked.
    called = RoomEvent.objects.filter(action="cash.call").order_by("pk").first()
    assert notify_logged("room", called.pk) == 1
    to_anna = push_service.for_browser("anna")[0]
    again = push_service.for_browser("anna")[1]
    assert (again["title"], again["body"]) == (to_anna["title"], to_anna["body"])
    [to_bruno] = push_service.for_browser("bruno")
    assert client.post(to_anna["answer"], {"answer": "coming"}).json()["ok"]
    assert client.post(to_bruno["answer"], {"answer": "cancel"}).json()["ok"]

    anna_entry = WaitEntry.objects.get(player=anna)
    assert anna_entry.coming and anna_entry.called_seat == free[0]
    bruno_entry = WaitEntry.objects.get(player=bruno)
    assert bruno_entry.called_at is None and bruno_entry.locked_out_until is not None
    # A second answer to a call that is over is refused in words, nothing changes.
    again = client.post(to_bruno["answer"], {"answer": "coming"})
    assert again.status_code == 409 and not WaitEntry.objects.get(player=bruno).coming


# --- the tournament ---------------------------------------------------------------------


def test_a_tournament_tells_each_player_his_seat_moves_the_bubble_and_his_prize(
    client, push_service, td
):
    """Seat drawn, seat moved, hand-for-hand on the bubble, in the money, payout ready: in
    the language each player opted in with."""
    tournament = make_tournament(td, tables=2)
    players = [make_player("Gino", f"Bolla{i}") for i in range(6)]
    mover, stayer = players[3], players[0]
    subscribe(client, mover, push_service.subscription("mover"), "en")
    subscribe(client, stayer, push_service.subscription("stayer"), "it")

    entries = [
        entry_services.entry_register(tournament=tournament, player=p, actor=td, now=NOW).entry
        for p in players
    ]
    seat_drawn = push_service.for_browser("mover")[0]
    assert seat_drawn["title"] == "Sunday Deepstack: Your seat"
    assert f"Table {_table_of(entries[3])}" in seat_drawn["body"]
    assert push_service.for_browser("stayer")[0]["title"] == "Sunday Deepstack: Il tuo posto"

    Table.objects.filter(tournament=tournament).update(status="open")
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    for seat, entry in enumerate(entries[3:], start=1):
        seat_services.seat_move(
            tournament=tournament, entry=entry, table_number=2, seat=seat, actor=td, now=NOW
        )
    moved = push_service.for_browser("mover")[-1]
    assert moved["title"] == "Sunday Deepstack: You have been moved"
    assert moved["body"] == "Your new seat: table 2, seat 1."

    Tournament.objects.filter(pk=tournament.pk).update(
        late_registration_level=None, payouts=[5000, 4000, 3000, 2000, 1000]
    )
    tournament.refresh_from_db()
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW + 5 * MIN)
    assert push_service.for_browser("mover")[-1]["title"] == "Sunday Deepstack: The money bubble"
    assert push_service.for_browser("stayer")[-1]["title"] == "Sunday Deepstack: La bolla"

    handforhand_services.h4h_table_done(tournament=tournament, actor=td, table_number=2, now=NOW)
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entries[1])], actor=td, now=NOW + 8 * MIN
    )
    titles = [p["title"] for p in push_service.for_browser("mover")]
    assert "Sunday Deepstack: You are in the money" in titles
    assert "Sunday Deepstack: Sei a premio" in [
        p["title"] for p in push_service.for_browser("stayer")
    ]

    tournament.refresh_from_db()
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entries[0])], actor=td, now=NOW + 9 * MIN
    )
    prize = push_service.for_browser("stayer")[-1]
    assert prize["title"] == "Sunday Deepstack: Il tuo premio è pronto"
    assert "5" in prize["body"] and "1.000 EUR" in prize["body"] and "cassa" in prize["body"]
    # Nobody else's news reached either phone.
    assert not [p for p in push_service.for_browser("mover") if "premio" in p["title"]]


def test_a_broken_table_tells_its_players_their_new_seats(client, push_service, td):
    tournament = make_tournament(td, tables=3)
    placed = seat_players(tournament, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [2, 5]})
    hands_services.buttons_draw(tournament=tournament, actor=td, now=NOW, rng=Random(7))
    mover, stayer = placed[(3, 5)], placed[(1, 1)]
    subscribe(client, mover.player, push_service.subscription("mover"), "it")
    subscribe(client, stayer.player, push_service.subscription("stayer"), "en")
    # Each is told where he sits the moment his phone opts in.
    [seat] = push_service.for_browser("mover")
    assert (seat["title"], seat["body"]) == ("Sunday Deepstack: Il tuo posto", "Tavolo 3, posto 5.")
    assert len(push_service.for_browser("stayer")) == 1

    applied = room_services.plan_apply(tournament=tournament, actor=td, now=NOW, rng=Random(7))

    assert applied.kind == "break" and applied.broken_table == 3
    to = Seat.objects.select_related("table").get(entry=mover)
    [_seat, notice] = push_service.for_browser("mover")
    assert notice["title"] == "Sunday Deepstack: Il tuo tavolo è chiuso"
    assert notice["body"] == (
        f"Il tavolo 3 è chiuso: il tuo nuovo posto è tavolo {to.table.number}, posto {to.number}."
    )
    assert len(push_service.for_browser("stayer")) == 1  # his table stays: nothing more


# --- opt-ins: gone subscriptions, one tap off, e-mail, erasure --------------------------


def test_a_subscription_the_push_service_says_is_gone_is_deleted(client, push_service, td):
    tournament = make_tournament(td, tables=1)
    player = make_player("Lia", "Via")
    subscribe(client, player, push_service.subscription("lia", gone=True), "en")
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    assert not PushSubscription.objects.filter(player=player).exists()


def test_email_notices_carry_a_one_tap_unsubscribe(client, td, settings):
    settings.NOTIFY_BY_EMAIL = True
    tournament = make_tournament(td, tables=1)
    player = make_player("Eva", "Posta")
    page = reverse("room_notify_page", args=[tokens.player_token(player.pk)])
    client.cookies["django_language"] = "en"
    refused = client.post(page + "email/", {"email": "eva@example.org"})
    assert refused.status_code == 302 and not EmailOptIn.objects.exists()  # no consent
    client.post(page + "email/", {"email": "eva@example.org", "consent": "on"})

    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)

    [message] = mail.outbox
    assert message.subject == "Sunday Deepstack: Your seat" and message.to == ["eva@example.org"]
    off = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert off in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    response = client.get(off.removeprefix("http://testserver"))
    assert response.status_code == 200 and b"No more e-mails" in response.content
    assert not EmailOptIn.objects.exists()
    # A mail app's one-click button posts to the same link: answered, nothing left to do.
    posted = client.post(off.removeprefix("http://testserver"), {"List-Unsubscribe": "One-Click"})
    assert posted.status_code == 204


def test_the_phone_page_stops_its_own_notifications_in_one_tap(client, push_service):
    player = make_player("Ugo", "Stop")
    sub = push_service.subscription("ugo")
    reply = subscribe(client, player, sub, "en")
    token = tokens.player_token(player.pk)
    response = client.post(
        reverse("room_notify_unsubscribe", args=[token]),
        {"endpoint": sub["endpoint"]},
        content_type="application/json",
    )
    assert response.json()["ok"] and not PushSubscription.objects.exists()
    # The link the subscription came back with works too (a second tap says it is off).
    assert client.get(reply["off"]).status_code == 200


def test_an_erasure_deletes_the_players_opt_ins(client, push_service, td):
    manager = make_room_user("boss", "manager")
    player, other = make_player("Ada", "Cancellata"), make_player("Bea", "Resta")
    subscribe(client, player, push_service.subscription("ada"), "en")
    subscribe(client, other, push_service.subscription("bea"), "en")
    EmailOptIn.objects.create(
        player=player,
        email="ada@example.org",
        base_url="http://testserver/",
        language="en",
        consented_at=NOW,
    )

    people_services.player_erase(player=player, actor=manager, now=NOW)

    assert not PushSubscription.objects.filter(player=player).exists()
    assert not EmailOptIn.objects.filter(player=player).exists()
    assert PushSubscription.objects.filter(player=other).exists()
    # His signed page opens nothing any more.
    page = reverse("room_notify_page", args=[tokens.player_token(player.pk)])
    assert client.get(page).status_code == 404


def test_a_bad_subscription_is_refused_in_words_and_kept_nowhere(client):
    player = make_player("Zeno", "Rotto")
    url = reverse("room_notify_subscribe", args=[tokens.player_token(player.pk)])
    for body in ("not json", '{"endpoint": "ftp://x", "keys": {"p256dh": "a", "auth": "b"}}'):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400 and response.json()["message"]
    assert not PushSubscription.objects.exists()

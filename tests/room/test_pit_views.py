"""The pit ruling tool: who may use it, a settled coup on the page with its articles, the
ruling saved to the room's log and printed, and bad input refused with a message."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from room.models import RoomEvent
from tests.conftest import make_user
from tournaments.models import RoomRole, RoomStaff

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
PAGES = ["pit_home", "pit_blackjack", "pit_punto_banco", "pit_trainer"]


def _room(username: str, role: str):
    user = make_user(username)
    RoomStaff.objects.create(user=user, role=role)
    return user


@pytest.fixture
def pit(client):
    client.force_login(_room("pit", RoomRole.PIT))
    return client


def _formset(prefix: str, rows: list[dict[str, str]], total: int) -> dict[str, str]:
    data = {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "30",
    }
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{k}": v for k, v in row.items()})
    return data


def pb_post(cards: str, bets: list[dict[str, str]], **extra: str) -> dict[str, str]:
    return {"cards": cards, **_formset("bet", bets, 6), **extra}


def bj_post(dealer: str, boxes: list[dict[str, str]], **extra) -> dict[str, str]:
    data = {
        "dealer": dealer,
        "vs_21": "dealer_wins",
        "insurance_draw": "complete",
        **_formset("box", boxes, 7),
        **_formset("behind", extra.pop("behind", []), 4),
        **_formset("niwin", extra.pop("niwin", []), 3),
    }
    data.update(extra)
    return data


# --- who may use it ---------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_is_sent_to_log_in(client, page):
    response = client.get(reverse(page))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize("page", PAGES)
def test_desk_and_strangers_are_refused(client, page):
    client.force_login(_room("cashier", RoomRole.BOOKS))
    assert client.get(reverse(page)).status_code == 403
    client.force_login(make_user("nobody"))
    assert client.get(reverse(page)).status_code == 403


@pytest.mark.parametrize("page", PAGES)
def test_floor_td_and_superuser_are_allowed(client, page):
    client.force_login(_room("floorman", RoomRole.PIT))
    assert client.get(reverse(page)).status_code == 200
    client.force_login(_room("director", RoomRole.MANAGER))
    assert client.get(reverse(page)).status_code == 200
    boss = get_user_model().objects.create_superuser("boss", password="pw-boss")
    client.force_login(boss)
    assert client.get(reverse(page)).status_code == 200


def test_a_desk_cannot_save_a_ruling(client):
    client.force_login(_room("cashier", RoomRole.BOOKS))
    data = pb_post("Ad Kc 2h 3s 4c Qd", [{"on": "punto", "amount": "100"}], op="save")
    assert client.post(reverse("pit_punto_banco"), data).status_code == 403
    assert not RoomEvent.objects.exists()


# --- settling ---------------------------------------------------------------------------


def test_punto_banco_coup_shows_steps_articles_and_payouts(pit):
    data = pb_post(
        "Tc 3h 2d 3c 9s",
        [
            {"on": "banco", "amount": "25", "player": "Anna"},
            {"on": "winning_number", "number": "6", "amount": "10"},
        ],
    )
    response = pit.post(reverse("pit_punto_banco"), data, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="pit-tool"' in page and "<html" not in page  # the fragment for htmx
    assert "PB Art.14" in page and "table row 6, column 9" in page
    assert "Banco winning with 6 pays half the stake" in page  # PB Art.8.1's words
    assert "12.5" in page and "65" in page
    assert not RoomEvent.objects.exists()  # settling alone logs nothing


def test_blackjack_round_in_italian(pit):
    data = bj_post(
        "6c Th 9s",
        [
            {"hands": "Tc 2d", "amount": "100"},
            {"hands": "9h 5c Kd", "amount": "100"},
        ],
        niwin=[{"score": "25", "amount": "10", "player": "P3"}],
    )
    with translation.override("it"):
        response = pit.post(reverse("pit_blackjack"), data, HTTP_ACCEPT_LANGUAGE="it")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" in page  # the full page without htmx
    assert "BJ Art.6.8" in page and "BJ Art.1.2" in page and "BJ niWin.4" in page
    assert "180" in page  # niWin 25 pays 18:1
    assert "Il Banco sballa con 25." in page  # the step, in Italian
    assert "Il Banco oltre 21: ogni puntata ancora in gioco è pagata 1:1." in page  # Art.6.8


def test_split_and_double_are_read_from_the_cards_line(pit):
    data = bj_post(
        "Tc Ah",
        [
            {"hands": "6d 5s Kh x2", "amount": "100"},
            {"hands": "8s 3c Td x2 / 8h Qc", "amount": "50"},
        ],
    )
    page = pit.post(reverse("pit_blackjack"), data).content.decode()
    assert "-200" in page and "-100" in page and "-50" in page
    assert "BJ Art.6.10" in page


def test_save_logs_the_ruling_and_prints_it(pit):
    data = pb_post(
        "2c Kh 3d 4s 9d",
        [{"on": "egalite", "amount": "10"}],
        op="save",
        note="Table 3, dispute on the tie",
    )
    response = pit.post(reverse("pit_punto_banco"), data)
    event = RoomEvent.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("pit_ruling", args=[event.pk])
    assert event.action == "pit.ruling" and not event.undoable
    assert event.data["game"] == "punto_banco"
    assert event.data["results"][0]["net"] == "80"
    assert event.data["note"] == "Table 3, dispute on the tie"
    page = pit.get(response["Location"]).content.decode()
    assert "data-print" in page and "Table 3, dispute on the tie" in page
    assert "PB Art.8.1" in page
    assert reverse("pit_ruling", args=[event.pk]) in pit.get(reverse("pit_home")).content.decode()


def test_a_saved_blackjack_ruling_prints_its_settings(pit):
    data = bj_post(
        "Kc Ad",
        [{"hands": "5c 6h Ts", "amount": "100"}, {"hands": "Th 9d", "amount": "50"}],
        vs_21="push",
        op="save",
    )
    pit.post(reverse("pit_blackjack"), data)
    event = RoomEvent.objects.get()
    assert event.data["settings"]["bj_dealer_blackjack_vs_21"] == "push"
    assert event.data["results"][1]["lines"][0]["outcome"] == "push"  # B1, paid after B2
    page = pit.get(reverse("pit_ruling", args=[event.pk])).content.decode()
    assert "A player&#x27;s 21 ties the Banco&#x27;s Black-Jack" in page
    assert "Banco Kc Ad, 2 boxes" in pit.get(reverse("pit_home")).content.decode()


def test_save_over_htmx_redirects_the_browser(pit):
    data = pb_post("9c 2h Kd 5s", [{"on": "punto", "amount": "10"}], op="save")
    response = pit.post(reverse("pit_punto_banco"), data, **HX)
    event = RoomEvent.objects.get()
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("pit_ruling", args=[event.pk])


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "bets", "message"),
    [
        ("Ad Kx 2h 3s", [], "“Kx” is not a card"),
        ("Ad Kc 2h", [], "at least the four cards"),
        ("Ad Kc 2h 3s", [{"on": "winning_number", "amount": "5"}], "needs a number"),
        ("Ad Kc 2h 3s", [{"on": "punto", "amount": "-5"}], "greater than or equal to 0"),
        ("Ad Kc 2h 3s", [{"on": "punto", "amount": "lots"}], "Enter a number"),
        ("Ad Kc 2h 3s", [{"on": "nothing", "amount": "5"}], "Select a valid choice"),
        ("Ah Ah Ah Ah Ah Ah Ah", [], "six decks"),
        ("Ad Kc 2h 3s", [], "more cards than written"),
    ],
)
def test_bad_punto_banco_input_is_refused_with_a_message(pit, cards, bets, message):
    data = pb_post(cards, bets, op="save")
    response = pit.post(reverse("pit_punto_banco"), data, **HX)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not RoomEvent.objects.exists()


@pytest.mark.parametrize(
    ("dealer", "boxes", "message"),
    [
        ("9h 8c", [{"hands": "Tc 9d", "amount": "100"}], "At least two boxes"),
        ("9h 8c", [{"hands": "Tc 9z", "amount": "100"}], "“9z” is not a card"),
        (
            "9h",
            [{"hands": "Tc 9d", "amount": "10"}, {"hands": "9s 9d", "amount": "10"}],
            "write the cards he drew",
        ),
        (
            "9h 8c",
            [{"hands": "Tc 5d 9c 2c", "amount": "10"}, {"hands": "9s 9d", "amount": "10"}],
            "already over 21",
        ),
        (
            "9h 8c",
            [
                {"hands": "Tc 9d", "amount": "10", "option": "insurance"},
                {"hands": "9s 9d", "amount": "10"},
            ],
            "only against an ace",
        ),
        ("", [], "This field is required"),
        ("9h 8c", [{"hands": "", "amount": "10"}], "Write the cards of this box"),
    ],
)
def test_bad_blackjack_input_is_refused_with_a_message(pit, dealer, boxes, message):
    response = pit.post(reverse("pit_blackjack"), bj_post(dealer, boxes, op="save"))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not RoomEvent.objects.exists()


def test_a_broken_formset_is_a_400_not_a_500(pit):
    response = pit.post(reverse("pit_blackjack"), {"dealer": "9h 8c"})
    assert response.status_code == 400


def test_a_saved_ruling_of_another_kind_is_not_found(pit):
    other = RoomEvent.objects.create(at="2026-01-01T10:00Z", action="room.undo", data={})
    assert pit.get(reverse("pit_ruling", args=[other.pk])).status_code == 404


# --- the trainer ------------------------------------------------------------------------


def test_trainer_checks_an_answer_and_shows_the_rule(pit):
    from tables.games import trainer

    q = trainer.question("pb_banco_draws", 1234)
    wrong = "no" if q.answer == "yes" else "yes"
    response = pit.post(
        reverse("pit_trainer"), {"kind": "pb_banco_draws", "seed": "1234", "answer": wrong}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Not quite" in page and q.rule in page
    right = pit.post(
        reverse("pit_trainer"),
        {"kind": "bj_payout", "seed": "99", "answer": trainer.question("bj_payout", 99).answer},
    ).content.decode()
    assert "Right." in right
    junk = pit.post(reverse("pit_trainer"), {"kind": "pb_payout", "seed": "x", "answer": "?"})
    assert junk.status_code == 200 and "expired" in junk.content.decode()


@pytest.mark.django_db
def test_the_pit_is_reached_from_the_staff_home_page_by_floor_only(client):
    floor = make_user("pit-floor")
    RoomStaff.objects.create(user=floor, role=RoomRole.PIT)
    desk = make_user("pit-desk")
    RoomStaff.objects.create(user=desk, role=RoomRole.CASH)
    client.force_login(floor)
    assert reverse("pit_home") in client.get(reverse("tournament_list")).content.decode()
    client.force_login(desk)
    assert reverse("pit_home") not in client.get(reverse("tournament_list")).content.decode()

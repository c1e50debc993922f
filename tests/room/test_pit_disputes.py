"""Three pit disputes of a real evening: every refused coup names its article, a dispute
about one box is settled when the other boxes of the round are counted, a Banco card
exposed out of turn is annulled instead of dealt, a split 21 is not a Black-Jack; and cards
are read and shown in the supervisor's language (in Italian "c" is cuori)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from room.models import RoomEvent
from tests.conftest import make_user
from tests.room.test_pit_views import HX, bj_post, pb_post
from tournaments.models import RoomRole, RoomStaff

pytestmark = pytest.mark.django_db


@pytest.fixture
def pit(client):
    user = make_user("pit-boss")
    RoomStaff.objects.create(user=user, role=RoomRole.PIT)
    client.force_login(user)
    return client


def _post(client, name, data, language="en"):
    with translation.override(language):
        return client.post(reverse(name), data, HTTP_ACCEPT_LANGUAGE=language, **HX)


# --- refusals name their article ----------------------------------------------------------


def test_a_doubled_split_ace_is_refused_with_its_article(pit):
    data = bj_post(
        "9h 8c",
        [{"hands": "As 5d x2 / Ah 9c", "amount": "50"}, {"hands": "Tc 9d", "amount": "50"}],
    )
    response = _post(pit, "pit_blackjack", data)
    page = response.content.decode()
    assert response.status_code == 400
    assert "A split ace gets exactly one card and can&#x27;t be doubled" in page
    assert "Double on any two cards (one card only)" in page  # BJ Art.6.4's own words
    assert not RoomEvent.objects.exists()


def test_a_refusal_in_italian_carries_the_article_in_italian(pit):
    data = bj_post("9h 8c", [{"hands": "Tc 9d", "amount": "100"}])
    page = _post(pit, "pit_blackjack", data, "it").content.decode()
    assert "BJ Art.4.1" in page
    assert "Almeno due caselle devono avere una puntata." in page  # the article
    assert "Altre caselle del colpo" in page  # how to count the boxes not entered


def test_a_malformed_card_is_refused_with_the_letters_of_the_language(pit):
    page = _post(pit, "pit_punto_banco", pb_post("9c 8x 2q 3p", []), "it").content.decode()
    assert "“8x” non è una carta" in page and "9f" in page  # an Italian example


# --- one box entered ----------------------------------------------------------------------


def test_one_disputed_box_is_settled_when_the_other_boxes_are_counted(pit):
    data = bj_post("9h 8c", [{"hands": "Tc 9d", "amount": "100"}], other_boxes="2")
    response = _post(pit, "pit_blackjack", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Other boxes with a bet, not entered here: 2" in page
    assert 'data-testid="pit-house">-100<' in page  # 19 against the Banco's 17


def test_one_box_alone_is_still_refused(pit):
    data = bj_post("9h 8c", [{"hands": "Tc 9d", "amount": "100"}], other_boxes="0")
    assert _post(pit, "pit_blackjack", data).status_code == 400


def test_other_boxes_may_leave_the_banco_undrawn(pit):
    """Box 1 busts; the others (not entered) were out too, so the Banco showed only his up
    card: nothing is asked of him."""
    data = bj_post("9h", [{"hands": "Tc 6d 8s", "amount": "100"}], other_boxes="1")
    response = _post(pit, "pit_blackjack", data)
    assert response.status_code == 200
    assert 'data-testid="pit-house">100<' in response.content.decode()


# --- a card exposed out of turn -----------------------------------------------------------


def test_the_banco_card_exposed_before_the_players_acted_is_annulled(pit):
    """The dealer showed Th as his second card before the boxes played: BJ Art.10.2 annuls
    it and his hand goes on with 9s 4d (19), so the two 18s lose; dealt in order it was 6 10
    9 = 25 and the house paid every box."""
    boxes = [{"hands": "Tc 8d", "amount": "100"}, {"hands": "9h 9d", "amount": "100"}]
    data = bj_post("6c Th* 9s 4d", boxes)
    response = _post(pit, "pit_blackjack", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="pit-house">200<' in page
    assert "Th came out as the Banco&#x27;s card 2, exposed by mistake before its turn" in page
    assert "BJ Art.10.2" in page
    response = _post(pit, "pit_blackjack", {**data, "op": "save", "note": "T3"})
    event = RoomEvent.objects.get(action="pit.ruling")
    assert event.data["exposed"] == ["Th"]
    assert event.data["dealer"]["cards"] == ["6c", "9s", "4d"]
    saved = pit.get(reverse("pit_ruling", args=[event.pk])).content.decode()
    assert "Exposed by mistake before their turn, annulled: Th" in saved


def test_a_box_card_cannot_be_marked_exposed(pit):
    data = bj_post("9h 8c", [{"hands": "Tc* 9d", "amount": "100"}, {"hands": "9s 9d"}])
    response = _post(pit, "pit_blackjack", data)
    assert response.status_code == 400
    assert "Only the Banco" in response.content.decode()


# --- a split 21 ---------------------------------------------------------------------------


def test_ace_and_king_after_a_split_is_21_not_a_black_jack(pit):
    data = bj_post(
        "Td 9h",
        [{"hands": "As Kc / Ad 5h", "amount": "100"}, {"hands": "Tc 9d", "amount": "100"}],
    )
    page = _post(pit, "pit_blackjack", data).content.decode()
    assert "Box 1, hand 1: As Kc = 21, not a Black-Jack (a split hand)." in page
    assert "150" not in page  # paid 1:1, never 3:2


# --- cards in Italian ---------------------------------------------------------------------


def test_in_italian_c_is_cuori_and_cards_show_their_suit_symbol(pit):
    bets = [{"on": "punto", "amount": "10"}]
    response = _post(pit, "pit_punto_banco", pb_post("9c Kf Tq 8p", bets), "it")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Punto 9♥ 10♦, Banco K♣ 8♠." in page
    _post(pit, "pit_punto_banco", pb_post("9c Kf Tq 8p", bets, op="save"), "it")
    assert RoomEvent.objects.get().data["cards"] == ["9h", "Kc", "Td", "8s"]


def test_in_italian_english_letters_that_mean_nothing_else_are_still_read(pit):
    page = _post(pit, "pit_punto_banco", pb_post("9h Ks Td 8p", []), "it").content.decode()
    assert "Punto 9♥ 10♦, Banco K♠ 8♠." in page


def test_in_english_c_is_still_clubs(pit):
    page = _post(pit, "pit_punto_banco", pb_post("9c 8s Td 8h", [])).content.decode()
    assert "Punto 9c Td, Banco 8s 8h." in page


@pytest.mark.parametrize(
    ("dealer", "other", "message"),
    [
        ("*", "0", "“*” is not a card"),
        ("Th*", "0", "Write at least the Banco&#x27;s up card."),
        ("9h 8c", "7", "Select a valid choice"),
        ("9h 8c", "x", "Select a valid choice"),
    ],
)
def test_bad_marks_and_counts_are_refused_with_a_message(pit, dealer, other, message):
    data = bj_post(dealer, [{"hands": "Tc 9d", "amount": "100"}], other_boxes=other, op="save")
    response = _post(pit, "pit_blackjack", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not RoomEvent.objects.exists()


def test_an_exposed_up_card_lets_the_next_card_be_the_up_card(pit):
    boxes = [{"hands": "Tc 8d", "amount": "100"}, {"hands": "9h 9d", "amount": "100"}]
    page = _post(pit, "pit_blackjack", bj_post("Ah* 9c Tc", boxes)).content.decode()
    assert "Banco&#x27;s up card 9c; no hole card." in page
    assert 'data-testid="pit-house">200<' in page

"""The bust at a table asks who won the hand in a bounty event and awards the bounty in
the same action, from the floor's table page and from the table's tablet."""

from __future__ import annotations

import pytest
from django.urls import reverse

from room.services import accounts
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments.events import can_undo
from tournaments.models import BountyAward, DisplayScreen, Entry, Event, Seat
from tournaments.selectors import formats as format_selectors
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def pko(td, tables=1):
    return make_tournament(
        td,
        tables=tables,
        bounty_format="progressive",
        bounty_part_cents=5000,
        buy_in_prize=50,
        buy_in_fee=15,
    )


def seated(tournament, td, n):
    for _ in range(n):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    return {s.number: s.entry for s in Seat.objects.filter(table__tournament=tournament)}


def test_the_floor_busts_a_player_and_awards_his_bounty_by_seat_in_one_action(client, td):
    tournament = pko(td)
    seats = seated(tournament, td, 4)
    out, a, b = sorted(seats)[:3]
    client.force_login(td)
    table_page = client.get(reverse("room_table", args=[tournament.slug, 1])).content.decode()
    assert reverse("floor_bust", args=[tournament.slug, 1]) in table_page
    form = client.get(reverse("floor_bust", args=[tournament.slug, 1])).content.decode()
    assert 'name="won"' in form and str(seats[out].player) in form
    # A split pot: two winners share it.
    response = client.post(
        reverse("floor_bust", args=[tournament.slug, 1]), {"out": [out], "won": [a, b]}
    )
    assert response.status_code == 302
    seats[out].refresh_from_db()
    assert seats[out].status == Entry.Status.ELIMINATED
    awards = BountyAward.objects.filter(eliminated=seats[out], voided=False)
    assert {w.winner_id for w in awards} == {seats[a].pk, seats[b].pk}
    assert sum(w.cash_cents + w.head_cents for w in awards) == 5000
    # Nothing left waiting: every bounty is on a head still in play or paid.
    assert (
        format_selectors.bounty_board(tournament)["in_play"] + sum(w.cash_cents for w in awards)
        == 4 * 5000
    )


def test_a_bust_without_a_winner_in_a_bounty_event_is_refused_and_changes_nothing(client, td):
    tournament = pko(td)
    seats = seated(tournament, td, 3)
    out = min(seats)
    client.force_login(td)
    url = reverse("floor_bust", args=[tournament.slug, 1])
    for data in (
        {"out": [out]},
        {"out": [out], "won": [out]},
        {"out": ["x"]},
        {"out": [99], "won": [2]},
    ):
        response = client.post(url, data)
        assert response.status_code == 200
    assert not Entry.objects.filter(status="eliminated").exists()
    assert not BountyAward.objects.exists()


def test_the_tablet_busts_at_its_own_table_only(client, td):
    tournament = pko(td)
    seats = seated(tournament, td, 3)
    out, winner = sorted(seats)[:2]
    tablet = DisplayScreen.objects.create(
        tournament=tournament, kind=DisplayScreen.Kind.TABLE, table_number=1
    )
    page = client.get(reverse("screen", args=[tablet.token])).content.decode()
    assert reverse("tablet_bust", args=[tablet.token]) in page
    response = client.post(
        reverse("tablet_bust", args=[tablet.token]), {"out": [out], "won": [winner]}
    )
    assert response.status_code == 302
    assert BountyAward.objects.get(eliminated=seats[out]).winner_id == seats[winner].pk


def test_a_foreign_table_answers_404(client, td, outsider):
    tournament = pko(td)
    seated(tournament, td, 2)
    client.force_login(td)
    assert client.get(reverse("floor_bust", args=[tournament.slug, 7])).status_code == 404
    client.force_login(outsider)
    assert client.post(
        reverse("floor_bust", args=[tournament.slug, 1]), {"out": [1]}
    ).status_code in (403, 404)


def _dealer_unlocks(client, td, tournament, number):
    """A floor of the event unlocks table `number`'s dealer tablet with his PIN."""
    manager = make_manager(make_user("boss"))
    accounts.account_create(actor=manager, username="gigi", password="Tavolo-Verde-42", now=NOW)
    accounts.role_give(actor=manager, tournament=tournament, username="gigi", role="floor", now=NOW)
    accounts.pin_set(actor=manager, username="gigi", pin="4711", now=NOW)
    url = reverse("pin_unlock", args=[tournament.slug, number])
    response = client.post(url, {"username": "gigi", "pin": "4711"})
    assert response["Location"] == reverse("dealer_tablet", args=[tournament.slug, number])


def test_the_pin_dealer_tablet_busts_at_its_own_table_and_awards_the_bounty(client, td):
    tournament = pko(td, tables=2)
    seats = seated(tournament, td, 4)
    at_one = {n: e for n, e in seats.items() if e.seat.table.number == 1}
    out, winner = sorted(at_one)[:2]
    _dealer_unlocks(client, td, tournament, 1)
    tablet = client.get(reverse("dealer_tablet", args=[tournament.slug, 1])).content.decode()
    url = reverse("dealer_bust", args=[tournament.slug, 1])
    assert url in tablet
    form = client.get(url).content.decode()
    assert 'name="won"' in form and str(at_one[out].player) in form
    response = client.post(url, {"out": [out], "won": [winner]})
    assert response["Location"] == reverse("dealer_tablet", args=[tournament.slug, 1])
    award = BountyAward.objects.get(eliminated=at_one[out], voided=False)
    assert award.winner_id == at_one[winner].pk
    # Another table's dialog is not this tablet's: refused, nothing written.
    assert client.get(reverse("dealer_bust", args=[tournament.slug, 2])).status_code == 403
    assert (
        client.post(
            reverse("dealer_bust", args=[tournament.slug, 2]), {"out": [1], "won": [2]}
        ).status_code
        == 403
    )
    assert Entry.objects.filter(status="eliminated").count() == 1


def test_a_bust_with_its_bounty_is_one_action_to_undo(client, td):
    tournament = pko(td)
    seats = seated(tournament, td, 4)
    out, a, b = sorted(seats)[:3]
    client.force_login(td)
    client.post(reverse("floor_bust", args=[tournament.slug, 1]), {"out": [out], "won": [a, b]})
    rows = Event.objects.filter(action__in=["entry.eliminate", "bounty.award"])
    undoable = [e for e in rows if can_undo(e)]
    assert [e.action for e in undoable] == ["entry.eliminate"]
    in_play = format_selectors.bounty_board(tournament)["in_play"]
    assert in_play < 4 * 5000  # the cash half of his bounty was paid out
    response = client.post(reverse("event_undo", args=[tournament.slug, undoable[0].pk]))
    assert response.status_code in (200, 302)
    seats[out].refresh_from_db()
    assert seats[out].status == Entry.Status.ACTIVE
    assert not BountyAward.objects.filter(voided=False).exists()
    assert format_selectors.bounty_board(tournament)["in_play"] == 4 * 5000
    for entry in Entry.objects.all():
        assert entry.bounty_cents in (None, 5000)

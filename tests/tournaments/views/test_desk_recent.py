"""The desk's Latest entries list: newest first, each with its player, table and seat, and
the count of entries and players left; both follow the floor (a registration, a
bust-out, an undo, a rename) on the next page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments.events import event_undo
from tournaments.models import Event, Seat
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


def _rows(client, tournament) -> list[list[str]]:
    """The list's rows as the desk reads them: number, player, table, seat."""
    page = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    body = page.split("Latest entries")[1].split("<tbody>")[1].split("</tbody>")[0]
    rows = []
    for row in body.split("<tr>")[1:]:
        cells = [c.split("</td>")[0] for c in row.split("<td")[1:]]
        rows.append([c.split(">", 1)[1].strip() for c in cells[:4]])
    return rows


def _figures(client, tournament) -> str:
    page = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    return page.split("Latest entries")[1].split('<p class="muted">')[1].split("</p>")[0]


def _where(entry) -> list[str]:
    seat = Seat.objects.select_related("table").get(entry=entry)
    return [str(seat.table.number), str(seat.number)]


def test_the_latest_entries_follow_registrations_bust_outs_and_undo(client, tournament, td):
    client.force_login(td)
    assert "No entries yet." in client.get(reverse("desk", args=[tournament.slug])).content.decode()
    assert _figures(client, tournament) == "0 entries, 0 players left"

    first = entry_services.entry_register(
        tournament=tournament, player=make_player("Ada", "Riva"), actor=td, now=NOW
    ).entry
    second = entry_services.entry_register(
        tournament=tournament, player=make_player("Bea", "Sala"), actor=td, now=NOW
    ).entry
    assert _rows(client, tournament) == [
        ["2", "Sala Bea", *_where(second)],
        ["1", "Riva Ada", *_where(first)],
    ]
    assert _figures(client, tournament) == "2 entries, 2 players left"

    # Out: still listed, with no seat.
    entry_services.entry_eliminate(tournament=tournament, entry=first, actor=td, now=NOW)
    assert _rows(client, tournament)[1] == ["1", "Riva Ada", "—", "—"]
    assert _figures(client, tournament) == "2 entries, 1 player left"

    # A registration undone is no longer an entry.
    event = Event.objects.get(action="entry.register", data__entry=second.pk)
    event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
    assert [row[0] for row in _rows(client, tournament)] == ["1"]
    assert _figures(client, tournament) == "1 entry, 0 players left"

    # A rename shows on the next page.
    first.player.last_name = "Rivetti"
    first.player.save()
    assert _rows(client, tournament)[0][1] == "Rivetti Ada"


def test_a_re_entry_is_marked_and_only_the_latest_ten_are_listed(client, td):
    from tests.conftest import make_tournament

    tournament = make_tournament(td, reentry_allowed=True, max_entries=3)
    client.force_login(td)
    player = make_player("Ada", "Riva")
    first = entry_services.entry_register(
        tournament=tournament, player=player, actor=td, now=NOW
    ).entry
    entry_services.entry_eliminate(tournament=tournament, entry=first, actor=td, now=NOW)
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    latest = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    latest = latest.split("Latest entries")[1]
    assert latest.count('class="badge">re-entry') == 1
    assert latest.index("<td>2</td>") < latest.index("re-entry") < latest.index("<td>1</td>")
    for _ in range(10):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    rows = _rows(client, tournament)
    assert [row[0] for row in rows] == [str(n) for n in range(12, 2, -1)]
    page = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    assert "re-entry" not in page.split("Latest entries")[1]  # entry 2 is no longer listed
    entry_services.entry_register(tournament=tournament, player=make_player(), actor=td, now=NOW)
    assert _rows(client, tournament)[0][0] == "13"

"""Long lists at a big event are shown a page at a time, with the whole list one click
away: the results (public and staff), the event log, the clock console's recent actions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


def finish(tournament, n: int, *, playing: int = 5) -> list[Entry]:
    """`n` entries out with places (the last place first), `playing` still in."""
    total = n + playing
    entries = [
        Entry.objects.create(
            tournament=tournament,
            player=make_player(last=f"Out{number:04d}"),
            number=number,
            chips=0 if number <= n else 30000,
            status=Entry.Status.ELIMINATED if number <= n else Entry.Status.ACTIVE,
            place=total - number + 1 if number <= n else None,
            ended_at=NOW if number <= n else None,
            created_at=NOW,
        )
        for number in range(1, total + 1)
    ]
    return entries[:n]


def rows_of(html: str) -> list[str]:
    """The players' names listed, in order."""
    return [part.split("<")[0] for part in html.split("Out")[1:]]


def test_the_public_results_show_100_places_a_page_and_all_on_asking(client, tournament):
    out = finish(tournament, 130)
    url = reverse("public_results", args=[tournament.slug])

    first = client.get(url).content.decode()
    assert "Rows 1–100 of 130." in first
    assert 'href="?page=2"' in first and 'href="?all=1"' in first
    names = rows_of(first)
    # Best place first: place 6 (entry 130) leads, place 105 closes the page.
    assert len(names) == 100 and names[0].startswith("0130") and names[-1].startswith("0031")

    second = client.get(url, {"page": "2"}).content.decode()
    assert "Rows 101–130 of 130." in second and 'href="?page=1"' in second
    assert len(rows_of(second)) == 30 and rows_of(second)[-1].startswith("0001")

    every = client.get(url, {"all": "1"}).content.decode()
    assert len(rows_of(every)) == 130 and "All 130 rows." in every
    assert str(out[0].player) in every

    # Past the end is the last page; junk is the first.
    assert "Rows 101–130 of 130." in client.get(url, {"page": "99"}).content.decode()
    assert "Rows 1–100 of 130." in client.get(url, {"page": "٣"}).content.decode()


def test_a_short_results_list_has_no_pager(client, tournament):
    finish(tournament, 12)
    url = reverse("public_results", args=[tournament.slug])
    for query in ({}, {"all": "1"}, {"page": "2"}):
        html = client.get(url, query).content.decode()
        assert len(rows_of(html)) == 12 and 'data-testid="results-pager"' not in html


def test_a_player_who_re_entered_shows_once_and_not_while_he_plays(client, tournament):
    player = make_player("Anna", "Verdi")
    Entry.objects.create(
        tournament=tournament,
        player=player,
        number=1,
        status=Entry.Status.ELIMINATED,
        place=9,
        created_at=NOW,
        chips=0,
    )
    again = Entry.objects.create(
        tournament=tournament, player=player, number=2, chips=30000, created_at=NOW
    )
    url = reverse("public_results", args=[tournament.slug])
    assert "Verdi Anna" not in client.get(url).content.decode()  # he plays on
    Entry.objects.filter(pk=again.pk).update(status=Entry.Status.ELIMINATED, place=4)
    html = client.get(url).content.decode()
    assert html.count("Verdi Anna") == 1 and "<td>4</td>" in html


def test_the_money_page_pages_its_results_too(client, tournament, td):
    finish(tournament, 130)
    client.force_login(td)
    url = reverse("money", args=[tournament.slug])
    html = client.get(url).content.decode()
    results = html.split('id="results"')[1]
    assert "Rows 1–100 of 130." in results and 'href="?page=2#results"' in results
    assert len(rows_of(results)) == 100
    every = client.get(url, {"all": "on"}).content.decode().split('id="results"')[1]
    assert len(rows_of(every)) == 130


def log_rows(tournament, n: int) -> None:
    Event.objects.bulk_create(
        Event(tournament=tournament, at=NOW, action="entry.register", data={"number": i})
        for i in range(1, n + 1)
    )


def test_the_event_log_pages_50_rows_newest_first(client, tournament, td):
    Event.objects.filter(tournament=tournament).delete()
    log_rows(tournament, 120)
    client.force_login(td)
    url = reverse("event_log", args=[tournament.slug])

    first = client.get(url).content.decode()
    assert first.count('id="event-') == 50 and "#120<" in first
    assert 'href="?page=2"' in first and "Newer" not in first
    third = client.get(url, {"page": "3"}).content.decode()
    assert third.count('id="event-') == 20 and "#1<" in third
    assert 'href="?page=2"' in third and "Older" not in third
    # An old link past the end shows the oldest page; junk shows the newest.
    assert client.get(url, {"page": "40"}).content.decode().count('id="event-') == 20
    assert "#120<" in client.get(url, {"page": "-1"}).content.decode()


def test_the_console_lists_the_clock_actions_among_many_others(client, tournament, td):
    Event.objects.filter(tournament=tournament).delete()
    Event.objects.create(tournament=tournament, at=NOW, action="clock.pause", data={})
    log_rows(tournament, 30)
    Event.objects.create(tournament=tournament, at=NOW, action="timecall.start", data={})
    Event.objects.create(tournament=tournament, at=NOW, action="clockwork", data={})
    Event.objects.create(tournament=tournament, at=NOW, action="eod.bag", data={})
    client.force_login(td)
    response = client.get(reverse("clock_console", args=[tournament.slug]))
    recent = [event.action for event, _label in response.context["recent"]]
    assert recent == ["eod.bag", "timecall.start", "clock.pause"]


def test_past_a_hundred_tables_the_floor_types_the_table_on_the_eliminations_page(client, td):
    """1,112 table links (10,000 entries) made the page slow and nobody finds table 734
    among them: past a hundred tables the floor types the table's number."""
    from tests.conftest import make_tournament
    from tests.tournaments.services.test_moves import seat_players

    big = make_tournament(td, tables=110, seats=2)
    placed = seat_players(big, {n: [1] for n in range(1, 106)})  # 105 tables in play
    client.force_login(td)
    url = reverse("eliminations", args=[big.slug])
    page = client.get(url).content.decode()
    assert 'data-testid="table-picker"' in page and "105 tables in play." in page
    assert "?view_table=" not in page and 'name="out"' not in page
    table_104 = client.get(url, {"view_table": "104"}).content.decode()
    assert table_104.count('name="out"') == 1 and str(placed[(104, 1)].player) in table_104
    assert 'value="104"' in table_104


def test_the_eliminations_page_lists_the_last_twenty_busts_latest_first(client, tournament, td):
    """Read from the top of an index of the busts (a thousand out at 10,000 entries):
    the latest first, the same minute's by entry number, the older ones left out."""
    out = finish(tournament, 26)
    for i, entry in enumerate(out):  # entry 1 went out first ... entry 26 last
        Entry.objects.filter(pk=entry.pk).update(ended_at=NOW + timedelta(minutes=i // 2))
    client.force_login(td)
    page = client.get(reverse("eliminations", args=[tournament.slug])).content.decode()
    latest = page.split("Latest eliminations")[1].split("</table>")[0]
    shown = [int(name[:4]) for name in rows_of(latest)]
    assert shown == list(range(26, 6, -1))


def test_the_payout_table_tells_places_paying_the_same_once(client, tournament, td):
    finish(tournament, 0, playing=10)  # not in the money yet: the table may be edited
    type(tournament).objects.filter(pk=tournament.pk).update(
        payouts=[500, 300, 100, 100, 100, 50, 50]
    )
    client.force_login(td)
    html = client.get(reverse("money", args=[tournament.slug])).content.decode()
    payouts = html.split('id="payouts"')[1].split("</table>")[0]
    assert "<th>1</th><td" in payouts and "<th>2</th><td" in payouts
    assert "<th>3–5</th><td" in payouts and "<th>6–7</th><td" in payouts
    assert "<th>4</th>" not in payouts and "7 places paid" in html
    # The editor still holds every prize, place by place.
    assert "500, 300, 100, 100, 100, 50, 50</textarea>" in html


def test_a_log_row_of_hundreds_of_moves_lists_three_and_its_page_shows_all(client, tournament, td):
    """A balance of 714 moves made the log's line (and the page) ten times longer at
    10,000 entries: the line names the first moves and how many more, its own page all."""
    Event.objects.filter(tournament=tournament).delete()
    moves = [
        {"name": f"Mover{i:03d}", "entry": i, "from": [9, 1 + i % 9], "to": [2, 1 + i % 9]}
        for i in range(40)
    ]
    balance = Event.objects.create(
        tournament=tournament, at=NOW, action="room.balance", data={"moves": moves}
    )
    Event.objects.create(tournament=tournament, at=NOW, action="clock.adjust", data=[1, 2])
    Event.objects.create(
        tournament=tournament,
        at=NOW,
        action="payouts.set",
        data={"after": [500, 300, 200], "before": [1] * 500},
    )
    client.force_login(td)
    page = client.get(reverse("event_log", args=[tournament.slug])).content.decode()
    line = page.split(f'id="event-{balance.pk}"')[1].split("</tr>")[0]
    assert "Mover000" in line and "Mover002" in line and "Mover003" not in line
    assert "and 37 more" in line
    row_url = reverse("event_row", args=[tournament.slug, balance.pk])
    assert f'href="{row_url}"' in line
    assert reverse("event_undo", args=[tournament.slug, balance.pk]) in line
    assert "500, 300, 200" in page and "more" not in page.split("500, 300, 200")[1][:20]

    whole = client.get(row_url).content.decode()
    assert all(f"Mover{i:03d}" in whole for i in range(40)) and "more" not in whole
    assert reverse("event_undo", args=[tournament.slug, balance.pk]) in whole

"""The clock console (htmx both ways), screen management and the no-login screens."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from tests.conftest import NOW, make_player
from tournaments import errors
from tournaments.models import DisplayScreen, Event, Table
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import screens as screen_services
from tournaments.views import displays

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def test_console_full_page_and_htmx_panel(client, tournament, td):
    client.force_login(td)
    url = reverse("clock_console", args=[tournament.slug])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'id="panel"' in html and "js/console.js" in html
    fragment = client.get(url, **HX).content.decode()
    assert "<html" not in fragment and fragment.lstrip().startswith('<div id="panel"')


def test_console_post_runs_the_service_and_returns_the_panel(client, tournament, td):
    client.force_login(td)
    response = client.post(reverse("clock_control", args=[tournament.slug, "start"]), **HX)
    assert response.status_code == 200
    assert 'data-testid="status">Running<' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.clock_status == "running"
    client.post(
        reverse("clock_control", args=[tournament.slug, "adjust"]), {"seconds": "-60"}, **HX
    )
    assert Event.objects.filter(action="clock.adjust", data__seconds=-60).exists()


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("adjust", {"seconds": "lots"}),
        ("jump", {"index": "-3"}),
        ("nonsense", {}),
        ("start", {"at": "25:99"}),
        ("eod_start", {"card": "Zz"}),
        ("pause", {}),
    ],
)
def test_console_refusals_are_messages_not_errors(client, tournament, td, action, data):
    client.force_login(td)
    response = client.post(reverse("clock_control", args=[tournament.slug, action]), data)
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages and tournament.events.filter(action__startswith="clock.").count() == 0


def test_floor_may_report_a_table_but_not_run_the_clock(client, tournament, td, floor):
    Table.objects.filter(tournament=tournament, number__in=[1, 2]).update(status="open")
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW)
    client.force_login(floor)
    client.post(reverse("clock_control", args=[tournament.slug, "pause"]))
    client.post(reverse("clock_control", args=[tournament.slug, "h4h_table_done"]), {"table": 2})
    tournament.refresh_from_db()
    assert tournament.h4h_tables_done == [2]
    assert not Event.objects.filter(action="clock.pause").exists()


def test_td_creates_and_revokes_a_screen(client, tournament, td):
    client.force_login(td)
    url = reverse("screens", args=[tournament.slug])
    client.post(url, {"name": "Bar", "kind": "clock"})
    screen = DisplayScreen.objects.get(name="Bar")
    link = reverse("screen", args=[screen.token])
    assert link in client.get(url).content.decode()
    client.logout()
    assert client.get(link).status_code == 200
    client.force_login(td)
    client.post(reverse("screen_revoke", args=[tournament.slug, screen.pk]))
    client.logout()
    assert client.get(link).status_code == 404


def test_a_tablet_needs_an_existing_table(tournament, td):
    with pytest.raises(errors.DomainError):
        screen_services.screen_create(
            tournament=tournament, actor=td, name="T99", kind="table", table_number=99, now=NOW
        )


def test_clock_screen_shows_the_figures_and_a_qr_code(client, tournament, td, display):
    for _n in range(3):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    # The page reads the time: a minute after the start, whatever today's date is.
    with time_machine.travel(NOW + dt.timedelta(minutes=1), tick=False):
        html = client.get(reverse("screen", args=[display.token])).content.decode()
        fragment = client.get(reverse("screen", args=[display.token]), **HX).content.decode()
    assert 'data-testid="players">3 / 3<' in html
    assert "<svg" in html and 'id="clock-state"' in html
    assert "100 / 200" in html  # level 1 blinds
    assert fragment.lstrip().startswith('<aside id="figures"')


def test_public_clock_needs_no_login(client, tournament):
    response = client.get(reverse("public_clock", args=[tournament.slug]))
    assert response.status_code == 200
    assert f"/ws/t/{tournament.slug}/" in response.content.decode()
    assert client.get(reverse("public_clock", args=["nope"])).status_code == 404


def test_seating_board_pages_alphabetically(client, tournament, td, settings):
    names = ["Zeta", "Alfa", "Mike"]
    for name in names:
        entry_services.entry_register(
            tournament=tournament, player=make_player("P", name), actor=td, now=NOW
        )
    screen = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    html = client.get(reverse("screen", args=[screen.token])).content.decode()
    order = [html.index(f"{n} P") for n in sorted(names)]
    assert order == sorted(order)
    assert "Page 1 of 1" in html
    fragment = client.get(reverse("screen", args=[screen.token]) + "?page=9", **HX)
    assert fragment.content.decode().lstrip().startswith('<section id="board"')


def test_seating_board_pages_of_sixty(td):
    from tests.conftest import make_tournament
    from tournaments import selectors

    tournament = make_tournament(td, tables=7)
    for _n in range(61):
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        )
    first, pages = selectors.seating_page(tournament, page=1, per_page=60)
    second, _pages = selectors.seating_page(tournament, page=2, per_page=60)
    assert (len(first), len(second), pages) == (60, 1, 2)


def test_table_tablet_reports_hand_done(client, tournament, td):
    reg = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    screen = DisplayScreen.objects.create(
        tournament=tournament, name="T", kind="table", table_number=reg.table
    )
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=NOW)
    html = client.get(reverse("screen", args=[screen.token])).content.decode()
    assert str(reg.entry.player) in html and "Hand done" in html
    client.post(reverse("tablet_hand", args=[screen.token]), {"hand": "done"})
    tournament.refresh_from_db()
    # The only table in play reported: the next hand was signalled and charged.
    assert tournament.h4h_hands == 1


def test_seat_finder_shows_name_table_and_seat_only(client, tournament, td):
    player = make_player("Giulia", "Verdi", document_number="AB123")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    html = client.get(reverse("seat_finder", args=[tournament.slug]), {"q": "verd"}).content
    html = html.decode()
    assert "Verdi Giulia" in html and f"Table {reg.table} · Seat {reg.seat}" in html
    assert "AB123" not in html


def test_seat_finder_follows_a_rename_and_leaves_out_the_players_who_are_out(
    client, tournament, td
):
    from room.services import people

    url = reverse("seat_finder", args=[tournament.slug])
    giulia = make_player("Giulia", "Verdi")
    entry_services.entry_register(tournament=tournament, player=giulia, actor=td, now=NOW)
    out = make_player("Marco", "Verdini")
    gone = entry_services.entry_register(tournament=tournament, player=out, actor=td, now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=gone.entry, actor=td, now=NOW)
    people.player_update(player=giulia, actor=td, fields={"last_name": "Bianchi"}, now=NOW)
    html = client.get(url, {"q": "bianc"}, REMOTE_ADDR="10.0.0.7").content.decode()
    assert "Bianchi Giulia" in html
    html = client.get(url, {"q": "verdi"}, REMOTE_ADDR="10.0.0.7").content.decode()
    assert "Verdi Giulia" not in html and "Verdini Marco" not in html


def test_seat_finder_is_rate_limited_per_address(client, tournament):
    url = reverse("seat_finder", args=[tournament.slug])
    with time_machine.travel(NOW + dt.timedelta(seconds=5), tick=False):  # one window
        codes = [
            client.get(url, {"q": "ross"}).status_code
            for _ in range(displays.SEARCHES_PER_MINUTE + 1)
        ]
    assert codes[:-1] == [200] * displays.SEARCHES_PER_MINUTE and codes[-1] == 429
    other = client.get(url, {"q": "ross"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_junk_in_any_console_form_is_never_a_server_error(client, tournament, td):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tournaments.controls import CONTROLS

    client.force_login(td)
    fields = st.dictionaries(
        st.sampled_from(["at", "seconds", "index", "table", "card", "last_level_of_day"]),
        st.text(max_size=30) | st.integers().map(str),
        max_size=4,
    )

    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(action=st.sampled_from(sorted(CONTROLS)), data=fields)
    def post(action, data):
        response = client.post(reverse("clock_control", args=[tournament.slug, action]), data)
        # A NUL byte is refused before the view (400, in the user's language).
        nul = any("\x00" in value for value in data.values())
        assert response.status_code == (400 if nul else 302)

    post()


def test_junk_screen_form_is_never_a_server_error(client, tournament, td):
    client.force_login(td)
    url = reverse("screens", args=[tournament.slug])
    for data in (
        {"name": "T", "kind": "table", "table_number": "9" * 40},
        {"name": "", "kind": "clock"},
        {"name": "X", "kind": "toaster"},
    ):
        assert client.post(url, data).status_code == 302
    assert not DisplayScreen.objects.exists()

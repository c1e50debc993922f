"""An event's address is made from its name and date: when the TD moves the date, the
address follows it, and the old address (printed on flyers, shared with players) still
leads to the same page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.conftest import NOW, make_tournament
from tournaments.events import event_undo
from tournaments.models import Event, Tournament
from tournaments.services import setup as setup_services

pytestmark = pytest.mark.django_db


def _edit_data(client, tournament, **changes):
    form = client.get(reverse("tournament_edit", args=[tournament.slug])).context["form"]
    data = {
        name: ("on" if value is True else "" if value is None or value is False else value)
        for name, value in ((f.name, f.value()) for f in form)
    }
    return {**{k: v for k, v in data.items() if v != ""}, **changes}


def test_the_satellites_address_follows_its_date_and_the_old_one_leads_there(client, td):
    satellite = make_tournament(td, name="Satellite")
    assert satellite.slug == "satellite-2026-11-21"
    client.force_login(td)
    response = client.post(
        reverse("tournament_edit", args=[satellite.slug]),
        _edit_data(client, satellite, date="2026-11-28"),
    )
    satellite.refresh_from_db()
    assert satellite.date == dt.date(2026, 11, 28)
    assert satellite.slug == "satellite-2026-11-28"
    assert response["Location"] == reverse("tournament_edit", args=[satellite.slug])
    # The old address, a staff page and a public one, with its query: the same page now.
    old = client.get("/t/satellite-2026-11-21/")
    assert (old.status_code, old["Location"]) == (302, "/t/satellite-2026-11-28/")
    old = client.get("/p/satellite-2026-11-21/structure/?lang=it")
    assert old["Location"] == "/p/satellite-2026-11-28/structure/?lang=it"
    assert client.get(old["Location"]).status_code == 200
    # An address no event ever had is still not found.
    assert client.get("/t/satellite-2026-11-14/").status_code == 404


def test_undoing_the_new_date_gives_the_old_address_back(td):
    satellite = make_tournament(td, name="Satellite")
    setup_services.tournament_update(
        tournament=satellite, actor=td, fields={"date": dt.date(2026, 12, 5)}, now=NOW
    )
    satellite.refresh_from_db()
    assert satellite.slug == "satellite-2026-12-05"
    event = Event.objects.get(tournament=satellite, action="tournament.update")
    event_undo(event_id=event.pk, tournament=satellite, actor=td, now=NOW)
    satellite.refresh_from_db()
    assert (satellite.date, satellite.slug) == (NOW.date(), "satellite-2026-11-21")
    assert list(satellite.former_addresses.values_list("slug", flat=True)) == [
        "satellite-2026-12-05"
    ]


def test_a_new_event_never_takes_an_old_address(td):
    satellite = make_tournament(td, name="Satellite")
    setup_services.tournament_update(
        tournament=satellite, actor=td, fields={"date": dt.date(2026, 11, 28)}, now=NOW
    )
    other = make_tournament(td, name="Satellite")
    assert other.slug == "satellite-2026-11-21-2"
    assert Tournament.objects.get(pk=satellite.pk).slug == "satellite-2026-11-28"


def test_an_address_without_the_date_stays_put(td):
    event = make_tournament(td, name="Satellite")
    Tournament.objects.filter(pk=event.pk).update(slug="winter-satellite")
    event.refresh_from_db()
    setup_services.tournament_update(
        tournament=event, actor=td, fields={"date": dt.date(2026, 11, 28)}, now=NOW
    )
    event.refresh_from_db()
    assert event.slug == "winter-satellite"

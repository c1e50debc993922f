"""The live feed's JSON API: only published events, the figures and eliminations as the
floor records them, ETags and caching, the rate limit, featured hands from the ruling
tool (published, logged, undone)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from tables.engine import Action, Hand, SeatStack, TableSetup
from tests.conftest import NOW, make_player
from tournaments.events import event_undo
from tournaments.models import ChipCount, Event, Ruling
from tournaments.services import entries as entry_services
from tournaments.services import rulings as ruling_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tournament):
    tournament.feed_public = True
    tournament.save(update_fields=["feed_public"])
    return tournament


def _register(tournament, td, count):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(f"P{i}", f"Player{i}"), actor=td, now=NOW
        ).entry
        for i in range(count)
    ]


def _feed(client, tournament, **headers):
    return client.get(reverse("feed_event", args=[tournament.pk]), **headers)


def test_an_event_is_in_the_feed_only_once_its_td_publishes_it(client, tournament):
    hidden = _feed(client, tournament)
    assert hidden.status_code == 404
    assert hidden.json()["error"] == "not_found"
    assert client.get(reverse("feed_events")).json()["events"] == []

    tournament.feed_public = True
    tournament.save(update_fields=["feed_public"])
    listed = client.get(reverse("feed_events")).json()["events"]
    assert [event["id"] for event in listed] == [tournament.pk]
    assert listed[0]["stream"].endswith(f"/api/v1/events/{tournament.pk}/stream")
    by_slug = client.get(reverse("feed_event", args=[tournament.slug]))
    assert by_slug.status_code == 200
    assert by_slug.json()["event"]["id"] == tournament.pk


def test_the_document_shows_figures_eliminations_payouts_and_counts(client, published, td):
    entries = _register(published, td, 3)
    ChipCount.objects.create(
        tournament=published, entry=entries[0], chips=45_000, table=1, counted_at=NOW
    )
    entry_services.entry_eliminate(tournament=published, entry=entries[2], actor=td, now=NOW)

    data = _feed(client, published).json()
    assert data["v"] == 1 and data["type"] == "event"
    assert data["event"]["name"] == published.name
    assert data["figures"]["entries"] == 3
    assert data["figures"]["players_left"] == 2
    assert data["figures"]["average_stack"] == published.starting_stack * 3 // 2
    assert data["clock"]["level"]["big_blind"] == 200
    [out] = data["eliminations"]
    assert out["entry"] == entries[2].pk and out["number"] == entries[2].number
    assert out["place"] == 3 and out["name"] == str(entries[2].player)
    assert data["payouts"]["places"], "a payout table for the pool"
    [count] = data["chip_counts"]
    assert count["chips"] == 45_000 and count["counted_at"].startswith("2026-11-21T18:00")
    # Three players sit at one table: everyone left is there, it is the final table.
    final = data["final_table"]
    assert final["table"] == 1
    assert {(s["entry"], s["chips"]) for s in final["seats"]} == {
        (entries[0].pk, 45_000),
        (entries[1].pk, None),
    }


def test_a_reader_that_has_the_version_gets_304_and_a_change_makes_a_new_one(
    client, published, td, django_capture_on_commit_callbacks
):
    entries = _register(published, td, 3)
    first = _feed(client, published)
    etag = first["ETag"]
    assert first["Cache-Control"] == "public, max-age=5"
    assert first["Access-Control-Allow-Origin"] == "*"
    again = _feed(client, published, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""

    with django_capture_on_commit_callbacks(execute=True):
        entry_services.entry_eliminate(tournament=published, entry=entries[0], actor=td, now=NOW)
    changed = _feed(client, published, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["figures"]["players_left"] == 2


@override_settings(FEED_READS_PER_MINUTE=3)
def test_reads_are_limited_per_address(client, published):
    assert [_feed(client, published).status_code for _ in range(3)] == [200, 200, 200]
    refused = _feed(client, published)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    assert "try again" in refused.json()["message"]


def _ruling(tournament):
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    hand.act(Action(1, "fold"))
    return Ruling.objects.create(
        tournament=tournament,
        table_number=1,
        hand=hand.to_dict(),
        names={"1": "Anna Bianchi", "2": "Carlo Verdi"},
        note="Fold stands.",
        created_at=NOW,
    )


def test_the_floor_publishes_a_featured_hand_and_undoes_it(
    client, published, floor, django_capture_on_commit_callbacks
):
    ruling = _ruling(published)
    client.force_login(floor)
    assert _feed(client, published).json()["featured_hands"] == []

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ruling_publish", args=[published.slug, ruling.pk]))
    assert response.status_code == 302
    [hand] = _feed(client, published).json()["featured_hands"]
    assert hand["id"] == ruling.pk and hand["table"] == 1
    assert "variant = 'NT'" in hand["phh"]
    assert "Anna Bianchi" in hand["phh"]
    assert "Anna Bianchi" in hand["text"]["en"]
    assert "Seat 1: fold" in hand["text"]["en"]
    assert "Fold stands." in hand["text"]["en"]
    assert "Posto 1: Anna Bianchi (5000 in fiches)" in hand["text"]["it"]

    logged = Event.objects.get(action="ruling.publish")
    with django_capture_on_commit_callbacks(execute=True):
        event_undo(event_id=logged.pk, tournament=published, actor=floor, now=NOW)
    assert _feed(client, published).json()["featured_hands"] == []
    ruling.refresh_from_db()
    assert ruling.published_at is None


def test_publishing_twice_is_refused_with_a_message(published, floor):
    ruling = _ruling(published)
    ruling_services.ruling_publish(
        tournament=published, actor=floor, ruling_id=ruling.pk, published=True, now=NOW
    )
    from tournaments.errors import DomainError

    with pytest.raises(DomainError, match="already published"):
        ruling_services.ruling_publish(
            tournament=published, actor=floor, ruling_id=ruling.pk, published=True, now=NOW
        )
    assert Event.objects.filter(action="ruling.publish").count() == 1


def test_the_ruling_page_offers_publishing_in_both_languages(client, published, floor):
    ruling = _ruling(published)
    client.force_login(floor)
    page = client.get(reverse("ruling_detail", args=[published.slug, ruling.pk]))
    assert "Publish as a featured hand" in page.content.decode()
    client.cookies["django_language"] = "it"
    page = client.get(
        reverse("ruling_detail", args=[published.slug, ruling.pk]), HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "Pubblica come mano in evidenza" in page.content.decode()

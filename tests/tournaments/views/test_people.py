"""Through the pages: the player list, table chip counts, the room's
players (profile, duplicates, merge and undo, export, erasure) and leagues."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from room.models import League, RoomEvent
from room.services import people as people_services
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments.models import ChipCount, Entry, Player
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def register(tournament, td, n, **names):
    made = []
    for i in range(n):
        player = make_player(f"Gino{i}", f"Verdi{i:03d}", **names)
        made.append(
            entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
        )
    return made


# --- The player list (item 1) ----------------------------------------------------------


def test_the_list_shows_seat_purchases_and_results(client, tournament, td, floor):
    regs = register(tournament, td, 3)
    entry_services.entry_eliminate(tournament=tournament, entry=regs[2].entry, actor=td, now=NOW)
    client.force_login(floor)
    page = client.get(reverse("player_list", args=[tournament.slug])).content.decode()
    assert "Verdi000" in page and "Verdi002" in page
    assert f'<td class="num">{regs[0].table}</td>' in page
    out = client.get(reverse("player_list", args=[tournament.slug]), {"show": "out"})
    text = out.content.decode()
    assert "Verdi002" in text and "Verdi000" not in text


def test_search_as_you_type_returns_the_list_alone(client, tournament, td, desk):
    register(tournament, td, 3)
    client.force_login(desk)
    response = client.get(reverse("player_list", args=[tournament.slug]), {"q": "verdi001"}, **HX)
    text = response.content.decode()
    assert 'id="list"' in text and "<html" not in text
    assert "Verdi001" in text and "Verdi000" not in text


def test_the_lists_pages_count_the_matches_and_a_search_that_fits_is_matched_once(tournament, td):
    from tournaments.selectors import people as people_selectors

    register(tournament, td, 5)
    pages = {
        asked: people_selectors.player_list_page(tournament, sort="name", page=asked, per_page=2)
        for asked in (1, 3, 9)
    }
    assert [(p.number, p.paginator.count, p.paginator.num_pages) for p, _r in pages.values()] == [
        (1, 5, 3),
        (3, 5, 3),
        (3, 5, 3),  # past the end: the last page
    ]
    assert [[str(e.player) for e, _n in rows] for _p, rows in pages.values()] == [
        ["Verdi000 Gino0", "Verdi001 Gino1"],
        ["Verdi004 Gino4"],
        ["Verdi004 Gino4"],
    ]
    with CaptureQueriesContext(connection) as whole:
        people_selectors.player_list_page(tournament, page=1, per_page=2)
    with CaptureQueriesContext(connection) as searched:
        found, rows = people_selectors.player_list_page(
            tournament, query="verdi003", page=1, per_page=2
        )
    assert (found.paginator.count, [str(e.player) for e, _n in rows]) == (1, ["Verdi003 Gino3"])
    assert len(searched) == len(whole) - 1  # no count: the page holds every match
    nobody, rows = people_selectors.player_list_page(tournament, query="nobody", page=1, per_page=2)
    assert (nobody.paginator.count, nobody.number, rows) == (0, 1, [])


def test_the_list_finds_a_word_in_any_name_case_and_accents_aside_also_after_a_rename(
    tournament, td
):
    from tournaments.selectors import people as people_selectors

    register(tournament, td, 2)
    player = make_player("Nicolò", "D'Àngelo", nickname="Il Pirata")
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)

    def found(query: str) -> list[str]:
        return [
            str(e.player) for e, _n in people_selectors.player_list_page(tournament, query=query)[1]
        ]

    for query in ("nicolo", "NICOLÒ", "àngelo", "angel", "pirata", "Nicolo d'angelo"):
        assert found(query) == ["D'Àngelo Nicolò"], query
    assert found("nicolo verdi") == [] and found("o p") == ["D'Àngelo Nicolò"]
    assert found("gino1") == ["Verdi001 Gino1"]
    people_services.player_update(player=player, actor=td, fields={"last_name": "Bianchi"}, now=NOW)
    assert found("bianchi nicolo") == ["Bianchi Nicolò"] and found("angelo") == []
    # Players made in bulk (an import) are found as well.
    bulk = Player.objects.bulk_create([Player(first_name="Ève", last_name="Lefèvre")])
    entry_services.entry_register(tournament=tournament, player=bulk[0], actor=td, now=NOW)
    assert found("lefevre eve") == ["Lefèvre Ève"]


def test_junk_filters_fall_back_to_the_whole_list(client, tournament, td, desk):
    register(tournament, td, 2)
    client.force_login(desk)
    response = client.get(
        reverse("player_list", args=[tournament.slug]),
        {"show": "nope", "sort": "x", "page": "-4"},
    )
    assert response.status_code == 200 and "Verdi001" in response.content.decode()


def test_the_list_costs_the_same_queries_at_any_size(client, td):
    small, big = make_tournament(td, tables=2), make_tournament(td, tables=8, name="Big")
    register(small, td, 3)
    register(big, td, 60)
    client.force_login(td)
    counts = []
    for event in (small, big):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(reverse("player_list", args=[event.slug]), {"sort": "chips"})
        assert response.status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_pages_by_chips_run_from_the_biggest_count_to_the_uncounted_by_number(
    client, tournament, td, desk
):
    regs = register(tournament, td, 7)
    # Three stacks counted (one twice: the later day's count is the one that sorts), the
    # rest never counted: they follow, by entry number, across the page boundary.
    for reg, chips, day in ((regs[5], 9000, 1), (regs[1], 4000, 1), (regs[3], 100, 1)):
        ChipCount.objects.create(
            tournament=tournament, entry=reg.entry, day=day, chips=chips, counted_at=NOW
        )
    ChipCount.objects.create(
        tournament=tournament, entry=regs[3].entry, day=2, chips=20000, counted_at=NOW
    )
    numbers = [r.entry.number for r in regs]
    expected = [numbers[3], numbers[5], numbers[1], numbers[0], numbers[2], numbers[4]]
    expected.append(numbers[6])
    client.force_login(desk)
    url = reverse("player_list", args=[tournament.slug])
    from tournaments.selectors import people as people_selectors

    shown = []
    for page in (1, 2, 3, 4, 9):
        chosen, rows = people_selectors.player_list_page(
            tournament, sort="chips", page=page, per_page=2
        )
        shown.append([e.number for e, _n in rows])
        assert chosen.paginator.num_pages == 4
    assert shown == [expected[0:2], expected[2:4], expected[4:6], expected[6:], expected[6:]]
    assert [
        e.number for e, _n in people_selectors.player_list(tournament, sort="chips")
    ] == expected
    page = client.get(url, {"sort": "chips"}).content.decode()
    at = page.rindex  # the list's rows come after the chip leaders
    assert at("Verdi003") < at("Verdi005") < at("Verdi001") < at("Verdi000") < at("Verdi002")


def test_exports_in_csv_and_xlsx(client, tournament, td, desk):
    register(tournament, td, 2)
    client.force_login(desk)
    csv = client.get(reverse("player_list_export", args=[tournament.slug]))
    assert csv["Content-Type"].startswith("text/csv")
    assert "Verdi001" in csv.content.decode("utf-8-sig")
    xlsx = client.get(reverse("player_list_export", args=[tournament.slug]), {"format": "xlsx"})
    from io import BytesIO

    from openpyxl import load_workbook

    sheet = load_workbook(BytesIO(xlsx.content)).active
    assert sheet.max_row == 3 and sheet["B2"].value.startswith("Verdi")


def test_print_view_lists_everyone_on_one_page(client, tournament, td, desk):
    register(tournament, td, 3)
    client.force_login(desk)
    page = client.get(reverse("player_list", args=[tournament.slug]), {"print": "1"})
    assert page.content.decode().count("Verdi0") == 3


def test_table_counts_feed_the_list_and_the_chip_leaders(client, tournament, td, floor):
    regs = register(tournament, td, 4)
    table = regs[0].table
    at_table = [r for r in regs if r.table == table]
    client.force_login(floor)
    url = reverse("table_counts", args=[tournament.slug])
    assert client.get(url, {"table": table}).status_code == 200
    data = {
        "table": table,
        **{f"count_{r.entry.number}": 1000 * (i + 1) for i, r in enumerate(at_table)},
    }
    client.post(url, data)
    assert ChipCount.objects.filter(table=table).count() == len(at_table)
    page = client.get(reverse("player_list", args=[tournament.slug]), {"sort": "chips"})
    assert page.context["leaders"][0]["chips"] == 1000 * len(at_table)
    from tournaments import selectors

    assert selectors.screen_figures(tournament)["chip_leaders"][0]["chips"] == 1000 * len(at_table)


def test_a_bad_count_changes_nothing(client, tournament, td, floor):
    regs = register(tournament, td, 2)
    client.force_login(floor)
    url = reverse("table_counts", args=[tournament.slug])
    response = client.post(url, {"table": regs[0].table, f"count_{regs[0].entry.number}": "-5"})
    assert response.status_code == 302 and not ChipCount.objects.exists()
    client.post(url, {"table": 99, "count_1": "5"})
    assert not ChipCount.objects.exists()


# --- The room's players (item 2) -------------------------------------------------------


def test_duplicates_found_by_name_either_order_and_accents(client, tournament, td):
    a = make_player("José", "Núñez")
    b = make_player("nunez", "JOSE")
    c = make_player("Anna", "Bianchi", document_number="AB123")
    d = make_player("Annie", "White", document_number="ab 123")  # typed differently
    for p in (a, b, c):
        entry_services.entry_register(tournament=tournament, player=p, actor=td, now=NOW)
    other = make_tournament(td, name="Tuesday")
    entry_services.entry_register(tournament=other, player=d, actor=td, now=NOW)
    client.force_login(td)
    groups = client.get(reverse("people_duplicates")).context["groups"]
    ids = sorted(sorted(row["player"].pk for row in g) for g in groups)
    assert [a.pk, b.pk] in ids and [c.pk, d.pk] in ids


def test_merge_keeps_every_entry_and_can_be_undone(client, tournament, td):
    old, new = make_player("Luca", "Neri"), make_player("neri", "luca")
    other = make_tournament(td, name="Monday")
    first = entry_services.entry_register(tournament=other, player=old, actor=td, now=NOW)
    second = entry_services.entry_register(tournament=tournament, player=new, actor=td, now=NOW)
    client.force_login(td)
    response = client.post(reverse("person_merge", args=[new.pk]), {"into": old.pk})
    assert response.status_code == 302
    assert set(old.entries.values_list("pk", flat=True)) == {first.entry.pk, second.entry.pk}
    new.refresh_from_db()
    assert new.merged_into_id == old.pk
    assert client.get(reverse("person", args=[new.pk])).status_code == 404  # hidden
    event = RoomEvent.objects.get(action="room.player_merge")
    client.post(reverse("merge_undo", args=[event.pk]))
    assert list(new.entries.values_list("pk", flat=True)) == [second.entry.pk]
    new.refresh_from_db()
    assert new.merged_into_id is None


def test_two_players_in_the_same_event_are_not_merged(tournament, td):
    a, b = make_player("Sara", "Blu"), make_player("Sara", "Blu")
    for p in (a, b):
        entry_services.entry_register(tournament=tournament, player=p, actor=td, now=NOW)
    from tournaments.errors import DomainError

    with pytest.raises(DomainError):
        people_services.players_merge(source=a, target=b, actor=td, now=NOW)
    assert a.entries.count() == 1


def test_profile_edit_export_and_erasure(client, tournament, td):
    player = make_player("Paola", "Gialli", document_number="X1234567")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)
    client.force_login(td)
    page = client.get(reverse("person", args=[player.pk])).content.decode()
    assert "X1234567" not in page and "567" in page  # masked, in the form too
    client.post(
        reverse("person", args=[player.pk]),
        {
            "first_name": "Paola",
            "last_name": "Gialli",
            "nickname": "La Volpe",
            "document_number": "X1234567",
            "email": "not-an-email",
        },
    )
    player.refresh_from_db()
    assert player.nickname == ""  # refused: nothing changed
    client.post(
        reverse("person", args=[player.pk]),
        {
            "first_name": "Paola",
            "last_name": "Gialli",
            "nickname": "La Volpe",
            "phone": "+39 333",
            "contact_consent": "on",
        },
    )
    player.refresh_from_db()
    assert player.nickname == "La Volpe" and player.document_number == "X1234567"  # kept
    data = json.loads(client.get(reverse("person_export", args=[player.pk])).content)
    assert data["player"]["phone"] == "+39 333" and len(data["entries"]) == 1
    client.post(reverse("person_erase", args=[player.pk]))  # no confirmation: refused
    player.refresh_from_db()
    assert player.erased_at is None
    client.post(reverse("person_erase", args=[player.pk]), {"confirm": "1"})
    player.refresh_from_db()
    assert player.erased_at and player.document_number == "" and player.phone == ""
    assert str(player) == f"Anonymous #{player.pk}"
    assert Entry.objects.filter(player=player).count() == 1  # the result stays


def test_who_sees_which_players(client, tournament, td, desk, outsider):
    mine = make_player("Mia", "Rosa")
    entry_services.entry_register(tournament=tournament, player=mine, actor=td, now=NOW)
    elsewhere_td = make_user("td2")
    other = make_tournament(elsewhere_td, name="Elsewhere")
    theirs = make_player("Tom", "Grigi")
    entry_services.entry_register(tournament=other, player=theirs, actor=elsewhere_td, now=NOW)
    client.force_login(td)
    assert client.get(reverse("person", args=[mine.pk])).status_code == 200
    assert client.get(reverse("person", args=[theirs.pk])).status_code == 404
    client.force_login(desk)
    assert client.get(reverse("person", args=[mine.pk])).status_code == 403
    client.force_login(make_manager())  # the room's manager: every player
    assert client.get(reverse("person", args=[theirs.pk])).status_code == 200


# --- Leagues (item 3) ------------------------------------------------------------------


def _finish(tournament, td, places):
    """Give entries places and prizes directly (the results services are tested apart)."""
    for number, (place, prize) in places.items():
        Entry.objects.filter(tournament=tournament, number=number).update(
            status=Entry.Status.ELIMINATED, place=place, prize=prize
        )


def test_a_league_from_creation_to_public_standings(client, td):
    monday = make_tournament(td, name="Monday")
    tuesday = make_tournament(td, name="Tuesday")
    anna, bruno = make_player("Anna", "Uno"), make_player("Bruno", "Due")
    for event in (monday, tuesday):
        for p in (anna, bruno):
            entry_services.entry_register(tournament=event, player=p, actor=td, now=NOW)
    client.force_login(td)
    response = client.post(
        reverse("league_list"),
        {
            "name": "Winter Series",
            "season": "2026",
            "formula": "table",
            "points": "10 6",
            "base": "10",
            "participation_points": "1",
            "bounty_points": "0",
            "tie_break": "best_result",
            "public": "on",
            "events": [monday.pk, tuesday.pk],
        },
    )
    league = League.objects.get()
    assert response.status_code == 302 and league.points_table == [10, 6]
    _finish(monday, td, {1: (1, 100), 2: (2, 50)})  # Anna wins Monday
    client.logout()
    page = client.get(reverse("league_public", args=[league.slug]))
    rows = page.context["rows"]
    assert [(r["name"], r["points"]) for r in rows] == [("Uno Anna", 1200), ("Due Bruno", 800)]
    _finish(tuesday, td, {2: (1, 100), 1: (2, 50)})  # Bruno wins Tuesday: tied on 18
    rows = client.get(reverse("league_public", args=[league.slug])).context["rows"]
    assert [(r["rank"], r["points"]) for r in rows] == [("1=", 1800), ("1=", 1800)]
    csv = client.get(reverse("league_csv", args=[league.slug])).content.decode("utf-8-sig")
    assert "Uno Anna" in csv and "18" in csv


def test_bad_league_settings_are_refused_with_a_message(client, tournament, td):
    client.force_login(td)
    response = client.post(
        reverse("league_list"),
        {
            "name": "X",
            "formula": "table",
            "points": "10 x",
            "base": "10",
            "participation_points": "0",
            "bounty_points": "0",
            "tie_break": "best_result",
        },
    )
    assert response.status_code == 200 and not League.objects.exists()
    assert "whole numbers" in response.content.decode()


def test_a_private_league_has_no_public_page(client, td):
    league = League.objects.create(name="Club", slug="club", public=False, created_at=NOW)
    assert client.get(reverse("league_public", args=[league.slug])).status_code == 404


def test_the_preview_shows_the_field_size_formula(client, tournament, td):
    league = League.objects.create(
        name="Big", slug="big", formula="field_size", base=10, created_at=NOW
    )
    league.events.set([tournament])  # a TD reaches a league through its events
    client.force_login(td)
    page = client.get(reverse("league_edit", args=[league.pk]), {"entries": "100"})
    assert page.context["preview"][0] == (1, 10000)


def test_league_points_read_in_the_language_and_the_csv_keeps_the_machine_format(client, td):
    event = make_tournament(td, name="Monday")
    regs = register(event, td, 2)
    _finish(event, td, {1: (1, 100), 2: (2, 0)})
    league = League.objects.create(
        name="Field", slug="field", formula="field_size", base=10, public=True, created_at=NOW
    )
    league.events.set([event])
    client.force_login(td)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    # 10 x sqrt(2 entries / 1st place) = 14.14 points
    page = client.get(reverse("league_public", args=["field"])).content.decode()
    assert ">14,14</td>" in page and "14.14" not in page
    edit = client.get(reverse("league_edit", args=[league.pk]), {"entries": "100"})
    assert ">57,74</td>" in edit.content.decode()  # 3rd of 100: 10 x sqrt(100 / 3)
    person = client.get(reverse("person", args=[regs[0].entry.player_id])).content.decode()
    assert "Field: 14,14" in person
    csv = client.get(reverse("league_csv", args=["field"])).content.decode("utf-8-sig")
    assert "14.14" in csv and "14,14" not in csv
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("league_public", args=["field"])).content.decode()
    assert ">14.14</td>" in page


def test_a_table_tablet_enters_its_own_tables_counts(client, tournament, td):
    from tournaments.models import DisplayScreen, Event

    regs = register(tournament, td, 3)
    table = regs[0].table
    tablet = DisplayScreen.objects.create(
        tournament=tournament, name="Tablet", kind=DisplayScreen.Kind.TABLE, table_number=table
    )
    url = reverse("tablet_counts", args=[tablet.token])
    assert "Verdi000" in client.get(url).content.decode()
    here = [r for r in regs if r.table == table]
    client.post(url, {f"count_{r.entry.number}": "41000" for r in here})
    assert sorted(ChipCount.objects.values_list("chips", flat=True)) == [41000] * len(here)
    logged = Event.objects.get(action="chips.count")
    assert logged.actor is None and logged.data["table"] == table
    elsewhere = [r for r in regs if r.table != table]
    if elsewhere:  # another table's player is not counted from this tablet
        client.post(url, {f"count_{elsewhere[0].entry.number}": "5"})
        assert not ChipCount.objects.filter(entry=elsewhere[0].entry).exists()


def test_bounties_and_the_paid_filter(client, td):
    from tournaments.models import BountyAward

    event = make_tournament(td, name="KO night")
    regs = register(event, td, 3)
    _finish(event, td, {3: (3, 0), 2: (2, 40)})
    for loser in (regs[2].entry, regs[1].entry):
        BountyAward.objects.create(
            tournament=event, eliminated=loser, winner=regs[0].entry, created_at=NOW
        )
    league = League.objects.create(
        name="KO",
        slug="ko",
        formula="table",
        points_table=[10, 5, 2],
        bounty_points=3,
        created_at=NOW,
    )
    league.events.set([event])
    client.force_login(td)
    rows = client.get(reverse("league_public", args=["ko"])).context["rows"]
    assert rows[0]["name"] == "Verdi000 Gino0" and rows[0]["points"] == 600  # 2 bounties
    paid = client.get(reverse("player_list", args=[event.slug]), {"show": "paid"})
    assert [e.number for e, _n in paid.context["rows"]] == [2]


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64  # the signature is what is checked


def test_a_photo_is_checked_stored_shown_and_erased(client, tournament, td):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.models import PlayerPhoto

    player = make_player("Foto", "Grafo")
    reg = entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    client.force_login(td)
    url = reverse("person", args=[player.pk])
    profile = {"first_name": "Foto", "last_name": "Grafo"}
    fake = SimpleUploadedFile("me.png", b"<svg onload=alert(1)>", content_type="image/png")
    page = client.post(url, {**profile, "photo": fake})
    assert page.status_code == 200 and "must be a JPEG, PNG or WebP" in page.content.decode()
    big = SimpleUploadedFile("big.png", PNG + b"\x00" * 400_000, content_type="image/png")
    page = client.post(url, {**profile, "photo": big})
    assert "too large" in page.content.decode() and not PlayerPhoto.objects.exists()
    good = SimpleUploadedFile("me.png", PNG, content_type="text/plain")
    assert client.post(url, {**profile, "photo": good}).status_code == 302
    shown = client.get(reverse("person_photo", args=[player.pk]))
    assert shown["Content-Type"] == "image/png" and shown.content == PNG
    data = json.loads(client.get(reverse("person_export", args=[player.pk])).content)
    assert data["player"]["photo"]["type"] == "image/png"
    entry_services.entry_eliminate(tournament=tournament, entry=reg.entry, actor=td, now=NOW)
    client.post(reverse("person_erase", args=[player.pk]), {"confirm": "1"})
    assert not PlayerPhoto.objects.exists()
    assert client.get(reverse("person_photo", args=[player.pk])).status_code == 404


@pytest.mark.parametrize("typed", ["²", "⁴⁷", "٣"])
def test_unicode_digits_in_the_query_are_not_numbers_nor_server_errors(
    client, tournament, td, typed
):
    """Found by `bench fuzz` on main: int() of "²" (str.isdigit() says yes) was a 500 on
    the players' pages and the list's search."""
    get_user_model().objects.filter(pk=td.pk).update(is_superuser=True)
    register(tournament, td, 3)
    client.force_login(td)
    assert client.get(reverse("people") + f"?page={typed}").status_code == 200
    listed = client.get(reverse("player_list", args=[tournament.slug]) + f"?q={typed}")
    assert listed.status_code == 200


# --- Scopes: a TD reaches his events' players, leagues and merges, the manager all ---------


@pytest.fixture
def foreign(db):
    """Another TD's event, with one of its players."""
    other_td = make_user("td-b")
    event_b = make_tournament(other_td, name="Event B")
    player = make_player("Tom", "Grigi", document_number="TG445566")
    entry_services.entry_register(tournament=event_b, player=player, actor=other_td, now=NOW)
    return event_b, player, other_td


def test_a_foreign_players_profile_photo_export_and_merges_are_not_found(
    client, tournament, td, foreign
):
    _event_b, theirs, _other_td = foreign
    client.force_login(td)
    for name in ("person", "person_photo", "person_export"):
        assert client.get(reverse(name, args=[theirs.pk])).status_code == 404, name
    assert (
        client.post(reverse("person_erase", args=[theirs.pk]), {"confirm": "1"}).status_code == 404
    )
    theirs.refresh_from_db()
    assert theirs.erased_at is None


def test_the_export_of_a_player_who_also_plays_elsewhere_holds_only_this_tds_events(
    client, tournament, td, foreign
):
    """A TD who registers another event's player (found by his document) reads his
    profile and his results here, not his history in the events he does not run."""
    from tournaments.models import IdCheck, Penalty

    event_b, player, other_td = foreign
    Penalty.objects.create(
        tournament=event_b, player=player, kind="warning", offence="B's", issued_at=NOW
    )
    IdCheck.objects.create(tournament=event_b, player=player, day=1, checked_at=NOW)
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)
    client.force_login(td)
    data = json.loads(client.get(reverse("person_export", args=[player.pk])).content)
    assert data["player"]["document_number"] == "TG445566"
    assert [e["event"] for e in data["entries"]] == [tournament.name]
    assert data["penalties"] == [] and data["id_checks"] == []
    page = client.get(reverse("person", args=[player.pk]))
    history = page.context["history"]
    assert [r["entry"].tournament_id for r in history["entries"]] == [tournament.pk]
    assert history["penalties"] == [] and "Event B" not in page.content.decode()
    client.force_login(make_manager())  # the room's manager: the whole record
    data = json.loads(client.get(reverse("person_export", args=[player.pk])).content)
    assert sorted(e["event"] for e in data["entries"]) == sorted([tournament.name, "Event B"])
    assert len(data["penalties"]) == 1 and len(data["id_checks"]) == 1


def _league_form(name, events):
    return {
        "name": name,
        "formula": "table",
        "points": "10 5",
        "base": "10",
        "participation_points": "0",
        "bounty_points": "0",
        "tie_break": "best_result",
        "events": [e.pk for e in events],
    }


def test_a_league_of_another_tds_events_is_not_found_nor_renamed(client, tournament, td, foreign):
    event_b, _player, _other_td = foreign
    only_b = League.objects.create(name="B series", slug="b-series", created_at=NOW)
    only_b.events.set([event_b])
    mixed = League.objects.create(name="Both", slug="both", created_at=NOW)
    mixed.events.set([tournament, event_b])
    mine = League.objects.create(name="Mine", slug="mine", created_at=NOW)
    mine.events.set([tournament])
    client.force_login(td)
    listed = client.get(reverse("league_list")).context["leagues"]
    assert [league.name for league in listed] == ["Mine"]
    for league in (only_b, mixed):
        url = reverse("league_edit", args=[league.pk])
        assert client.get(url).status_code == 404
        assert client.post(url, _league_form("Renamed", [tournament])).status_code == 404
    assert sorted(League.objects.values_list("name", flat=True)) == ["B series", "Both", "Mine"]
    assert list(mixed.events.order_by("pk")) == [tournament, event_b]
    # Adding another TD's event to his own league, or making one of it: refused.
    client.post(reverse("league_edit", args=[mine.pk]), _league_form("Mine", [event_b]))
    assert list(mine.events.all()) == [tournament]
    client.post(reverse("league_list"), _league_form("Stolen", [event_b]))
    assert not League.objects.filter(name="Stolen").exists()
    # The room's manager sees and edits every league.
    client.force_login(make_manager())
    assert client.get(reverse("league_list")).context["leagues"].count() == 3
    response = client.post(
        reverse("league_edit", args=[only_b.pk]), _league_form("B renamed", [event_b])
    )
    assert response.status_code == 302
    only_b.refresh_from_db()
    assert only_b.name == "B renamed"


def test_a_td_makes_a_league_only_of_his_events_and_not_an_empty_one(client, tournament, td):
    client.force_login(td)
    page = client.post(reverse("league_list"), _league_form("Empty", []), follow=True)
    assert "Choose at least one of your events" in page.content.decode()
    assert not League.objects.exists()
    client.post(reverse("league_list"), _league_form("Ours", [tournament]))
    assert list(League.objects.get(name="Ours").events.all()) == [tournament]


def test_a_merge_with_a_player_of_another_tds_event_is_refused(client, tournament, td, foreign):
    event_b, theirs, _other_td = foreign
    here = make_player("tom", "GRIGI")
    entry_services.entry_register(tournament=tournament, player=here, actor=td, now=NOW)
    # Entered here too, he is reachable: but his entry in B is not the TD's to move.
    entry_services.entry_register(tournament=tournament, player=theirs, actor=td, now=NOW)
    entry_services.entry_eliminate(
        tournament=tournament, entry=tournament.entries.get(player=theirs), actor=td, now=NOW
    )
    client.force_login(td)
    for source, target in ((here, theirs), (theirs, here)):
        page = client.post(
            reverse("person_merge", args=[source.pk]), {"into": target.pk}, follow=True
        )
        assert "you do not run" in page.content.decode()
    assert event_b.entries.get().player_id == theirs.pk
    assert not Player.objects.filter(merged_into__isnull=False).exists()
    assert not RoomEvent.objects.filter(action="room.player_merge").exists()


def _cash_room():
    from room.models import CashGame, CashTable

    game = CashGame.objects.create(sb=1, bb=2, min_buy_in=100)
    other = CashGame.objects.create(sb=2, bb=5, min_buy_in=200)
    tables = [CashTable.objects.create(game=game, number=n, opened_at=NOW) for n in (11, 12)]
    return game, other, tables


def test_a_merge_moves_the_cash_rooms_records_and_the_undo_moves_them_back(client, tournament, td):
    from room.models import CashOut, CashSeat, WaitEntry

    manager = make_manager()
    game, other, (table, _t2) = _cash_room()
    kept, duplicate = make_player("Rita", "Sole"), make_player("rita", "SOLE")
    entry_services.entry_register(tournament=tournament, player=kept, actor=td, now=NOW)
    seat = CashSeat.objects.create(table=table, number=3, player=duplicate, seated_at=NOW)
    listed = WaitEntry.objects.create(game=other, player=duplicate, position=1, joined_at=NOW)
    out = CashOut.objects.create(player=duplicate, game=game, stack=340, at=NOW)
    client.force_login(manager)
    response = client.post(reverse("person_merge", args=[duplicate.pk]), {"into": kept.pk})
    assert response.status_code == 302
    for row in (seat, listed, out):
        row.refresh_from_db()
        assert row.player_id == kept.pk, row
    event = RoomEvent.objects.get(action="room.player_merge")
    assert client.post(reverse("merge_undo", args=[event.pk])).status_code == 302
    for row in (seat, listed, out):
        row.refresh_from_db()
        assert row.player_id == duplicate.pk, row
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id is None


def test_a_merge_of_two_players_seated_or_listed_in_the_cash_room_is_refused(client):
    from room.models import CashSeat, WaitEntry

    manager = make_manager()
    game, other, (t11, t12) = _cash_room()
    a, b = make_player("Ugo", "Lupo"), make_player("ugo", "LUPO")
    CashSeat.objects.create(table=t11, number=2, player=a, seated_at=NOW)
    CashSeat.objects.create(table=t12, number=7, player=b, seated_at=NOW)
    client.force_login(manager)
    page = client.post(reverse("person_merge", args=[a.pk]), {"into": b.pk}, follow=True)
    text = page.content.decode()
    assert "Both players sit at cash tables" in text
    assert "table 11, seat 2" in text and "table 12, seat 7" in text
    CashSeat.objects.filter(player=b).delete()
    for p in (a, b):
        WaitEntry.objects.create(game=other, player=p, position=p.pk, joined_at=NOW)
    page = client.post(reverse("person_merge", args=[a.pk]), {"into": b.pk}, follow=True)
    assert "on the waiting list for NL Hold&#x27;em 2/5" in page.content.decode()
    assert not RoomEvent.objects.filter(action="room.player_merge").exists()
    assert CashSeat.objects.get().player_id == a.pk


def test_the_undo_of_another_tds_merge_is_not_found(client, tournament, td, foreign):
    event_b, theirs, other_td = foreign
    twin = make_player("Tom", "Grigi")
    entry_services.entry_register(tournament=event_b, player=twin, actor=other_td, now=NOW)
    entry_services.entry_eliminate(
        tournament=event_b, entry=event_b.entries.get(player=twin), actor=other_td, now=NOW
    )
    entry_services.entry_eliminate(
        tournament=event_b, entry=event_b.entries.get(player=theirs), actor=other_td, now=NOW
    )
    event = people_services.players_merge(source=twin, target=theirs, actor=other_td, now=NOW)
    client.force_login(td)
    assert client.post(reverse("merge_undo", args=[event.pk])).status_code == 404
    twin.refresh_from_db()
    assert twin.merged_into_id == theirs.pk


def test_after_a_merge_the_cash_room_never_brings_the_merged_away_record_back():
    """An older cash-room action undone after the merge would put the hidden record back
    on a list; his card finds the player kept."""
    from room.events import room_event_undo
    from room.models import WaitEntry
    from room.selectors import cash as cash_selectors
    from room.services import cash_lists
    from tournaments.errors import CannotUndo

    manager = make_manager()
    _game, other, _tables = _cash_room()
    kept = make_player("Rita", "Sole")
    duplicate = make_player("rita", "SOLE", document_number="RS777")
    cash_lists.list_add(actor=manager, player=duplicate, games=[other], present=True, now=NOW)
    later = make_player("Ezio", "Nero")
    cash_lists.list_add(actor=manager, player=later, games=[other], present=True, now=NOW)
    people_services.players_merge(source=duplicate, target=kept, actor=manager, now=NOW)
    added = RoomEvent.objects.filter(action="cash.list_add").order_by("pk").last()
    with pytest.raises(CannotUndo, match="merged into another since"):
        room_event_undo(event_id=added.pk, actor=manager, now=NOW)
    assert list(WaitEntry.objects.order_by("position").values_list("player", flat=True)) == [
        kept.pk,
        later.pk,
    ]
    found = cash_selectors.player_search("RS777", user=manager)
    assert [f.player for f in found] == [kept]

"""Issue 16 items 1-3 through the pages: the player list, table chip counts, the room's
players (profile, duplicates, merge and undo, export, erasure) and leagues."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.models import RoomEvent
from tests.conftest import NOW, make_manager, make_player, make_tournament, make_user
from tournaments.models import ChipCount, Entry, League, Player
from tournaments.services import entries as entry_services
from tournaments.services import people as people_services

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
    from tournaments import roster

    register(tournament, td, 5)
    pages = {
        asked: roster.player_list_page(tournament, sort="name", page=asked, per_page=2)
        for asked in (1, 3, 9)
    }
    assert [(p.number, p.paginator.count, p.paginator.num_pages) for p, _r in pages.values()] == [
        (1, 5, 3),
        (3, 5, 3),
        (3, 5, 3),  # past the end: the last page
    ]
    assert [[str(e.player) for e in rows] for _p, rows in pages.values()] == [
        ["Verdi000 Gino0", "Verdi001 Gino1"],
        ["Verdi004 Gino4"],
        ["Verdi004 Gino4"],
    ]
    with CaptureQueriesContext(connection) as whole:
        roster.player_list_page(tournament, page=1, per_page=2)
    with CaptureQueriesContext(connection) as searched:
        found, rows = roster.player_list_page(tournament, query="verdi003", page=1, per_page=2)
    assert (found.paginator.count, [str(e.player) for e in rows]) == (1, ["Verdi003 Gino3"])
    assert len(searched) == len(whole) - 1  # no count: the page holds every match
    nobody, rows = roster.player_list_page(tournament, query="nobody", page=1, per_page=2)
    assert (nobody.paginator.count, nobody.number, rows) == (0, 1, [])


def test_the_list_finds_a_word_in_any_name_case_and_accents_aside_also_after_a_rename(
    tournament, td
):
    from tournaments import roster

    register(tournament, td, 2)
    player = make_player("Nicolò", "D'Àngelo", nickname="Il Pirata")
    entry_services.entry_register(tournament=tournament, player=player, actor=td, now=NOW)

    def found(query: str) -> list[str]:
        return [str(e.player) for e in roster.player_list_page(tournament, query=query)[1]]

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
    from tournaments import roster

    shown = []
    for page in (1, 2, 3, 4, 9):
        chosen, rows = roster.player_list_page(tournament, sort="chips", page=page, per_page=2)
        shown.append([e.number for e in rows])
        assert chosen.paginator.num_pages == 4
    assert shown == [expected[0:2], expected[2:4], expected[4:6], expected[6:], expected[6:]]
    assert [e.number for e in roster.player_list(tournament, sort="chips")] == expected
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
        {"first_name": "Paola", "last_name": "Gialli", "nickname": "La Volpe", "phone": "+39 333"},
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
    assert [(r["name"], r["points"]) for r in rows] == [("Uno Anna", "12"), ("Due Bruno", "8")]
    _finish(tuesday, td, {2: (1, 100), 1: (2, 50)})  # Bruno wins Tuesday: tied on 18
    rows = client.get(reverse("league_public", args=[league.slug])).context["rows"]
    assert [(r["rank"], r["points"]) for r in rows] == [("1=", "18"), ("1=", "18")]
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
    assert page.context["preview"][0] == (1, "100")


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
    assert rows[0]["name"] == "Verdi000 Gino0" and rows[0]["points"] == "6"  # 2 bounties
    paid = client.get(reverse("player_list", args=[event.slug]), {"show": "paid"})
    assert [e.number for e in paid.context["rows"]] == [2]


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

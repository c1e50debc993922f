"""A staff page of a tournament reads the login's session and user, then its tournament
and the entry its address numbers: all four go to the database in one trip (config/auth.py,
tournaments.views.ahead.page_reads). What was read ahead is the request's own: answered once, never
to a transaction begun after it (a service reads again under its lock), forgotten when
the request ends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse

from config.speedups import prepared
from tests.conftest import NOW, make_player
from tests.tournaments.services.test_moves import seat_players, where
from tournaments import selectors
from tournaments.models import Entry, Tournament
from tournaments.services import entries as entry_services

pytestmark = [
    pytest.mark.fast_path(
        "reads made ahead in the login's trip (config/speedups/prepared.py, config/auth.py)"
    ),
    pytest.mark.django_db,
]


def _register(tournament, td, first: str, last: str) -> Entry:
    return entry_services.entry_register(
        tournament=tournament, player=make_player(first, last), actor=td, now=NOW
    ).entry


@contextmanager
def _statements() -> Iterator[list[tuple[str, bool]]]:
    """Every statement the block sends, and whether psycopg's pipeline was open for it
    (the statements sent before one Sync go in one trip)."""
    statements: list[tuple[str, bool]] = []

    def record(execute, sql, params, many, context):
        statements.append((sql, bool(connection.connection.pgconn.pipeline_status)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield statements


def _login_tournament_and_entry_in_one_trip(statements: list[tuple[str, bool]]) -> None:
    first = statements[:4]
    assert [
        table in sql
        for (sql, _p), table in zip(
            first,
            ("django_session", "auth_user", "tournaments_tournament", "tournaments_entry"),
            strict=True,
        )
    ] == [True] * 4, [sql[:60] for sql, _p in first]
    assert all(in_pipeline for _sql, in_pipeline in first)


@pytest.mark.postgres
def test_an_elimination_reads_the_login_its_tournament_and_its_entry_in_one_trip(
    client, tournament, td, floor
):
    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    anna = _register(tournament, td, "Anna", "Verdi")
    client.force_login(floor)
    client.get(reverse("room", args=[tournament.slug]))  # the session is known to be hers

    with _statements() as statements:
        answer = client.post(reverse("eliminate", args=[tournament.slug, anna.number]))
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.status == "eliminated"
    _login_tournament_and_entry_in_one_trip(statements)


@pytest.mark.postgres
def test_a_move_reads_the_entry_its_form_names_in_the_logins_trip(client, tournament, td, floor):
    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    placed = seat_players(tournament, {1: [1, 2, 3], 2: [1, 2, 3]})
    client.force_login(floor)
    client.get(reverse("room", args=[tournament.slug]))  # the session is known to be hers
    moved = placed[(1, 1)]

    with _statements() as statements:
        answer = client.post(
            reverse("player_move", args=[tournament.slug]),
            {"entry": f" {moved.number} ", "table": 2, "seat": 4},
        )
    assert answer.status_code == 302
    assert where(moved) == (2, 4)
    _login_tournament_and_entry_in_one_trip(statements)
    # Read once: the view is answered by the read made ahead, not by a trip of its own.
    entry_reads = [sql for sql, _p in statements if 'FROM "tournaments_entry"' in sql]
    assert len(entry_reads) == 2  # ahead, and the service's own under the lock
    # The seat, read free under the lock, is written with the COMMIT, in its trip: no
    # statement of its own.
    assert not [sql for sql, _p in statements if 'INTO "tables_seat"' in sql]


def test_a_move_form_that_names_no_entry_reads_nothing_ahead_and_says_so(
    client, tournament, td, floor
):
    placed = seat_players(tournament, {1: [1, 2], 2: [1, 2]})
    client.force_login(floor)
    for junk in ("", "x", "0", "²", "99999999999"):
        page = client.post(
            reverse("player_move", args=[tournament.slug]),
            {"entry": junk, "table": 2, "seat": 4},
            follow=True,
        ).content.decode()
        assert "Give the entry number, the table and the seat." in page, junk
    assert {place: where(entry) for place, entry in placed.items()} == {
        place: place for place in placed
    }


def test_what_a_request_reads_ahead_is_its_own_and_never_a_transactions(tournament, td):
    anna = _register(tournament, td, "Anna", "Verdi")
    reads = selectors.entry_by_number_read(tournament.pk, anna.number)
    with prepared.request_reads():
        with prepared.ahead(for_request=reads):
            pass
        Entry.objects.filter(pk=anna.pk).update(chips=12_345)
        with transaction.atomic():  # a service: it reads the entry as it is now
            assert selectors.entry_by_number(tournament, anna.number).chips == 12_345
        # The view's read, as the request's start found it, answered once.
        assert selectors.entry_by_number(tournament, anna.number).chips != 12_345
        assert selectors.entry_by_number(tournament, anna.number).chips == 12_345
    # Without a request, nothing is read ahead for it.
    with prepared.ahead(for_request=reads):
        Entry.objects.filter(pk=anna.pk).update(chips=777)
    assert selectors.entry_by_number(tournament, anna.number).chips == 777


def test_each_request_reads_its_page_afresh(client, tournament, td, floor):
    anna = _register(tournament, td, "Anna", "Verdi")
    client.force_login(floor)
    eliminate = reverse("eliminate", args=[tournament.slug, anna.number])
    assert "Verdi Anna is out." in client.post(eliminate, follow=True).content.decode()
    # The same address again: the entry is read as it is now, out.
    assert "is not playing" in client.post(eliminate, follow=True).content.decode()

    Tournament.objects.filter(pk=tournament.pk).update(name="Monday Turbo")
    page = client.get(reverse("room", args=[tournament.slug])).content.decode()
    assert "Monday Turbo" in page


@pytest.mark.postgres
def test_a_registration_sends_the_lock_and_what_it_reads_under_it_in_one_trip(tournament, td):
    """Every desk of an event queues on its row lock: a registration sends the lock, the
    night's books, the last entry number, the places out, the player's entries and the
    tables' loads in one trip, reads none of them again, and still draws the next number
    and a free seat."""
    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    anna = _register(tournament, td, "Anna", "Verdi")
    entry_services.entry_eliminate(tournament=tournament, entry=anna, actor=td, now=NOW)
    bruno = make_player("Bruno", "Neri")

    with _statements() as statements:
        registration = entry_services.entry_register(
            tournament=tournament, player=bruno, actor=td, now=NOW
        )
    assert registration.entry.number == 2
    anna.refresh_from_db()
    assert anna.place == 2  # moved down one by the new entry
    first = statements[:6]
    assert "FOR UPDATE" in first[0][0]
    assert [
        table in sql
        for (sql, _p), table in zip(
            first,
            (
                '"tournaments_tournament"',
                '"tournaments_nightclose"',
                'MAX("tournaments_entry"."number")',
                '"tournaments_entry"."place" IS NOT NULL',
                '"tournaments_entry"."player_id" =',
                '"tables_table"',
            ),
            strict=True,
        )
    ] == [True] * 6, [sql[:80] for sql, _p in first]
    assert all(in_pipeline for _sql, in_pipeline in first)
    later = [sql for sql, _p in statements[6:]]
    assert not [sql for sql in later if "tournaments_nightclose" in sql]
    assert not [sql for sql in later if 'MAX("tournaments_entry"."number")' in sql]
    assert not [sql for sql in later if 'FROM "tables_table"' in sql and "COUNT(" in sql]

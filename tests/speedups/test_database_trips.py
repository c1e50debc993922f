"""On PostgreSQL, what needs no answer goes with the transaction's next trip to the
database (config/speedups/postgresql): its BEGIN with its first statement, a savepoint or
a write of a locked row with the next statement or the COMMIT, a push's reads after the
COMMIT in its trip. What the room sees must not change: a transaction's writes stay its
own until it commits, a failed write fails the whole, a savepoint rolled back takes back
what was written in it, and a read that fails after a COMMIT cannot undo it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction

from config.speedups import prepared
from tests.conftest import make_player, make_tournament
from tournaments import selectors
from tournaments.models import DisplayScreen, Player, Tournament

pytestmark = [
    pytest.mark.fast_path("statements pipelined (config/speedups/postgresql)"),
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def on_postgres():
    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")


@pytest.fixture
def elsewhere():
    """What another connection (another server process) sees: committed rows only."""
    other = connections.create_connection("default")

    def seen(last_name: str | None = None, *, screens_of: int | None = None) -> list[str]:
        """The first names of the players of that last name, or the names of the
        tournament's screens."""
        with other.cursor() as cursor:
            if screens_of is not None:
                cursor.execute(
                    "SELECT name FROM tournaments_displayscreen WHERE tournament_id = %s"
                    " ORDER BY name",
                    [screens_of],
                )
            else:
                cursor.execute(
                    "SELECT first_name FROM tournaments_player WHERE last_name = %s", [last_name]
                )
            return [row[0] for row in cursor.fetchall()]

    yield seen
    other.close()


def test_a_transaction_begins_with_its_first_statement_and_keeps_its_writes_until_commit(
    elsewhere,
):
    with transaction.atomic():
        assert connection.begin_waits  # nothing sent yet
        make_player("Mario", "Rossi")
        assert not connection.begin_waits  # the BEGIN went with the INSERT
        assert Player.objects.filter(last_name="Rossi").count() == 1
        assert elsewhere("Rossi") == []  # not committed: nobody else sees it
    assert elsewhere("Rossi") == ["Mario"]

    with pytest.raises(RuntimeError), transaction.atomic():
        make_player("Luigi", "Verdi")
        raise RuntimeError("the floor changed its mind")
    assert elsewhere("Verdi") == []
    assert not Player.objects.filter(last_name="Verdi").exists()

    with transaction.atomic():  # nothing done: nothing sent, nothing to commit
        pass
    assert not connection.begin_waits


def test_writes_of_locked_rows_go_with_the_next_statement_or_the_commit(elsewhere, td):
    event = make_tournament(td)
    clock = DisplayScreen.objects.create(tournament=event, name="Clock")
    DisplayScreen.objects.create(tournament=event, name="Gone")
    with transaction.atomic():
        locked = DisplayScreen.objects.select_for_update().get(pk=clock.pk)
        locked.name = "Bar clock"
        prepared.save_later(locked, ["name"])
        assert connection.deferred  # waiting for the next trip
        # A read in the transaction goes with it, after it: it sees the change.
        assert DisplayScreen.objects.get(pk=clock.pk).name == "Bar clock"
        assert not connection.deferred

        created = prepared.create_later(DisplayScreen, tournament=event, name="Later")
        assert created.pk is None  # nobody needed its key
        prepared.delete_later(DisplayScreen.objects.filter(tournament=event, name="Gone"))
        assert connection.deferred
        assert elsewhere(screens_of=event.pk) == ["Clock", "Gone"]
    # They went with the COMMIT.
    assert elsewhere(screens_of=event.pk) == ["Bar clock", "Later"]

    # A delete that cascades or signals, a save of a model with a save() of its own: the
    # ORM's own, at once.
    make_player("Mario", "Rossi")
    with transaction.atomic():
        prepared.delete_later(Player.objects.filter(last_name="Rossi"))
        assert not connection.deferred
        made = prepared.create_later(Player, first_name="Anna", last_name="Bianchi")
        assert made.pk is not None and made.search_name
        assert not connection.deferred
    assert elsewhere("Rossi") == [] and elsewhere("Bianchi") == ["Anna"]


def test_a_write_that_fails_with_the_commit_fails_the_whole_transaction(elsewhere, td):
    event = make_tournament(td)
    screen = DisplayScreen.objects.create(tournament=event, name="Clock")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("Mario", "Undone")
        # The same token as a screen the room has: refused when it reaches the database.
        prepared.create_later(DisplayScreen, tournament=event, name="Twin", token=screen.token)
    assert elsewhere("Undone") == []
    assert DisplayScreen.objects.filter(tournament=event).count() == 1
    # The connection is usable again, for the next request.
    with transaction.atomic():
        make_player("Anna", "Next")
    assert elsewhere("Next") == ["Anna"]


def test_a_savepoint_rolled_back_takes_back_what_was_written_in_it(elsewhere, td):
    event = make_tournament(td)
    with transaction.atomic():
        make_player("Mario", "Outer")
        with pytest.raises(RuntimeError), transaction.atomic():  # its SAVEPOINT waits
            prepared.create_later(DisplayScreen, tournament=event, name="Inner")
            raise RuntimeError("undone")
        make_player("Anna", "After")
    assert elsewhere("Outer") == ["Mario"]
    assert not DisplayScreen.objects.filter(tournament=event).exists()
    assert elsewhere("After") == ["Anna"]


def test_a_commit_carries_reads_that_see_what_it_committed(td, django_assert_num_queries):
    event = make_tournament(td)
    reads = [(selectors._TOURNAMENT_BY_PK, {"pk": event.pk})]
    with transaction.atomic():
        Tournament.objects.filter(pk=event.pk).update(name="Monday Turbo")
        riding = prepared.with_commit(reads)
        assert riding is not None and riding.found is None
    assert riding.found is not None
    with django_assert_num_queries(0), prepared.ahead(reads, ready=riding):
        assert selectors.tournament_by_pk(event.pk).name == "Monday Turbo"

    # Outside a transaction there is no COMMIT to ride with: the reads are made as usual.
    assert prepared.with_commit(reads) is None


def test_a_read_that_fails_after_the_commit_leaves_the_commit_standing(elsewhere):
    broken = prepared.Riding([("SELECT * FROM no_such_table", [])], ["broken"], "default")
    with transaction.atomic():
        make_player("Mario", "Kept")
        assert connection.ride_commit(broken)
    assert broken.found is None  # its push reads again, as before
    assert elsewhere("Kept") == ["Mario"]
    with transaction.atomic():
        make_player("Anna", "Next")
    assert elsewhere("Next") == ["Anna"]


def test_a_server_side_cursor_reads_in_and_out_of_a_transaction():
    for name in ("Uno", "Due", "Tre"):
        make_player(name, "Cursor")
    query = Player.objects.filter(last_name="Cursor").order_by("first_name")
    assert [p.first_name for p in query.iterator(chunk_size=1)] == ["Due", "Tre", "Uno"]
    with transaction.atomic():
        make_player("Quattro", "Cursor")
        assert [p.first_name for p in query.iterator(chunk_size=1)] == [
            "Due",
            "Quattro",
            "Tre",
            "Uno",
        ]

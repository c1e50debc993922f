"""The hot reads compiled once (config/speedups/prepared.py) read what the database holds now:
the same row the ORM reads, and each call's own values."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.http import Http404
from django.urls import reverse

from config.speedups.prepared import Prepared
from tests.conftest import make_tournament, make_user
from tournaments import permissions
from tournaments.models import Role, StaffAssignment, Tournament
from tournaments.services import locks

pytestmark = pytest.mark.django_db


def _fields(row) -> dict:
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def _entry(event, td, last: str):
    """A new player of that last name registered in `event`: his entry."""
    from tests.conftest import NOW, make_player
    from tournaments.services import entries as entry_services

    return entry_services.entry_register(
        tournament=event, player=make_player(last=last), actor=td, now=NOW
    ).entry


def test_the_staff_tournament_is_the_row_the_orm_reads_and_follows_changes(tournament, desk):
    found = permissions.get_tournament_for(desk, tournament.slug, roles=permissions.DESK)
    assert _fields(found) == _fields(Tournament.objects.get(pk=tournament.pk))

    Tournament.objects.filter(pk=tournament.pk).update(name="Monday Turbo", currency="CHF")
    desk._torneo_roles = {}
    found = permissions.get_tournament_for(desk, tournament.slug, roles=permissions.DESK)
    assert (found.name, found.currency) == ("Monday Turbo", "CHF")


def test_each_call_gets_its_own_tournament_and_role(td, tournament):
    other = make_tournament(td, name="Other night")
    clerk = make_user("clerk")
    StaffAssignment.objects.create(tournament=tournament, user=clerk, role=Role.DESK)
    StaffAssignment.objects.create(tournament=other, user=clerk, role=Role.FLOOR)
    assert permissions.get_tournament_for(clerk, tournament.slug, roles=permissions.DESK) == (
        tournament
    )
    with pytest.raises(PermissionDenied):  # floor there: not a desk
        permissions.get_tournament_for(clerk, other.slug, roles=permissions.DESK)
    assert permissions.get_tournament_for(clerk, other.slug, roles=permissions.FLOOR) == other
    with pytest.raises(Http404):
        permissions.get_tournament_for(clerk, "no-such-event", roles=permissions.FLOOR)


def test_a_desk_removed_is_refused_at_the_next_page(client, tournament, desk):
    client.force_login(desk)
    assert client.get(reverse("desk", args=[tournament.slug])).status_code == 200
    StaffAssignment.objects.filter(user=desk).delete()
    assert client.get(reverse("desk", args=[tournament.slug])).status_code == 403


def test_the_lock_reads_the_row_now_and_refuses_outside_a_transaction(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(name="Renamed")
    with transaction.atomic():
        locked = locks.tournament_for_update(tournament)
    assert locked.name == "Renamed"
    assert _fields(locked) == _fields(Tournament.objects.get(pk=tournament.pk))
    gone = Tournament(pk=tournament.pk + 1000)
    with pytest.raises(Tournament.DoesNotExist), transaction.atomic():
        locks.tournament_for_update(gone)


@pytest.mark.django_db(transaction=True)
def test_the_lock_outside_a_transaction_is_refused_as_select_for_update_is(td):
    tournament = make_tournament(td, tables=0)
    with pytest.raises(TransactionManagementError):
        locks.tournament_for_update(tournament)


@pytest.mark.fast_path("SQL compiled once (config/speedups/prepared.py)")
def test_a_stand_in_the_sql_does_not_carry_is_refused(tournament):
    prepared = Prepared(lambda slug: Tournament.objects.filter(name="x"), slug="-stand-in-")
    with pytest.raises(ValueError, match="stand-ins"):
        prepared.instances(slug=tournament.slug)
    by_name = Prepared(lambda name: Tournament.objects.filter(name=name), name="-stand-in-")
    with pytest.raises(TypeError):
        by_name.rows(slug="Sunday Deepstack")
    assert [t.pk for t in by_name.instances(name=tournament.name)] == [tournament.pk]


def test_a_small_integer_field_takes_a_stand_in_too(td, tournament):
    """psycopg hands a small integer field's value over as its own int type (Int2): the
    stand-in is found all the same, and each call reads its own day."""
    second = make_tournament(td, name="Day two")
    Tournament.objects.filter(pk=second.pk).update(day=2)
    by_day = Prepared(
        lambda day: Tournament.objects.filter(day=day).order_by("pk").values_list("pk"),
        day=32_719,
    )
    assert by_day.rows(day=2) == [(second.pk,)]
    assert (tournament.pk,) in by_day.rows(day=1)


def test_the_field_figures_are_the_orm_aggregates(td, tournament):
    """The clock screen's figures, compiled once, add up what the ORM adds up (a flight's
    sales count in its main event's pool; PostgreSQL sums integers as numeric)."""
    from django.db.models import Count, Sum

    from tournaments import selectors
    from tournaments.models import Entry

    flight = make_tournament(td, name="Flight B")
    Tournament.objects.filter(pk=flight.pk).update(parent=tournament)
    flight.refresh_from_db()
    for event, last in ((tournament, "Rossi"), (tournament, "Bianchi"), (flight, "Verdi")):
        _entry(event, td, last)
    figures, buy_ins, _money = selectors._figures(tournament, family=True)
    mine = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.VOIDED)
    expected = mine.aggregate(n=Count("id"), chips=Sum("chips"))
    assert figures["entries"] == figures["players_left"] == expected["n"] == 2
    assert figures["chips_in_play"] == expected["chips"] > 0
    assert type(figures["chips_in_play"]) is int
    assert buy_ins == 3  # the flight's entry is sold for the main event's pool
    assert selectors._figures(flight, family=True)[1] == 1  # a flight is its own family


def test_an_entry_by_its_number_comes_with_its_player_in_one_statement(
    td, tournament, django_assert_num_queries
):
    """The floor's and the desk's read of one player by his number: his entry in this
    event only, his name read with it, and nothing for a number no entry of the event
    holds (or no database column could)."""
    from tournaments import selectors

    other = make_tournament(td, name="Monday Turbo")
    mine = _entry(tournament, td, "Verdi")
    theirs = _entry(other, td, "Neri")
    with django_assert_num_queries(1):
        found = selectors.entry_by_number(tournament, mine.number)
        assert (found.pk, found.player.last_name) == (mine.pk, "Verdi")
    assert _fields(found) == _fields(type(found).objects.get(pk=mine.pk))
    assert selectors.entry_by_number(other, theirs.number).player.last_name == "Neri"
    assert selectors.entry_by_number(tournament, mine.number + 50) is None
    with django_assert_num_queries(0):
        assert selectors.entry_by_number(tournament, 0) is None
        assert selectors.entry_by_number(tournament, 2**40) is None


def test_a_lone_bust_locks_its_entry_and_reads_its_player_with_it(td, tournament):
    """The entry a lone elimination locks is its own, with its player: the floor's
    message names him, and a number of another event is never eliminated here."""
    from tests.conftest import NOW
    from tournaments.models import Entry
    from tournaments.services import entries as entry_services
    from tournaments.services import results

    other = make_tournament(td, name="Monday Turbo")
    out = _entry(tournament, td, "Verdi")
    for last in ("Rossi", "Bianchi"):
        _entry(tournament, td, last)
    stranger = _entry(other, td, "Neri")
    with transaction.atomic():
        (locked,) = results._LONE_ENTRY_LOCKED.instances(pk=out.pk, tournament_id=tournament.pk)
        assert str(locked.player) == str(out.player)
        assert not results._LONE_ENTRY_LOCKED.instances(pk=stranger.pk, tournament_id=tournament.pk)
    from tournaments.errors import NotPlaying

    with pytest.raises(NotPlaying):
        entry_services.entry_eliminate(tournament=tournament, entry=stranger, actor=td, now=NOW)
    assert Entry.objects.get(pk=stranger.pk).status == Entry.Status.ACTIVE
    entry_services.entry_eliminate(tournament=tournament, entry=out, actor=td, now=NOW)
    assert Entry.objects.get(pk=out.pk).place == 3


def test_the_clock_reads_the_same_structure_compiled_or_prefetched(tournament):
    """The structure the clock runs is the TD's, levels and breaks in their order, whether
    read alone (every clock change) or with the lobby's other events (prefetched)."""
    from tournaments import selectors
    from tournaments.models import StructureItem
    from tournaments.rules import clock

    alone = selectors.clock_structure(tournament)
    prefetched = Tournament.objects.prefetch_related("items").get(pk=tournament.pk)
    assert selectors.clock_structure(prefetched) == alone
    items = list(StructureItem.objects.filter(tournament=tournament).order_by("position"))
    assert len(alone) == len(items) > 2
    assert [isinstance(i, clock.Break) for i in alone] == [
        item.kind == StructureItem.Kind.BREAK for item in items
    ]
    first = next(i for i in alone if isinstance(i, clock.Level))
    level = next(item for item in items if item.kind != StructureItem.Kind.BREAK)
    assert (first.number, first.small_blind, first.big_blind, first.duration) == (
        1,
        level.small_blind,
        level.big_blind,
        level.minutes * 60,
    )


def test_a_staff_socket_reads_the_account_and_role_as_they_are_now(tournament, floor):
    """A command on a staff socket is judged on the account and the role the database
    holds now: a role taken away or an account disabled is refused at once."""
    floor._torneo_roles = {}
    assert permissions.role_for(permissions.active_user(floor.pk), tournament) == Role.FLOOR
    StaffAssignment.objects.filter(user=floor).update(role=Role.DESK)
    assert permissions.role_for(permissions.active_user(floor.pk), tournament) == Role.DESK
    type(floor).objects.filter(pk=floor.pk).update(is_active=False)
    assert permissions.active_user(floor.pk) is None


def test_entry_numbers_follow_the_highest_of_this_event_and_never_come_back(td, tournament):
    """Each registration takes the next number of its own event (compiled read under the
    lock): a registration undone keeps its number, and another event's numbers do not
    count."""
    from tests.conftest import NOW
    from tournaments.events import event_undo
    from tournaments.models import Event

    other = make_tournament(td, name="Monday Turbo")
    for last in ("Neri", "Gialli", "Blu"):
        _entry(other, td, last)
    first = _entry(tournament, td, "Verdi")
    second = _entry(tournament, td, "Rossi")
    assert (first.number, second.number) == (1, 2)

    logged = Event.objects.get(
        tournament=tournament, action="entry.register", data__entry=second.pk
    )
    event_undo(event_id=logged.pk, tournament=tournament, actor=td, now=NOW)
    second.refresh_from_db()
    assert second.status == second.Status.VOIDED and second.number == 2

    third = _entry(tournament, td, "Bianchi")
    assert third.number == 3


def test_reads_run_side_by_side_give_each_its_own_row_or_refuse(td, tournament):
    """Reads run in one trip (`one_row_each`) each give the row they give alone, with their
    own values; a read that may give several rows is refused rather than mixed up."""
    from config.speedups.prepared import one_row_each
    from tournaments import selectors

    other = make_tournament(td, name="Other night")
    for event, last in ((tournament, "Rossi"), (tournament, "Bianchi"), (other, "Verdi")):
        _entry(event, td, last)
    reads = [
        (selectors._PLAYING, {"tournament_id": tournament.pk}),
        (selectors._BUY_INS[True], {"tournament_id": other.pk}),
        (selectors._TABLES_OPEN, {"tournament_id": tournament.pk}),
    ]
    together = one_row_each(reads)
    alone = [tuple(prepared.rows(**values)[0]) for prepared, values in reads]
    assert together == alone
    assert [int(row[0]) for row in together[:2]] == [2, 1]

    by_pk = Prepared(
        lambda pk: Tournament.objects.filter(pk__gte=pk).order_by("pk").values_list("pk"), pk=-7
    )
    with pytest.raises(ValueError, match="one row"):
        one_row_each([(by_pk, {"pk": 0}), (selectors._PLAYING, {"tournament_id": other.pk})])


def test_an_elimination_reads_the_field_and_the_prizes_as_the_money_pages_do(td, tournament):
    """The field left and the prizes a bust-out reads in one trip are those the payouts
    page and the clock screen show, rebuys' money in the pool included; an event with its
    own payout table keeps it."""
    from tournaments import selectors
    from tournaments.services import entries as entry_services

    Tournament.objects.filter(pk=tournament.pk).update(
        rebuys_allowed=True, rebuy_max=3, rebuy_price=100, rebuy_chips=10_000
    )
    tournament.refresh_from_db()
    for i in range(12):
        _entry(tournament, td, f"Player{i:02d}")
    before = selectors.elimination_figures(tournament)[1]
    buyer = tournament.entries.order_by("number").first()
    entry_services.entry_purchase(
        tournament=tournament,
        entry=buyer,
        kind="rebuy",
        actor=td,
        now=buyer.created_at,
        declared_before_hand=True,
    )
    left, prizes, deal = selectors.elimination_figures(tournament)
    assert left == selectors.players_left(tournament) == 12
    assert prizes == selectors.payout_amounts(tournament)
    assert sum(prizes) == selectors.prize_pool(tournament).prize_pool > sum(before) > 0

    assert deal is False
    Tournament.objects.filter(pk=tournament.pk).update(payouts=[700, 300])
    tournament.refresh_from_db()
    assert selectors.elimination_figures(tournament) == (12, [700, 300], False)

    from tournaments.services import results

    playing = tournament.entries.filter(status="active")
    stacks = {entry.pk: 1000 * (i + 1) for i, entry in enumerate(playing)}
    results.deal_record(
        tournament=tournament, stacks=stacks, method="chip_chop", actor=td, now=buyer.created_at
    )
    assert selectors.elimination_figures(tournament)[2] is True


@pytest.mark.fast_path("reads made ahead (config/speedups/prepared.py)")
def test_reads_made_ahead_answer_the_block_once_and_a_wrong_guess_reads_again(td, tournament):
    """What a push is about to read, read before it in one trip (`ahead`): in the block,
    each read is answered from it without a statement, with what the database holds; a
    read with other values (the guessed day was wrong), or the same read a second time,
    goes to the database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from config.speedups.prepared import ahead
    from tournaments import selectors

    for last in ("Rossi", "Bianchi", "Verdi"):
        _entry(tournament, td, last)
    tournament.refresh_from_db()
    reads, joined = selectors.screen_reads(
        tournament.pk, seen=(tournament.day, tournament.parent_id)
    )
    assert len(reads) == 2 and len(joined) == 1  # the row, the leaders; the field's figures
    fresh = selectors.screen_figures(tournament)
    with ahead(reads, joined), CaptureQueriesContext(connection) as inside:
        row = selectors.tournament_by_pk(tournament.pk)
        figures = selectors.screen_figures(row)
    assert len(inside) == 0
    assert _fields(row) == _fields(tournament)
    assert figures == fresh and figures["players_left"] == 3

    wrong, _joined = selectors.screen_reads(tournament.pk, seen=(tournament.day + 1, None))
    with ahead(wrong), CaptureQueriesContext(connection) as inside:
        assert selectors.tournament_by_pk(tournament.pk).pk == tournament.pk
        assert selectors.chip_leaders(tournament) == fresh["chip_leaders"]  # today's, read
        selectors.tournament_by_pk(tournament.pk)  # once only from what was read ahead
    assert len(inside) == 2

    # Not yet seen: only the row is read ahead, and then the figures as usual.
    assert selectors.screen_reads(tournament.pk, seen=None) == (
        [(selectors._TOURNAMENT_BY_PK, {"pk": tournament.pk})],
        [],
    )


@pytest.mark.postgres
@pytest.mark.fast_path("statements prepared on the server (config/speedups/prepared.py)")
def test_on_postgres_the_hot_reads_are_planned_once_per_connection_and_nothing_else(
    desk, tournament
):
    """A staff page's read of its tournament, run again on the same connection, runs the
    statement PostgreSQL prepared the first time (DB_PREPARE, on by default), and still
    reads the row as it is now. The ORM's own statements are not prepared: they stay bound
    on the client, where a statement may carry more than 65,535 values."""
    from django.conf import settings
    from django.db import connection

    if not settings.USING_POSTGRES:
        pytest.skip("needs PostgreSQL (DATABASE_URL)")

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return [row[0] for row in cursor.fetchall()]

    before = set(prepared())
    permissions.get_tournament_for(desk, tournament.slug, roles=permissions.DESK)
    new = set(prepared()) - before
    assert len(new) == 1 and "staffassignment" in (statement := new.pop())
    permissions.get_tournament_for(desk, tournament.slug, roles=permissions.DESK)
    Tournament.objects.filter(pk=tournament.pk).update(name="Monday Turbo")
    found = permissions.get_tournament_for(desk, tournament.slug, roles=permissions.DESK)
    assert found.name == "Monday Turbo"
    assert set(prepared()) - before == {statement}  # the same one, not prepared again

    # An ORM statement with 70,000 values: bound on the client, run, not prepared.
    assert Tournament.objects.filter(pk__in=range(1, 70_001)).exclude(pk=tournament.pk).count() == 0
    assert set(prepared()) - before == {statement}

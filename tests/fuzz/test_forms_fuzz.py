"""Bad input, fuzzed: every route, a sample of cases each.

`manage.py bench fuzz --cases 10000` runs the same harness (bench/fuzzing/, the room's
routes in bench/fuzzing/room_routes.py) at length. Each case: never a 500, a refused input writes nothing, an accepted one writes the
event log, and what the user reads is in the language the user asked for (Italian).
"""

from __future__ import annotations

import os

import pytest
import time_machine
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from bench.fuzzing import coverage, driving, forms, language, routes, worlds
from tests.conftest import NOW
from tournaments.errors import DomainError
from tournaments.models import Player
from tournaments.services import entries as entry_services

EXAMPLES = 4  # per route: ~70 routes x 4 cases cost ~15 s on SQLite
CI = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One world for the module (each case rolls back what it did), built at the clock its
    cases run at: its calls, shifts, periods and reservations are of that evening."""
    with django_db_blocker.unblock():
        with time_machine.travel(NOW, tick=True):
            built = worlds.build_world("fuzzci")
        yield built
        worlds.delete_world(built)


@pytest.fixture(scope="module")
def catalog():
    return language.Catalog()


def test_every_route_has_a_fuzz_target():
    assert coverage.url_names() ^ set(routes.targets()) == set()


def test_every_field_a_view_reads_is_fuzzed():
    missing = {
        name: sorted(coverage.fields_read(name) - coverage.spec_fields(target))
        for name, target in routes.targets().items()
    }
    assert {name: fields for name, fields in missing.items() if fields} == {}
    assert coverage.fields_read("deal") >= {"method", "stack_{}"}  # the reader reads


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(routes.targets()))
def test_route_survives_junk(name, world, catalog):
    target = routes.targets_cached()[name]

    def check(case):
        outcome = forms.run_form_case(world, case, catalog)
        assert not outcome.problems, "\n".join(outcome.problems)

    driving.drive(forms.form_cases(name, target, world), check, examples=EXAMPLES, derandomize=CI)


# --- The harness finds what it looks for ------------------------------------------------


def _player_new(world) -> forms.FormCase:
    return forms.FormCase(
        target="player_new",
        role="desk",
        kwargs={"slug": world.slug},
        data={"first_name": "Ada", "last_name": "Fuzz"},
    )


@pytest.mark.django_db
def test_a_refusal_after_a_write_is_a_partial_write(world, catalog, monkeypatch):
    def half_done(**kwargs):
        Player.objects.create(first_name="Half", last_name="Done")
        raise DomainError(_("Write the player's first and last name."))

    monkeypatch.setattr(entry_services, "player_create", half_done)
    outcome = forms.run_form_case(world, _player_new(world), catalog)
    assert outcome.refused and "but changed ['tournaments.Player']" in outcome.partial_write
    assert not Player.objects.filter(first_name="Half").exists()  # rolled back


@pytest.mark.django_db
def test_a_write_without_an_event_is_a_partial_write(world, catalog, monkeypatch):
    monkeypatch.setattr(
        entry_services,
        "player_create",
        lambda **kwargs: Player.objects.create(first_name="No", last_name="Log"),
    )
    outcome = forms.run_form_case(world, _player_new(world), catalog)
    assert "without an event" in outcome.partial_write


@pytest.mark.django_db
def test_an_exception_is_a_server_error(world, catalog, monkeypatch):
    def broken(**kwargs):
        raise ZeroDivisionError

    monkeypatch.setattr(entry_services, "player_create", broken)
    outcome = forms.run_form_case(world, _player_new(world), catalog)
    assert "500" in outcome.server_error and "ZeroDivisionError" in outcome.server_error


@pytest.mark.django_db
def test_an_english_message_for_an_italian_user_is_untranslated(world, catalog, monkeypatch):
    def refuse(**kwargs):
        raise DomainError("Write the player's first and last name.")  # not through gettext

    monkeypatch.setattr(entry_services, "player_create", refuse)
    outcome = forms.run_form_case(world, _player_new(world), catalog)
    assert outcome.refused and "is English" in outcome.untranslated


@pytest.mark.django_db
def test_the_same_refusal_in_italian_passes(world, catalog, monkeypatch):
    def refuse(**kwargs):
        raise DomainError(_("Write the player's first and last name."))

    monkeypatch.setattr(entry_services, "player_create", refuse)
    outcome = forms.run_form_case(world, _player_new(world), catalog)
    assert outcome.refused and outcome.message == "Scrivi nome e cognome del giocatore."
    assert not outcome.problems


@pytest.mark.django_db
def test_a_refusal_that_quotes_what_was_typed_is_not_english(world, catalog):
    """Django's "Scegli un'opzione valida. X non è tra quelle disponibili." quotes the
    value typed: when the fuzzer typed one of the site's English texts, the message is
    still Italian (a run found this case; the English message above is still caught)."""
    case = forms.FormCase(
        "tournament_edit", "td", {"slug": world.slug}, {"split_pot_bounty": "Photo (optional)"}
    )
    outcome = forms.run_form_case(world, case, catalog)
    assert outcome.refused and not outcome.problems, outcome.problems
    assert catalog.english_in("Foto (facoltativa) o Photo (optional)") == "Photo (optional)"


# --- What the fuzzing found -----------------------------------------------------------


@pytest.mark.django_db
def test_a_huge_back_table_on_a_move_is_ignored(world, client):
    client.force_login(world.users["floor"])
    url = reverse("player_move", args=[world.slug])
    response = client.post(url, {"entry": "1", "table": "", "back_table": "9" * 5000})
    assert response.status_code == 302 and response["Location"] == reverse(
        "room", args=[world.slug]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("day", ["2026-02-30", "2030-13-01", "0000-00-00"])
def test_a_flight_on_a_day_that_does_not_exist_is_refused(world, catalog, day):
    case = forms.FormCase("flight_new", "td", {"slug": world.slug}, {"name": "Day 1C", "date": day})
    outcome = forms.run_form_case(world, case, catalog)
    assert outcome.refused and not outcome.problems
    with translation.override("it"):
        assert outcome.message == gettext("Give the flight a name and a date.")


@pytest.mark.django_db
@pytest.mark.parametrize("removed", ["0", "1", "24"])
def test_leftovers_of_a_chip_not_in_the_set_are_refused(world, catalog, removed):
    case = forms.FormCase(
        "leftovers", "floor", {"slug": world.slug}, {"entry": "1", "removed": removed, "count": "3"}
    )
    outcome = forms.run_form_case(world, case, catalog)
    assert outcome.refused and not outcome.problems, outcome.problems
    with translation.override("it"):
        text = gettext("There is no %(value)s chip in the chip set.") % {"value": removed}
    assert outcome.message == text


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["0", "50"])
def test_a_colour_up_to_a_chip_not_in_the_set_is_refused(world, catalog, target):
    case = forms.FormCase(
        "color_up",
        "floor",
        {"slug": world.slug},
        {"entry": "1", "target": target, "count_25": "8"},
    )
    outcome = forms.run_form_case(world, case, catalog)
    assert outcome.refused and not outcome.problems, outcome.problems
    with translation.override("it"):
        text = gettext("There is no %(value)s chip in the chip set.") % {"value": target}
    assert outcome.message == text


@pytest.mark.django_db
def test_a_bag_count_beyond_any_stack_is_not_recorded(world, client):
    """999,999,999,999 chips overflowed PostgreSQL's integer column: a 500. Now the bag
    sheet is refused whole, naming the line, and nothing is recorded (a half-saved sheet
    would hide the slip)."""
    from tournaments.models import ChipCount

    client.force_login(world.users["floor"])
    response = client.post(
        reverse("bag", args=[world.slug]),
        {"chips_1": "999999999999", "chips_2": "20000"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Chips of entry 1" in response.content.decode()
    assert not ChipCount.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "role", "data"),
    [
        ("penalty_give", "floor", {"kind": "warning", "entry": "1", "offence": "a\x00b"}),
        ("screens", "td", {"name": "Bar\x00", "kind": "clock"}),
        ("seat_finder", "anonymous", {"q": "Gi\x00"}),
        ("desk_search", "desk", {"q\x00": "Gino"}),
    ],
)
def test_a_nul_byte_is_a_bad_request_in_the_users_language(world, catalog, name, role, data):
    """PostgreSQL cannot store or search a NUL byte: saving one was a 500 on many pages."""
    target = routes.targets_cached()[name]
    kwargs = {"token": world.tokens["clock"]} if "token" in target.kwargs else {}
    kwargs |= {"slug": world.slug} if "slug" in target.kwargs else {}
    outcome = forms.run_form_case(world, forms.FormCase(name, role, kwargs, data), catalog)
    assert outcome.message == "HTTP 400" and not outcome.problems, outcome.problems
    client = forms._client(role, world)
    response = getattr(client, target.method)(reverse(name, kwargs=kwargs), data)
    with translation.override("it"):
        assert gettext("The request could not be understood.") in response.content.decode()


@pytest.mark.django_db
def test_a_structure_with_a_row_of_unknown_kind_is_not_saved(world, catalog):
    """The editor showed "a row is neither a level nor a break" and saved the other rows."""
    from tournaments.models import StructureItem

    data = routes._structure_base(world)
    data["kind"] = ["level", "level", "junk", "level"]
    before = list(StructureItem.objects.filter(tournament_id=world.tournament_id).values())
    case = forms.FormCase("structure_edit", "td", {"slug": world.slug}, data)
    outcome = forms.run_form_case(world, case, catalog)
    assert outcome.refused and not outcome.problems, outcome.problems
    client = forms._client("td", world)
    client.post(reverse("structure_edit", args=[world.slug]), data)
    assert list(StructureItem.objects.filter(tournament_id=world.tournament_id).values()) == before

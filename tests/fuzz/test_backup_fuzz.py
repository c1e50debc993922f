"""Crafted backups, fuzzed: a sample of `bench fuzz`'s backup cases.

Each case uploads the world's export with one place changed (an id of any JSON type, a
dict key, junk in a JSON field or a payload, a clock state); a refused file writes nothing,
an accepted one answers on every read page and on the undo of every imported action, and
no undo reaches another tournament.
"""

from __future__ import annotations

import os

import pytest

from bench import fuzzing_backup
from bench.fuzzing import driving, language, worlds
from tournaments.models import Event

EXAMPLES = 2  # per kind: each accepted document is read and undone whole (~2 s)
CI = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        built = worlds.build_world("fuzzbak")
        yield built
        worlds.delete_world(built)


@pytest.fixture(scope="module")
def catalog():
    return language.Catalog()


def _check(world, catalog):
    def check(case):
        outcomes = fuzzing_backup.run_backup_case(world, case, catalog)
        problems = [p for o in outcomes for p in o.problems]
        assert not problems, "\n".join(problems)

    return check


@pytest.mark.django_db
@pytest.mark.parametrize("kind", fuzzing_backup.KINDS)
def test_a_crafted_backup_is_refused_or_read_and_undone(kind, world, catalog):
    driving.drive(
        fuzzing_backup.backup_cases(world, kind),
        _check(world, catalog),
        examples=EXAMPLES,
        derandomize=CI,
    )


@pytest.mark.django_db
def test_every_place_kind_has_sites_and_the_untouched_file_is_read_and_undone(world, catalog):
    places = fuzzing_backup.sites(world)
    assert all(places[kind] for kind in fuzzing_backup.KINDS), {
        k: len(v) for k, v in places.items()
    }
    # The world's own export, unchanged (a "change" to the value it holds): accepted, and
    # every action of its log reaches the undo.
    path = places["state"][0]
    same = fuzzing_backup._get(fuzzing_backup._document(world), path)
    outcomes = fuzzing_backup.run_backup_case(
        world, fuzzing_backup.BackupCase("state", path, same), catalog
    )
    assert [o for o in outcomes if o.problems] == []
    undos = [o for o in outcomes if o.target.endswith(":undo")]
    logged = Event.objects.filter(tournament_id=world.tournament_id).count() + 1  # the import
    assert len(undos) == min(logged, fuzzing_backup.UNDO_LIMIT)
    assert sum(o.accepted for o in undos) > len(undos) // 2  # undone, newest first

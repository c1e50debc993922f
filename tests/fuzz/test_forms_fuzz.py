"""Bad input, fuzzed (issue 7 item 6): every route, a sample of cases each.

`manage.py bench fuzz --cases 10000` runs the same harness (tournaments/fuzzing.py) at
length. Each case: never a 500, a refused input writes nothing, an accepted one writes the
event log, and what the user reads is in the language the user asked for (Italian).
"""

from __future__ import annotations

import os

import pytest

from tournaments import fuzzing

EXAMPLES = 4  # per route: ~70 routes x 4 cases cost ~15 s on SQLite
CI = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One world for the module (each case rolls back what it did)."""
    with django_db_blocker.unblock():
        built = fuzzing.build_world("fuzzci")
        yield built
        fuzzing.delete_world(built)


@pytest.fixture(scope="module")
def catalog():
    return fuzzing.Catalog()


def test_every_route_has_a_fuzz_target():
    assert fuzzing.url_names() ^ set(fuzzing.targets()) == set()


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(fuzzing.targets()))
def test_route_survives_junk(name, world, catalog):
    target = fuzzing.targets_cached()[name]

    def check(case):
        outcome = fuzzing.run_form_case(world, case, catalog)
        assert not outcome.problems, "\n".join(outcome.problems)

    fuzzing.drive(fuzzing.form_cases(name, target, world), check, examples=EXAMPLES, derandomize=CI)

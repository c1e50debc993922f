"""Every money action sent several times at once (a double click, a retry, two tabs) is
written once: no server error, no double payment, no money without its log row.
`manage.py bench fuzz` runs the same rounds at length."""

from __future__ import annotations

import pytest

from bench import fuzzing_money
from bench.fuzzing import driving, outcomes, worlds


@pytest.fixture
def world(transactional_db):
    built = worlds.build_world("fuzzdup")
    yield built
    worlds.delete_world(built)


@pytest.mark.django_db(transaction=True)
def test_every_money_action_sent_at_once_is_written_once(world):
    tally = outcomes.Tally()
    with driving.quiet():
        fuzzing_money.run_duplicates(world, 1, tally)
    assert sorted(tally.cases) == sorted(f"dup:{name}" for name in fuzzing_money.ACTIONS)
    assert tally.samples == []
    assert (tally.server_errors, tally.double_payments, tally.partial_writes) == (0, 0, 0)
    # Each round's money was written (once), not refused every time.
    assert [name for name in tally.cases if tally.accepted[name] != 1] == []

"""`manage.py bench`: every benchmark is named by `--list` and ends on one JSON line."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from bench.registry import BENCHES


def test_list_names_every_benchmark_one_a_line():
    out = StringIO()
    call_command("bench", "--list", stdout=out)
    assert out.getvalue().split() == sorted(BENCHES)
    assert {
        "seat_draw",
        "registration",
        "registration_load",
        "fanout",
        "reconnect",
        "fuzz",
        "balance",
    } <= set(BENCHES)


@pytest.mark.django_db(transaction=True)
def test_balance_prints_its_figures_as_the_last_line():
    out = StringIO()
    call_command("bench", "balance", "--tables", "30", "--samples", "5", stdout=out)
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["bench"] == "balance" and figures["tables"] == 30
    for key in ("plan_one_ms_median", "full_rebalance_ms", "apply_p95_ms", "apply_sync_p95_ms"):
        assert figures[key] > 0
    assert "Pure plan after one elimination" in lines[0]


@pytest.mark.django_db(transaction=True)
def test_pages_times_every_page_at_both_sizes_and_prints_the_growth():
    out = StringIO()
    call_command("bench", "pages", "--entries", "60", "--samples", "3", stdout=out)
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["bench"] == "pages" and figures["samples"] == 3
    assert {"desk search (as you type)", "eliminations", "public clock"} <= set(figures["pages"])
    for page in figures["pages"].values():
        assert page["p50_ms_60"] > 0 and page["p95_ms_60"] >= page["p50_ms_60"]
        assert page["growth"] == 1.0  # one size only: the same figures


@pytest.mark.django_db(transaction=True)
def test_pages_times_both_sizes_in_the_same_rounds_each_with_its_own_td():
    from bench import pages

    events = {size: pages.build_event(size) for size in (30, 50)}
    try:
        timed = pages.time_pages(events, 2)
        assert set(timed) == {30, 50}
        assert set(timed[30]) == set(timed[50]) >= {"desk search (as you type)", "room"}
        for size, tournament in events.items():
            # The desk's search is timed as a TD of that event alone (it looks among the
            # players of the user's events).
            staff = tournament.staff.get(user__username=f"bench-pages-{size}")
            assert staff.user.assignments.count() == 1
    finally:
        for tournament in events.values():
            pages.cleanup(tournament)

"""`bench dealers`: the rotation's plan timed over a room, figures on the last line."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from bench.registry import BENCHES


def test_dealers_prints_its_figures_as_the_last_line() -> None:
    assert "dealers" in BENCHES
    out = StringIO()
    call_command(
        "bench", "dealers", "--tables", "60", "--dealers", "90", "--samples", "12", stdout=out
    )
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["bench"] == "dealers"
    assert figures["tables"] == 60 and figures["dealers"] == 90 and figures["samples"] == 12
    for key in ("p50_ms", "p95_ms", "max_ms", "cpu_p50_ms", "opening_ms"):
        assert figures[key] >= 0
    assert figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]
    assert figures["opening_moves"] == 60  # every table dealt at the opening
    assert figures["goal_ms"] == 50.0 and isinstance(figures["goal_met"], bool)
    assert lines[0].startswith("Next push for 60 tables and 90 dealers")

"""`bench NAME --paths fast,plain`: both paths side by side in one run (bench/paths.py)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import paths
from config.speedups import switch


def test_paths_are_named_fast_and_plain_in_the_order_given():
    assert paths.parse(None) is None
    assert paths.parse("plain, fast") == ["plain", "fast"]
    assert paths.parse("fast,no-sockets,plain") == ["fast", "no-sockets", "plain"]
    for junk in ("", "fast,fast", "quick", "fast;plain", "no-turbo"):
        with pytest.raises(CommandError, match="--paths"):
            paths.parse(junk)


def test_a_path_without_one_piece_turns_that_piece_off_alone():
    assert [paths.plain_setting(p) for p in ("fast", "plain", "no-gc")] == ["0", "1", "gc"]
    assert switch.plain_pieces("0") == frozenset()
    assert switch.plain_pieces("1") == frozenset(switch.PIECES)
    assert switch.plain_pieces(" sockets, gc ") == {"sockets", "gc"}
    with pytest.raises(ValueError, match="TORNEO_PLAIN names turbo"):
        switch.plain_pieces("sockets,turbo")


def test_each_path_gets_the_same_bench_options():
    options = {"clients": 100, "layer": None, "phases": False, "kind": "move", "per_desk": 5}
    names = ["clients", "layer", "phases", "kind", "per_desk"]
    assert paths.arguments(options, names) == [
        "--clients",
        "100",
        "--kind",
        "move",
        "--per-desk",
        "5",
    ]
    assert paths.arguments({"phases": True}, ["phases"]) == ["--phases"]


def test_rounds_taken_in_turn_are_reported_as_medians_and_a_goal_met_in_every_one():
    rounds = [
        {"p99_ms": 90.0, "delivered": 1000, "goal_met": True, "layer": "redis", "pages": {"a": 3}},
        {"p99_ms": 200.0, "delivered": 990, "goal_met": False, "layer": "redis", "pages": {"a": 1}},
        {"p99_ms": 120.0, "delivered": 1000, "goal_met": True, "layer": "redis", "pages": {"a": 2}},
    ]
    assert paths.median_of(rounds) == {
        "p99_ms": 120.0,
        "delivered": 1000,
        "goal_met": False,
        "layer": "redis",
        "pages": {"a": 2},
    }


def test_both_paths_run_in_their_own_process_and_the_last_line_holds_both(monkeypatch, capsys):
    ran = []

    def run_path(name, path, argv):
        ran.append((name, path, argv))
        met = path == "fast"
        return [f"{path} ran"], {"bench": name, "p99_ms": 100 if met else 300, "goal_met": met}

    monkeypatch.setattr(paths, "run_path", run_path)
    call_command(
        "bench", "fanout", "--clients", "50", "--paths", "fast,plain", "--path-rounds", "2"
    )
    assert [path for _name, path, _argv in ran] == ["fast", "plain", "fast", "plain"]
    assert all(argv[:2] == ["--entries", "10000"] and "--clients" in argv for *_n, argv in ran)
    lines = capsys.readouterr().out.splitlines()
    figures = json.loads(lines[-1])
    assert figures["fast"]["p99_ms"] == 100 and figures["plain"]["p99_ms"] == 300
    assert figures["goal_met"] == {"fast": True, "plain": False}
    assert any("goal_met" in line and "NOT met" in line for line in lines)


def test_a_bench_no_speedup_serves_is_refused_side_by_side():
    with pytest.raises(CommandError, match="--paths is for"):
        call_command("bench", "engine", "--paths", "fast,plain")

"""One benchmark on both paths, side by side in one run: `--paths fast,plain`.

Each path runs in a process of its own, `manage.py bench NAME` again with TORNEO_PLAIN
set for it (config/speedups/switch.py), so its settings, and the servers it starts (which inherit
its environment), are that path's from the start. With `--path-rounds N` the paths take
turns N times (fast, plain, fast, plain, ...), so a machine that slows down meanwhile
weighs on both alike; each path's figures are then the median of its rounds (a goal is
met when it was met in every round).

The last line holds both: `{"bench": ..., "fast": {...}, "plain": {...}, "goal_met":
{"fast": true, "plain": false}, "goals": {...}}`, where `goals` names each goal flag of
the bench (`goal_met`, `connect_goal_met`, `ok`) per path.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from bench.common import Figures, Summary
from config.speedups import switch

# "fast": every speedup on; "plain": every one off; "no-PIECE": that one piece off.
PATHS = ("fast", "plain", *(f"no-{piece}" for piece in switch.PIECES))
# The benchmarks whose goals a speedup serves (../shared/benches.txt).
SIDE_BY_SIDE = frozenset({"fanout", "feed", "pages", "registration_load", "reconnect"})
# The flags a bench's figures carry for its goals.
GOAL_FLAGS = ("goal_met", "connect_goal_met", "ok")


def parse(value: str | None) -> list[str] | None:
    """The paths `--paths` names, in its order, or None (the process's own path)."""
    if value is None:
        return None
    paths = [part.strip() for part in value.split(",") if part.strip()]
    if not paths or any(path not in PATHS for path in paths) or len(set(paths)) != len(paths):
        raise CommandError(f"--paths takes {', '.join(PATHS)}, comma-separated, not {value!r}")
    return paths


def current() -> str:
    """The path this process runs."""
    off = settings.PLAIN_PIECES
    if not off:
        return "fast"
    if settings.PLAIN:
        return "plain"
    return ",".join(f"no-{piece}" for piece in sorted(off))


def plain_setting(path: str) -> str:
    """TORNEO_PLAIN for a path."""
    if path == "fast":
        return "0"
    if path == "plain":
        return "1"
    return path.removeprefix("no-")


def arguments(options: dict[str, Any], names: list[str]) -> list[str]:
    """The command line giving a child the same bench options."""
    found = []
    for name in names:
        value = options.get(name)
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        found += [flag] if value is True else [flag, str(value)]
    return found


def run_path(name: str, path: str, argv: list[str]) -> Summary:
    """`manage.py bench NAME` on `path`, in a process of its own: its lines and figures."""
    environment = {**os.environ, "TORNEO_PLAIN": plain_setting(path)}
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "bench", name, *argv]
    # Its output to a file, not a pipe: a long run's lines cannot stall it.
    with tempfile.TemporaryFile("w+") as out:
        code = subprocess.call(command, cwd=settings.BASE_DIR, env=environment, stdout=out)
        out.seek(0)
        lines = out.read().splitlines()
    if code != 0 or not lines:
        raise CommandError(f"bench {name} on the {path} path failed (exit {code})")
    try:
        figures = json.loads(lines[-1])
    except ValueError:
        raise CommandError(f"bench {name} on the {path} path ended without its figures") from None
    return lines[:-1], figures


def median_of(rounds: list[Any]) -> Any:
    """Rounds' figures as one: numbers by their median, flags met when met in every
    round, mappings key by key, anything else as the first round had it."""
    first = rounds[0]
    if isinstance(first, bool):
        return all(bool(value) for value in rounds)
    if isinstance(first, int | float) and all(
        isinstance(value, int | float) and not isinstance(value, bool) for value in rounds
    ):
        middle = statistics.median(rounds)
        return round(middle, 3) if isinstance(middle, float) else middle
    if isinstance(first, dict) and all(isinstance(value, dict) for value in rounds):
        return {key: median_of([value[key] for value in rounds if key in value]) for key in first}
    return first


def goals(figures: Figures) -> dict[str, bool]:
    return {flag: bool(figures[flag]) for flag in GOAL_FLAGS if flag in figures}


def side_by_side(name: str, paths: list[str], argv: list[str], rounds: int = 1) -> Summary:
    """Run `name` on each of `paths`, taking turns `rounds` times, and set them side by side."""
    if name not in SIDE_BY_SIDE:
        raise CommandError(f"--paths is for {', '.join(sorted(SIDE_BY_SIDE))}")
    if rounds < 1:
        raise CommandError("--path-rounds is at least 1")
    lines: list[str] = []
    found: dict[str, list[Figures]] = {path: [] for path in paths}
    for turn in range(1, rounds + 1):
        for path in paths:
            lines.append(
                f"=== {name} on the {path} path (TORNEO_PLAIN={plain_setting(path)})"
                + (f", round {turn} of {rounds}" if rounds > 1 else "")
                + " ==="
            )
            path_lines, figures = run_path(name, path, argv)
            lines += path_lines
            found[path].append(figures)
    figures: Figures = {"bench": name, "paths": paths, "path_rounds": rounds}
    for path in paths:
        figures[path] = median_of(found[path]) if rounds > 1 else found[path][0]
    figures["goals"] = {path: goals(figures[path]) for path in paths}
    figures["goal_met"] = {path: all(figures["goals"][path].values()) for path in paths}
    lines.append(f"=== Side by side{f' (medians of {rounds} rounds)' if rounds > 1 else ''} ===")
    numbers = [
        key
        for key, value in figures[paths[0]].items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    ]
    for key in numbers:
        lines.append(
            f"  {key:28s} " + "   ".join(f"{path} {figures[path].get(key)!s:>10}" for path in paths)
        )
    for flag in GOAL_FLAGS:
        if any(flag in figures["goals"][path] for path in paths):
            lines.append(
                f"  {flag:28s} "
                + "   ".join(
                    f"{path} {'met' if figures['goals'][path].get(flag) else 'NOT met':>10}"
                    for path in paths
                )
            )
    return lines, figures

"""`manage.py bench fuzz --cases N`: junk into every route and every socket message.

Runs the harness of bench/fuzzing/ (the CI sample in tests/fuzz/ runs the same)
against the configured database: it builds a world, fuzzes every route (each request in a
transaction rolled back afterwards), the socket (its services commit: the world is
deleted at the end), and every money action sent several times at once (double payments,
bench/fuzzing_money.py). Needs the `test` extra (hypothesis, polib).
"""

from __future__ import annotations

import os
import time

from django.core.management.base import CommandError
from django.db import connection

from bench import fuzzing_backup, fuzzing_money
from bench.common import Figures
from bench.fuzzing import driving, forms, language, outcomes, routes, sockets, worlds

WS_SHARE = 0.2  # of the cases go to the socket
BACKUP_SHARE = 0.1  # to crafted backups (each file: its import, reads and undos), the rest
# to the routes
REQUESTS_PER_BACKUP = 10  # a refused file is one request; an accepted one, one per page and undo
DUPLICATE_SHARE = 0.05  # to money actions sent several times at once (each copy a case)


def fuzz(*, cases: int = 10000, **_options) -> tuple[list[str], Figures]:
    try:
        import hypothesis  # noqa: F401
        import polib  # noqa: F401
    except ImportError:
        raise CommandError(
            "bench fuzz needs the test extra (hypothesis, polib): pip install -e '.[test]'"
        ) from None
    derandomize = os.environ.get("CI") == "true"
    started = time.perf_counter()
    catalog = language.Catalog()
    targets = routes.targets_cached()
    quiet = driving.quiet()
    quiet.__enter__()
    world = worlds.build_world("fuzzbench")
    tally = outcomes.Tally()
    timings: dict[str, float] = {}
    try:
        per_target = max(1, round(cases * (1 - WS_SHARE - BACKUP_SHARE) / len(targets)))
        for name, target in sorted(targets.items()):
            began = time.perf_counter()
            driving.drive(
                forms.form_cases(name, target, world),
                lambda case: tally.add(forms.run_form_case(world, case, catalog)),
                examples=per_target,
                derandomize=derandomize,
            )
            timings[name] = time.perf_counter() - began
        # A crafted backup: one file per case, each of its requests counts as a case.
        began = time.perf_counter()
        files = max(
            1, round(cases * BACKUP_SHARE / REQUESTS_PER_BACKUP / len(fuzzing_backup.KINDS))
        )

        def run_backup(case):
            for outcome in fuzzing_backup.run_backup_case(world, case, catalog):
                tally.add(outcome)

        for kind in fuzzing_backup.KINDS:
            driving.drive(
                fuzzing_backup.backup_cases(world, kind),
                run_backup,
                examples=files,
                derandomize=derandomize,
            )
        timings["backup"] = time.perf_counter() - began
        # A socket case is a message of one type, up to two more frames and a ping; each
        # frame counts as a case.
        form_cases = sum(tally.cases.values())
        kinds = [*sockets.ws_message_types(), "junk"]
        per_kind = max(1, (cases - form_cases) // (3 * len(kinds)))
        began = time.perf_counter()

        def run_ws(case):
            for outcome in sockets.run_ws_case(world, case, catalog):
                tally.add(outcome)

        for kind in kinds:
            driving.drive(
                sockets.ws_cases(world, kind), run_ws, examples=per_kind, derandomize=derandomize
            )
        timings["ws"] = time.perf_counter() - began
        # Every money action, its copies sent at once: these requests commit, into events
        # of their own that are removed afterwards.
        began = time.perf_counter()
        per_round = fuzzing_money.COPIES * len(fuzzing_money.ACTIONS)
        fuzzing_money.run_duplicates(
            world, max(1, round(cases * DUPLICATE_SHARE / per_round)), tally
        )
        timings["duplicates"] = time.perf_counter() - began
    finally:
        worlds.delete_world(world)
        quiet.__exit__(None, None, None)
    seconds = time.perf_counter() - started
    sent = {n[3:] for n in tally.cases if n.startswith("ws:")}
    ws_types = sorted(sent & set(sockets.ws_message_types()))
    form_names = [n for n in tally.cases if not n.startswith(("ws:", "backup:", "dup:"))]
    dup_names = [n for n in tally.cases if n.startswith("dup:")]
    backup_names = [n for n in tally.cases if n.startswith("backup:")]
    ws_names = [n for n in tally.cases if n.startswith("ws:")]
    lines = [f"{'target':<36} {'cases':>6} {'refused':>8} {'accepted':>9}"]
    for name in sorted(tally.cases):
        lines.append(
            f"{name:<36} {tally.cases[name]:>6} {tally.refused[name]:>8} {tally.accepted[name]:>9}"
        )
        seen = sorted(tally.messages.get(name, {}).items(), key=lambda kv: -kv[1])
        lines += [f"    {count:>5} × {text}" for text, count in seen[:3]]
    lines.append(f"socket types never sent: {sorted(set(sockets.ws_message_types()) - sent)}")
    lines += ["problems:", *tally.samples] if tally.samples else ["no problems"]
    figures: Figures = {
        "bench": "fuzz",
        "db": connection.vendor,
        "cases": sum(tally.cases.values()),
        "targets": len(form_names) + len(ws_types),
        "form_targets": len(form_names),
        "form_cases": sum(tally.cases[n] for n in form_names),
        "ws_types": len(ws_types),
        "ws_frames": sum(tally.cases[n] for n in ws_names),
        "backup_requests": sum(tally.cases[n] for n in backup_names),
        "backup_imports_accepted": sum(
            tally.accepted[n] for n in backup_names if n.endswith(":import")
        ),
        "refused": sum(tally.refused.values()),
        "accepted": sum(tally.accepted.values()),
        "server_errors": tally.server_errors,
        "partial_writes": tally.partial_writes,
        "duplicate_rounds": sum(tally.cases[n] for n in dup_names),
        "duplicate_requests": sum(tally.cases[n] for n in dup_names) * fuzzing_money.COPIES,
        "double_payments": tally.double_payments,
        "untranslated": tally.untranslated,
        "seconds": round(seconds, 1),
    }
    return lines, figures

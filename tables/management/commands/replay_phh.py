"""Replay PHH hand histories through the in-hand engine and report stack mismatches."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.engine.phh import check_files


class Command(BaseCommand):
    help = (
        "Replay PHH files (or folders, recursively) through the engine; print one line per "
        "mismatch and a closing 'N passed, N failed' line. Exit status 1 if any failed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="PHH files or folders")

    def handle(self, *args: Any, **options: Any) -> None:
        outcomes = check_files(options["paths"])
        failed = [o for o in outcomes if not o.passed]
        for o in failed:
            expected = "[]" if o.expected is None else _show(o.expected)
            got = o.message if o.got is None else _show(o.got)
            self.stdout.write(f"{o.name}: expected {expected}, got {got}")
        self.stdout.write(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
        if failed:
            raise SystemExit(1)


def _show(values: tuple[float, ...] | tuple[int, ...]) -> str:
    return "[" + ", ".join(str(int(v)) if v == int(v) else str(v) for v in values) + "]"

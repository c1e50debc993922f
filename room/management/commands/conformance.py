from django.core.management.base import BaseCommand, CommandError

from room.conformance import load_cases, run_cases


class Command(BaseCommand):
    help = "Run rulebook conformance cases (floor and engine) and report failures."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="JSON case files")

    def handle(self, *args, **options):
        try:
            cases = load_cases(options["files"])
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read cases: {exc}") from exc
        results = run_cases(cases)
        failed = [r for r in results if not r.passed]
        for result in failed:
            self.stdout.write(f"{result.case_id}: {'; '.join(result.problems)}")
        self.stdout.write(f"{len(results) - len(failed)} passed, {len(failed)} failed")
        if failed:
            raise SystemExit(1)

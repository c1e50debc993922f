import json

from django.core.management.base import BaseCommand, CommandError

from bench import fanout, paths
from bench.registry import BENCHES

# The options a bench reads, given again to each path's process (bench/paths.py).
BENCH_OPTIONS = [
    "entries",
    "existing",
    "samples",
    "cases",
    "clients",
    "changes",
    "tables",
    "dealers",
    "rounds",
    "layer",
    "kind",
    "phases",
    "desks",
    "per_desk",
    "repeat",
]


class Command(BaseCommand):
    help = "Run a benchmark; the last line is one JSON object with its figures."

    def add_arguments(self, parser):
        parser.add_argument("name", nargs="?", help=f"one of: {', '.join(sorted(BENCHES))}")
        parser.add_argument("--list", action="store_true", help="name every benchmark")
        parser.add_argument("--entries", type=int, default=10000)
        parser.add_argument("--existing", type=int, default=5000)
        parser.add_argument("--samples", type=int, default=200)
        parser.add_argument("--cases", type=int, default=10000)
        parser.add_argument("--clients", "--screens", dest="clients", type=int, default=1000)
        parser.add_argument(
            "--changes", type=int, default=fanout.CHANGES, help="fanout: timed changes a run"
        )
        parser.add_argument("--tables", type=int, default=1112)
        parser.add_argument("--dealers", type=int, default=1500, help="dealers: dealers on shift")
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument(
            "--layer", choices=["memory", "redis"], default=None, help="default: from REDIS_URL"
        )
        parser.add_argument("--kind", choices=["clock", "elimination", "move"], default="clock")
        parser.add_argument(
            "--phases",
            action="store_true",
            help="fanout: time each change's steps on the server (bench/phases.py)",
        )
        parser.add_argument("--desks", type=int, default=20)
        parser.add_argument("--per-desk", type=int, default=50)
        parser.add_argument("--repeat", type=int, default=3, help="rounds, medians reported")
        parser.add_argument(
            "--paths",
            default=None,
            help="fast and/or plain, comma-separated: each measured in a process of its own "
            "with TORNEO_PLAIN set for it, side by side (bench/paths.py); default: this "
            "process's path, in it",
        )
        parser.add_argument(
            "--path-rounds",
            type=int,
            default=1,
            help="with --paths: the paths take turns this many times, medians reported",
        )

    def handle(self, *args, name: str | None, **options):
        if options.pop("list"):
            for bench_name in sorted(BENCHES):
                self.stdout.write(bench_name)
            return
        if name not in BENCHES:
            raise CommandError(f"Unknown benchmark {name!r}; choose one of {sorted(BENCHES)}")
        chosen = paths.parse(options.pop("paths"))
        rounds = options.pop("path_rounds")
        if chosen is None or chosen == [paths.current()]:
            summary, figures = BENCHES[name](**options)
        else:
            argv = paths.arguments(options, BENCH_OPTIONS)
            summary, figures = paths.side_by_side(name, chosen, argv, rounds)
        for line in summary:
            self.stdout.write(line)
        self.stdout.write(json.dumps(figures))

"""Write a tournament (with its flights) to a JSON backup: `export_tournament SLUG [-o FILE]`."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.services import backup_export


class Command(BaseCommand):
    help = "Export a tournament, its flights and everything in them to a JSON file."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the address {options['slug']!r}.")
        data = backup_export.dumps(backup_export.export_tournament(tournament))
        if options["output"]:
            try:
                with open(options["output"], "wb") as out:
                    out.write(data)
            except OSError as exc:
                raise CommandError(str(exc)) from None
            self.stderr.write(f"{tournament.slug}: {len(data)} bytes to {options['output']}")
        else:
            stdout = getattr(self.stdout, "_out", sys.stdout)
            stdout.write(data.decode() + "\n")

"""Create a tournament from a JSON backup: `import_tournament FILE [--user USERNAME]`.

Prints the new tournament's address (slug) on the last line; a bad file exits with status 1
and the reason, having changed nothing.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.errors import DomainError
from tournaments.services import backup_checks, backup_import


class Command(BaseCommand):
    help = "Import a tournament (and its flights) from a file written by export_tournament."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--user", help="username logged as the importer; he becomes TD of the tournament"
        )

    def handle(self, *args, **options):
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"No user is called {options['user']!r}.")
        try:
            with open(options["file"], "rb") as source:
                data = source.read(backup_checks.MAX_DOCUMENT_BYTES + 1)
        except OSError as exc:
            raise CommandError(str(exc)) from None
        try:
            result = backup_import.import_document(
                backup_checks.loads(data), actor=actor, now=timezone.now()
            )
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        for old, new in result.renamed.items():
            self.stderr.write(f"{old} is taken here: imported as {new}")
        self.stderr.write(
            f"players: {result.players_matched} matched, {result.players_created} created; "
            f"users created (inactive): {', '.join(result.users_created) or 'none'}"
        )
        self.stdout.write(result.tournament.slug)

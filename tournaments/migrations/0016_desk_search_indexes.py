"""The desk's search as you type, through indexes rather than by
reading every player and every entry of the user's events at each keystroke:

- the players added at an event's desk (`player.create` rows of the event log);
- a document number, case aside (what `document_number__iexact` compares);
- on PostgreSQL, trigram indexes on the players' names as `icontains` compares them
  (UPPER("column"::text)), so a part of a name few players have is found without
  walking the whole register in name order. Elsewhere (SQLite) no trigram index.
"""

import django.db.models.functions.text
from django.db import migrations, models

TRIGRAMS = (
    ("player_last_trgm", "last_name"),
    ("player_first_trgm", "first_name"),
)


def create_trigrams(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in TRIGRAMS:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON tournaments_player "
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop_trigrams(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _column in TRIGRAMS:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_entry_recent_bust_index"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                condition=models.Q(("action", "player.create")),
                fields=["tournament"],
                name="event_player_created",
            ),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(
                django.db.models.functions.text.Upper("document_number"),
                name="player_document_upper",
            ),
        ),
        migrations.RunPython(create_trigrams, drop_trigrams),
    ]

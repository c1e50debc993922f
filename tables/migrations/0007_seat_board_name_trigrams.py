"""The seat finder's search (a part of a name, as the player types it) through trigram
indexes on the seats' copies of the names, on PostgreSQL: a LIKE '%...%' otherwise reads
every player's name in the database. Elsewhere (SQLite) nothing."""

from django.db import migrations

INDEXES = (
    ("seat_board_last_trgm", "board_last_name"),
    ("seat_board_first_trgm", "board_first_name"),
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, column in INDEXES:
        # The expression Django's icontains compares: UPPER("column"::text).
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON tables_seat "
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _column in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_seat_board_order"),
    ]

    operations = [migrations.RunPython(create, drop)]

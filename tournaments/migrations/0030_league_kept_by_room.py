"""The leagues are the room's now (room 0005): only the migration state forgets them here;
their table and the table of their events keep their names and rows."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0029_tables_and_seats_kept_by_events"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name="League",
                ),
            ],
        ),
    ]

"""The players' names folded in one column for the player list's search:
one plain LIKE per player rather than three through UPPER()."""

from django.db import migrations

import tournaments.models
from tournaments.rules.names import search_text


def fill(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    batch = []
    for player in Player.objects.only("last_name", "first_name", "nickname").iterator(2000):
        player.search_name = search_text(player.last_name, player.first_name, player.nickname)
        batch.append(player)
        if len(batch) == 2000:
            Player.objects.bulk_update(batch, ["search_name"])
            batch = []
    Player.objects.bulk_update(batch, ["search_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_event_console_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_name",
            field=tournaments.models.SearchTextField(default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]

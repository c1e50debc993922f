"""The seating board's order on the seat itself: the table's tournament and copies of the
player's last and first name, with one index in the board's order (a
page of the board reads its rows and the A-Z index from it, not the whole field joined
and sorted)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill(apps, schema_editor):
    Seat = apps.get_model("tables", "Seat")
    Table = apps.get_model("tables", "Table")
    Player = apps.get_model("tournaments", "Player")
    player = Player.objects.filter(entries=OuterRef("entry_id"))
    Seat.objects.update(
        tournament_id=Subquery(Table.objects.filter(pk=OuterRef("table_id")).values("tournament")),
        board_last_name=Subquery(player.values("last_name")[:1]),
        board_first_name=Subquery(player.values("first_name")[:1]),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0005_cash_room"),
        ("tournaments", "0011_event_console_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="tournament",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="board_last_name",
            field=models.CharField(default="", editable=False, max_length=60),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="board_first_name",
            field=models.CharField(default="", editable=False, max_length=60),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="tournament",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.tournament",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                fields=["tournament", "board_last_name", "board_first_name", "entry"],
                name="seat_board_order",
            ),
        ),
    ]

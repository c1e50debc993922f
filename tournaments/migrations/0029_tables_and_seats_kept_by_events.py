"""The event's tables, seats and rulings, and the room's roles, were the tables app's rows:
they are the events' now. Their tables keep their names (Meta.db_table), so nothing
changes in the database; the triggers of tables' 0008 name them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_featured_hands"),
        ("tournaments", "0028_live_feed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SeatBoardVersion",
                    fields=[
                        (
                            "tournament_id",
                            models.BigIntegerField(primary_key=True, serialize=False),
                        ),
                        ("token", models.CharField(max_length=40)),
                    ],
                    options={
                        "db_table": "tables_seatboardversion",
                    },
                ),
                migrations.CreateModel(
                    name="Ruling",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "table_number",
                            models.PositiveIntegerField(
                                blank=True, null=True, verbose_name="table"
                            ),
                        ),
                        ("hand", models.JSONField()),
                        (
                            "names",
                            models.JSONField(
                                blank=True, default=dict, verbose_name="players' names by seat"
                            ),
                        ),
                        ("note", models.TextField(blank=True, verbose_name="decision")),
                        ("created_at", models.DateTimeField()),
                        ("published_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rulings",
                                to="tournaments.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_ruling",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="Table",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("number", models.PositiveIntegerField(verbose_name="number")),
                        (
                            "max_seats",
                            models.PositiveSmallIntegerField(default=9, verbose_name="seats"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("reserve", "Not open yet"),
                                    ("open", "Open"),
                                    ("closed", "Closed"),
                                ],
                                default="reserve",
                                max_length=8,
                            ),
                        ),
                        (
                            "opening_order",
                            models.PositiveIntegerField(default=0, verbose_name="opening order"),
                        ),
                        (
                            "break_order",
                            models.PositiveIntegerField(default=0, verbose_name="break order"),
                        ),
                        (
                            "accessible_seats",
                            models.JSONField(
                                blank=True, default=list, verbose_name="accessible seats"
                            ),
                        ),
                        (
                            "reserved_seats",
                            models.JSONField(
                                blank=True, default=list, verbose_name="reserved seats"
                            ),
                        ),
                        (
                            "locked_seats",
                            models.JSONField(blank=True, default=list, verbose_name="locked seats"),
                        ),
                        ("button", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("sb", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("bb", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("button_dead", models.BooleanField(default=False)),
                        ("sb_dead", models.BooleanField(default=False)),
                        ("heads_up", models.BooleanField(default=False)),
                        (
                            "hands",
                            models.PositiveIntegerField(default=0, verbose_name="hands played"),
                        ),
                        ("hand_started_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="tables",
                                to="tournaments.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_table",
                        "ordering": ["number"],
                    },
                ),
                migrations.CreateModel(
                    name="Seat",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        (
                            "dealt_in",
                            models.CharField(
                                choices=[
                                    ("next_hand", "Dealt in at once"),
                                    ("hand_after_next", "Waits for the button to pass"),
                                    (
                                        "ask_dealer",
                                        "Dealt in at once unless the seat is between the button and the small blind",
                                    ),
                                ],
                                default="next_hand",
                                max_length=16,
                            ),
                        ),
                        ("assigned_at", models.DateTimeField()),
                        ("moved_from", models.CharField(blank=True, max_length=16)),
                        ("arrived", models.BooleanField(default=True)),
                        ("chips_carried_by", models.CharField(blank=True, max_length=60)),
                        ("board_last_name", models.CharField(editable=False, max_length=60)),
                        ("board_first_name", models.CharField(editable=False, max_length=60)),
                        (
                            "entry",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="seat",
                                to="tournaments.entry",
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                db_index=False,
                                editable=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="tournaments.tournament",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="seats",
                                to="tournaments.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_seat",
                        "ordering": ["table__number", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="RoomStaff",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[
                                    ("manager", "Room manager"),
                                    ("books", "Cashier (books)"),
                                    ("cash", "Cash-room floor"),
                                    ("pit", "Pit supervisor"),
                                    ("dealer", "Dealer"),
                                ],
                                max_length=8,
                                verbose_name="role",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="room_roles",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_roomstaff",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "role"), name="one_room_role_once"
                            )
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="table",
                    constraint=models.UniqueConstraint(
                        fields=("tournament", "number"), name="table_number_unique"
                    ),
                ),
                migrations.AddIndex(
                    model_name="seat",
                    index=models.Index(
                        fields=["tournament", "board_last_name", "board_first_name", "entry"],
                        name="seat_board_order",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="seat",
                    constraint=models.UniqueConstraint(
                        fields=("table", "number"), name="one_player_per_seat"
                    ),
                ),
            ],
        ),
    ]

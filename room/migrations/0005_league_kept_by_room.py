"""The leagues were the events' rows: they are the room's now. Their table and the table
of their events keep their names (Meta.db_table), so nothing changes in the database."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("room", "0004_cash_room_and_log_kept_by_room"),
        ("tournaments", "0030_league_kept_by_room"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="League",
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
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        (
                            "slug",
                            models.SlugField(max_length=80, unique=True, verbose_name="address"),
                        ),
                        (
                            "season",
                            models.CharField(blank=True, max_length=40, verbose_name="season"),
                        ),
                        (
                            "formula",
                            models.CharField(
                                choices=[
                                    ("table", "Fixed points by place"),
                                    ("field_size", "Field size: base x sqrt(entries / place)"),
                                ],
                                default="table",
                                max_length=12,
                                verbose_name="points formula",
                            ),
                        ),
                        (
                            "points_table",
                            models.JSONField(
                                blank=True, default=list, verbose_name="points by place"
                            ),
                        ),
                        (
                            "base",
                            models.PositiveIntegerField(
                                default=10, verbose_name="base points (field-size formula)"
                            ),
                        ),
                        (
                            "participation_points",
                            models.PositiveIntegerField(
                                default=0, verbose_name="points for playing"
                            ),
                        ),
                        (
                            "bounty_points",
                            models.PositiveIntegerField(
                                default=0, verbose_name="points per bounty won"
                            ),
                        ),
                        (
                            "best_n",
                            models.PositiveSmallIntegerField(
                                blank=True,
                                null=True,
                                verbose_name="count only the best N results (empty: all)",
                            ),
                        ),
                        (
                            "tie_break",
                            models.CharField(
                                choices=[
                                    (
                                        "best_result",
                                        "Best single result, then more wins, then fewer events",
                                    ),
                                    ("more_wins", "More wins, then more cashes, then fewer events"),
                                ],
                                default="best_result",
                                max_length=12,
                                verbose_name="ties broken by",
                            ),
                        ),
                        (
                            "public",
                            models.BooleanField(default=True, verbose_name="standings are public"),
                        ),
                        ("created_at", models.DateTimeField()),
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
                            "events",
                            models.ManyToManyField(
                                blank=True,
                                related_name="leagues",
                                to="tournaments.tournament",
                                verbose_name="events",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_league",
                        "ordering": ["-created_at", "name"],
                    },
                ),
            ],
        ),
    ]

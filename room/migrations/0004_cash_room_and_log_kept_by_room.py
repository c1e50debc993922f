"""The cash room's, the jackpots' and the room's log rows were the tables app's: they are
the room's now. Their tables keep their names (Meta.db_table), so nothing changes in
the database."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_featured_hands"),
        ("room", "0003_notifications"),
        ("tournaments", "0029_tables_and_seats_kept_by_events"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CashGame",
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
                            "variant",
                            models.CharField(
                                default="Hold'em", max_length=20, verbose_name="variant"
                            ),
                        ),
                        (
                            "structure",
                            models.CharField(
                                choices=[
                                    ("no_limit", "No-limit"),
                                    ("pot_limit", "Pot-limit"),
                                    ("limit", "Limit"),
                                ],
                                default="no_limit",
                                max_length=10,
                                verbose_name="structure",
                            ),
                        ),
                        ("sb", models.PositiveIntegerField(verbose_name="small blind")),
                        ("bb", models.PositiveIntegerField(verbose_name="big blind")),
                        ("min_buy_in", models.PositiveIntegerField(verbose_name="minimum buy-in")),
                        (
                            "max_buy_in",
                            models.PositiveIntegerField(
                                blank=True, null=True, verbose_name="maximum buy-in"
                            ),
                        ),
                        (
                            "max_seats",
                            models.PositiveSmallIntegerField(
                                default=9, verbose_name="seats per table"
                            ),
                        ),
                        (
                            "rake_percent",
                            models.DecimalField(
                                decimal_places=2, default=5, max_digits=4, verbose_name="rake %"
                            ),
                        ),
                        (
                            "rake_cap",
                            models.PositiveIntegerField(
                                blank=True, null=True, verbose_name="rake cap"
                            ),
                        ),
                        (
                            "active",
                            models.BooleanField(default=True, verbose_name="in the catalogue"),
                        ),
                    ],
                    options={
                        "db_table": "tables_cashgame",
                        "ordering": ["bb", "variant", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="CashRoom",
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
                            "public_name_format",
                            models.CharField(
                                choices=[
                                    ("first_name", "First name and initial"),
                                    ("initials", "Initials"),
                                ],
                                default="first_name",
                                max_length=10,
                                verbose_name="names on the public board",
                            ),
                        ),
                        (
                            "answer_minutes",
                            models.PositiveSmallIntegerField(
                                default=15, verbose_name="minutes to answer a call"
                            ),
                        ),
                        (
                            "overrides",
                            models.JSONField(
                                blank=True, default=dict, verbose_name="other settings"
                            ),
                        ),
                        (
                            "jackpot_rules",
                            models.JSONField(
                                blank=True, default=dict, verbose_name="jackpot rules"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_cashroom",
                    },
                ),
                migrations.CreateModel(
                    name="CashOut",
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
                        ("stack", models.PositiveIntegerField(verbose_name="stack")),
                        ("at", models.DateTimeField()),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cash_outs",
                                to="room.cashgame",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cash_outs",
                                to="tournaments.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_cashout",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="CashTable",
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
                        ("number", models.PositiveIntegerField(verbose_name="table")),
                        (
                            "max_seats",
                            models.PositiveSmallIntegerField(default=9, verbose_name="seats"),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[("open", "Open"), ("closed", "Closed")],
                                default="open",
                                max_length=6,
                            ),
                        ),
                        ("opened_at", models.DateTimeField()),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        ("button", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("sb", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("bb", models.PositiveSmallIntegerField(blank=True, null=True)),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="tables",
                                to="room.cashgame",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_cashtable",
                        "ordering": ["number"],
                    },
                ),
                migrations.CreateModel(
                    name="CashSeat",
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
                        ("number", models.PositiveSmallIntegerField(verbose_name="seat")),
                        ("seated_at", models.DateTimeField()),
                        ("seated_order", models.PositiveIntegerField(default=0)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("new_player", "New player"),
                                    ("seat_change", "Seat change"),
                                    ("moved_by_house", "Moved by the house"),
                                    ("from_closed_table", "From a closed table"),
                                ],
                                default="new_player",
                                max_length=20,
                            ),
                        ),
                        ("buy_in", models.PositiveIntegerField(default=0, verbose_name="buy-in")),
                        ("sit_out_until", models.DateTimeField(blank=True, null=True)),
                        ("sit_outs_today", models.PositiveSmallIntegerField(default=0)),
                        (
                            "markers",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="missed-blind markers"
                            ),
                        ),
                        ("short_buy_ins", models.PositiveSmallIntegerField(default=0)),
                        (
                            "request",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "No request"),
                                    ("seat_change", "Another seat at this table"),
                                    ("main_table", "The main table"),
                                ],
                                default="",
                                max_length=12,
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="cash_seats",
                                to="tournaments.player",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="seats",
                                to="room.cashtable",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_cashseat",
                        "ordering": ["table__number", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="JackpotClaim",
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
                            "kind",
                            models.CharField(
                                choices=[
                                    ("bad_beat", "Bad-beat jackpot"),
                                    ("high_hand", "High hand"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("table_number", models.PositiveIntegerField(verbose_name="table")),
                        ("game", models.CharField(max_length=10)),
                        ("board", models.JSONField(default=list)),
                        ("hands", models.JSONField(default=dict)),
                        ("players_dealt", models.PositiveSmallIntegerField(default=0)),
                        ("other_seats", models.JSONField(blank=True, default=list)),
                        ("names", models.JSONField(blank=True, default=dict)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("refused", "Refused"),
                                    ("judged", "Qualifies: to confirm"),
                                    ("confirmed", "Confirmed by the floor"),
                                    ("paid", "Paid"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("reasons", models.JSONField(blank=True, default=list)),
                        ("loser_rank", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("winner_rank", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("period_start", models.DateTimeField(blank=True, null=True)),
                        ("period_end", models.DateTimeField(blank=True, null=True)),
                        ("floor_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "cash_table",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="room.cashtable",
                            ),
                        ),
                        (
                            "floor_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "recorded_by",
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
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="tournaments.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_jackpotclaim",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="JackpotFund",
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
                        ("main_cents", models.BigIntegerField(default=0)),
                        ("backup_cents", models.BigIntegerField(default=0)),
                        ("next_cents", models.BigIntegerField(default=0)),
                        ("payments", models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        "db_table": "tables_jackpotfund",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("backup_cents__gte", 0),
                                    ("main_cents__gte", 0),
                                    ("next_cents__gte", 0),
                                ),
                                name="jackpot_fund_never_negative",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="JackpotPayment",
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
                            "kind",
                            models.CharField(
                                choices=[
                                    ("bad_beat", "Bad-beat jackpot"),
                                    ("high_hand", "High hand"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("period_start", models.DateTimeField(blank=True, null=True)),
                        ("period_end", models.DateTimeField(blank=True, null=True)),
                        ("at", models.DateTimeField()),
                        ("cents", models.PositiveBigIntegerField()),
                        ("shares", models.JSONField(default=list)),
                        ("before", models.JSONField(default=dict)),
                        ("after", models.JSONField(default=dict)),
                        ("seq", models.PositiveIntegerField()),
                        (
                            "claim",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="payment",
                                to="room.jackpotclaim",
                            ),
                        ),
                        (
                            "paid_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_jackpotpayment",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="KeepApart",
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
                            "reason",
                            models.CharField(blank=True, max_length=200, verbose_name="reason"),
                        ),
                        ("created_at", models.DateTimeField()),
                        (
                            "player_a",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="tournaments.player",
                            ),
                        ),
                        (
                            "player_b",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="tournaments.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_keepapart",
                    },
                ),
                migrations.CreateModel(
                    name="PhoneLink",
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
                        ("version", models.PositiveIntegerField(default=0)),
                        (
                            "player",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cash_phone_link",
                                to="tournaments.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_phonelink",
                    },
                ),
                migrations.CreateModel(
                    name="RakeRecord",
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
                        ("at", models.DateTimeField()),
                        ("hand", models.PositiveIntegerField(default=0, verbose_name="hand")),
                        (
                            "dealer",
                            models.CharField(blank=True, max_length=60, verbose_name="dealer"),
                        ),
                        (
                            "shift",
                            models.CharField(blank=True, max_length=20, verbose_name="shift"),
                        ),
                        (
                            "flop_dealt",
                            models.BooleanField(default=True, verbose_name="flop dealt"),
                        ),
                        ("pot", models.PositiveIntegerField(verbose_name="pot")),
                        ("rake", models.PositiveIntegerField(verbose_name="rake")),
                        ("rake_by_pot", models.JSONField(blank=True, default=list)),
                        (
                            "dealer_account",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="dealer",
                            ),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rake",
                                to="room.cashgame",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rake",
                                to="room.cashtable",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_rakerecord",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="JackpotDrop",
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
                        ("at", models.DateTimeField()),
                        ("cents", models.PositiveIntegerField()),
                        ("main_cents", models.PositiveIntegerField(default=0)),
                        ("backup_cents", models.PositiveIntegerField(default=0)),
                        ("next_cents", models.PositiveIntegerField(default=0)),
                        ("seq", models.PositiveIntegerField(default=0)),
                        (
                            "rake",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="jackpot_drop",
                                to="room.rakerecord",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_jackpotdrop",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="RoomEvent",
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
                        ("at", models.DateTimeField()),
                        ("action", models.CharField(max_length=40)),
                        ("data", models.JSONField(default=dict)),
                        ("undoable", models.BooleanField(default=True)),
                        ("undone_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "undo_of",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="room.roomevent",
                            ),
                        ),
                        (
                            "undone_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_roomevent",
                        "ordering": ["-at", "-id"],
                        "abstract": False,
                    },
                ),
                migrations.CreateModel(
                    name="WaitEntry",
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
                        ("position", models.IntegerField()),
                        ("joined_at", models.DateTimeField()),
                        ("called_at", models.DateTimeField(blank=True, null=True)),
                        ("called_table", models.PositiveIntegerField(blank=True, null=True)),
                        ("called_seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("coming", models.BooleanField(default=False)),
                        ("coming_at", models.DateTimeField(blank=True, null=True)),
                        ("locked_out_until", models.DateTimeField(blank=True, null=True)),
                        ("from_closed_table", models.BooleanField(default=False)),
                        ("arrive_by", models.DateTimeField(blank=True, null=True)),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="waiting",
                                to="room.cashgame",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cash_lists",
                                to="tournaments.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_waitentry",
                        "ordering": ["game", "position", "id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="cashtable",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("status", "open")),
                        fields=("number",),
                        name="cash_open_table_number_unique",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="cashseat",
                    constraint=models.UniqueConstraint(
                        fields=("table", "number"), name="cash_one_player_per_seat"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="cashseat",
                    constraint=models.UniqueConstraint(
                        fields=("player",), name="cash_one_seat_per_player"
                    ),
                ),
                migrations.AddIndex(
                    model_name="jackpotclaim",
                    index=models.Index(
                        fields=["kind", "period_start"], name="tables_jack_kind_9a345e_idx"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="jackpotpayment",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("period_start__isnull", False)),
                        fields=("kind", "period_start"),
                        name="jackpot_period_paid_once",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="keepapart",
                    constraint=models.UniqueConstraint(
                        fields=("player_a", "player_b"), name="cash_keep_apart_once"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rakerecord",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("hand__gt", 0)),
                        fields=("table", "hand"),
                        name="rake_once_per_hand",
                    ),
                ),
                migrations.AddIndex(
                    model_name="roomevent",
                    index=models.Index(fields=["-at"], name="tables_room_at_bbb170_idx"),
                ),
                migrations.AddConstraint(
                    model_name="waitentry",
                    constraint=models.UniqueConstraint(
                        fields=("game", "player"), name="cash_once_per_list"
                    ),
                ),
            ],
        ),
    ]

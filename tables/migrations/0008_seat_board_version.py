"""The seating board's version (`SeatBoardVersion`): the database itself changes a
tournament's token on every write that may change the board's order (a seat inserted or
deleted, its entry, tournament or name copies updated), whatever wrote it: a service, a
bulk insert, a cascade, an undo. So a board page index kept for a token is the board's
index for as long as the token is the tournament's (issue 15, item 6)."""

from django.db import migrations, models

ORDER_COLUMNS = "board_last_name, board_first_name, entry_id, tournament_id"

POSTGRES = (
    # Once per transaction and tournament (a draw of 9,000 seats changes it once), when the
    # transaction commits: deferred, so the row is locked only for the commit itself and
    # no transaction ever waits on it while it holds other locks.
    """
    CREATE OR REPLACE FUNCTION tables_seat_board_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        changed bigint;
    BEGIN
        FOREACH changed IN ARRAY (CASE TG_OP
            WHEN 'INSERT' THEN ARRAY[NEW.tournament_id]
            WHEN 'DELETE' THEN ARRAY[OLD.tournament_id]
            ELSE ARRAY[OLD.tournament_id, NEW.tournament_id] END)
        LOOP
            IF current_setting('torneo.seat_board_' || changed, true)
                IS DISTINCT FROM 'changed' THEN
                PERFORM set_config('torneo.seat_board_' || changed, 'changed', true);
                INSERT INTO tables_seatboardversion (tournament_id, token)
                VALUES (changed, gen_random_uuid()::text)
                ON CONFLICT (tournament_id) DO UPDATE SET token = EXCLUDED.token;
            END IF;
        END LOOP;
        RETURN NULL;
    END
    $$
    """,
    f"""
    CREATE CONSTRAINT TRIGGER seat_board_changed
    AFTER INSERT OR DELETE OR UPDATE OF {ORDER_COLUMNS} ON tables_seat
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION tables_seat_board_changed()
    """,
)
POSTGRES_DROP = (
    "DROP TRIGGER IF EXISTS seat_board_changed ON tables_seat",
    "DROP FUNCTION IF EXISTS tables_seat_board_changed()",
)


def _sqlite_bump(row: str) -> str:
    return (
        "INSERT INTO tables_seatboardversion (tournament_id, token) "
        f"VALUES ({row}.tournament_id, lower(hex(randomblob(16)))) "
        "ON CONFLICT (tournament_id) DO UPDATE SET token = excluded.token;"
    )


SQLITE = (
    # SQLite has one writer at a time: the token changes with each row, at once.
    "CREATE TRIGGER seat_board_inserted AFTER INSERT ON tables_seat "
    f"BEGIN {_sqlite_bump('NEW')} END",
    "CREATE TRIGGER seat_board_deleted AFTER DELETE ON tables_seat "
    f"BEGIN {_sqlite_bump('OLD')} END",
    f"CREATE TRIGGER seat_board_updated AFTER UPDATE OF {ORDER_COLUMNS} ON tables_seat "
    f"BEGIN {_sqlite_bump('OLD')} {_sqlite_bump('NEW')} END",
)
SQLITE_DROP = tuple(
    f"DROP TRIGGER IF EXISTS seat_board_{what}" for what in ("inserted", "deleted", "updated")
)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"postgresql": POSTGRES, "sqlite": SQLITE}.get(vendor, ()):
        schema_editor.execute(statement)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"postgresql": POSTGRES_DROP, "sqlite": SQLITE_DROP}.get(vendor, ()):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0007_seat_board_name_trigrams"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatBoardVersion",
            fields=[
                ("tournament_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("token", models.CharField(max_length=40)),
            ],
        ),
        migrations.RunPython(create, drop),
    ]

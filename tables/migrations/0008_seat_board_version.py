"""The seating board's version (`SeatBoardVersion`): the database itself changes a
tournament's token on every write that may change the board's order (a seat inserted or
deleted, its entry, tournament or name copies updated), whatever wrote it: a service, a
bulk insert, a cascade, an undo. So a board page index kept for a token is the board's
index for as long as the token is the tournament's."""

from django.db import migrations, models

ORDER_COLUMNS = "board_last_name, board_first_name, entry_id, tournament_id"

POSTGRES = (
    # When the transaction commits (deferred: the token row is locked only for the commit
    # itself, so no transaction ever waits on it while holding other locks), once per
    # transaction and tournament: the first row's event is queued, the others' not (a draw
    # of 9,000 seats queues one), by a flag local to the transaction (undone with it, or
    # with the savepoint it was set in, as the queued event is).
    """
    CREATE OR REPLACE FUNCTION tables_seat_board_queue(tournament bigint) RETURNS boolean
    LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('torneo.seat_board_' || tournament, true) = 'queued' THEN
            RETURN false;
        END IF;
        PERFORM set_config('torneo.seat_board_' || tournament, 'queued', true);
        RETURN true;
    END
    $$
    """,
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
            INSERT INTO tables_seatboardversion (tournament_id, token)
            VALUES (changed, gen_random_uuid()::text)
            ON CONFLICT (tournament_id) DO UPDATE SET token = EXCLUDED.token;
        END LOOP;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE CONSTRAINT TRIGGER seat_board_inserted AFTER INSERT ON tables_seat
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tables_seat_board_queue(NEW.tournament_id))
    EXECUTE FUNCTION tables_seat_board_changed()
    """,
    """
    CREATE CONSTRAINT TRIGGER seat_board_deleted AFTER DELETE ON tables_seat
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tables_seat_board_queue(OLD.tournament_id))
    EXECUTE FUNCTION tables_seat_board_changed()
    """,
    # An event that changes both tournaments whichever one queued it: a tournament not
    # queued here was queued by an earlier event, which changes it.
    f"""
    CREATE CONSTRAINT TRIGGER seat_board_updated AFTER UPDATE OF {ORDER_COLUMNS} ON tables_seat
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (tables_seat_board_queue(OLD.tournament_id) OR tables_seat_board_queue(NEW.tournament_id))
    EXECUTE FUNCTION tables_seat_board_changed()
    """,
)
POSTGRES_DROP = (
    *(
        f"DROP TRIGGER IF EXISTS seat_board_{what} ON tables_seat"
        for what in ("inserted", "deleted", "updated")
    ),
    "DROP FUNCTION IF EXISTS tables_seat_board_changed()",
    "DROP FUNCTION IF EXISTS tables_seat_board_queue(bigint)",
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

"""A tournament's entries summed, kept by the database: the clock
screen's figures and the money pages read one row instead of summing every entry.

Triggers on tournaments_entry add each entry's share to its tournament's row when it is
inserted, take the old share off and add the new one when a counted column changes, and
take it off when it is deleted. Written once for PostgreSQL and once for SQLite; both
count as `selectors._entry_figures` did:

- entries: every entry not voided; active: those playing;
- chips, removed: the chips issued and the chips taken out of play, of entries not voided;
- buy_ins: entries not voided, less the stacks carried over from a flight.

An update that changes none of those columns (a seat, a prize, a player merged) does not
touch the row, so it takes no lock on it. Every service that writes a counted column
holds the tournament's row lock first (locks.tournament_for_update, event_undo), so two
writers of one tournament never wait on each other's tally.

SQLite drops a table's triggers when a migration rebuilds the table (most AlterField on
SQLite do): a later migration that rebuilds tournaments_entry must create them again
(`SQLITE` below). The suite fails every test that writes an entry until it does: it
checks the tally against the entries after each one (tests/tally.py).
"""

import django.db.models.deletion
from django.core.exceptions import ImproperlyConfigured
from django.db import migrations, models

SHARE = {
    "entries": "({row}.status <> 'voided')",
    "active": "({row}.status = 'active')",
    "chips": "(CASE WHEN {row}.status <> 'voided' THEN {row}.chips ELSE 0 END)",
    "removed": "(CASE WHEN {row}.status <> 'voided' THEN {row}.chips_removed ELSE 0 END)",
    "buy_ins": "({row}.status <> 'voided' AND {row}.kind <> 'carried')",
}
COLUMNS = ", ".join(SHARE)
COUNTED = ("tournament_id", "status", "kind", "chips", "chips_removed")


def _share(row: str, cast: str) -> list[str]:
    return [f"{expr.format(row=row)}{cast if name in CAST else ''}" for name, expr in SHARE.items()]


CAST = {"entries", "active", "buy_ins"}


def _add(row: str, cast: str) -> str:
    values = ", ".join(_share(row, cast))
    sums = ", ".join(f"{name} = tournaments_entrytally.{name} + excluded.{name}" for name in SHARE)
    return (
        f"INSERT INTO tournaments_entrytally (tournament_id, {COLUMNS}) "
        f"VALUES ({row}.tournament_id, {values}) "
        f"ON CONFLICT (tournament_id) DO UPDATE SET {sums}"
    )


def _take(row: str, cast: str) -> str:
    less = ", ".join(
        f"{name} = {name} - {share}" for name, share in zip(SHARE, _share(row, cast), strict=True)
    )
    return f"UPDATE tournaments_entrytally SET {less} WHERE tournament_id = {row}.tournament_id"


CHANGED_PG = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in COUNTED)
CHANGED_SQLITE = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in COUNTED)

POSTGRES = f"""
CREATE FUNCTION tournaments_entry_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        {_take("OLD", "::int")};
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        {_add("NEW", "::int")};
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER entry_tally_insert AFTER INSERT ON tournaments_entry
    FOR EACH ROW EXECUTE FUNCTION tournaments_entry_tally();
CREATE TRIGGER entry_tally_delete AFTER DELETE ON tournaments_entry
    FOR EACH ROW EXECUTE FUNCTION tournaments_entry_tally();
CREATE TRIGGER entry_tally_update AFTER UPDATE ON tournaments_entry
    FOR EACH ROW WHEN ({CHANGED_PG}) EXECUTE FUNCTION tournaments_entry_tally();
"""
POSTGRES_DROP = """
DROP TRIGGER IF EXISTS entry_tally_insert ON tournaments_entry;
DROP TRIGGER IF EXISTS entry_tally_delete ON tournaments_entry;
DROP TRIGGER IF EXISTS entry_tally_update ON tournaments_entry;
DROP FUNCTION IF EXISTS tournaments_entry_tally();
"""

SQLITE = [
    f"CREATE TRIGGER entry_tally_insert AFTER INSERT ON tournaments_entry BEGIN "
    f"{_add('NEW', '')}; END",
    f"CREATE TRIGGER entry_tally_delete AFTER DELETE ON tournaments_entry BEGIN "
    f"{_take('OLD', '')}; END",
    f"CREATE TRIGGER entry_tally_update AFTER UPDATE ON tournaments_entry "
    f"WHEN {CHANGED_SQLITE} BEGIN {_take('OLD', '')}; {_add('NEW', '')}; END",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS entry_tally_insert",
    "DROP TRIGGER IF EXISTS entry_tally_delete",
    "DROP TRIGGER IF EXISTS entry_tally_update",
]

# The rows for the entries already there, counted as the triggers count.
FILL = (
    f"INSERT INTO tournaments_entrytally (tournament_id, {COLUMNS}) "
    "SELECT e.tournament_id, "
    + ", ".join(f"SUM({share})" for share in _share("e", "{cast}"))
    + " FROM tournaments_entry e GROUP BY e.tournament_id"
)


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES)
        schema_editor.execute(FILL.replace("{cast}", "::int"))
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)
        schema_editor.execute(FILL.replace("{cast}", ""))
    else:
        # Torneo runs on PostgreSQL or SQLite (config/settings.py). Elsewhere the tally
        # would stay at zero and every screen would show an empty field: refuse instead.
        raise ImproperlyConfigured(
            f"Torneo keeps the entries' tally on PostgreSQL or SQLite, not on {vendor}"
        )


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DROP)
    elif vendor == "sqlite":
        for statement in SQLITE_DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_desk_search_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="EntryTally",
            fields=[
                (
                    "tournament",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.tournament",
                    ),
                ),
                ("entries", models.IntegerField(default=0)),
                ("active", models.IntegerField(default=0)),
                ("chips", models.BigIntegerField(default=0)),
                ("removed", models.BigIntegerField(default=0)),
                ("buy_ins", models.IntegerField(default=0)),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]

"""The tables app keeps no rows of its own any more: its models are the events' and the
room's now (tournaments 0029, room 0004), under the same table names. Only the
migration state forgets them here; the database keeps every row."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_featured_hands"),
        ("tournaments", "0029_tables_and_seats_kept_by_events"),
        ("room", "0004_cash_room_and_log_kept_by_room"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="JackpotPayment"),
                migrations.DeleteModel(name="JackpotClaim"),
                migrations.DeleteModel(name="JackpotDrop"),
                migrations.DeleteModel(name="JackpotFund"),
                migrations.DeleteModel(name="CashOut"),
                migrations.DeleteModel(name="KeepApart"),
                migrations.DeleteModel(name="RakeRecord"),
                migrations.DeleteModel(name="WaitEntry"),
                migrations.DeleteModel(name="PhoneLink"),
                migrations.DeleteModel(name="CashSeat"),
                migrations.DeleteModel(name="CashTable"),
                migrations.DeleteModel(name="CashGame"),
                migrations.DeleteModel(name="CashRoom"),
                migrations.DeleteModel(name="RoomEvent"),
                migrations.DeleteModel(name="RoomStaff"),
                migrations.DeleteModel(name="Ruling"),
                migrations.DeleteModel(name="SeatBoardVersion"),
                migrations.DeleteModel(name="Seat"),
                migrations.DeleteModel(name="Table"),
            ],
        ),
    ]

"""What the floor's pages (money, eliminations, penalties, chips, days) share: the players
still in, by entry number or by table and seat (all of them while the field is small), and
a form refused with its first complaint in the message bar. No view lives here."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from tournaments.forms.fields import first_error
from tournaments.models import Entry, Seat, Tournament


def _refused(request: HttpRequest, form) -> bool:
    """True (after saying why) when the form does not hold what staff meant to type."""
    if form.is_valid():
        return False
    messages.error(request, first_error(form))
    return True


def _active_by_number(tournament: Tournament) -> dict[int, Entry]:
    return {
        e.number: e
        for e in tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    }


# Up to this many players still in, the floor's forms list them all; beyond it (a big
# field) the floor picks a table first: nobody ticks a box among 9,000 rows.
LIST_ALL_UP_TO = 60


def _seated(tournament: Tournament, *, table: int | None = None) -> list[dict]:
    """Players still in, by table and seat, for the floor's forms (one table's when
    `table` is given)."""
    seat_rows = Seat.objects.select_related("table").filter(entry__tournament=tournament)
    entries = tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
    if table is not None:
        seat_rows = seat_rows.filter(table__number=table)
        entries = entries.filter(seat__table__number=table)
    seats = {s.entry_id: s for s in seat_rows}
    rows = []
    for entry in entries:
        seat = seats.get(entry.pk)
        rows.append(
            {
                "entry": entry,
                "table": seat.table.number if seat else None,
                "seat": seat.number if seat else None,
            }
        )
    rows.sort(key=lambda r: (r["table"] or 10**6, r["seat"] or 0, r["entry"].number))
    return rows

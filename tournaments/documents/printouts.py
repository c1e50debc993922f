"""What the floor prints and hands out: the structure sheet, seating
by table (the tables' stickers), the seat list by name, move slips and break slips, and
the final-table draw; A4 or receipt width, in the user's language (gettext). Read only.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.documents import pdf
from tournaments.models import Entry, Seat, Table, Tournament
from tournaments.rules import clock

DOCUMENTS = ("structure", "seating", "seatlist", "moves", "breaks", "final")
SLIP_HOURS = 2  # move and break slips: the moves of the last two hours


def document_titles() -> dict[str, str]:
    return {
        "structure": _("Structure sheet"),
        "seating": _("Seating by table"),
        "seatlist": _("Seat list by name"),
        "moves": _("Move slips"),
        "breaks": _("Break slips"),
        "final": _("Final-table draw"),
    }


def _hm(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}"


def structure_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Each level and break with its start (time into play), blinds, ante, minutes,
    colour-up and whether late registration ends with it."""
    rows: list[dict[str, Any]] = []
    offset = 0
    late = tournament.late_registration_level
    for item in selectors.clock_structure(tournament):
        row: dict[str, Any] = {"starts": _hm(offset), "minutes": item.duration // 60}
        if isinstance(item, clock.Level):
            row.update(
                kind="level",
                level=item.number,
                blinds=f"{item.small_blind} / {item.big_blind}",
                ante=item.ante or "",
                late_end=bool(late) and item.number == late,
                color_up="",
            )
        else:
            row.update(
                kind="break",
                level="",
                blinds=_("Break"),
                ante="",
                late_end=False,
                color_up=item.color_up or "",
            )
        rows.append(row)
        offset += item.duration
    return rows


def _structure(tournament: Tournament) -> list[pdf.Block]:
    rows = [
        [
            r["level"],
            r["blinds"],
            r["ante"],
            r["minutes"],
            r["starts"],
            (_("colour up %(chip)s") % {"chip": r["color_up"]}) if r["color_up"] else "",
            _("late registration ends") if r["late_end"] else "",
        ]
        for r in structure_rows(tournament)
    ]
    head = [_("Level"), _("Blinds"), _("Ante"), _("Minutes"), _("Starts"), _("Colour-up"), ""]
    buy_in = _("Buy-in %(prize)s + %(fee)s %(currency)s · starting stack %(stack)s") % {
        "prize": pdf.shown(tournament.buy_in_prize),
        "fee": pdf.shown(tournament.buy_in_fee),
        "currency": tournament.currency,
        "stack": pdf.shown(tournament.starting_stack),
    }
    return [pdf.text(buy_in), pdf.table(head, rows)]


def _seats_by_table(tournament: Tournament) -> dict[int, dict[int, str]]:
    seated: dict[int, dict[int, str]] = {}
    for seat in Seat.objects.filter(
        table__tournament=tournament, entry__status=Entry.Status.ACTIVE
    ).select_related("table", "entry__player"):
        seated.setdefault(seat.table.number, {})[seat.number] = str(seat.entry.player)
    return seated


def _seating(tournament: Tournament, size: str) -> list[pdf.Block]:
    seated = _seats_by_table(tournament)
    blocks: list[pdf.Block] = []
    tables = Table.objects.filter(tournament=tournament, status=Table.Status.OPEN).order_by(
        "number"
    )
    for i, table in enumerate(tables):
        if i and size == "receipt":
            blocks.append(pdf.page_break())  # one sticker per table
        names = seated.get(table.number, {})
        blocks.append(pdf.big(_("Table %(number)s") % {"number": table.number}))
        rows = [[n, names.get(n, "—")] for n in range(1, table.max_seats + 1)]
        blocks.append(pdf.table([_("Seat"), _("Player")], rows))
    if not blocks:
        blocks.append(pdf.text(_("No table is open.")))
    return blocks


def _seatlist(tournament: Tournament) -> list[pdf.Block]:
    rows, _pages = selectors.seating_page(tournament, page=1, per_page=100_000)
    body = [[r["name"], r["table"], r["seat"]] for r in rows]
    return [pdf.table([_("Player"), _("Table"), _("Seat")], body)]


def moves(tournament: Tournament, now: datetime, *, breaks: bool) -> list[dict[str, Any]]:
    """The moves of the last SLIP_HOURS, oldest first: a broken table's (breaks=True) or
    the others (balancing, single moves, the final table)."""
    actions = (
        ("room.break",) if breaks else tuple(a for a in selectors.MOVE_ACTIONS if a != "room.break")
    )
    events = tournament.events.filter(
        action__in=actions, undone_at__isnull=True, at__gte=now - timedelta(hours=SLIP_HOURS)
    ).order_by("at", "pk")
    found: list[dict[str, Any]] = []
    for event in events:
        data = event.data or {}
        for move in data.get("moves") or ([data] if data.get("to") else []):
            origin, target = move.get("from") or [None, None], move.get("to") or [None, None]
            found.append(
                {
                    "name": move.get("name", ""),
                    "from": origin,
                    "to": target,
                    "at": event.at,
                    "final": event.action == "room.final_table",
                }
            )
    return found


def _slips(tournament: Tournament, now: datetime, *, breaks: bool, size: str) -> list[pdf.Block]:
    blocks: list[pdf.Block] = []
    found = moves(tournament, now, breaks=breaks)
    for i, move in enumerate(found):
        if i:
            blocks.append(pdf.page_break() if size == "receipt" else pdf.text("- " * 40))
        title = _("Table broken: your new seat") if breaks else _("Move: your new seat")
        blocks += [
            pdf.heading(title),
            pdf.text(move["name"]),
            pdf.text(
                _("From table %(table)s seat %(seat)s")
                % {"table": move["from"][0] or "—", "seat": move["from"][1] or "—"}
            ),
            pdf.big(
                _("Table %(table)s · seat %(seat)s")
                % {"table": move["to"][0], "seat": move["to"][1]}
            ),
            pdf.text(
                _("Take your chips with you. %(time)s")
                % {"time": timezone.localtime(move["at"]).strftime("%H:%M")}
            ),
        ]
    if not blocks:
        blocks.append(pdf.text(_("No moves in the last two hours.")))
    return blocks


def _final(tournament: Tournament, now: datetime) -> list[pdf.Block]:
    draw = [m for m in moves(tournament, now, breaks=False) if m["final"]]
    if draw:
        rows = sorted([m["to"][1], m["name"], m["from"][0] or ""] for m in draw)
        return [pdf.table([_("Seat"), _("Player"), _("From table")], rows)]
    seated = _seats_by_table(tournament)
    if len(seated) == 1:
        ((number, names),) = seated.items()
        rows = [[n, names[n], number] for n in sorted(names)]
        return [pdf.table([_("Seat"), _("Player"), _("From table")], rows)]
    return [pdf.text(_("The final table has not been drawn yet."))]


def document_blocks(
    tournament: Tournament, document: str, size: str, now: datetime
) -> list[pdf.Block]:
    """What one printout says, block by block."""
    if document == "structure":
        blocks = _structure(tournament)
    elif document == "seating":
        blocks = _seating(tournament, size)
    elif document == "seatlist":
        blocks = _seatlist(tournament)
    elif document in ("moves", "breaks"):
        blocks = _slips(tournament, now, breaks=document == "breaks", size=size)
    else:
        blocks = _final(tournament, now)
    return blocks


def printout(tournament: Tournament, document: str, size: str, now: datetime) -> bytes:
    """One printout as PDF bytes; `document` in DOCUMENTS, `size` in pdf.SIZES."""
    blocks = document_blocks(tournament, document, size, now)
    title = f"{tournament.name} · {document_titles()[document]}"
    made = pdf.shown(now)
    return pdf.render(title, blocks, size=size, footer=f"{tournament.name} · {made}")

"""Reports: results, payouts, chip counts and penalties as CSV (csv module), XLSX
(openpyxl) and PDF (reportlab). Read only; views serve the bytes.

A table's cells are typed (numbers, money as Decimal, moments as datetimes, text): the
XLSX keeps the types, so a spreadsheet sums prizes and sorts times; CSV and PDF write
them as text, in the room's time zone."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import labels, selectors
from tournaments.documents import pdf
from tournaments.models import BountyAward, ChipCount, Entry, Penalty, Tournament
from tournaments.selectors.formats import results_with_bounties

Cell = str | int | Decimal | dt.datetime | dt.date | None
Table = tuple[list[str], list[list[Cell]]]


def _place(entry: Entry) -> int | str:
    if entry.disqualified:
        return _("DQ")
    if entry.place is None:
        return ""
    if entry.place_last:
        return f"{entry.place}-{entry.place_last}"
    return entry.place


def _money(amount: int | None) -> int | None:
    """A prize: blank when there is none (a zero reads as if something were owed)."""
    return amount or None


def _cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def _percent(part: int, whole: int) -> Decimal:
    return (Decimal(100 * part) / whole).quantize(Decimal("0.01"))


def text(cell: Cell) -> str:
    """A cell as CSV and PDF write it: times in the event's zone (the room's,
    settings.TIME_ZONE), never UTC; money with its two decimals; nothing as blank."""
    if cell is None:
        return ""
    if isinstance(cell, dt.datetime):
        return timezone.localtime(cell).strftime("%Y-%m-%d %H:%M")
    if isinstance(cell, Decimal):
        return f"{cell:.2f}"
    return str(cell)


def results_table(tournament: Tournament) -> Table:
    if tournament.bounty_format != "none":
        return _results_with_bounties(tournament)
    head = [_("Place"), _("Player"), _("Entry"), _("Prize")]
    rows = [
        [_place(e), str(e.player), e.number, _money(e.prize)]
        for e in selectors.results(tournament)
        if e.place is not None or e.disqualified
    ]
    return head, rows


def _results_with_bounties(tournament: Tournament) -> Table:
    """Prize and bounty money separately and in total (formats.md §12)."""

    head = [_("Place"), _("Player"), _("Entry"), _("Prize"), _("Bounties"), _("Total")]
    rows = [
        [
            _place(r["entry"]),
            str(r["entry"].player),
            r["entry"].number,
            _cents(r["prize"]),
            _cents(r["bounty"]),
            _cents(r["total"]),
        ]
        for r in results_with_bounties(tournament)
        if r["entry"].place is not None or r["entry"].disqualified
    ]
    return head, rows


def bounties_table(tournament: Tournament) -> Table:
    """Every bounty paid, for the books: who, for whom, cash and what went on his head."""
    head = [_("Time"), _("Paid to"), _("For"), _("Envelope"), _("Cash"), _("Added to his bounty")]
    awards = BountyAward.objects.filter(tournament=tournament, voided=False).select_related(
        "winner__player", "eliminated__player"
    )
    rows = [
        [
            a.created_at,
            str(a.winner.player),
            _("his own bounty") if a.own_bounty else str(a.eliminated.player),
            a.envelope,
            _cents(a.cash_cents),
            _cents(a.head_cents),
        ]
        for a in awards
    ]
    return head, rows


def payouts_table(tournament: Tournament) -> Table:
    board = selectors.payouts_board(tournament)
    pool = board["prize_pool"] or 1
    head = [_("Place"), _("Prize"), _("% of the pool")]
    rows = [[p["place"], p["amount"], _percent(p["amount"], pool)] for p in board["places"]]
    return head, rows


def chip_counts_table(tournament: Tournament) -> Table:
    head = [_("Day"), _("Player"), _("Entry"), _("Chips"), _("Bag")]
    counts = (
        ChipCount.objects.filter(tournament=tournament)
        .select_related("entry__player")
        # Equal stacks in entry order: the same sheet every time it is printed.
        .order_by("day", "-chips", "entry__number")
    )
    rows = [[c.day, str(c.entry.player), c.entry.number, c.chips, c.bag] for c in counts]
    return head, rows


def penalties_table(tournament: Tournament) -> Table:
    head = [_("Issued"), _("Player"), _("Penalty"), _("Offence"), _("Hands"), _("Served")]
    rows = [
        [
            p.issued_at,
            str(p.player),
            str(labels.penalty_kind(p.kind)),
            p.offence,
            p.total_hands,
            p.served,
        ]
        for p in Penalty.objects.filter(
            tournament__in=selectors.tournament_family(tournament), voided=False
        ).select_related("player")
    ]
    return head, rows


REPORTS: dict[str, Callable[[Tournament], Table]] = {
    "results": results_table,
    "payouts": payouts_table,
    "chips": chip_counts_table,
    "penalties": penalties_table,
    "bounties": bounties_table,
}


# A cell a spreadsheet would read as a formula (OWASP "CSV injection"): =, +, -, @, and a
# tab or carriage return before one.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A cell that opens as text in a spreadsheet: text starting like a formula gets a
    leading apostrophe. Numbers stay numbers (a negative amount is not a formula)."""
    if isinstance(value, str) and value != "-" and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def as_csv(table: Table) -> bytes:
    """The table as UTF-8 CSV with a BOM, so spreadsheets read accents right; every cell
    safe to open (names are typed by players and staff)."""
    out = io.StringIO()
    writer = csv.writer(out)
    head, rows = table
    writer.writerow([safe_cell(cell) for cell in head])
    writer.writerows([safe_cell(text(cell)) for cell in row] for row in rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


NUMBER_FORMATS = {Decimal: "0.00", dt.datetime: "yyyy-mm-dd hh:mm", dt.date: "yyyy-mm-dd"}


def as_xlsx(title: str, table: Table) -> bytes:
    """The table as an XLSX workbook with typed cells: whole numbers, money with two
    decimals, times in the event's zone. Text stays text, whatever it starts with: a name
    typed as "=HYPERLINK(...)" is a string cell, never a formula."""
    # openpyxl is loaded when a workbook is asked for, as reportlab is for a PDF: the URL
    # map imports this module, and a restarted server would answer its first request
    # later for it.
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _sheet_title(title)
    head, rows = table
    sheet.append([_xlsx_text(str(cell)) for cell in head])
    for cell in sheet[1]:
        cell.data_type = "s"
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_xlsx_value(cell) for cell in row])
        for cell, value in zip(sheet[sheet.max_row], row, strict=True):
            if isinstance(value, str):
                cell.data_type = "s"  # openpyxl reads a leading "=" as a formula
            elif type(value) in NUMBER_FORMATS:
                cell.number_format = NUMBER_FORMATS[type(value)]
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _xlsx_value(cell: Cell) -> object:
    if isinstance(cell, dt.datetime):
        # Spreadsheets have no time zones: the room's wall-clock time.
        return timezone.localtime(cell).replace(tzinfo=None)
    if isinstance(cell, str):
        return _xlsx_text(cell)
    return cell


def _xlsx_text(value: str) -> str:
    # Control characters cannot be stored in the file's XML: they are dropped.
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return ILLEGAL_CHARACTERS_RE.sub("", value)


def _sheet_title(title: str) -> str:
    # A sheet's name: at most 31 characters, none of []:*?/\ .
    cleaned = "".join(" " if ch in "[]:*?/\\" else ch for ch in _xlsx_text(title)).strip()
    return cleaned[:31] or "Report"


def _totals(tournament: Tournament) -> str:
    """The figures every report carries: entries, the prize pool and the prizes paid."""
    pool = selectors.prize_pool(tournament).prize_pool
    paid = sum(e.prize or 0 for e in selectors.results(tournament) if e.place is not None)
    return _(
        "Entries: %(entries)s · Prize pool: %(pool)s %(currency)s · Prizes: %(paid)s %(currency)s"
    ) % {
        "entries": pdf.shown(selectors.buy_ins(tournament)),
        "pool": pdf.shown(pool),
        "paid": pdf.shown(paid),
        "currency": tournament.currency,
    }


def as_pdf(tournament: Tournament, title: str, table: Table, *, now=None) -> bytes:
    """The table as an A4 PDF: the tournament, venue and date, the totals, and on every
    page its number and when the report was made (in the event's time zone)."""
    # reportlab is loaded when a PDF is asked for, not by every process that reads reports.
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
    from reportlab.platypus import Table as PdfTable

    # On paper in the reader's language (the CSV keeps text(): one format for machines).
    made = pdf.shown(now or timezone.now())
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, title=f"{tournament.name}: {title}")
    styles = getSampleStyleSheet()
    head, rows = table
    grid = PdfTable([head, *([pdf.shown(cell) for cell in row] for row in rows)], repeatRows=1)
    grid.setStyle(
        [
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
        ]
    )
    where = " · ".join(part for part in (tournament.venue, pdf.shown(tournament.date)) if part)

    def footer(canvas, document) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(
            document.leftMargin,
            20,
            _("Page %(page)s · %(name)s · made %(when)s")
            % {"page": canvas.getPageNumber(), "name": tournament.name, "when": made},
        )
        canvas.restoreState()

    doc.build(
        [
            Paragraph(escape(tournament.name), styles["Title"]),
            Paragraph(escape(f"{title} · {where}"), styles["Normal"]),
            Paragraph(escape(_totals(tournament)), styles["Normal"]),
            Spacer(1, 12),
            grid,
        ],
        onFirstPage=footer,
        onLaterPages=footer,
    )
    return buffer.getvalue()

"""Reports: results, payouts, chip counts and penalties as CSV (csv module) and PDF
(reportlab). Read only; views serve the bytes."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import labels, selectors
from tournaments.models import BountyAward, ChipCount, Entry, Penalty, Tournament
from tournaments.services.formats import results_with_bounties

Table = tuple[list[str], list[list[str]]]


def _place(entry: Entry) -> str:
    if entry.disqualified:
        return _("DQ")
    if entry.place is None:
        return ""
    if entry.place_last:
        return f"{entry.place}-{entry.place_last}"
    return str(entry.place)


def _money(amount: int | None) -> str:
    """A prize: blank when there is none (a zero reads as if something were owed)."""
    return str(amount) if amount else ""


def _local(moment) -> str:
    """A time in the event's zone (the room's, settings.TIME_ZONE), never UTC."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _cents(cents: int) -> str:
    return f"{Decimal(cents) / 100:.2f}"


def results_table(tournament: Tournament) -> Table:
    if tournament.bounty_format != "none":
        return _results_with_bounties(tournament)
    head = [_("Place"), _("Player"), _("Entry"), _("Prize")]
    rows = [
        [_place(e), str(e.player), str(e.number), _money(e.prize)]
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
            str(r["entry"].number),
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
            a.created_at.strftime("%Y-%m-%d %H:%M"),
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
    rows = [
        [str(p["place"]), str(p["amount"]), f"{100 * p['amount'] / pool:.2f}"]
        for p in board["places"]
    ]
    return head, rows


def chip_counts_table(tournament: Tournament) -> Table:
    head = [_("Day"), _("Player"), _("Entry"), _("Chips"), _("Bag")]
    counts = (
        ChipCount.objects.filter(tournament=tournament)
        .select_related("entry__player")
        .order_by("day", "-chips")
    )
    rows = [
        [str(c.day), str(c.entry.player), str(c.entry.number), str(c.chips), c.bag] for c in counts
    ]
    return head, rows


def penalties_table(tournament: Tournament) -> Table:
    head = [_("Issued"), _("Player"), _("Penalty"), _("Offence"), _("Hands"), _("Served")]
    rows = [
        [
            _local(p.issued_at),
            str(p.player),
            str(labels.penalty_kind(p.kind)),
            p.offence,
            str(p.total_hands),
            str(p.served),
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
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _totals(tournament: Tournament) -> str:
    """The figures every report carries: entries, the prize pool and the prizes paid."""
    pool = selectors.prize_pool(tournament).prize_pool
    paid = sum(e.prize or 0 for e in selectors.results(tournament) if e.place is not None)
    return _(
        "Entries: %(entries)s · Prize pool: %(pool)s %(currency)s · Prizes: %(paid)s %(currency)s"
    ) % {
        "entries": selectors.buy_ins(tournament),
        "pool": pool,
        "paid": paid,
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

    made = _local(now or timezone.now())
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, title=f"{tournament.name}: {title}")
    styles = getSampleStyleSheet()
    head, rows = table
    grid = PdfTable([head, *rows], repeatRows=1)
    grid.setStyle(
        [
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
        ]
    )
    where = " · ".join(
        part for part in (tournament.venue, tournament.date.strftime("%Y-%m-%d")) if part
    )

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

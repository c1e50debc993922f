"""Reports: results, payouts, chip counts and penalties as CSV (csv module) and PDF
(reportlab). Read only; views serve the bytes."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import BountyAward, ChipCount, Entry, Penalty, Tournament

Table = tuple[list[str], list[list[str]]]


def _place(entry: Entry) -> str:
    if entry.disqualified:
        return _("DQ")
    if entry.place is None:
        return ""
    if entry.place_last:
        return f"{entry.place}-{entry.place_last}"
    return str(entry.place)


def _money(cents: int) -> str:
    return f"{Decimal(cents) / 100:.2f}"


def results_table(tournament: Tournament) -> Table:
    if tournament.bounty_format != "none":
        return _results_with_bounties(tournament)
    head = [_("Place"), _("Player"), _("Entry"), _("Prize")]
    rows = [
        [_place(e), str(e.player), str(e.number), str(e.prize)]
        for e in selectors.results(tournament)
        if e.place is not None or e.disqualified
    ]
    return head, rows


def _results_with_bounties(tournament: Tournament) -> Table:
    """Prize and bounty money separately and in total (formats.md §12)."""
    from tournaments.services.formats import results_with_bounties

    head = [_("Place"), _("Player"), _("Entry"), _("Prize"), _("Bounties"), _("Total")]
    rows = [
        [
            _place(r["entry"]),
            str(r["entry"].player),
            str(r["entry"].number),
            _money(r["prize"]),
            _money(r["bounty"]),
            _money(r["total"]),
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
            _money(a.cash_cents),
            _money(a.head_cents),
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
            p.issued_at.strftime("%Y-%m-%d %H:%M"),
            str(p.player),
            p.kind,
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


def as_csv(table: Table) -> bytes:
    """The table as UTF-8 CSV with a BOM, so spreadsheets read accents right."""
    out = io.StringIO()
    writer = csv.writer(out)
    head, rows = table
    writer.writerow(head)
    writer.writerows(rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def as_pdf(tournament: Tournament, title: str, table: Table) -> bytes:
    """The table as an A4 PDF with the tournament's name and the title."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
    from reportlab.platypus import Table as PdfTable

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
    pool = selectors.prize_pool(tournament).prize_pool
    doc.build(
        [
            Paragraph(escape(tournament.name), styles["Title"]),
            Paragraph(
                escape(
                    f"{title} · {tournament.date:%Y-%m-%d} · {_('Prize pool')}: "
                    f"{pool} {tournament.currency}"
                ),
                styles["Normal"],
            ),
            Spacer(1, 12),
            grid,
        ]
    )
    return buffer.getvalue()

"""PDF pages at A4 and receipt-printer width (80 mm roll), for printouts and the books.

A document is a title and a list of blocks; a block is a heading, a table (header row and
rows), a paragraph, a signature line or a page break (each slip or sticker on its own
page at receipt width). reportlab is imported when a PDF is made.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.formats import date_format, number_format

SIZES = ("a4", "receipt")
RECEIPT_MM = 80


@dataclass
class Block:
    kind: str  # "heading" | "text" | "table" | "sign" | "break" | "big"
    text: str = ""
    head: list[str] = field(default_factory=list)
    rows: list[list[object]] = field(default_factory=list)


def shown(value: object) -> str:
    """A value as the active language writes it on paper, as the pages do: an amount
    561.00 -> "561,00" in Italian, a date "07/12/2026", a count 1234 -> "1.234"."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, datetime):
        return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
    if isinstance(value, date):
        return date_format(value, "SHORT_DATE_FORMAT")
    if isinstance(value, Decimal | float):
        return number_format(value, 2, use_l10n=True, force_grouping=True)
    if isinstance(value, int):
        return number_format(value, use_l10n=True, force_grouping=True)
    return str(value)


def heading(text: str) -> Block:
    return Block("heading", text)


def text(value: str) -> Block:
    return Block("text", value)


def big(value: str) -> Block:
    return Block("big", value)


def table(head: list[str], rows: list[list[object]]) -> Block:
    return Block("table", head=head, rows=rows)


def sign(label: str) -> Block:
    return Block("sign", label)


def page_break() -> Block:
    return Block("break")


def render(title: str, blocks: list[Block], *, size: str = "a4", footer: str = "") -> bytes:
    """The blocks as a PDF at A4 or at receipt width."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer
    from reportlab.platypus import Table as PdfTable

    receipt = size == "receipt"
    buffer = io.BytesIO()
    if receipt:
        pagesize = (RECEIPT_MM * mm, 200 * mm)
        margins = {"leftMargin": 4 * mm, "rightMargin": 4 * mm, "topMargin": 5 * mm}
        margins["bottomMargin"] = 10 * mm
    else:
        pagesize, margins = A4, {}
    doc = SimpleDocTemplate(buffer, pagesize=pagesize, title=title, **margins)
    styles = getSampleStyleSheet()
    base = 8 if receipt else 10
    normal = ParagraphStyle("n", parent=styles["Normal"], fontSize=base, leading=base + 2)
    head_style = ParagraphStyle(
        "h", parent=styles["Heading2"], fontSize=base + 3, leading=base + 5, spaceAfter=2
    )
    big_style = ParagraphStyle(
        "b", parent=styles["Title"], fontSize=base * 2.4, leading=base * 2.8, spaceAfter=4
    )
    story: list = [Paragraph(escape(title), styles["Title"] if not receipt else head_style)]
    for block in blocks:
        if block.kind == "heading":
            story.append(Paragraph(escape(block.text), head_style))
        elif block.kind == "text":
            story.append(Paragraph(escape(block.text), normal))
        elif block.kind == "big":
            story.append(Paragraph(escape(block.text), big_style))
        elif block.kind == "sign":
            story += [Spacer(1, 18), Paragraph("_" * (32 if receipt else 48), normal)]
            story.append(Paragraph(escape(block.text), normal))
        elif block.kind == "break":
            story.append(PageBreak())
        elif block.kind == "table":
            cells = [
                [Paragraph(escape(shown(c)), normal) for c in row]
                for row in [block.head, *block.rows]
            ]
            grid = PdfTable(cells, repeatRows=1 if block.head else 0)
            grid.setStyle(
                [
                    ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
                    ("FONTSIZE", (0, 0), (-1, -1), base),
                    ("LEFTPADDING", (0, 0), (-1, -1), 1 if receipt else 4),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 1 if receipt else 4),
                    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
                ]
            )
            story.append(grid)
        story.append(Spacer(1, 4))

    def on_page(canvas, document) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 6 if receipt else 8)
        canvas.drawString(document.leftMargin, 12, f"{canvas.getPageNumber()} · {footer}"[:120])
        canvas.restoreState()

    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()

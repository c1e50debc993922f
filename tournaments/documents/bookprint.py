"""The books of the night on paper (A4 or receipt width), receipts and payout slips."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.documents import pdf
from tournaments.labels import cents_text
from tournaments.models import Entry, PaymentMethod, Tournament
from tournaments.rules import cashbook


def kind_labels() -> dict[str, str]:
    return {
        "entry": _("Entries"),
        "reentry": _("Re-entries"),
        "rebuy": _("Rebuys"),
        "addon": _("Add-ons"),
    }


def method_label(method: str) -> str:
    return str(PaymentMethod(method).label) if method in PaymentMethod.values else method


def sold_rows(result: cashbook.Books) -> list[list[object]]:
    labels = kind_labels()
    return [[labels.get(k, k), result.counts[k], result.amounts[k]] for k in result.counts]


def method_rows(result: cashbook.Books) -> list[tuple[str, cashbook.MethodLine]]:
    return [(method_label(m), line) for m, line in result.by_method.items()]


def _lines(result: cashbook.Books, allocation: cashbook.Allocation, rake: int = 0) -> list:
    sold = sold_rows(result)
    methods = [
        [method_label(m), line.taken, line.given_back, line.corrections, line.net]
        for m, line in result.by_method.items()
    ]
    clerks = [
        [name, line.sales, line.taken, line.voids, line.refunded]
        for name, line in sorted(result.by_clerk.items())
    ]
    where = [
        [_("Fees"), allocation.fees],
        [_("House share"), allocation.house_share],
        [_("Tax"), allocation.taxes],
        [_("Prize pool"), allocation.prize_pool],
        [_("Guarantee"), allocation.guarantee],
        [_("Added money (house)"), -allocation.added_money],
        [_("Overlay (house)"), -allocation.overlay],
        [_("Prizes paid"), -allocation.prizes_paid],
        [_("Deals (in prizes)"), allocation.deals],
    ]
    if allocation.bounties_held or result.bounties_paid:
        where.append([_("Bounties paid"), -result.bounties_paid])
        where.append([_("Bounties still held for the players"), allocation.bounties_held])
    if rake:
        where.append([_("Cash room rake"), rake])
    if result.jackpot_drops or result.jackpots_paid or result.jackpot_room:
        where.append([_("Jackpot drops (held for the players)"), result.jackpot_drops])
        where.append([_("Jackpots paid to players"), -result.jackpots_paid])
        if result.jackpot_room:
            where.append([_("The room's share of the jackpots paid"), result.jackpot_room])
        where.append(
            [_("Jackpot money held for the players: tonight's change"), result.jackpot_held]
        )
    return [
        pdf.heading(_("Sales")),
        pdf.table([_("Kind"), _("Count"), _("Amount")], sold),
        pdf.text(_("Voided sales: %(amount)s") % {"amount": pdf.shown(result.voided)}),
        pdf.heading(_("By payment method")),
        pdf.table([_("Method"), _("Taken"), _("Given back"), _("Corrections"), _("Net")], methods),
        pdf.heading(_("By desk clerk")),
        pdf.table([_("Clerk"), _("Sales"), _("Taken"), _("Voids"), _("Refunded")], clerks),
        pdf.heading(_("Where the money belongs")),
        pdf.table([_("Line"), _("Amount")], where),
        pdf.heading(_("Balance")),
        pdf.table(
            [_("Drawer"), _("Accounted for"), _("Difference")],
            [[result.drawer, result.accounted, result.difference]],
        ),
    ]


def _refunds(refunds: list) -> list:
    if not refunds:
        return []
    rows = [
        [
            timezone.localtime(r.at).strftime("%H:%M"),
            str(r.entry.player),
            cashbook.from_cents(r.amount * 100 + r.bounty_cents),
            method_label(r.payment_method),
            r.reason,
            r.by.get_username() if r.by else "—",
        ]
        for r in refunds
    ]
    head = [_("Time"), _("Player"), _("Amount"), _("Method"), _("Reason"), _("By")]
    return [pdf.heading(_("Voids and refunds")), pdf.table(head, rows)]


def event_pdf(report: dict[str, Any], *, size: str, now: datetime) -> bytes:
    tournament: Tournament = report["tournament"]
    blocks = _lines(report["books"], report["allocation"]) + _refunds(report["refunds"])
    if report["closed"]:
        blocks.append(pdf.text(_("The night is closed.")))
    blocks.append(pdf.sign(_("Signature of the tournament director")))
    title = _("Cash report · %(name)s · %(date)s") % {
        "name": tournament.name,
        "date": pdf.shown(tournament.date),
    }
    return pdf.render(title, blocks, size=size, footer=_made(now))


def night_pdf(report: dict[str, Any], *, size: str, now: datetime) -> bytes:
    blocks = _lines(report["books"], report["allocation"], report["rake"])
    blocks += _refunds(report["refunds"])
    if report["corrections"]:
        rows = [
            [
                c.amount,
                method_label(c.payment_method),
                c.reason,
                c.by.get_username() if c.by else "",
            ]
            for c in report["corrections"]
        ]
        blocks += [
            pdf.heading(_("Corrections after closing")),
            pdf.table([_("Amount"), _("Method"), _("Reason"), _("By")], rows),
        ]
    events = [
        [e["tournament"].name, e["books"].taken, e["books"].drawer, e["books"].difference]
        for e in report["events"]
    ]
    blocks += [
        pdf.heading(_("Events")),
        pdf.table([_("Event"), _("Taken"), _("Drawer"), _("Difference")], events),
    ]
    if report["closed"]:
        blocks.append(pdf.text(_("The night is closed.")))
    blocks.append(pdf.sign(_("Signature of the tournament director")))
    title = _("Books of the night · %(date)s") % {"date": pdf.shown(report["night"])}
    return pdf.render(title, blocks, size=size, footer=_made(now))


def _made(now: datetime) -> str:
    return _("made %(when)s") % {"when": pdf.shown(now)}


def receipt_pdf(tournament: Tournament, entry: Entry, *, size: str, now: datetime) -> bytes:
    """A receipt for every sale on an entry: the buy-in and each rebuy and add-on."""
    labels = kind_labels()
    split = entry.paid_split()
    method = method_label(entry.payment_method)
    # The buy-in with its parts, so the receipt adds up to what the player handed over.
    rows: list[list[object]] = [
        [labels.get(entry.kind, entry.kind), cents_text(split["total"]), method],
        ["  " + _("Prize pool"), cents_text(split["prize"]), ""],
    ]
    if split["bounty"]:
        rows.append(["  " + _("Bounty"), cents_text(split["bounty"]), ""])
    rows.append(["  " + _("Fee"), cents_text(split["fee"]), ""])
    total = split["total"]
    for purchase in entry.purchases.filter(voided=False).order_by("created_at"):
        rows.append(
            [
                labels[purchase.kind],
                cents_text(purchase.price * 100),
                method_label(purchase.payment_method),
            ]
        )
        total += purchase.price * 100
    blocks = [
        pdf.text(str(entry.player)),
        pdf.text(_("Receipt %(number)s") % {"number": f"{tournament.pk}-{entry.number:04d}"}),
        pdf.table([_("Sale"), _("Amount"), _("Method")], rows),
        pdf.text(
            _("Total %(amount)s %(currency)s")
            % {"amount": cents_text(total), "currency": tournament.currency}
        ),
    ]
    return pdf.render(tournament.name, blocks, size=size, footer=_made(now))


def payout_pdf(tournament: Tournament, entry: Entry, *, size: str, now: datetime) -> bytes:
    """A payout slip for a prize, with a signature line for the player."""
    place = (
        entry.place
        if entry.place_last in (None, entry.place)
        else (f"{entry.place}-{entry.place_last}")
    )
    blocks = [
        pdf.big(f"{pdf.shown(entry.prize)} {tournament.currency}"),
        pdf.text(str(entry.player)),
        pdf.text(_("Place %(place)s") % {"place": place or "—"}),
        pdf.text(_("Entry #%(number)s") % {"number": entry.number}),
    ]
    if entry.deal_amount is not None:
        blocks.append(
            pdf.text(_("By a deal: %(amount)s") % {"amount": pdf.shown(entry.deal_amount)})
        )
    blocks += [
        pdf.sign(_("Received by the player")),
        pdf.sign(_("Paid by (staff)")),
    ]
    title = _("Payout slip · %(name)s") % {"name": tournament.name}
    return pdf.render(title, blocks, size=size, footer=_made(now))


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """A printed document, shown in the browser's own viewer."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def page_rows(report: dict) -> dict:
    """The rows a books page shows beside its totals, as the printed books list them."""
    return {
        "sold": sold_rows(report["books"]),
        "method_rows": method_rows(report["books"]),
    }

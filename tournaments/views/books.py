"""The books of the night and the printouts. Views are thin:
forms read the input, services change the books, bookprint/printouts make the PDFs."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from tables import permissions as room_permissions
from tournaments import permissions
from tournaments.documents import bookprint, printouts
from tournaments.forms import books as books_forms
from tournaments.models import PaymentMethod, Role
from tournaments.services import books as book_services


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _rows(report: dict) -> dict:
    return {
        "sold": bookprint.sold_rows(report["books"]),
        "method_rows": bookprint.method_rows(report["books"]),
    }


@login_required
def event_books(request: HttpRequest, slug: str) -> HttpResponse:
    """One event's cash report (the TD and the desk); ?format=pdf&size=a4|receipt."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.DESK)
    form = books_forms.NightForm(request.GET)
    report = book_services.event_books(tournament)
    if form.is_valid() and form.cleaned_data["format"] == "pdf":
        size = form.cleaned_data["size"] or "a4"
        content = bookprint.event_pdf(report, size=size, now=timezone.now())
        return _pdf(content, f"{tournament.slug}-books-{size}.pdf")
    role = permissions.role_for(request.user, tournament)
    context = {
        **report,
        **_rows(report),
        "may_void": role == Role.TD,
        "may_see_night": room_permissions.has_room_role(request.user, room_permissions.BOOKS),
    }
    return render(request, "books/event.html", context)


@login_required
@require_POST
def sale_void(request: HttpRequest, slug: str) -> HttpResponse:
    """The TD voids a sale and refunds it, with a reason."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.TD)
    form = books_forms.VoidForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("event_books", slug)
    entry = tournament.entries.filter(number=form.cleaned_data["entry"]).first()
    purchase = None
    if entry is not None and form.cleaned_data["purchase"]:
        purchase = entry.purchases.filter(pk=form.cleaned_data["purchase"]).first()
        if purchase is None:
            entry = None
    if entry is None:
        messages.error(request, _("No such sale in this tournament."))
        return redirect("event_books", slug)
    ok, refund = run(
        request,
        book_services.sale_void,
        tournament=tournament,
        entry=entry,
        purchase=purchase,
        reason=form.cleaned_data["reason"],
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("Voided and refunded %(amount)s to %(player)s.")
            % {"amount": refund.amount, "player": entry.player},
        )
    return redirect("event_books", slug)


def _books_role(request: HttpRequest) -> None:
    """The night's books are the room's: its manager and its cashier (books), never an
    event's TD by being one (an event's own books are `event_books`)."""
    room_permissions.require_room_role(request.user, room_permissions.BOOKS)


def _money(amount: int) -> dict[str, Any]:
    """An amount in words' parts: its size and whether it came in or went out."""
    return {
        "amount": abs(amount),
        "direction": _("money in") if amount > 0 else _("money out"),
    }


def _method_label(method: str) -> str:
    return str(PaymentMethod(method).label) if method in PaymentMethod.values else method


def _log_words(event) -> str:
    """A row of the room's log of the night's books, in words."""
    data = event.data if isinstance(event.data, dict) else {}
    who = event.actor.get_username() if event.actor else "—"
    when = date_format(timezone.localtime(event.at), "SHORT_DATETIME_FORMAT")
    if event.action == book_services.NIGHT_CLOSE:
        return _("%(when)s: %(who)s closed the night; the drawer held %(drawer)s.") % {
            "when": when,
            "who": who,
            "drawer": data.get("drawer", "—"),
        }
    return _(
        "%(when)s: %(who)s recorded a correction of %(amount)s %(direction)s, paid by "
        "%(method)s: %(reason)s"
    ) % {
        "when": when,
        "who": who,
        **_money(int(data.get("amount") or 0)),
        "method": _method_label(str(data.get("method", ""))),
        "reason": data.get("reason", ""),
    }


@login_required
def night_books(request: HttpRequest) -> HttpResponse:
    """The night's books: every event of the date and the cash room's rake."""
    _books_role(request)
    form = books_forms.NightForm(request.GET)
    valid = form.is_valid()
    night = (valid and form.cleaned_data["night"]) or timezone.localdate()
    report = book_services.night_books(night)
    if valid and form.cleaned_data["format"] == "pdf":
        size = form.cleaned_data["size"] or "a4"
        content = bookprint.night_pdf(report, size=size, now=timezone.now())
        return _pdf(content, f"night-{night.isoformat()}-{size}.pdf")
    log = [_log_words(event) for event in report["log"]]
    return render(request, "books/night.html", {**report, **_rows(report), "log_words": log})


def _night_back(night) -> HttpResponse:
    return redirect(reverse("night_books") + f"?night={night.isoformat()}")


@login_required
@require_POST
def night_close(request: HttpRequest) -> HttpResponse:
    _books_role(request)
    form = books_forms.CloseForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("night_books")
    night = form.cleaned_data["night"]
    ok, _closed = run(request, book_services.night_close, night=night, actor=request.user)
    if ok:
        messages.success(request, _("The night is closed."))
    return _night_back(night)


@login_required
@require_POST
def night_correct(request: HttpRequest) -> HttpResponse:
    """Record a correction; an unconfirmed one is first restated (amount and direction)
    on a page that asks to confirm it, and nothing is recorded until then."""
    _books_role(request)
    form = books_forms.CorrectionForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        night = form.cleaned_data.get("night")
        return _night_back(night) if night else redirect("night_books")
    data = form.cleaned_data
    if not data["confirm"]:
        context = {
            "night": data["night"],
            "correction": data,
            "key": secrets.token_urlsafe(24),
            "method": _method_label(data["payment_method"]),
            **_money(data["amount"]),
        }
        return render(request, "books/night_confirm.html", context)
    ok, _correction = run(
        request,
        book_services.night_correct,
        night=data["night"],
        amount=data["amount"],
        method=data["payment_method"],
        reason=data["reason"],
        key=data["key"],
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Correction recorded."))
    return _night_back(data["night"])


@login_required
def printout(request: HttpRequest, slug: str) -> HttpResponse:
    """The floor's printouts (no ?doc: the list); a receipt or payout slip by ?entry."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    if not request.GET:
        context = {"tournament": tournament, "titles": printouts.document_titles()}
        return render(request, "books/printouts.html", context)
    form = books_forms.PrintForm(request.GET)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("printout", slug)
    doc, size = form.cleaned_data["doc"], form.cleaned_data["size"] or "a4"
    now = timezone.now()
    if doc in books_forms.SLIPS:
        entry = (
            tournament.entries.select_related("player")
            .filter(number=form.cleaned_data["entry"] or 0)
            .first()
        )
        if entry is None:
            raise Http404
        make = bookprint.receipt_pdf if doc == "receipt" else bookprint.payout_pdf
        content = make(tournament, entry, size=size, now=now)
        return _pdf(content, f"{tournament.slug}-{doc}-{entry.number}.pdf")
    content = printouts.printout(tournament, doc, size, now)
    return _pdf(content, f"{tournament.slug}-{doc}-{size}.pdf")

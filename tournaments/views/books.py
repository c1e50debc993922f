"""The books of the night and the printouts (issue 16, items 4 and 5). Views are thin:
forms read the input, services change the books, bookprint/printouts make the PDFs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import bookprint, permissions, printouts
from tournaments.forms import books as books_forms
from tournaments.models import Role, StaffAssignment
from tournaments.services import books as book_services
from tournaments.views.core import run


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _rows(report: dict) -> dict:
    return {
        "sold": bookprint.sold_rows(report["books"]),
        "method_rows": bookprint.method_rows(report["books"]),
    }


def _form_errors(request: HttpRequest, form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


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
    context = {**report, **_rows(report), "may_void": role == Role.TD}
    return render(request, "books/event.html", context)


@login_required
@require_POST
def sale_void(request: HttpRequest, slug: str) -> HttpResponse:
    """The TD voids a sale and refunds it, with a reason."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.TD)
    form = books_forms.VoidForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
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


def _night_allowed(user, night) -> bool:
    """The night's books: superusers and the TDs of its events."""
    if user.is_superuser:
        return True
    return StaffAssignment.objects.filter(user=user, role=Role.TD, tournament__date=night).exists()


@login_required
def night_books(request: HttpRequest) -> HttpResponse:
    """The night's books: every event of the date and the cash room's rake."""
    form = books_forms.NightForm(request.GET)
    valid = form.is_valid()
    night = (valid and form.cleaned_data["night"]) or timezone.localdate()
    if not _night_allowed(request.user, night):
        raise PermissionDenied
    report = book_services.night_books(night)
    if valid and form.cleaned_data["format"] == "pdf":
        size = form.cleaned_data["size"] or "a4"
        content = bookprint.night_pdf(report, size=size, now=timezone.now())
        return _pdf(content, f"night-{night.isoformat()}-{size}.pdf")
    context = {**report, **_rows(report), "correction_key": books_forms.fresh_key()}
    return render(request, "books/night.html", context)


def _night_back(night) -> HttpResponse:
    return redirect(reverse("night_books") + f"?night={night.isoformat()}")


@login_required
@require_POST
def night_close(request: HttpRequest) -> HttpResponse:
    form = books_forms.CloseForm(request.POST)
    if not form.is_valid():
        if not _night_allowed(request.user, timezone.localdate()):
            raise PermissionDenied
        _form_errors(request, form)
        return redirect("night_books")
    night = form.cleaned_data["night"]
    if not _night_allowed(request.user, night):
        raise PermissionDenied
    ok, _closed = run(request, book_services.night_close, night=night, actor=request.user)
    if ok:
        messages.success(request, _("The night is closed."))
    return _night_back(night)


@login_required
@require_POST
def night_correct(request: HttpRequest) -> HttpResponse:
    form = books_forms.CorrectionForm(request.POST)
    if not form.is_valid():
        if not _night_allowed(request.user, timezone.localdate()):
            raise PermissionDenied
        _form_errors(request, form)
        return redirect("night_books")
    night = form.cleaned_data["night"]
    if not _night_allowed(request.user, night):
        raise PermissionDenied
    ok, _correction = run(
        request,
        book_services.night_correct,
        night=night,
        amount=form.cleaned_data["amount"],
        method=form.cleaned_data["payment_method"],
        reason=form.cleaned_data["reason"],
        key=form.cleaned_data["key"],
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Correction recorded."))
    return _night_back(night)


@login_required
def printout(request: HttpRequest, slug: str) -> HttpResponse:
    """The floor's printouts (no ?doc: the list); a receipt or payout slip by ?entry."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    if not request.GET:
        context = {"tournament": tournament, "titles": printouts.document_titles()}
        return render(request, "books/printouts.html", context)
    form = books_forms.PrintForm(request.GET)
    if not form.is_valid():
        _form_errors(request, form)
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

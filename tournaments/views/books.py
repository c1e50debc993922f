"""An event's books, a sale's void and the printouts. Views are thin: forms read the
input, services change the books, bookprint/printouts make the PDFs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from tournaments import permissions
from tournaments.documents import bookprint, printouts
from tournaments.forms import books as books_forms
from tournaments.models import Role
from tournaments.selectors import books as book_reads
from tournaments.services import books as book_services


@login_required
def event_books(request: HttpRequest, slug: str) -> HttpResponse:
    """One event's cash report (the TD and the desk); ?format=pdf&size=a4|receipt."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.DESK)
    form = books_forms.NightForm(request.GET)
    report = book_reads.event_books(tournament)
    if form.is_valid() and form.cleaned_data["format"] == "pdf":
        size = form.cleaned_data["size"] or "a4"
        content = bookprint.event_pdf(report, size=size, now=timezone.now())
        return bookprint.pdf_response(content, f"{tournament.slug}-books-{size}.pdf")
    role = permissions.role_for(request.user, tournament)
    context = {
        **report,
        **bookprint.page_rows(report),
        "may_void": role == Role.TD,
        "may_see_night": permissions.has_room_role(request.user, permissions.BOOKS),
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
        return bookprint.pdf_response(content, f"{tournament.slug}-{doc}-{entry.number}.pdf")
    content = printouts.printout(tournament, doc, size, now)
    return bookprint.pdf_response(content, f"{tournament.slug}-{doc}-{size}.pdf")

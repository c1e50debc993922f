"""The night's books: every event of the night with the cash room's rake and jackpot
money, its close and its corrections, for the room's manager and cashier."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.selectors import books as night_reads
from room.services import books as night_services
from tournaments import permissions
from tournaments.documents import bookprint
from tournaments.forms import books as books_forms
from tournaments.models import PaymentMethod


def _books_role(request: HttpRequest) -> None:
    """The night's books are the room's: its manager and its cashier (books), never an
    event's TD by being one (an event's own books are `event_books`)."""
    permissions.require_room_role(request.user, permissions.BOOKS)


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
    if event.action == night_reads.NIGHT_CLOSE:
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
    report = night_reads.night_books(night)
    if valid and form.cleaned_data["format"] == "pdf":
        size = form.cleaned_data["size"] or "a4"
        content = bookprint.night_pdf(report, size=size, now=timezone.now())
        return bookprint.pdf_response(content, f"night-{night.isoformat()}-{size}.pdf")
    log = [_log_words(event) for event in report["log"]]
    return render(
        request, "books/night.html", {**report, **bookprint.page_rows(report), "log_words": log}
    )


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
    ok, _closed = run(request, night_services.night_close, night=night, actor=request.user)
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
        night_services.night_correct,
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

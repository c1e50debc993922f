"""Reservations: the public page that takes one and its confirmation (no login), and the
desk's finder that turns one into a paid entry in one keystroke."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config import ratelimit
from config.views import form_errors, run
from tournaments import permissions
from tournaments.forms import books as books_forms
from tournaments.forms.reservations import ReservationForm
from tournaments.models import Reservation, Tournament
from tournaments.selectors import reservations as selectors
from tournaments.services import reservations as services
from tournaments.views.qr import qr_svg


def _public(slug: str) -> Tournament:
    return permissions.get_public_tournament(slug)


def _limited(request: HttpRequest) -> bool:
    """A reservation or a cancellation counts against the address (a script filling the
    room with names is stopped; a family on one Wi-Fi is not)."""
    limit = ratelimit.RESERVE
    return limit.hit(ratelimit.client_ip(request)) > limit.limit


@never_cache
def reserve(request: HttpRequest, slug: str) -> HttpResponse:
    """No login: the event's reservation form."""
    tournament = _public(slug)
    form = ReservationForm(request.POST or None)
    if request.method == "POST":
        if _limited(request):
            messages.error(request, _("Too many reservations from here: try again later."))
        elif form.is_valid():
            ok, reservation = run(
                request,
                services.reservation_make,
                tournament=tournament,
                language=get_language() or "",
                **form.cleaned_data,
            )
            if ok:
                return redirect("reservation", tournament.slug, reservation.code)
        else:
            form_errors(request, form)
    taken = selectors.counts([tournament]).get(tournament.pk, (0, 0))
    return render(
        request,
        "reservations/reserve.html",
        {
            "tournament": tournament,
            "form": form,
            "open": tournament.reservations_open and tournament.reservable_seats > 0,
            "full": taken[0] >= tournament.reservable_seats,
            "hide_login": True,
        },
    )


def _by_code(tournament: Tournament, code: str) -> Reservation:
    reservation = selectors.by_code(tournament, code)
    if reservation is None:
        raise Http404
    return reservation


@never_cache
def reservation(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """No login: the confirmation, reached by its code (the code is the key): the code in
    large type and as a QR code the desk scans, the seat held or the place on the list."""
    tournament = _public(slug)
    found = _by_code(tournament, code)
    here = request.build_absolute_uri(reverse("reservation", args=[tournament.slug, found.code]))
    return render(
        request,
        "reservations/confirmation.html",
        {
            "tournament": tournament,
            "reservation": found,
            "position": selectors.waiting_position(found),
            "qr": qr_svg(here, 5),
            "hide_login": True,
        },
    )


@require_POST
def reservation_cancel(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = _public(slug)
    found = _by_code(tournament, code)
    if _limited(request):
        messages.error(request, _("Too many reservations from here: try again later."))
    else:
        ok, _promoted = run(
            request, services.reservation_cancel, tournament=tournament, reservation=found
        )
        if ok:
            messages.success(request, _("Your reservation is cancelled."))
    return redirect("reservation", tournament.slug, found.code)


def _desk(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.DESK)


@login_required
def desk_reservations(request: HttpRequest, slug: str) -> HttpResponse:
    """The desk's reservations: a scanned QR or a typed code or name finds one; when one
    open reservation is found its Register button has the focus, so Enter registers it."""
    tournament = _desk(request, slug)
    query = request.GET.get("q", "").strip()[:120]
    found = list(selectors.desk_find(tournament, query)[:100])
    open_ones = [r for r in found if r.status in selectors.OPEN]
    return render(
        request,
        "reservations/desk.html",
        {
            "tournament": tournament,
            "query": query,
            "found": found,
            "focus": open_ones[0].pk if query and len(open_ones) == 1 else None,
            "counts": selectors.counts([tournament]).get(tournament.pk, (0, 0)),
        },
    )


@login_required
@require_POST
def reservation_register(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One keystroke: the reservation becomes a paid entry, its seat drawn; the seat card
    follows."""
    tournament = _desk(request, slug)
    found = Reservation.objects.filter(tournament=tournament, pk=pk).first()
    if found is None:
        raise Http404
    ok, registration = run(
        request,
        services.reservation_arrive,
        tournament=tournament,
        reservation=found,
        actor=request.user,
        payment_method=books_forms.PaymentForm(request.POST).method(),
    )
    if not ok:
        return redirect("desk_reservations", tournament.slug)
    return redirect("seat_card", tournament.slug, registration.entry.number)


@login_required
@require_POST
def reservation_desk_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _desk(request, slug)
    found = Reservation.objects.filter(tournament=tournament, pk=pk).first()
    if found is None:
        raise Http404
    ok, _promoted = run(
        request,
        services.reservation_cancel,
        tournament=tournament,
        reservation=found,
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Reservation cancelled."))
    return redirect("desk_reservations", tournament.slug)

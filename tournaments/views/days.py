"""The days page: the end of the day's bags (floor), the next day, a new flight, the
flights merged into the next day and the day's redraw (TD).

Views parse, fetch through permissions, call one service and redirect with a message;
junk input becomes a message, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions, selectors
from tournaments.forms import days as day_forms
from tournaments.models import ChipCount
from tournaments.services import days
from tournaments.views.core import event_and_role
from tournaments.views.floor import _active_by_number, _refused, _seated


@login_required
def days_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)

    counts = dict(
        ChipCount.objects.filter(tournament=tournament, day=tournament.day).values_list(
            "entry_id", "chips"
        )
    )
    return render(
        request,
        "money/days.html",
        {
            "tournament": tournament,
            "role": role,
            "players": _seated(tournament),
            "counts": counts,
            "check": days.bag_check(tournament),
            "event": tournament.parent or tournament,
            "flights": selectors.tournament_family(tournament)[1:],
        },
    )


@login_required
@require_POST
def bag(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    active = _active_by_number(tournament)
    form = day_forms.BagForm(request.POST, keys=active)
    if _refused(request, form):
        return redirect("days", slug)
    counts = {active[n].pk: chips for n, chips in form.counts(blank=None).items()}
    ok, check = run(
        request, days.chips_bag, tournament=tournament, counts=counts, actor=request.user
    )
    if ok:
        if check.discrepancy:
            messages.warning(
                request,
                _("The bags hold %(counted)s chips, the ledger says %(ledger)s: recount.")
                % {"counted": check.counted, "ledger": check.chips_in_play},
            )
        else:
            messages.success(request, _("Bags recorded."))
    return redirect("days", slug)


@login_required
@require_POST
def day_next(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, day = run(request, days.day_next, tournament=tournament, actor=request.user)
    if ok:
        messages.success(request, _("Day %(day)s begins.") % {"day": day})
    return redirect("days", slug)


@login_required
@require_POST
def flight_new(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    form = day_forms.FlightForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the flight a name and a date."))
        return redirect("days", slug)
    ok, flight = run(
        request,
        days.flight_create,
        event=tournament,
        actor=request.user,
        name=form.cleaned_data["name"],
        date=form.cleaned_data["date"],
    )
    if ok:
        messages.success(request, _("Flight %(name)s created.") % {"name": flight.name})
    return redirect("days", slug)


@login_required
@require_POST
def flights_merge(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, merged = run(request, days.flights_merge, event=tournament, actor=request.user)
    if ok:
        messages.success(
            request,
            ngettext(
                "%(n)s player goes through to the next day.",
                "%(n)s players go through to the next day.",
                len(merged.carried),
            )
            % {"n": len(merged.carried)},
        )
    return redirect("days", slug)


@login_required
@require_POST
def day_redraw(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, seated = run(request, days.day_redraw, tournament=tournament, actor=request.user)
    if ok:
        messages.success(request, _("%(n)s players seated.") % {"n": len(seated)})
    return redirect("days", slug)

"""The penalties page: the floor gives a penalty (an elimination or disqualification only
the TD), and counts a hand dealt at a table towards the penalties served there.

Views parse, fetch through permissions, call one service and redirect with a message;
junk input becomes a message, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions, selectors
from tournaments.forms import floor as floor_forms
from tournaments.forms.fields import first_error
from tournaments.models import Penalty, Role, Table
from tournaments.rules import penalties
from tournaments.services import penalties as penalty_services
from tournaments.views.core import event_and_role
from tournaments.views.floor import _active_by_number, _seated


@login_required
def penalty_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)
    family = selectors.tournament_family(tournament)

    return render(
        request,
        "money/penalties.html",
        {
            "tournament": tournament,
            "role": role,
            "players": _seated(tournament),
            "active": penalty_services.active_penalties(tournament),
            "history": Penalty.objects.filter(tournament__in=family, voided=False)
            .select_related("player")
            .order_by("-issued_at")[:100],
            "kinds": list(penalties.PenaltyKind),
        },
    )


@login_required
@require_POST
def penalty_give(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.FLOOR)
    form = floor_forms.PenaltyForm(request.POST)
    valid = form.is_valid()
    if form.cleaned_data.get("kind") in {"elimination", "disqualification"} and role != Role.TD:
        messages.error(request, _("Only the TD may eliminate or disqualify a player."))
        return redirect("penalties", slug)
    if not valid and "entry" not in form.errors:
        messages.error(request, first_error(form))
        return redirect("penalties", slug)
    entry = _active_by_number(tournament).get(form.cleaned_data.get("entry"))
    if entry is None:
        messages.error(request, _("Choose a player who is still in."))
        return redirect("penalties", slug)
    ok, penalty = run(
        request,
        penalty_services.penalty_give,
        tournament=tournament,
        entry=entry,
        kind=form.cleaned_data["kind"],
        rounds=form.cleaned_data["rounds"] or 0,
        hands=form.cleaned_data["hands"] or 0,
        offence=form.cleaned_data["offence"],
        stack=form.cleaned_data["stack"] or 0,
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("Penalty recorded for %(player)s: %(hands)s hands.")
            % {"player": entry.player, "hands": penalty.total_hands},
        )
    return redirect("penalties", slug)


@login_required
@require_POST
def penalty_hand(request: HttpRequest, slug: str) -> HttpResponse:
    """The floor (or a tablet) reports a hand dealt at a table."""
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    form = floor_forms.HandDealtForm(request.POST)
    table = (
        Table.objects.filter(tournament=tournament, number=form.cleaned_data["table"]).first()
        if form.is_valid()
        else None
    )
    if table is None:
        messages.error(request, _("Choose a table."))
        return redirect("penalties", slug)
    ok, moved = run(
        request,
        penalty_services.penalty_hand_dealt,
        table=table,
        event=form.cleaned_data["event"] or "hand",
    )
    if ok:
        messages.success(request, _("Hand counted for %(n)s penalties.") % {"n": len(moved)})
    return redirect("penalties", slug)

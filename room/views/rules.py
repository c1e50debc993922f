"""The room's no-show rule for reservations (the manager's): how many no-shows within how
many days flag a player's record."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from config.views import form_errors, run
from room.services import no_shows
from tournaments import permissions
from tournaments.forms.reservations import ReservationRulesForm
from tournaments.services import holds


@login_required
def reservation_rules(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.MANAGER)
    rule = holds.rules()
    form = ReservationRulesForm(
        request.POST or None,
        initial={"no_show_limit": rule.no_show_limit, "no_show_days": rule.no_show_days},
    )
    if request.method == "POST":
        if form.is_valid():
            ok, _rule = run(request, no_shows.rules_save, actor=request.user, **form.cleaned_data)
            if ok:
                messages.success(request, _("The no-show rule is saved."))
        else:
            form_errors(request, form)
        return redirect("reservation_rules")
    return render(request, "room/kiosk/rules.html", {"form": form})

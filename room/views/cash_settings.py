"""The cash room's settings, the TD's and the manager's: a game added to the catalogue,
the room's settings page (every setting of cash-room.md §3 beside the rulebook's default)
and two players kept at different tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import cash as forms
from room.selectors import cash as cash_reads
from room.services import cash_players, cash_settings
from room.views.cash_board import _back, _role
from tournaments import permissions


@login_required
@require_POST
def game_add(request: HttpRequest) -> HttpResponse:
    _role(request, permissions.MANAGER)
    form = forms.CashGameForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    values = {f: form.cleaned_data[f] for f in forms.CashGameForm.Meta.fields}
    ok, game = run(request, cash_settings.game_save, actor=request.user, game=None, values=values)
    if ok:
        messages.success(request, _("Game %(game)s added.") % {"game": game})
    return _back(request)


@login_required
def room_settings(request: HttpRequest) -> HttpResponse:
    """The room's settings page (the manager's): every setting of cash-room.md §3 the app
    acts on, each with the rulebook's default beside it."""
    _role(request, permissions.MANAGER)
    room = cash_reads.cash_room()
    if request.method == "POST":
        form = forms.CashRoomForm(request.POST)
        if form.is_valid():
            ok, _room = run(
                request, cash_settings.room_settings_save, actor=request.user, values=form.values()
            )
            if ok:
                messages.success(request, _("Room settings saved."))
                return redirect("cash_room_settings")
        else:
            messages.error(request, _("Nothing was saved: correct the settings marked below."))
    else:
        form = forms.CashRoomForm(
            initial=forms.CashRoomForm.as_fields(
                cash_reads.room_settings(), public_name_format=room.public_name_format
            )
        )
    return render(request, "tables/cash/settings.html", {"form": form})


@login_required
@require_POST
def keep_apart(request: HttpRequest) -> HttpResponse:
    _role(request, permissions.MANAGER)
    form = forms.KeepApartForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    ok, _pair = run(
        request,
        cash_players.keep_apart_add,
        actor=request.user,
        a=data["card_a"],
        b=data["card_b"],
        reason=data["reason"],
    )
    if ok:
        messages.success(request, _("The two players will not sit at the same table."))
    return _back(request)

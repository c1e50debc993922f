"""The floor's actions on the cash tables: a table opened from its game's list, a free seat
called from the list or filled by priority, and a table closed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import cash as forms
from room.models import CashTable
from room.permissions import cash_game_for
from room.services import cash_lists, cash_seats, cash_tables
from room.views.cash_board import _back, _role
from tournaments import permissions


def _open_table(pk: int) -> CashTable:
    return get_object_or_404(
        CashTable.objects.select_related("game"), pk=pk, status=CashTable.Status.OPEN
    )


@login_required
@require_POST
def table_call(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.SeatNumberForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, entry = run(
        request,
        cash_lists.list_call,
        actor=request.user,
        table=_open_table(pk),
        seat=form.cleaned_data["seat"],
    )
    if ok:
        messages.success(
            request,
            _("%(player)s is called for table %(table)s seat %(seat)s.")
            % {"player": entry.player, "table": entry.called_table, "seat": entry.called_seat},
        )
    return _back(request)


@login_required
@require_POST
def table_fill(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.SeatNumberForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, result = run(
        request,
        cash_seats.seat_fill,
        actor=request.user,
        table=_open_table(pk),
        seat=form.cleaned_data["seat"],
    )
    if ok:
        moved, left = result
        if moved:
            messages.success(
                request, _("Moved by priority: %(names)s.") % {"names": ", ".join(moved)}
            )
        if left:
            messages.info(
                request,
                _("Table %(table)s seat %(seat)s goes to the waiting list: call it.")
                % {"table": left[0], "seat": left[1]},
            )
    return _back(request)


@login_required
@require_POST
def table_open(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    game = cash_game_for(request.user, pk)
    form = forms.OpenTableForm(request.POST, game=game)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, table = run(
        request,
        cash_tables.table_open,
        actor=request.user,
        game=game,
        number=form.cleaned_data["number"],
        present={p.pk for p in form.cleaned_data["present"]},
    )
    if ok:
        messages.success(
            request,
            _("Table %(table)s is open; the button is on seat %(seat)s.")
            % {"table": table.number, "seat": table.button},
        )
    return _back(request)


@login_required
@require_POST
def table_close(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    ok, _order = run(request, cash_tables.table_close, actor=request.user, table=_open_table(pk))
    if ok:
        messages.success(request, _("The table is closed; its players are on top of the list."))
    return _back(request)

"""The actions on a seated player, from the board or a table's tablet: a seat or table
change, a change request, a sit-out and the return from it, a missed big blind, chips
bought between hands, and the seat freed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import cash as forms
from room.models import CashSeat
from room.services import cash_buyins, cash_seats
from room.views.cash_board import _back, _role
from room.views.cash_tablet import _tablet
from tournaments import permissions
from tournaments.forms.fields import whole_number


def _seat(pk: int) -> CashSeat:
    return get_object_or_404(CashSeat.objects.select_related("table__game", "player"), pk=pk)


def _tablet_seat(request: HttpRequest, pk: int) -> CashSeat:
    """A seat a table's tablet posts about: the cash-room floor's any seat (the role asked
    first: 403 before 404), a PIN-unlocked dealer's only a seat of his table."""
    if not permissions.is_pin_session(request.session):
        _role(request, permissions.CASH)
        return _seat(pk)
    seat = _seat(pk)
    _tablet(request, seat.table_id)
    return seat


@login_required
@require_POST
def seat_move(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.MoveForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    ok, result = run(
        request,
        cash_seats.seat_move,
        actor=request.user,
        seat=_seat(pk),
        to_table=data["table"],
        to_seat=data["seat"],
        by_house=data["by_house"],
    )
    if ok:
        seat, posts = result
        message = _("%(player)s moves to table %(table)s seat %(seat)s.") % {
            "player": seat.player,
            "table": seat.table.number,
            "seat": seat.number,
        }
        if posts == "bb":
            message += " " + _("He posts a big blind to play at once, or waits for his big blind.")
        messages.success(request, message)
    return _back(request)


@login_required
@require_POST
def seat_request(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.RequestForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    run(
        request,
        cash_seats.seat_request,
        actor=request.user,
        seat=_seat(pk),
        kind=form.cleaned_data["request"],
    )
    return _back(request)


def _seat_action(service: Callable[..., Any]) -> Callable[[HttpRequest, int], HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        ok, result = run(request, service, actor=request.user, seat=_tablet_seat(request, pk))
        if ok and service is cash_seats.marker_add and result.seat_released:
            messages.warning(
                request,
                _("Second missed-blind marker and a waiting list: the seat may be released."),
            )
        nxt = request.POST.get("next")
        if nxt == "tablet":
            table = whole_number(request.POST.get("table"), low=1, high=10**9)
            if table is not None:
                return redirect("cash_tablet", table)
        return _back(request)

    return view


seat_sit_out = _seat_action(cash_seats.sit_out)


seat_sit_back = _seat_action(cash_seats.sit_back)


seat_marker = _seat_action(cash_seats.marker_add)


@login_required
@require_POST
def seat_leave(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.LeaveForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    run(
        request,
        cash_seats.seat_leave,
        actor=request.user,
        seat=_seat(pk),
        stack=form.cleaned_data["stack"],
    )
    return _back(request)


@login_required
@require_POST
def seat_buy(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.BuyForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, seat = run(
        request, cash_buyins.seat_buy, actor=request.user, seat=_seat(pk), **form.cleaned_data
    )
    if ok:
        messages.success(
            request,
            _("%(player)s buys %(amount)s.")
            % {"player": seat.player, "amount": form.cleaned_data["amount"]},
        )
    return _back(request)

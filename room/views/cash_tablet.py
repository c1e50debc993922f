"""A cash table's tablet, for the floor or the dealer whose PIN unlocked it: its seats,
missed-blind markers and sit-out clocks, the hand done (the button moves on) and each
hand's rake."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import cash as forms
from room.models import CashTable
from room.permissions import require_cash_tablet
from room.selectors import cash as cash_reads
from room.services import cash_rake, cash_tables
from room.views.cash_board import _back
from room.views.cash_tables import _open_table
from tables.cash import shifts
from tournaments import permissions
from tournaments.views.unlock import unlock as tablet_unlock


@login_required
@require_POST
def table_hand(request: HttpRequest, pk: int) -> HttpResponse:
    _tablet(request, pk)
    ok, table = run(request, cash_tables.table_hand_done, actor=request.user, table=_open_table(pk))
    if ok:
        messages.success(
            request,
            _("Next hand: button on seat %(button)s, big blind on seat %(bb)s.")
            % {"button": table.button, "bb": table.bb},
        )
    return redirect("cash_tablet", pk)


@login_required
@require_POST
def table_rake(request: HttpRequest, pk: int) -> HttpResponse:
    _tablet(request, pk)
    form = forms.RakeForm(request.POST, shifts=cash_reads.room_settings().shifts)
    if not form.is_valid():
        form_errors(request, form)
        if request.POST.get("next") == "tablet":
            return redirect("cash_tablet", pk)
        return _back(request)
    data = form.cleaned_data
    ok, record = run(
        request,
        cash_rake.rake_record,
        actor=request.user,
        table=_open_table(pk),
        pot=data["pot"] or 0,
        contributions=data["contributions"] or None,
        flop_dealt=data["flop_dealt"],
        dealer=data["dealer"],
        shift=data.get("shift") or "",
        hand=data["hand"],
    )
    if ok:
        messages.success(
            request,
            _("Rake %(rake)s on a pot of %(pot)s.") % {"rake": record.rake, "pot": record.pot},
        )
    return redirect(
        request.POST.get("next") == "tablet"
        and reverse("cash_tablet", args=[pk])
        or reverse("cash_board")
    )


def _tablet(request: HttpRequest, table_pk: int) -> None:
    """A table's tablet and what it posts: the cash-room floor, or the dealer whose PIN
    unlocked this table (room.permissions.require_cash_tablet)."""
    require_cash_tablet(request.user, request.session, table_pk)


def _rake_form(request: HttpRequest, table: CashTable, now: Any) -> forms.RakeForm:
    """A hand's rake form: the shift running now, and the dealer at this tablet when he
    is one the form offers."""
    settings = cash_reads.room_settings()
    local = timezone.localtime(now)
    running = shifts.shift_at(local.hour * 60 + local.minute, settings.shifts)
    initial: dict[str, Any] = {"hand": cash_reads.next_rake_hand(table)}
    if running is not None:
        initial["shift"] = running.name
    if permissions.staff_holding(permissions.DEALS_CASH).filter(pk=request.user.pk).exists():
        initial["dealer"] = request.user.pk
    return forms.RakeForm(initial=initial, shifts=settings.shifts)


@login_required
def cash_tablet(request: HttpRequest, pk: int) -> HttpResponse:
    """A cash table's tablet: seats, missed-blind markers, sit-out clocks, rake per hand."""
    _tablet(request, pk)
    table = _open_table(pk)
    now = timezone.now()
    seats = {s.number: s for s in table.seats.select_related("player")}
    rows = [
        {
            "number": n,
            "seat": seats.get(n),
            "seconds_left": int((seats[n].sit_out_until - now).total_seconds())
            if n in seats and seats[n].sit_out_until
            else None,
        }
        for n in range(1, table.max_seats + 1)
    ]
    context = {
        "table": table,
        "pin_session": permissions.is_pin_session(request.session),
        "rows": rows,
        "rake": table.rake.all()[:10],
        "rake_form": _rake_form(request, table, now),
    }
    if request.htmx:
        return render(request, "tables/cash/tablet.html#tablet", context)
    return render(request, "tables/cash/tablet.html", context)


def cash_pin_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    """A dealer of the room unlocks this cash table's tablet with his username and PIN."""
    table = (
        CashTable.objects.select_related("game").filter(pk=pk, status=CashTable.Status.OPEN).first()
    )
    if table is None:
        raise Http404
    return tablet_unlock(
        request,
        may_hold=lambda user: permissions.has_room_role(user, permissions.DEALER),
        table={"kind": "cash", "pk": table.pk},
        tablet=reverse("cash_tablet", args=[table.pk]),
        context={"where": str(table.game), "number": table.number},
        refused=_("Wrong username or PIN, or no dealer role in the room."),
    )

"""The cash room's rake report (cash-room.md §12.8): the rake by table, game, dealer and
shift over a gaming day, on screen and as CSV or XLSX for the books. Read only; for the
manager, the cash-room floor that records it and the books that count it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from room.forms import cash as forms
from room.models import CashGame, RakeRecord
from room.selectors import cash as cash_reads
from tournaments import permissions
from tournaments.documents import reports

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _gaming_day(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """A gaming day's start and end: from the room's day start (06:00 by default) on
    `day` to the same time the next day, in the room's time zone; a night shift that runs
    past midnight stays in the day it began."""
    minutes = cash_reads.room_settings().gaming_day_start_minutes
    midnight = timezone.make_aware(dt.datetime.combine(day, dt.time()))
    start = midnight + dt.timedelta(minutes=minutes)
    return start, start + dt.timedelta(days=1)


def _records(form: forms.ShiftReportForm) -> QuerySet[RakeRecord]:
    records = RakeRecord.objects.all()
    if form.is_bound and form.is_valid():
        if form.cleaned_data["shift"]:
            records = records.filter(shift=form.cleaned_data["shift"])
        if form.cleaned_data["day"]:
            start, end = _gaming_day(form.cleaned_data["day"])
            records = records.filter(at__gte=start, at__lt=end)
    return records


def _table(records: QuerySet[RakeRecord]) -> reports.Table:
    """Every raked hand, one row each, headed in words; times are the room's."""
    head = [
        _("Time"),
        _("Table"),
        _("Game"),
        _("Hand"),
        _("Dealer"),
        _("Shift"),
        _("Flop dealt"),
        _("Pot"),
        _("Rake"),
    ]
    rows: list[list[reports.Cell]] = [
        [
            r.at,
            r.table.number,
            str(r.game),
            r.hand,
            r.dealer,
            r.shift,
            _("yes") if r.flop_dealt else _("no"),
            r.pot,
            r.rake,
        ]
        for r in records.select_related("table", "game").order_by("at", "id")
    ]
    return head, rows


@login_required
def rake_report(request: HttpRequest) -> HttpResponse:
    """Rake by table, game, dealer and shift for a shift and/or gaming day (§12.8)."""
    permissions.require_room_role(request.user, permissions.RAKE)
    defined = [s.name for s in cash_reads.room_settings().shifts]
    recorded = RakeRecord.objects.exclude(shift="").values_list("shift", flat=True).distinct()
    shifts = defined + sorted(set(recorded) - set(defined))
    form = forms.ShiftReportForm(request.GET or None, shifts=shifts)
    if form.is_bound and not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    records = _records(form)

    fmt = request.GET.get("format")
    if fmt in {"csv", "xlsx"}:
        table = _table(records)
        if fmt == "csv":
            response = HttpResponse(reports.as_csv(table), content_type="text/csv; charset=utf-8")
        else:
            response = HttpResponse(reports.as_xlsx(_("Rake"), table), content_type=XLSX_TYPE)
        response["Content-Disposition"] = f'attachment; filename="rake.{fmt}"'
        return response

    def group(*keys: str) -> list[dict[str, Any]]:
        return list(
            records.values(*keys)
            .annotate(rake_total=Sum("rake"), hands=Count("id"), pots=Sum("pot"))
            .order_by(*keys)
        )

    games = {g.pk: str(g) for g in CashGame.objects.all()}
    by_game = [{**row, "label": games.get(row["game"], "?")} for row in group("game")]
    order = {name: k for k, name in enumerate(shifts)}
    by_shift = sorted(group("shift"), key=lambda r: order.get(r["shift"], len(order)))
    query = request.GET.copy()
    query.pop("format", None)
    context = {
        "form": form,
        "query": query.urlencode(),
        "shifts_defined": bool(defined),
        "is_manager": permissions.is_manager(request.user),
        "by_table": group("table__number"),
        "by_game": by_game,
        "by_dealer": group("dealer"),
        "by_shift": by_shift,
        "total": records.aggregate(rake_total=Sum("rake"), hands=Count("id")),
    }
    return render(request, "tables/cash/rake_report.html", context)

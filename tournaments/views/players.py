"""The player list of an event (shown, printed, exported) and the stacks counted at a
table, by the floor or the table's tablet."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.views import run
from tournaments import permissions, selectors
from tournaments.documents import reports
from tournaments.documents.reports import as_csv
from tournaments.forms import players as player_forms
from tournaments.forms.fields import whole_number
from tournaments.models import (
    DisplayScreen,
    Seat,
)
from tournaments.selectors import people as people_selectors
from tournaments.services import chips as chip_services

# --- The player list of one event ---------------------------------------------


@login_required
def player_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    form = player_forms.PlayerListForm(request.GET)
    chosen = form.values()
    wanted = {"query": chosen["q"], "show": chosen["show"], "sort": chosen["sort"]}
    printing = request.GET.get("print") == "1"
    if printing:
        rows, page = list(people_selectors.player_list(tournament, **wanted)), None
    else:
        page, rows = people_selectors.player_list_page(tournament, **wanted, page=chosen["page"])
    context = {
        "tournament": tournament,
        "form": form,
        "chosen": chosen,
        "rows": rows,
        "page": page,
        "figures": selectors.tournament_figures(tournament),
        "leaders": selectors.chip_leaders(tournament),
        "role": permissions.role_for(request.user, tournament),
        "query_string": _query(chosen),
    }
    if printing:
        return render(request, "people/player_list_print.html", context)
    if request.htmx:
        return render(request, "people/player_list.html#list", context)
    return render(request, "people/player_list.html", context)


def _query(chosen: dict) -> str:
    from urllib.parse import urlencode

    return urlencode({k: chosen[k] for k in ("q", "show", "sort") if chosen[k]})


@login_required
def player_list_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The list as filtered on the page, as CSV (default) or XLSX (`format=xlsx`)."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    fmt = "xlsx" if request.GET.get("format") == "xlsx" else "csv"
    chosen = player_forms.PlayerListForm(request.GET).values()
    entries = people_selectors.player_list(
        tournament, query=chosen["q"], show=chosen["show"], sort=chosen["sort"]
    )
    table = people_selectors.player_list_table(entries)
    if fmt == "csv":
        response = HttpResponse(as_csv(table), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(
            reports.as_xlsx(_("Players"), table),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-players.{fmt}"'
    return response


@login_required
def table_counts(request: HttpRequest, slug: str) -> HttpResponse:
    """The floor (or a tablet in the floor's hands) enters one table's stacks."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)
    data = request.POST if request.method == "POST" else request.GET
    table = _int(data.get("table"))
    seats = list(
        Seat.objects.select_related("entry__player", "table")
        .filter(table__tournament=tournament, table__number=table, entry__status="active")
        .order_by("number")
        if table
        else []
    )
    keys = [s.entry.number for s in seats]
    if request.method == "POST":
        form = player_forms.TableCountForm(request.POST, keys=keys)
        if not form.is_valid():
            messages.error(request, _("Write each stack as a whole number of chips."))
        else:
            ok, recorded = run(
                request,
                chip_services.chips_count_table,
                tournament=tournament,
                table=form.cleaned_data["table"],
                counts=form.counts(),
                actor=request.user,
            )
            if ok:
                messages.success(
                    request,
                    _("%(n)s stacks recorded at table %(table)s.")
                    % {"n": recorded, "table": form.cleaned_data["table"]},
                )
        url = reverse("table_counts", args=[tournament.slug])
        return redirect(f"{url}?table={table}" if table else url)
    last = people_selectors.last_counts(tournament, [s.entry_id for s in seats])
    return render(
        request,
        "people/counts.html",
        {
            "tournament": tournament,
            "table": table,
            "seats": [{"seat": s, "last": last.get(s.entry_id)} for s in seats],
            "tables": selectors.tables_in_play(tournament),
        },
    )


def tablet_counts(request: HttpRequest, token) -> HttpResponse:
    """A table's tablet (its screen's secret link) enters the stacks at its own table; the
    count is logged without a person, as the tablet's other reports are."""
    display = permissions.get_screen(str(token))
    if display.kind != DisplayScreen.Kind.TABLE or not display.table_number:
        return redirect("screen", token)
    tournament, table = display.tournament, display.table_number
    seats = list(
        Seat.objects.select_related("entry__player")
        .filter(table__tournament=tournament, table__number=table, entry__status="active")
        .order_by("number")
    )
    if request.method == "POST":
        form = player_forms.TableCountForm(
            {**request.POST.dict(), "table": table}, keys=[s.entry.number for s in seats]
        )
        if not form.is_valid():
            messages.error(request, _("Write each stack as a whole number of chips."))
        else:
            ok, recorded = run(
                request,
                chip_services.chips_count_table,
                tournament=tournament,
                table=table,
                counts=form.counts(),
                actor=None,
            )
            if ok:
                messages.success(
                    request,
                    _("%(n)s stacks recorded at table %(table)s.")
                    % {"n": recorded, "table": table},
                )
        return redirect("tablet_counts", token)
    last = people_selectors.last_counts(tournament, [s.entry_id for s in seats])
    return render(
        request,
        "people/tablet_counts.html",
        {
            "tournament": tournament,
            "screen": display,
            "table": table,
            "seats": [{"seat": s, "last": last.get(s.entry_id)} for s in seats],
        },
    )


def _int(value) -> int | None:
    """A whole number from the query string (the one parser: "²" is not a number)."""
    return whole_number(value, high=999_999)

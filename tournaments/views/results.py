"""The event's results as they leave it: the public results page (a page of 100 rows at a
time, or all), the staff's reports (CSV, XLSX or PDF), and the results files for the
rankings: the event's Hendon Mob-style results and GPI summary (its TD and floor, from the
results page). CSV or XLSX,
headers in the reader's language; the columns are documented in tournaments/README.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import permissions, selectors
from tournaments.documents import reports
from tournaments.forms import money as money_forms
from tournaments.models import SeatTicket, Tournament
from tournaments.selectors import formats as format_selectors
from tournaments.selectors import rankings
from tournaments.selectors.rankings import country_name
from tournaments.views.core import event_and_role

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMATS = ("csv", "xlsx")


def _titles() -> dict[str, str]:
    return {"hendon-mob": _("Results for Hendon Mob"), "gpi": _("GPI summary")}


def download(table: reports.Table, title: str, filename: str, fmt: str) -> HttpResponse:
    if fmt == "csv":
        response = HttpResponse(reports.as_csv(table), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(reports.as_xlsx(title, table), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


@login_required
def results_export(request: HttpRequest, slug: str, export: str, fmt: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    if export not in rankings.EXPORTS or fmt not in FORMATS:
        raise Http404
    table = rankings.EXPORTS[export](tournament)
    return download(table, _titles()[export], f"{tournament.slug}-{export}", fmt)


# What the apps above the events add to an event's results page, each a function of the
# user and the event giving its files as `export_links` lists them: the room adds the
# ranking of each league holding the event (RoomConfig.ready). The events never import
# those apps, so they are told here rather than asked.
RESULTS_DOWNLOADS: list[Callable[[Any, Tournament], list[dict[str, Any]]]] = []


def export_links(user, tournament: Tournament) -> dict | None:
    """The results page's downloads for its TD and floor (None for everyone else): the
    event's two files, and what the apps above add (`RESULTS_DOWNLOADS`)."""
    if permissions.role_for(user, tournament) not in permissions.FLOOR:
        return None
    titles = _titles()
    files = [
        {
            "title": titles[export],
            "key": export,
            "links": [
                (fmt.upper(), reverse("results_export", args=[tournament.slug, export, fmt]))
                for fmt in FORMATS
            ],
        }
        for export in rankings.EXPORTS
    ]
    event = tournament.parent or tournament
    for more in RESULTS_DOWNLOADS:
        files += more(user, event)
    return {"files": files}


# A results list shows this many rows a page (1,000 places at 10,000 entries took most of
# the page's time); "Show all" lists every row, as the page used to.
RESULTS_PER_PAGE = 100


def _results_window(request: HttpRequest, keys: list[int]) -> tuple[list[int], dict]:
    """The rows of a results list this request shows, and what its pager says."""
    query = money_forms.ResultsPageForm(request.GET)
    asked = query.cleaned_data if query.is_valid() else {}
    if len(keys) <= RESULTS_PER_PAGE:
        return keys, {"all": False, "page": None, "total": len(keys)}
    if asked.get("all"):
        return keys, {"all": True, "page": None, "total": len(keys)}
    page = Paginator(keys, RESULTS_PER_PAGE).get_page(asked.get("page") or 1)
    return list(page), {"all": False, "page": page, "total": len(keys)}


def _report_title(report: str) -> str:
    return {
        "results": _("Results"),
        "payouts": _("Payouts"),
        "chips": _("Chip counts"),
        "penalties": _("Penalties"),
        "bounties": _("Bounties paid"),
    }[report]


@login_required
def report(request: HttpRequest, slug: str, report: str, fmt: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.STAFF)
    if report not in reports.REPORTS or fmt not in {"csv", "xlsx", "pdf"}:
        raise Http404
    table = reports.REPORTS[report](tournament)
    filename = f"{tournament.slug}-{report}.{fmt}"
    if fmt == "csv":
        response = HttpResponse(reports.as_csv(table), content_type="text/csv; charset=utf-8")
    elif fmt == "xlsx":
        response = HttpResponse(
            reports.as_xlsx(_report_title(report), table), content_type=XLSX_TYPE
        )
    else:
        response = HttpResponse(
            reports.as_pdf(tournament, _report_title(report), table, now=timezone.now()),
            content_type="application/pdf",
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def public_results(request: HttpRequest, slug: str) -> HttpResponse:
    """Names, places and prizes only: no login (tournament.md §4 public role)."""
    tournament = permissions.get_public_tournament(slug)
    # One row per player, for his live entry: a player who re-entered and plays on is not
    # shown out; a finished player shows his best entry (results come best first).
    keys, pager = _results_window(request, selectors.finished_keys(tournament, one_per_player=True))
    finished = selectors.finished_entries(tournament, keys)
    rows = [{"place": reports._place(e), "name": str(e.player), "prize": e.prize} for e in finished]
    satellite = None
    if tournament.prize_type == "seats":
        # A satellite's prizes are seats in its target event (and the leftover in cash).
        satellite = format_selectors.satellite_figures(tournament, timezone.now())
        seats = set(
            tournament.tickets.filter(voided=False, kind=SeatTicket.Kind.SEAT).values_list(
                "player_id", flat=True
            )
        )
        for row, entry in zip(rows, finished, strict=True):
            row["seat"] = entry.player_id in seats
    if tournament.bounty_format != "none":
        # Prize and bounty money separately and in total, in cents (formats.md §12), for
        # the same live entries.
        rows = [
            {
                "place": reports._place(r["entry"]),
                "name": str(r["entry"].player),
                "prize_cents": r["prize"],
                "bounty_cents": r["bounty"],
                "total_cents": r["total"],
            }
            for r in format_selectors.results_with_bounties(tournament, finished)
        ]
    return render(
        request,
        "money/public_results.html",
        {
            "event": tournament,
            "rows": rows,
            "results_pager": pager,
            # The pool alone: the payout table and the players left are not shown here.
            "prize_pool": selectors.prize_pool(tournament).prize_pool,
            "satellite": satellite,
            "hide_login": True,
            "now": timezone.now(),
            "country": country_name(tournament.country),
            # The files for the rankings: its TD and floor only.
            "exports": export_links(request.user, tournament),
        },
    )

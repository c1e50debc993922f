"""The results files for the rankings: the event's Hendon Mob-style results and GPI summary
(its TD and floor, from the results page), and a league's FIGP-style ranking (who runs the
league). CSV or XLSX, headers in the reader's language; the columns are documented in
tournaments/README.md."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from tables import permissions as room_permissions
from tournaments import permissions
from tournaments.documents import reports
from tournaments.models import Tournament
from tournaments.selectors import rankings
from tournaments.views.core import event_and_role

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMATS = ("csv", "xlsx")


def _titles() -> dict[str, str]:
    return {"hendon-mob": _("Results for Hendon Mob"), "gpi": _("GPI summary")}


def _download(table: reports.Table, title: str, filename: str, fmt: str) -> HttpResponse:
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
    return _download(table, _titles()[export], f"{tournament.slug}-{export}", fmt)


@login_required
def league_ranking(request: HttpRequest, league_id: int, fmt: str) -> HttpResponse:
    if not room_permissions.may_run_leagues(request.user):
        raise PermissionDenied
    league = room_permissions.league_for(request.user, league_id)
    if fmt not in FORMATS:
        raise Http404
    return _download(
        rankings.league_ranking_table(league), _("Ranking"), f"{league.slug}-ranking", fmt
    )


def export_links(user, tournament: Tournament) -> dict | None:
    """The results page's downloads for its TD and floor (None for everyone else): the
    event's two files, and the ranking of each league holding the event that the user
    runs."""
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
    for league in room_permissions.leagues_for(user).filter(events=event).order_by("name"):
        files.append(
            {
                "title": _("Ranking of %(league)s") % {"league": league.name},
                "key": f"league-{league.pk}",
                "links": [
                    (fmt.upper(), reverse("league_ranking", args=[league.pk, fmt]))
                    for fmt in FORMATS
                ],
            }
        )
    return {"files": files}

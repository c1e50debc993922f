"""Screens in the room and the players' phones: no login (tournament.md §20).

A screen is reached by its secret link (revoked links 404); the public clock and the
player's seat finder by the tournament's address. The seat finder shows only name, table
and seat, and is rate-limited per address.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config import ratelimit
from tournaments import permissions, selectors
from tournaments.controls import control_action
from tournaments.errors import DomainError
from tournaments.forms.fields import whole_number
from tournaments.models import DisplayScreen, Role, Table, Tournament
from tournaments.rules import timecalls
from tournaments.selectors import formats as format_selectors
from tournaments.services import penalties as penalty_services
from tournaments.services import timecalls as timecall_services
from tournaments.views import feed as feed_views
from tournaments.views.qr import qr_svg

SEARCHES_PER_MINUTE = ratelimit.SEAT_SEARCH.limit
# How long a table tablet keeps showing the last time call's outcome and ruling.
RULING_SHOWN_MINUTES = 5


def _clock_context(request: HttpRequest, tournament: Tournament, socket_url: str) -> dict:
    now = timezone.now()  # a read only: screens roll levels over by themselves
    return {
        "tournament": tournament,
        "payload": selectors.clock_payload(tournament, now),
        "view": selectors.clock_view_for(tournament, now),
        "figures": selectors.screen_figures(tournament),
        "formats": format_selectors.screen_formats(tournament, now),
        "socket_url": socket_url,
        "hide_login": True,
    }


def screen(request: HttpRequest, token) -> HttpResponse:
    """A screen's page by its secret link: the clock, the seating board or a table."""
    display = permissions.get_screen(str(token))
    tournament = display.tournament
    socket_url = f"/ws/screens/{display.token}/"
    if display.kind == DisplayScreen.Kind.SEATING:
        return _seating(request, tournament, display, socket_url)
    if display.kind == DisplayScreen.Kind.OVERLAY:
        return feed_views.overlay_index(request, token)
    if display.kind == DisplayScreen.Kind.TABLE:
        context = _clock_context(request, tournament, socket_url)
        number = display.table_number or 0
        running = timecall_services.running_calls(tournament, table_number=number)
        ended = timecall_services.recent_calls(tournament, table_number=number, limit=1)
        recent = timezone.now() - timedelta(minutes=RULING_SHOWN_MINUTES)
        context.update(
            screen=display,
            seats=selectors.table_seats(tournament, number),
            race=selectors.table_chip_race(tournament, number, timezone.now()),
            timecall=running[0] if running else None,
            timecall_ended=ended[0] if ended and ended[0].ended_at >= recent else None,
            timecall_rules=timecalls.profile_rules(tournament.time_call_profile),
        )
        template = "displays/table.html"
        if request.htmx:
            template += "#seats"
        return render(request, template, context)
    return _clock_page(request, tournament, socket_url)


def _clock_page(request: HttpRequest, tournament: Tournament, socket_url: str) -> HttpResponse:
    context = _clock_context(request, tournament, socket_url)
    if request.htmx:
        return render(request, "displays/clock.html#figures", context)
    finder = request.build_absolute_uri(reverse("seat_finder", args=[tournament.slug]))
    front = request.build_absolute_uri(reverse("front_page"))
    front_qr = qr_svg(front, 3)
    context.update(qr=qr_svg(finder, 6), finder_url=finder, front_qr=front_qr)
    return render(request, "displays/clock.html", context)


def public_clock(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's clock for anyone (the same page as a clock screen)."""
    tournament = permissions.get_public_tournament(slug)
    return _clock_page(request, tournament, f"/ws/t/{tournament.slug}/")


BOARD_PER_MIN, BOARD_PER_MAX = 5, 400


def _seating(
    request: HttpRequest, tournament: Tournament, display: DisplayScreen, socket_url: str
) -> HttpResponse:
    page = whole_number(request.GET.get("page"), low=1, high=10**6) or 1
    # How many rows a page holds is measured by the screen itself (static/js/screen.js):
    # what fits at its size, without a row cut off.
    per = whole_number(request.GET.get("per"), low=BOARD_PER_MIN, high=BOARD_PER_MAX)
    rows, pages, page, index = selectors.seating_board(
        tournament, page=page, with_entry=True, **({"per_page": per} if per else {})
    )
    context = {
        "tournament": tournament,
        "rows": rows,
        "page": page,
        "pages": pages,
        "per": per or "",
        "next_page": page % pages + 1,
        "index": index,
        "recent_moves": selectors.recent_moves(tournament, timezone.now()),
        "socket_url": socket_url,
        "payload": selectors.clock_payload(tournament, timezone.now()),
        "hide_login": True,
    }
    template = "displays/seating.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context)


@require_POST
def tablet_hand(request: HttpRequest, token) -> HttpResponse:
    """The table tablet reports its hand: done (hand-for-hand) or started (final hands)."""
    display = permissions.get_screen(str(token))
    if display.kind != DisplayScreen.Kind.TABLE or not display.table_number:
        return redirect("screen", token)

    report = request.POST.get("hand", "")
    action = {"done": "h4h_table_done", "start": "eod_hand"}.get(report)
    error = None
    if report == "dealt":
        # A hand dealt at this table counts against the penalties of those sitting out.

        table = Table.objects.filter(
            tournament=display.tournament, number=display.table_number
        ).first()
        if table is None:
            error = _("This table is not in play.")
        else:
            try:
                penalty_services.penalty_hand_dealt(table=table, now=timezone.now())
            except DomainError as exc:
                error = str(exc)
    elif action is None:
        error = _("Unknown hand report.")
    else:
        try:
            control_action(
                tournament=display.tournament,
                role=Role.FLOOR,  # a tablet acts as the floor for its own table
                actor=None,
                message={"action": action, "table": display.table_number},
            )
        except DomainError as exc:
            error = str(exc)
    if request.htmx:
        response = screen(request, token)
        if error:
            response["HX-Trigger"] = json.dumps({"torneo:error": error})
        return response
    return redirect("screen", token)


def _rate_limited(request: HttpRequest) -> bool:
    """Count this search against the address's limit; True when over it."""
    limit = ratelimit.SEAT_SEARCH
    return limit.hit(ratelimit.client_ip(request)) > limit.limit


def seat_finder(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's phone: find your name, see your table and seat, and the clock."""
    tournament = permissions.get_public_tournament(slug)
    query = request.GET.get("q", "").strip()[:60]
    results = None
    status = 200
    if query:
        if _rate_limited(request):
            status = 429
            results = []
        else:
            results = selectors.public_seat_search(tournament, query)
    context = {
        "tournament": tournament,
        "query": query,
        "results": results,
        "limited": status == 429,
        "payload": selectors.clock_payload(tournament, timezone.now()),
        "socket_url": f"/ws/t/{tournament.slug}/",
        "hide_login": True,
    }
    template = "displays/phone.html"
    if request.htmx:
        template += "#results"
    return render(request, template, context, status=status)

"""The public front door, the lobby screen and the TD's room dashboard (issue 16, 7-8)."""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from tournaments import lobby, selectors
from tournaments.forms import whole_number
from tournaments.models import Role, Tournament
from tournaments.services import formats as format_services

LOBBY_SECONDS = 20  # each running event's clock stays on the lobby screen this long


def front_qr(request: HttpRequest) -> str:
    """The front page's address as an inline SVG QR code (seat cards and the TV)."""
    url = request.build_absolute_uri(reverse("front_page"))
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True)


def front_page(request: HttpRequest) -> HttpResponse:
    """No login: today's and upcoming events, running clocks, results, the seat finder."""
    now = timezone.now()
    context = {**lobby.front_page(now), "now": now, "hide_login": False}
    template = "front/front.html"
    if request.htmx:
        template += "#events"
    return render(request, template, context)


def lobby_screen(request: HttpRequest) -> HttpResponse:
    """No login: the lobby's TV, turning through the running events' clocks."""
    now = timezone.now()
    cards = lobby.running_events(now)
    index = whole_number(request.GET.get("i"), low=0, high=10**6) or 0
    context: dict = {"cards": cards, "seconds": LOBBY_SECONDS, "hide_login": True}
    if cards:
        index %= len(cards)
        tournament = cards[index].tournament
        context.update(
            index=index,
            next_index=(index + 1) % len(cards),
            tournament=tournament,
            payload=selectors.clock_payload(tournament, now),
            view=cards[index].view,
            figures=selectors.screen_figures(tournament),
            formats=format_services.screen_formats(tournament, now),
            socket_url=f"/ws/t/{tournament.slug}/",
            qr=front_qr(request),
        )
    return render(request, "front/lobby.html", context)


def _may_see_room(user) -> bool:
    if user.is_superuser:
        return True
    return user.assignments.filter(role__in=[Role.TD, Role.FLOOR]).exists()


@login_required
def room_dashboard(request: HttpRequest) -> HttpResponse:
    """Every running event the user runs (TD or floor): level, time, players, alerts."""
    if not _may_see_room(request.user):
        raise PermissionDenied
    tournaments = Tournament.objects.all()
    if not request.user.is_superuser:
        tournaments = tournaments.filter(
            staff__user=request.user, staff__role__in=[Role.TD, Role.FLOOR]
        )
    context = {"cards": lobby.running_events(timezone.now(), tournaments)}
    template = "front/dashboard.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context)


def public_structure(request: HttpRequest, slug: str) -> HttpResponse:
    """No login: the structure sheet of an event (levels, breaks, colour-ups, late reg)."""
    from tournaments import permissions, printouts

    tournament = permissions.get_public_tournament(slug)
    context = {"tournament": tournament, "sheet": printouts.structure_rows(tournament)}
    return render(request, "front/structure.html", context)

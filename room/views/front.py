"""The room's front door, the lobby screen and the room dashboard (a table shared between
events from it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from room.selectors import lobby
from tournaments import permissions, selectors
from tournaments.forms import books as books_forms
from tournaments.forms.fields import whole_number
from tournaments.models import Role
from tournaments.selectors import formats as format_selectors
from tournaments.services import sharing
from tournaments.views.qr import front_qr

LOBBY_SECONDS = 20  # each running event's clock stays on the lobby screen this long
LOBBY_UPCOMING = 6  # upcoming events listed on the lobby screen


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
    # Upcoming events under the clock, or alone when nothing is running.
    upcoming = lobby.front_page(now)["upcoming"][:LOBBY_UPCOMING]
    context: dict = {
        "cards": cards,
        "upcoming": upcoming,
        "seconds": LOBBY_SECONDS,
        "hide_login": True,
    }
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
            formats=format_selectors.screen_formats(tournament, now),
            socket_url=f"/ws/t/{tournament.slug}/",
            qr=front_qr(request),
        )
    return render(request, "front/lobby.html", context)


_RUNS = frozenset({Role.TD, Role.FLOOR})


def _may_see_room(user) -> bool:
    """The dashboard: the room's manager, and whoever runs an event (TD or floor)."""
    return permissions.events_for(user, _RUNS).exists()


@login_required
def room_dashboard(request: HttpRequest) -> HttpResponse:
    """Every running event the user runs (TD or floor): level, time, players, alerts."""
    if not _may_see_room(request.user):
        raise PermissionDenied
    tournaments = permissions.events_for(request.user, _RUNS)
    cards = lobby.running_events(timezone.now(), tournaments)
    context = {"cards": cards, "free": lobby.free_tables(cards)}
    template = "front/dashboard.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context)


@login_required
@require_POST
def table_share(request: HttpRequest) -> HttpResponse:
    """The TD of both events opens a table another event freed."""
    form = books_forms.ShareForm(request.POST)
    if not _may_see_room(request.user):
        raise PermissionDenied
    if not form.is_valid():
        messages.error(request, _("Choose the table and the event to open it in."))
        return redirect("room_dashboard")
    # Only events the user runs as TD are found: another's is as good as missing.
    found = {
        t.slug: t
        for t in permissions.events_for(request.user, permissions.TD).filter(
            slug__in=[form.cleaned_data["source"], form.cleaned_data["target"]]
        )
    }
    source, target = found.get(form.cleaned_data["source"]), found.get(form.cleaned_data["target"])
    if source is None or target is None:
        messages.error(request, _("Choose the table and the event to open it in."))
        return redirect("room_dashboard")
    for event in (source, target):
        if permissions.role_for(request.user, event) != Role.TD:
            raise PermissionDenied
    ok, table = run(
        request,
        sharing.table_share,
        source=source,
        target=target,
        number=form.cleaned_data["number"],
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("Table %(table)s is now in %(event)s.")
            % {"table": table.number, "event": target.name},
        )
    return redirect("room_dashboard")

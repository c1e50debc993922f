"""The TD's clock console and screen management (htmx; every change logged, undoable)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import events, permissions, selectors
from tournaments.controls import CONTROLS, control_action
from tournaments.errors import DomainError
from tournaments.forms.fields import whole_number
from tournaments.models import CONSOLE_ACTIONS, DisplayScreen, Table, Tournament
from tournaments.rules import timecalls
from tournaments.services import screens as screen_services
from tournaments.services import timecalls as timecall_services
from tournaments.services.clock import ClockChange


def _console_context(
    request: HttpRequest, tournament: Tournament, change: ClockChange | None = None
) -> dict:
    """What the console shows. A read only: a boundary nobody announced is logged by the
    next clock change or the console's socket (tournaments/sockets/consumer.py), never by
    a GET. After a clock change it shows what the change read and sent (`change`)."""
    if change is None:
        now = timezone.now()
        read = selectors.clock_read(tournament, now)
        payload = selectors.clock_payload(tournament, now, read=read)
    else:
        tournament, read, payload = change.tournament, change.read, change.payload
    running, ended = timecall_services.console_calls(tournament)
    return {
        "timecalls": running,
        "timecalls_ended": ended,
        "timecall_rules": timecalls.profile_rules(tournament.time_call_profile),
        "tournament": tournament,
        "role": permissions.role_for(request.user, tournament),
        "view": read.view,
        "payload": payload,
        "structure": list(enumerate(read.structure)),
        "tables": list(
            Table.objects.filter(tournament=tournament, status=Table.Status.OPEN).values_list(
                "number", flat=True
            )
        ),
        "recent": [
            (event, events.action_label(event))
            for event in tournament.events.filter(CONSOLE_ACTIONS)[:8]
        ],
    }


@login_required
def console(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock console: the full page, or its panel for an htmx swap."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)
    template = "clock/console.html"
    if request.htmx:
        template += "#panel"
    return render(request, template, _console_context(request, tournament))


@login_required
@require_POST
def control(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """Run one console action (the same as the socket's control message)."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)
    change = None
    if action not in CONTROLS:
        messages.error(request, _("Unknown clock action."))
    else:
        message = {"action": action, **request.POST.dict()}
        try:
            result = control_action(
                tournament=tournament,
                role=permissions.role_for(request.user, tournament),
                actor=request.user,
                message=message,
            )
        except DomainError as exc:
            messages.error(request, str(exc))
        else:
            if isinstance(result, ClockChange):
                change = result  # the row as the change left it, and what it read and sent
    if request.htmx:
        if change is None:
            tournament.refresh_from_db()
        context = _console_context(request, tournament, change)
        return render(request, "clock/console.html#panel", context)
    return redirect("clock_console", slug)


@login_required
def screens(request: HttpRequest, slug: str) -> HttpResponse:
    """List the room's screens with their secret links; create one."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.TD)
    if request.method == "POST":
        table = request.POST.get("table_number", "").strip()
        ok, _screen = run(
            request,
            screen_services.screen_create,
            tournament=tournament,
            actor=request.user,
            name=request.POST.get("name", ""),
            kind=request.POST.get("kind", ""),
            table_number=whole_number(table, low=1, high=999_999),
        )
        if ok:
            messages.success(request, _("Screen created: open its link on the screen."))
        return redirect("screens", slug)
    rows = [
        (screen, request.build_absolute_uri(reverse("screen", args=[screen.token])))
        for screen in tournament.screens.order_by("revoked", "name")
    ]
    return render(
        request,
        "clock/screens.html",
        {
            "tournament": tournament,
            "role": permissions.role_for(request.user, tournament),
            "rows": rows,
            "kinds": DisplayScreen.Kind.choices,
            "public_url": request.build_absolute_uri(reverse("public_clock", args=[slug])),
        },
    )


@login_required
@require_POST
def screen_revoke(request: HttpRequest, slug: str, screen_id: int) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.TD)
    if not tournament.screens.filter(pk=screen_id).exists():
        raise Http404  # another event's screen is as good as missing
    ok, _result = run(
        request,
        screen_services.screen_revoke,
        tournament=tournament,
        actor=request.user,
        screen_id=screen_id,
    )
    if ok:
        messages.success(request, _("Link revoked: that screen goes dark now."))
    return redirect("screens", slug)

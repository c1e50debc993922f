"""The dealers' floor under /room/dealers/: the floor's page (push, override, undo, the
tables that keep their dealer), the TV board, the clock-in tablet and the relief line a
table's tablet loads.

Views check the room role, read the input through a form, call one service and redirect
with a message; a refusal is a message and changes nothing. Screens refresh over htmx when
the dealers' socket says the plan changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from config import ratelimit
from config.views import form_errors, run
from room import events
from room.forms import dealers as forms
from room.models import RoomEvent
from room.selectors import dealers as selectors
from room.services import dealers as services
from tournaments import permissions
from tournaments.models import RoomRole
from tournaments.selectors import pins

# Who runs the dealers' floor: the room's manager and the floor of the cash room and of
# the pit, whose tables the dealers deal.
FLOOR = frozenset({RoomRole.MANAGER, RoomRole.CASH, RoomRole.PIT})

# The log shows words, never codes.
ACTION_LABELS = {
    services.PROFILE: gettext_lazy("Dealer's games and hours"),
    services.CLOCK_IN: gettext_lazy("Clocked in"),
    services.CLOCK_OUT: gettext_lazy("Clocked out"),
    services.PUSH: gettext_lazy("Push"),
    services.OVERRIDE: gettext_lazy("Dealer moved by the floor"),
    services.REFLOW: gettext_lazy("Tables changed: dealers re-planned"),
    services.SETTINGS: gettext_lazy("Dealers' settings"),
    services.KEEP: gettext_lazy("Table keeps its dealer"),
    services.PIT_TABLE: gettext_lazy("Pit table"),
    services.TIPS: gettext_lazy("Tips pool"),
}


def _epoch_ms(moment: Any) -> int:
    return int(moment.timestamp() * 1000)


def _log_words(event: RoomEvent) -> str:
    data = event.data if isinstance(event.data, dict) else {}
    label = str(ACTION_LABELS.get(event.action, _("Dealers")))
    if event.action == services.OVERRIDE:
        where = data.get("label") or _("a break")
        return _("%(label)s: %(name)s to %(where)s") % {
            "label": label,
            "name": data.get("name", ""),
            "where": where,
        }
    if event.action in (services.CLOCK_IN, services.CLOCK_OUT):
        return f"{label}: {data.get('name', '')}"
    return label


def _board_context(now: Any) -> dict[str, Any]:
    board = selectors.board(now)
    return {
        "board": board,
        "server_ms": _epoch_ms(now),
        "push_ms": _epoch_ms(board.push_at) if board.push_at else None,
    }


def board_view(request: HttpRequest) -> HttpResponse:
    """The TV across the room: who deals where, who relieves him at the next push and the
    countdown to it, who is on a break and until when. No login, as the cash room's brush
    board: it names the dealers and the tables, nothing more."""
    context = _board_context(timezone.now())
    if request.htmx:
        return render(request, "room/dealers/board.html#board", context)
    return render(request, "room/dealers/board.html", context)


def _floor_context(request: HttpRequest) -> dict[str, Any]:
    now = timezone.now()
    log = (
        RoomEvent.objects.filter(action__in=services.ACTIONS)
        .select_related("actor")
        .order_by("-at", "-id")[:15]
    )
    room = selectors.dealer_room()
    return {
        **_board_context(now),
        "shifts": [
            (shift, selectors.dealer_name(shift.dealer)) for shift in selectors.open_shifts()
        ],
        "log": [(e, _log_words(e), events.can_undo(e)) for e in log],
        "kept": set(room.keep_tables or []),
        "room": room,
    }


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """The floor's page: the board with its controls, who is on the floor, the log."""
    permissions.require_room_role(request.user, FLOOR)
    context = _floor_context(request)
    if request.htmx:
        return render(request, "room/dealers/floor.html#live", context)
    return render(request, "room/dealers/floor.html", context)


def _back() -> HttpResponse:
    return redirect("dealer_floor")


@login_required
@require_POST
def push(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, FLOOR)
    ok, event = run(request, services.push, actor=request.user)
    if ok and event is not None:
        messages.success(request, _("Push done: the dealers move now."))
    return _back()


@login_required
@require_POST
def override(request: HttpRequest) -> HttpResponse:
    """The floor puts one dealer at one table (or on a break) now; the plan re-flows."""
    permissions.require_room_role(request.user, FLOOR)
    form = forms.OverrideForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back()
    ok, _event = run(
        request,
        services.override,
        actor=request.user,
        dealer_id=form.cleaned_data["dealer"],
        table_key=form.cleaned_data["table"],
    )
    if ok:
        messages.success(request, _("Done: the plan has re-flowed around the change."))
    return _back()


@login_required
@require_POST
def keep(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, FLOOR)
    form = forms.KeepForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back()
    ok, _room = run(
        request,
        services.keep_dealer,
        actor=request.user,
        table_key=form.cleaned_data["table"],
        keep=form.cleaned_data["keep"],
    )
    if ok:
        messages.success(request, _("Saved."))
    return _back()


@login_required
@require_POST
def undo(request: HttpRequest, event_id: int) -> HttpResponse:
    event = permissions.room_object(
        RoomEvent.objects.filter(action__in=services.ACTIONS), request.user, FLOOR, pk=event_id
    )
    ok, _undo = run(request, events.room_event_undo, actor=request.user, event_id=event.pk)
    if ok:
        messages.success(request, _("Undone."))
    return _back()


# --- the dealer's own: the clock-in tablet and the relief line -------------------------


def clock(request: HttpRequest) -> HttpResponse:
    """The tablet at the dealers' door: a dealer clocks in or out with his username and
    PIN. It logs nobody in: the PIN answers with his own shift and place, nothing else."""
    form = forms.ClockForm(request.POST or None)
    status, mine = 200, None
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, _("Write your username and your PIN (4 to 8 digits)."))
            status = 400
        else:
            username = form.cleaned_data["username"]
            minutes = ratelimit.pin_attempt(request, username)
            user = None if minutes else pins.pin_check(username, form.cleaned_data["pin"])
            if user is None or not permissions.has_room_role(user, permissions.DEALER):
                messages.error(
                    request,
                    ngettext(
                        "Too many wrong PINs. Wait %(minutes)d minute and try again.",
                        "Too many wrong PINs. Wait %(minutes)d minutes and try again.",
                        minutes,
                    )
                    % {"minutes": minutes}
                    if minutes
                    else _("Wrong username or PIN, or no dealer role in the room."),
                )
                status = 429 if minutes else 403
            else:
                ratelimit.pin_succeeded(request, username)
                service = (
                    services.clock_in
                    if form.cleaned_data["direction"] == "in"
                    else services.clock_out
                )
                ok, _shift = run(request, service, dealer=user)
                if ok:
                    words = (
                        _("Welcome, %(name)s: you are clocked in.")
                        if service is services.clock_in
                        else _("Goodbye, %(name)s: you are clocked out.")
                    )
                    messages.success(request, words % {"name": selectors.dealer_name(user)})
                mine = _mine(user)
                form = forms.ClockForm()
    return render(
        request,
        "room/dealers/clock.html",
        {"form": form, "mine": mine, "hide_login": True},
        status=status,
    )


def _mine(user: Any) -> dict[str, Any]:
    """A dealer's own view after his PIN: his shift, where he is and where he goes next."""
    now = timezone.now()
    shift = selectors.open_shift_of(user)
    place = selectors.place_of(user)
    board = selectors.board(now)
    next_table = ""
    for row in board.rows:
        if row.relief_id == user.pk:
            next_table = row.table.label
    return {
        "name": selectors.dealer_name(user),
        "shift": shift,
        "place": place,
        "push_at": board.push_at,
        "next_table": next_table,
    }


def relief(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """One table's relief line (who takes the box at the next push, and when), for the
    table's tablet to load over htmx: the tablets' apps never import the room. Public as
    the board is: it shows what the board shows of this table."""
    if kind not in selectors.KINDS:
        raise Http404
    now = timezone.now()
    row = selectors.relief(selectors.table_key(kind, pk), now)
    context = {
        "row": row,
        "kind": kind,
        "pk": pk,
        "server_ms": _epoch_ms(now),
        "relief_ms": _epoch_ms(row.relief_at) if row and row.relief_at else None,
    }
    return render(request, "room/dealers/relief.html", context)

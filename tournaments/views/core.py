"""Home, tournament list and dashboard, the event log, and the error pages."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from psycopg_pool import PoolTimeout

from config import ratelimit
from config.views import run
from tournaments import events, labels, permissions, selectors
from tournaments.forms.fields import whole_number
from tournaments.models import Role, Tournament


def event_and_role(
    request: HttpRequest, slug: str, roles: frozenset[str]
) -> tuple[Tournament, str | None]:
    """The event through the user's scope (a 404 outside it) and the role he holds in it."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=roles)
    return tournament, permissions.role_for(request.user, tournament)


class LoginView(auth_views.LoginView):
    """Django's login, with attempts limited per username and address, per username and
    per address (config/ratelimit.py).

    The attempt is counted before the password is checked, atomically, so parallel
    guesses cannot slip in under the limit together. While a limit holds, the password is
    not even checked (a right guess would otherwise still tell itself apart), and the page
    says how long to wait.
    """

    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        username = str(request.POST.get("username", ""))[:150]
        minutes = ratelimit.login_attempt(request, username)
        if minutes:
            form = self.get_form_class()(request, initial={"username": username})
            wait = ngettext(
                "Too many failed attempts. Wait %(minutes)d minute and try again.",
                "Too many failed attempts. Wait %(minutes)d minutes and try again.",
                minutes,
            ) % {"minutes": minutes}
            context = self.get_context_data(form=form, locked=wait)
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        ratelimit.login_succeeded(self.request, str(self.request.POST.get("username", ""))[:150])
        return super().form_valid(form)


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("tournament_list")
    return redirect("front_page")  # the public front door


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    if permissions.is_manager(request.user):
        tournaments = Tournament.objects.all()
    else:
        tournaments = Tournament.objects.filter(staff__user=request.user)
    roles = {a.tournament_id: a.get_role_display() for a in request.user.assignments.all()}
    return render(
        request,
        "tournament_list.html",
        {
            "tournaments": [(t, roles.get(t.pk, Role.TD.label)) for t in tournaments[:200]],
            "can_create": permissions.can_create_tournaments(request.user),
            "room_links": _room_links(request.user),
        },
    )


def _room_links(user) -> list[tuple[str, str]]:
    """The room's own tools this person may open: by room role (tournaments/permissions), and
    the room-wide pages an event's TD or floor sees for his own events."""
    held = permissions.room_roles_for(user)
    links = []
    if not held.isdisjoint(permissions.CASH):
        links.append((reverse("cash_board"), _("Cash room")))
    if not held.isdisjoint(permissions.PIT):
        links.append((reverse("pit_home"), _("Pit: blackjack and punto banco")))
    if not held.isdisjoint(permissions.BOOKS):
        links.append((reverse("night_books"), _("Books of the night")))
    runs_events = user.assignments.filter(role__in=[Role.TD, Role.FLOOR]).exists()
    if runs_events or not held.isdisjoint(permissions.MANAGER):
        links.append((reverse("room_dashboard"), _("Room dashboard")))
    if permissions.may_see_people(user):
        links.append((reverse("people"), _("Players")))
    if not held.isdisjoint(permissions.MANAGER):
        links.append((reverse("room_staff"), _("Room staff")))
        links.append((reverse("staff_accounts"), _("Staff accounts")))
    links.append((reverse("front_page"), _("Public front page")))
    return links


@login_required
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    role = permissions.role_for(request.user, tournament)
    return render(
        request,
        "tournament_home.html",
        {
            "tournament": tournament,
            "role": role,
            "figures": selectors.tournament_figures(tournament),
            "board": selectors.payouts_board(tournament),
            "clock": selectors.clock_view_for(tournament, timezone.now()),
            "registration_open": selectors.registration_open(tournament, timezone.now()),
        },
    )


LOG_PER_PAGE = 50


@dataclass
class _LogPage:
    """A page of the log, told without counting the log (100,000 rows at 10,000 entries):
    one row more than the page is read to know whether an older page follows."""

    rows: list
    number: int
    has_next: bool

    def __iter__(self):
        return iter(self.rows)

    def has_previous(self) -> bool:
        return self.number > 1

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1


def _log_page(events_query, number: int):
    start = (number - 1) * LOG_PER_PAGE
    rows = list(events_query[start : start + LOG_PER_PAGE + 1])
    if not rows and number > 1:
        # Past the end (an old link): the oldest page, as the paginator always answered.
        return Paginator(events_query, LOG_PER_PAGE).get_page(number)
    return _LogPage(rows[:LOG_PER_PAGE], number, has_next=len(rows) > LOG_PER_PAGE)


@login_required
def event_log(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    page = _log_page(
        selectors.log_lines(tournament),
        whole_number(request.GET.get("page"), low=1, high=10_000_000) or 1,
    )
    role = permissions.role_for(request.user, tournament)
    # Each row's line, read from the keys it shows (never the whole payload: see log_lines).
    lines = [(e, *selectors.log_line(e)) for e in page]
    names = _entry_names(tournament, [line for _e, line, _sizes in lines])
    rows = [
        (
            e,
            events.can_undo(e) and _may_undo(role, e.action),
            events.action_label(events.Logged(e.action, line)),
            labels.event_details(events.Logged(e.action, line), names, tournament.currency, sizes),
            line,
            any(sizes.get(key, 0) > len(line.get(key) or ()) for key in sizes),
        )
        for e, line, sizes in lines
    ]
    return render(
        request,
        "event_log.html",
        {"tournament": tournament, "page": page, "rows": rows, "role": role},
    )


def _entry_names(tournament: Tournament, payloads: list[dict]) -> dict[int, str]:
    """Player names of the entries the rows logged only by id."""
    entry_ids = {
        data["entry"]
        for data in payloads
        if isinstance(data, dict) and isinstance(data.get("entry"), int)
    }
    if not entry_ids:
        return {}
    return {
        entry.pk: str(entry.player)
        for entry in tournament.entries.filter(pk__in=entry_ids).select_related("player")
    }


@login_required
def event_row(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """One row of the log with everything it logged (the list cuts long lists short)."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    event = tournament.events.select_related("actor", "undone_by").filter(pk=event_id).first()
    if event is None:
        raise Http404
    role = permissions.role_for(request.user, tournament)
    names = _entry_names(tournament, [event.data])
    return render(
        request,
        "event_row.html",
        {
            "tournament": tournament,
            "event": event,
            "undoable": events.can_undo(event) and _may_undo(role, event.action),
            "label": events.action_label(event),
            "details": labels.event_details(event, names, tournament.currency),
            "number": event.data.get("number") if isinstance(event.data, dict) else None,
        },
    )


# Undo needs the role that may do the action itself (tournament.md §4).
_UNDO_ROLES = {
    "entry.register": permissions.DESK,
    "entry.rebuy": permissions.DESK,
    "entry.addon": permissions.DESK,
    "id.check": permissions.DESK,
    "entry.eliminate": permissions.FLOOR,
    "seat.move": permissions.FLOOR,
    "ruling.save": permissions.FLOOR,
    "ruling.publish": permissions.FLOOR,
    "ruling.unpublish": permissions.FLOOR,
    "penalty.give": permissions.FLOOR,
    "chips.race": permissions.FLOOR,
    "chips.remove": permissions.FLOOR,
    "chips.leftovers": permissions.FLOOR,
    "table.button": permissions.FLOOR,
    "table.button_draw": permissions.FLOOR,
    "table.hand": permissions.FLOOR,
    "table.status": permissions.FLOOR,
    "table.renumber": permissions.FLOOR,
    "seat.lock": permissions.FLOOR,
    "seat.arrive": permissions.FLOOR,
    "room.balance": permissions.FLOOR,
    "room.break": permissions.FLOOR,
    "room.final_table": permissions.FLOOR,
    "timecall.start": permissions.FLOOR,
    "timecall.acted": permissions.FLOOR,
    "timecall.expire": permissions.FLOOR,
}


def _may_undo(role: str | None, action: str) -> bool:
    return role in _UNDO_ROLES.get(action, permissions.TD)


# Undoing these moves players again, and anything older than a few minutes may surprise the
# floor: the undo first shows what it will change and asks once.
UNDO_ASKS_FOR = frozenset(
    {"seat.move", "room.balance", "room.break", "room.final_table", "seats.draw"}
)
UNDO_ASKS_AFTER = timedelta(minutes=5)


def _undo_preview(event) -> list[str]:
    """What undoing `event` will change, one line per player moved back."""
    data = event.data or {}
    seat = _("Table %(table)s · Seat %(seat)s")
    moves = data.get("moves") or ([data] if data.get("from") and data.get("to") else [])
    lines = [
        _("%(player)s goes back from %(now)s to %(before)s")
        % {
            "player": move.get("name", "?"),
            "now": seat % {"table": move["to"][0], "seat": move["to"][1]},
            "before": seat % {"table": move["from"][0], "seat": move["from"][1]},
        }
        for move in moves
        if move.get("from") and move.get("to")
    ]
    if event.action == "seats.draw":
        seated = data.get("seated", 0)
        lines.append(
            ngettext(
                "%(n)s player loses the seat he drew.",
                "%(n)s players lose the seats they drew.",
                seated,
            )
            % {"n": seated}
        )
    return lines


@login_required
@require_POST
def event_undo(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.STAFF)
    event = tournament.events.filter(pk=event_id).first()
    if event is None:
        raise Http404  # another event's row is as good as missing
    role = permissions.role_for(request.user, tournament)
    if not _may_undo(role, event.action):
        messages.error(request, _("You may not undo this action."))
        return redirect("event_log", slug)
    asks = event.action in UNDO_ASKS_FOR or timezone.now() - event.at > UNDO_ASKS_AFTER
    if asks and request.POST.get("confirm") != "1" and not event.undone_at:
        return render(
            request,
            "undo_confirm.html",
            {
                "tournament": tournament,
                "event": event,
                "role": role,
                "label": events.action_label(event),
                "details": labels.event_details(event, {}, tournament.currency),
                "lines": _undo_preview(event),
            },
        )
    ok, _result = run(
        request, events.event_undo, event_id=event_id, tournament=tournament, actor=request.user
    )
    if ok:
        messages.success(request, _("Undone."))
    return redirect("event_log", slug)


def _error(request: HttpRequest, status: int, title: str, text: str) -> HttpResponse:
    return render(request, "error.html", {"title": title, "text": text}, status=status)


def bad_request(request, exception=None):
    return _error(request, 400, _("Bad request"), _("The request could not be understood."))


def forbidden(request, exception=None):
    match = getattr(request, "resolver_match", None)
    if match is not None and "slug" in match.kwargs and request.path.startswith("/t/"):
        text = _("Your role in this tournament does not allow this page.")
    else:
        # The room's pages (cash room, pit, staff, books) are reached by a room role.
        text = _("Your role in the room does not allow this page.")
    return _error(request, 403, _("Not allowed"), text)


def not_found(request, exception=None):
    return _error(request, 404, _("Not found"), _("There is nothing at this address."))


# Seconds a browser is asked to wait when every database connection of the server is
# busy (Retry-After).
BUSY_RETRY_AFTER = 5


def server_error(request):
    if _pool_exhausted(sys.exception()):
        return _busy(request)
    return _error(
        request, 500, _("Something went wrong"), _("The error was logged. Try again in a moment.")
    )


def _pool_exhausted(error: BaseException | None) -> bool:
    """Whether the request failed waiting for one of the pool's database connections
    (psycopg_pool's PoolTimeout, which Django hands on as the cause of an
    OperationalError): the server is overloaded, the request did nothing."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, PoolTimeout):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _busy(request: HttpRequest) -> HttpResponse:
    """503, with words and a Retry-After, rendered without the database: the login and
    the messages are left unread (each would wait for a connection again)."""
    response = render(
        request,
        "error.html",
        {
            "title": _("The server is busy"),
            "text": _("Nothing was saved. Try again in a few seconds."),
            "user": AnonymousUser(),
            "messages": (),
        },
        status=503,
    )
    response["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


def csrf_failure(request, reason=""):
    """A form without a valid CSRF token (or a stale page): refused, nothing written."""
    return _error(
        request,
        403,
        _("Form expired"),
        _("This form is no longer valid. Reload the page and try again."),
    )

"""Request guards shared by every view."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from tournaments import permissions, selectors


def reject_nul_bytes(get_response: Callable[[HttpRequest], HttpResponse]):
    """A NUL byte in a field or a query is refused with the 400 page (in the user's
    language): no browser sends one, and PostgreSQL cannot store it in text or JSON, so it
    would otherwise be a 500 at whichever view saves or searches that field."""

    def middleware(request: HttpRequest) -> HttpResponse:
        for data in (request.GET, request.POST):
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    raise BadRequest("NUL byte in the request")
        return get_response(request)

    return middleware


def former_addresses(get_response: Callable[[HttpRequest], HttpResponse]):
    """An event's page at an address it had before its date moved: a link shared or
    printed with the old address is sent on to the same page at the new one. Read only
    when the page was not found, so no other request pays for it."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.status_code != 404 or request.method not in ("GET", "HEAD"):
            return response
        match = getattr(request, "resolver_match", None)
        slug = match.kwargs.get("slug") if match is not None else None
        if not isinstance(slug, str):
            return response
        moved = selectors.moved_address(slug)
        if moved is None:
            return response
        try:
            url = reverse(match.view_name, args=match.args, kwargs={**match.kwargs, "slug": moved})
        except NoReverseMatch:
            return response
        query = request.META.get("QUERY_STRING")
        # Not permanent: undoing the change of date gives the old address back.
        return redirect(f"{url}?{query}" if query else url)

    return middleware


class TabletOnly:
    """A session unlocked by a tablet's PIN (tournaments.permissions.pin_table) is no login
    of its account: it reaches its own table's tablet and what that page posts, logging
    out, the language and the PIN pages; every other address answers 403. Once the shift
    is over it is logged out and sent to its table's PIN page. A password's login passes."""

    # Whatever the table: leaving, the language, unlocking (anew: the PIN is asked again),
    # and the relief line the tablet loads (public, as the dealers' board is).
    ANYWHERE = frozenset(
        {"logout", "set_language", "pin_unlock", "cash_pin_unlock", "dealer_relief"}
    )
    # A tournament table's tablet: its page, whose htmx posts go to the same address, and
    # its bust dialog.
    TOURNAMENT = frozenset({"dealer_tablet", "dealer_bust"})
    # A cash table's tablet: its page and the table's hand and rake (by the table's key);
    # its seats' buttons, checked against the table by the view (by the seat's key).
    CASH_TABLE = frozenset({"cash_tablet", "cash_table_hand", "cash_table_rake"})
    CASH_SEAT = frozenset({"cash_seat_marker", "cash_seat_sit_out", "cash_seat_sit_back"})

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        # Nobody without a session cookie is logged in: nothing read for them. The user is
        # read before the session's mark, so both come in the login's one trip.
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None
        if not request.user.is_authenticated:
            return None
        pin = permissions.pin_table(request.session)
        if pin is None:
            return None
        if not isinstance(pin.get("until"), int | float) or pin["until"] <= _now():
            logout(request)
            return redirect(_unlock_url(pin))
        name = request.resolver_match.url_name if request.resolver_match else None
        if name in self.ANYWHERE or (name in self.CASH_SEAT and pin.get("kind") == "cash"):
            return None
        if name in self.TOURNAMENT and permissions.pin_reaches(
            request.session,
            kind="tournament",
            slug=view_kwargs.get("slug", ""),
            number=view_kwargs.get("number", 0),
        ):
            return None
        if name in self.CASH_TABLE and permissions.pin_reaches(
            request.session, kind="cash", pk=view_kwargs.get("pk", 0)
        ):
            return None
        raise PermissionDenied


def _now() -> float:
    return timezone.now().timestamp()


def _unlock_url(pin: dict) -> str:
    try:
        if pin.get("kind") == "cash":
            return reverse("cash_pin_unlock", args=[pin["pk"]])
        return reverse("pin_unlock", args=[pin["slug"], pin["number"]])
    except (KeyError, NoReverseMatch):
        return reverse("login")

"""The tablets' PIN unlock: a tournament table's dealer tablet here, and the page and
its checks every tablet's unlock goes through (`unlock`: a cash table's is the room's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config import ratelimit
from tournaments import permissions
from tournaments.forms import books as books_forms
from tournaments.selectors import pins

# The session of a tablet outlives its shift a little, so that the first request after
# the shift is sent back to its table's PIN page (config.middleware.TabletOnly) rather
# than to the password's login.
_SESSION_GRACE_SECONDS = 3600


# --- tablets unlocked by PIN -----------------------------------------------------------


def pin_unlock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A dealer unlocks this table's dealer tablet with his username and PIN: the session
    reaches that tablet only, for the shift (config.middleware.TabletOnly)."""
    tournament = permissions.get_public_tournament(slug)
    if not tournament.tables.filter(number=number).exists():
        raise Http404
    return unlock(
        request,
        may_hold=lambda user: permissions.may_hold_tablet(user, tournament),
        table={"kind": "tournament", "slug": tournament.slug, "number": number},
        tablet=reverse("dealer_tablet", args=[tournament.slug, number]),
        context={"where": tournament.name, "number": number},
        refused=_("Wrong username or PIN, or no floor or dealer role for this table."),
    )


def unlock(
    request: HttpRequest,
    *,
    may_hold: Callable[[Any], bool],
    table: dict[str, Any],
    tablet: str,
    context: dict[str, Any],
    refused: str,
) -> HttpResponse:
    """The PIN page: a dealer's username and PIN, rate limited; `may_hold` says whether the
    account may hold this tablet, `table` what the session will reach."""
    form = books_forms.PinForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, _("Write your username and your PIN (4 to 8 digits)."))
            status = 400
        else:
            username = form.cleaned_data["username"]
            # Counted before the PIN's slow hash is checked: parallel guesses check at
            # most the limit, as the staff login's do.
            minutes = ratelimit.pin_attempt(request, username)
            user = None if minutes else pins.pin_check(username, form.cleaned_data["pin"])
            if user is not None and may_hold(user):
                ratelimit.pin_succeeded(request, username)
                _login_to_tablet(request, user, table)
                return redirect(tablet)
            if minutes:
                messages.error(request, _wait(minutes))
                status = 429
            else:
                messages.error(request, refused)
                status = 403
    page = {**context, "form": form, "hide_login": True}
    return render(request, "books/pin.html", page, status=status)


def _wait(minutes: int) -> str:
    return ngettext(
        "Too many wrong PINs. Wait %(minutes)d minute and try again.",
        "Too many wrong PINs. Wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}


def _login_to_tablet(request: HttpRequest, user: Any, table: dict[str, Any]) -> None:
    """Log the dealer in for this table only, until the shift ends."""
    shift = settings.TABLET_SHIFT_HOURS * 3600
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    request.session.set_expiry(shift + _SESSION_GRACE_SECONDS)
    until = timezone.now().timestamp() + shift
    request.session[permissions.PIN_TABLE] = {**table, "until": until}

"""Staff accounts: the room manager's account page, and the tablets' PIN unlock (a
tournament table's dealer tablet, a cash table's tablet)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config import ratelimit
from config.views import run
from tables import permissions as room_permissions
from tables.models import CashTable, RoomEvent
from tournaments import permissions
from tournaments.forms import books as books_forms
from tournaments.models import Role, StaffPin, Tournament
from tournaments.services import accounts as account_services

# The session of a tablet outlives its shift a little, so that the first request after
# the shift is sent back to its table's PIN page (config.middleware.TabletOnly) rather
# than to the password's login.
_SESSION_GRACE_SECONDS = 3600


def _managed_events(user):
    return (
        room_permissions.events_for(user, permissions.TD)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("-date")
    )


@login_required
def staff_accounts(request: HttpRequest) -> HttpResponse:
    """Create, disable, enable and reset staff accounts; roles per event; tablet PINs."""
    room_permissions.require_room_role(request.user, room_permissions.MANAGER)
    if request.method == "POST":
        form = books_forms.AccountForm(request.POST)
        if form.is_valid():
            _apply(request, form.cleaned_data)
        else:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
        return redirect("staff_accounts")
    accounts = (
        get_user_model()
        .objects.filter(is_superuser=False)
        .prefetch_related("assignments__tournament")
        .order_by("username")
    )
    with_pin = set(StaffPin.objects.values_list("user_id", flat=True))
    changes = (
        RoomEvent.objects.filter(action__in=account_services.ACTIONS)
        .select_related("actor")
        .order_by("-at", "-id")[:30]
    )
    context = {
        "accounts": [(a, a.pk in with_pin) for a in accounts],
        "events": _managed_events(request.user)[:50],
        "roles": Role.choices,
        "changes": [(change, change_words(change)) for change in changes],
    }
    return render(request, "books/accounts.html", context)


def change_words(change: RoomEvent) -> str:
    """A logged change of an account in words (the log keeps the codes)."""
    data = change.data if isinstance(change.data, dict) else {}
    name = str(data.get("username", ""))
    if change.action == "room.role_give":
        role = data.get("role")
        label = str(Role(role).label) if role in Role.values else _("a role")
        return _("%(name)s: %(role)s in %(event)s") % {
            "name": name,
            "role": label,
            "event": data.get("event", ""),
        }
    words = {
        "room.account_create": _("%(name)s: account created"),
        "room.account_enable": _("%(name)s: account enabled"),
        "room.account_disable": _("%(name)s: account disabled"),
        "room.account_reset": _("%(name)s: new password"),
        "room.pin_set": _("%(name)s: tablet PIN set"),
    }
    return words.get(change.action, _("%(name)s: account changed")) % {"name": name}


def _apply(request: HttpRequest, data: dict) -> None:
    action, username, actor = data["action"], data["username"], request.user
    if action == "create":
        ok, _user = run(
            request,
            account_services.account_create,
            actor=actor,
            username=username,
            password=data["password"],
        )
        done = _("Account %(name)s created.")
    elif action in ("disable", "enable"):
        ok, _user = run(
            request,
            account_services.account_active,
            actor=actor,
            username=username,
            active=action == "enable",
        )
        done = (
            _("Account %(name)s disabled.")
            if action == "disable"
            else _("Account %(name)s enabled.")
        )
    elif action == "reset":
        ok, _user = run(
            request,
            account_services.account_reset,
            actor=actor,
            username=username,
            password=data["password"],
        )
        done = _("New password set for %(name)s.")
    elif action == "pin":
        ok, _pin = run(
            request, account_services.pin_set, actor=actor, username=username, pin=data["pin"]
        )
        done = _("Tablet PIN set for %(name)s.")
    else:  # assign
        tournament = _managed_events(actor).filter(slug=data["slug"]).first()
        if tournament is None or not data["role"]:
            messages.error(request, _("Choose one of your events and a role."))
            return
        ok, _assignment = run(
            request,
            account_services.role_give,
            actor=actor,
            tournament=tournament,
            username=username,
            role=data["role"],
        )
        done = _("%(name)s has a role in the event now.")
    if ok:
        messages.success(request, done % {"name": username})


# --- tablets unlocked by PIN -----------------------------------------------------------


def pin_unlock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A dealer unlocks this table's dealer tablet with his username and PIN: the session
    reaches that tablet only, for the shift (config.middleware.TabletOnly)."""
    tournament = permissions.get_public_tournament(slug)
    if not tournament.tables.filter(number=number).exists():
        raise Http404
    return _unlock(
        request,
        may_hold=lambda user: permissions.may_hold_tablet(user, tournament),
        table={"kind": "tournament", "slug": tournament.slug, "number": number},
        tablet=reverse("dealer_tablet", args=[tournament.slug, number]),
        context={"where": tournament.name, "number": number},
        refused=_("Wrong username or PIN, or no floor or dealer role for this table."),
    )


def cash_pin_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    """A dealer of the room unlocks this cash table's tablet with his username and PIN."""
    table = (
        CashTable.objects.select_related("game").filter(pk=pk, status=CashTable.Status.OPEN).first()
    )
    if table is None:
        raise Http404
    return _unlock(
        request,
        may_hold=lambda user: room_permissions.has_room_role(user, room_permissions.DEALER),
        table={"kind": "cash", "pk": table.pk},
        tablet=reverse("cash_tablet", args=[table.pk]),
        context={"where": str(table.game), "number": table.number},
        refused=_("Wrong username or PIN, or no dealer role in the room."),
    )


def _unlock(
    request: HttpRequest,
    *,
    may_hold: Callable[[Any], bool],
    table: dict[str, Any],
    tablet: str,
    context: dict[str, Any],
    refused: str,
) -> HttpResponse:
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
            user = (
                None if minutes else account_services.pin_check(username, form.cleaned_data["pin"])
            )
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
    request.session[room_permissions.PIN_TABLE] = {**table, "until": until}

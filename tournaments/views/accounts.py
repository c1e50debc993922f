"""Staff accounts (issue 16, item 6): the TD's account page and the dealer tablet's PIN."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import permissions, ratelimit
from tournaments.forms import books as books_forms
from tournaments.models import Role, StaffPin, Tournament
from tournaments.services import accounts as account_services
from tournaments.views.core import run

# A PIN is short: few tries per table and per address, then a wait.
PIN_PER_USERNAME = ratelimit.Limit("pin-user", limit=5, window=15 * 60)
PIN_PER_IP = ratelimit.Limit("pin-ip", limit=20, window=15 * 60)
PIN_SESSION_SECONDS = 12 * 3600  # a tablet unlocked by PIN stays so for a shift


def _managed_events(user):
    events = Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("-date")
    if not user.is_superuser:
        events = events.filter(staff__user=user, staff__role=Role.TD)
    return events


@login_required
def staff_accounts(request: HttpRequest) -> HttpResponse:
    """Create, disable, enable and reset staff accounts; roles per event; tablet PINs."""
    if not account_services.may_manage(request.user):
        raise PermissionDenied
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
    context = {
        "accounts": [(a, a.pk in with_pin) for a in accounts],
        "events": _managed_events(request.user)[:50],
        "roles": Role.choices,
    }
    return render(request, "books/accounts.html", context)


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


def pin_unlock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A dealer unlocks this table's tablet with his username and PIN (no password)."""
    tournament = permissions.get_public_tournament(slug)
    form = books_forms.PinForm(request.POST or None)
    status = 200
    if request.method == "POST":
        ip = ratelimit.client_ip(request)
        username = str(request.POST.get("username", ""))[:150]
        if PIN_PER_IP.exceeded(ip) or PIN_PER_USERNAME.exceeded(username.lower()):
            minutes = PIN_PER_USERNAME.minutes_left()
            messages.error(
                request,
                ngettext(
                    "Too many wrong PINs. Wait %(minutes)d minute and try again.",
                    "Too many wrong PINs. Wait %(minutes)d minutes and try again.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            status = 429
        elif form.is_valid():
            user = account_services.pin_check(
                form.cleaned_data["username"], form.cleaned_data["pin"]
            )
            if user is not None and permissions.role_for(user, tournament) in permissions.FLOOR:
                PIN_PER_USERNAME.reset(username.lower())
                login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
                request.session.set_expiry(PIN_SESSION_SECONDS)
                request.session["unlocked_by_pin"] = True
                return redirect("dealer_tablet", tournament.slug, number)
            PIN_PER_IP.hit(ip)
            PIN_PER_USERNAME.hit(username.lower())
            messages.error(request, _("Wrong username or PIN, or no floor role in this event."))
            status = 403
        else:
            messages.error(request, _("Write your username and your PIN (4 to 8 digits)."))
    context = {"tournament": tournament, "number": number, "form": form, "hide_login": True}
    return render(request, "books/pin.html", context, status=status)

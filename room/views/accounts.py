"""The room manager's staff accounts page: accounts, their roles per event, the tablets'
PINs, and the room's log of those changes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from config.views import run
from room.models import RoomEvent
from room.services import accounts as account_services
from tournaments import permissions
from tournaments.forms import books as books_forms
from tournaments.models import Role, StaffPin, Tournament


def _managed_events(user):
    return (
        permissions.events_for(user, permissions.TD)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("-date")
    )


@login_required
def staff_accounts(request: HttpRequest) -> HttpResponse:
    """Create, disable, enable and reset staff accounts; roles per event; tablet PINs."""
    permissions.require_room_role(request.user, permissions.MANAGER)
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

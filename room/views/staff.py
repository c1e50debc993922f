"""The room's staff page (/room/staff/): the room's manager gives and takes room roles;
each change is in the room's log with an undo."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from room import events
from room.forms import cash as forms
from room.models import RoomEvent
from room.services import staff as staff_services
from tournaments import permissions
from tournaments.errors import DomainError
from tournaments.forms.fields import first_error
from tournaments.models import RoomRole, RoomStaff


def _change_words(data: dict) -> str:
    """A logged change in words (the log keeps the codes)."""
    role = data.get("role")
    label = str(RoomRole(role).label) if role in RoomRole.values else _("a room role")
    if data.get("given"):
        return _("given: %(role)s") % {"role": label}
    return _("taken away: %(role)s") % {"role": label}


@login_required
@require_http_methods(["GET", "POST"])
def room_staff(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.MANAGER)
    form = forms.RoomStaffForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            try:
                staff_services.room_role_set(
                    actor=request.user,
                    username=form.cleaned_data["username"].strip(),
                    role=form.cleaned_data["role"],
                    given=form.cleaned_data["action"] == "give",
                    now=timezone.now(),
                )
            except DomainError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Room roles saved."))
                return redirect("room_staff")
    holders: dict[str, list[str]] = {}
    for row in RoomStaff.objects.select_related("user").order_by("user__username", "role"):
        holders.setdefault(row.user.username, []).append(str(RoomRole(row.role).label))
    return render(
        request,
        "tables/staff.html",
        {
            "form": form,
            "staff": sorted(holders.items()),
            "roles": RoomRole.choices,
            "log": [
                (event, _change_words(event.data if isinstance(event.data, dict) else {}))
                for event in RoomEvent.objects.filter(action=staff_services.STAFF_ACTION)
                .select_related("actor")
                .order_by("-at", "-id")[:30]
            ],
        },
    )


@login_required
@require_POST
def room_staff_undo(request: HttpRequest, event_id: int) -> HttpResponse:
    event = permissions.room_object(
        RoomEvent.objects.all(),
        request.user,
        permissions.MANAGER,
        pk=event_id,
        action=staff_services.STAFF_ACTION,
    )
    try:
        events.room_event_undo(event_id=event.pk, actor=request.user, now=timezone.now())
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Undone."))
    return redirect("room_staff")

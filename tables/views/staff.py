"""The room's staff page (/room/staff/): the room's TD gives and takes room roles (cash
room, pit); each change is in the room's log with an undo."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tables import events, forms, permissions
from tables.models import RoomEvent, RoomStaff
from tables.services import staff as staff_services
from tournaments.errors import DomainError
from tournaments.forms import first_error
from tournaments.models import Role


def _role_words(role: object) -> str:
    """A logged role in words (the log keeps the code)."""
    if role in Role.values:
        return str(Role(role).label)
    return _("no role")


@login_required
@require_http_methods(["GET", "POST"])
def room_staff(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.TD)
    form = forms.RoomStaffForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            try:
                staff_services.room_staff_set(
                    actor=request.user,
                    username=form.cleaned_data["username"].strip(),
                    role=form.cleaned_data["role"] or None,
                    now=timezone.now(),
                )
            except DomainError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Room roles saved."))
                return redirect("room_staff")
    return render(
        request,
        "tables/staff.html",
        {
            "form": form,
            "staff": RoomStaff.objects.select_related("user").order_by("user__username"),
            "log": [
                (event, _role_words(event.data.get("role")))
                for event in RoomEvent.objects.filter(action=staff_services.STAFF_ACTION)
                .select_related("actor")
                .order_by("-at", "-id")[:30]
            ],
        },
    )


@login_required
@require_POST
def room_staff_undo(request: HttpRequest, event_id: int) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.TD)
    event = RoomEvent.objects.filter(pk=event_id, action=staff_services.STAFF_ACTION).first()
    if event is None:
        raise Http404
    try:
        events.room_event_undo(event_id=event.pk, actor=request.user, now=timezone.now())
    except DomainError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Undone."))
    return redirect("room_staff")

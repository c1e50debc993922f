"""The kiosk (/room/kiosk/<token>/): a self-service screen on a stand. A player gives his
card number or shows his phone's QR code; his page lets him join cash lists, see his
place, reserve a tournament seat and ask for an accessible seat. The device holds no
login and no staff rights (its secret link is the key, as a display screen's), each
identification and action is rate limited per kiosk, and the page goes back to the start
by itself when left idle, leaving nothing of the player on screen.

The manager's list of kiosks is /room/kiosks/.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config import ratelimit
from config.views import run
from room.models import Kiosk
from room.selectors import kiosk as selectors
from room.services import cash_lists
from room.services import kiosk as services
from room.services import people as people_services
from room.views.cash_remote import player_for_link
from tournaments import permissions
from tournaments.forms.fields import whole_number
from tournaments.models import Tournament
from tournaments.services import reservations as reservation_services

IDLE_SECONDS = 45  # back to the start screen after this long without a touch


def _limited(request: HttpRequest, kiosk: Kiosk) -> bool:
    limit = ratelimit.KIOSK
    return limit.hit(str(kiosk.token)) > limit.limit


def _no_store(response: HttpResponse) -> HttpResponse:
    # Nothing of a player is kept by the browser: the back button finds no copy.
    response["Cache-Control"] = "no-store"
    return response


@never_cache
def kiosk_start(request: HttpRequest, token) -> HttpResponse:
    kiosk = selectors.kiosk_by_token(str(token))
    if request.method == "POST":
        typed = request.POST.get("card", "")[:300]
        if _limited(request, kiosk):
            messages.error(request, _("Too many tries: wait a minute, or ask the desk."))
        else:
            player = player_for_link(typed) if "/" in typed or ":" in typed else None
            player = player or selectors.player_by_card(typed) or player_for_link(typed)
            if player is not None:
                visit = selectors.visit_for(kiosk, player)
                return redirect("kiosk_player", token=kiosk.token, visit=visit)
            messages.error(request, _("Card not recognised: try again, or ask the desk."))
        return redirect("kiosk_start", token=kiosk.token)
    return _no_store(
        render(
            request,
            "room/kiosk/start.html",
            {"kiosk": kiosk, "idle": IDLE_SECONDS, "hide_login": True},
        )
    )


@never_cache
def kiosk_player(request: HttpRequest, token, visit: str) -> HttpResponse:
    kiosk = selectors.kiosk_by_token(str(token))
    player = selectors.visit_player(kiosk, visit)
    now = timezone.now()
    cash_lists.lapse_remote(now=now)
    return _no_store(
        render(
            request,
            "room/kiosk/player.html",
            {
                "kiosk": kiosk,
                "visit": visit,
                "player": player,
                "places": selectors.places(player),
                "games": selectors.joinable_games(player),
                "events": selectors.reservable_events(player, now),
                "idle": IDLE_SECONDS,
                "hide_login": True,
            },
        )
    )


@require_POST
def kiosk_action(request: HttpRequest, token, visit: str, action: str) -> HttpResponse:
    kiosk = selectors.kiosk_by_token(str(token))
    player = selectors.visit_player(kiosk, visit)
    back = redirect("kiosk_player", token=kiosk.token, visit=visit)
    if action not in ("join", "reserve", "accessible"):
        raise Http404
    if _limited(request, kiosk):
        messages.error(request, _("Too many tries: wait a minute, or ask the desk."))
        return back
    if action == "join":
        wanted = {whole_number(v, low=1, high=2**31 - 1) for v in request.POST.getlist("games")}
        games = [g for g in selectors.joinable_games(player) if g.pk in wanted]
        if not games:
            messages.error(request, _("Choose a game."))
            return back
        # At the kiosk he is in the room: present, as the rules ask (cash-room.md §6.2).
        ok, _entries = run(
            request, cash_lists.list_add, actor=None, player=player, games=games, present=True
        )
        if ok:
            messages.success(request, _("You are on the list."))
    elif action == "reserve":
        slug = request.POST.get("event", "")[:80]
        event = next(
            (
                row["tournament"]
                for row in selectors.reservable_events(player, timezone.now())
                if row["tournament"].slug == slug
            ),
            None,
        )
        if event is None:
            messages.error(request, _("This event takes no reservations."))
            return back
        ok, reservation = run(
            request,
            reservation_services.reservation_make,
            tournament=Tournament.objects.get(pk=event.pk),
            accepted_terms=request.POST.get("accepted_terms") == "1",
            language=get_language() or "",
            player=player,
        )
        if ok:
            messages.success(
                request,
                _("Seat reserved for %(event)s: your code is %(code)s.")
                % {"event": event.name, "code": reservation.code},
            )
    else:
        ok, _player = run(request, people_services.accessible_seat_ask, player=player, actor=None)
        if ok:
            messages.success(request, _("Noted: you will be given an accessible seat."))
    return back


@login_required
def kiosks(request: HttpRequest) -> HttpResponse:
    """The manager's kiosks: each with the link to open once on its device."""
    permissions.require_room_role(request.user, permissions.MANAGER)
    if request.method == "POST":
        ok, kiosk = run(
            request, services.kiosk_create, actor=request.user, name=request.POST.get("name", "")
        )
        if ok:
            messages.success(request, _("Kiosk %(name)s added.") % {"name": kiosk.name})
        return redirect("kiosks")
    rows = [
        {
            "kiosk": k,
            "url": request.build_absolute_uri(reverse("kiosk_start", args=[k.token])),
        }
        for k in Kiosk.objects.all()
    ]
    response = render(request, "room/kiosk/kiosks.html", {"rows": rows})
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def kiosk_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    kiosk = permissions.room_object(Kiosk.objects.all(), request.user, permissions.MANAGER, pk=pk)
    run(request, services.kiosk_revoke, actor=request.user, kiosk=kiosk)
    return redirect("kiosks")

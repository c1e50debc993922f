"""Remote joins of the cash lists (the room's `remote_joins`, off by default: the Sanremo
rules want the player in the room, cash-room.md §6.2): the player joins from his phone
page, and the floor marks him arrived."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from room.models import CashGame
from room.selectors import cash as cash_reads
from room.services import cash_lists
from room.views import cash_lists as list_views
from room.views import cash_phone
from tournaments import permissions
from tournaments.forms.fields import whole_number
from tournaments.models import Player


def player_for_link(token: str) -> Player | None:
    """The player a phone link (or the address holding it) opens, or None: the kiosk
    reads his QR code with it."""
    token = token.strip().rstrip("/")
    if "/cash/me/" in token:
        token = token.split("/cash/me/", 1)[1].split("/", 1)[0]
    try:
        return cash_phone._player_from_token(token)
    except cash_phone._LinkRefused:
        return None


def remote_games() -> list[CashGame]:
    """The games a player may join from his phone, when the room allows it."""
    if not cash_reads.room_settings().remote_joins:
        return []
    return list(CashGame.objects.filter(active=True))


@require_POST
def phone_join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        player = cash_phone._player_from_token(token)
    except cash_phone._LinkRefused as refused:
        return cash_phone._link_refused(request, refused)
    wanted = {whole_number(v, low=1, high=2**31 - 1) for v in request.POST.getlist("games")}
    games = [g for g in remote_games() if g.pk in wanted]
    ok, _entries = run(request, cash_lists.remote_join, player=player, games=games)
    if ok:
        messages.success(request, _("You are on the list: come to the cash room in time."))
    return redirect("cash_phone", token)


@login_required
@require_POST
def entry_arrived(request: HttpRequest, pk: int) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.CASH)
    run(request, cash_lists.mark_arrived, actor=request.user, entry=list_views._entry(pk))
    return redirect("cash_board")

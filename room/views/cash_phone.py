"""A player's phone page under /room/cash/me/<token>/: his place on each list, a seat ready
with its countdown, his sit-out clock, and his answer to a call. The link is signed with
his `PhoneLink` version and stops working when the gaming day ends or the floor gives a
new one; a link that opens nothing gets a page that says so."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from config.views import form_errors
from room.forms import cash as forms
from room.models import CashGame, CashSeat, PhoneLink, WaitEntry
from room.selectors import cash as cash_reads
from room.services import cash_buyins, cash_lists
from tournaments.errors import DomainError
from tournaments.models import Player

PHONE_SALT = "cash.phone"


def _phone_version(player_id: int) -> int:
    version = PhoneLink.objects.filter(player_id=player_id).values_list("version", flat=True)
    return version.first() or 0


def phone_token(player: Player, version: int | None = None) -> str:
    """The player's phone link: his id and his link's version (read when not given),
    signed with the time it was made. It works until the gaming day ends
    (`gaming_day_start_minutes`, the room's closing time) or until the floor gives him a
    new link, whichever comes first."""
    if version is None:
        version = _phone_version(player.pk)
    return signing.dumps([player.pk, version], salt=PHONE_SALT)


class _LinkRefused(Exception):
    """A phone link that opens nothing: 404 when it was never one of ours, 410 when it
    expired with its evening or was replaced by a new link."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _player_from_token(token: str) -> Player:
    now = timezone.now()
    evening = cash_buyins.gaming_day_start(now, cash_reads.room_settings())
    try:
        value = signing.loads(token, salt=PHONE_SALT, max_age=now - evening)
    except signing.SignatureExpired:
        raise _LinkRefused(410) from None
    except signing.BadSignature:
        raise _LinkRefused(404) from None
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise _LinkRefused(410)  # a link of an older kind, with no version: made before
    player_id, version = value
    player = Player.objects.filter(pk=player_id, merged_into__isnull=True).first()
    if player is None or version != _phone_version(player_id):
        raise _LinkRefused(410)
    return player


def _link_refused(request: HttpRequest, refused: _LinkRefused) -> HttpResponse:
    """The friendly page of a phone link that opens nothing. A phone that refreshes the
    page by itself (htmx) reloads it whole, so the player reads this page."""
    response = render(
        request, "tables/cash/phone_gone.html", {"hide_login": True}, status=refused.status
    )
    if request.htmx:
        response["HX-Refresh"] = "true"
    return response


def phone(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: his place on each list, a seat ready with its countdown, and
    his sit-out clock when seated."""
    try:
        player = _player_from_token(token)
    except _LinkRefused as refused:
        return _link_refused(request, refused)
    now = timezone.now()
    cash_lists.lapse_remote(now=now)
    lists = []
    for entry in WaitEntry.objects.filter(player=player).select_related("game"):
        ahead = WaitEntry.objects.filter(game=entry.game, position__lt=entry.position).count()
        call = cash_reads.call_status(entry, now)
        deadline = None if call is None else call.deadline
        rules = cash_reads.game_settings(entry.game)
        lists.append(
            {
                "entry": entry,
                "position": ahead + 1,
                "deadline": deadline,
                # To answer, or once he said he is coming, to reach the table.
                "seconds_left": max(0, int((deadline - now).total_seconds())) if deadline else None,
                "overdue": bool(call and call.overdue),
                "minutes": rules.answer_minutes,
                # The room's own lockout: the button says what declining costs him.
                "decline_minutes": rules.decline_lockout_minutes,
            }
        )
    seat = CashSeat.objects.filter(player=player).select_related("table__game").first()
    context = {
        "player": player,
        "token": token,
        "lists": lists,
        "seat": seat,
        "sit_out_seconds": int((seat.sit_out_until - now).total_seconds())
        if seat and seat.sit_out_until
        else None,
        "hide_login": True,
        **_remote(player),
    }
    if request.htmx:
        return render(request, "tables/cash/phone.html#phone", context)
    return render(request, "tables/cash/phone.html", context)


def _remote(player: Player) -> dict[str, Any]:
    """The games he may still join from his phone (the room's remote joins)."""
    settings = cash_reads.room_settings()
    if not settings.remote_joins:
        return {}
    listed = set(WaitEntry.objects.filter(player=player).values_list("game_id", flat=True))
    games = [g for g in CashGame.objects.filter(active=True) if g.pk not in listed]
    return {"remote_games": games, "remote_minutes": settings.remote_arrival_minutes}


@require_POST
def phone_answer(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The player answers a call from his phone: coming (locks up the seat) or declining."""
    try:
        player = _player_from_token(token)
    except _LinkRefused as refused:
        return _link_refused(request, refused)
    entry = get_object_or_404(WaitEntry.objects.select_related("game"), pk=pk, player=player)
    form = forms.AnswerForm(request.POST)
    if form.is_valid():
        try:
            cash_lists.list_answer(
                actor=None,
                entry=entry,
                takes_seat=form.cleaned_data["takes_seat"],
                now=timezone.now(),
            )
        except DomainError as exc:
            messages.error(request, str(exc))
    else:
        form_errors(request, form)
    return redirect("cash_phone", token)

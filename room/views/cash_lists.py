"""The floor's actions on the waiting lists: a player searched and put on the lists (a new
record only when the floor asks for one), a name removed, answered for, moved down after
no answer, passed over or seated, and a new phone link for a listed player."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import cash as forms
from room.models import WaitEntry
from room.permissions import player_for as cash_player_for
from room.selectors import cash as selectors
from room.services import cash_lists, cash_players, cash_seats
from room.views.cash_board import _back, _role
from tournaments import permissions
from tournaments.models import Player


@login_required
def player_search(request: HttpRequest) -> HttpResponse:
    """The players a name, card or document typed at the list finds, to choose one."""
    _role(request, permissions.CASH)
    query = request.GET.get("find", "")[:100]
    found = selectors.player_search(query, user=request.user)
    return render(
        request, "tables/cash/_player_matches.html", {"found": found, "query": query.strip()}
    )


def _chosen_player(request: HttpRequest, data: dict[str, Any]) -> Player | None:
    """The player a list join is for: the one chosen among those the search finds (a
    foreign id: 404), or the holder of exactly the card typed. None, with the reason as a
    message, when the typed words do not name one player."""
    query = data["find"]
    found = [f.player for f in selectors.player_search(query, user=request.user)]
    if data["player"] is not None:
        chosen = next((p for p in found if p.pk == data["player"]), None)
        if chosen is None:
            raise Http404
        return chosen
    exact = [p for p in found if p.document_number and p.document_number.lower() == query.lower()]
    if len(exact) == 1:
        return exact[0]
    if not found:
        messages.error(
            request,
            _("Nobody found for “%(query)s”: tick New player to create a record.")
            % {"query": query},
        )
    else:
        messages.error(
            request,
            ngettext(
                "%(count)s player matches “%(query)s”: choose him in the search.",
                "%(count)s players match “%(query)s”: choose one in the search.",
                len(found),
            )
            % {"count": len(found), "query": query},
        )
    return None


@login_required
@require_POST
def list_add(request: HttpRequest) -> HttpResponse:
    """A name on the lists. The room's players are searched first; a new record is made
    only when the floor asks for one, and only if the join is accepted."""
    _role(request, permissions.CASH)
    form = forms.ListAddForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    games, present = list(data["games"]), data["present"]
    if data["create"]:
        ok, result = run(
            request,
            cash_lists.list_add_new_player,
            actor=request.user,
            first_name=data["first_name"],
            last_name=data["last_name"],
            card=data["card"],
            games=games,
            present=present,
        )
        player = result[0] if ok else None
    else:
        player = _chosen_player(request, data)
        if player is None:
            return _back(request)
        ok, _entries = run(
            request,
            cash_lists.list_add,
            actor=request.user,
            player=player,
            games=games,
            present=present,
        )
    if ok:
        messages.success(request, _("%(player)s is on the list.") % {"player": player})
    return _back(request)


def _entry(pk: int) -> WaitEntry:
    return get_object_or_404(WaitEntry.objects.select_related("game", "player"), pk=pk)


@login_required
@require_POST
def entry_remove(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    run(request, cash_lists.list_remove, actor=request.user, entry=_entry(pk))
    return _back(request)


@login_required
@require_POST
def entry_answer(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.AnswerForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    run(
        request,
        cash_lists.list_answer,
        actor=request.user,
        entry=_entry(pk),
        takes_seat=form.cleaned_data["takes_seat"],
    )
    return _back(request)


@login_required
@require_POST
def entry_no_answer(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    run(request, cash_lists.list_no_answer, actor=request.user, entry=_entry(pk))
    return _back(request)


@login_required
@require_POST
def entry_skip(request: HttpRequest, pk: int) -> HttpResponse:
    """Pass a called name over for his seat: he keeps his place, the next name is called."""
    _role(request, permissions.CASH)
    entry = _entry(pk)
    ok, following = run(request, cash_lists.list_skip, actor=request.user, entry=entry)
    if ok:
        message = _("%(player)s keeps his place on the list.") % {"player": entry.player}
        if following is None:
            message += " " + _("Nobody else on the list can take the seat now.")
        else:
            message += " " + _("%(player)s is called for table %(table)s seat %(seat)s.") % {
                "player": following.player,
                "table": following.called_table,
                "seat": following.called_seat,
            }
        messages.success(request, message)
    return _back(request)


@login_required
@require_POST
def entry_seat(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.SeatFromListForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    ok, seat = run(
        request,
        cash_seats.seat_player,
        actor=request.user,
        entry=_entry(pk),
        table=data["table"],
        seat=data["seat"],
        buy_in=data["buy_in"],
        reason=data["reason"],
        leaving_stack=data["leaving_stack"],
    )
    if ok:
        messages.success(
            request,
            _("%(player)s sits at table %(table)s seat %(seat)s.")
            % {"player": seat.player, "table": seat.table.number, "seat": seat.number},
        )
    return _back(request)


@login_required
@require_POST
def phone_link_new(request: HttpRequest, player_id: int) -> HttpResponse:
    """A new phone link for a player of the cash room: the old one stops working at once."""
    _role(request, permissions.CASH)
    player = cash_player_for(request.user, player_id)
    ok, _version = run(request, cash_players.phone_link_new, actor=request.user, player=player)
    if ok:
        messages.success(
            request,
            _("New phone link for %(player)s: the old one no longer opens his page.")
            % {"player": player},
        )
    return _back(request)

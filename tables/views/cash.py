"""The cash room's pages under /room/cash/: the floor's board, the public brush board, a
player's phone page and the rake report.

Views check the room role, read the input through a form, call one service and redirect
with a message; a refusal is a message and changes nothing. Screens refresh with htmx.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from tables import events, forms, permissions
from tables.cash import absence, shifts
from tables.models import (
    CashGame,
    CashSeat,
    CashTable,
    JackpotFund,
    PhoneLink,
    RoomEvent,
    WaitEntry,
)
from tables.selectors import cash as cash_reads
from tables.selectors import cash as selectors
from tables.selectors import jackpots as jackpot_selectors
from tables.services import cash as services
from tables.views import jackpots as jackpot_views
from tournaments.errors import DomainError
from tournaments.forms.fields import whole_number
from tournaments.models import Player

PHONE_SALT = "cash.phone"

# The log shows words, never codes.
ACTION_LABELS = {
    "cash.game": gettext_lazy("Game saved"),
    "cash.settings": gettext_lazy("Room settings"),
    "cash.keep_apart": gettext_lazy("Players kept apart"),
    "cash.list_add": gettext_lazy("Added to a list"),
    "cash.list_remove": gettext_lazy("Removed from a list"),
    "cash.call": gettext_lazy("Called for a seat"),
    "cash.answer": gettext_lazy("Answer to a call"),
    "cash.no_answer": gettext_lazy("No answer: to the bottom"),
    "cash.skip": gettext_lazy("Passed over for a seat: keeps his place"),
    "cash.seat": gettext_lazy("Seated from the list"),
    "cash.move": gettext_lazy("Seat or table change"),
    "cash.request": gettext_lazy("Change request"),
    "cash.fill": gettext_lazy("Seat filled by priority"),
    "cash.sit_out": gettext_lazy("Sit-out"),
    "cash.sit_back": gettext_lazy("Back from a sit-out"),
    "cash.marker": gettext_lazy("Missed big blind"),
    "cash.leave": gettext_lazy("Seat freed"),
    "cash.buy": gettext_lazy("Chips bought"),
    "cash.open": gettext_lazy("Table opened"),
    "cash.close": gettext_lazy("Table closed"),
    "cash.rake": gettext_lazy("Rake recorded"),
    "cash.hand": gettext_lazy("Hand done"),
    "cash.phone_link": gettext_lazy("New phone link"),
    **jackpot_views.ACTION_LABELS,
}


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
    evening = services.gaming_day_start(now, cash_reads.room_settings())
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


def _role(request: HttpRequest, roles: frozenset[str]) -> frozenset[str]:
    return permissions.require_room_role(request.user, roles)


def _back(request: HttpRequest) -> HttpResponse:
    return redirect("cash_board")


def public_name(player: Player, name_format: str) -> str:
    """The name the public board shows (§15 `public_name_format`)."""
    first, last = player.first_name.strip(), player.last_name.strip()
    if name_format == "initials":
        return ".".join(p[0].upper() for p in (first, last) if p) + "."
    return f"{first} {last[:1]}." if last else first


def _releasable(seat: CashSeat, waiting: int, settings: Any, now: Any) -> bool:
    """The floor's flag: a second marker with a list waiting (§11.4), or a sit-out past its
    time (§11.2). The app never frees the seat itself."""
    on_sit_out = seat.sit_out_until is not None and now <= seat.sit_out_until
    markers = absence.missed_blind_event(
        event="list_joined",
        markers=seat.markers,
        on_sit_out=on_sit_out,
        waiting_list_length=waiting,
        settings=settings,
    )
    return markers.seat_released or bool(seat.sit_out_until and now > seat.sit_out_until)


def _board_context(*, public: bool) -> dict[str, Any]:
    now = timezone.now()
    services.lapse_remote(now=now)  # a remote join past his window loses the place
    room = cash_reads.cash_room()
    games = list(CashGame.objects.filter(active=True))
    tables = defaultdict(list)
    for table in CashTable.objects.filter(status=CashTable.Status.OPEN).select_related("game"):
        tables[table.game_id].append(table)
    seats = defaultdict(dict)
    for seat in CashSeat.objects.select_related("player", "table"):
        seats[seat.table_id][seat.number] = seat
    waiting = defaultdict(list)
    for entry in WaitEntry.objects.select_related("player", "game").order_by("position", "id"):
        waiting[entry.game_id].append(entry)
    versions = {} if public else dict(PhoneLink.objects.values_list("player_id", "version"))
    # Where each listed player plays now: a list of another game shows it, and opening a
    # table does not tick him (cash-room.md §6.3: on several lists, seated in one game).
    playing = {} if public else selectors.playing_at()
    on_lists = {} if public else selectors.lists_of()
    rows = []
    alerts = 0
    for game in games:
        settings = cash_reads.game_settings(game)
        game_tables = []
        for table in tables[game.pk]:
            taken = seats[table.pk]
            seat_rows = []
            for n in range(1, table.max_seats + 1):
                seat = taken.get(n)
                overdue = bool(seat and seat.sit_out_until and now > seat.sit_out_until)
                releasable = bool(seat and _releasable(seat, len(waiting[game.pk]), settings, now))
                seat_rows.append(
                    {
                        "number": n,
                        "seat": seat,
                        "name": public_name(seat.player, room.public_name_format) if seat else "",
                        "away": bool(seat and seat.sit_out_until),
                        "overdue": overdue,
                        "overdue_minutes": _minutes(now - seat.sit_out_until) if overdue else 0,
                        "button": n == table.button,
                        "releasable": releasable,
                        "alerts": int(overdue or releasable),  # one per seat to act on
                    }
                )
            table_alerts = sum(s["alerts"] for s in seat_rows)
            alerts += table_alerts
            game_tables.append(
                {"table": table, "count": len(taken), "seats": seat_rows, "alerts": table_alerts}
            )
        entries = []
        waiting_above = False
        for k, entry in enumerate(waiting[game.pk], start=1):
            call = services.call_status(entry, now)
            deadline = None if call is None else call.deadline
            overdue = bool(call and call.overdue)
            alerts += int(overdue)
            entries.append(
                {
                    "position": k,
                    "ahead": k - 1,
                    "entry": entry,
                    "name": public_name(entry.player, room.public_name_format),
                    "deadline": deadline,
                    "seconds_left": max(0, int((deadline - now).total_seconds()))
                    if deadline
                    else None,
                    "call": call,
                    "overdue": overdue,
                    # Someone uncalled above him: seating him asks for a reason.
                    "out_of_order": waiting_above and entry.called_at is None,
                    "locked_out": bool(entry.locked_out_until and now < entry.locked_out_until),
                    "waited": _minutes(now - entry.joined_at),
                    "playing": playing.get(entry.player_id),
                    "other_lists": [
                        name for pk, name in on_lists.get(entry.player_id, []) if pk != game.pk
                    ],
                    "phone": None
                    if public
                    else phone_token(entry.player, versions.get(entry.player_id, 0)),
                }
            )
            waiting_above = waiting_above or entry.called_at is None
        rows.append(
            {
                "game": game,
                "settings": settings,
                "tables": game_tables,
                "waiting": entries,
                # A list with no table running is an interest list: names for a game the
                # house may open.
                "interest": not game_tables,
                "open_form": None if public else forms.OpenTableForm(game=game),
                "suggest_open": len(entries) >= settings.open_table_suggest_at,
            }
        )
    return {"rows": rows, "room": room, "now": now, "alerts": alerts}


def _minutes(delta: Any) -> int:
    return max(0, int(delta.total_seconds() // 60))


def _log_rows(log: Any) -> list[tuple[RoomEvent, bool, str, str]]:
    """Each log row with its words: what was done, and to whom and where (the player, the
    game, the table and seat), read from what the row logged."""
    log = list(log)
    player_ids: set[int] = set()
    game_ids: set[int] = set()
    for e in log:
        if type(e.data.get("player")) is int:
            player_ids.add(e.data["player"])
        game_ids.update(g for g in _logged_games(e) if type(g) is int)
    players = {p.pk: str(p) for p in Player.objects.filter(pk__in=player_ids)}
    games = {g.pk: str(g) for g in CashGame.objects.filter(pk__in=game_ids)}
    rows = []
    for e in log:
        parts = []
        if e.data.get("player") in players:
            parts.append(players[e.data["player"]])
        if e.action == "cash.list_add" and isinstance(e.data.get("games"), list):
            parts.extend(str(name) for name in e.data["games"])
        else:
            parts.extend(games[g] for g in _logged_games(e) if g in games)
        table, seat = e.data.get("table"), e.data.get("seat")
        if type(table) is int and type(seat) is int:
            parts.append(_("table %(table)s seat %(seat)s") % {"table": table, "seat": seat})
        elif type(table) is int:
            parts.append(_("table %(table)s") % {"table": table})
        parts.extend(_seat_words(e.data))
        label = ACTION_LABELS.get(e.action, e.action)
        rows.append((e, events.can_undo(e), label, " · ".join(parts)))
    return rows


def _seat_words(data: dict[str, Any]) -> list[str]:
    """What a seat from the list logged beyond who and where: the table he left in another
    game with his stake, and why names ahead of him were passed over."""
    words = []
    left = data.get("left")
    if isinstance(left, dict) and type(left.get("table")) is int:
        words.append(
            _("left table %(table)s with %(stack)s")
            % {"table": left["table"], "stack": left.get("stack") or 0}
        )
    out_of_order = data.get("out_of_order")
    if isinstance(out_of_order, dict) and out_of_order.get("reason"):
        words.append(_("out of list order: %(reason)s") % {"reason": out_of_order["reason"]})
    return words


def _logged_games(event: RoomEvent) -> list[Any]:
    if event.action == "cash.game":
        return [event.data.get("game")]
    before = event.data.get("before")
    games = before.get("games") if isinstance(before, dict) else None
    return sorted(games, key=str) if isinstance(games, list) else []


# --- the floor's board ------------------------------------------------------------------


@login_required
def cash_board(request: HttpRequest) -> HttpResponse:
    held = _role(request, permissions.CASH)
    context = _board_context(public=False)
    context.update(
        is_td=not held.isdisjoint(permissions.MANAGER),
        is_floor=not held.isdisjoint(permissions.CASH),
        game_form=forms.CashGameForm(),
        keep_apart_form=forms.KeepApartForm(),
        list_form=forms.ListAddForm(),
        log=RoomEvent.objects.filter(action__startswith="cash.")
        .select_related("actor")
        .order_by("-at", "-id")[:15],
        can_undo=events.can_undo,
    )
    context["log_rows"] = _log_rows(context["log"])
    if request.htmx:
        return render(request, "tables/cash/board.html#board", context)
    return render(request, "tables/cash/board.html", context)


@login_required
@require_POST
def game_add(request: HttpRequest) -> HttpResponse:
    _role(request, permissions.MANAGER)
    form = forms.CashGameForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    values = {f: form.cleaned_data[f] for f in forms.CashGameForm.Meta.fields}
    ok, game = run(request, services.game_save, actor=request.user, game=None, values=values)
    if ok:
        messages.success(request, _("Game %(game)s added.") % {"game": game})
    return _back(request)


@login_required
def room_settings(request: HttpRequest) -> HttpResponse:
    """The room's settings page (the manager's): every setting of cash-room.md §3 the app
    acts on, each with the rulebook's default beside it."""
    _role(request, permissions.MANAGER)
    room = cash_reads.cash_room()
    if request.method == "POST":
        form = forms.CashRoomForm(request.POST)
        if form.is_valid():
            ok, _room = run(
                request, services.room_settings_save, actor=request.user, values=form.values()
            )
            if ok:
                messages.success(request, _("Room settings saved."))
                return redirect("cash_room_settings")
        else:
            messages.error(request, _("Nothing was saved: correct the settings marked below."))
    else:
        form = forms.CashRoomForm(
            initial=forms.CashRoomForm.as_fields(
                cash_reads.room_settings(), public_name_format=room.public_name_format
            )
        )
    return render(request, "tables/cash/settings.html", {"form": form})


@login_required
@require_POST
def keep_apart(request: HttpRequest) -> HttpResponse:
    _role(request, permissions.MANAGER)
    form = forms.KeepApartForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    ok, _pair = run(
        request,
        services.keep_apart_add,
        actor=request.user,
        a=data["card_a"],
        b=data["card_b"],
        reason=data["reason"],
    )
    if ok:
        messages.success(request, _("The two players will not sit at the same table."))
    return _back(request)


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
            services.list_add_new_player,
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
            services.list_add,
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
    run(request, services.list_remove, actor=request.user, entry=_entry(pk))
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
        services.list_answer,
        actor=request.user,
        entry=_entry(pk),
        takes_seat=form.cleaned_data["takes_seat"],
    )
    return _back(request)


@login_required
@require_POST
def entry_no_answer(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    run(request, services.list_no_answer, actor=request.user, entry=_entry(pk))
    return _back(request)


@login_required
@require_POST
def entry_skip(request: HttpRequest, pk: int) -> HttpResponse:
    """Pass a called name over for his seat: he keeps his place, the next name is called."""
    _role(request, permissions.CASH)
    entry = _entry(pk)
    ok, following = run(request, services.list_skip, actor=request.user, entry=entry)
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
        services.seat_player,
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


def _open_table(pk: int) -> CashTable:
    return get_object_or_404(
        CashTable.objects.select_related("game"), pk=pk, status=CashTable.Status.OPEN
    )


@login_required
@require_POST
def table_call(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.SeatNumberForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, entry = run(
        request,
        services.list_call,
        actor=request.user,
        table=_open_table(pk),
        seat=form.cleaned_data["seat"],
    )
    if ok:
        messages.success(
            request,
            _("%(player)s is called for table %(table)s seat %(seat)s.")
            % {"player": entry.player, "table": entry.called_table, "seat": entry.called_seat},
        )
    return _back(request)


@login_required
@require_POST
def table_fill(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.SeatNumberForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, result = run(
        request,
        services.seat_fill,
        actor=request.user,
        table=_open_table(pk),
        seat=form.cleaned_data["seat"],
    )
    if ok:
        moved, left = result
        if moved:
            messages.success(
                request, _("Moved by priority: %(names)s.") % {"names": ", ".join(moved)}
            )
        if left:
            messages.info(
                request,
                _("Table %(table)s seat %(seat)s goes to the waiting list: call it.")
                % {"table": left[0], "seat": left[1]},
            )
    return _back(request)


@login_required
@require_POST
def table_open(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    game = get_object_or_404(CashGame, pk=pk)
    form = forms.OpenTableForm(request.POST, game=game)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, table = run(
        request,
        services.table_open,
        actor=request.user,
        game=game,
        number=form.cleaned_data["number"],
        present={p.pk for p in form.cleaned_data["present"]},
    )
    if ok:
        messages.success(
            request,
            _("Table %(table)s is open; the button is on seat %(seat)s.")
            % {"table": table.number, "seat": table.button},
        )
    return _back(request)


@login_required
@require_POST
def table_hand(request: HttpRequest, pk: int) -> HttpResponse:
    _tablet(request, pk)
    ok, table = run(request, services.table_hand_done, actor=request.user, table=_open_table(pk))
    if ok:
        messages.success(
            request,
            _("Next hand: button on seat %(button)s, big blind on seat %(bb)s.")
            % {"button": table.button, "bb": table.bb},
        )
    return redirect("cash_tablet", pk)


@login_required
@require_POST
def table_close(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    ok, _order = run(request, services.table_close, actor=request.user, table=_open_table(pk))
    if ok:
        messages.success(request, _("The table is closed; its players are on top of the list."))
    return _back(request)


@login_required
@require_POST
def table_rake(request: HttpRequest, pk: int) -> HttpResponse:
    _tablet(request, pk)
    form = forms.RakeForm(request.POST, shifts=cash_reads.room_settings().shifts)
    if not form.is_valid():
        form_errors(request, form)
        if request.POST.get("next") == "tablet":
            return redirect("cash_tablet", pk)
        return _back(request)
    data = form.cleaned_data
    ok, record = run(
        request,
        services.rake_record,
        actor=request.user,
        table=_open_table(pk),
        pot=data["pot"] or 0,
        contributions=data["contributions"] or None,
        flop_dealt=data["flop_dealt"],
        dealer=data["dealer"],
        shift=data.get("shift") or "",
        hand=data["hand"],
    )
    if ok:
        messages.success(
            request,
            _("Rake %(rake)s on a pot of %(pot)s.") % {"rake": record.rake, "pot": record.pot},
        )
    return redirect(
        request.POST.get("next") == "tablet"
        and reverse("cash_tablet", args=[pk])
        or reverse("cash_board")
    )


def _seat(pk: int) -> CashSeat:
    return get_object_or_404(CashSeat.objects.select_related("table__game", "player"), pk=pk)


def _tablet(request: HttpRequest, table_pk: int) -> None:
    """A table's tablet and what it posts: the cash-room floor, or the dealer whose PIN
    unlocked this table (tables.permissions.require_cash_tablet)."""
    permissions.require_cash_tablet(request.user, request.session, table_pk)


def _tablet_seat(request: HttpRequest, pk: int) -> CashSeat:
    """A seat a table's tablet posts about: the cash-room floor's any seat (the role asked
    first: 403 before 404), a PIN-unlocked dealer's only a seat of his table."""
    if not permissions.is_pin_session(request.session):
        _role(request, permissions.CASH)
        return _seat(pk)
    seat = _seat(pk)
    _tablet(request, seat.table_id)
    return seat


@login_required
@require_POST
def seat_move(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.MoveForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    data = form.cleaned_data
    ok, result = run(
        request,
        services.seat_move,
        actor=request.user,
        seat=_seat(pk),
        to_table=data["table"],
        to_seat=data["seat"],
        by_house=data["by_house"],
    )
    if ok:
        seat, posts = result
        message = _("%(player)s moves to table %(table)s seat %(seat)s.") % {
            "player": seat.player,
            "table": seat.table.number,
            "seat": seat.number,
        }
        if posts == "bb":
            message += " " + _("He posts a big blind to play at once, or waits for his big blind.")
        messages.success(request, message)
    return _back(request)


@login_required
@require_POST
def seat_request(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.RequestForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    run(
        request,
        services.seat_request,
        actor=request.user,
        seat=_seat(pk),
        kind=form.cleaned_data["request"],
    )
    return _back(request)


def _seat_action(service: Callable[..., Any]) -> Callable[[HttpRequest, int], HttpResponse]:
    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        ok, result = run(request, service, actor=request.user, seat=_tablet_seat(request, pk))
        if ok and service is services.marker_add and result.seat_released:
            messages.warning(
                request,
                _("Second missed-blind marker and a waiting list: the seat may be released."),
            )
        nxt = request.POST.get("next")
        if nxt == "tablet":
            table = whole_number(request.POST.get("table"), low=1, high=10**9)
            if table is not None:
                return redirect("cash_tablet", table)
        return _back(request)

    return view


seat_sit_out = _seat_action(services.sit_out)
seat_sit_back = _seat_action(services.sit_back)
seat_marker = _seat_action(services.marker_add)


@login_required
@require_POST
def seat_leave(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.LeaveForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    run(
        request,
        services.seat_leave,
        actor=request.user,
        seat=_seat(pk),
        stack=form.cleaned_data["stack"],
    )
    return _back(request)


@login_required
@require_POST
def seat_buy(request: HttpRequest, pk: int) -> HttpResponse:
    _role(request, permissions.CASH)
    form = forms.BuyForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return _back(request)
    ok, seat = run(
        request, services.seat_buy, actor=request.user, seat=_seat(pk), **form.cleaned_data
    )
    if ok:
        messages.success(
            request,
            _("%(player)s buys %(amount)s.")
            % {"player": seat.player, "amount": form.cleaned_data["amount"]},
        )
    return _back(request)


@login_required
@require_POST
def cash_undo(request: HttpRequest, event_id: int) -> HttpResponse:
    _role(request, permissions.CASH)
    event = RoomEvent.objects.filter(pk=event_id, action__startswith="cash.").first()
    if event is None:
        raise Http404
    if event.action in jackpot_views.MANAGER_UNDOES:
        _role(request, permissions.MANAGER)
    ok, _undo = run(request, events.room_event_undo, actor=request.user, event_id=event.pk)
    if ok:
        messages.success(request, _("Undone."))
    return _back(request)


@login_required
@require_POST
def phone_link_new(request: HttpRequest, player_id: int) -> HttpResponse:
    """A new phone link for a player of the cash room: the old one stops working at once."""
    _role(request, permissions.CASH)
    player = permissions.player_for(request.user, player_id, cash=True)
    ok, _version = run(request, services.phone_link_new, actor=request.user, player=player)
    if ok:
        messages.success(
            request,
            _("New phone link for %(player)s: the old one no longer opens his page.")
            % {"player": player},
        )
    return _back(request)


# --- the dealer tablet ------------------------------------------------


def _rake_form(request: HttpRequest, table: CashTable, now: Any) -> forms.RakeForm:
    """A hand's rake form: the shift running now, and the dealer at this tablet when he
    is one the form offers."""
    settings = cash_reads.room_settings()
    local = timezone.localtime(now)
    running = shifts.shift_at(local.hour * 60 + local.minute, settings.shifts)
    initial: dict[str, Any] = {"hand": services.next_rake_hand(table)}
    if running is not None:
        initial["shift"] = running.name
    if permissions.staff_holding(permissions.DEALS_CASH).filter(pk=request.user.pk).exists():
        initial["dealer"] = request.user.pk
    return forms.RakeForm(initial=initial, shifts=settings.shifts)


@login_required
def cash_tablet(request: HttpRequest, pk: int) -> HttpResponse:
    """A cash table's tablet: seats, missed-blind markers, sit-out clocks, rake per hand."""
    _tablet(request, pk)
    table = _open_table(pk)
    now = timezone.now()
    seats = {s.number: s for s in table.seats.select_related("player")}
    rows = [
        {
            "number": n,
            "seat": seats.get(n),
            "seconds_left": int((seats[n].sit_out_until - now).total_seconds())
            if n in seats and seats[n].sit_out_until
            else None,
        }
        for n in range(1, table.max_seats + 1)
    ]
    context = {
        "table": table,
        "pin_session": permissions.is_pin_session(request.session),
        "rows": rows,
        "rake": table.rake.all()[:10],
        "rake_form": _rake_form(request, table, now),
    }
    if request.htmx:
        return render(request, "tables/cash/tablet.html#tablet", context)
    return render(request, "tables/cash/tablet.html", context)


# --- public screens ---------------------------------------------------------------------


def brush_board(request: HttpRequest) -> HttpResponse:
    """The public board on a TV: games, open seats, waiting lists (§15). No keep-apart pairs,
    buy-ins or markers are shown."""
    context = _board_context(public=True)
    if JackpotFund.objects.exists():
        context["jackpot"] = jackpot_selectors.screen(context["now"])
    if request.htmx:
        return render(request, "tables/cash/brush.html#brush", context)
    return render(request, "tables/cash/brush.html", context)


def phone(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: his place on each list, a seat ready with its countdown, and
    his sit-out clock when seated."""
    try:
        player = _player_from_token(token)
    except _LinkRefused as refused:
        return _link_refused(request, refused)
    now = timezone.now()
    services.lapse_remote(now=now)
    lists = []
    for entry in WaitEntry.objects.filter(player=player).select_related("game"):
        ahead = WaitEntry.objects.filter(game=entry.game, position__lt=entry.position).count()
        call = services.call_status(entry, now)
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
            services.list_answer(
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

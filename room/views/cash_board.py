"""The cash room's boards under /room/cash/: the floor's board (every game's tables, seats
and lists, with what needs acting on, and the room's log in words, each row undoable),
the public brush board on a TV, and the undo of a logged action. The floor's actions on the
other cash pages check the room role, read the input through a form, call one service and
come back to the board with a message; a refusal is a message and changes nothing."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.views import run
from room import events
from room.forms import cash as forms
from room.models import CashGame, CashSeat, CashTable, JackpotFund, PhoneLink, RoomEvent, WaitEntry
from room.selectors import cash as cash_reads
from room.selectors import cash as selectors
from room.selectors import jackpots as jackpot_selectors
from room.services import cash_lists
from room.views import jackpots as jackpot_views
from room.views.cash_phone import phone_token
from tables.cash import absence
from tournaments import permissions
from tournaments.models import Player

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
    cash_lists.lapse_remote(now=now)  # a remote join past his window loses the place
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
            call = cash_reads.call_status(entry, now)
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


def brush_board(request: HttpRequest) -> HttpResponse:
    """The public board on a TV: games, open seats, waiting lists (§15). No keep-apart pairs,
    buy-ins or markers are shown."""
    context = _board_context(public=True)
    if JackpotFund.objects.exists():
        context["jackpot"] = jackpot_selectors.screen(context["now"])
    if request.htmx:
        return render(request, "tables/cash/brush.html#brush", context)
    return render(request, "tables/cash/brush.html", context)

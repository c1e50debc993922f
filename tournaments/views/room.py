"""The floor's room pages: the overview with the plan and its Apply button, one table's
seats with button, hand done, seat locks and moves, and open / close / renumber.

Views parse, fetch with permissions (FLOOR: TD or floor), call one service and redirect
with a message; with an HX-Request header the GET pages answer with their fragment.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import labels, permissions, selectors
from tournaments.forms import floor as floor_forms
from tournaments.forms.fields import first_error
from tournaments.models import Entry, Seat, Table, Tournament
from tournaments.selectors import tables as room_reads
from tournaments.services import hands as hands_services
from tournaments.services import moves as room_services
from tournaments.services.seats import seat_move


def _floor(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)


# The tables list shows this many rows a page (1,112 rows at 10,000 entries rendered in
# most of a second); halted tables and those without a button are named above it anyway.
TABLES_PER_PAGE = 100
# Moves waiting for the player to sit: the first this many, with a "Show all" (after a
# break of many tables, or a redraw, hundreds of players walk at once; each row is a form).
WAITING_SHOWN = 50
# Tables whose unknown button the plan asks for, seat by seat (the rest are named).
NEEDS_BUTTON_SHOWN = 30


def _room_context(tournament: Tournament, page: int = 1, *, all_waiting: bool = False) -> dict:
    room = room_reads.room_overview(tournament)
    plan = room.plan
    # Names only for the players the plan moves (not for the whole field).
    moved = [int(m.player) for m in plan.moves if m.player]
    names = (
        {
            e.pk: str(e.player)
            for e in Entry.objects.filter(pk__in=moved)
            .select_related("player")
            .only("id", "player__first_name", "player__last_name")
        }
        if moved
        else {}
    )
    halted = set(plan.halted_tables)
    numbers = sorted(room.tables)
    pages = max(1, -(-len(numbers) // TABLES_PER_PAGE))
    page = min(max(page, 1), pages)
    shown = numbers[(page - 1) * TABLES_PER_PAGE : page * TABLES_PER_PAGE]
    tables = [
        {
            "table": room.tables[number],
            "players": room.counts.get(number, 0),
            "halted": str(number) in halted,
            "needs_button": str(number) in plan.needs_button,
        }
        for number in shown
    ]
    table_pages = (
        [
            {
                "page": n,
                "first": numbers[(n - 1) * TABLES_PER_PAGE],
                "last": numbers[min(n * TABLES_PER_PAGE, len(numbers)) - 1],
            }
            for n in range(1, pages + 1)
        ]
        if pages > 1
        else []
    )
    moves = [
        {
            "name": names.get(int(m.player)) if m.player else None,
            "from_table": m.from_table,
            "from_seat": m.from_seat,
            "to_table": m.to_table,
            "to_seat": m.to_seat,
            "dealt_in": m.dealt_in_from,
            "rules": m.rules,
            "alert": m.floor_alert,
        }
        for m in plan.moves
    ]
    # The tables whose button the plan needs, each with its occupied seats: one tap on the
    # seat with the button marks it from the plan itself.
    asked = [int(t) for t in plan.needs_button[:NEEDS_BUTTON_SHOWN]]
    occupied: dict[int, list[int]] = {number: [] for number in asked}
    if asked:
        for number, seat in (
            Seat.objects.filter(table__tournament=tournament, table__number__in=asked)
            .order_by("table__number", "number")
            .values_list("table__number", "number")
        ):
            occupied[number].append(seat)
    button_asks = [{"table": n, "seats": occupied[n]} for n in asked if len(occupied[n]) > 1]
    # Whom the room still waits for is counted with the tables' head counts.
    waiting = room.waiting
    pending: list[Seat] = []
    if waiting:
        query = (
            Seat.objects.filter(table__tournament=tournament, arrived=False)
            .select_related("table", "entry__player")
            .order_by("table__number", "number")
        )
        pending = list(query if all_waiting or waiting <= WAITING_SHOWN else query[:WAITING_SHOWN])
    return {
        "tournament": tournament,
        "tables": tables,
        "table_pages": table_pages,
        "tables_page": page,
        "plan": plan,
        "moves": moves,
        "button_asks": button_asks,
        "break_table": plan.break_table,
        "final_table": plan.final_table,
        "pending": pending,
        "waiting": waiting,
        "all_waiting": all_waiting,
        "waiting_shown": WAITING_SHOWN,
        "violations": room.violations,
    }


@login_required
def room(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _floor(request, slug)
    query = floor_forms.TablesPageForm(request.GET)
    asked = query.cleaned_data if query.is_valid() else {}
    context = _room_context(
        tournament, asked.get("page") or 1, all_waiting=bool(asked.get("all_waiting"))
    )
    if request.htmx:
        return render(request, "room/room.html#room", context)
    return render(request, "room/room.html", context)


@login_required
@require_POST
def room_apply(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _floor(request, slug)
    ok, applied = run(
        request, room_services.plan_apply_all, tournament=tournament, actor=request.user
    )
    if ok:
        moves = sum(len(a.moves) for a in applied)
        if not applied:
            messages.info(request, _("Nothing to do: the room is balanced."))
        else:
            messages.success(
                request,
                _("Plan applied: %(moves)s players moved, %(breaks)s tables broken.")
                % {"moves": moves, "breaks": sum(a.kind == "break" for a in applied)},
            )
        for applied_step in applied:
            if applied_step.kind == "final_table":
                messages.success(
                    request,
                    _("Final table drawn at table %(table)s.")
                    % {"table": applied_step.final_table},
                )
    return redirect("room", slug)


@login_required
@require_POST
def room_buttons(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _floor(request, slug)
    ok, drawn = run(request, hands_services.buttons_draw, tournament=tournament, actor=request.user)
    if ok:
        messages.success(
            request,
            ngettext(
                "Button drawn at %(count)s table.", "Button drawn at %(count)s tables.", len(drawn)
            )
            % {"count": len(drawn)},
        )
    return redirect("room", slug)


def _table_or_404(tournament: Tournament, number: int) -> Table:
    table = Table.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise Http404
    return table


@login_required
def room_table(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = _floor(request, slug)
    current = _table_or_404(tournament, table)
    by_number = {
        s.number: s for s in current.seats.select_related("entry__player").order_by("number")
    }
    locked = set(current.locked_seats)
    seats = [
        {
            "number": n,
            "seat": by_number.get(n),
            "locked": n in locked,
            "button": n == current.button,
            "sb": n == current.sb and not current.sb_dead,
            "bb": n == current.bb,
        }
        for n in range(1, current.max_seats + 1)
    ]
    context = {"tournament": tournament, "table": current, "seats": seats}
    if request.htmx:
        return render(request, "room/table.html#table", context)
    return render(request, "room/table.html", context)


@login_required
@require_POST
def table_button(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = _floor(request, slug)
    form = floor_forms.ButtonForm(request.POST)
    seat = form.cleaned_data["button"] if form.is_valid() else None
    if seat is None:
        messages.error(request, _("Choose the seat with the button."))
    else:
        ok, _t = run(
            request,
            hands_services.button_set,
            tournament=tournament,
            table_number=table,
            button=seat,
            actor=request.user,
        )
        if ok:
            messages.success(request, _("Button on seat %(seat)s.") % {"seat": seat})
    if request.POST.get("back") == "room":  # marked from the room's plan
        return redirect("room", slug)
    return redirect("room_table", slug, table)


@login_required
@require_POST
def table_hand(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = _floor(request, slug)
    ok, hands = run(
        request,
        hands_services.hand_done,
        tournament=tournament,
        table_numbers=[table],
        actor=request.user,
    )
    if ok and hands.get(table):
        hand = hands[table]
        messages.success(
            request,
            _("Next hand: button %(button)s, small blind %(sb)s, big blind %(bb)s.")
            % {
                "button": hand.positions.button,
                "sb": _("dead") if hand.positions.sb_dead else hand.positions.sb,
                "bb": hand.positions.bb,
            },
        )
    elif ok:
        messages.error(request, _("A hand needs two players at the table."))
    return redirect("room_table", slug, table)


@login_required
@require_POST
def table_status(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = _floor(request, slug)
    form = floor_forms.TableStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to open or to close the table."))
        return redirect("room", slug)
    status = form.cleaned_data["status"]
    ok, _t = run(
        request,
        room_services.table_set_status,
        tournament=tournament,
        table_number=table,
        status=status,
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("Table %(table)s: %(status)s.")
            % {"table": table, "status": Table.Status(status).label},
        )
    return redirect("room", slug)


@login_required
@require_POST
def table_renumber(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = _floor(request, slug)
    form = floor_forms.TableRenumberForm(request.POST)
    new_number = form.cleaned_data["number"] if form.is_valid() else None
    if new_number is None:
        messages.error(request, _("Give a table number from 1 to 9999."))
        return redirect("room", slug)
    ok, _t = run(
        request,
        room_services.table_renumber,
        tournament=tournament,
        table_number=table,
        new_number=new_number,
        actor=request.user,
    )
    if ok:
        messages.success(
            request, _("Table %(old)s is now table %(new)s.") % {"old": table, "new": new_number}
        )
        return redirect("room_table", slug, new_number)
    return redirect("room", slug)


@login_required
@require_POST
def seat_lock(request: HttpRequest, slug: str, table: int, seat: int) -> HttpResponse:
    tournament = _floor(request, slug)
    form = floor_forms.SeatLockForm(request.POST)
    form.is_valid()  # one optional character: anything but "0" locks, as the button sends
    ok, _t = run(
        request,
        room_services.seat_lock,
        tournament=tournament,
        table_number=table,
        seat=seat,
        locked=form.is_locked(),
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Seat %(seat)s updated.") % {"seat": seat})
    return redirect("room_table", slug, table)


@login_required
@require_POST
def player_move(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _floor(request, slug)
    form = floor_forms.PlayerMoveForm(request.POST)
    form.is_valid()
    number, table, seat, back = (
        form.cleaned_data.get(name) for name in ("entry", "table", "seat", "back_table")
    )
    target = ("room_table", slug, back) if back is not None else ("room", slug)
    entry = selectors.entry_by_number(tournament, number) if number is not None else None
    if entry is None or table is None or seat is None:
        messages.error(request, _("Give the entry number, the table and the seat."))
        return redirect(*target)
    ok, _r = run(
        request,
        seat_move,
        tournament=tournament,
        entry=entry,
        table_number=table,
        seat=seat,
        actor=request.user,
        reason="floor",
    )
    if ok:
        messages.success(
            request,
            _("%(player)s moved to table %(table)s, seat %(seat)s.")
            % {"player": entry.player, "table": table, "seat": seat},
        )
        # The planner warns when a manual move leaves the room out of balance (§8.1). The
        # room's page lists every breach in its plan already: checked here only for the
        # table's page, which does not. The move is pushed to the screens as it commits,
        # and the check (CPU that grows with the room) held
        # the interpreter lock while the pushes were written.
        if back is not None:
            for problem in room_reads.room_check(tournament=tournament):
                messages.warning(
                    request,
                    _("The room breaks its policy now: %(problem)s See the plan.")
                    % {"problem": labels.violation(problem.code, problem.table_id, problem.detail)},
                )
    return redirect(*target)


@login_required
@require_POST
def move_confirm(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _floor(request, slug)
    entry = selectors.entry_by_number(tournament, number)
    if entry is None:
        raise Http404
    form = floor_forms.MoveConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("room", slug)
    ok, seat = run(
        request,
        room_services.move_confirm,
        tournament=tournament,
        entry=entry,
        actor=request.user,
        carried_by=form.cleaned_data["carried_by"],
    )
    if ok:
        messages.success(
            request,
            _("%(player)s is seated at table %(table)s, seat %(seat)s.")
            % {"player": entry.player, "table": seat.table.number, "seat": seat.number},
        )
    return redirect("room", slug)

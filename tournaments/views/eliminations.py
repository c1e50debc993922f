"""The floor's eliminations page: who is out, ticked among the players still in or typed as
table/seat with the stack each started the hand with, and the last busts. A big field is
listed table by table.

Views parse, fetch through permissions, call one service and redirect with a message;
junk input becomes a message, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions, selectors
from tournaments.documents import reports
from tournaments.forms import floor as floor_forms
from tournaments.models import Entry, Seat, Tournament
from tournaments.services import results
from tournaments.views.core import event_and_role
from tournaments.views.floor import LIST_ALL_UP_TO, _active_by_number, _refused, _seated

TABLE_LINKS_UP_TO = 100


@login_required
def eliminations(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)
    return _eliminations_page(request, tournament, role)


def _eliminations_page(request: HttpRequest, tournament: Tournament, role) -> HttpResponse:
    template = "money/eliminations.html#floor" if request.htmx else "money/eliminations.html"
    query = floor_forms.TableChoiceForm(request.GET if request.method == "GET" else request.POST)
    chosen = query.cleaned_data.get("view_table") if query.is_valid() else None
    board = selectors.payouts_board(tournament)
    by_table = board["players_left"] > LIST_ALL_UP_TO
    players = _seated(tournament, table=chosen) if chosen or not by_table else []
    # A link per table while there are few; past that (1,112 tables at 10,000 entries) the
    # floor types the table's number, and the tables in play are counted, not listed
    # (a list would count the players at every table of a big event).
    table_count = selectors.tables_in_play_count(tournament) if by_table else 0
    tables = []
    if by_table and table_count <= TABLE_LINKS_UP_TO:
        tables = selectors.tables_in_play(tournament)
    recent = _recent_busts(tournament)
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "role": role,
            "players": players,
            "by_table": by_table,
            "chosen_table": chosen,
            "tables": tables,
            "table_count": table_count,
            "board": board,
            "recent": recent,
            "playing_again": selectors.playing_again(tournament, recent),
        },
    )


@login_required
@require_POST
def eliminations_record(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.FLOOR)
    _record_eliminations(request, tournament)
    if request.htmx:
        return _eliminations_page(request, tournament, role)
    return redirect("eliminations", slug)


def _record_eliminations(request: HttpRequest, tournament: Tournament) -> None:
    active = _active_by_number(tournament)
    form = floor_forms.EliminationsForm(request.POST, keys=active)
    if _refused(request, form):
        return
    numbers = form.out_numbers()
    # By seat: "table/seat" typed by the floor.
    for table_number, seat_number in form.cleaned_data["seats"]:
        seat = Seat.objects.filter(
            table__tournament=tournament, table__number=table_number, number=seat_number
        ).first()
        if seat is None:
            messages.error(
                request,
                _("Nobody sits at %(spot)s.") % {"spot": f"{table_number}/{seat_number}"},
            )
            return
        numbers.append(seat.entry.number)
    busts = []
    for number in dict.fromkeys(numbers):
        entry = active.get(number)
        if entry is None:
            messages.error(request, _("Choose players who are still in."))
            return
        busts.append(results.Bust(entry=entry, start_stack=form.counts().get(number, 0)))
    if not busts:
        messages.error(request, _("Choose at least one player who is out."))
        return
    ok, settlement = run(
        request,
        results.eliminations_record,
        tournament=tournament,
        busts=busts,
        actor=request.user,
    )
    if ok:
        latest = tournament.events.filter(action="entry.eliminate").order_by("-pk").first()
        regrouped = (latest.data.get("regrouped_names") if latest else None) or []
        if regrouped:
            messages.info(
                request,
                _(
                    "Out in the same hand-for-hand hand as %(players)s: "
                    "their places and prizes were worked out again, together."
                )
                % {"players": ", ".join(regrouped)},
            )
        for bust in busts:
            entry = Entry.objects.get(pk=bust.entry.pk)
            messages.success(
                request,
                _("%(player)s is out in place %(place)s, prize %(prize)s.")
                % {"player": entry.player, "place": reports._place(entry), "prize": entry.prize},
            )
        if settlement.needs_td_confirmation:
            messages.warning(
                request, _("The rules leave this order open: the TD must confirm the places.")
            )


def _recent_busts(tournament) -> list[Entry]:
    """The last busts, the latest first."""
    return list(
        tournament.entries.filter(status=Entry.Status.ELIMINATED)
        .select_related("player")
        .order_by("-ended_at", "-number")[:20]
    )

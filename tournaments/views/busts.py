"""The bust dialog of one table: on the floor's table page, the table's tablet and the
dealer tablet (unlocked by PIN or the floor's login).
Players are picked by seat from those at that table; in a bounty event the winners of
the hand are picked too and the bounty is awarded in the same action."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.views import run
from tournaments import permissions
from tournaments.models import DisplayScreen, Seat, Table, Tournament
from tournaments.selectors import formats as format_selectors
from tournaments.services import busts as bust_services


def _seat_numbers(values: list[str]) -> list[int] | None:
    """Seat numbers as posted; None when one is not a small whole number."""
    numbers = []
    for value in values:
        value = value.strip()
        if not value.isascii() or not value.isdigit() or len(value) > 3:
            return None
        numbers.append(int(value))
    return numbers


def _rows(tournament: Tournament, table: Table) -> list[dict]:
    return [
        {
            "seat": s.number,
            "name": str(s.entry.player),
            "bounty": format_selectors.bounty_of(s.entry, tournament),
        }
        for s in Seat.objects.filter(table=table).select_related("entry__player").order_by("number")
    ]


def _bust(
    request: HttpRequest, tournament: Tournament, number: int, *, post_url: str, back_url: str
) -> HttpResponse:
    """The bust dialog at table `number` of an event the caller has already scoped."""
    table = Table.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise Http404
    if request.method == "POST":
        out = _seat_numbers(request.POST.getlist("out"))
        won = _seat_numbers(request.POST.getlist("won"))
        if out is None or won is None:
            messages.error(request, _("Choose the players by their seats at this table."))
        else:
            ok, done = run(
                request,
                bust_services.table_bust,
                tournament=tournament,
                table_number=table.number,
                out_seats=out,
                winner_seats=won,
                actor=request.user if request.user.is_authenticated else None,
            )
            if ok:
                names = ", ".join(str(e.player) for e in done.out)
                if done.awards:
                    messages.success(
                        request,
                        _("%(players)s out; the bounty is awarded.") % {"players": names},
                    )
                else:
                    messages.success(request, _("%(players)s out.") % {"players": names})
                return redirect(back_url)
    return render(
        request,
        "room/bust.html",
        {
            "tournament": tournament,
            "table_number": table.number,
            "rows": _rows(tournament, table),
            "ask_winner": bust_services.wants_winner(tournament),
            "post_url": post_url,
            "back_url": back_url,
        },
    )


@login_required
def floor_bust(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)
    return _bust(
        request,
        tournament,
        table,
        post_url=reverse("floor_bust", args=[slug, table]),
        back_url=reverse("room_table", args=[slug, table]),
    )


def tablet_bust(request: HttpRequest, token) -> HttpResponse:
    """The table's tablet acts as the floor for its own table, and for no other."""
    display = permissions.get_screen(str(token))
    if display.kind != DisplayScreen.Kind.TABLE or not display.table_number:
        return redirect("screen", token)
    return _bust(
        request,
        display.tournament,
        display.table_number,
        post_url=reverse("tablet_bust", args=[token]),
        back_url=reverse("screen", args=[token]),
    )


@login_required
def dealer_bust(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The dealer tablet's bust: its own table only (a PIN session reaches no other)."""
    tournament = permissions.get_tablet_tournament(request.user, request.session, slug, number)
    return _bust(
        request,
        tournament,
        number,
        post_url=reverse("dealer_bust", args=[slug, number]),
        back_url=reverse("dealer_tablet", args=[slug, number]),
    )

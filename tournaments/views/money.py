"""The money page: the prize pool, the payout table (generated or typed by the TD), the
deal calculator and a recorded deal, the results so far and the event format's figures.

Views parse, fetch through permissions, call one service and redirect with a message;
junk input becomes a message, never a 500.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions, selectors
from tournaments.errors import DomainError
from tournaments.forms import money as money_forms
from tournaments.models import Role
from tournaments.selectors import formats as format_selectors
from tournaments.services import results
from tournaments.views.core import event_and_role
from tournaments.views.floor import LIST_ALL_UP_TO, _active_by_number, _refused, _seated
from tournaments.views.results import _results_window


def _place_bands(places: list[dict]) -> list[dict]:
    """Consecutive places paying the same amount, as (first, last, amount) bands."""
    bands: list[dict] = []
    for p in places:
        if bands and bands[-1]["amount"] == p["amount"]:
            bands[-1]["last"] = p["place"]
        else:
            bands.append({"first": p["place"], "last": p["place"], "amount": p["amount"]})
    return bands


@functools.lru_cache(maxsize=64)
def _place_bands_html(places: tuple[tuple[int, int], ...], currency: str, language: str) -> str:
    """The payout chart's rows, rendered once per chart, currency and language (a pure
    function of them: the chart changes only when the prizes do). At 10,000 entries the
    chart pays 1,000 places in some 300 bands, whose rows cost the page more than the
    rest of it at 1,000 entries (cProfile)."""
    bands = _place_bands([{"place": place, "amount": amount} for place, amount in places])
    context = {"place_bands": bands, "board": {"currency": currency}}
    return render_to_string("money/money.html#bands", context)


@login_required
def money(request: HttpRequest, slug: str, proposal=None, stacks=None) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)
    # An htmx request from the deal calculator gets its own card back (STYLE.md 13, 20).
    template = "money/money.html#deal" if request.htmx and role == Role.TD else "money/money.html"
    shown, pager = _results_window(request, selectors.finished_keys(tournament))
    results = selectors.finished_entries(tournament, shown)
    # The pool is read once for its lines, the payouts and the money reached.
    family = (
        selectors.tournament_family(tournament) if tournament.parent_id is None else [tournament]
    )
    entries = selectors.buy_ins(tournament, family=family)
    pool = selectors.prize_pool(tournament, family=family, entries=entries)
    board = selectors.payouts_board(tournament, entries=entries, pool=pool)
    left = board["players_left"]
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "role": role,
            "pool": pool,
            "pool_lines": selectors.prize_pool_lines(
                tournament, family=family, entries=entries, pool=pool
            ),
            "board": board,
            # The editor's text, joined here (1,000 prizes at 10,000 entries), and the
            # places paid the same told once ("701–720"), as a payout chart shows them.
            "amounts_text": ", ".join(str(p["amount"]) for p in board["places"]),
            "place_bands_html": _place_bands_html(
                tuple((p["place"], p["amount"]) for p in board["places"]),
                board["currency"],
                translation.get_language(),
            ),
            "editable": not selectors.money_reached(tournament, left=left),
            # The deal calculator lists the players left once they are few (a deal is
            # made at the last tables, and nobody types 9,000 stacks).
            "players": _seated(tournament) if left <= LIST_ALL_UP_TO else [],
            "deal_open": left <= LIST_ALL_UP_TO,
            "proposal": proposal,
            "stacks": stacks or {},
            "deal": tournament.deals.filter(voided=False).order_by("-created_at").first(),
            "results": results,
            "playing_again": selectors.playing_again(tournament, results),
            "results_pager": pager,
            "format_board": format_selectors.bounty_board(tournament),
            "satellite": format_selectors.satellite_figures(tournament, timezone.now()),
        },
    )


@login_required
@require_POST
def payouts_generate(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    form = money_forms.PaidPlacesForm(request.POST)
    if _refused(request, form):
        return redirect("money", slug)
    ok, _amounts = run(
        request,
        results.payouts_generate,
        tournament=tournament,
        actor=request.user,
        paid_places=form.cleaned_data["paid_places"],
    )
    if ok:
        messages.success(request, _("Payout table generated."))
    return redirect("money", slug)


@login_required
@require_POST
def payouts_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    form = money_forms.PayoutAmountsForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write the prizes as whole numbers, first place first."))
        return redirect("money", slug)
    ok, _amounts = run(
        request,
        results.payouts_set,
        tournament=tournament,
        actor=request.user,
        amounts=form.cleaned_data["amounts"],
    )
    if ok:
        messages.success(request, _("Payout table saved."))
    return redirect("money", slug)


@login_required
@require_POST
def deal(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    active = _active_by_number(tournament)
    form = money_forms.DealForm(request.POST, keys=active)
    if _refused(request, form):
        return money(request, slug) if request.htmx else redirect("money", slug)
    stacks = {active[n].pk: stack for n, stack in form.counts().items()}
    method = form.cleaned_data["method"] or "icm"
    left = form.cleaned_data["left_to_play_for"] or 0
    if form.cleaned_data["action"] == "accept":
        ok, _deal = run(
            request,
            results.deal_record,
            tournament=tournament,
            stacks=stacks,
            method=method,
            left_to_play_for=left,
            actor=request.user,
        )
        if ok:
            messages.success(request, _("Deal recorded."))
        return redirect("money", slug)
    try:
        proposal = results.deal_propose(
            tournament=tournament, stacks=stacks, method=method, left_to_play_for=left
        )
    except DomainError as exc:
        messages.error(request, str(exc))
        if request.htmx:
            return money(request, slug)
        return redirect("money", slug)
    by_pk = {e.pk: e for e in active.values()}
    rows = [
        {"entry": by_pk[pk], "stack": stacks[pk], "amount": amount}
        for pk, amount in zip(sorted(stacks), proposal.amounts, strict=True)
    ]
    return money(
        request,
        slug,
        proposal={"rows": rows, "method": method, "left": left},
        stacks={e.number: stacks[e.pk] for e in active.values()},
    )

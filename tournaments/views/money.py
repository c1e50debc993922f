"""Money and the floor's records: payouts and deals (TD), eliminations, penalties and
colour-ups (floor), the chip set, end-of-day bags and flights, reports, public results.

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
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.views import run
from tables.models import Table
from tournaments import permissions, selectors
from tournaments.errors import DomainError
from tournaments.forms import chips as chip_forms
from tournaments.forms import days as day_forms
from tournaments.forms import money as money_forms
from tournaments.forms.fields import first_error
from tournaments.models import (
    ChipAdjustment,
    ChipCount,
    Role,
)
from tournaments.selectors import formats as format_selectors
from tournaments.services import chips as chip_services
from tournaments.services import days, results
from tournaments.views.core import event_and_role
from tournaments.views.floor import LIST_ALL_UP_TO, _active_by_number, _refused, _seated
from tournaments.views.results import _results_window

MAX_CHIPS = 16  # rows of the chip-set form


# --- Payouts and deals (TD writes, staff read) ----------------------------------------


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
            "results": selectors.finished_entries(tournament, shown),
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


# --- Chips: the set, colour-ups and races ---------------------------------------------


@login_required
def chips_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _chips_page(request, slug)


def _chips_page(
    request: HttpRequest,
    slug: str,
    *,
    typed: list[dict[str, str]] | None = None,
) -> HttpResponse:
    """The chips page; `typed`: the chip set as the TD typed it, shown again when it was
    refused (not the set saved before)."""
    tournament, role = event_and_role(request, slug, permissions.STAFF)
    query = chip_forms.ColorUpPreviewForm(request.GET)
    query.is_valid()  # a junk table or chip reads as none chosen
    table_number = query.cleaned_data.get("table")
    removed = query.cleaned_data.get("removed")
    table = (
        tournament.tables.filter(number=table_number).first() if table_number is not None else None
    )
    seats = list(table.seats.select_related("entry__player")) if table else []
    held = chip_forms.ColorUpPreviewForm(request.GET, keys=[s.number for s in seats]).counts()
    denominations = list(tournament.denominations.all())
    plan = None
    if table is not None and removed is not None and "preview" in request.GET:
        try:
            plan = chip_services.color_up_plan(
                tournament=tournament, table_number=table.number, removed=removed, held=held
            )
        except DomainError as exc:
            messages.error(request, str(exc))
    next_break = tournament.items.filter(kind="break", color_up__isnull=False).first()
    chip_rows = (
        typed
        if typed is not None
        else [
            {
                "value": d.value,
                "colour": d.colour,
                "count": d.in_starting_stack,
                "retired": d.retired,
            }
            for d in denominations
        ]
    )
    return render(
        request,
        "money/chips.html",
        {
            "tournament": tournament,
            "role": role,
            "denominations": denominations,
            "chip_rows": chip_rows,
            "plan": plan,
            "held": held,
            "blank_rows": range(len(chip_rows), min(len(chip_rows) + 4, MAX_CHIPS)),
            "tables": list(tournament.tables.exclude(status=Table.Status.CLOSED)),
            "table": table,
            "seats": seats,
            "removed": removed or (next_break.color_up if next_break else None),
            "ledger": ChipAdjustment.objects.filter(tournament=tournament).order_by("-created_at")[
                :30
            ],
            "figures": selectors.tournament_figures(tournament),
            "players": _seated(tournament),
            "retired": [d for d in denominations if d.retired],
            "reasons": [
                (value, label)
                for value, label in ChipAdjustment.Reason.choices
                if value not in {"chip_race", "disqualification", "penalty_elimination"}
            ],
        },
    )


@login_required
@require_POST
def chipset(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    form = chip_forms.ChipRowsForm(request.POST, rows=MAX_CHIPS)
    # What was typed, row by row (the rows left blank dropped): shown again on a refusal,
    # so the TD corrects the one wrong figure instead of typing the set again.
    typed = [
        {
            "value": str(request.POST.get(f"value_{i}", ""))[:12],
            "colour": str(request.POST.get(f"colour_{i}", ""))[:30],
            "count": str(request.POST.get(f"count_{i}", ""))[:12],
        }
        for i in range(MAX_CHIPS)
    ]
    typed = [row for row in typed if any(v.strip() for v in row.values())]
    if _refused(request, form):
        return _chips_page(request, slug, typed=typed)
    specs = [
        chip_services.DenominationSpec(value=value, colour=colour, in_starting_stack=count)
        for value, colour, count in form.rows_given()
    ]
    ok, _rows = run(
        request,
        chip_services.chipset_set,
        tournament=tournament,
        actor=request.user,
        denominations=specs,
    )
    if not ok:
        return _chips_page(request, slug, typed=typed)
    messages.success(request, _("Chip set saved."))
    return redirect("chips", slug)


@login_required
@require_POST
def chip_race(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    query = chip_forms.ColorUpPreviewForm(request.POST)
    query.is_valid()
    table_number, removed = query.cleaned_data.get("table"), query.cleaned_data.get("removed")
    table = tournament.tables.filter(number=table_number).first() if table_number else None
    if table is None or removed is None:
        messages.error(request, _("Choose a table and the chip being coloured up."))
        return redirect("chips", slug)
    form = chip_forms.ChipRaceForm(request.POST, keys=table.seats.values_list("number", flat=True))
    if _refused(request, form):
        return redirect(f"{_chips_url(slug)}?table={table.number}&removed={removed}")
    held, cards, nothing_else = form.counts(), form.cards(), form.nothing_else()
    ok, outcome = run(
        request,
        chip_services.chip_race_record,
        tournament=tournament,
        table_number=table.number,
        removed=removed,
        held=held,
        cards=cards,
        nothing_else=nothing_else,
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("Table %(table)s: %(n)s chips raced, won by seats %(seats)s.")
            % {
                "table": table.number,
                "n": outcome.plan.chips_to_race,
                "seats": ", ".join(map(str, outcome.winners)) or "-",
            },
        )
    return redirect(f"{_chips_url(slug)}?table={table.number}&removed={removed}")


def _chips_url(slug: str) -> str:

    return reverse("chips", args=[slug])


@login_required
@require_POST
def color_up(request: HttpRequest, slug: str) -> HttpResponse:
    """A discretionary colour-up of one player, announced (TDA-25.5, FIGP §68)."""
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    values = tournament.denominations.values_list("value", flat=True)
    form = chip_forms.ColorUpForm(request.POST, keys=values)
    valid = form.is_valid()
    entry = _active_by_number(tournament).get(form.cleaned_data.get("entry"))
    target = form.cleaned_data.get("target")
    if entry is None or target is None:
        messages.error(request, _("Choose a player and the chip to colour up to."))
        return redirect("chips", slug)
    if not valid:
        messages.error(request, first_error(form))
        return redirect("chips", slug)
    stack = {v: c for v, c in form.stack().items() if v < target}
    ok, result = run(
        request,
        chip_services.color_up_discretionary,
        tournament=tournament,
        entry=entry,
        stack=stack,
        target=target,
        actor=request.user,
    )
    if ok:
        after = ", ".join(f"{c} × {d}" for d, c in result.chips_after.items()) or "-"
        messages.success(
            request,
            _("Announce the colour-up of %(player)s: %(after)s.")
            % {"player": entry.player, "after": after},
        )
    return redirect("chips", slug)


@login_required
@require_POST
def leftovers(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    form = chip_forms.LeftoversForm(request.POST)
    valid = form.is_valid()
    entry = _active_by_number(tournament).get(form.cleaned_data.get("entry"))
    removed = form.cleaned_data.get("removed")
    if entry is None or removed is None:
        messages.error(request, _("Choose a player and the retired chip."))
        return redirect("chips", slug)
    if not valid:
        messages.error(request, first_error(form))
        return redirect("chips", slug)
    ok, result = run(
        request,
        chip_services.leftovers_clear,
        tournament=tournament,
        entry=entry,
        removed=removed,
        count=form.cleaned_data["count"] or 0,
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("%(player)s: exchanged for %(after)s; %(lost)s removed from play.")
            % {
                "player": entry.player,
                "after": ", ".join(f"{c} × {d}" for d, c in result.chips_after.items()) or "-",
                "lost": result.removed_without_compensation,
            },
        )
    return redirect("chips", slug)


@login_required
@require_POST
def chips_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    form = chip_forms.ChipsRemoveForm(request.POST)
    if _refused(request, form):
        return redirect("chips", slug)
    ok, _adj = run(
        request,
        chip_services.chips_remove,
        tournament=tournament,
        amount=form.cleaned_data["amount"] or 0,
        reason=form.cleaned_data["reason"],
        note=form.cleaned_data["note"],
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Chips removed from play."))
    return redirect("chips", slug)


# --- Days and flights -----------------------------------------------------------------


@login_required
def days_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)

    counts = dict(
        ChipCount.objects.filter(tournament=tournament, day=tournament.day).values_list(
            "entry_id", "chips"
        )
    )
    return render(
        request,
        "money/days.html",
        {
            "tournament": tournament,
            "role": role,
            "players": _seated(tournament),
            "counts": counts,
            "check": days.bag_check(tournament),
            "event": tournament.parent or tournament,
            "flights": selectors.tournament_family(tournament)[1:],
        },
    )


@login_required
@require_POST
def bag(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    active = _active_by_number(tournament)
    form = day_forms.BagForm(request.POST, keys=active)
    if _refused(request, form):
        return redirect("days", slug)
    counts = {active[n].pk: chips for n, chips in form.counts(blank=None).items()}
    ok, check = run(
        request, days.chips_bag, tournament=tournament, counts=counts, actor=request.user
    )
    if ok:
        if check.discrepancy:
            messages.warning(
                request,
                _("The bags hold %(counted)s chips, the ledger says %(ledger)s: recount.")
                % {"counted": check.counted, "ledger": check.chips_in_play},
            )
        else:
            messages.success(request, _("Bags recorded."))
    return redirect("days", slug)


@login_required
@require_POST
def day_next(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, day = run(request, days.day_next, tournament=tournament, actor=request.user)
    if ok:
        messages.success(request, _("Day %(day)s begins.") % {"day": day})
    return redirect("days", slug)


@login_required
@require_POST
def flight_new(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    form = day_forms.FlightForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the flight a name and a date."))
        return redirect("days", slug)
    ok, flight = run(
        request,
        days.flight_create,
        event=tournament,
        actor=request.user,
        name=form.cleaned_data["name"],
        date=form.cleaned_data["date"],
    )
    if ok:
        messages.success(request, _("Flight %(name)s created.") % {"name": flight.name})
    return redirect("days", slug)


@login_required
@require_POST
def flights_merge(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, merged = run(request, days.flights_merge, event=tournament, actor=request.user)
    if ok:
        messages.success(
            request,
            ngettext(
                "%(n)s player goes through to the next day.",
                "%(n)s players go through to the next day.",
                len(merged.carried),
            )
            % {"n": len(merged.carried)},
        )
    return redirect("days", slug)


@login_required
@require_POST
def day_redraw(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    ok, seated = run(request, days.day_redraw, tournament=tournament, actor=request.user)
    if ok:
        messages.success(request, _("%(n)s players seated.") % {"n": len(seated)})
    return redirect("days", slug)

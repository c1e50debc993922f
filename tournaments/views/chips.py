"""The chips page: the chip set (TD), a colour-up's preview and chip race at a table, a
player's discretionary colour-up and leftovers of a retired chip, chips removed from play
(floor).

Views parse, fetch through permissions, call one service and redirect with a message;
junk input becomes a message, never a 500."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions, selectors
from tournaments.errors import DomainError
from tournaments.forms import chips as chip_forms
from tournaments.forms.fields import first_error
from tournaments.models import ChipAdjustment, Table
from tournaments.services import chips as chip_services
from tournaments.views.core import event_and_role
from tournaments.views.floor import _active_by_number, _refused, _seated

MAX_CHIPS = 16  # rows of the chip-set form


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

"""The floor ruling tool: enter a hand step by step and let the engine rule on each step;
save the ruling with the floor's decision, and download it as a PHH hand history.

The hand travels in the page as `Hand.to_dict()` JSON and is replayed on every request, so
a refused step (an engine error) leaves the page's hand exactly as it was.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.views import run
from tables.engine import EngineError, Hand
from tables.engine.phh import export_phh
from tables.engine.pots import clockwise_from
from tables.ruling import citations as ruling_citations
from tables.ruling import labels as ruling_labels
from tables.ruling import presentation as ruling_presentation
from tournaments import permissions, selectors
from tournaments.forms import ruling as ruling_forms
from tournaments.models import ChipCount, Ruling, Table, Tournament
from tournaments.rules import clock
from tournaments.services import rulings as ruling_services

_GAMES = {"nlhe": ("NL", "holdem"), "plo": ("PL", "omaha"), "lhe": ("L", "holdem")}
_ANTE_MODES = {"none": "none", "each_player": "each", "big_blind_ante": "bba"}


def _floor(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)


def _default_values(tournament: Tournament, table_number: str | None) -> dict[str, str]:
    """The setup form prefilled from the tournament and the table in dispute: game, the
    level in play (at a break, the one just played), the table's button, its players and
    their last counted stacks, so the floor retypes nothing."""
    game, variant = _GAMES.get(tournament.game, ("NL", "holdem"))
    values = {"game": game, "variant": variant, "street": "preflop", "button": "1"}
    structure = selectors.clock_structure(tournament)
    view = selectors.clock_view_for(tournament, timezone.now(), structure=structure)
    level = clock.last_level_at(structure, view.index) if view is not None else None
    if level is None:
        level = next((item for item in structure if isinstance(item, clock.Level)), None)
    if level is not None:
        values.update(
            sb=str(level.small_blind),
            bb=str(level.big_blind),
            ante=str(level.ante or ""),
            ante_mode=_ANTE_MODES.get(str(level.ante_mode.value), "none"),
        )
    if not (table_number and table_number.isascii() and table_number.isdigit()):
        return values
    values["table"] = table_number
    table = tournament.tables.filter(number=int(table_number)).first()
    if table is None:
        return values
    seats = [
        s
        for s in table.seats.select_related("entry__player").order_by("number")
        if s.number <= ruling_labels.MAX_SEATS
    ]
    counts: dict[int, int] = {}
    for count in ChipCount.objects.filter(entry__in=[s.entry_id for s in seats]).order_by("day"):
        counts[count.entry_id] = count.chips  # the latest day's count wins
    for seat in seats:
        values[f"name_{seat.number}"] = str(seat.entry.player)
        if seat.entry_id in counts:
            values[f"stack_{seat.number}"] = str(counts[seat.entry_id])
            values["counted"] = "1"
    if table.button is not None and table.button <= ruling_labels.MAX_SEATS:
        values["button"] = str(table.button)
    elif seats:
        values["button"] = str(seats[0].number)
    return values


def _context(tournament: Tournament, request: HttpRequest, **extra: Any) -> dict[str, Any]:
    context = {
        "action_url": reverse("ruling_tool", args=[tournament.slug]),
        "tournament": tournament,
        "role": permissions.role_for(request.user, tournament),
        "tables": list(tournament.tables.values_list("number", flat=True)),
        "settings_fields": [
            (
                name,
                ruling_labels.SETTING_LABELS.get(name, name),
                [(c, ruling_labels.setting_option_label(name, c)) for c in choices or ()],
                (extra.get("values") or {}).get(f"setting_{name}", default),
            )
            for name, choices, default in ruling_forms.setting_choices()
        ],
        "act_labels": ruling_labels.ACT_LABELS,
        "declared_labels": ruling_labels.DECLARED_LABELS,
        "recent": Ruling.objects.filter(tournament=tournament).select_related("created_by")[:10],
        **extra,
    }
    values = context.get("values") or {}
    context["seat_rows"] = [
        (n, values.get(f"name_{n}", ""), values.get(f"stack_{n}", ""))
        for n in range(1, ruling_labels.MAX_SEATS + 1)
    ]
    return context


def _hand_context(hand: Hand, names: dict[str, str], table: str = "") -> dict[str, Any]:
    return {
        "hand": hand,
        "view": ruling_presentation.hand_view(hand, names),
        "hand_json": json.dumps(hand.to_dict()),
        "names_json": json.dumps(names),
        "table": table,
    }


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    name = "ruling/tool.html#tool" if request.htmx else "ruling/tool.html"
    return render(request, name, context, status=status)


def _apply(hand: Hand, op: str, data: Any) -> Hand:
    """Apply one step of the page to a copy of the hand (an error leaves it unchanged)."""
    if op == "back":
        if not hand.log:
            raise ruling_labels.InputError(_("There is no step to take back."))
        return Hand.from_dict({**hand.to_dict(), "log": hand.log[:-1]})
    new = Hand.from_dict(hand.to_dict())
    if op == "act":
        new.act(ruling_forms.action_from_form(data))
    elif op == "board":
        cards = ruling_forms.parse_cards(data.get("cards"))
        if not cards:
            raise ruling_labels.InputError(_("Write the board cards, e.g. Ah 7c 2d."))
        new.deal_board(cards)
    elif op == "hole":
        new.deal_hole(
            ruling_forms.parse_seat(data.get("seat")), ruling_forms.parse_cards(data.get("cards"))
        )
    elif op == "muck":
        new.muck(ruling_forms.parse_seat(data.get("seat")))
    else:
        raise ruling_labels.InputError(_("Unknown step."))
    return new


@login_required
@require_http_methods(["GET", "POST"])
def ruling_tool(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _floor(request, slug)
    if request.method == "GET":
        values = _default_values(tournament, request.GET.get("table"))
        return _render(request, _context(tournament, request, values=values))
    step = ruling_forms.StepForm(request.POST)
    step.is_valid()
    op, table = step.cleaned_data.get("op") or "", step.cleaned_data.get("table") or ""
    if op == "start":
        setup = ruling_forms.SetupForm(request.POST)
        if not setup.is_valid():
            messages.error(request, setup.non_field_errors()[0])
            return _render(request, _context(tournament, request, values=request.POST.dict()))
        hand, names = setup.cleaned_data["hand"], setup.cleaned_data["names"]
        return _render(request, _context(tournament, request, **_hand_context(hand, names, table)))
    names = step.cleaned_data.get("names") or {}
    if "hand" in step.errors:
        messages.error(request, step.problem())
        values = _default_values(tournament, None)
        return _render(request, _context(tournament, request, values=values))
    hand = step.cleaned_data["hand"]
    if op == "save":
        return _save(request, tournament, hand, names, table, step)
    try:
        hand = _apply(hand, op, request.POST)
    except (ruling_labels.InputError, EngineError) as exc:
        _refuse(request, exc)
        context = _context(
            tournament, request, **_hand_context(hand, names, table), last=request.POST.dict()
        )
        return _render(request, context)
    return _render(request, _context(tournament, request, **_hand_context(hand, names, table)))


def _refuse(request: HttpRequest, exc: Exception) -> None:
    if isinstance(exc, EngineError):
        messages.error(request, ruling_citations.engine_error_message(exc))
    else:
        messages.error(request, str(exc))


def _save(
    request: HttpRequest,
    tournament: Tournament,
    hand: Hand,
    names: dict[str, str],
    table: str,
    step: ruling_forms.StepForm,
) -> HttpResponse:
    try:
        if step.errors:
            raise ruling_labels.InputError(step.problem())
        table_number = ruling_forms.parse_amount(table, _("the table number"))
    except ruling_labels.InputError as exc:
        table_number = None
        messages.error(request, str(exc))
        ok = False
    else:
        ok, ruling = run(
            request,
            ruling_services.ruling_save,
            tournament=tournament,
            actor=request.user,
            hand=hand.to_dict(),
            names=names,
            table_number=table_number,
            note=step.cleaned_data["note"],
        )
    if not ok:
        context = _context(
            tournament, request, **_hand_context(hand, names, table), last=request.POST.dict()
        )
        return _render(request, context)
    messages.success(request, _("Ruling saved."))
    url = reverse("ruling_detail", args=[tournament.slug, ruling.pk])
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)


@login_required
def ruling_detail(request: HttpRequest, slug: str, ruling_id: int) -> HttpResponse:
    tournament = _floor(request, slug)
    ruling = get_object_or_404(
        Ruling.objects.select_related("created_by"), pk=ruling_id, tournament=tournament
    )
    hand: Hand | None = None
    phh_error = ""
    try:
        hand = Hand.from_dict(ruling.hand)
        export_phh(hand)
    except EngineError as exc:
        phh_error = ruling_citations.engine_error_message(exc)
    if hand is None:
        # Saved hands replay by construction; one this engine no longer reads is shown bare.
        messages.error(request, phh_error)
    return render(
        request,
        "ruling/detail.html",
        {
            "tournament": tournament,
            "role": permissions.role_for(request.user, tournament),
            "ruling": ruling,
            "view": ruling_presentation.hand_view(hand, ruling.names) if hand is not None else None,
            "phh_error": phh_error,
        },
    )


_UNSAFE_NAME = re.compile(r"[^\w .\-]", re.UNICODE)


@login_required
def ruling_phh(request: HttpRequest, slug: str, ruling_id: int) -> HttpResponse:
    tournament = _floor(request, slug)
    ruling = get_object_or_404(Ruling, pk=ruling_id, tournament=tournament)
    try:
        hand = Hand.from_dict(ruling.hand)
        order = clockwise_from(hand.setup.button, hand.seats)  # PHH p1..pN (phh.export_phh)
        names = [
            _UNSAFE_NAME.sub("", ruling.names.get(str(s), "")) or _("Seat %(seat)s") % {"seat": s}
            for s in order
        ]
        text = export_phh(hand, names=names)
    except EngineError as exc:
        messages.error(request, ruling_citations.engine_error_message(exc))
        return redirect("ruling_detail", slug, ruling.pk)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ruling-{ruling.pk}.phh"'
    return response


# --- Dealer tablet ---------------------------------------------------------------------

# The buttons of the tablet: each is one engine action of the player to act.
_DEALER_ACTS = ("fold", "check", "call", "bet", "raise", "all_in")


def _dealer_context(
    request: HttpRequest, tournament: Tournament, dealt: Table, **extra: Any
) -> dict[str, Any]:
    context = _context(tournament, request, **extra)
    context.update(
        table_obj=dealt,
        table=str(dealt.number),
        action_url=reverse("dealer_tablet", args=[tournament.slug, dealt.number]),
        # Unlocked by a PIN, the tablet links nowhere else: it reaches nothing else.
        pin_session=permissions.is_pin_session(request.session),
        dealer_acts=[(a, ruling_labels.ACT_LABELS[a]) for a in _DEALER_ACTS],
    )
    return context


def _render_dealer(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    name = "ruling/dealer.html#tool" if request.htmx else "ruling/dealer.html"
    return render(request, name, context)


@login_required
@require_http_methods(["GET", "POST"])
def dealer_tablet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Run one hand at one table through the engine: the dealer taps what the player to act
    does, the engine says who is next, what to call and the pots."""
    tournament = permissions.get_tablet_tournament(request.user, request.session, slug, number)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    seated = {
        str(s.number): str(s.entry.player)
        for s in table.seats.select_related("entry__player")
        if s.number <= ruling_labels.MAX_SEATS
    }
    if request.method == "GET":
        # Stacks come from the last count when there is one; the dealer checks them.
        values = _default_values(tournament, str(number))
        context = _dealer_context(request, tournament, table, values=values, seated=seated)
        return _render_dealer(request, context)
    step = ruling_forms.StepForm(request.POST)
    step.is_valid()
    op = step.cleaned_data.get("op") or ""
    if op == "start":
        setup = ruling_forms.SetupForm(request.POST, with_settings=False)
        if not setup.is_valid():
            messages.error(request, setup.non_field_errors()[0])
            values = request.POST.dict()
            context = _dealer_context(request, tournament, table, values=values, seated=seated)
            return _render_dealer(request, context)
        hand, names = setup.cleaned_data["hand"], setup.cleaned_data["names"]
        context = _dealer_context(request, tournament, table, **_hand_context(hand, names))
        return _render_dealer(request, context)
    names = step.cleaned_data.get("names") or {}
    if "hand" in step.errors:
        messages.error(request, step.problem())
        values = _default_values(tournament, str(number))
        context = _dealer_context(request, tournament, table, values=values, seated=seated)
        return _render_dealer(request, context)
    hand = step.cleaned_data["hand"]
    data: Any = request.POST  # the step's own fields: ruling_forms.action_from_form reads them
    if op == "act":
        kind = request.POST.get("kind", "")
        data = {
            "seat": str(hand.next_to_act or ""),
            "kind": kind if kind in _DEALER_ACTS else "",
            "to": request.POST.get("to", "") if kind in ("bet", "raise") else "",
        }
    try:
        hand = _apply(hand, op, data)
    except (ruling_labels.InputError, EngineError) as exc:
        _refuse(request, exc)
    context = _dealer_context(request, tournament, table, **_hand_context(hand, names))
    return _render_dealer(request, context)


@login_required
@require_POST
def ruling_publish(request: HttpRequest, slug: str, ruling_id: int) -> HttpResponse:
    """The floor publishes a saved hand as a featured hand of the live feed, or takes it
    back out (`publish` = "0")."""
    tournament = _floor(request, slug)
    ruling = get_object_or_404(Ruling, pk=ruling_id, tournament=tournament)
    published = request.POST.get("publish", "1") != "0"
    ok, _ruling = run(
        request,
        ruling_services.ruling_publish,
        tournament=tournament,
        actor=request.user,
        ruling_id=ruling.pk,
        published=published,
    )
    if ok:
        messages.success(
            request,
            _("The hand is in the live feed.")
            if published
            else _("The hand is no longer in the live feed."),
        )
    return redirect("ruling_detail", slug, ruling.pk)

"""The pit ruling tool (room level, TD and floor): enter a blackjack round or a punto banco
coup as dealt, see each step with its article, the results and the payouts; save the ruling
to the room's log and print it. Decisions come from `tables.games`; this module only reads
the forms and words the result.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from room.forms import games as gf
from room.models import RoomEvent
from room.services import pit as pit_services
from tables import games_labels as labels
from tables.games import GameError, trainer
from tables.games import blackjack as bj
from tables.games import punto_banco as pb
from tables.games.cards import names
from tournaments.forms.fields import whole_number
from tournaments.permissions import PIT, require_room_role, room_object


def _render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200):
    name = f"{template}#tool" if request.htmx else template
    return render(request, name, context, status=status)


@login_required
@require_GET
def pit_home(request: HttpRequest) -> HttpResponse:
    require_room_role(request.user, PIT)
    recent = RoomEvent.objects.filter(action="pit.ruling").select_related("actor")[:15]
    rows = [
        {
            "event": e,
            "game": labels.game_name(e.data.get("game", "")),
            "summary": labels.summary_text(e.data),
        }
        for e in recent
    ]
    return render(request, "tables/pit/home.html", {"recent": rows})


# --- punto banco ------------------------------------------------------------------------


def _pb_ruling(form: gf.PuntoBancoForm, bets: list[pb.PBBet]) -> dict[str, Any]:
    coup = pb.settle_coup(
        form.cleaned_data["cards"], bets, limits=form.limits(), last_coup=form.last()
    )
    d = coup.deal
    return {
        "game": "punto_banco",
        "cards": names(form.cleaned_data["cards"]),
        "punto": {"cards": names(d.punto.cards), "total": d.punto.total},
        "banco": {"cards": names(d.banco.cards), "total": d.banco.total},
        "winner": coup.winner,
        "void": coup.void,
        "unused": names(d.unused),
        "steps": labels.steps_data(coup.steps),
        "results": labels.results_data(coup.results),
        "house": labels.money(coup.house_net),
    }


@login_required
@require_http_methods(["GET", "POST"])
def pit_punto_banco(request: HttpRequest) -> HttpResponse:
    require_room_role(request.user, PIT)
    if request.method == "GET":
        context = {"form": gf.PuntoBancoForm(), "bets": gf.PBBetFormSet(prefix="bet")}
        return _render(request, "tables/pit/punto_banco.html", context)
    form = gf.PuntoBancoForm(request.POST)
    bets = gf.PBBetFormSet(request.POST, prefix="bet")
    context: dict[str, Any] = {"form": form, "bets": bets, "save": gf.SaveForm(request.POST)}
    if not (form.is_valid() and bets.is_valid()):
        messages.error(request, _("Check the marked fields."))
        return _render(request, "tables/pit/punto_banco.html", context, status=400)
    try:
        ruling = _pb_ruling(form, gf.pb_bets(bets))
    except GameError as exc:
        return _refused(request, "tables/pit/punto_banco.html", context, exc, "punto_banco")
    return _settled(request, "tables/pit/punto_banco.html", context, ruling)


# --- blackjack --------------------------------------------------------------------------


def _bj_ruling(form: gf.BlackjackForm, boxes: list[bj.Box], niwin: list[bj.NiwinBet]):
    result = bj.settle_round(
        form.cleaned_data["dealer"],
        boxes,
        niwin,
        limits=form.limits(),
        settings=form.settings(),
        exposed=form.exposed(),
        other_boxes=form.cleaned_data.get("other_boxes") or 0,
    )
    dealer = result.dealer
    return {
        "game": "blackjack",
        "dealer": {
            "cards": names(dealer.cards),
            "total": dealer.value.total,
            "blackjack": dealer.blackjack,
            "bust": dealer.value.bust,
            "completed": dealer.completed,
        },
        "annulled": names(dealer.annulled),
        "exposed": names(dealer.exposed),
        "other_boxes": form.cleaned_data.get("other_boxes") or 0,
        "hands": [
            {
                "box": h.box,
                "hand": h.hand,
                "cards": names(h.cards),
                "total": h.total,
                "soft": h.soft,
                "blackjack": h.blackjack,
                "bust": h.bust,
                "double": h.double,
            }
            for h in result.hands
        ],
        "settings": {
            "bj_dealer_blackjack_vs_21": form.settings().bj_dealer_blackjack_vs_21,
            "bj_live_insurance_dealer_draw": form.settings().bj_live_insurance_dealer_draw,
        },
        "steps": labels.steps_data(result.steps),
        "results": labels.results_data(result.results),
        "house": labels.money(result.house_net),
    }


@login_required
@require_http_methods(["GET", "POST"])
def pit_blackjack(request: HttpRequest) -> HttpResponse:
    require_room_role(request.user, PIT)
    if request.method == "GET":
        context = {
            "form": gf.BlackjackForm(),
            "boxes": gf.BoxFormSet(prefix="box"),
            "behind": gf.BehindFormSet(prefix="behind"),
            "niwin": gf.NiwinFormSet(prefix="niwin"),
        }
        return _render(request, "tables/pit/blackjack.html", context)
    form = gf.BlackjackForm(request.POST)
    boxes = gf.BoxFormSet(request.POST, prefix="box")
    behind = gf.BehindFormSet(request.POST, prefix="behind")
    niwin = gf.NiwinFormSet(request.POST, prefix="niwin")
    context: dict[str, Any] = {
        "form": form,
        "boxes": boxes,
        "behind": behind,
        "niwin": niwin,
        "save": gf.SaveForm(request.POST),
    }
    valid = all([form.is_valid(), boxes.is_valid(), behind.is_valid(), niwin.is_valid()])
    if not valid:
        messages.error(request, _("Check the marked fields."))
        return _render(request, "tables/pit/blackjack.html", context, status=400)
    orphans = gf.bj_orphans(boxes, behind)
    if orphans:
        messages.error(
            request,
            _("Box %(boxes)s has bets behind but no titolare's stake.")
            % {"boxes": ", ".join(map(str, orphans))},
        )
        return _render(request, "tables/pit/blackjack.html", context, status=400)
    try:
        ruling = _bj_ruling(form, gf.bj_boxes(boxes, behind), gf.niwin_bets(niwin))
    except GameError as exc:
        return _refused(request, "tables/pit/blackjack.html", context, exc, "blackjack")
    return _settled(request, "tables/pit/blackjack.html", context, ruling)


# --- shared -----------------------------------------------------------------------------


def _refused(
    request: HttpRequest, template: str, context: dict[str, Any], exc: GameError, game: str
):
    context["refusals"] = labels.refusals(exc.reasons, game) or [
        {"text": _("The rules can't settle this as written.")}
    ]
    messages.error(request, _("The rules can't settle this as written; nothing was saved."))
    return _render(request, template, context, status=400)


def _settled(request: HttpRequest, template: str, context: dict[str, Any], ruling: dict):
    if request.POST.get("op") == "save":
        save = gf.SaveForm(request.POST)
        note = save.cleaned_data.get("note", "") if save.is_valid() else ""
        event = pit_services.pit_ruling_save(
            actor=request.user, ruling={**ruling, "note": note}, now=timezone.now()
        )
        messages.success(request, _("Ruling saved to the room's log."))
        target = reverse("pit_ruling", args=[event.pk])
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    context["ruling"] = labels.worded(ruling)
    return _render(request, template, context)


@login_required
@require_GET
def pit_ruling(request: HttpRequest, event_id: int) -> HttpResponse:
    """A saved ruling, worded in the reader's language, ready to print."""
    event = room_object(
        RoomEvent.objects.all(), request.user, PIT, pk=event_id, action="pit.ruling"
    )
    context = {
        "event": event,
        "ruling": labels.worded(event.data),
        "game": labels.game_name(event.data.get("game", "")),
        "source": labels.SOURCE,
        "settings": _settings_texts(event.data.get("settings") or {}),
    }
    return render(request, "tables/pit/ruling.html", context)


def _settings_texts(settings: dict[str, str]) -> list[str]:
    """The table-games.md §7.4 settings the ruling was computed with, in words."""
    out = []
    for key, choices in (
        ("bj_dealer_blackjack_vs_21", gf.SETTING_VS_21),
        ("bj_live_insurance_dealer_draw", gf.SETTING_INSURANCE),
    ):
        if key in settings:
            out.append(str(dict(choices).get(settings[key], settings[key])))
    return out


# --- dealer trainer (optional) ------------------------------------------------------------

_SEEDS = random.SystemRandom()
TRAINER_KINDS = {
    "pb_banco_draws": gettext_lazy("Punto banco: does Banco draw?"),
    "pb_payout": gettext_lazy("Punto banco: what does this bet get?"),
    "bj_payout": gettext_lazy("Blackjack: what does this bet get?"),
}


def _question_context(q: trainer.Question) -> dict[str, Any]:
    info = dict(q.bet_info or {})
    for key in ("on", "option"):
        if info.get(key):
            info[f"{key}_text"] = str(labels.WORDS.get(info[key], gf_option(info[key])))
    return {
        "q": q,
        "kind_text": TRAINER_KINDS[q.kind],
        "shown": [(_shown_label(k), labels.cards_text(v)) for k, v in q.shown.items()],
        "info": info,
    }


def _shown_label(key: str) -> str:
    if key.startswith("hand:"):
        _hand, number, double = key.split(":")
        label = _("Hand %(n)s") % {"n": number}
        return f"{label} ({_('doubled')})" if double else label
    return str(labels.WORDS.get(key, _("Banco")))


def gf_option(code: str) -> str:
    return str(dict(gf.OPTIONS).get(code, code))


@login_required
@require_http_methods(["GET", "POST"])
def pit_trainer(request: HttpRequest) -> HttpResponse:
    """Random coups (a fresh seed per question) and the decision or payout to give."""
    require_room_role(request.user, PIT)
    data = request.POST if request.method == "POST" else request.GET
    kind = data.get("kind") if data.get("kind") in TRAINER_KINDS else "pb_banco_draws"
    context: dict[str, Any] = {"kinds": list(TRAINER_KINDS.items()), "kind": kind}
    if request.method == "POST":
        seed = whole_number(request.POST.get("seed"), high=2**32 - 1)
        if seed is None:
            messages.error(request, _("This question has expired; here is a new one."))
        else:
            q = trainer.question(kind, seed)
            answer = (request.POST.get("answer") or "")[:20]
            right = trainer.check(q, answer)
            context["checked"] = {
                "right": right,
                "given": answer,
                **_question_context(q),
                "rule_text": labels.rule_text(q.rule),
                "steps": labels.worded({"steps": labels.steps_data(q.steps)})["steps"],
            }
    q = trainer.question(kind, _SEEDS.randrange(2**32))
    context.update(_question_context(q))
    return _render(request, "tables/pit/trainer.html", context)

"""The jackpots' pages under /room/jackpots/: the floor's page (the fund, claims, high hands,
payments, the log), the manager's rules and their printout, the payment slips, and the
jackpot TV screen.

Views check the room role, read the input through a form, call one service and redirect
with a message; a refusal is a message and changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room import events
from room.forms import jackpots as forms
from room.models import JackpotClaim, JackpotPayment, RoomEvent
from room.selectors import jackpots as jackpots_reads
from room.selectors import jackpots as selectors
from room.services import jackpots as services
from tables.ruling.jackpot_labels import reason_texts
from tournaments import permissions
from tournaments.documents import pdf
from tournaments.labels import cents_text

ACTION_LABELS = {
    "cash.jackpot_settings": gettext_lazy("Jackpot rules"),
    "cash.jackpot_claim": gettext_lazy("Bad beat claimed"),
    "cash.jackpot_confirm": gettext_lazy("Bad beat confirmed by the floor"),
    "cash.jackpot_paid": gettext_lazy("Bad-beat jackpot paid"),
    "cash.jackpot_high_hand": gettext_lazy("High hand recorded"),
    "cash.jackpot_high_hand_paid": gettext_lazy("High hand paid"),
}
# Undoing a payment puts money back in the fund: the manager's.
MANAGER_UNDOES = {"cash.jackpot_paid", "cash.jackpot_high_hand_paid", "cash.jackpot_settings"}


def _back() -> HttpResponse:
    return redirect("jackpot_home")


def _log_rows() -> list[tuple[RoomEvent, bool, str, str]]:
    log = (
        RoomEvent.objects.filter(action__in=list(ACTION_LABELS))
        .select_related("actor")
        .order_by("-at", "-id")[:20]
    )
    rows = []
    for event in log:
        data = event.data if isinstance(event.data, dict) else {}
        parts = []
        if type(data.get("table")) is int:
            parts.append(_("table %(table)s") % {"table": data["table"]})
        if type(data.get("cents")) is int:
            parts.append(cents_text(data["cents"]))
        if isinstance(data.get("reasons"), list):
            codes = tuple(r for r in data["reasons"] if isinstance(r, str))
            parts.extend(reason_texts(tuple(c for c in codes if c in selectors.REASON_CODES)))
        rows.append(
            (event, events.can_undo(event), str(ACTION_LABELS[event.action]), " · ".join(parts))
        )
    return rows


@login_required
def jackpot_home(request: HttpRequest) -> HttpResponse:
    """The floor's jackpot page: the fund, the period's high hand, claims to confirm,
    periods to pay, payments with their slips, and the log."""
    held = permissions.require_room_role(request.user, permissions.CASH)
    now = timezone.now()
    settings = jackpots_reads.jackpot_settings()
    context = {
        **selectors.screen(now),
        "claims": selectors.claims(),
        "periods": selectors.periods_to_pay(now),
        "payments": selectors.payments(),
        "log_rows": _log_rows(),
        "is_manager": not held.isdisjoint(permissions.MANAGER),
        "bad_beat_form": forms.BadBeatForm(tournament_claims=settings.tournament_claims),
        "high_hand_form": forms.HighHandForm(tournament_claims=settings.tournament_claims),
        "min_words": selectors.hand_words(settings.bad_beat.min_losing_hand),
        "high_min_words": selectors.hand_words(settings.high_hand.min_hand),
    }
    return render(request, "room/jackpots/home.html", context)


@login_required
def jackpot_settings(request: HttpRequest) -> HttpResponse:
    """The manager sets the jackpot rules in advance, each starting at the spec's value."""
    permissions.require_room_role(request.user, permissions.MANAGER)
    if request.method == "POST":
        form = forms.JackpotSettingsForm(request.POST)
        if form.is_valid():
            ok, _room = run(
                request,
                services.jackpot_settings_save,
                actor=request.user,
                settings=form.settings,
            )
            if ok:
                messages.success(request, _("Jackpot rules saved."))
                return redirect("jackpot_settings")
        else:
            messages.error(request, _("Nothing was saved: correct the rules marked below."))
    else:
        form = forms.JackpotSettingsForm(
            initial=forms.JackpotSettingsForm.initial_from(jackpots_reads.jackpot_settings())
        )
    return render(request, "room/jackpots/settings.html", {"form": form})


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def jackpot_rules(request: HttpRequest) -> HttpResponse:
    """The jackpot rules as printed for the room's wall, set in advance (PDF)."""
    permissions.require_room_role(request.user, permissions.RAKE)
    now = timezone.now()
    settings = jackpots_reads.jackpot_settings()
    blocks = [
        pdf.text(
            _("Set in advance by the room; in force from %(when)s.") % {"when": pdf.shown(now)}
        )
    ]
    for title, rows in selectors.rules_in_words(settings):
        blocks.append(pdf.heading(title))
        blocks.append(pdf.table([_("Rule"), _("Value")], [list(r) for r in rows]))
    blocks.append(
        pdf.text(
            _(
                "A jackpot is a special prize for some hands, funded by an amount taken from "
                "each pot besides the rake (FIGP glossary). A claim is judged on the cards "
                "shown, confirmed by the floor and by a manager, then paid."
            )
        )
    )
    blocks.append(pdf.sign(_("The room manager")))
    return _pdf(pdf.render(_("Jackpot rules"), blocks), "jackpot-rules.pdf")


@login_required
@require_POST
def jackpot_claim(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.CASH)
    settings = jackpots_reads.jackpot_settings()
    form = forms.BadBeatForm(request.POST, tournament_claims=settings.tournament_claims)
    if not form.is_valid():
        form_errors(request, form)
        return _back()
    data = form.cleaned_data
    ok, claim = run(
        request,
        services.claim_bad_beat,
        actor=request.user,
        where=data["table"],
        board=list(data["board"]),
        loser=form.loser,
        winner=form.winner,
        dealt=data["dealt"],
    )
    if ok:
        words = " ".join(reason_texts(tuple(claim.reasons)))
        if claim.status == JackpotClaim.Status.JUDGED:
            messages.success(request, _("The engine pays this bad beat: %(why)s") % {"why": words})
        else:
            messages.warning(request, _("The engine refuses this claim: %(why)s") % {"why": words})
    return _back()


@login_required
@require_POST
def jackpot_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    claim = permissions.room_object(
        JackpotClaim.objects.all(), request.user, permissions.CASH, pk=pk
    )
    ok, claim = run(request, services.claim_confirm, actor=request.user, claim=claim)
    if ok and claim.status == JackpotClaim.Status.PAID:
        messages.success(
            request,
            _("Jackpot paid: %(amount)s. Print the slips and have them signed.")
            % {"amount": cents_text(claim.payment.cents)},
        )
    elif ok:
        messages.success(request, _("Confirmed by the floor: a manager confirms and pays."))
    return _back()


@login_required
@require_POST
def jackpot_high_hand(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.CASH)
    settings = jackpots_reads.jackpot_settings()
    form = forms.HighHandForm(request.POST, tournament_claims=settings.tournament_claims)
    if not form.is_valid():
        form_errors(request, form)
        return _back()
    data = form.cleaned_data
    at = jackpots_reads.moment_at(data["time"], timezone.now()) if data["time"] else None
    ok, claim = run(
        request,
        services.high_hand_record,
        actor=request.user,
        where=data["table"],
        board=list(data["board"]),
        hand=form.hand,
        at=at,
    )
    if ok:
        words = " ".join(reason_texts(tuple(claim.reasons)))
        if claim.status == JackpotClaim.Status.JUDGED:
            messages.success(request, words)
        else:
            messages.warning(request, _("Not a high hand: %(why)s") % {"why": words})
    return _back()


@login_required
@require_POST
def jackpot_pay_period(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.CASH)
    form = forms.PeriodForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a period to pay."))
        return _back()
    ok, payment = run(
        request,
        services.high_hand_pay,
        actor=request.user,
        period_start=form.cleaned_data["start"],
    )
    if ok:
        messages.success(
            request,
            _("High hand paid: %(amount)s. Print the slips and have them signed.")
            % {"amount": cents_text(payment.cents)},
        )
    return _back()


@login_required
def jackpot_slips(request: HttpRequest, pk: int) -> HttpResponse:
    """A payment's slips, one per player paid, each with its signature lines (PDF at
    receipt width)."""
    payment = permissions.room_object(
        JackpotPayment.objects.select_related("paid_by"), request.user, permissions.RAKE, pk=pk
    )
    title = _("Bad-beat jackpot") if payment.kind == "bad_beat" else _("High-hand jackpot")
    blocks: list[pdf.Block] = []
    for share in payment.shares:
        if share.get("role") == "room":
            continue
        if blocks:
            blocks.append(pdf.page_break())
        blocks += [
            pdf.heading(title),
            pdf.text(pdf.shown(payment.at)),
            pdf.text(
                _("Table %(table)s, seat %(seat)s")
                % {"table": share.get("table"), "seat": share.get("seat")}
            ),
            pdf.text(
                f"{selectors.ROLE_LABELS.get(share.get('role'), '')}: {share.get('name') or '—'}"
            ),
            pdf.big(f"€ {cents_text(int(share['cents']))}"),
            pdf.text(_("Jackpot paid in all: %(amount)s") % {"amount": cents_text(payment.cents)}),
            pdf.sign(_("The player")),
            pdf.sign(_("The floor")),
            pdf.sign(_("The manager")),
        ]
    if not blocks:
        raise Http404
    return _pdf(pdf.render(title, blocks, size="receipt"), f"jackpot-{payment.pk}-slips.pdf")


@login_required
@require_POST
def jackpot_undo(request: HttpRequest, event_id: int) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.CASH)
    event = RoomEvent.objects.filter(pk=event_id, action__in=list(ACTION_LABELS)).first()
    if event is None:
        raise Http404
    if event.action in MANAGER_UNDOES:
        permissions.require_room_role(request.user, permissions.MANAGER)
    ok, _undo = run(request, events.room_event_undo, actor=request.user, event_id=event.pk)
    if ok:
        messages.success(request, _("Undone."))
    return _back()


# --- the screens ----------------------------------------------------------------------------


def _screen_context(now: datetime) -> dict[str, Any]:
    return selectors.screen(now)


def jackpot_board(request: HttpRequest) -> HttpResponse:
    """The jackpot TV screen: the jackpot on offer, the backup, the period's high hand with
    its cards, and the moment a jackpot is hit. Refreshed by the cash room's socket."""
    context = _screen_context(timezone.now())
    if request.htmx:
        return render(request, "room/jackpots/board.html#jackpot", context)
    return render(request, "room/jackpots/board.html", context)

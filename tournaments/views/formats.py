"""Event formats on the floor: bounty awards, mystery draws, envelopes, satellite seats.

Views parse with a form, fetch with permissions, call one service, and render or
redirect. An elimination's award is shown before it is confirmed (formats.md §12).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.views import run
from tournaments import permissions
from tournaments.errors import DomainError
from tournaments.forms import formats as format_forms
from tournaments.models import BountyAward, Entry, Event, Tournament
from tournaments.selectors import formats as format_selectors
from tournaments.services import bounties as bounties_services
from tournaments.services import mystery as mystery_services
from tournaments.services import satellites as satellites_services
from tournaments.views.core import event_and_role

SLIP_ACTIONS = ("bounty.award", "mystery.draw", "bounty.own")


def _page(
    request: HttpRequest, tournament: Tournament, role: str | None, **extra: object
) -> HttpResponse:
    pending = []
    awarded: set[int] = set()
    if tournament.bounty_format != "none":
        awarded = set(
            BountyAward.objects.filter(tournament=tournament, voided=False).values_list(
                "eliminated_id", flat=True
            )
        )
        pending = [
            e
            for e in tournament.entries.filter(status=Entry.Status.ELIMINATED)
            .exclude(elimination_reason__in=list(bounties_services.FORFEIT_REASONS))
            .select_related("player")
            .order_by("-ended_at", "-number")[:30]
            if e.pk not in awarded
        ]
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).select_related(
        "player", "seat__table"
    )
    recent = Event.objects.filter(
        tournament=tournament, action__in=SLIP_ACTIONS, undone_at=None
    ).order_by("-pk")[:20]
    winner = tournament.entries.filter(place=1).select_related("player").first()
    forfeitable = []
    if tournament.bounty_format in format_selectors.BOUNTY_FORMATS:
        forfeitable = [
            e
            for e in tournament.entries.filter(
                Q(status=Entry.Status.FORFEITED)
                | Q(
                    status=Entry.Status.ELIMINATED,
                    elimination_reason__in=list(bounties_services.FORFEIT_REASONS),
                )
            ).select_related("player")
            if e.pk not in awarded
        ]
    return render(
        request,
        "formats/bounties.html",
        {
            "tournament": tournament,
            "role": role,
            "split": format_selectors.buy_in_split(tournament),
            "board": format_selectors.bounty_board(tournament),
            "pending": pending,
            "active": [
                {"entry": e, "bounty": format_selectors.bounty_of(e, tournament)} for e in active
            ],
            "recent": recent,
            "winner": winner,
            "forfeitable": forfeitable,
            "form": extra.pop("form", None) or format_forms.AwardForm(),
            "envelopes_form": format_forms.EnvelopesForm(),
            "satellite": format_selectors.satellite_figures(tournament, timezone.now()),
            "tickets": tournament.tickets.filter(voided=False).select_related("player", "target"),
            **extra,
        },
    )


@login_required
def bounties(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.STAFF)
    return _page(request, tournament, role)


def _portions(
    tournament: Tournament, form: format_forms.AwardForm
) -> tuple[Entry, list[list[Entry]]]:
    entries = {e.number: e for e in tournament.entries.select_related("player")}
    eliminated = entries.get(form.cleaned_data["eliminated"])
    if eliminated is None:
        raise DomainError(_("No entry has that number."))
    portions = []
    for key in ("winners", "low_winners"):
        numbers = form.cleaned_data[key]
        if not numbers:
            continue
        missing = [n for n in numbers if n not in entries]
        if missing:
            raise DomainError(_("No entry has number %(number)s.") % {"number": missing[0]})
        portions.append([entries[n] for n in numbers])
    return eliminated, portions


@login_required
@require_POST
def bounty_award(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.FLOOR)
    form = format_forms.AwardForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the fields marked below; nothing was saved."))
        return _page(request, tournament, role, form=form)
    try:
        eliminated, portions = _portions(tournament, form)
        if not form.cleaned_data["confirm"]:
            if tournament.bounty_format == "mystery":
                preview = None
            else:
                preview = bounties_services.bounty_award_preview(
                    tournament=tournament, eliminated=eliminated, portions=portions
                )
            return _page(request, tournament, role, form=form, preview=preview, confirming=True)
    except DomainError as exc:
        messages.error(request, str(exc))
        return _page(request, tournament, role, form=form)
    if tournament.bounty_format == "mystery":
        ok, event = run(
            request,
            mystery_services.mystery_draw_record,
            tournament=tournament,
            eliminated=eliminated,
            portions=portions,
            envelope_code=form.cleaned_data["envelope"],
            actor=request.user,
        )
    else:
        ok, event = run(
            request,
            bounties_services.bounty_award_record,
            tournament=tournament,
            eliminated=eliminated,
            portions=portions,
            actor=request.user,
        )
    if ok:
        messages.success(request, _("Bounty awarded. Print the slip for the cage."))
        return redirect("bounty_slip", slug, event.pk)
    return redirect("bounties", slug)


@login_required
@require_POST
def own_bounty(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    winner = tournament.entries.filter(place=1, status=Entry.Status.ACTIVE).first()
    if winner is None:
        messages.error(request, _("There is no winner yet."))
        return redirect("bounties", slug)
    ok, event = run(
        request,
        bounties_services.own_bounty_record,
        tournament=tournament,
        winner=winner,
        actor=request.user,
    )
    if ok:
        return redirect("bounty_slip", slug, event.pk)
    return redirect("bounties", slug)


@login_required
@require_POST
def bounty_forfeit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.FLOOR)
    form = format_forms.ForfeitForm(request.POST)
    entry = (
        tournament.entries.filter(number=form.cleaned_data["entry"]).first()
        if form.is_valid()
        else None
    )
    if entry is None:
        messages.error(request, _("No entry has that number."))
        return redirect("bounties", slug)
    ok, _event = run(
        request,
        bounties_services.bounty_forfeit_record,
        tournament=tournament,
        entry=entry,
        actor=request.user,
    )
    if ok:
        messages.success(
            request,
            _("The bounty of %(player)s goes to the prize pool.") % {"player": entry.player},
        )
    return redirect("bounties", slug)


@login_required
@require_POST
def envelopes_publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, role = event_and_role(request, slug, permissions.TD)
    form = format_forms.EnvelopesForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors.get("envelopes", [])))
        return redirect("bounties", slug)
    ok, _event = run(
        request,
        mystery_services.envelopes_publish,
        tournament=tournament,
        envelopes=form.cleaned_data["envelopes"],
        actor=request.user,
    )
    if ok:
        messages.success(request, _("Envelopes published."))
    return redirect("bounties", slug)


@login_required
@require_POST
def satellite_award(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.TD)
    try:
        numbers = format_forms._numbers(
            request.POST.get("play_off_winners", "")[:200], required=False
        )
    except forms.ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("bounties", slug)
    ok, _event = run(
        request,
        satellites_services.satellite_award,
        tournament=tournament,
        actor=request.user,
        play_off_winners=list(tournament.entries.filter(number__in=numbers)),
    )
    if ok:
        messages.success(request, _("Seats awarded."))
    return redirect("bounties", slug)


@login_required
def bounty_slip(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    tournament, _role = event_and_role(request, slug, permissions.STAFF)
    event = tournament.events.filter(pk=event_id, action__in=SLIP_ACTIONS).first()
    if event is None:
        raise Http404
    awards = BountyAward.objects.filter(event=event).select_related(
        "winner__player", "eliminated__player"
    )
    return render(
        request,
        "formats/slip.html",
        {"tournament": tournament, "event": event, "awards": awards},
    )

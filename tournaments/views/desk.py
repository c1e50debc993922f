"""The registration desk: find or add a player, sell entries, rebuys and add-ons,
check IDs, and show the drawn seat in large type."""

from __future__ import annotations

import functools
import logging
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config import ratelimit
from config.views import run
from tournaments import permissions, selectors
from tournaments.forms import books as books_forms
from tournaments.forms import desk as desk_forms
from tournaments.models import Entry, IdCheck, Player, Purchase, Seat, Tournament
from tournaments.selectors import formats as format_selectors
from tournaments.services import entries as entry_services
from tournaments.views.qr import front_qr, qr_svg

# Who looked whom up: every desk search, its words and what it found.
audit = logging.getLogger("tournaments.audit")


def _desk(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.DESK)


# The players this user's desk search (or a duplicate warning) showed him, per event, kept
# in his session: a returning player from another event, found by his exact document
# number, can then be registered and checked by his id; an id never shown is not reached.
# Bounded and expiring: a session does not grow into a copy of the room's players.
SHOWN = "desk_shown"
SHOWN_PER_EVENT = 200
SHOWN_EVENTS = 10
SHOWN_FOR = 2 * 60 * 60  # seconds: a desk shift's search stays usable, not a week's


def _remember(request: HttpRequest, tournament: Tournament, players) -> None:
    now = int(timezone.now().timestamp())
    kept = request.session.get(SHOWN)
    kept = kept if isinstance(kept, dict) else {}
    key = str(tournament.pk)
    mine = kept.get(key) if isinstance(kept.get(key), dict) else {}
    mine = {pk: until for pk, until in mine.items() if isinstance(until, int) and until > now}
    for player in players:
        mine.pop(str(player.pk), None)  # re-added last: the newest survive the bound
        mine[str(player.pk)] = now + SHOWN_FOR
    kept.pop(key, None)
    kept[key] = dict(list(mine.items())[-SHOWN_PER_EVENT:])
    request.session[SHOWN] = dict(list(kept.items())[-SHOWN_EVENTS:])


def _shown(request: HttpRequest, tournament: Tournament) -> list[int]:
    now = int(timezone.now().timestamp())
    kept = request.session.get(SHOWN)
    mine = kept.get(str(tournament.pk)) if isinstance(kept, dict) else None
    if not isinstance(mine, dict):
        return []
    return [
        int(pk)
        for pk, until in mine.items()
        if pk.isascii() and pk.isdigit() and isinstance(until, int) and until > now
    ]


def _desk_player(request: HttpRequest, tournament: Tournament, player_id: int) -> Player:
    """A player of the user's events, or one his search here showed him; 404 otherwise."""
    return permissions.desk_player_for(
        request.user, player_id, permissions.STAFF, shown=_shown(request, tournament)
    )


def masked(document_number: str) -> str:
    """A document number as the desk sees it without having typed it: its last two
    characters, enough to tell two namesakes apart, never enough to read it."""
    if not document_number:
        return ""
    return "••••" + (document_number[-2:] if len(document_number) > 4 else "")


def _player_rows(tournament: Tournament, players, *, revealed: str = "") -> list[dict]:
    """The desk's rows; a player's document number is shown whole only when it is
    `revealed` (what the desk typed, exactly), masked otherwise."""
    players = list(players)
    revealed = revealed.strip().casefold()
    ids = [p.pk for p in players]
    entries: dict[int, list[Entry]] = {}
    for entry in tournament.entries.filter(player_id__in=ids).exclude(status=Entry.Status.VOIDED):
        entries.setdefault(entry.player_id, []).append(entry)
    seats = {
        s.entry_id: s
        for s in Seat.objects.select_related("table").filter(
            entry__tournament=tournament, entry__player_id__in=ids
        )
    }
    checked = set(
        IdCheck.objects.filter(tournament=tournament, player_id__in=ids, day=1).values_list(
            "player_id", flat=True
        )
    )
    tickets = format_selectors.tickets_for(tournament, ids)  # satellite seats (formats.md §11.9)
    holders = format_selectors.seat_holders(tournament, ids)
    rows = []
    for player in players:
        mine = entries.get(player.pk, [])
        active = next((e for e in mine if e.status == Entry.Status.ACTIVE), None)
        document = player.document_number
        rows.append(
            {
                "player": player,
                "document": document
                if revealed and document.casefold() == revealed
                else masked(document),
                "entries": len(mine),
                "active": active,
                "seat": seats.get(active.pk) if active else None,
                "id_checked": player.pk in checked,
                "ticket": tickets.get(player.pk),
                "holds_seat": player.pk in holders,
                "can_reenter": bool(mine)
                and active is None
                and tournament.reentry_allowed
                and len(mine) < tournament.max_entries,
            }
        )
    return rows


@login_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    return _desk_page(request, _desk(request, slug), form=desk_forms.PlayerForm())


@functools.lru_cache(maxsize=16)
def _blank_player_form(language: str) -> str:
    """The empty New player form, rendered once per language (every desk page shows it:
    its field templates cost more than the rest of the page)."""
    return desk_forms.PlayerForm().as_div()


def _desk_page(request, tournament: Tournament, *, form, **extra) -> HttpResponse:
    recent = selectors.desk_recent(tournament)
    return render(
        request,
        "desk/desk.html",
        {
            "tournament": tournament,
            "form": form,
            "form_html": form.as_div() if form.is_bound else _blank_player_form(get_language()),
            "recent": recent,
            "figures": selectors.entry_counts(tournament),
            "registration_open": selectors.registration_open(tournament, timezone.now()),
            "split": format_selectors.buy_in_split(tournament),
            "query": request.GET.get("q", "").strip()[:80],
            **extra,
        },
    )


@login_required
def search(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _desk(request, slug)
    query = request.GET.get("q", "").strip()[:80]
    players: list[Player] = []
    limited = False
    if len(query) >= 2:
        limit = ratelimit.PLAYER_SEARCH
        limited = limit.hit(str(request.user.pk)) > limit.limit
        if not limited:
            players = selectors.player_search(query, user=request.user)
            _remember(request, tournament, players)
        audit.info(
            "player search by %s at %s from %s: %r, %s",
            request.user.get_username(),
            tournament.slug,
            ratelimit.client_ip(request),
            query,
            "refused (too many)" if limited else f"{len(players)} found",
        )
    return render(
        request,
        "desk/_results.html",
        {
            "tournament": tournament,
            "rows": _player_rows(tournament, players, revealed=query),
            "query": "" if limited else query,
            "limited": limited,
            "on_sale": selectors.purchases_on_sale(tournament, timezone.now()),
        },
        # htmx swaps no error response: the desk's own search gets the notice as a page.
        status=429 if limited and not request.htmx else 200,
    )


@login_required
@require_POST
def player_new(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _desk(request, slug)
    form = desk_forms.PlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the player's details."))
        return redirect("desk", slug)
    paid_by = books_forms.PaymentForm(request.POST).method()
    if request.POST.get("different_person") != "1":
        duplicates = selectors.player_duplicates(
            tournament,
            user=request.user,
            first_name=form.cleaned_data["first_name"],
            last_name=form.cleaned_data["last_name"],
            document_number=form.cleaned_data["document_number"],
        )
        if duplicates:
            _remember(request, tournament, duplicates)
            # Flag it before registering: one click says it is the same person.
            return _desk_page(
                request,
                tournament,
                form=form,
                duplicates=_player_rows(
                    tournament, duplicates, revealed=form.cleaned_data["document_number"]
                ),
                register="register" in request.POST,
                paid_by=paid_by,
            )
    if "register" in request.POST:
        # One transaction: a refused entry keeps no player row.
        ok, registration = run(
            request,
            entry_services.player_create_and_register,
            tournament=tournament,
            actor=request.user,
            payment_method=paid_by,
            **form.cleaned_data,
        )
        return _registered(request, tournament, registration if ok else None)
    ok, player = run(
        request,
        entry_services.player_create,
        tournament=tournament,
        actor=request.user,
        **form.cleaned_data,
    )
    if not ok:
        return redirect("desk", slug)
    _remember(request, tournament, [player])
    messages.success(request, _("%(player)s added.") % {"player": player})
    return redirect("desk", slug)


def _register(request, tournament: Tournament, player: Player, *, forfeit: bool) -> HttpResponse:
    paid_by = books_forms.PaymentForm(request.POST)
    ok, registration = run(
        request,
        entry_services.entry_register,
        tournament=tournament,
        player=player,
        actor=request.user,
        forfeit=forfeit,
        payment_method=paid_by.method(),
        redeem_ticket=True,  # a satellite's seat ticket pays, in the same transaction
    )
    return _registered(request, tournament, registration if ok else None)


def _registered(request, tournament: Tournament, registration) -> HttpResponse:
    """After a registration: the seat ticket it used, if any, then the seat card."""
    if registration is None:
        return redirect("desk", tournament.slug)
    ticket = registration.ticket
    if ticket is not None:
        messages.success(
            request,
            _("Seat ticket %(code)s from %(satellite)s used: the buy-in is covered.")
            % {"code": ticket.code, "satellite": ticket.satellite.name},
        )
    return redirect("seat_card", tournament.slug, registration.entry.number)


@login_required
@require_POST
def register(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = _desk(request, slug)
    player = _desk_player(request, tournament, player_id)
    return _register(request, tournament, player, forfeit=request.POST.get("forfeit") == "1")


@login_required
@require_POST
def check_id(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = _desk(request, slug)
    player = _desk_player(request, tournament, player_id)
    ok, _check = run(
        request, entry_services.id_check, tournament=tournament, player=player, actor=request.user
    )
    if ok:
        messages.success(request, _("Photo ID checked for %(player)s.") % {"player": player})
    return redirect("desk", slug)


@login_required
def purchase(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    tournament = _desk(request, slug)
    entry = selectors.entry_by_number(tournament, number)
    if entry is None:
        raise Http404
    if kind not in Purchase.Kind.values:
        return redirect("desk", slug)
    form = desk_forms.PurchaseForm(request.POST or None, initial={"key": secrets.token_urlsafe(24)})
    if request.method == "POST":
        if form.is_valid():
            ok, bought = run(
                request,
                entry_services.entry_purchase,
                tournament=tournament,
                entry=entry,
                kind=kind,
                actor=request.user,
                stack=form.cleaned_data["stack"],
                declared_before_hand=form.cleaned_data["declared_before_hand"],
                payment_method=books_forms.PaymentForm(request.POST).method(),
                key=form.cleaned_data["key"],
            )
            if ok:
                messages.success(
                    request,
                    _("%(kind)s sold to %(player)s: %(chips)s chips, %(price)s %(currency)s.")
                    % {
                        "kind": bought.get_kind_display(),
                        "player": entry.player,
                        "chips": bought.chips,
                        "price": bought.price,
                        "currency": tournament.currency,
                    },
                )
                return redirect("desk", slug)
        else:
            messages.error(request, _("Write the stack as a whole number of chips."))
    return render(
        request,
        "desk/purchase.html",
        {
            "tournament": tournament,
            "entry": entry,
            "form": form,
            "kind": kind,
            "kind_label": Purchase.Kind(kind).label,
        },
    )


@login_required
def seat_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _desk(request, slug)
    entry = selectors.entry_by_number(tournament, number, seat=True)
    if entry is None:
        raise Http404
    seat = getattr(entry, "seat", None)  # None when the entry holds no seat
    entry.tournament = tournament  # the card's split of what he paid reads its buy-in
    finder = request.build_absolute_uri(reverse("seat_finder", args=[tournament.slug]))
    return render(
        request,
        "desk/seat_card.html",
        {
            "tournament": tournament,
            "entry": entry,
            "seat": seat,
            # The receipt's number: the event's and the entry's, unique and easy to read.
            "receipt": f"{tournament.pk}-{entry.number:04d}",
            "qr": qr_svg(finder, 3),
            "front_qr": front_qr(request),  # the room's front page
        },
    )


@login_required
@require_POST
def eliminate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.FLOOR)
    entry = selectors.entry_by_number(tournament, number)
    if entry is None:
        raise Http404
    ok, _settlement = run(
        request,
        entry_services.entry_eliminate,
        tournament=tournament,
        entry=entry,
        actor=request.user,
    )
    if ok:
        messages.success(request, _("%(player)s is out.") % {"player": entry.player})
    return redirect("tournament_home", slug)

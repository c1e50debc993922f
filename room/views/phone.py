"""The players' phones: the installable app (manifest, service worker), a player's
notifications page reached by his signed link, its opt-ins and one-tap unsubscribe, and the
answer a cash call's notification posts.

No login anywhere here but the seat card's QR: each address that reaches a player carries
a signed token (room/tokens.py), never an id.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from config.views import form_errors
from room import tokens
from room.forms import phone as forms
from room.models import WaitEntry
from room.selectors import cash as cash_reads
from room.selectors import notify as selectors
from room.services import cash_lists, notify, optins
from room.views.cash_phone import _LinkRefused, _player_from_token, phone_token
from tournaments import permissions
from tournaments.errors import DomainError
from tournaments.models import Entry, Player
from tournaments.selectors import entry_by_number
from tournaments.views.qr import qr_svg

# The service worker's cache name: a new version drops the pages kept by an older one.
SW_VERSION = "1"


def _player(token: str) -> Player:
    try:
        pk = tokens.player_from(token)
    except tokens.BadLink:
        raise Http404 from None
    player = Player.objects.filter(pk=pk, merged_into__isnull=True, erased_at__isnull=True).first()
    if player is None:
        raise Http404
    return player


def _language(request: HttpRequest) -> str:
    known = {code for code, _name in settings.LANGUAGES}
    language = translation.get_language() or settings.LANGUAGE_CODE
    return language if language in known else settings.LANGUAGE_CODE


# --- the installable app ----------------------------------------------------------------


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the players' pages installed as one app on the home screen."""
    data = {
        "name": _("Torneo — my seat"),
        "short_name": "Torneo",
        "start_url": reverse("room_phone_app"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d4d2b",
        "lang": _language(request),
        "icons": [
            {"src": static(f"room/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
            for size in (192, 512)
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served here (not from /static/, whose names change with each
    release) and allowed the whole site as its scope: the players' pages live under /p/,
    /t/ and /room/. It acts only on those (the template lists them)."""
    response = render(
        request, "room/phone/sw.js", {"version": SW_VERSION}, content_type="text/javascript"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def app_home(request: HttpRequest) -> HttpResponse:
    """The app's start page: the player's own pages saved on this phone, and how to get one."""
    return render(request, "room/phone/app.html", {"hide_login": True})


def app_qr(request: HttpRequest) -> HttpResponse:
    """The brush board's QR (a fragment it loads): the app's start page."""
    url = request.build_absolute_uri(reverse("room_phone_app"))
    return render(request, "room/phone/_qr.html", {"qr": qr_svg(url, 4), "kind": "app"})


@login_required
def entry_qr(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seat card's QR (a fragment the card loads at the desk): the player's own
    notifications page. The desk of that event only."""
    tournament = permissions.get_tournament_for(request.user, slug, roles=permissions.DESK)
    entry = entry_by_number(tournament, number)
    if entry is None:
        raise Http404
    url = request.build_absolute_uri(
        reverse("room_notify_page", args=[tokens.player_token(entry.player_id)])
    )
    return render(request, "room/phone/_qr.html", {"qr": qr_svg(url, 3), "kind": "player"})


# --- a player's notifications page ------------------------------------------------------


@never_cache
def notify_page(request: HttpRequest, token: str) -> HttpResponse:
    """His page: where he sits, and notifications on this phone (and by e-mail) on or off."""
    player = _player(token)
    pushes, emails = selectors.opt_ins_of(player)
    seats = (
        Entry.objects.filter(player=player, status=Entry.Status.ACTIVE)
        .select_related("tournament", "seat__table")
        .order_by("-created_at")
    )
    context = {
        "player": player,
        "token": token,
        "seats": seats,
        "vapid_key": notify.vapid_public_key(),
        "email_on": settings.NOTIFY_BY_EMAIL,
        "email_form": forms.EmailOptInForm(),
        "emails": [(e, tokens.off_token("email", e.pk)) for e in emails],
        "pushes": len(pushes),
        "hide_login": True,
    }
    return render(request, "room/phone/notify.html", context)


def _json_form(request: HttpRequest, form_class):
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError, RawPostDataException):
        # Not JSON; or a multipart form, whose stream was read as one before the view.
        data = {}
    if not isinstance(data, dict):
        data = {}
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    return form_class({**{k: v for k, v in data.items() if isinstance(v, str)}, **keys})


def _refused(form) -> JsonResponse:
    words = [str(e) for errors in form.errors.values() for e in errors]
    return JsonResponse({"ok": False, "message": " ".join(words)}, status=400)


@require_POST
def notify_subscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The phone page's script posts the browser's subscription (JSON)."""
    player = _player(token)
    form = _json_form(request, forms.SubscriptionForm)
    if not form.is_valid():
        return _refused(form)
    sub = optins.push_subscribe(
        player=player,
        language=_language(request),
        now=timezone.now(),
        **form.cleaned_data,
    )
    off = reverse("room_notify_off", args=[tokens.off_token("push", sub.pk)])
    return JsonResponse(
        {"ok": True, "message": _("Notifications are on for this phone."), "off": off}, status=201
    )


@require_POST
def notify_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The phone page's "stop": this browser's subscription (JSON: its endpoint)."""
    player = _player(token)
    form = _json_form(request, forms.EndpointForm)
    if not form.is_valid():
        return _refused(form)
    optins.push_unsubscribe(player=player, endpoint=form.cleaned_data["endpoint"])
    return JsonResponse({"ok": True, "message": _("Notifications are off for this phone.")})


@require_POST
def notify_email(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    if not settings.NOTIFY_BY_EMAIL:
        raise Http404
    form = forms.EmailOptInForm(request.POST)
    if form.is_valid():
        optins.email_opt_in(
            player=player,
            email=form.cleaned_data["email"],
            base_url=request.build_absolute_uri("/"),
            language=_language(request),
            now=timezone.now(),
        )
        messages.success(request, _("You will get these notices by e-mail too."))
    else:
        form_errors(request, form)
    return redirect("room_notify_page", token)


@csrf_exempt  # a mail app's one-click unsubscribe posts without our cookie (RFC 8058)
@never_cache
def notify_off(request: HttpRequest, token: str) -> HttpResponse:
    """One tap: the opt-in this link was made for is deleted at once (GET from the e-mail's
    link or the phone page, POST from a mail app's unsubscribe button)."""
    try:
        kind, pk = tokens.off_from(token)
    except tokens.BadLink:
        raise Http404 from None
    optins.opt_out(kind=kind, pk=pk)
    if request.method == "POST" and "List-Unsubscribe" in request.POST:
        return HttpResponse(status=204)
    return render(request, "room/phone/off.html", {"kind": kind, "hide_login": True})


def notify_cash(request: HttpRequest, token: str) -> HttpResponse:
    """From a cash call's notification to his cash phone page (its link of today)."""
    player = _player(token)
    return redirect("cash_phone", phone_token(player))


def notify_from_cash(request: HttpRequest, token: str) -> HttpResponse:
    """From the cash phone page's link to his notifications page."""
    try:
        player = _player_from_token(token)
    except _LinkRefused:
        raise Http404 from None
    return redirect("room_notify_page", tokens.player_token(player.pk))


# --- a cash call answered from its notification -----------------------------------------


@csrf_exempt  # the service worker posts it: the signed link is the capability, no cookie
@require_POST
def notify_answer(request: HttpRequest, token: str) -> HttpResponse:
    """A button of a cash call's notification: on my way, need N more minutes, or cancel.
    Each goes through the list's own answer (and its timer), as the floor's would."""
    try:
        entry_id, player_id, called_at, language = tokens.answer_from(token)
    except tokens.BadLink:
        raise Http404 from None
    with translation.override(language):
        entry = (
            WaitEntry.objects.filter(pk=entry_id, player_id=player_id)
            .select_related("game", "player")
            .first()
        )
        if entry is None or entry.called_at is None or entry.called_at.isoformat() != called_at:
            return JsonResponse(
                {"ok": False, "message": _("This call is over: ask the floor.")}, status=409
            )
        form = forms.AnswerForm(request.POST)
        if not form.is_valid():
            return _refused(form)
        answer = form.cleaned_data["answer"]
        try:
            entry = cash_lists.list_answer(
                actor=None,
                entry=entry,
                takes_seat=answer != "cancel",
                more_minutes=notify.MORE_MINUTES if answer == "more" else 0,
                now=timezone.now(),
            )
        except DomainError as exc:
            return JsonResponse({"ok": False, "message": str(exc)}, status=409)
        if answer == "cancel":
            words = _("Seat declined.")
        else:
            status = cash_reads.call_status(entry, timezone.now())
            deadline = timezone.localtime(status.deadline) if status else timezone.localtime()
            words = _("Your seat is kept: be at the table by %(time)s.") % {
                "time": deadline.strftime("%H:%M")
            }
        return JsonResponse({"ok": True, "message": words})

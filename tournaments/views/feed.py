"""The live feed's read-only JSON API (/api/v1/) and the stream overlays (/s/<token>/overlay/).

The API needs no login and shows only the events whose TD publishes their feed
(`Tournament.feed_public`); every answer is counted per address
(ratelimit.FEED_READS_PER_MINUTE), carries an ETag and may be cached a few seconds by
anyone (a proxy, a CDN), and the document itself is rendered once per change for every
reader (selectors/feed.py). Its stream is a WebSocket (tournaments/sockets/feed.py).

The overlays are pages for a streaming program's browser source (OBS): 1920x1080 with a
transparent background, reached by a stream-overlay screen's secret link like every
screen of the room, live from the feed's updates (static/js/overlay.js).
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from config import ratelimit
from tournaments import permissions
from tournaments.models import DisplayScreen
from tournaments.selectors import feed as feed_selectors

# How long anyone may keep an answer without asking again: a follower of the stream gets
# every change at once; a reader polling the document sees it within this.
MAX_AGE_SECONDS = 5


def _api_headers(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = f"public, max-age={MAX_AGE_SECONDS}"
    # Live-reporting pages of other sites read it from their visitors' browsers.
    response["Access-Control-Allow-Origin"] = "*"
    response["Vary"] = "Accept-Encoding"
    return response


def _refused(request: HttpRequest) -> HttpResponse | None:
    if ratelimit.feed_read_refused(ratelimit.client_ip(request)):
        response = JsonResponse(
            {"error": "rate_limited", "message": _("Too many requests: try again in a minute.")},
            status=429,
        )
        response["Retry-After"] = "60"
        return response
    return None


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    """The events whose feed is public."""
    refused = _refused(request)
    if refused is not None:
        return refused
    events = feed_selectors.public_events()
    for event in events:
        event["url"] = request.build_absolute_uri(reverse("feed_event", args=[event["id"]]))
        event["stream"] = event["url"] + "stream"
    return _api_headers(JsonResponse({"v": feed_selectors.API_VERSION, "events": events}))


@require_GET
def event_feed(request: HttpRequest, event: str) -> HttpResponse:
    """One event's document, by its key or its address; 304 to a reader that has it."""
    refused = _refused(request)
    if refused is not None:
        return refused
    tournament = feed_selectors.public_event(event)
    if tournament is None:
        return JsonResponse(
            {"error": "not_found", "message": _("No public live feed at this address.")},
            status=404,
        )
    text, etag = feed_selectors.cached_document(tournament, timezone.now())
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(text, content_type="application/json")
    response["ETag"] = etag
    return _api_headers(response)


# --- Stream overlays --------------------------------------------------------------------

OVERLAYS = {
    "clock": "clock",
    "final-table": "final_table",
    "payouts": "payouts",
    "elimination": "elimination",
}


def _overlay_screen(token) -> DisplayScreen:
    screen = permissions.get_screen(str(token))
    if screen.kind != DisplayScreen.Kind.OVERLAY:
        raise Http404
    return screen


def overlay(request: HttpRequest, token, part: str) -> HttpResponse:
    """One overlay (`part`: clock, final-table, payouts, elimination) for a browser source."""
    screen = _overlay_screen(token)
    if part not in OVERLAYS:
        raise Http404
    tournament = screen.tournament
    text, _etag = feed_selectors.cached_document(tournament, timezone.now())
    return render(
        request,
        "displays/overlay.html",
        {
            "tournament": tournament,
            "part": OVERLAYS[part],
            "document": json.loads(text),
            "socket_url": f"/ws/screens/{screen.token}/feed/",
        },
    )


def overlay_index(request: HttpRequest, token) -> HttpResponse:
    """A stream-overlay screen's own link: its overlays' addresses, for the streaming
    program's browser sources."""
    screen = _overlay_screen(token)
    links = [
        (part, request.build_absolute_uri(reverse("overlay", args=[screen.token, part])))
        for part in OVERLAYS
    ]
    return render(
        request,
        "displays/overlay_index.html",
        {"tournament": screen.tournament, "screen": screen, "links": links},
    )

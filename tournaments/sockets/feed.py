"""The live feed's stream: a WebSocket per follower, fed from the event's feed group.

Two ways in:

- `/api/v1/events/<event>/stream` (the event's key or address): anyone, for an event whose
  TD publishes its feed; counted per address (ratelimit.FEED_STREAMS). No session, no
  cookie is read, so the origin is not checked (config/asgi.py): a live-reporting site's
  page or server may follow it.
- `/ws/screens/<token>/feed/`: a stream overlay of the room (templates/displays/overlay.html),
  by its screen's secret link, whether or not the feed is public.

On connect a follower gets the whole document (selectors/feed.py, rendered once per
version for every reader), then each update as the event changes, rendered once after
the change's commit (realtime.send_feed) and written by the process's hub to every local
follower (config/speedups/hub.py): a thousand followers cost one rendering and one
frame, as a thousand clock screens do (`manage.py bench feed`). A follower may send
`{"type": "ping"}` (answered with the server's time, for a countdown) or
`{"type": "state"}` (the whole document again); anything else is ignored.

Why a WebSocket and not Server-Sent Events: the room's screens already ride one channel
subscription per process and a frame written once to every socket; a stream of HTTP
responses through Django's handler would wake one task per follower for every update.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from config import ratelimit
from config.speedups.coalesce import coalescer
from tournaments import realtime
from tournaments.models import DisplayScreen, Tournament
from tournaments.selectors import feed as feed_selectors
from tournaments.sockets import layerwatch
from tournaments.sockets.codes import NOT_FOUND, TRY_AGAIN_LATER
from tournaments.sockets.consumer import FastRoomConsumer, RoomConsumer


@database_sync_to_async
def _authorise(scope: dict[str, Any]) -> tuple[Tournament, DisplayScreen | None]:
    kwargs = scope["url_route"]["kwargs"]
    if "token" in kwargs:
        screen = (
            DisplayScreen.objects.select_related("tournament")
            .filter(token=kwargs["token"], revoked=False, kind=DisplayScreen.Kind.OVERLAY)
            .first()
        )
        if screen is None:
            raise LookupError
        return screen.tournament, screen
    tournament = feed_selectors.public_event(str(kwargs.get("event", "")))
    if tournament is None:
        raise LookupError
    return tournament, None


@database_sync_to_async
def _document(tournament_id: int) -> str | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    return feed_selectors.cached_document(tournament, timezone.now())[0]


def _address(scope: dict[str, Any]) -> str:
    """The follower's address as ratelimit.client_ip reads a request's."""
    client = scope.get("client") or ("unknown", 0)
    forwarded = ""
    for name, value in scope.get("headers") or []:
        if name == b"x-forwarded-for":
            forwarded = value.decode("latin-1")[:500]
    return ratelimit.address_of(str(client[0]), forwarded)


@database_sync_to_async
def _refused(scope: dict[str, Any]) -> bool:
    return ratelimit.feed_stream_refused(_address(scope))


class FeedConsumer(RoomConsumer):
    """A follower of an event's live feed (public, or a stream overlay by its link)."""

    async def connect(self) -> None:
        public = "event" in self.scope["url_route"]["kwargs"]
        # Counted in a thread (the cache may be Redis), only where a limit is set.
        limited = getattr(settings, "FEED_STREAMS_PER_MINUTE", 0) > 0
        if public and limited and await _refused(self.scope):
            await self.close(code=TRY_AGAIN_LATER)
            return
        try:
            tournament, screen = await self._feed_authorise()
        except LookupError:
            await self.close(code=NOT_FOUND)
            return
        self.tournament_id = tournament.pk
        self.language = settings.LANGUAGE_CODE
        self.screen = None  # a follower sends no screen's commands
        self.role = None
        self.groups_joined = [realtime.feed_group(tournament.pk)]
        if screen is not None:
            # Revoking the overlay's screen closes it (realtime.screen_group).
            self.groups_joined.append(realtime.screen_group(screen.pk))
        await self._join(self.groups_joined)
        await self.accept()
        # Read after joining, so no update made meanwhile is lost.
        await self._send_document()
        self._ready()
        layerwatch.watch(self)

    async def _feed_authorise(self) -> tuple[Tournament, DisplayScreen | None]:
        return await _authorise(self.scope)

    async def _feed_document(self) -> str | None:
        return await _document(self.tournament_id)

    async def _send_document(self) -> None:
        text = await self._feed_document()
        if text is None:
            await self.close(code=NOT_FOUND)
            return
        await self.send(text_data=text)

    async def _receive(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send(
                text_data=json.dumps(
                    {
                        "type": "pong",
                        "t": content.get("t"),
                        "server_time": timezone.now().isoformat(),
                    }
                )
            )
        elif kind == "state":
            await self._send_document()


class FastFeedConsumer(FeedConsumer, FastRoomConsumer):
    """`FeedConsumer` receiving the updates through the process's hub, and sharing with
    the followers connecting at once the event read by its address and the document
    (config/speedups/coalesce.py) (config/speedups/switch.py)."""

    async def _feed_authorise(self) -> tuple[Tournament, DisplayScreen | None]:
        kwargs = self.scope["url_route"]["kwargs"]
        key = ("feed", str(kwargs.get("event", "")), str(kwargs.get("token", "")))
        return await coalescer()(key, lambda: _authorise(self.scope))

    async def _feed_document(self) -> str | None:
        tournament_id = self.tournament_id
        return await coalescer()(("feed-document", tournament_id), lambda: _document(tournament_id))

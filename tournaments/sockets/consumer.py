"""WebSocket consumers: authorise on connect, join groups, forward pushes (STYLE.md 12).

One consumer serves every screen in the room. It is reached either by a screen's secret
token (`ws/screens/<token>/`) or by a tournament's slug (`ws/t/<slug>/`: the public clock,
or a staff console when the session holds a role). Messages from the client:

- `{"type": "ping", "t": <client ms>}` -> `{"type": "pong", "t": ..., "server_time": ...}`,
  so screens estimate their offset to the server;
- `{"type": "state"}` -> the whole clock state, structure and all (a screen that holds
  other levels than a clock push names);
- `{"type": "control", "action": ...}` -> the same service the console's POST calls;
  refused with `{"type": "error"}` for any role that may not do it;
- `{"type": "hand", "action": "done" | "start"}` from a table tablet (its own table);
- `{"type": "timecall", "action": "start" | "acted" | "cancel" | "expire", "seat": N,
  "facing_bet": bool, "seconds_used": N, "call": id}` from a table tablet: the clock on
  a seat of its own table (tournament.md §18).

`RoomConsumer` is written as Channels' documentation writes one: a channel-layer
membership per socket per group, and a `push` handler sending each push with `self.send`.
`FastRoomConsumer` (config/speedups/switch.py chooses) receives pushes through the process's
hub instead (config/speedups/hub.py): one channel-layer subscription per group per
process, written to every local socket, and shares the reads of sockets connecting at
once (config/speedups/coalesce.py).

When the channel layer fails (Redis down or restarted) the socket is closed with 1012:
the screen reconnects and gets the whole state again (tournaments/sockets/layerwatch.py).
"""

from __future__ import annotations

import contextlib
import logging
import time
from importlib import import_module
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from config.speedups.coalesce import coalescer
from config.speedups.hub import Hub, hub_for
from tournaments import permissions, realtime, selectors
from tournaments.controls import TIMECALL_ACTIONS, control_action
from tournaments.errors import DomainError
from tournaments.models import DisplayScreen, Role, Tournament
from tournaments.services import level_announcements as announcement_services
from tournaments.services import timecalls as timecall_services
from tournaments.sockets import layerwatch
from tournaments.sockets.codes import NOT_FOUND, REVOKED, RIGHTS_CHANGED, SERVICE_RESTART

logger = logging.getLogger(__name__)

# A staff console's socket logs missed boundaries at most this often (see _receive).
CATCH_UP_SECONDS = 30


@database_sync_to_async
def _authorise(scope: dict[str, Any]) -> tuple[Tournament, DisplayScreen | None, str | None]:
    kwargs = scope["url_route"]["kwargs"]
    if "token" in kwargs:
        screen = (
            DisplayScreen.objects.select_related("tournament")
            .filter(token=kwargs["token"], revoked=False)
            .first()
        )
        if screen is None:
            raise LookupError
        return screen.tournament, screen, None
    tournament = Tournament.objects.filter(slug=kwargs["slug"]).first()
    if tournament is None:
        raise LookupError
    if permissions.is_pin_session(scope.get("session")):
        # A tablet unlocked by PIN sends nothing here: it listens as the public does.
        return tournament, None, None
    return tournament, None, permissions.role_for(scope.get("user"), tournament)


@database_sync_to_async
def _payload(tournament_id: int) -> dict[str, Any]:
    tournament = Tournament.objects.get(pk=tournament_id)
    return selectors.clock_payload(tournament, timezone.now())


@database_sync_to_async
def _catch_up(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    now = timezone.now()
    announcement_services.clock_catch_up(tournament=tournament, now=now)
    timecall_services.timecall_catch_up(tournament=tournament, now=now)


@database_sync_to_async
def _control(
    tournament_id: int,
    role: str | None,
    user,
    message: dict[str, Any],
    language: str,
    session_key: str | None = None,
) -> None:
    tournament = selectors.tournament_by_pk(tournament_id)
    if tournament is None:
        raise Tournament.DoesNotExist("Tournament matching query does not exist.")
    if user is not None:
        # A staff socket acts with the person's rights now, not those it connected with:
        # a TD demoted or logged out since is refused.
        role = current_role(user, tournament, session_key)
    with translation.override(language):
        control_action(tournament=tournament, role=role, actor=user, message=message)


def current_role(user, tournament: Tournament, session_key: str | None) -> str | None:
    """The user's role in the tournament as the database says now, or None once the
    session that opened the socket is gone (logged out) or the account is disabled."""
    if not getattr(user, "is_authenticated", False) or not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    if str(store.get(SESSION_KEY)) != str(user.pk):
        return None
    if permissions.is_pin_session(store):
        return None  # unlocked by a tablet's PIN: no staff command, whatever its roles
    fresh = permissions.active_user(user.pk)
    if fresh is None:
        return None
    return permissions.role_for(fresh, tournament)


def language_from_scope(scope: dict[str, Any]) -> str:
    """The socket's language, chosen as LocaleMiddleware chooses a page's: the language
    cookie, then the browser's Accept-Language, then the site's default."""
    from django.utils.translation import trans_real

    candidates = [(scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME) or ""]
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            header = value.decode("latin-1")[:500]
            candidates += [code for code, _q in trans_real.parse_accept_lang_header(header)]
    for code in candidates:
        if code and code != "*":
            try:
                return trans_real.get_supported_language_variant(code)
            except LookupError:
                continue
    return settings.LANGUAGE_CODE


@database_sync_to_async
def _screen_alive(screen_id: int) -> bool:
    return DisplayScreen.objects.filter(pk=screen_id, revoked=False).exists()


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """A screen, a phone or a console: read and push, control through services."""

    groups_joined: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except (RedisError, OSError) as exc:
            # The channel layer failed: this socket would miss every push from now on.
            # Close it so the screen reconnects and gets the whole state.
            logger.warning("closing a socket: the channel layer failed (%r)", exc)
            layerwatch.forget(self)
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": SERVICE_RESTART})

    async def connect(self) -> None:
        try:
            tournament, screen, role = await self._authorise()
        except LookupError:
            await self.close(code=NOT_FOUND)
            return
        self.tournament_id = tournament.pk
        self.language = language_from_scope(self.scope)
        self.screen = screen
        self.role = role
        self.groups_joined = [realtime.tournament_group(tournament.pk)]
        if screen is not None:
            self.groups_joined.append(realtime.screen_group(screen.pk))
            if screen.kind == DisplayScreen.Kind.TABLE and screen.table_number:
                self.groups_joined.append(realtime.table_group(tournament.pk, screen.table_number))
                # Heard by a push while any table of the room has a tablet (no push is
                # sent to it): a room without tablets asks nothing about its tables.
                self.groups_joined.append(realtime.tablets_group(tournament.pk))
        else:
            # A person's socket closes when their role changes or they log out: it
            # reconnects and is authorised afresh.
            user = self.scope.get("user")
            if getattr(user, "is_authenticated", False):
                self.groups_joined.append(realtime.user_group(user.pk))
            session_key = getattr(self.scope.get("session"), "session_key", None)
            if session_key:
                self.groups_joined.append(realtime.session_group(session_key))
        await self._join(self.groups_joined)
        await self.accept()
        # Read after joining, so no push made meanwhile is lost.
        await self.send_json(await self._state(tournament.pk))
        self._ready()
        layerwatch.watch(self)

    async def _join(self, groups: list[str]) -> None:
        # A push that arrives before the initial state waits in the socket's channel:
        # Channels handles one message at a time, and `connect` is one.
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    def _ready(self) -> None:
        """The socket has its initial state."""

    async def _state(self, tournament_id: int) -> dict[str, Any]:
        return await _payload(tournament_id)

    async def _authorise(self) -> tuple[Tournament, DisplayScreen | None, str | None]:
        return await _authorise(self.scope)

    async def push(self, message: dict[str, Any]) -> None:
        """A push of tournaments/realtime.py: its JSON text, or a close naming its reason."""
        close = message.get("close")
        if close:
            # A change of rights (come back) or a revocation.
            await self.close(code=RIGHTS_CHANGED if close == "rights" else REVOKED)
        else:
            await self.send(text_data=message["text"])

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        # Junk from a client is answered with an error, never a crashed socket
        # (deeply nested arrays overflow the parser's stack: RecursionError).
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):
            return None

    async def receive(self, text_data: str | None = None, bytes_data=None, **kwargs: Any) -> None:
        # The base class raises on a binary or empty frame, which closes the socket.
        await self.receive_json(await self.decode_json(text_data) if text_data else None)

    async def disconnect(self, code: int) -> None:
        layerwatch.forget(self)
        await self._leave()

    async def _leave(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Messages are in the language of the page that opened the socket.
        with translation.override(getattr(self, "language", settings.LANGUAGE_CODE)):
            await self._receive(content)

    async def _receive(self, content: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "message": _("Not a message.")})
            return
        kind = content.get("type")
        if kind == "ping":
            await self.send_json(
                {"type": "pong", "t": content.get("t"), "server_time": timezone.now().isoformat()}
            )
            if self.role is not None and self.screen is None:
                # A staff console pings every minute: without a broker, a level change or
                # a time call that ran out with nobody to record it is logged here (never
                # by a GET). With a broker the tasks have done it and this finds nothing.
                now = time.monotonic()
                if now - getattr(self, "caught_up_at", -CATCH_UP_SECONDS) >= CATCH_UP_SECONDS:
                    self.caught_up_at = now
                    await _catch_up(self.tournament_id)
        elif kind == "state":
            # A screen whose levels are not the ones a clock push names (it missed a change
            # of the structure) asks for the whole state, as it gets on connecting: the
            # clock is every socket's to read, and a revoked screen's link reads nothing.
            if self.screen is not None and not await _screen_alive(self.screen.pk):
                await self.send_json({"type": "error", "message": _("Not allowed.")})
                return
            await self.send_json(await self._state(self.tournament_id))
        elif kind == "control":
            await self._run(self.role, content)
        elif kind == "hand" and self.screen is not None and self.screen.table_number:
            report = content.get("action")
            action = {"done": "h4h_table_done", "start": "eod_hand"}.get(
                report if isinstance(report, str) else ""
            )
            if action is None or not await _screen_alive(self.screen.pk):
                await self.send_json({"type": "error", "message": _("Not allowed.")})
                return
            # A tablet acts as floor staff for its own table only.
            message = {"action": action, "table": self.screen.table_number}
            await self._run(Role.FLOOR, message)
        elif kind == "timecall" and self._is_tablet():
            action = content.get("action")
            if action not in TIMECALL_ACTIONS or not await _screen_alive(self.screen.pk):
                await self.send_json({"type": "error", "message": _("Not allowed.")})
                return
            # The clock on a seat of its own table only, as the floor would call it.
            message = {
                **{k: content.get(k) for k in ("seat", "facing_bet", "seconds_used", "call")},
                "action": f"timecall_{action}",
                "table": self.screen.table_number,
            }
            await self._run(Role.FLOOR, message)
        else:
            await self.send_json({"type": "error", "message": _("Not allowed.")})

    def _is_tablet(self) -> bool:
        return (
            self.screen is not None
            and self.screen.kind == DisplayScreen.Kind.TABLE
            and bool(self.screen.table_number)
        )

    async def _run(self, role: str | None, message: dict[str, Any]) -> None:
        user = self.scope.get("user") if self.screen is None else None
        session = self.scope.get("session")
        session_key = getattr(session, "session_key", None)
        try:
            await _control(
                self.tournament_id, role, user, message, translation.get_language(), session_key
            )
        except DomainError as exc:
            await self.send_json({"type": "error", "message": str(exc)})
            return
        await self.send_json({"type": "ok", "action": message.get("action")})


class FastRoomConsumer(RoomConsumer):
    """`RoomConsumer` receiving pushes through the process's hub, sharing the reads of
    the sockets that connect at once, without Channels' per-message hop to close stale
    database connections (config/speedups/switch.py)."""

    hub: Hub | None = None

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the socket ends (a handler may raise), it leaves the hub's groups.
            if self.hub is not None:
                self.hub.leave(self)

    async def _join(self, groups: list[str]) -> None:
        # One subscription per group for the whole process; pushes that arrive before
        # the initial state is sent wait for it (hub.release).
        self.hub = hub_for(self.channel_layer)
        await self.hub.join(self, groups)
        # A push made here from now on renders for this socket, even if one just now
        # found nobody listening.
        realtime.heard_anew(self.channel_layer, groups)

    def _ready(self) -> None:
        assert self.hub is not None
        self.hub.release(self)

    async def _state(self, tournament_id: int) -> dict[str, Any]:
        # Shared with the sockets connecting meanwhile (coalesce.py).
        return await coalescer()(("state", tournament_id), lambda: _payload(tournament_id))

    async def _leave(self) -> None:
        if self.hub is not None:
            self.hub.leave(self)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler: one hop to
        # the database thread per message, queued behind every socket's reads when a
        # room reconnects. Each database call here is a database_sync_to_async, which
        # closes them itself, before and after.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _authorise(self) -> tuple[Tournament, DisplayScreen | None, str | None]:
        """Who this socket is. A screen's link, or anybody not logged in, reads the same
        as every socket with the same address connecting meanwhile: one read for all."""
        kwargs = self.scope["url_route"]["kwargs"]
        user = self.scope.get("user")
        if "token" in kwargs:
            key: tuple[str, str] = ("screen", str(kwargs["token"]))
        elif not getattr(user, "is_authenticated", False):
            key = ("public", str(kwargs["slug"]))
        else:
            return await _authorise(self.scope)  # a role of his own
        return await coalescer()(key, lambda: _authorise(self.scope))

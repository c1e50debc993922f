"""Group names and broadcasting: one module owns them (STYLE.md 10-11).

Services call `broadcast_*` inside their transaction; the message leaves after commit, so
a rolled-back action never reaches a screen. A broadcast that fails (Redis down or
restarting) is logged and dropped: the action is already committed, and every screen gets
the whole state again when it reconnects (the consumers close their sockets when the
channel layer fails, see tournaments/sockets/layerwatch.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def table_group(tournament_id: int, table_number: int) -> str:
    return f"tournament.{tournament_id}.table.{table_number}"


def _send(group: str, payload: dict[str, Any]) -> None:
    _send_many((group,), payload)


def _send_many(groups: tuple[str, ...], payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    # Payloads must be plain JSON: fail loudly on a stray datetime (STYLE.md 14). Encoded
    # once here, not once per socket: a clock change reaches a thousand phones, and the
    # in-memory layer deep-copies the message for each of them.
    # A "close" payload closes the sockets instead; its reason picks the close code
    # (tournaments/sockets/codes.py): "rights" is come back, anything else is revoked.
    close = payload.get("type") == "close" and str(payload.get("reason") or "revoked")
    message = {"type": "push", "text": json.dumps(payload), "close": close}

    async def send_all() -> None:
        # One hop into the event loop for every group: a move reaches three groups.
        for group in groups:
            await layer.group_send(group, message)

    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            async_to_sync(send_all)()
            return
        # A sync caller on a thread that runs an event loop cannot block on it: send from a
        # short-lived worker thread instead.
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(async_to_sync(send_all)).result()
    except Exception:  # noqa: BLE001 - the layer is down: the action stands, screens resync
        logger.warning(
            "broadcast to %s failed; screens resync on reconnect", ", ".join(groups), exc_info=True
        )


def broadcast(tournament_id: int, payload: dict[str, Any], *, tables: tuple[int, ...] = ()) -> None:
    """Send `payload` to the tournament's screens (and the named tables) after commit."""

    groups = (tournament_group(tournament_id), *(table_group(tournament_id, n) for n in tables))

    def send() -> None:
        _send_many(groups, payload)

    transaction.on_commit(send)


def screen_group(screen_id: int) -> str:
    """One screen's own group: revoking it closes its open sockets."""
    return f"screen.{screen_id}"


def broadcast_to_screen(screen_id: int, payload: dict[str, Any]) -> None:
    """Send `payload` to one screen's sockets after commit."""
    transaction.on_commit(lambda: _send(screen_group(screen_id), payload))


def user_group(user_id: int) -> str:
    """One person's sockets, all tournaments: a change of role closes them."""
    return f"user.{user_id}"


def session_group(session_key: str) -> str:
    """The sockets one login session opened: logging out closes them. The key is a
    secret, so the group is named by a digest of it."""
    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def close_user_sockets(user_id: int) -> None:
    """Close every socket the person has open (after commit): their screens reconnect and
    are authorised afresh with the role they hold now (issue 12, item 3)."""
    payload = {"type": "close", "reason": "rights"}
    transaction.on_commit(lambda: _send(user_group(user_id), payload))


def close_session_sockets(session_key: str) -> None:
    """Close the sockets a session opened (it is logging out): they come back anonymous."""
    payload = {"type": "close", "reason": "rights"}
    transaction.on_commit(lambda: _send(session_group(session_key), payload))

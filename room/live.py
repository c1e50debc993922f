"""The dealers' screens' group (`ws/room/dealers/`): the board, the floor's page and the
tablets' relief line listen on it. As the cash room's socket, a push carries no data, only
that the dealers' plan changed: every screen then reads its own part through its own view.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

DEALERS_GROUP = "room.dealers"


def _send(text: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "push", "text": text}
    send = async_to_sync(layer.group_send)
    try:
        try:
            send(DEALERS_GROUP, message)
        except RuntimeError:
            # Called from a thread that runs an event loop: send from a short-lived worker.
            with ThreadPoolExecutor(max_workers=1) as pool:
                pool.submit(send, DEALERS_GROUP, message).result()
    except Exception:  # noqa: BLE001 - the change is committed; screens catch up on reconnect
        logger.warning("could not push the dealers' change", exc_info=True)


def broadcast_dealers(action: str) -> None:
    """Tell every dealers' screen, after commit, that the plan changed (`action` names what)."""
    text = '{"type": "dealers", "v": 1, "action": "%s"}' % action.replace('"', "")
    transaction.on_commit(lambda: _send(text))

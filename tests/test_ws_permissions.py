"""Every WebSocket message type x every kind of socket: allowed or refused, table-driven.

The sockets: the public slug socket (anonymous), the slug socket with a session of an
outsider, the desk, the floor and the TD, and screens of every kind by their token. Each
row says which sockets may send the message; before every attempt the tournament is put
in a state where the action would succeed, so a refusal is the permission's, and it must
leave the clock's version and the event log as they were, while an allowed action changes
both. A clock action added to controls.CONTROLS, or a message type added to the
consumer, without a row here fails `test_every_control_has_a_row` /
`test_every_message_type_has_a_row`.
"""

from __future__ import annotations

import datetime as dt
import inspect
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from config.asgi import application
from tournaments import controls
from tournaments.models import DisplayScreen, Event, StaffAssignment, Table, Tournament
from tournaments.services import clock as clock_services
from tournaments.services import endofday as endofday_services
from tournaments.services import handforhand as handforhand_services
from tournaments.sockets import consumer as consumers

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")
STAFF_SOCKETS = ("anonymous", "outsider", "desk", "floor", "td")
SCREEN_SOCKETS = ("clock_screen", "seating_screen", "table_screen", "unnumbered_table_screen")
SOCKETS = STAFF_SOCKETS + SCREEN_SOCKETS

EVERYONE = frozenset(SOCKETS)
NOBODY: frozenset[str] = frozenset()
TD = frozenset({"td"})
FLOOR = frozenset({"td", "floor"})
TABLET = frozenset({"table_screen"})  # a table's tablet, for its own table only


@dataclass(frozen=True)
class Row:
    message: Any  # what the client sends (a dict, or raw text when a str)
    allowed: frozenset[str]
    state: str = "running"  # the tournament's state before the attempt (see STATES)
    changes: bool = True  # an allowed message changes the clock (False: ping)
    extra: dict = field(default_factory=dict)


# Console actions over the socket: controls.CONTROLS, one row each.
CONTROL_ROWS: dict[str, Row] = {
    "start": Row({"action": "start"}, TD, state="fresh"),
    "pause": Row({"action": "pause"}, TD),
    "resume": Row({"action": "resume"}, TD, state="paused"),
    "toggle": Row({"action": "toggle"}, TD),
    "adjust": Row({"action": "adjust", "seconds": 60}, TD),
    "next": Row({"action": "next"}, TD),
    "previous": Row({"action": "previous"}, TD, state="level2"),
    "jump": Row({"action": "jump", "index": 3}, TD),
    "h4h_start": Row({"action": "h4h_start"}, TD),
    "h4h_stop": Row({"action": "h4h_stop"}, TD, state="h4h"),
    "h4h_next_hand": Row({"action": "h4h_next_hand"}, TD, state="h4h"),
    "h4h_table_done": Row({"action": "h4h_table_done", "table": 1}, FLOOR, state="h4h"),
    "eod_start": Row({"action": "eod_start", "card": "5", "last_level_of_day": True}, TD),
    "eod_hand": Row({"action": "eod_hand", "table": 1}, FLOOR, state="eod"),
    "eod_stop": Row({"action": "eod_stop"}, TD, state="eod"),
}

# Every other message, by type.
MESSAGE_ROWS: dict[str, Row] = {
    "ping": Row({"type": "ping", "t": 1234}, EVERYONE, changes=False),
    # The whole clock state, as on connecting: every socket reads the clock.
    "state": Row({"type": "state"}, EVERYONE, changes=False),
    "control: unknown action": Row({"type": "control", "action": "drop_tables"}, NOBODY),
    "control: no action": Row({"type": "control"}, NOBODY),
    "hand: done": Row({"type": "hand", "action": "done"}, TABLET, state="h4h"),
    "hand: start": Row({"type": "hand", "action": "start"}, TABLET, state="eod"),
    "hand: unknown": Row({"type": "hand", "action": "dealt"}, NOBODY, state="h4h"),
    # A tablet reports for its own table: a table field in the message is ignored.
    "hand: another table": Row({"type": "hand", "action": "done", "table": 2}, TABLET, state="h4h"),
    "unknown type": Row({"type": "drop_tables"}, NOBODY),
    "not an object": Row(["control", "pause"], NOBODY),
    "not JSON": Row("{not json", NOBODY),
}

ROWS: dict[str, Row] = {
    **{
        f"control: {action}": Row({"type": "control", **row.message}, row.allowed, row.state)
        for action, row in CONTROL_ROWS.items()
    },
    **MESSAGE_ROWS,
}


# Time calls need a seated player and a running call, so their socket-by-socket matrix
# lives beside them: tests/tournaments/sockets/test_timecall_consumer.py (every socket kind tries
# each action; only floor/TD consoles and the table's own tablet succeed).
ELSEWHERE = {"timecall_start", "timecall_acted", "timecall_cancel", "timecall_expire"}
MESSAGE_TYPES_ELSEWHERE = {"timecall"}


def test_every_control_has_a_row():
    assert set(controls.CONTROLS) == set(CONTROL_ROWS) | ELSEWHERE


def test_every_message_type_has_a_row():
    """Message types the consumer dispatches on (`kind == "..."`) each have rows."""
    source = inspect.getsource(consumers.RoomConsumer._receive)
    handled = set(re.findall(r"""kind\s*==\s*["'](\w+)["']""", source))
    handled |= {
        name
        for group in re.findall(r"kind\s+in\s+[\(\[\{]([^)\]}]*)", source)
        for name in re.findall(r"""["'](\w+)["']""", group)
    }
    assert handled, "the consumer's dispatch was not found: update this test"
    covered = {row.message.get("type") for row in ROWS.values() if isinstance(row.message, dict)}
    assert handled <= covered | MESSAGE_TYPES_ELSEWHERE, handled - covered


def test_every_action_is_refused_to_someone():
    """No row is open to every socket by mistake, except the ping and reading the clock."""
    for name, row in ROWS.items():
        assert row.allowed != EVERYONE or name in {"ping", "state"}, name


# --- The room ----------------------------------------------------------------------------

CLOCK_FIELDS = [
    f.attname
    for f in Tournament._meta.concrete_fields
    if f.attname.startswith(("clock_", "h4h_", "eod_"))
]


def _clock_row(tournament_id: int) -> dict:
    return Tournament.objects.filter(pk=tournament_id).values(*CLOCK_FIELDS).get()


def _headers(user) -> list[tuple[bytes, bytes]]:
    if user is None:
        return [ORIGIN]
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())]


@pytest.fixture
def room(tournament, td):
    """Two tables in play, a user per staff role, a screen of every kind, and the
    tournament's clock in each state a row may need (stored, restored before each try)."""
    Table.objects.filter(tournament=tournament, number__in=[1, 2]).update(status="open")
    users: dict[str, Any] = {"anonymous": None, "td": td}
    for role in ("outsider", "desk", "floor"):
        users[role] = get_user_model().objects.create(username=role)
        if role != "outsider":
            StaffAssignment.objects.create(tournament=tournament, user=users[role], role=role)
    screens = {
        "clock_screen": DisplayScreen.objects.create(tournament=tournament, name="C"),
        "seating_screen": DisplayScreen.objects.create(
            tournament=tournament, name="S", kind="seating"
        ),
        "table_screen": DisplayScreen.objects.create(
            tournament=tournament, name="T1", kind="table", table_number=1
        ),
        "unnumbered_table_screen": DisplayScreen.objects.create(
            tournament=tournament, name="T?", kind="table"
        ),
        "revoked_screen": DisplayScreen.objects.create(
            tournament=tournament, name="R", kind="table", table_number=1, revoked=True
        ),
    }
    now = timezone.now()
    states = {"fresh": _clock_row(tournament.pk)}
    # Ten minutes left in level 1: inside the final hands' window (5-15 minutes).
    clock_services.clock_start(tournament=tournament, actor=td, now=now - dt.timedelta(minutes=10))
    states["running"] = _clock_row(tournament.pk)
    clock_services.clock_pause(tournament=tournament, actor=td, now=now)
    states["paused"] = _clock_row(tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(**states["running"])
    clock_services.clock_next_level(tournament=tournament, actor=td, now=now)
    states["level2"] = _clock_row(tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(**states["running"])
    handforhand_services.h4h_start(tournament=tournament, actor=td, now=now)
    states["h4h"] = _clock_row(tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(**states["running"])
    endofday_services.eod_start(
        tournament=tournament, actor=td, card="5", last_level_of_day=True, now=now
    )
    states["eod"] = _clock_row(tournament.pk)
    paths = dict.fromkeys(STAFF_SOCKETS, f"/ws/t/{tournament.slug}/")
    paths.update({kind: f"/ws/screens/{screen.token}/" for kind, screen in screens.items()})
    headers = {role: _headers(user) for role, user in users.items()}
    headers.update({kind: [ORIGIN] for kind in screens})
    return {"tournament": tournament, "states": states, "paths": paths, "headers": headers}


@database_sync_to_async
def _put(tournament_id: int, state: dict) -> tuple[int, int]:
    Tournament.objects.filter(pk=tournament_id).update(**state)
    return _seen(tournament_id)


def _seen(tournament_id: int) -> tuple[int, int]:
    version = Tournament.objects.get(pk=tournament_id).clock_version
    return version, Event.objects.filter(tournament_id=tournament_id).count()


async def _open(room, kind: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, room["paths"][kind], headers=room["headers"][kind]
    )
    connected, code = await communicator.connect(timeout=10)
    assert connected, (kind, code)
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "clock", kind
    return communicator


async def _reply(communicator: WebsocketCommunicator) -> dict:
    """The answer to what was sent, skipping the pushes of the new clock state (which name
    the structure; the whole state asked for carries it)."""
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message.get("type") in {"ok", "error", "pong"}:
            return message
        if message.get("type") == "clock" and "items" in message:
            return message


async def _send(communicator: WebsocketCommunicator, message: Any) -> None:
    if isinstance(message, str):
        await communicator.send_to(text_data=message)
    else:
        await communicator.send_json_to(message)


async def test_every_message_for_every_socket(room):
    tournament_id = room["tournament"].pk
    wrong = []
    for kind in SOCKETS:
        communicator = await _open(room, kind)
        for name, row in ROWS.items():
            before = await _put(tournament_id, room["states"][row.state])
            await _send(communicator, row.message)
            reply = await _reply(communicator)
            after = await database_sync_to_async(_seen)(tournament_id)
            allowed = kind in row.allowed
            expected = {"ping": "pong", "state": "clock"}.get(name, "ok") if allowed else "error"
            if reply["type"] != expected:
                wrong.append(f"{name} from {kind}: {reply} (expected {expected})")
            elif allowed and row.changes:
                version_moved, logged = after[0] != before[0], after[1] == before[1] + 1
                if not (version_moved and logged):
                    wrong.append(f"{name} from {kind}: allowed but changed nothing")
            elif after != before:
                wrong.append(f"{name} from {kind}: refused but changed {before} -> {after}")
        await communicator.disconnect()
    assert not wrong, "\n".join(wrong)


async def test_a_revoked_screen_cannot_connect(room):
    communicator = WebsocketCommunicator(
        application, room["paths"]["revoked_screen"], headers=[ORIGIN]
    )
    connected, code = await communicator.connect(timeout=10)
    assert not connected and code == consumers.NOT_FOUND


async def test_a_tablet_revoked_while_connected_reports_nothing(room):
    """Revoking closes the socket (test_consumers); should that push be lost, the
    tablet's next report is still refused."""
    tournament_id = room["tournament"].pk
    communicator = await _open(room, "table_screen")
    await database_sync_to_async(
        DisplayScreen.objects.filter(tournament_id=tournament_id, name="T1").update
    )(revoked=True)
    for row in (MESSAGE_ROWS["hand: done"], MESSAGE_ROWS["hand: start"]):
        before = await _put(tournament_id, room["states"][row.state])
        await communicator.send_json_to(row.message)
        assert (await _reply(communicator))["type"] == "error"
        assert await database_sync_to_async(_seen)(tournament_id) == before
    await communicator.disconnect()


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://testserver.evil.example"])
async def test_a_foreign_origin_is_refused(room, origin):
    """A page on another site cannot open the room's socket with the visitor's session."""
    for kind in ("td", "clock_screen"):
        headers = [(b"origin", origin)] + [h for h in room["headers"][kind] if h != ORIGIN]
        communicator = WebsocketCommunicator(application, room["paths"][kind], headers=headers)
        connected, _code = await communicator.connect(timeout=10)
        assert not connected, (kind, origin)
        await communicator.disconnect()


async def test_no_origin_is_refused(room):
    communicator = WebsocketCommunicator(application, room["paths"]["td"], headers=[])
    connected, _code = await communicator.connect(timeout=10)
    assert not connected

"""Bad input on the room's socket, fuzzed: every message type and junk,
on the public socket, staff consoles and screens. The socket never crashes and keeps
answering a ping; a refused message changes nothing; errors are in the user's language.
"""

from __future__ import annotations

import json
import os

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from bench.fuzzing import driving, language, sockets, worlds
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = 2  # per message type: ~20 types x 2 cases of up to three frames and a ping
CI = os.environ.get("CI") == "true"


@pytest.fixture
def world():
    return worlds.build_world("fuzzws")


def test_every_message_type_survives_junk(world):
    catalog = language.Catalog()

    def check(case):
        for outcome in sockets.run_ws_case(world, case, catalog):
            assert not outcome.problems, "\n".join(outcome.problems)

    with driving.quiet():
        for kind in [*sockets.ws_message_types(), "junk"]:
            driving.drive(sockets.ws_cases(world, kind), check, examples=EXAMPLES, derandomize=CI)


async def _open(world, socket: str, headers: list[tuple[bytes, bytes]]):
    token = world.tokens["table" if socket == "table_screen" else "clock"]
    path = f"/ws/t/{world.slug}/" if socket == "public" else f"/ws/screens/{token}/"
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), *headers]
    )
    connected, _code = await communicator.connect(timeout=10)
    assert connected
    await communicator.receive_json_from(timeout=5)  # the clock on connect
    return communicator


async def _answer(communicator) -> dict:
    while True:
        reply = await communicator.receive_json_from(timeout=5)
        if reply["type"] in sockets.ANSWERS:
            return reply


FRAMES = [
    {"type": "websocket.receive", "bytes": b"\x00\xff"},
    {"type": "websocket.receive", "bytes": b""},
    {"type": "websocket.receive", "text": ""},
    {"type": "websocket.receive", "text": "[" * 100000 + "]" * 100000},
    {"type": "websocket.receive", "text": json.dumps({"type": "hand", "action": ["done"]})},
    {"type": "websocket.receive", "text": json.dumps({"type": "hand", "action": {}})},
]


@pytest.mark.parametrize("frame", FRAMES, ids=range(len(FRAMES)))
async def test_junk_frames_get_an_error_and_the_socket_stays_up(world, frame):
    """Binary and empty frames, JSON nested past the parser's stack and unhashable hand
    reports used to crash the consumer (the socket closed)."""
    communicator = await _open(world, "table_screen", [])
    await communicator.send_input(frame)
    assert (await _answer(communicator))["type"] == "error"
    await communicator.send_json_to({"type": "ping", "t": 1})
    assert (await _answer(communicator))["type"] == "pong"
    await communicator.disconnect()


LANGUAGES = [
    ([(b"accept-language", b"it-IT,it;q=0.9,en;q=0.5")], "Non consentito."),
    ([(b"accept-language", b"en-GB,en;q=0.9")], "Not allowed."),
    ([(b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}=it".encode())], "Non consentito."),
    (
        [
            (b"accept-language", b"it"),
            (b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}=en".encode()),
        ],
        "Not allowed.",
    ),
    ([(b"accept-language", b"de, fr;q=0.5, it;q=0.1")], "Non consentito."),
]


@pytest.mark.parametrize("socket", ["public", "clock_screen"])
@pytest.mark.parametrize(("headers", "text"), LANGUAGES)
async def test_socket_errors_follow_the_users_language(world, socket, headers, text):
    """The cookie first, then Accept-Language, as for pages (LocaleMiddleware)."""
    communicator = await _open(world, socket, headers)
    await communicator.send_json_to({"type": "drop_tables"})
    assert (await _answer(communicator))["message"] == text
    await communicator.disconnect()


async def test_a_refused_control_is_in_the_users_language(world):
    """Errors raised inside the service (another thread) use the socket's language too."""
    communicator = await _open(world, "public", [(b"accept-language", b"it")])
    await communicator.send_json_to({"type": "control", "action": "pause"})
    reply = await _answer(communicator)
    assert reply["message"] == "Il tuo ruolo non consente questa operazione."
    await communicator.disconnect()


CONTROL_FRAMES = [
    ("json", {"type": "control", "action": "resume"}),
    ("json", {"type": "control", "action": "adjust", "seconds": 60}),
    ("json", {"type": "control", "action": "next"}),
]


@pytest.mark.parametrize("change", sockets.ROLE_CHANGES)
def test_a_socket_loses_its_rights_with_the_role(world, change):
    """The TD's socket, opened before his role changed, his
    removal or his logout, changes nothing more (a refusal or a closed socket)."""
    catalog = language.Catalog()
    with driving.quiet():
        kept = sockets.run_ws_case(world, sockets.WsCase("td", CONTROL_FRAMES), catalog)
        assert any(o.accepted for o in kept)  # the same frames do change the clock
        outcomes = sockets.run_ws_case(world, sockets.WsCase("td", CONTROL_FRAMES, change), catalog)
    assert [p for o in outcomes for p in o.problems] == []
    assert not any(o.accepted for o in outcomes)

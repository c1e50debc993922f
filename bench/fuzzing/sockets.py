"""Socket cases: every message a client may send, and junk frames, sent on each socket (the
staff's, the public's, the screens'), sometimes after the user's role changed under it. A
frame is judged as a request is, and the socket must still answer a ping afterwards.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings

from bench.fuzzing.language import LANGUAGE, Catalog
from bench.fuzzing.outcomes import Outcome
from bench.fuzzing.snapshot import changed, event_count, snapshot
from bench.fuzzing.strategies import JUNK, LONG, _anything, _st

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World

SOCKETS = ("public", "desk", "floor", "td", "clock_screen", "table_screen")
ANSWERS = {"ok", "error", "pong"}


@dataclass
class WsCase:
    socket: str
    frames: list[tuple[str, Any]]  # ("json", obj) | ("text", str) | ("bytes", bytes)
    # What happens to the socket's user once it is open: "" nothing,
    # "desk" his role becomes desk, "removed" he leaves the staff, "logout" his session
    # ends. From then on no message may change anything (closing the socket is fine).
    change: str = ""


ROLE_CHANGES = ("desk", "removed", "logout")


def _change_rights(world: World, socket: str, change: str) -> Callable[[], None]:
    """Apply a role change to the socket's user; return what puts it back."""
    from django.contrib.sessions.models import Session

    from tournaments.models import Role, StaffAssignment

    user = world.users.get(socket)
    if not change or user is None:
        return lambda: None
    rows = StaffAssignment.objects.filter(tournament_id=world.tournament_id, user=user)
    before = list(rows.values_list("role", flat=True))
    if change == "desk":
        rows.update(role=Role.DESK)
    elif change == "removed":
        rows.delete()
    elif change == "logout":
        mine = [
            s.pk
            for s in Session.objects.all()
            if s.get_decoded().get("_auth_user_id") == str(user.pk)
        ]
        Session.objects.filter(pk__in=mine).delete()

    def restore() -> None:
        StaffAssignment.objects.filter(tournament_id=world.tournament_id, user=user).delete()
        StaffAssignment.objects.bulk_create(
            StaffAssignment(tournament_id=world.tournament_id, user=user, role=role)
            for role in before
        )

    return restore


def ws_message_types() -> list[str]:
    """Every message a client may send: ping, control with each action, hand reports."""
    from tournaments.controls import CONTROLS

    return ["ping", *(f"control:{a}" for a in CONTROLS), "hand:done", "hand:start"]


def _ws_message(world: World, kind: str):
    """A message of one type (see ws_message_types), its fields right or of a wrong type."""
    st = _st()
    anything = _anything()
    fields = {
        "seconds": st.one_of(st.integers(min_value=-3600, max_value=3600), anything),
        "index": st.one_of(st.integers(min_value=-1, max_value=8), anything),
        "table": st.one_of(st.sampled_from(world.tables), anything),
        "at": st.one_of(st.sampled_from(["21:30", "", "25:99", "now"]), anything),
        "card": st.one_of(st.sampled_from(["3", ""]), anything),
        "last_level_of_day": st.one_of(st.booleans(), anything),
        "t": st.one_of(st.integers(), anything),
    }
    kind_, _sep, action = kind.partition(":")
    if kind_ == "ping":
        return st.fixed_dictionaries({"type": st.just("ping")}, optional={"t": fields["t"]})
    if kind_ in ("control", "hand"):
        required = {"type": st.just(kind_), "action": st.one_of(st.just(action), anything)}
        optional = fields if kind_ == "control" else {}
        return st.fixed_dictionaries(required, optional=optional)
    return _junk_frame(world)


def _junk_frame(world: World):
    st = _st()
    return st.one_of(
        st.tuples(
            st.just("json"),
            st.dictionaries(st.sampled_from(["type", "action", "t", "x"]), _anything(), max_size=3),
        ),
        st.tuples(
            st.just("json"),
            st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(), st.none()),
        ),
        st.tuples(
            st.just("text"),
            st.one_of(st.text(max_size=50), st.sampled_from([*JUNK, *LONG, "x" * 300000])),
        ),
        st.tuples(st.just("bytes"), st.binary(max_size=50)),
    )


def ws_cases(world: World, kind: str):
    """Cases whose first frame is a message of `kind` ("junk": anything else), sent on a
    socket that may send it (and sometimes on one that may not), then up to two more."""
    from tournaments.controls import CONTROLS
    from tournaments.permissions import TD as TD_ROLES

    st = _st()
    if kind.startswith("control:"):
        roles = CONTROLS[kind.split(":", 1)[1]][0]
        allowed = ["td"] if roles == TD_ROLES else ["floor", "td"]
    elif kind.startswith("hand:"):
        allowed = ["table_screen"]
    else:
        allowed = list(SOCKETS)
    first = (
        _junk_frame(world)
        if kind == "junk"
        else st.tuples(st.just("json"), _ws_message(world, kind))
    )
    any_frame = st.one_of(
        *(st.tuples(st.just("json"), _ws_message(world, k)) for k in ws_message_types()),
        _junk_frame(world),
    )
    return st.builds(
        WsCase,
        socket=st.one_of(
            st.sampled_from(allowed), st.sampled_from(allowed), st.sampled_from(SOCKETS)
        ),
        frames=st.tuples(first, st.lists(any_frame, max_size=2)).map(lambda p: [p[0], *p[1]]),
        change=st.sampled_from(["", "", "", *ROLE_CHANGES]),
    )


def _ws_headers(world: World, socket: str, language: str) -> tuple[str, list]:
    from django.test import Client

    headers = [(b"origin", b"http://testserver"), (b"accept-language", language.encode())]
    cookies = [f"{settings.LANGUAGE_COOKIE_NAME}={language}"]
    if socket in ("clock_screen", "table_screen"):
        token = world.tokens["clock" if socket == "clock_screen" else "table"]
        path = f"/ws/screens/{token}/"
    else:
        path = f"/ws/t/{world.slug}/"
        user = world.users.get(socket)
        if user is not None:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session}")
    headers.append((b"cookie", "; ".join(cookies).encode()))
    return path, headers


async def _answer(communicator, timeout: float) -> dict | None:
    """The consumer's answer to a frame (pushes of the new state are skipped)."""
    while True:
        try:
            output = await communicator.receive_output(timeout)
        except TimeoutError:
            return None
        if output["type"] == "websocket.close":
            return {"type": "closed", "code": output.get("code")}
        payload = json.loads(output.get("text") or "null")
        if isinstance(payload, dict) and payload.get("type") in ANSWERS:
            return payload


def run_ws_case(world: World, case: WsCase, catalog: Catalog, timeout: float = 5) -> list[Outcome]:
    """Send the frames, then a ping: one outcome per frame. The database is not rolled
    back (the socket runs its services in their own transactions): callers use a world
    they may spend (a transactional test, or the bench's world it deletes)."""
    from asgiref.sync import async_to_sync, sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    path, headers = _ws_headers(world, case.socket, LANGUAGE)
    state = sync_to_async(lambda: (snapshot(world), event_count()))
    if world.users.get(case.socket) is None:  # a screen or the public: no user to change
        case = WsCase(case.socket, case.frames)
    outcomes: list[Outcome] = []

    async def run() -> None:
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, code = await communicator.connect(timeout)
        if not connected:
            outcome = Outcome(f"ws:{case.socket}:connect")
            outcome.server_error = f"socket refused: {code}"
            outcomes.append(outcome)
            return
        await communicator.receive_output(timeout)  # the state on connect
        restore = await sync_to_async(_change_rights)(world, case.socket, case.change)
        try:
            for kind, payload in case.frames:
                outcome = Outcome(f"ws:{_type_of(kind, payload)}")
                outcomes.append(outcome)
                before, events_before = await state()
                # Raw ASGI input: the communicator's send_to refuses empty frames.
                if kind == "bytes":
                    await communicator.send_input({"type": "websocket.receive", "bytes": payload})
                else:
                    text = json.dumps(payload) if kind == "json" else payload
                    await communicator.send_input({"type": "websocket.receive", "text": text})
                answer = await _answer(communicator, timeout)
                after, events_after = await state()
                described = f"[{case.socket} {kind} {str(payload)[:200]!r}]"
                if case.change:
                    described = (
                        f"[{case.socket}, then {case.change}: {kind} {str(payload)[:200]!r}]"
                    )
                    if answer is not None and answer["type"] == "closed":
                        outcome.refused = True  # the socket closed on the role change
                        return
                if answer is None or answer["type"] == "closed":
                    outcome.server_error = f"{described} answered {answer}"
                    return
                diff = changed(before, after)
                if diff and case.change:
                    outcome.partial_write = f"{described} {answer} changed {diff} without the right"
                outcome.refused = answer["type"] == "error"
                outcome.message = str(answer.get("message", answer["type"]))
                if diff and (outcome.refused or events_after == events_before):
                    outcome.partial_write = f"{described} {answer} but changed {diff}"
                outcome.accepted = bool(diff) and not outcome.partial_write
                if outcome.refused:
                    english = catalog.english_in(str(answer.get("message", "")))
                    if english:
                        outcome.untranslated = f"{described} {answer['message']!r} is English"
            ping = Outcome("ws:ping after")
            outcomes.append(ping)
            await communicator.send_to(text_data=json.dumps({"type": "ping", "t": 7}))
            answer = await _answer(communicator, timeout)
            closed = bool(answer) and answer.get("type") == "closed"
            if (not answer or answer.get("type") != "pong") and not (case.change and closed):
                ping.server_error = f"[{case.socket}] no pong after {case.frames!r:.300}: {answer}"
        finally:
            await sync_to_async(restore)()
            await communicator.disconnect()

    try:
        async_to_sync(run)()
    except Exception:  # noqa: BLE001 - a crashed consumer is the finding
        outcome = outcomes[-1] if outcomes else Outcome(f"ws:{case.socket}")
        if not outcomes:
            outcomes.append(outcome)
        outcome.server_error = (
            f"[{case.socket} {case.frames!r:.300}] crashed:\n{traceback.format_exc(limit=-4)}"
        )
    return outcomes


def _type_of(kind: str, payload: Any) -> str:
    if kind != "json":
        return f"junk-{kind}"
    if not isinstance(payload, dict):
        return "junk-json"
    typed = f"{payload.get('type')}:{payload.get('action')}"
    if payload.get("type") == "ping":
        return "ping"
    if typed in ws_message_types():
        return typed
    if payload.get("type") in ("control", "hand"):
        return f"{payload['type']}:junk-action"
    return "junk-type"

"""Where a change's time goes on the server: `bench fanout --phases`.

Run as the server (`python -m bench.phases LOG UVICORN-ARGS...`): the real ASGI app
under uvicorn, with timers around the steps every change takes, from the moment it
arrives (a form posted, or a message on a staff socket) to the last local socket
written. One change at a time (the bench makes them in turn): each change's marks are
written to LOG as one JSON line when its push has been written to the sockets.

The marks, in ms after the change arrived:
- `resolved`: the request has passed the middleware to Django's URL resolver; `session`
  and `user` when
  the login session and its user have been read; `view` when the view reads its
  tournament; `locked` when the tournament's row is back under its lock
  (locks.tournament_for_update);
- `commit`: the change's COMMIT begins (everything before it is the view and the
  service), `committed` when it returns;
- `push`: the push's fragments begin to render (the after-commit hook), `listened` when
  it knows who listens, `read` when its reads are back (the tournament's row, read with
  the figures), `rendered` when its fragments are, `send` when the push is handed to the
  channel layer, `sent` when the layer's group send is done (on Redis: its two trips);
- `first_write`: the push's first local socket is written, `all_written` when every
  local socket has been (the in-memory layer writes them before its send is done);
and `statements` / `db_ms`: the SQL statements run before the commit, and the time spent
waiting on them (on PostgreSQL a write deferred to the COMMIT's trip is not among them:
config/speedups/postgresql); `gc_ms`: the garbage collector's pauses from the change's
arrival to its last socket (all threads stop for them).

Benchmarks only: nothing here is imported by the site.
"""

from __future__ import annotations

import functools
import gc
import json
import statistics
import sys
import time
from typing import Any

MARKS = (
    "resolved",
    "session",
    "user",
    "view",
    "locked",
    "commit",
    "committed",
    "push",
    "listened",
    "read",
    "rendered",
    "send",
    "sent",
    "first_write",
    "all_written",
)


class Recorder:
    """The current change's marks; a change starts with `start` and ends at its delivery."""

    def __init__(self, path: str) -> None:
        self.log = open(path, "a", buffering=1)  # noqa: SIM115 - the server's lifetime
        self.started: float | None = None
        self.marks: dict[str, float] = {}
        self.statements = 0
        self.db = 0.0
        self.gc = 0.0
        self._collecting: float | None = None

    def start(self) -> None:
        self.started = time.perf_counter()
        self.marks = {}
        self.statements = 0
        self.db = 0.0
        self.gc = 0.0

    def collecting(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        elif self._collecting is not None:
            if self.started is not None:
                self.gc += (time.perf_counter() - self._collecting) * 1000
            self._collecting = None

    def mark(self, name: str) -> None:
        if self.started is not None and name not in self.marks:
            self.marks[name] = (time.perf_counter() - self.started) * 1000

    def statement(self, seconds: float) -> None:
        if self.started is not None and "commit" not in self.marks:
            self.statements += 1
            self.db += seconds * 1000

    def delivered(self) -> None:
        """Every local socket written: the change is done once the layer's send is too."""
        self.mark("all_written")
        self.done()

    def done(self) -> None:
        """Write the change's line once its sockets are written and its send is done
        (whichever ends last: a push that comes back through the layer is written after
        the send)."""
        if self.started is None or not {"all_written", "sent"} <= self.marks.keys():
            return
        line = {
            **{k: round(v, 2) for k, v in self.marks.items()},
            "statements": self.statements,
            "db_ms": round(self.db, 2),
            "gc_ms": round(self.gc, 2),
        }
        self.log.write(json.dumps(line) + "\n")
        self.started = None


def install(path: str) -> Recorder:
    """Put the timers in place (after Django is set up and the app is built)."""
    from channels.layers import InMemoryChannelLayer
    from channels_redis.core import RedisChannelLayer
    from django.contrib.auth.backends import ModelBackend
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.handlers.asgi import ASGIHandler
    from django.core.handlers.base import BaseHandler
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper

    from config.speedups.hub import Hub
    from tournaments import permissions, realtime, selectors
    from tournaments.services import locks
    from tournaments.sockets.consumer import RoomConsumer

    recorder = Recorder(path)
    gc.callbacks.append(recorder.collecting)

    http_call = ASGIHandler.__call__

    async def http(self, scope, receive, send):
        if scope.get("method") == "POST":
            recorder.start()
        return await http_call(self, scope, receive, send)

    ASGIHandler.__call__ = http

    socket_receive = RoomConsumer.receive

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        recorder.start()
        return await socket_receive(self, text_data, bytes_data, **kwargs)

    RoomConsumer.receive = receive

    execute = CursorWrapper._execute

    def timed_execute(self, *args):
        began = time.perf_counter()
        try:
            return execute(self, *args)
        finally:
            recorder.statement(time.perf_counter() - began)

    CursorWrapper._execute = timed_execute

    commit = BaseDatabaseWrapper.commit

    def timed_commit(self):
        recorder.mark("commit")
        try:
            return commit(self)
        finally:
            recorder.mark("committed")

    BaseDatabaseWrapper.commit = timed_commit

    def marked(function, name):
        @functools.wraps(function)
        def call(*args, **kwargs):
            recorder.mark(name)
            return function(*args, **kwargs)

        return call

    def then(function, name):
        @functools.wraps(function)
        def call(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            finally:
                recorder.mark(name)

        return call

    BaseHandler.resolve_request = marked(BaseHandler.resolve_request, "resolved")
    SessionStore._get_session_from_db = then(SessionStore._get_session_from_db, "session")
    ModelBackend.get_user = then(ModelBackend.get_user, "user")
    permissions.get_tournament_for = marked(permissions.get_tournament_for, "view")
    locks.tournament_for_update = then(locks.tournament_for_update, "locked")
    realtime.with_fragments = marked(realtime.with_fragments, "push")
    realtime.listening = then(realtime.listening, "listened")
    selectors.tournament_by_pk = then(selectors.tournament_by_pk, "read")
    realtime.screen_fragments = then(realtime.screen_fragments, "rendered")
    realtime._send_many = marked(realtime._send_many, "send")

    def sent_then(group_send):
        @functools.wraps(group_send)
        async def call(*args, **kwargs):
            try:
                return await group_send(*args, **kwargs)
            finally:
                recorder.mark("sent")
                recorder.done()

        return call

    for layer in (InMemoryChannelLayer, RedisChannelLayer):
        layer.group_send = sent_then(layer.group_send)

    deliver = Hub._deliver

    def timed_deliver(self, group, message):
        recorder.mark("first_write")
        try:
            return deliver(self, group, message)
        finally:
            recorder.delivered()

    Hub._deliver = timed_deliver
    return recorder


def rows(path: str, skip: int) -> list[dict[str, Any]]:
    """Each change's marks, in the order the changes were made, after the first `skip`."""
    try:
        with open(path) as handle:
            return [json.loads(line) for line in handle if line.strip()][skip:]
    except OSError:
        return []


def summary(path: str, skip: int) -> dict[str, Any]:
    """Medians (and the slowest) of each mark over the changes after the first `skip`."""
    return summarize(rows(path, skip))


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {"changes": len(rows)}
    for name in (*MARKS, "statements", "db_ms", "gc_ms"):
        values = [row[name] for row in rows if name in row]
        if values:
            found[name] = round(statistics.median(values), 1)
            found[f"{name}_max"] = round(max(values), 1)
    return found


def describe(phases: dict[str, Any]) -> str:
    if not phases.get("changes"):
        return "Server phases: none recorded"
    parts = [f"Server phases, median ms after the change arrived ({phases['changes']} changes):"]
    steps = [
        f"{name} {phases[name]}"
        for name in ("resolved", "session", "user", "view", "locked")
        if name in phases
    ]
    if steps:
        parts.append("request: " + ", ".join(steps) + ";")
    if "commit" in phases:
        parts.append(
            f"COMMIT at {phases['commit']} ({phases.get('statements')} statements before it, "
            f"{phases.get('db_ms')} ms in the database), done {phases.get('committed')};"
        )
    if "push" in phases:
        parts.append(
            f"push from {phases['push']} (who listens known {phases.get('listened')}, read "
            f"{phases.get('read')}, rendered {phases.get('rendered')}) to {phases.get('send')};"
        )
    parts.append(
        f"first socket written {phases.get('first_write')} (slowest {phases.get('first_write_max')}), "
        f"all {phases.get('all_written')}; the layer's send done {phases.get('sent')}; "
        f"garbage collection {phases.get('gc_ms')} (at most {phases.get('gc_ms_max')})"
    )
    return " ".join(parts)


def main(argv: list[str]) -> None:
    log, *uvicorn_args = argv
    import config.asgi  # noqa: F401 - sets Django up and builds the app the timers wrap

    install(log)
    import uvicorn.main

    sys.argv = ["uvicorn", *uvicorn_args]
    uvicorn.main.main()


if __name__ == "__main__":
    main(sys.argv[1:])

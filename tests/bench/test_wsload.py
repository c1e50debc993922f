"""The fan-out bench's own mechanics, against its bare server (no Django server): pushes
known by type, the state checked on connect, a result far bigger than a pipe's buffer
read back whole (a run once died reading a 128 KiB pipe)."""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile

import pytest

from bench.fanout import run_clients
from bench.liveserver import HOST, free_port, spawn

STATE = {"type": "clock", "version": 7, "server_time": "2026-01-01T00:00:00+00:00"}
PUSH = json.dumps({"type": "elimination", "names": ["A B"], "fragments": {"figures": {}}})


@contextlib.contextmanager
def _bare_server(push: str):
    """The bench's bare server, pushing `push` on a plain control message: its port."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
        json.dump({"initial": STATE, "push": push}, handle)
        handle.flush()
        port = free_port()
        command = [sys.executable, "-m", "bench.wsload", "baseline", str(port), handle.name]
        with spawn(command, port=port):
            yield port


def _clients(port: int, clients: int, changes: int, **options) -> dict:
    """`changes` pushes from the bench's bare server on `port` to `clients` sockets."""
    return run_clients(
        url=f"ws://{HOST}:{port}/",
        trigger_url=f"ws://{HOST}:{port}/",
        origin=f"http://{HOST}:{port}",
        clients=clients,
        messages=[{"type": "control"}] * changes,
        match="elimination",
        settle=0,
        **options,
    )


def _bare(clients: int, changes: int, **options) -> dict:
    with _bare_server(PUSH) as port:
        return _clients(port, clients, changes, **options)


def test_every_push_of_the_kind_reaches_every_client_and_the_result_comes_back_whole():
    clients, changes = 60, 60
    result = _bare(clients, changes, expect_version=7)
    assert result["errors"] == []
    assert result["connect_right"] == clients  # every one showed the state on connect
    assert result["delivered"] == result["expected"] == clients * changes
    assert result["sample"] == PUSH
    assert len(json.dumps(result)) > 128 * 1024  # more than a pipe holds, read whole


def test_warm_up_changes_are_made_and_awaited_but_not_timed():
    clients, changes, warmup = 20, 6, 2
    result = _bare(clients, changes, warmup=warmup)
    assert result["errors"] == []
    # Only the changes after the warm-up are timed: one latency per client for each.
    assert result["changes"] == len(result["per_change_ms"]) == changes - warmup
    assert result["delivered"] == result["expected"] == clients * (changes - warmup)


def test_the_bare_server_takes_turns_and_sends_the_very_text_each_change_brought():
    """`bare_url`: after each change has reached every client, the bare server broadcasts
    the text the clients received of it (not its own), to as many sockets, timed alike."""
    clients, changes, warmup = 20, 5, 1
    other = json.dumps({"type": "elimination", "names": ["Not", "this"]})
    with _bare_server(PUSH) as ours, _bare_server(other) as bare:
        result = _clients(ours, clients, changes, warmup=warmup, bare_url=f"ws://{HOST}:{bare}/")
    assert result["errors"] == [] and result["bare"]["errors"] == []
    timed = changes - warmup
    assert result["delivered"] == result["expected"] == clients * timed
    assert result["bare"]["delivered"] == result["bare"]["expected"] == clients * timed
    assert result["bare"]["changes"] == len(result["bare"]["per_change_ms"]) == timed
    assert result["bare"]["connect_right"] == clients
    assert result["bare"]["sample"] == result["sample"] == PUSH


class _FormSite:
    """A site's form endpoint: records each post, answers 302 with a new cookie."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, str, str]] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = dict(scope["headers"])
        self.posts.append((scope["path"], body.decode(), headers.get(b"cookie", b"").decode()))
        number = len(self.posts)
        await send(
            {
                "type": "http.response.start",
                "status": 302,
                "headers": [
                    (b"location", b"/"),
                    (b"set-cookie", f"messages=m{number}; Path=/".encode()),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


async def test_the_form_poster_keeps_its_cookies_and_reconnects_after_an_idle_close():
    import asyncio

    import uvicorn

    from bench.wsload import FormPoster

    site = _FormSite()
    # The server closes a kept-alive connection idle for a second, as uvicorn does after 5.
    config = uvicorn.Config(
        site, host=HOST, port=0, lifespan="off", log_level="warning", timeout_keep_alive=1
    )
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    poster = FormPoster(f"http://{HOST}:{port}/", {"csrftoken": "tok", "sessionid": "s"})
    try:
        assert await poster.post("/t/x/eliminate/3/", {"reason": "busted"}) == 302
        assert poster.cookies["messages"] == "m1"
        await asyncio.sleep(1.5)  # the server has closed the idle connection meanwhile
        assert await poster.post("/t/x/eliminate/4/", {}) == 302
        assert poster.cookies["messages"] == "m2"
    finally:
        await poster.close()
        server.should_exit = True
        await serving
    (path, body, cookie), (second_path, _, second_cookie) = site.posts
    assert (path, second_path) == ("/t/x/eliminate/3/", "/t/x/eliminate/4/")
    assert "csrfmiddlewaretoken=tok" in body and "reason=busted" in body
    assert "sessionid=s" in cookie and "messages=m1" in second_cookie


def test_the_changes_holding_the_slowest_hundredth_are_named_with_their_server_steps():
    """Over a hundred changes the p99 is the fastest of the slowest 1% of receipts: the
    bench names the changes that hold them (most first), with what each waited for on the
    server, so a missed goal says which change set it and why."""
    from bench.fanout import _describe_tail, _tail
    from bench.wsload import _tail as tail_of

    # 100 changes to 10 clients: receipts 10-19 ms after each change was made, except the
    # 43rd (place 42), 40 ms late at every client, and the 7th, late at one client.
    sent = [(key, 0.0) for key in range(100)]
    received = [
        {
            key: (10 + client + (40 if key == 42 else 0) + (30 if key == 6 and client == 0 else 0))
            / 1000
            for key in range(100)
        }
        for client in range(10)
    ]
    latencies = [(m[key] - at) * 1000 for key, at in sent for m in received]
    tail = tail_of(received, sent, latencies)
    # The p99 is the 990th of 1,000 receipts: the 43rd change's ten, then the 7th's late one.
    assert [row[:2] for row in tail] == [[42, 10], [6, 1]]
    assert tail[0][2] == pytest.approx(59.0)

    marks = [{"commit": 5.0, "committed": 6.0, "first_write": 8.0, "all_written": 9.0}] * 100
    marks[42] = {
        "commit": 5.0,
        "committed": 40.0,
        "first_write": 42.0,
        "all_written": 44.0,
        "gc_ms": 0.5,
    }
    named = _tail(tail[:1], marks)
    assert named == [
        {
            "change": 43,
            "receipts": 10,
            "last_ms": tail[0][2],
            "server_ms": {"commit": 35.0, "first_write": 42.0, "writing": 2.0, "gc": 0.5},
        }
    ]
    assert "#43 (10 receipts" in _describe_tail(named, [])
    assert "its COMMIT took 35.0 ms" in _describe_tail(named, [])

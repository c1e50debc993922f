"""HTTP through the ASGI app (config/asgi.py), as uvicorn serves it: each request is served
in one worker thread (config/handler.py), and pages, the async health check, errors and
the middleware's work come out as before."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.core import signals

from config.asgi import application
from config.handler import OneThreadASGIHandler


async def _get(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(timeout=20)
    body = b""
    while True:
        message = await communicator.receive_output(timeout=20)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=5)
    return {
        "status": start["status"],
        "headers": {k.decode().lower(): v.decode() for k, v in start["headers"]},
        "body": body,
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.fast_path("the one-thread handler (config/handler.py)")
def test_a_page_comes_through_its_middleware_in_one_thread(monkeypatch):
    threads: list[threading.Thread] = []
    calls = 0
    original = sync.SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    from django.contrib.auth import views

    render = views.LoginView.get

    def get(self, request, *args, **kwargs):
        import threading

        threads.append(threading.current_thread())
        return render(self, request, *args, **kwargs)

    monkeypatch.setattr(views.LoginView, "get", get)
    response = asyncio.run(_get("/login/", [(b"accept-language", b"it")]))
    assert response["status"] == 200
    # The middleware did their part: the page is in Italian, with its CSRF cookie and
    # its security headers.
    assert 'lang="it"' in response["body"].decode()
    assert "csrftoken=" in response["headers"].get("set-cookie", "")
    assert "content-security-policy" in response["headers"]
    assert len(threads) == 1
    # Into a thread for the request_started signal, for the request, and for closing the
    # response (Django's async chain with sync middleware took five more).
    assert calls <= 3


@pytest.mark.django_db(transaction=True)
def test_the_async_health_check_and_a_missing_page_still_answer():
    health = asyncio.run(_get("/health/"))
    assert health["status"] == 200
    assert json.loads(health["body"]) == {"status": "ok"}
    missing = asyncio.run(_get("/no-such-page/", [(b"accept-language", b"en")]))
    assert missing["status"] == 404
    assert "text/html" in missing["headers"]["content-type"]


def _view_threads(monkeypatch, wait: threading.Barrier | None = None) -> list[threading.Thread]:
    """The threads the login page is rendered in (each waits at `wait` first)."""
    from django.contrib.auth import views

    threads: list[threading.Thread] = []
    render = views.LoginView.get

    def get(self, request, *args, **kwargs):
        threads.append(threading.current_thread())
        if wait is not None:
            wait.wait(timeout=10)
        return render(self, request, *args, **kwargs)

    monkeypatch.setattr(views.LoginView, "get", get)
    return threads


@pytest.mark.django_db(transaction=True)
@pytest.mark.fast_path("the one-thread handler (config/handler.py)")
def test_requests_one_after_another_are_served_by_the_same_thread(monkeypatch):
    threads = _view_threads(monkeypatch)
    opened: list[threading.Thread] = []
    closed: list[threading.Thread] = []

    def started(**_kwargs):
        opened.append(threading.current_thread())

    def finished(**_kwargs):
        closed.append(threading.current_thread())

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:

        async def two() -> list[int]:
            first = await _get("/login/")
            await asyncio.sleep(0.05)  # the thread is given back once free
            second = await _get("/login/")
            return [first["status"], second["status"]]

        assert asyncio.run(two()) == [200, 200]
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    # No thread started for the second request; and each request's database connection
    # is opened and given back in the thread that used it.
    assert len(threads) == 2 and threads[0] is threads[1]
    assert opened == threads and closed == threads


@pytest.mark.django_db(transaction=True)
def test_requests_at_the_same_time_never_share_a_thread(monkeypatch):
    # Each view waits for the other: in one thread the second could never start.
    threads = _view_threads(monkeypatch, wait=threading.Barrier(2))

    async def both() -> list[int]:
        answers = await asyncio.gather(_get("/login/"), _get("/login/"))
        return [answer["status"] for answer in answers]

    assert asyncio.run(both()) == [200, 200]
    assert len(set(threads)) == 2


@pytest.mark.fast_path("the one-thread handler (config/handler.py)")
def test_a_thread_still_busy_is_not_handed_to_the_next_request():
    handler = OneThreadASGIHandler()
    busy = handler._take()
    release = threading.Event()
    busy.submit(release.wait, 10)  # a view whose client went away, still running
    handler._give_back(busy)
    assert handler._take() is not busy
    release.set()
    busy.shutdown(wait=True)
    assert handler._idle == [busy]  # free again, kept for the next

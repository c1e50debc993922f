"""HTTP through the ASGI app (config/asgi.py), as uvicorn serves it: pages, the async health
check, errors and the middleware's work come out, and requests at once never share a
thread."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from asgiref.testing import ApplicationCommunicator

from config.asgi import application


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
def test_requests_at_the_same_time_never_share_a_thread(monkeypatch):
    # Each view waits for the other: in one thread the second could never start.
    threads = _view_threads(monkeypatch, wait=threading.Barrier(2))

    async def both() -> list[int]:
        answers = await asyncio.gather(_get("/login/"), _get("/login/"))
        return [answer["status"] for answer in answers]

    assert asyncio.run(both()) == [200, 200]
    assert len(set(threads)) == 2

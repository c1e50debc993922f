"""HTTP through the ASGI app (config/asgi.py), as uvicorn serves it: each request is served
in one worker thread (config/handler.py), and pages, the async health check, errors and
the middleware's work come out as before."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref import sync
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
def test_a_page_comes_through_its_middleware_in_one_thread(monkeypatch):
    threads: list[int] = []
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

        threads.append(threading.get_ident())
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

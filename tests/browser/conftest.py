"""Real Chromium from Debian (never a downloaded browser), driven by Playwright."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time

import pytest

# Twisted's asyncio reactor is installed on import, with the event loop of the moment:
# here, at collection, before any test has set or closed a loop (as daphne's Django app
# did at set-up when it was installed for every process; it now is for runserver only).
import daphne.server  # noqa: F401  (isort: skip)

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
)


def pytest_collection_modifyitems(config, items):
    if CHROMIUM:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError("CI must run the browser tests: install Debian's chromium package")
    skip = pytest.mark.skip(reason="no Chromium on this machine (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


# Module scope: Playwright's sync API keeps an event loop running in this thread while it
# is open, and async tests (the WebSocket consumers) that run later need the thread free.
@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10000)
    yield page
    context.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# Session scope: Twisted's reactor cannot be started twice in one process, so every
# browser test module shares one daphne (HTTP and WebSocket on one port, in a thread of
# the test process, sharing the test database the way live_server does).
@pytest.fixture(scope="session")
def daphne_url():
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server

    from config.asgi import application

    port = _free_port()
    server = Server(
        application=application,
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=port),
        signal_handlers=False,
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _attempt in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    # Importing daphne installed Twisted's asyncio loop as this thread's loop, and it now
    # runs in the server's thread: give this thread a fresh one at once, or async tests
    # that run while the server is up find a "running" loop here.
    asyncio.set_event_loop(asyncio.new_event_loop())
    yield f"http://127.0.0.1:{port}"
    from twisted.internet import reactor

    reactor.callFromThread(reactor.stop)
    thread.join(timeout=5)
    asyncio.set_event_loop(asyncio.new_event_loop())


# The players' phone tests (phone_steps.py): asked for by name.
@pytest.fixture
def notices_in_process(settings):
    """The notices go out from the server's process, as embedded (no Celery worker here)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def push_service():
    from room.services import notify
    from tests.room.push_service import PushService

    service = PushService().start(notify.vapid_public_key())
    yield service
    service.stop()
    assert service.errors == []

"""Real Chromium from Debian (never a downloaded browser), driven by Playwright."""

from __future__ import annotations

import os
import shutil

import pytest

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

"""A server whose database connections are all busy says so (503, in words, with a
Retry-After) and keeps serving; it never answers with the error page.

Found under load: twenty desks logging in at once on a slow server
each held one of the pool's connections while its password was hashed; the requests that
waited longer than the pool's timeout for a connection got a 500.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.production.cluster import Browser, Server

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DESKS = 6


@pytest.fixture
def one_connection_server(cluster, room):
    """A server whose pool holds one connection and waits 50 ms for it."""
    server = Server(
        "one-connection",
        {**cluster.env, "DB_POOL_MAX": "1", "DB_POOL_TIMEOUT": "0.05"},
        cluster.workdir,
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_desks_logging_in_at_once_past_the_pool_are_told_to_try_again(one_connection_server):
    # Hashed as a real login's password is (Django's iterations): each login holds the
    # server's one connection while it checks it. One account a desk, as in a room.
    hasher = PBKDF2PasswordHasher()  # the servers' hasher, at its full iterations
    for i in range(DESKS):
        get_user_model().objects.create(
            username=f"desk-{i}",
            is_staff=True,
            password=hasher.encode("desk-busy-pw", hasher.salt()),
        )
    browsers = [Browser(one_connection_server) for _ in range(DESKS)]
    for browser in browsers:
        status, _location, _page = browser.request("GET", "/login/")
        assert status == 200
    barrier = threading.Barrier(DESKS)
    answers: list[tuple[int, str | None, str, dict[str, str]]] = [None] * DESKS  # type: ignore[list-item]

    def log_in(i: int) -> None:
        browser = browsers[i]
        barrier.wait()
        status, location, page = browser.request(
            "POST", "/login/", {"username": f"desk-{i}", "password": "desk-busy-pw"}
        )
        answers[i] = (status, location, page, browser.headers)

    threads = [threading.Thread(target=log_in, args=(i,)) for i in range(DESKS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    statuses = sorted(status for status, *_rest in answers)
    assert set(statuses) <= {302, 503}, [(s, p[-1500:]) for s, _l, p, _h in answers if s != 503]
    assert 302 in statuses and 503 in statuses, statuses
    for status, _location, page, headers in answers:
        if status == 503:
            assert "Il server è occupato" in page  # the room's language, Italian
            assert "Non è stato salvato nulla" in page
            assert headers.get("retry-after") == "5"
    # Asked again when the others are done, the server lets the desk in.
    refused = next(i for i, (status, *_r) in enumerate(answers) if status == 503)
    browsers[refused].log_in(f"desk-{refused}", "desk-busy-pw")

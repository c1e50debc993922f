"""Content-Security-Policy: on every response, and no page needs inline script to work.

Every page of the permission MATRIX that some role may open is rendered for that role (and
as an htmx partial) and searched for inline scripts, inline event handlers, htmx's eval
attributes and javascript: URLs: the policy forbids them, so any would be dead code in
the browser.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests import test_permissions
from tests.test_permissions import MATRIX, OK, ROLES, url_for

world = test_permissions.world  # the matrix's sample data, as a fixture here too

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    policy = {}
    for part in header.split(";"):
        name, *values = part.split()
        policy[name] = values
    return policy


class InlineCode(HTMLParser):
    """Collects what a strict CSP blocks: inline <script>, on* handlers, hx-on, js: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            kind = (attributes.get("type") or "").lower()
            if "src" not in attributes and kind != "application/json":
                self.found.append(f"inline <script {attrs}>")
        for name, value in attrs:
            if name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}=...>")
            if name in {"hx-vals", "hx-headers", "hx-vars"} and (value or "").lstrip().startswith(
                ("js:", "javascript:")
            ):
                self.found.append(f"<{tag} {name}={value}> (eval)")
            if name in {"hx-trigger"} and "[" in (value or ""):
                self.found.append(f"<{tag} hx-trigger={value}> (filter needs eval)")
            if name in {"href", "action", "src", "formaction"} and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")
            if name == "style":
                self.found.append(f"<{tag} style=...> (inline style)")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def test_the_policy_allows_only_our_own_scripts(client):
    policy = directives(client.get(reverse("login")))
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src"]
    assert policy["img-src"] == ["'self'", "data:"]
    # Sockets to our own hosts, named for browsers whose 'self' does not cover ws/wss.
    assert {"'self'", "ws://testserver:*", "wss://testserver:*"} <= set(policy["connect-src"])
    header = client.get(reverse("login")).headers["Content-Security-Policy"]
    assert "unsafe-eval" not in header and "unsafe-inline" not in header


def test_the_header_is_on_every_kind_of_response(client, world, display, td):
    slug = world["kwargs"]["slug"]
    anonymous = [
        reverse("login"),
        reverse("screen", args=[display.token]),
        reverse("public_clock", args=[slug]),
        reverse("seat_finder", args=[slug]) + "?q=Ros",
        "/no/such/page/",  # 404 page
        reverse("home"),  # a redirect
    ]
    for url in anonymous:
        directives(client.get(url))
    directives(client.get(reverse("public_clock", args=[slug]), headers={"HX-Request": "true"}))
    client.force_login(td)
    for url in [
        reverse("tournament_home", args=[slug]),
        reverse("clock_console", args=[slug]),
        reverse("report", kwargs={"slug": slug, "report": "results", "fmt": "pdf"}),
    ]:
        directives(client.get(url))
    directives(client.post(reverse("clock_control", args=[slug, "pause"])))
    # A refused CSRF check is a page of ours too.
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(td)
    refused = strict.post(reverse("clock_control", args=[slug, "pause"]))
    assert refused.status_code == 403
    directives(refused)
    assert "Reload the page" in refused.content.decode()


def test_the_checker_finds_inline_code():
    """The scanner below would notice what it is looking for."""
    assert inline_code("<script>alert(1)</script>")
    assert inline_code('<button onclick="go()">x</button>')
    assert inline_code('<div hx-on:click="go()"></div>')
    assert inline_code('<a href="javascript:go()">x</a>')
    assert inline_code('<p style="color: red">x</p>')
    assert not inline_code('<script src="/static/js/x.js"></script>')
    assert not inline_code('<script id="s" type="application/json">{"a": 1}</script>')


@pytest.mark.parametrize(
    "name",
    sorted(
        name for name, (method, row) in MATRIX.items() if method == "get" and OK in row.values()
    ),
)
def test_no_page_of_the_matrix_has_inline_code(client, world, name):
    _method, expected = MATRIX[name]
    url = url_for(world, name)
    pages = 0
    for role in ROLES:
        if expected[role] != OK:
            continue
        client.logout()
        if world["users"][role] is not None:
            client.force_login(world["users"][role])
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            assert response.status_code == OK, (name, role, headers)
            directives(response)
            if not response["Content-Type"].startswith("text/html"):
                continue
            pages += 1
            assert inline_code(response.content.decode()) == [], (name, role, headers)
    files = {"ruling_phh", "report", "tournament_export", "health"}
    files |= {"league_csv", "player_list_export", "person_export"}  # the people pages' downloads
    files |= {"jackpot_rules"}  # the printed jackpot rules (PDF)
    files |= {"results_export", "league_ranking"}  # the results files for the rankings
    files |= {"room_manifest", "room_service_worker"}  # the phone app's manifest and worker
    files |= {"feed_events", "feed_event"}  # the live feed answers JSON
    assert pages or name in files, name


def test_the_django_5_stand_in_sends_what_django_6_sends(rf):
    """CI's Django 5.2 gets the same header from our stand-in as Django 6's middleware."""
    from django.http import HttpResponse

    from config import csp

    fallback = csp.FallbackContentSecurityPolicyMiddleware(lambda request: HttpResponse("x"))
    sent = fallback(rf.get("/"))[csp.HEADER]
    assert "script-src 'self'" in sent and "frame-ancestors 'none'" in sent
    try:
        from django.middleware.csp import ContentSecurityPolicyMiddleware
    except ImportError:  # Django 5.2: the stand-in is the middleware in use
        assert csp.ContentSecurityPolicyMiddleware is csp.FallbackContentSecurityPolicyMiddleware
        return
    builtin = ContentSecurityPolicyMiddleware(lambda request: HttpResponse("x"))
    assert builtin(rf.get("/"))[csp.HEADER] == sent
    # A view that set its own policy keeps it, with either.
    own = HttpResponse("x", headers={csp.HEADER: "default-src 'none'"})
    assert fallback.process_response(rf.get("/"), own)[csp.HEADER] == "default-src 'none'"

"""CSRF on every POST: each POST route of the permission MATRIX, sent without a token by a
role that may use it, is refused with 403 and writes nothing; with the token it gets past
the check (so the 403 is the CSRF check's, not the permissions')."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import test_permissions
from tests.test_permissions import MATRIX, OK, REDIRECT, url_for

pytestmark = pytest.mark.django_db

world = test_permissions.world  # the matrix's sample data, as a fixture here too

PREFERRED = ("td", "floor", "desk", "anonymous", "outsider", "manager", "books", "cash", "pit")


def allowed_role(expected: dict) -> str:
    # Routes no role of the sample world may use (the cash room's, held by room-level roles)
    # are still checked: refused without a token, and the matrix's status with it.
    return next((role for role in PREFERRED if expected[role] in {OK, REDIRECT}), "td")


def snapshot() -> dict[str, list]:
    """Every row of every table, to compare before and after."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
    }


# POSTs that carry no cookie by design, each with why: its signed link is the capability.
EXEMPT = {
    "room_notify_answer": "a notification's button, posted by the service worker with the "
    "call's signed link (no session, no cookie)",
}
POSTS = sorted(
    name for name, (method, _row) in MATRIX.items() if method == "post" and name not in EXEMPT
)


def test_every_post_route_is_walked():
    assert len(POSTS) > 30 and "clock_control" in POSTS and "tablet_hand" in POSTS


@pytest.mark.parametrize("name", POSTS)
def test_a_post_without_the_token_is_refused_and_writes_nothing(world, name):
    _method, expected = MATRIX[name]
    role = allowed_role(expected)
    url = url_for(world, name)
    client = Client(enforce_csrf_checks=True)
    if world["users"][role] is not None:
        client.force_login(world["users"][role])
    # Any page on base.html has a form (the language picker): the CSRF cookie is set.
    client.get(reverse("public_results", args=[world["kwargs"]["slug"]]))
    token = client.cookies[settings.CSRF_COOKIE_NAME].value

    before = snapshot()
    refused = client.post(url, {"action": "pause", "hand": "done"})
    assert refused.status_code == 403, (name, role, refused.status_code)
    assert snapshot() == before, (name, role)
    # A token that does not match is no better than none.
    forged = client.post(url, {"csrfmiddlewaretoken": "x" * 64}, headers={"X-CSRFToken": "y" * 64})
    assert forged.status_code == 403, (name, role)
    assert snapshot() == before, (name, role)

    allowed = client.post(url, headers={"X-CSRFToken": token})
    assert allowed.status_code == expected[role], (name, role, allowed.status_code)


@pytest.mark.parametrize("name", sorted(EXEMPT))
def test_a_post_exempt_from_the_token_still_needs_its_signed_link(world, name):
    """Without the token and with a link that is none of ours: refused as the matrix says
    (not found), and nothing written."""
    _method, expected = MATRIX[name]
    client = Client(enforce_csrf_checks=True)
    before = snapshot()
    refused = client.post(url_for(world, name), {"answer": "coming"})
    assert refused.status_code == expected["anonymous"] != 200, name
    assert snapshot() == before, name


def test_login_needs_the_token_too(td):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "td", "password": "pw-td"})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session

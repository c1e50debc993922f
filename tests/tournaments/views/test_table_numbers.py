"""A table number in the URL past any table (found by `bench fuzz`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("number", [0, 10_000, 2**63, 10**25])
def test_a_hand_at_a_table_that_cannot_exist_is_no_server_error(client, floor, tournament, number):
    client.force_login(floor)
    response = client.post(reverse("table_hand", args=[tournament.slug, number]), follow=True)
    assert response.status_code < 500
    assert tournament.events.filter(action="table.hand").count() == 0

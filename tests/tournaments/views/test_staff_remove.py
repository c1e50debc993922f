"""Staff can be removed from a tournament on the setup staff page; the
last TD cannot, and the removal is logged."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import make_user
from tournaments.models import Event, Role, StaffAssignment

pytestmark = pytest.mark.django_db


def _remove(client, tournament, user_id, **extra):
    return client.post(
        reverse("staff_edit", args=[tournament.slug]), {"remove": user_id}, follow=True, **extra
    )


def test_the_td_removes_a_desk_who_then_cannot_reach_the_desk(client, tournament, td, desk):
    client.force_login(td)
    page = client.get(reverse("staff_edit", args=[tournament.slug])).content.decode()
    assert 'data-testid="staff-remove"' in page
    page = _remove(client, tournament, desk.pk).content.decode()
    assert "desk no longer has a role here." in page
    assert not StaffAssignment.objects.filter(tournament=tournament, user=desk).exists()
    assert Event.objects.filter(tournament=tournament, action="staff.remove").count() == 1
    client.force_login(desk)
    assert client.get(reverse("desk", args=[tournament.slug])).status_code in {403, 404}


def test_the_last_td_stays_and_junk_is_a_clear_refusal(client, tournament, td, desk):
    client.force_login(td)
    page = _remove(client, tournament, td.pk).content.decode()
    assert "last TD cannot be removed" in page
    assert StaffAssignment.objects.filter(tournament=tournament, user=td, role=Role.TD).exists()
    for junk in ("²", "-1", "x", "", str(make_user("nobody").pk)):
        response = _remove(client, tournament, junk)
        assert response.status_code == 200
        assert "That person has no role in this tournament." in response.content.decode()
    assert StaffAssignment.objects.filter(tournament=tournament).count() == 2


def test_a_desk_cannot_remove_anyone(client, tournament, td, desk):
    client.force_login(desk)
    response = client.post(reverse("staff_edit", args=[tournament.slug]), {"remove": td.pk})
    assert response.status_code in {403, 404}
    assert StaffAssignment.objects.filter(tournament=tournament, user=td).exists()


def test_with_two_tds_one_may_remove_the_other(client, tournament, td):
    other = make_user("td2")
    StaffAssignment.objects.create(tournament=tournament, user=other, role=Role.TD)
    client.force_login(td)
    _remove(client, tournament, other.pk)
    assert not StaffAssignment.objects.filter(tournament=tournament, user=other).exists()

"""Rebuy and add-on windows hold at every level and at every break."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors, selectors
from tournaments.rules.entry_rules import ClockSpot, addon_window_open, rebuy_window_open
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import setup as setup_services

# Level 1, break, level 2, level 3, break, level 4: each moment sits inside one item.
STRUCTURE = [
    setup_services.ItemSpec(kind="level", small_blind=100, big_blind=200, minutes=20),
    setup_services.ItemSpec(kind="break", minutes=10),
    setup_services.ItemSpec(kind="level", small_blind=200, big_blind=400, minutes=20),
    setup_services.ItemSpec(kind="level", small_blind=300, big_blind=600, minutes=20),
    setup_services.ItemSpec(kind="break", minutes=10, color_up=25),
    setup_services.ItemSpec(kind="level", small_blind=400, big_blind=800, minutes=20),
]
MOMENTS = {
    "level 1": 5,
    "break after 1": 25,
    "level 2": 35,
    "level 3": 55,
    "break after 3": 75,
    "level 4": 85,
}
# Rebuys until the end of level 2; the add-on at the break after level 3.
REBUY_ON_SALE = {"level 1", "break after 1", "level 2"}
ADDON_ON_SALE = {"break after 3"}


@pytest.mark.parametrize(
    ("spot", "rebuy", "addon"),
    [
        (ClockSpot(started=False), True, False),
        (ClockSpot(started=True, level=1), True, False),
        (ClockSpot(started=True, level=2), True, False),
        (ClockSpot(started=True, level=2, at_break=True), False, False),
        (ClockSpot(started=True, level=3), False, False),
        (ClockSpot(started=True, level=3, at_break=True), False, True),
        (ClockSpot(started=True, level=8, at_break=True), False, False),
        (ClockSpot(started=True, finished=True, level=8), False, False),
    ],
)
def test_the_windows_as_rules(spot, rebuy, addon):
    assert rebuy_window_open(spot, until_level=2) is rebuy
    assert addon_window_open(spot, break_after_level=3) is addon


def test_no_limit_means_always_on_sale():
    spot = ClockSpot(started=True, level=9, at_break=True)
    assert rebuy_window_open(spot, until_level=None)
    assert addon_window_open(spot, break_after_level=None)


@pytest.fixture
def event(td):
    tournament = make_tournament(
        td,
        rebuys_allowed=True,
        rebuy_max=20,
        rebuy_price=50,
        rebuy_chips=1000,
        rebuy_until_level=2,
        addon_allowed=True,
        addon_price=50,
        addon_chips=2000,
        addon_break_after_level=3,
    )
    setup_services.structure_set(tournament=tournament, actor=td, items=STRUCTURE, now=NOW)
    clock_services.clock_start(tournament=tournament, actor=td, now=NOW)
    tournament.refresh_from_db()
    return tournament


def _sold(tournament, td, kind, when) -> bool:
    registration = entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=td, now=NOW
    )
    try:
        entry_services.entry_purchase(
            tournament=tournament, entry=registration.entry, kind=kind, actor=td, now=when, stack=0
        )
    except (errors.RebuyNotAllowed, errors.AddonNotAllowed):
        return False
    return True


@pytest.mark.django_db
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_the_desk_sells_rebuys_and_addons_exactly_in_their_windows(event, td, moment):
    when = NOW + dt.timedelta(minutes=MOMENTS[moment])
    assert _sold(event, td, "rebuy", when) is (moment in REBUY_ON_SALE)
    assert _sold(event, td, "addon", when) is (moment in ADDON_ON_SALE)
    assert selectors.purchases_on_sale(event, when) == {
        "rebuy": moment in REBUY_ON_SALE,
        "addon": moment in ADDON_ON_SALE,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("moment", ["level 3", "break after 3", "level 4"])
def test_the_desk_shows_the_addon_button_only_while_addons_are_on_sale(event, td, client, moment):
    registration = entry_services.entry_register(
        tournament=event, player=make_player("Anna", "Bianchi"), actor=td, now=NOW
    )
    client.force_login(td)
    with time_machine.travel(NOW + dt.timedelta(minutes=MOMENTS[moment]), tick=False):
        page = client.get(f"/t/{event.slug}/desk/search/", {"q": "Bianchi"}).content.decode()
    addon_url = f"/t/{event.slug}/desk/entries/{registration.entry.number}/addon/"
    rebuy_url = f"/t/{event.slug}/desk/entries/{registration.entry.number}/rebuy/"
    assert (addon_url in page) is (moment in ADDON_ON_SALE)
    assert rebuy_url not in page  # rebuys ended with level 2


@pytest.mark.django_db
def test_the_clock_announces_the_addon_break(event):
    payload = selectors.clock_payload(event, NOW + dt.timedelta(minutes=55))
    assert payload["addon_break_index"] == 4
    assert payload["items"][4]["break"]

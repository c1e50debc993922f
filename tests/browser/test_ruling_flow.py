"""A floor person rules on a hand in the browser: htmx swaps each step in place."""

from __future__ import annotations

import os
import re

import pytest

from tests.conftest import make_tournament, make_user
from tournaments.models import Role, Ruling, StaffAssignment
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_floor_rules_on_an_undercall_and_saves_it(live_server, page):
    td = make_user("td-ruling", staff=True)
    tournament = make_tournament(td, tables=2)
    floor = make_user("floor-ruling")
    StaffAssignment.objects.create(tournament=tournament, user=floor, role=Role.FLOOR)

    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "floor-ruling")
    page.fill("#id_password", "pw-floor-ruling")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/t/{tournament.slug}/ruling/")
    page.fill("input[name=stack_1]", "20000")
    page.fill("input[name=stack_2]", "20000")
    page.fill("input[name=stack_3]", "20000")
    page.fill("#button", "3")
    page.click("text=Later street, limit bets, house settings")
    page.select_option("#street", "flop")
    page.fill("#pot", "1000")
    page.click("text=Start the hand")
    page.locator(".ruling-next").wait_for()
    assert "Seat 1" in page.inner_text(".ruling-next")  # first left of the button after the flop

    page.select_option("#act-kind", "bet")
    page.fill("#act-to", "2000")
    page.click("text=Rule on it")
    page.locator(".ruling-steps li .ruling-answer").first.wait_for()
    assert "Seat 2" in page.inner_text(".ruling-next")
    # Seat 2 pushes one 500 chip: an undercall of the opening bet is a call (TDA-51b).
    page.select_option("#act-kind", "chips")
    page.fill("#act-chips", "500")
    page.click("text=Rule on it")
    page.locator(".ruling-steps li:nth-child(2) .cite").first.wait_for()
    step = page.inner_text(".ruling-steps li:nth-child(2)")
    assert "Undercalls" in step and "call 2000" in step  # R-CALL-3, cited by its title
    assert "Seat 3" in page.inner_text(".ruling-next")
    if os.environ.get("RULING_SCREENSHOT"):
        page.screenshot(path=os.environ["RULING_SCREENSHOT"], full_page=True)

    page.fill("#save-note", "Undercall: he must call the full raise.")
    page.click("form:has(#save-note) button[type=submit]")
    page.wait_for_url(re.compile(r"/ruling/\d+/$"))
    assert page.url.endswith(f"/ruling/{Ruling.objects.get().pk}/")
    assert "Undercall: he must call the full raise." in page.inner_text(".ruling-note")


def test_dealer_taps_the_buttons(live_server, page):
    from tests.conftest import NOW, make_player

    td = make_user("td-dealer", staff=True)
    tournament = make_tournament(td, tables=1)
    for i in range(3):
        entry_services.entry_register(
            tournament=tournament, player=make_player(f"D{i}"), actor=td, now=NOW
        )
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "td-dealer")
    page.fill("#id_password", "pw-td-dealer")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/t/{tournament.slug}/tables/1/dealer/")
    for box in page.locator("input[name^=stack_]").all():
        box.fill("10000")
    page.fill("#button", page.locator("input[name^=stack_]").first.get_attribute("name")[6:])
    page.click("text=Deal the hand")
    page.locator(".dealer-turn").wait_for()
    turn = page.inner_text(".dealer-turn")
    page.click("button.dealer-act[value=call]")
    page.wait_for_function("t => document.querySelector('.dealer-turn').innerText !== t", arg=turn)
    if os.environ.get("RULING_SCREENSHOT"):
        page.screenshot(path=os.environ["RULING_SCREENSHOT"], full_page=True)
    assert "call" in page.inner_text(".ruling-steps")

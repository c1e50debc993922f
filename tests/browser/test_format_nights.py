"""A PKO night and a satellite night in real Chromium, in English and in Italian.

The TD sets the format, the desk sees the buy-in split, the floor awards a bounty after
seeing it, prints the slip, the clock shows the bounty leader and the award is undone
from the log; a satellite plays down to its seats, the TD awards them and the target
event's desk recognises the winner's ticket at registration.
"""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament, make_user
from tournaments.models import BountyAward, DisplayScreen, Entry, SeatTicket
from tournaments.selectors.formats import bounty_of
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "save": "Save settings",
        "split": "What a buy-in pays",
        "slip": "Bounty payout slip",
        "leader": "Bounty leader",
        "seat": "1 seat",
        "awarded": "SEATS AWARDED",
        "award_seats": "Award the seats",
        "ticket": "Seat won in",
        "used": "the buy-in is covered",
    },
    "it-IT": {
        "save": "Salva impostazioni",
        "split": "Come si divide un buy-in",
        "slip": "Ricevuta di pagamento taglia",
        "leader": "Taglia più alta",
        "seat": "1 posto",
        "awarded": "POSTI ASSEGNATI",
        "award_seats": "Assegna i posti",
        "ticket": "Posto vinto nel",
        "used": "il buy-in è coperto",
    },
}


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


def _fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_pko_night(live_server, browser, locale):
    words = WORDS[locale]
    td = make_user(f"td-pko-{locale[:2]}", staff=True)
    tournament = make_tournament(td, tables=1, buy_in_prize=80, buy_in_fee=10)
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    _login(page, live_server.url, td.username)

    # The TD chooses the format in the event's settings.
    page.goto(f"{live_server.url}/t/{tournament.slug}/settings/")
    page.select_option("#id_bounty_format", "progressive")
    page.fill("#id_bounty_part_cents", "20")
    page.click(f"button:has-text('{words['save']}')")
    page.wait_for_load_state()
    tournament.refresh_from_db()
    assert (tournament.bounty_format, tournament.bounty_part_cents) == ("progressive", 2000)

    # The desk shows what a buy-in pays into each part.
    page.goto(f"{live_server.url}/t/{tournament.slug}/desk/")
    split = page.locator("#buy-in-split").inner_text()
    assert words["split"] in split and "20" in split and "110" in split

    hunter, target, other = _fill(tournament, td, 3)
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=target)], actor=td, now=NOW
    )

    # The floor says who won the last pot, sees the award, then confirms it.
    page.goto(f"{live_server.url}/t/{tournament.slug}/bounties/")
    page.select_option("select[name=eliminated]", str(target.number))
    page.fill("#id_winners", str(hunter.number))
    page.click("#show-award")
    preview = page.locator("#award-preview").inner_text()
    assert "→" in preview and "30" in preview
    assert not BountyAward.objects.exists()
    page.click("#confirm-award")
    slip = page.locator("#slip").inner_text()
    assert words["slip"] in slip and str(hunter.player) in slip and "10" in slip

    # The clock shows the new bounty leader; the tablet shows his bounty.
    clock = DisplayScreen.objects.create(tournament=tournament, name="Clock", kind="clock")
    page.goto(f"{live_server.url}/s/{clock.token}/")
    assert (
        f"{words['leader']}: {hunter.player}"
        in page.locator("[data-testid=bounty-leader]").inner_text()
    )

    # The award is undone from the log, and the bounty is back to the start.
    page.goto(f"{live_server.url}/t/{tournament.slug}/log/")
    page.locator("form[action*='/undo/'] button").first.click()
    page.wait_for_load_state()
    hunter.refresh_from_db()
    assert bounty_of(hunter, tournament) == 2000  # back to the starting bounty
    assert not BountyAward.objects.filter(voided=False).exists()
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_satellite_night(live_server, browser, locale):
    words = WORDS[locale]
    td = make_user(f"td-sat-{locale[:2]}", staff=True)
    target = make_tournament(td, tables=1, name="Main Event", buy_in_prize=200, buy_in_fee=50)
    satellite = make_tournament(td, tables=1, name="Satellite", buy_in_prize=100, buy_in_fee=10)
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    _login(page, live_server.url, td.username)

    # The TD makes it a satellite to the main event (seat value: its full entry price).
    page.goto(f"{live_server.url}/t/{satellite.slug}/settings/")
    page.select_option("#id_prize_type", "seats")
    page.select_option("#id_target_event", str(target.pk))
    page.click(f"button:has-text('{words['save']}')")
    page.wait_for_load_state()
    satellite.refresh_from_db()
    assert satellite.target_event_id == target.pk

    winner, *others = _fill(satellite, td, 3)  # 300 -> 1 seat of 250 + 50
    page.goto(f"{live_server.url}/t/{satellite.slug}/bounties/")
    assert words["seat"] in page.locator("#satellite").inner_text()
    for entry in others:
        results.eliminations_record(
            tournament=satellite, busts=[results.Bust(entry=entry)], actor=td, now=NOW
        )
    page.goto(f"{live_server.url}/t/{satellite.slug}/bounties/")
    assert words["awarded"] in page.locator("#satellite").inner_text()
    page.click(f"button:has-text('{words['award_seats']}')")
    page.locator("#tickets").wait_for()
    ticket = SeatTicket.objects.get(kind="seat")
    leftover = SeatTicket.objects.get(kind="cash")  # 50.00 to the first player out after it
    assert (leftover.player_id, leftover.amount_cents) == (others[-1].player_id, 5000)
    assert ticket.player_id == winner.player_id and ticket.code in page.inner_text("#tickets")

    # The main event's desk recognises the ticket and uses it at registration.
    page.goto(f"{live_server.url}/t/{target.slug}/desk/")
    page.fill("#q", winner.player.last_name)
    badge = page.locator(".seat-ticket")
    badge.wait_for()
    assert words["ticket"] in badge.inner_text()
    page.locator("#results li form button.primary").first.click()
    page.wait_for_load_state()
    assert words["used"] in page.content()
    ticket.refresh_from_db()
    assert ticket.redeemed_entry == Entry.objects.get(tournament=target, player=winner.player)
    context.close()


@pytest.mark.parametrize(
    ("locale", "drew"), [("en-GB", "drew envelope"), ("it-IT", "estrae la busta")]
)
def test_a_mystery_draw_appears_on_the_tv_as_it_happens(daphne_url, browser, locale, drew):
    from django.utils import timezone

    from tournaments.services import mystery as mystery_services

    td = make_user(f"td-mb-{locale[:2]}", staff=True)
    tournament = make_tournament(
        td, tables=1, bounty_format="mystery", bounty_part_cents=5000, stage_trigger_players=3
    )
    hunter, _other, out = _fill(tournament, td, 3)
    mystery_services.envelopes_publish(
        tournament=tournament,
        envelopes={"E1": 10000, "E2": 4000, "E3": 1000},
        actor=td,
        now=timezone.now(),
    )
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=out)], actor=td, now=timezone.now()
    )
    clock = DisplayScreen.objects.create(tournament=tournament, name="TV", kind="clock")
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{daphne_url}/s/{clock.token}/")
    page.wait_for_function("() => window.torneoClock && window.torneoClock.connected")
    assert page.locator("[data-testid=mystery-draw]").count() == 0
    mystery_services.mystery_draw_record(
        tournament=tournament,
        eliminated=out,
        portions=[[hunter]],
        envelope_code="E1",
        actor=td,
        now=timezone.now(),
    )
    shown = page.locator("[data-testid=mystery-draw]")
    shown.wait_for()
    assert drew in shown.inner_text() and "E1" in shown.inner_text()
    context.close()

"""A jackpot evening in real Chromium, in English and in Italian (browser and pages in that
language): the manager sets the rules in advance (a high-hand prize of €2); thirty hands are
raked, two of them at the table's tablet, and each drops €1 into the funds while the jackpot
TV and the brush board's strip follow live; the floor records a high hand in the last hour,
replaced twice, and pays it when the hour is over; a claim the engine refuses says why; a
bad beat is claimed, judged, confirmed by the floor and then by the manager and paid, the TV
showing the hit; the slips print; the night's books hold the drops for the players and
balance to zero.

The books of this evening (both languages): rake €300; drops €30.00 (main 21.00, backup
6.00, next 3.00); high hand paid €2.00; bad beat paid €19.00 (loser 9.50, winner 4.75, three
players dealt in 1.59 + 1.58 + 1.58); held for the players tonight €9.00 (fund after: main
6.00, backup 3.00, next 0.00); drawer €309.00, accounted €309.00, difference 0."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from room.models import CashSeat, CashTable, JackpotFund, JackpotPayment
from room.services import cash_rake
from tests.browser import cash_steps as steps
from tests.conftest import make_cash_game, make_player, make_room_user
from tournaments.models import RoomRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "saved": "Jackpot rules saved.",
        "raked": "Rake 10 on a pot of 200.",
        "new_high": "A new high hand for the period.",
        "not_high": "Not a high hand: The hand does not reach the period's high hand.",
        "pay_period": "Pay the period",
        "high_paid": "High hand paid: 2.00.",
        "pays": "The engine pays this bad beat: The bad beat qualifies",
        "refuses": "The engine refuses this claim: Too few players were dealt in the hand.",
        "floor_ok": "Confirmed by the floor: a manager confirms and pays.",
        "paid": "Jackpot paid: 19.00.",
        "hit": "Bad-beat jackpot hit!",
        "high_hit": "High hand paid!",
        "balances": "Balances to zero",
        "held": "Jackpot money held for the players",
        "aces_full": "aces full of tens",
    },
    "it-IT": {
        "saved": "Regole del jackpot salvate.",
        "raked": "Rake 10 su un piatto di 200.",
        "new_high": "Nuova mano più alta del periodo.",
        "not_high": "Non è una high hand:",
        "pay_period": "Paga il periodo",
        "high_paid": "High hand pagata: 2,00.",
        "pays": "Il motore paga questo bad beat:",
        "refuses": "Il motore respinge questo reclamo:",
        "floor_ok": "Confermato dal floor: un responsabile di sala conferma e paga.",
        "paid": "Jackpot pagato: 19,00.",
        "hit": "Jackpot bad beat vinto!",
        "high_hit": "High hand pagata!",
        "balances": "Quadra a zero",
        "held": "Denaro del jackpot custodito per i giocatori",
        "aces_full": "full di assi con dieci",
    },
}


def _text(page, selector: str) -> str:
    return " ".join(page.text_content(selector).split())


def _live(screen, selector: str, text: str, timeout: int = steps.LIVE) -> None:
    """The screen shows `text` in `selector` by a push, without a reload."""
    screen.wait_for_function(
        f"() => (document.querySelector({json.dumps(selector)}) || {{}}).textContent"
        f"?.includes({json.dumps(text)})",
        timeout=timeout,
    )


def _money(cents: int, lang: str) -> str:
    text = f"{cents // 100}.{cents % 100:02d}"
    return text.replace(".", ",") if lang == "it" else text


def _message(page, text: str) -> None:
    try:
        page.wait_for_selector(f".messages :text({json.dumps(text, ensure_ascii=False)})")
    except Exception:
        raise AssertionError(_text(page, ".messages")) from None


def _high_hand(page, table, seat: int, cards: str, board: str, at: str = "") -> None:
    form = page.locator("[data-testid=high-hand-form]")
    form.locator("select[name=table]").select_option(f"c{table.pk}")
    form.locator("input[name=seat]").fill(str(seat))
    form.locator("input[name=cards]").fill(cards)
    form.locator("input[name=board]").fill(board)
    form.locator("input[name=time]").fill(at)
    form.locator("button[type=submit]").click()


def _claim(page, table, *, loser: str, winner: str, board: str, dealt: str) -> None:
    form = page.locator("[data-testid=bad-beat-form]")
    form.locator("select[name=table]").select_option(f"c{table.pk}")
    form.locator("input[name=board]").fill(board)
    form.locator("input[name=loser_seat]").fill("3")
    form.locator("input[name=loser_cards]").fill(loser)
    form.locator("input[name=winner_seat]").fill("7")
    form.locator("input[name=winner_cards]").fill(winner)
    form.locator("input[name=dealt]").fill(dealt)
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_jackpot_evening(daphne_url, browser, locale):
    words = WORDS[locale]
    lang = locale[:2]
    now = timezone.now()
    manager = make_room_user("giulia", RoomRole.MANAGER)
    make_room_user("marco", RoomRole.CASH)
    game = make_cash_game(manager, now=now, sb=1, bb=2, min_buy_in=100)
    table = CashTable.objects.create(game=game, number=1, opened_at=now)
    for seat in range(1, 9):
        CashSeat.objects.create(
            table=table,
            player=make_player(f"Nome{seat}", f"Posto{seat}"),
            number=seat,
            seated_at=now,
        )

    tv = steps.screen(browser, locale, steps.TV)
    tv.goto(f"{daphne_url}/room/jackpots/board/")
    steps.live(tv)
    brush = steps.screen(browser, locale, steps.TV)
    boss = steps.screen(browser, locale, steps.TABLET, accept_downloads=True)
    steps.login(boss, daphne_url, "giulia")
    floor = steps.screen(browser, locale, steps.TABLET)
    steps.login(floor, daphne_url, "marco")
    assert tv.get_attribute("html", "lang") == lang

    # --- 1. The rules, set in advance and printed -----------------------------------------
    boss.goto(f"{daphne_url}/room/jackpots/settings/")
    boss.fill("#id_high_prize", "2")
    boss.click("[data-testid=jackpot-settings-form] button[type=submit]")
    _message(boss, words["saved"])
    rules = boss.request.get(f"{daphne_url}/room/jackpots/rules/")
    assert rules.headers["content-type"] == "application/pdf" and rules.body()[:4] == b"%PDF"

    # --- 2. Drops collected over recorded hands, live on the screens ----------------------
    floor.goto(f"{daphne_url}/room/cash/tables/{table.pk}/tablet/")
    for _hand in range(2):
        form = floor.locator("[data-testid=rake-form]")
        form.locator("input[name=pot]").fill("200")
        form.locator("input[name=flop_dealt]").check()
        form.locator("button[type=submit]").click()
        _message(floor, words["raked"])
    _live(tv, "[data-testid=jackpot-main]", _money(140, lang))
    brush.goto(f"{daphne_url}/room/cash/board/")
    steps.live(brush)
    for _hand in range(28):
        cash_rake.rake_record(
            actor=manager,
            table=table,
            pot=200,
            flop_dealt=True,
            dealer=None,
            shift="",
            now=timezone.now(),
        )
    assert JackpotFund.objects.get().parts() == {"main": 2100, "backup": 600, "next": 300}
    _live(tv, "[data-testid=jackpot-main]", _money(2100, lang))
    # The brush board is the room's heaviest page, read again for each of the 28 pushes
    # (the last one queued behind the one in flight): on two shared cores that can take
    # longer than a screen's usual push.
    _live(brush, "[data-testid=jackpot-main]", _money(2100, lang), timeout=10_000)
    assert _money(600, lang) in _text(tv, "[data-testid=jackpot-backup]")
    assert words["aces_full"] in _text(tv, "[data-testid=jackpot-strip]")

    # --- 3. A high hand replaced twice in the last hour, paid when the hour is over -------
    last_hour = timezone.localtime(timezone.now()) - timedelta(hours=1)
    hh = f"{last_hour.hour:02d}"
    floor.goto(f"{daphne_url}/room/jackpots/")
    _high_hand(floor, table, 2, "Ah Ad", "As 2c 2d 9h 4s", f"{hh}:05")
    _message(floor, words["new_high"])
    _high_hand(floor, table, 5, "3h 3d", "3s 3c Kd 9h 4s", f"{hh}:20")
    _message(floor, words["new_high"])
    _high_hand(floor, table, 6, "Ac Ad", "As 3c 3d 9h 4s", f"{hh}:30")
    _message(floor, words["not_high"])
    _high_hand(floor, table, 1, "9c 9d", "9s 9h 2d Th 4s", f"{hh}:40")
    _message(floor, words["new_high"])
    floor.click(
        f"[data-testid=pay-period] button:has-text({json.dumps(words['pay_period'], ensure_ascii=False)})"
    )
    _message(floor, words["high_paid"])
    paid = JackpotPayment.objects.get(kind="high_hand")
    assert [(s["seat"], s["cents"]) for s in paid.shares] == [(1, 200)]
    _live(tv, "[data-testid=jackpot-hit]", words["high_hit"])
    # A high hand of this hour: the TV shows it as cards.
    _high_hand(floor, table, 4, "Kh Kd", "Ks Kc 7h 7d 2s")
    _message(floor, words["new_high"])
    tv.wait_for_selector("[data-testid=jackpot-high-hand] .pc[data-card=Kh]", timeout=steps.LIVE)
    red = tv.locator("[data-testid=jackpot-high-hand] .pc[data-card=Kh]")
    assert red.evaluate("el => getComputedStyle(el).color") == "rgb(200, 16, 46)"

    # --- 4. A claim refused in words; a bad beat judged, confirmed twice, paid -----------
    _claim(floor, table, loser="Ah Ad", winner="Kc Kd", board="As Kh Ks 7c 2d", dealt="3 7")
    _message(floor, words["refuses"])
    _claim(floor, table, loser="Ah Ad", winner="Kc Kd", board="As Kh Ks 7c 2d", dealt="1 2 3 5 7")
    _message(floor, words["pays"])
    claim_row = floor.locator("tr[data-testid^=claim-]").filter(
        has=floor.locator("[data-testid^=confirm-]")
    )
    claim_row.locator("[data-testid^=confirm-]").click()
    _message(floor, words["floor_ok"])
    boss.goto(f"{daphne_url}/room/jackpots/")
    boss.locator("[data-testid^=confirm-]").click()
    _message(boss, words["paid"])
    _live(tv, "[data-testid=jackpot-hit]", words["hit"])
    _live(tv, "[data-testid=jackpot-main]", _money(600, lang))
    payment = JackpotPayment.objects.get(kind="bad_beat")
    shares = {(s["role"], s["seat"]): s["cents"] for s in payment.shares}
    assert shares == {
        ("loser", 3): 950,
        ("winner", 7): 475,
        ("room", None): 0,
        ("table", 1): 159,
        ("table", 2): 158,
        ("table", 5): 158,
    }
    slips = boss.request.get(f"{daphne_url}/room/jackpots/payments/{payment.pk}/slips/")
    assert slips.headers["content-type"] == "application/pdf"
    assert JackpotFund.objects.get().parts() == {"main": 600, "backup": 300, "next": 0}

    # --- 5. The night's books: the drops held for the players, balanced to zero ----------
    night = timezone.localdate().isoformat()
    boss.goto(f"{daphne_url}/books/?night={night}")
    assert _text(boss, "[data-testid=jackpot-drops]") == _money(3000, lang)
    assert _text(boss, "[data-testid=jackpots-paid]") == _money(2100, lang)
    assert _text(boss, "[data-testid=jackpot-held]") == _money(900, lang)
    assert words["held"] in _text(boss, "[data-testid=where]")
    assert words["balances"] in _text(boss, "[data-testid=balance]")
    steps.SHOTS.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(steps.SHOTS / f"jackpot-tv-1920x1080-{locale}.png"))

"""The cash room's settings and rake report in real Chromium, in English and Italian: the
manager changes the sit-out length and names the dealer shifts on the settings page; the
tablet's rake form offers the staff as dealers and the running shift, with "flop dealt" not
ticked; the report counts the rake by shift, and its CSV is in the room's time and in
words."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest
from django.utils import timezone

from tables.cash.shifts import shift_at
from tables.models import RakeRecord, RoomRole, RoomStaff
from tables.services import cash as services
from tests.conftest import make_cash_game, make_player, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "title": "Cash room settings",
        "sit_out": "Minutes of a sit-out",
        "default": "Rulebook: 30",
        "saved": "Room settings saved.",
        "shifts": ("Day", "Night"),
        "raked": "Rake 10 on a pot of 200.",
        "by_shift": "By shift",
        "head": ["Time", "Table", "Game", "Hand", "Dealer", "Shift", "Flop dealt", "Pot", "Rake"],
        "yes": "yes",
    },
    "it-IT": {
        "title": "Impostazioni della sala cash",
        "sit_out": "Minuti di un sit-out",
        "default": "Regolamento: 30",
        "saved": "Impostazioni della sala salvate.",
        "shifts": ("Giorno", "Notte"),
        "raked": "Rake 10 su un piatto di 200.",
        "by_shift": "Per turno",
        "head": [
            "Ora",
            "Tavolo",
            "Gioco",
            "Mano",
            "Dealer",
            "Turno",
            "Flop distribuito",
            "Pot",
            "Rake",
        ],
        "yes": "sì",
    },
}


def _login(page, url, username):
    page.goto(f"{url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda u: "/login/" not in u)


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_settings_and_rake_report(daphne_url, browser, locale, tmp_path):
    words = WORDS[locale]
    manager = make_user("roommanager")
    RoomStaff.objects.create(user=manager, role=RoomRole.MANAGER)
    mara = make_user("mara")
    mara.first_name = "Mara"
    mara.save()
    RoomStaff.objects.create(user=mara, role=RoomRole.DEALER)
    now = timezone.now()
    game = make_cash_game(manager, now=now)
    players = [make_player(name) for name in ("Anna", "Bruno")]
    services.list_add(actor=manager, player=players[0], games=[game], present=True, now=now)
    services.list_add(actor=manager, player=players[1], games=[game], present=True, now=now)
    table = services.table_open(
        actor=manager,
        game=game,
        number=3,
        present={p.pk for p in players},
        now=now,
        rng=random.Random(5),
    )

    page = browser.new_context(locale=locale, accept_downloads=True).new_page()
    page.set_default_timeout(10000)
    _login(page, daphne_url, "roommanager")

    # The settings page: every setting with the rulebook's value beside it.
    page.goto(f"{daphne_url}/room/cash/settings/")
    assert page.text_content("h1") == words["title"]
    sit_out = page.locator("#id_sit_out_minutes")
    assert sit_out.input_value() == "30"
    group = page.locator("[data-testid=setting-sit_out_minutes]")
    assert words["sit_out"] in group.text_content()
    assert words["default"] in group.text_content()
    sit_out.fill("45")
    day, night = words["shifts"]
    page.fill("#id_shifts", f"{day} 06:00\n{night} 18:00")
    page.click("[data-testid=room-settings-form] button[type=submit]")
    page.wait_for_selector(f"text={words['saved']}")
    settings = services.room_settings()
    assert settings.sit_out_minutes == 45
    assert [s.name for s in settings.shifts] == [day, night]
    page.screenshot(path=str(tmp_path / f"settings-{locale}.png"), full_page=True)

    # The tablet's rake form: flop not ticked, the dealers of the staff, the running shift.
    page.goto(f"{daphne_url}/room/cash/tables/{table.pk}/tablet/")
    form = page.locator("[data-testid=rake-form]")
    assert not form.locator("input[name=flop_dealt]").is_checked()
    dealers = form.locator("select[name=dealer] option").all_text_contents()
    assert "Mara" in dealers
    local = timezone.localtime()
    running = shift_at(local.hour * 60 + local.minute, settings.shifts)
    assert form.locator("select[name=shift]").input_value() == running.name
    form.locator("input[name=pot]").fill("200")
    form.locator("input[name=flop_dealt]").check()
    form.locator("select[name=dealer]").select_option(label="Mara")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(f"text={words['raked']}")
    record = RakeRecord.objects.get()
    assert (record.dealer, record.shift, record.rake) == ("Mara", running.name, 10)

    # The report: by shift, and its CSV in the room's time and in words.
    page.goto(f"{daphne_url}/room/cash/rake/")
    assert words["by_shift"] in page.text_content("main")
    assert running.name in page.text_content("[data-testid=by-shift]")
    with page.expect_download() as download:
        page.click("[data-testid=export-csv]")
    path = Path(download.value.path())
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert rows[0] == words["head"]
    wall = timezone.localtime(record.at).strftime("%Y-%m-%d %H:%M")
    assert rows[1][0] == wall
    assert rows[1][4:7] == ["Mara", running.name, words["yes"]]
    page.screenshot(path=str(tmp_path / f"rake-report-{locale}.png"), full_page=True)
    page.context.close()

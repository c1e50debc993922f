"""A cash evening in real Chromium, lived by the room's manager in English and in Italian
(browser and pages in that language): two games and twenty-odd players on their lists; the
tables open from the lists (a player already playing is shown, unticked, and refused in
words); seats from the lists in order, out of order with a reason, from another game with
his stake; calls and arrivals that run out, no-shows to the bottom, a skip; names typed at
the list found before any record is made; the tablet's board and the TV's brush board
(screenshots); coloured alerts; the room's settings; rake by shift with dealers of the
staff, its report and CSV in the room's time; closing a table and the night; then three pit
disputes. Each step checks what the manager, a player's phone or the TV shows."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from django.utils import formats, timezone, translation

from room.models import CashOut, CashSeat, CashTable, RakeRecord, WaitEntry
from room.selectors import cash as cash_reads
from room.services import cash_lists
from room.views.cash_phone import phone_token
from tables.cash.shifts import shift_at
from tests.browser import cash_steps as steps
from tests.conftest import make_cash_game, make_player, make_room_user
from tournaments.models import Player, RoomRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-GB": {
        "interest": "No table of this game is running",
        "open": "Open: draw seats and the button",
        "opened": "Table {n} is open",
        "call": "Call from the list",
        "sit_out_button": "Sit out",
        "playing": "T1 seat",
        "plays_at": "plays at table 1",
        "refused": "already playing: Rossi Anna at table 1",
        "seat": "Seat",
        "free": "free",
        "sits": "{p} sits at table {t} seat {s}.",
        "stake": "Stake he leaves his other table with",
        "left": "left table 1 with 340",
        "why": "out of list order: ",
        "order": "Sala Walter comes before Galli Yuri on the list",
        "out_of_order": "Out of order: 1 name is ahead of him on the list.",
        "ahead": "1 name is ahead of him on the list: seat him anyway?",
        "nobody": "Nobody is waiting.",
        "no_list": "No waiting list",
        "called": "{p} is called for table {t} seat {s}.",
        "ready": "Your seat is ready: table {t} seat {s} — answer within {m}",
        "coming": "I'm coming",
        "late": "The time to answer has run out: ask the floor.",
        "no_answer": "No answer: to the bottom",
        "not_came": "Did not come: to the bottom",
        "locked": "coming, seat locked up",
        "skipped": "Lombardi Sara keeps his place on the list. Esposito Tino is called",
        "no_match": "Nobody found for “Bianchi Luca”",
        "not_here": "the player must be here in person to join a list",
        "tick_new": "tick New player to create a record",
        "joined": "{p} is on the list.",
        "added": "Added to a list",
        "min": "{m} min",
        "stake_label": "Stake he leaves with",
        "close_q": "Close table 3?",
        "remove_q": "Remove Sala Walter from this list?",
        "ready_tv": "seat ready: table {t} seat {s}",
        "staff": ("Staff login", "Tournament director"),
        "alert": "1 alert on the board",
        "no_alerts": "No alerts",
        "one_alert": "1 alert",
        "two_alerts": "2 alerts on the board",
        "released": "Second missed-blind marker and a waiting list: the seat may be released.",
        "releasable": "may be released",
        "over": "sit-out over since",
        "settings": "Cash room settings",
        "sit_out": "Minutes of a sit-out",
        "rulebook": "Rulebook: 30",
        "saved": "Room settings saved.",
        "shifts": ("Day", "Night"),
        "one_minute": "1 minute",
        "decline": "Decline (no seat at this buy-in for 45 minutes)",
        "raked": "Rake 10 on a pot of 200.",
        "by_shift": "By shift",
        "head": ["Time", "Table", "Game", "Hand", "Dealer", "Shift", "Flop dealt", "Pot", "Rake"],
        "yes": "yes",
        "no_room": "Your role in the room does not allow this page.",
        "closed_table": "its players are on top of the list",
        "closed_badge": "closed table",
        "night_closed": "The night is closed.",
        "closed_by": "Closed {when} by giulia.",
        "pit_refused": "A split ace gets exactly one card and can't be doubled",
        "pit_article": "Double on any two cards (one card only)",
        "pit_single": "Other boxes with a bet, not entered here: 2; with them",
        "pit_21": "Box 1, hand 1: As Kc = 21, not a Black-Jack (a split hand).",
        "exposed": "as the Banco's card 2, exposed by mistake before its turn",
        "ten": "Th",
        "cards": {
            "split": ("9h 8s", "As 5d x2 / Ad 9s", "Ts 9d"),
            "single": ("9h 8c", "Tc 9d"),
            "bj21": ("Td 9h", "As Kc / Ad 5h", "Tc 9d"),
            "exposed": ("6c Th* 9s 4d", "Ts 8d", "9h 9d"),
        },
    },
    "it-IT": {
        "interest": "Nessun tavolo di questo gioco è aperto",
        "open": "Apri: sorteggia posti e bottone",
        "opened": "Il tavolo {n} è aperto",
        "call": "Chiama dalla lista",
        "sit_out_button": "Sit-out",
        "playing": "T1 posto",
        "plays_at": "gioca al tavolo 1",
        "refused": "stanno già giocando: Rossi Anna al tavolo 1",
        "seat": "Posto",
        "free": "libero",
        "sits": "{p} siede al tavolo {t} posto {s}.",
        "stake": "Fiches con cui lascia l'altro tavolo",
        "left": "ha lasciato il tavolo 1 con 340",
        "why": "fuori dall'ordine della lista: ",
        "order": "Sala Walter viene prima di Galli Yuri in lista",
        "out_of_order": "Fuori ordine: 1 nome lo precede in lista.",
        "ahead": "1 nome lo precede in lista: farlo sedere comunque?",
        "nobody": "Nessuno in attesa.",
        "no_list": "Nessuna lista di attesa",
        "called": "{p} è chiamato per il tavolo {t} posto {s}.",
        "ready": "Il tuo posto è pronto: tavolo {t} posto {s} — rispondi entro {m}",
        "coming": "Arrivo",
        "late": "Il tempo per rispondere è scaduto: chiedi al floor.",
        "no_answer": "Nessuna risposta: in fondo",
        "not_came": "Non è arrivato: in fondo",
        "locked": "arriva, posto bloccato",
        "skipped": "Lombardi Sara mantiene il suo posto in lista. Esposito Tino è chiamato",
        "no_match": "Nessuno trovato per “Bianchi Luca”",
        "not_here": "il giocatore deve essere presente di persona",
        "tick_new": "spunta Nuovo giocatore per creare una scheda",
        "joined": "{p} è in lista.",
        "added": "Aggiunto a una lista",
        "min": "{m} min",
        "stake_label": "Fiches con cui lascia il tavolo",
        "close_q": "Chiudere il tavolo 3?",
        "remove_q": "Togliere Sala Walter da questa lista?",
        "ready_tv": "posto pronto: tavolo {t} posto {s}",
        "staff": ("Accesso staff", "Direttore di torneo"),
        "alert": "1 avviso sul tabellone",
        "no_alerts": "Nessun avviso",
        "one_alert": "1 avviso",
        "two_alerts": "2 avvisi sul tabellone",
        "released": "Secondo marker di buio mancato e una lista di attesa: il posto può essere",
        "releasable": "posto liberabile",
        "over": "sit-out scaduto alle",
        "settings": "Impostazioni della sala cash",
        "sit_out": "Minuti di un sit-out",
        "rulebook": "Regolamento: 30",
        "saved": "Impostazioni della sala salvate.",
        "shifts": ("Giorno", "Notte"),
        "one_minute": "1 minuto",
        "decline": "Rifiuta (nessun posto a questo buy-in per 45 minuti)",
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
        "no_room": "Il tuo ruolo nella sala non consente di accedere a questa pagina.",
        "closed_table": "i suoi giocatori sono in cima alla lista",
        "closed_badge": "tavolo chiuso",
        "night_closed": "La serata è chiusa.",
        "closed_by": "Chiusa il {when} da giulia.",
        "pit_refused": "Un asso diviso riceve esattamente una carta",
        "pit_article": "Raddoppio su due carte qualsiasi",
        "pit_single": "Altre caselle con una puntata, non inserite qui: 2; con loro",
        "pit_21": "Casella 1, mano 1: A♠ K♣ = 21, non Black-Jack (una mano divisa).",
        "exposed": "è uscita come carta 2 del Banco, scoperta per errore",
        "ten": "10♥",
        # Italian suit letters: c cuori, q quadri, f fiori, p picche; the English s, h and d
        # mean nothing else in Italian and are still read (the Banco's 9h, the ace As).
        "cards": {
            "split": ("9c 8p", "Ap 5q x2 / Aq 9p", "10p 9q"),
            "single": ("9h 8f", "10f 9q"),
            "bj21": ("10q 9c", "As Kf / Aq 5c", "10f 9q"),
            "exposed": ("6f 10c* 9p 4q", "10p 8q", "9c 9q"),
        },
    },
}

NL_NAMES = [
    ("Anna", "Rossi"),
    ("Bruno", "Verdi"),
    ("Carla", "Neri"),
    ("Dario", "Gallo"),
    ("Elena", "Conti"),
    ("Fabio", "Ricci"),
    ("Gina", "Marino"),
    ("Ivo", "Greco"),
    ("Luca", "Bruno"),
    ("Marta", "Costa"),
    ("Nico", "Fontana"),
    ("Olga", "Rizzo"),
    ("Paolo", "Moretti"),
    ("Rita", "Barbieri"),
    ("Remo", "Santoro"),
    ("Irene", "Mariani"),
    ("Enzo", "Rinaldi"),
    ("Livia", "Caruso"),
    ("Sara", "Lombardi"),
    ("Tino", "Esposito"),
]
PLO_NAMES = [("Ugo", "Romano"), ("Vera", "Colombo"), ("Zeno", "Ferrari")]


def _q(text: str) -> str:
    """A text quoted for a selector's :text-is() or :has-text() (Italian has apostrophes)."""
    return json.dumps(text)


def _log(board, player) -> str:
    """The board's latest log row that names the player."""
    row = board.locator("[data-testid=cash-log] tr", has_text=str(player)).first
    return " ".join(row.text_content().split())


def _text(page, selector: str) -> str:
    return " ".join(page.text_content(selector).split())


def _open_table(board, words, game, number: int, *, tick=(), untick=()) -> None:
    """The floor opens a table from a game's list, changing the form's ticks as told."""
    form = f"[data-testid=game-{game.pk}]"
    board.click(f"{form} details:has(input[name=number]) > summary")
    for player in tick:
        board.check(f"{form} input[name=present][value='{player.pk}']")
    for player in untick:
        board.uncheck(f"{form} input[name=present][value='{player.pk}']")
    board.fill(f"{form} input[name=number]", str(number))
    board.click(f"{form} button[type=submit]:has-text({_q(words['open'])})")


def _seat_from_list(board, words, player, *, seat: int, stake=None, reason: str = "") -> None:
    board.click(f"[data-testid=entry-menu-{player.pk}] > summary")
    form = f"[data-testid=entry-{player.pk}] form[action$='/seat/']"
    board.fill(f"{form} input[name=seat]", str(seat))
    if stake is not None:
        board.fill(f"{form} input[name=leaving_stack]", str(stake))
    if reason:
        board.fill(f"{form} input[name=reason]", reason)
    board.click(f"{form} button:text-is({_q(words['seat'])})")


def _free_seats(number: int) -> list[int]:
    table = CashTable.objects.get(number=number, status=CashTable.Status.OPEN)
    taken = set(table.seats.values_list("number", flat=True))
    return [n for n in range(1, table.max_seats + 1) if n not in taken]


def _order(game) -> list[str]:
    return [str(e.player) for e in WaitEntry.objects.filter(game=game).order_by("position")]


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_cash_evening(daphne_url, browser, locale):
    words = WORDS[locale]
    lang = locale[:2]
    now = timezone.now()
    manager = make_room_user("giulia", RoomRole.MANAGER)
    mara = make_room_user("mara", RoomRole.DEALER)
    mara.first_name = "Mara"
    mara.save()
    make_room_user("capo-pit", RoomRole.PIT)
    nl = make_cash_game(manager, now=now, sb=1, bb=2, min_buy_in=100)
    plo = make_cash_game(
        manager, now=now, variant="Omaha", structure="pot_limit", sb=1, bb=2, min_buy_in=100
    )
    regulars = steps.listed(nl, NL_NAMES, manager, now)
    anna, sara, tino = regulars[0], regulars[18], regulars[19]
    cash_lists.list_add(actor=manager, player=anna, games=[plo], present=True, now=now)
    steps.listed(plo, PLO_NAMES, manager, now)
    walter, yuri = steps.listed(plo, [("Walter", "Sala"), ("Yuri", "Galli")], manager, now)
    marco = make_player("Marco", "Rossi")  # a regular of the room, on no list tonight

    tv = steps.screen(browser, locale, steps.TV)
    tv.goto(f"{daphne_url}/room/cash/board/")
    steps.live(tv)
    board = steps.screen(browser, locale, steps.TABLET, accept_downloads=True)
    steps.login(board, daphne_url, "giulia")
    board.goto(f"{daphne_url}/room/cash/")
    assert board.get_attribute("html", "lang") == lang
    assert tv.get_attribute("html", "lang") == lang

    # --- 1. Opening tables never crashes --------------------------------------------------
    # No Omaha table runs yet: its list is an interest list.
    assert words["interest"] in _text(board, f"[data-testid=game-{plo.pk}]")
    _open_table(board, words, nl, 1)
    board.wait_for_selector(f"text={words['opened'].format(n=1)}")
    tv.wait_for_function(
        "() => document.querySelector('#brush').textContent.includes('T1 9/9')",
        timeout=steps.LIVE,
    )
    _open_table(board, words, nl, 2)
    board.wait_for_selector(f"text={words['opened'].format(n=2)}")
    assert _order(nl) == [str(sara), str(tino)]
    # On the Omaha list Anna shows where she plays; the opening form leaves her unticked.
    plo_row = f"[data-testid=game-{plo.pk}]"
    assert words["playing"] in _text(board, f"{plo_row} [data-testid=playing-{anna.pk}]")
    assert words["plays_at"] in _text(board, f"[data-testid=open-playing-{anna.pk}]")
    # Ticked anyway: a message in words, no table, no error page.
    _open_table(board, words, plo, 3, tick=[anna], untick=[walter, yuri])
    board.wait_for_selector(f"text={words['refused']}")
    assert not CashTable.objects.filter(number=3).exists()
    # Walter and Yuri are not in the cash area yet: they keep their places.
    _open_table(board, words, plo, 3, untick=[walter, yuri])
    board.wait_for_selector(f"text={words['opened'].format(n=3)}")
    assert _order(plo) == [str(anna), str(walter), str(yuri)]

    # --- 2. Seating from a list respects the list ----------------------------------------
    # Anna leaves her €1/€2 seat for Omaha: the form asks for the stake she takes along.
    anna_seat = CashSeat.objects.get(player=anna).number
    free = _free_seats(3)
    board.click(f"[data-testid=entry-menu-{anna.pk}] > summary")
    assert board.locator(f"label:text-is({_q(words['stake'])})").is_visible()
    board.click(f"[data-testid=entry-menu-{anna.pk}] > summary")
    _seat_from_list(board, words, anna, seat=free[0], stake=340)
    board.wait_for_selector(f"text={words['sits'].format(p=anna, t=3, s=free[0])}")
    assert _text(board, f"[data-testid=seat-1-{anna_seat}] td.muted") == words["free"]
    cash_out = CashOut.objects.get(player=anna)
    assert (cash_out.game, cash_out.stack) == (nl, 340)
    assert words["left"] in _log(board, anna)
    # Yuri, below Walter, is seated out of order: asked first, then the reason is required.
    dialogs = steps.Dialogs(board)  # "1 name is ahead of him: seat him anyway?" Yes.
    board.click(f"[data-testid=entry-menu-{yuri.pk}] > summary")
    assert _text(board, f"[data-testid=out-of-order-{yuri.pk}]") == words["out_of_order"]
    board.click(f"[data-testid=entry-menu-{yuri.pk}] > summary")
    _seat_from_list(board, words, yuri, seat=free[1])
    board.wait_for_selector(f"text={words['order']}")
    assert dialogs.asked == [words["ahead"]]
    assert not CashSeat.objects.filter(player=yuri).exists()
    _seat_from_list(board, words, yuri, seat=free[1], reason="Walter is at dinner")
    board.wait_for_selector(f"text={words['sits'].format(p=yuri, t=3, s=free[1])}")
    assert words["why"] + "Walter is at dinner" in _log(board, yuri)
    # Walter went home: removing him asks first; the list is then empty, and says so.
    board.click(f"[data-testid=entry-menu-{walter.pk}] > summary")
    board.click(f"[data-testid=remove-{walter.pk}]")
    board.wait_for_selector(f"[data-testid=list-{plo.pk}] td:text-is({_q(words['nobody'])})")
    assert board.locator(f"[data-testid=list-{plo.pk}] td.num").count() == 0
    tv.wait_for_function(
        f"() => document.querySelector('[data-testid=brush-list-{plo.pk}]').textContent"
        f".includes({words['no_list']!r})",
        timeout=steps.LIVE,
    )

    # --- 3. Calls run out, no-shows go down the list, a skip -------------------------------
    # Sara's phone shows her lists; the call reaches it by push, without a reload.
    phone = steps.screen(browser, locale, steps.PHONE)
    phone.goto(f"{daphne_url}/room/cash/me/{phone_token(sara)}/")
    assert phone.locator("[data-testid=seat-ready]").count() == 0
    call = f"[data-testid=seat-1-{anna_seat}] button:has-text({_q(words['call'])})"
    board.click(call)
    board.wait_for_selector(f"text={words['called'].format(p=sara, t=1, s=anna_seat)}")
    phone.wait_for_selector("[data-testid=seat-ready]", timeout=steps.LIVE)
    ready = _text(phone, "[data-testid=seat-ready]")
    assert words["ready"].format(t=1, s=anna_seat, m=15) in ready, ready
    assert phone.text_content("[data-testid=countdown]").startswith(("15:00", "14:5"))
    # Sixteen minutes pass on the server's clock before she taps "I'm coming": too late.
    steps.call_runs_for(WaitEntry.objects.get(game=nl, player=sara), 16)
    phone.click(f"button[name=takes_seat][value=yes]:has-text({_q(words['coming'])})")
    phone.wait_for_selector(f"text={words['late']}")
    assert not WaitEntry.objects.get(game=nl, player=sara).coming
    assert phone.locator("button[name=takes_seat][value=yes]").count() == 0
    board.reload()
    assert board.text_content(f"[data-testid=call-countdown-{sara.pk}]") == "0:00"
    assert _text(board, f"[data-testid=to-bottom-{sara.pk}]") == words["no_answer"]
    board.click(f"[data-testid=to-bottom-{sara.pk}]")
    board.wait_for_selector(f"[data-testid=to-bottom-{sara.pk}]", state="detached")
    assert _order(nl) == [str(tino), str(sara)]
    # Tino is called and says at the desk he is coming: the board counts down his arrival.
    board.click(call)
    board.wait_for_selector(f"text={words['called'].format(p=tino, t=1, s=anna_seat)}")
    board.click(f"[data-testid=entry-{tino.pk}] button[name=takes_seat][value=yes]")
    board.wait_for_selector(f"[data-testid=entry-{tino.pk}] .badge.ok")
    assert words["locked"] in _text(board, f"[data-testid=entry-{tino.pk}]")
    arrival = board.text_content(f"[data-testid=call-countdown-{tino.pk}]")
    assert arrival.startswith(("15:00", "14:5")), arrival
    # He does not come within his fifteen minutes: down the list he goes.
    steps.call_runs_for(WaitEntry.objects.get(game=nl, player=tino), 16)
    board.reload()
    assert _text(board, f"[data-testid=to-bottom-{tino.pk}]") == words["not_came"]
    board.click(f"[data-testid=to-bottom-{tino.pk}]")
    board.wait_for_selector(f"[data-testid=to-bottom-{tino.pk}]", state="detached")
    assert _order(nl) == [str(sara), str(tino)]
    # Sara is called again but is on the phone outside: skipped, she keeps her place.
    board.click(call)
    board.wait_for_selector(f"text={words['called'].format(p=sara, t=1, s=anna_seat)}")
    board.click(f"[data-testid=skip-{sara.pk}]")
    board.wait_for_selector(f"text={words['skipped']}")
    assert _order(nl) == [str(sara), str(tino)]
    assert WaitEntry.objects.get(game=nl, player=tino).called_seat == anna_seat

    # --- 4. Lists show what a brush needs; typed names are searched first ----------------
    before = Player.objects.count()
    board.fill("#id_find", "rossi")
    board.wait_for_selector(f"[data-testid=match-{marco.pk}]")
    assert words["playing"].replace("T1", "T3") in _text(board, f"[data-testid=match-{anna.pk}]")
    board.check(f"[data-testid=match-{marco.pk}] input")
    board.check(f"[data-testid=list-add] input[name=games][value='{plo.pk}']")
    board.check("#id_present")
    board.click("[data-testid=list-add] button[type=submit]")
    board.wait_for_selector(f"text={words['joined'].format(p=marco)}")
    assert Player.objects.count() == before
    # Luca is new to the room: nobody is found; asked for, no record while the join is
    # refused (he is not in the room yet); then he arrives and is made once.
    board.fill("#id_find", "Bianchi Luca")
    board.wait_for_selector("[data-testid=no-match]")
    assert words["no_match"] in _text(board, "[data-testid=no-match]")
    board.check(f"[data-testid=list-add] input[name=games][value='{plo.pk}']")
    board.check("#id_present")
    board.click("[data-testid=list-add] button[type=submit]")
    board.wait_for_selector(f".message.error:has-text({_q(words['tick_new'])})")
    assert Player.objects.count() == before

    def new_player(present: bool) -> None:
        board.click("[data-testid=new-player] summary")
        board.check("#id_create")
        board.fill("#id_first_name", "Luca")
        board.fill("#id_last_name", "Bianchi")
        board.check(f"[data-testid=list-add] input[name=games][value='{plo.pk}']")
        if present:
            board.check("#id_present")
        board.click("[data-testid=list-add] button[type=submit]")

    new_player(present=False)
    board.wait_for_selector(f".message.error:has-text({_q(words['not_here'])})")
    assert Player.objects.count() == before
    new_player(present=True)
    board.wait_for_selector(f"text={words['joined'].format(p='Bianchi Luca')}")
    assert Player.objects.filter(last_name="Bianchi").count() == 1
    # Each name: when he joined, in the room's 24-hour clock, and how long he has waited.
    joined = WaitEntry.objects.get(game=nl, player=sara).joined_at
    row = _text(board, f"[data-testid=entry-{sara.pk}]")
    assert timezone.localtime(joined).strftime("%H:%M") in row, row
    assert re.fullmatch(r"\d+ min", _text(board, f"[data-testid=waited-{sara.pk}]"))
    # The log says who joined which list.
    log = board.locator("[data-testid=cash-log] tr", has_text="Bianchi Luca").first
    assert words["added"] in log.text_content() and str(plo) in log.text_content()
    page_text = board.inner_text("body")
    assert "a.m." not in page_text and "p.m." not in page_text
    assert words["staff"][1] not in page_text  # no room role called "Tournament director"

    # --- 5. The board fits a tablet; the brush board fits a TV -----------------------------
    for number in (1, 2, 3):
        for seat in range(1, 10):
            row = board.locator(f"[data-testid=seat-{number}-{seat}]").bounding_box()
            assert row["height"] <= 48, (number, seat, row)
        assert board.locator(f"[data-testid=table-{number}]").bounding_box()["height"] < 480
    # Both games, three tables of nine and their lists, in two and a half tablet screens.
    games = [board.locator(f"[data-testid=game-{g.pk}]").bounding_box() for g in (nl, plo)]
    assert sum(box["height"] for box in games) < 1900, games
    first_seat = CashSeat.objects.filter(table__number=1).order_by("number").first().number
    seat_menu = board.locator(f"[data-testid=seat-menu-1-{first_seat}]")
    seat_menu.locator("summary").click()
    assert seat_menu.locator("label", has_text=words["stake_label"]).first.is_visible()
    steps.SHOTS.mkdir(parents=True, exist_ok=True)
    board.locator("[data-testid=table-1]").scroll_into_view_if_needed()
    board.screenshot(path=str(steps.SHOTS / f"cash-board-1024x768-{locale}.png"))
    seat_menu.locator("summary").click()
    # Closing a table asks first: dismissed, nothing happens.
    dialogs.accept = False
    board.click("[data-testid=close-3]")
    board.wait_for_timeout(300)
    assert words["close_q"] in dialogs.asked[-1]
    assert CashTable.objects.get(number=3).status == CashTable.Status.OPEN
    dialogs.accept = True
    assert words["remove_q"] in dialogs.asked[-2]  # asked when Walter went home
    # The TV: large names, no staff chrome, and the called player's table and seat.
    tv.wait_for_selector(f"[data-testid=brush-list-{nl.pk}] li.called", timeout=steps.LIVE)
    called = tv.locator(f"[data-testid=brush-list-{nl.pk}] li.called")
    assert words["ready_tv"].format(t=1, s=anna_seat) in " ".join(called.text_content().split())
    size = float(called.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert size >= 32, size
    # His place number stands beside the green box, on the dark page: it must show there.
    marker = called.evaluate("el => getComputedStyle(el, '::marker').color")
    assert marker == "rgb(47, 179, 107)", marker
    # The seat and its countdown stay inside the green box, in either language's words.
    box = called.bounding_box()
    ready = called.locator(".brush-ready").bounding_box()
    assert ready["x"] + ready["width"] <= box["x"] + box["width"] + 1, (ready, box)
    assert tv.locator(".topbar").count() == 0
    for staff_words in words["staff"]:
        assert tv.get_by_text(staff_words).count() == 0
    assert tv.locator("#brush").bounding_box()["width"] > 1700
    tv.screenshot(path=str(steps.SHOTS / f"cash-brush-1920x1080-{locale}.png"))

    # --- 6. Overdue is visible: coloured and counted --------------------------------------
    assert _text(board, "[data-testid=alert-count]") == words["no_alerts"]
    out = CashSeat.objects.filter(table__number=2).order_by("number")[0]
    board.click(f"[data-testid=seat-2-{out.number}] button:has-text({_q(words['sit_out_button'])})")
    board.wait_for_selector(f"[data-testid=seat-2-{out.number}] .badge.warn")
    steps.sit_out_over(out, 5)
    board.reload()
    badge = board.locator(f"[data-testid=overdue-2-{out.number}]")
    assert words["over"] in badge.text_content()
    colour = badge.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour.startswith("rgb(226, 85, 85"), colour  # red, not a grey badge
    assert words["alert"] in _text(board, "[data-testid=alert-count]")
    assert _text(board, "[data-testid=table-alerts-2]") == words["one_alert"]
    # A player at table 1 misses his big blind twice while the €1/€2 list waits: the
    # tablet says so, and the board flags his seat (the floor decides, nothing is freed).
    missing = CashSeat.objects.filter(table__number=1).order_by("number")[0]
    board.goto(f"{daphne_url}/room/cash/tables/{missing.table_id}/tablet/")
    missed = f"form[action$='/cash/seats/{missing.pk}/marker/'] button"
    board.click(missed)
    board.wait_for_selector(f"[data-testid=markers-{missing.number}]")
    board.click(missed)
    board.wait_for_selector(f"text={words['released']}")
    board.goto(f"{daphne_url}/room/cash/")
    released = board.locator(f"[data-testid=releasable-1-{missing.number}]")
    assert released.text_content() == words["releasable"]
    colour = released.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour.startswith("rgb(226, 85, 85"), colour
    assert words["two_alerts"] in _text(board, "[data-testid=alert-count]")
    assert _text(board, "[data-testid=table-alerts-1]") == words["one_alert"]
    assert CashSeat.objects.filter(pk=missing.pk).exists()

    # --- 7. The room's settings in the UI, with the rulebook's defaults -------------------
    board.click("[data-testid=room-settings] a")
    assert board.text_content("h1") == words["settings"]
    group = _text(board, "[data-testid=setting-sit_out_minutes]")
    assert words["sit_out"] in group and words["rulebook"] in group
    assert board.input_value("#id_sit_out_minutes") == "30"
    assert board.input_value("#id_answer_minutes") == "15"
    board.fill("#id_sit_out_minutes", "45")
    board.fill("#id_answer_minutes", "1")
    board.fill("#id_decline_lockout_minutes", "45")
    day, night = words["shifts"]
    board.fill("#id_shifts", f"{day} 06:00\n{night} 18:00")
    board.click("[data-testid=room-settings-form] button[type=submit]")
    board.wait_for_selector(f"text={words['saved']}")
    settings = cash_reads.room_settings()
    assert (settings.sit_out_minutes, settings.answer_minutes) == (45, 1)
    assert [s.name for s in settings.shifts] == [day, night]
    board.goto(f"{daphne_url}/room/cash/")
    # A seat of table 3 is called: Marco's phone gives him one minute, in the singular.
    plo_free = _free_seats(3)[0]
    board.click(f"[data-testid=seat-3-{plo_free}] button:has-text({_q(words['call'])})")
    board.wait_for_selector(f"text={words['called'].format(p=marco, t=3, s=plo_free)}")
    phone.goto(f"{daphne_url}/room/cash/me/{phone_token(marco)}/")
    ready = _text(phone, "[data-testid=seat-ready]")
    assert words["ready"].format(t=3, s=plo_free, m=words["one_minute"]) in ready, ready
    assert _text(phone, "[data-testid=decline]") == words["decline"]
    # A sit-out now lasts 45 minutes.
    second = CashSeat.objects.filter(table__number=2).order_by("number")[1]
    board.click(
        f"[data-testid=seat-2-{second.number}] button:has-text({_q(words['sit_out_button'])})"
    )
    board.wait_for_selector(f"[data-testid=seat-2-{second.number}] .badge.warn")
    until = timezone.localtime(CashSeat.objects.get(pk=second.pk).sit_out_until)
    assert until - timezone.localtime() > timezone.timedelta(minutes=44)
    assert until.strftime("%H:%M") in _text(board, f"[data-testid=seat-2-{second.number}]")

    # --- 8. Rake by shift, dealers of the staff, the report in the room's time ------------
    table_one = CashTable.objects.get(number=1, status=CashTable.Status.OPEN)
    board.goto(f"{daphne_url}/room/cash/tables/{table_one.pk}/tablet/")
    form = board.locator("[data-testid=rake-form]")
    assert not form.locator("input[name=flop_dealt]").is_checked()
    assert "Mara" in form.locator("select[name=dealer] option").all_text_contents()
    local = timezone.localtime()
    running = shift_at(local.hour * 60 + local.minute, cash_reads.room_settings().shifts)
    assert form.locator("select[name=shift]").input_value() == running.name
    form.locator("input[name=pot]").fill("200")
    form.locator("input[name=flop_dealt]").check()
    form.locator("select[name=dealer]").select_option(label="Mara")
    form.locator("button[type=submit]").click()
    board.wait_for_selector(f"text={words['raked']}")
    record = RakeRecord.objects.get()
    assert (record.dealer, record.shift, record.rake) == ("Mara", running.name, 10)
    board.goto(f"{daphne_url}/room/cash/rake/")
    assert words["by_shift"] in board.text_content("main")
    assert running.name in board.text_content("[data-testid=by-shift]")
    with board.expect_download() as download:
        board.click("[data-testid=export-csv]")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    assert rows[0] == words["head"]
    assert rows[1][0] == timezone.localtime(record.at).strftime("%Y-%m-%d %H:%M")
    assert rows[1][4:7] == ["Mara", running.name, words["yes"]]
    # The pit supervisor has no business in the rake: a refusal that speaks of the room.
    pit_boss = steps.screen(browser, locale, steps.TABLET)
    steps.login(pit_boss, daphne_url, "capo-pit")
    response = pit_boss.goto(f"{daphne_url}/room/cash/rake/")
    assert response.status == 403
    assert words["no_room"] in pit_boss.text_content("main")
    pit_boss.context.close()

    # --- Closing: a table, then the night -------------------------------------------------
    board.goto(f"{daphne_url}/room/cash/")
    board.click("[data-testid=close-3]")  # "Close table 3?" Yes.
    board.wait_for_selector(f"text={words['closed_table']}")
    assert words["close_q"] in dialogs.asked[-1]
    tv.wait_for_function(
        f"() => document.querySelector('[data-testid=brush-list-{plo.pk}]').textContent"
        f".includes({words['closed_badge']!r})",
        timeout=steps.LIVE,
    )
    assert WaitEntry.objects.filter(game=plo, from_closed_table=True).count() == 5
    board.goto(f"{daphne_url}/books/")
    with translation.override(lang):
        today = formats.date_format(timezone.localdate(), "DATE_FORMAT")  # 7 dicembre 2026
    assert board.text_content("h1").endswith(today)
    board.click("[data-testid=close-night]")
    board.wait_for_selector(f"text={words['night_closed']}")
    closed = _text(board, "[data-testid=closed]")
    when = re.search(r"\d\d/\d\d/\d{4} \d\d:\d\d", closed)
    assert when and words["closed_by"].format(when=when.group()) == closed, closed
    assert when.group().startswith(formats.date_format(timezone.localdate(), "d/m/Y"))

    # --- 9, 10. Three pit disputes --------------------------------------------------------
    cards = words["cards"]
    board.goto(f"{daphne_url}/room/pit/blackjack/")
    # A split ace doubled: refused, and the page says why, with the article's own words.
    dealer, first, second_box = cards["split"]
    steps.coup(board, dealer, [(first, "50"), (second_box, "50")])
    refusals = board.locator("[data-testid=pit-refusals]")
    refusals.wait_for()
    text = refusals.inner_text()
    assert words["pit_refused"] in text and "BJ Art.6.4" in text and words["pit_article"] in text
    # One box disputed, two more in the round but not entered: settled.
    dealer, box = cards["single"]
    steps.coup(board, dealer, [(box, "100")], other_boxes="2")
    board.locator("[data-testid=pit-results]").wait_for()
    assert board.locator("[data-testid=pit-refusals]").count() == 0
    assert words["pit_single"] in " ".join(board.inner_text("[data-testid=pit-ruling]").split())
    assert board.inner_text("[data-testid=pit-house]") == "-100"
    # Ace and king after a split: 21, paid even money, not a Black-Jack.
    dealer, first, second_box = cards["bj21"]
    steps.coup(board, dealer, [(first, "100"), (second_box, "100")])
    board.locator("[data-testid=pit-steps]", has_text=words["pit_21"]).wait_for()
    # The Banco's second card shown before the boxes played: marked, annulled, not dealt.
    dealer, first, second_box = cards["exposed"]
    steps.coup(board, dealer, [(first, "100"), (second_box, "100")])
    board.locator("[data-testid=pit-steps]", has_text=words["exposed"]).wait_for()
    assert board.locator("[data-testid=pit-refusals]").count() == 0
    assert board.inner_text("[data-testid=pit-house]") == "200"
    assert "BJ Art.10.2" in board.inner_text("[data-testid=pit-steps]")
    assert words["ten"] in board.inner_text("[data-testid=pit-exposed]")

"""A PKO Saturday in real Chromium, once in Italian and once in English: a EUR 100+15
progressive knockout with re-entry and add-ons, about forty entries, run by its TD, its
desk and its floor from the structure to the winner, with the seating board, the clock TV
and a player's phone open. Each step checks what a user sees, in his language.

Most entries are sold through the services (the desk's own steps are tested elsewhere);
the ones that matter to the night's defects go through the desk in the browser.
"""

from __future__ import annotations

import re
from random import Random

import pytest
from django.utils import timezone

from tests.browser.pko_steps import assert_tv_fits, board_names, open_page, pdf_text, tv_layout
from tests.conftest import make_player, make_tournament, make_user
from tournaments.models import (
    DisplayScreen,
    Entry,
    Event,
    Role,
    Seat,
    StaffAssignment,
    Table,
    Tournament,
)
from tournaments.selectors import formats as format_selectors
from tournaments.selectors import tables as room_reads
from tournaments.services import bounties as bounties_services
from tournaments.services import clock as clock_services
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services
from tournaments.services import moves as room_services
from tournaments.services import results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 5000  # ms a screen may take to show a push (CI shares two cores with Chromium)

WORDS = {
    "it": {
        "known": "È un giocatore che conosciamo già?",
        "paid": "Pagato 115,00 EUR",
        "parts": ["Montepremi 50,00", "Fee 15,00", "Taglia 50,00"],
        "bounty": "50,00 EUR",
        "bounty_after": "75,00 EUR",
        "bust_done": "{name} eliminato; la taglia è assegnata.",
        "refused": "la taglia di {name} è già stata assegnata: annulla prima “Taglia assegnata”",
        "balances": "Quadra a zero",
        "undone": "Annullato.",
        "ask": "Tavolo {table}: il bottone è al posto",
        "where": "Tavolo {table} · Posto {seat}",
        "moved": "Spostato dal tavolo {table} · {seat}",
        "page": ("Pagina", "di"),
        "leader": "Taglia più alta",
        "bubble": "La bolla è scoppiata",
        "finished": "Terminato",
        "reentry": "Re-entry",
        "club_bba": "Club, big blind ante (livelli da 20 minuti)",
        "receipt_total": "Totale 115,00 EUR",
        "cash": "Contanti",
    },
    "en": {
        "known": "Is this a player we already know?",
        "paid": "Paid 115.00 EUR",
        "parts": ["Prize pool 50.00", "Fee 15.00", "Bounty 50.00"],
        "bounty": "50.00 EUR",
        "bounty_after": "75.00 EUR",
        "bust_done": "{name} out; the bounty is awarded.",
        "refused": "the bounty of {name} is settled: undo “Bounty awarded”",
        "balances": "Balances to zero",
        "undone": "Undone.",
        "ask": "Table {table}: the button is on seat",
        "where": "Table {table} · Seat {seat}",
        "moved": "Moved from {table} · {seat}",
        "page": ("Page", "of"),
        "leader": "Bounty leader",
        "bubble": "The bubble has burst",
        "finished": "Finished",
        "reentry": "Re-entry",
        "club_bba": "Club, big-blind ante (20-minute levels)",
        "receipt_total": "Total 115.00 EUR",
        "cash": "Cash",
    },
}

SURNAMES = [
    "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Gallo", "Costa",
    "Fontana", "Conti", "Marino", "Greco", "Bruno", "Rizzo", "Lombardi", "Moretti",
    "Barbieri", "Giordano", "Rinaldi", "Caruso", "Ferrara", "Galli", "Martini", "Leone",
    "Longo", "Gentile", "Martinelli", "Vitale", "Lombardo", "Serra", "Coppola", "De Santis",
    "D'Angelo", "Marchetti", "Parisi", "Villa", "Conte",
]  # fmt: skip
FIRST = ["Marco", "Giulia", "Luca", "Chiara", "Paolo", "Elena", "Davide", "Marta"]


def _now():
    return timezone.now()


def _seat(entry):
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def _active(tournament):
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .select_related("player", "seat__table")
        .order_by("number")
    )


def _bust(tournament, td, entry, winner=None):
    """A bust recorded by the floor, its bounty awarded to `winner` when one is named."""
    results.eliminations_record(
        tournament=tournament, busts=[results.Bust(entry=entry)], actor=td, now=_now()
    )
    if winner is not None:
        bounties_services.bounty_award_record(
            tournament=tournament, eliminated=entry, portions=[[winner]], actor=td, now=_now()
        )


def _pko_night(language):
    td = make_user(f"td-pko-night-{language}")
    clerk = make_user(f"desk-pko-night-{language}")
    last_week = make_tournament(td, name="PKO del sabato scorso", tables=1)
    tournament = make_tournament(
        td,
        name="PKO del sabato",
        tables=5,
        buy_in_prize=50,
        buy_in_fee=15,
        bounty_format="progressive",
        bounty_part_cents=5000,
        reentry_allowed=True,
        max_entries=2,
        expected_entries=40,
        late_registration_level=5,
        addon_allowed=True,
        addon_price=20,
        addon_chips=20000,
        addon_break_after_level=5,
    )
    for night in (last_week, tournament):
        StaffAssignment.objects.create(tournament=night, user=clerk, role=Role.DESK)
    # Seat 1 of every table is an accessible seat.
    Table.objects.filter(tournament=tournament).update(accessible_seats=[1])
    # Sara Colombo played last week, at this desk, with her identity card.
    sara = make_player("Sara", "Colombo", document_number="AB123424")
    entry_services.entry_register(tournament=last_week, player=sara, actor=td, now=_now())
    return td, clerk, tournament


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_pko_night(daphne_url, browser, language):
    words = WORDS[language]
    td, clerk, tournament = _pko_night(language)
    url = daphne_url
    slug = tournament.slug
    console = open_page(browser, language, user=td, url=url, width=1366, height=900)

    _structure_from_the_club_preset(console, url, tournament, words)
    desk = open_page(browser, language, user=clerk, url=url)
    _the_desk_asks_before_adding_a_known_player(desk, url, tournament, words)

    # The rest of the field comes to the desk: cash and card, one needing an accessible seat.
    for i, surname in enumerate(SURNAMES):
        player = make_player(FIRST[i % len(FIRST)], surname, needs_accessible_seat=i == 7)
        entry_services.entry_register(
            tournament=tournament,
            player=player,
            actor=clerk,
            now=_now(),
            payment_method="card" if i % 3 == 0 else "cash",
        )
    needy = Entry.objects.get(tournament=tournament, player__last_name=SURNAMES[7])
    assert Entry.objects.filter(tournament=tournament).count() == 39
    # Forty expected: the desk drew over the five tables planned for them, so the field
    # is balanced within one seat and no seat card changes at the start.
    drawn = _the_field_is_balanced_from_the_first_registration(tournament)

    # The seating board shows every seated player on some page, at both TV sizes.
    board = DisplayScreen.objects.create(tournament=tournament, name="Board", kind="seating")
    seated = {str(e.player) for e in _active(tournament)}
    for width, height in ((1920, 1080), (1280, 720)):
        screen = open_page(browser, language, width=width, height=height)
        page_word, of_word = words["page"]
        seen = board_names(screen, f"{url}/s/{board.token}/", page_word=page_word, of_word=of_word)
        assert seen == seated, f"missing at {width}x{height}: {sorted(seated - seen)[:3]}"
        screen.context.close()

    # The TD starts the clock; the TV follows.
    tv_screen = DisplayScreen.objects.create(tournament=tournament, name="TV", kind="clock")
    tv = open_page(browser, language, width=1920, height=1080)
    tv.goto(f"{url}/s/{tv_screen.token}/")
    tv.wait_for_selector("[data-sync][data-state=ok]")
    console.goto(f"{url}/t/{slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    console.locator(f"form[action='/t/{slug}/clock/start/'] button.primary").click()
    tv.wait_for_function("() => document.body.dataset.clockStatus === 'running'", timeout=LIVE)
    assert _where_everyone_sits(tournament) == drawn

    out, winner = _a_bust_awards_its_bounty_by_seat(console, url, tournament, words, avoid=needy)
    tv.locator("[data-testid=bounty-leader]", has_text=str(winner.player)).wait_for(timeout=LIVE)
    _undoing_the_bust_undoes_its_bounty(console, url, tournament, words, out, winner)
    out, winner = _a_bust_awards_its_bounty_by_seat(console, url, tournament, words, avoid=needy)
    _balancing_asks_for_the_unknown_buttons(console, url, tournament, td, words, avoid=needy)

    # The busted player re-enters at the desk: Enter registers the only player found.
    desk.goto(f"{url}/t/{slug}/desk/?q={out.player.last_name}")
    desk.locator("#results li").first.wait_for()
    desk.keyboard.press("Enter")
    desk.locator("[data-testid=seat]").wait_for()
    assert words["reentry"] in desk.inner_text(".seat-card")
    assert words["paid"] in desk.inner_text("[data-testid=paid]")
    assert Entry.objects.filter(tournament=tournament).count() == 40

    # The add-on break: one add-on at the desk in the browser, the others by card.
    tournament.refresh_from_db()
    clock_services.clock_jump(tournament=tournament, actor=td, index=5, now=_now())
    buyer = _active(tournament)[0]
    desk.goto(f"{url}/t/{slug}/desk/?q={buyer.player.last_name}")
    desk.locator(f"a[href$='/entries/{buyer.number}/addon/']").click()
    desk.locator("form button[type=submit].primary").click()
    desk.wait_for_url(re.compile(r"/desk/$"))
    for entry in _active(tournament)[:10]:
        if entry.pk != buyer.pk:
            entry_services.entry_purchase(
                tournament=tournament,
                entry=entry,
                kind="addon",
                actor=clerk,
                now=_now(),
                payment_method="card",
            )
    _the_till_matches_the_books(console, url, tournament, words, language)

    # Level 6: registration is closed.
    tournament.refresh_from_db()
    clock_services.clock_jump(tournament=tournament, actor=td, index=6, now=_now())
    _the_phone_follows_its_player_through_a_table_break(
        browser, language, console, url, tournament, td, words, avoid=needy
    )
    _the_ruling_tool_starts_from_the_tables_level(console, url, tournament)

    # Five paid places; the TV shows the prizes and the bounties, whole, at both sizes.
    results.payouts_generate(tournament=tournament, actor=td, now=_now(), paid_places=5)
    for width, height in ((1920, 1080), (1280, 720)):
        screen = open_page(browser, language, width=width, height=height)
        screen.goto(f"{url}/s/{tv_screen.token}/")
        seen = tv_layout(screen)
        assert_tv_fits(seen, width, height, "EUR")
        assert words["leader"] in seen["leader"]
        screen.context.close()

    _the_final_table_keeps_the_accessible_seat(console, url, tournament, td, needy)
    _hand_for_hand_ends_at_the_bubble_and_the_clock_finishes(
        console, tv, url, tournament, td, words, needy
    )
    # Italian as an Italian reads it: no English left, rule codes as words, numbers.
    if language == "it":
        _italian_as_an_italian_reads_it(console, url, tournament)

    # No page of the night answered with a server error, not even a refresh in the
    # background.
    for page in (console, desk, tv):
        assert page.server_errors == [], page.server_errors


def _structure_from_the_club_preset(page, url, tournament, words):
    """The TD loads the club structure with a big-blind ante, sees a big-blind ante fill
    itself, fills a column down and saves."""
    page.goto(f"{url}/t/{tournament.slug}/structure/")
    assert words["club_bba"] in page.inner_text("#preset")
    page.select_option("#preset", "club_bba")
    page.locator("button[name=op][value=preset]").click()
    first = page.locator("tr.level-row").first
    first.locator("input[name=ante][value='200']").wait_for()
    # Another mode clears the ante; choosing the big-blind ante again fills it with the BB.
    first.locator("select[name=ante_mode]").select_option("none")
    assert first.locator("input[name=ante]").input_value() == "0"
    first.locator("select[name=ante_mode]").select_option("big_blind_ante")
    assert first.locator("input[name=ante]").input_value() == "200"
    # Levels of 25 minutes: typed once, filled down.
    first.locator("input[name=minutes]").fill("25")
    first.locator("button[name=op][value^='fill:minutes:']").click()
    page.locator("tr.level-row").last.locator("input[name=minutes][value='25']").wait_for()
    page.locator(".structure-actions button[name=op][value=save]").click()
    page.wait_for_load_state()
    levels = list(tournament.items.filter(kind="level").order_by("position"))
    assert len(levels) == 21
    assert all(lv.minutes == 25 for lv in levels)
    assert all(lv.ante_mode == "big_blind_ante" and lv.ante == lv.big_blind for lv in levels)


def _the_desk_asks_before_adding_a_known_player(desk, url, tournament, words):
    """ "Sara Colombo" typed beside last week's "Colombo Sara": the desk shows the match and
    registers her, paid by card as the clerk said; her seat card says the whole buy-in."""
    desk.goto(f"{url}/t/{tournament.slug}/desk/")
    # Typed the other way round, in other case.
    desk.fill("#id_first_name", "colombo")
    desk.fill("#id_last_name", "SARA")
    desk.select_option("form[action$='/desk/players/new/'] select[name=payment_method]", "card")
    desk.locator("button[name=register]").click()
    known = desk.locator("[data-testid=duplicates]")
    known.wait_for()
    assert words["known"] in known.inner_text()
    assert "Colombo Sara" in known.inner_text() and "••••24" in known.inner_text()
    assert not tournament.entries.exists()
    desk.locator("[data-testid=same-person]").click()
    desk.locator("[data-testid=seat]").wait_for()
    entry = tournament.entries.get()
    assert (entry.player.document_number, entry.payment_method) == ("AB123424", "card")
    _the_seat_card_says_the_whole_buy_in(desk, words)

    # A new player, paid in cash, from the new-player form.
    desk.goto(f"{url}/t/{tournament.slug}/desk/")
    desk.fill("#id_first_name", "Pietro")
    desk.fill("#id_last_name", "Ricci")
    desk.select_option("form[action$='/desk/players/new/'] select[name=payment_method]", "cash")
    desk.locator("button[name=register]").click()
    desk.locator("[data-testid=seat]").wait_for()
    _the_seat_card_says_the_whole_buy_in(desk, words)
    assert tournament.entries.get(player__last_name="Ricci").payment_method == "cash"
    return entry


def _the_seat_card_says_the_whole_buy_in(desk, words):
    assert words["paid"] in desk.inner_text("[data-testid=paid]")
    parts = desk.inner_text("[data-testid=paid-parts]")
    assert all(part in parts for part in words["parts"]), parts
    href = desk.locator("[data-testid=receipt-pdf]").get_attribute("href")
    receipt = desk.request.get(re.sub(r"^(https?://[^/]+).*$", r"\1", desk.url) + href)
    assert receipt.ok and receipt.body().startswith(b"%PDF")
    printed = pdf_text(receipt.body())
    assert words["receipt_total"] in printed
    assert all(part.split()[-1] in printed for part in words["parts"]), printed


def _a_bust_awards_its_bounty_by_seat(page, url, tournament, words, *, avoid):
    """From the floor's table page: the bust dialog picks who is out and who won the hand
    by seat, with their bounties, and awards the bounty in the same action."""
    table = next(
        t.number
        for t in Table.objects.filter(tournament=tournament).order_by("number")
        if t.seats.count() >= 3 and not t.seats.filter(entry=avoid).exists()
    )
    seats = list(
        Seat.objects.filter(table__tournament=tournament, table__number=table)
        .select_related("entry__player")
        .order_by("number")
    )
    out, winner = seats[0], seats[1]
    page.goto(f"{url}/t/{tournament.slug}/room/tables/{table}/")
    page.locator("[data-testid=floor-bust]").click()
    form = page.locator("[data-testid=bust-form]")
    form.wait_for()
    assert words["bounty"] in form.locator(f"tr[data-seat='{out.number}']").inner_text()
    form.locator(f"input[name=out][value='{out.number}']").check()
    form.locator(f"input[name=won][value='{winner.number}']").check()
    form.locator("[data-testid=bust-record]").click()
    page.wait_for_url(re.compile(rf"/room/tables/{table}/$"))
    said = words["bust_done"].format(name=out.entry.player)
    assert said in page.inner_text(".messages")
    # The winner now carries half the bounty on his head (the other half paid in cash).
    page.locator("[data-testid=floor-bust]").click()
    row = page.locator(f"[data-testid=bust-form] tr[data-seat='{winner.number}']")
    assert words["bounty_after"] in row.inner_text()
    assert Entry.objects.get(pk=out.entry_id).status == Entry.Status.ELIMINATED
    return out.entry, winner.entry


def _undo_from_the_log(page, url, tournament, event):
    page.goto(f"{url}/t/{tournament.slug}/log/")
    page.locator(f"#event-{event.pk} form button").click()
    page.wait_for_url(re.compile(r"/log/$"))
    return page.inner_text(".messages")


def _undoing_the_bust_undoes_its_bounty(page, url, tournament, words, out, winner):
    """The bust made in the dialog is one action with its award: its undo takes the bounty
    back, and the bounties in play are every player's again."""
    bust = Event.objects.filter(tournament=tournament, action="entry.eliminate").latest("pk")
    assert words["undone"] in _undo_from_the_log(page, url, tournament, bust)
    assert Entry.objects.get(pk=out.pk).status == Entry.Status.ACTIVE
    winner.refresh_from_db()
    assert format_selectors.bounty_of(winner, tournament) == 5000
    assert format_selectors.bounty_board(tournament)["in_play"] == 39 * 5000


def _undoing_a_bust_whose_bounty_was_awarded_apart_is_refused(page, url, tournament, words, out):
    """A bust whose bounty was awarded later, on its own: its undo is refused, naming the
    award to undo first, and nothing changes."""
    bust = Event.objects.filter(tournament=tournament, action="entry.eliminate").latest("pk")
    refused = words["refused"].format(name=out.player)
    assert refused in _undo_from_the_log(page, url, tournament, bust)
    assert Entry.objects.get(pk=out.pk).status == Entry.Status.ELIMINATED
    assert not Event.objects.get(pk=bust.pk).undone_at


def _balancing_asks_for_the_unknown_buttons(page, url, tournament, td, words, *, avoid):
    """Two players short at one table and no button known: the plan asks for each button
    it needs, one tap per table, and then moves a player."""
    shortest = min(
        (t for t in Table.objects.filter(tournament=tournament) if t.seats.exists()),
        key=lambda t: t.seats.count(),
    )
    victim = next(
        s.entry
        for s in shortest.seats.select_related("entry").order_by("number")
        # a starting bounty of 50.00: half of it, 25.00, is paid in cash
        if s.entry_id != avoid.pk and format_selectors.bounty_of(s.entry, tournament) == 5000
    )
    _bust(tournament, td, victim)
    # Its bounty is awarded apart, later: the bust can no longer be undone on its own.
    hunter = next(e for e in _active(tournament) if e.pk != avoid.pk)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=victim, portions=[[hunter]], actor=td, now=_now()
    )
    _undoing_a_bust_whose_bounty_was_awarded_apart_is_refused(page, url, tournament, words, victim)
    page.goto(f"{url}/t/{tournament.slug}/room/")
    asks = page.locator("[data-testid^=button-ask-]")
    assert asks.count() >= 1
    while asks.count():
        ask = asks.first
        number = ask.get_attribute("data-testid").rsplit("-", 1)[1]
        assert words["ask"].format(table=number) in ask.inner_text()
        ask.locator("button[name=button]").first.click()
        page.wait_for_url(re.compile(r"/room/$"))
    page.locator("form[action$='/room/apply/'] button.primary").click()
    page.wait_for_url(re.compile(r"/room/$"))
    counts = [
        t.seats.count() for t in Table.objects.filter(tournament=tournament) if t.seats.exists()
    ]
    assert max(counts) - min(counts) <= 1, counts
    assert page.locator("[data-testid=pending] tr").count() >= 1


def _the_till_matches_the_books(page, url, tournament, words, language):
    """Counted mid-night, the cash in the till is what the books say: every buy-in whole
    (its bounty part too), the add-ons, less the bounties paid out in cash."""
    page.goto(f"{url}/t/{tournament.slug}/books/")
    entries = Entry.objects.filter(tournament=tournament)
    cash_entries = entries.filter(payment_method="cash").count()
    cash_addons = sum(1 for e in entries for p in e.purchases.all() if p.payment_method == "cash")
    taken = cash_entries * 115 + cash_addons * 20
    rows = [line.split("\t") for line in page.inner_text("[data-testid=by-method]").splitlines()]

    # Taken, given back (half of each of the two bounties awarded, paid in cash),
    # corrections, net.
    def amount(euros: int) -> str:  # as the language writes money: 3.010,00 / 3,010.00
        text = f"{euros:,.2f}"
        return text.translate(str.maketrans(",.", ".,")) if language == "it" else text

    expected = [words["cash"], amount(taken), amount(50), amount(0), amount(taken - 50)]
    assert expected in rows, rows
    assert words["balances"] in page.inner_text("[data-testid=balance]")


def _the_phone_follows_its_player_through_a_table_break(
    browser, language, console, url, tournament, td, words, *, avoid
):
    """Players go out until a table can break; a player of that table has his phone open
    at 390x844 and sees his new seat when the floor applies the break."""
    while True:
        plan = room_reads.room_plan(tournament=tournament)
        if plan.break_table and plan.break_table.break_now:
            break
        victim = next(e for e in reversed(_active(tournament)) if e.pk != avoid.pk)
        _bust(tournament, td, victim)
    breaking = int(plan.break_table.table_id)
    follower = next(
        s.entry
        for s in Seat.objects.filter(table__tournament=tournament, table__number=breaking)
        .select_related("entry__player")
        .order_by("number")
        if s.entry_id != avoid.pk
    )
    table, seat = _seat(follower)
    phone = open_page(browser, language, width=390, height=844)
    phone.goto(f"{url}/p/{tournament.slug}/find/?q={follower.player.last_name}")
    phone.wait_for_selector("[data-sync][data-state=ok]")
    row = phone.locator("[data-testid=found]", has_text=str(follower.player))
    assert words["where"].format(table=table, seat=seat) in row.inner_text()

    console.goto(f"{url}/t/{tournament.slug}/room/")
    console.locator("[data-testid=break]").wait_for()
    console.locator("form[action$='/room/apply/'] button.primary").click()
    console.wait_for_url(re.compile(r"/room/$"))
    to_table, to_seat = _seat(follower)
    assert to_table != breaking
    row.locator("[data-testid=where]").filter(
        has_text=words["where"].format(table=to_table, seat=to_seat)
    ).wait_for(timeout=LIVE)
    assert words["moved"].format(table=table, seat=seat) in row.inner_text()
    phone.context.close()


def _the_ruling_tool_starts_from_the_tables_level(page, url, tournament):
    """At level 6 (600/1200, big-blind ante 1200) the floor opens the ruling tool from a
    table: the blinds, the ante and the players are there already."""
    table = Seat.objects.filter(table__tournament=tournament).first().table
    page.goto(f"{url}/t/{tournament.slug}/room/tables/{table.number}/")
    page.locator("[data-testid=table-ruling]").click()
    page.wait_for_url(re.compile(rf"/ruling/\?table={table.number}$"))
    assert page.input_value("#sb") == "600"
    assert page.input_value("#bb") == "1200"
    assert page.input_value("#ante") == "1200"
    seat = table.seats.select_related("entry__player").order_by("number").first()
    assert page.input_value(f"[name=name_{seat.number}]") == str(seat.entry.player)


def _the_final_table_keeps_the_accessible_seat(page, url, tournament, td, needy):
    """Down to ten, the room breaks and balances as it goes; at nine the final table is
    redrawn from the room page, and the player who needs an accessible seat keeps one."""
    rng = Random(7)
    while len(_active(tournament)) > 9:
        victim = next(e for e in reversed(_active(tournament)) if e.pk != needy.pk)
        _bust(tournament, td, victim)
        if len(_active(tournament)) > 9:
            hands_services.buttons_draw(tournament=tournament, actor=td, now=_now(), rng=rng)
            room_services.plan_apply_all(tournament=tournament, actor=td, now=_now(), rng=rng)
    page.goto(f"{url}/t/{tournament.slug}/room/")
    page.locator("[data-testid=final-table]").wait_for()
    page.locator("form[action$='/room/apply/'] button.primary").click()
    page.wait_for_url(re.compile(r"/room/$"))
    tables = {_seat(e)[0] for e in _active(tournament)}
    assert len(tables) == 1
    final, seat = _seat(needy)
    assert seat in Table.objects.get(tournament=tournament, number=final).accessible_seats


def _hand_for_hand_ends_at_the_bubble_and_the_clock_finishes(
    console, tv, url, tournament, td, words, needy
):
    """Five paid, six left: the TD goes hand-for-hand; the next bust bursts the bubble, and
    hand-for-hand ends by itself with a banner; the clock says finished at the winner."""
    while len(_active(tournament)) > 6:
        _bust(tournament, td, next(e for e in _active(tournament) if e.pk != needy.pk))
    console.goto(f"{url}/t/{tournament.slug}/clock/")
    console.wait_for_selector("[data-sync][data-state=ok]")
    console.locator("form[action$='/h4h_start/'] button").click()
    console.wait_for_selector("form[action$='/h4h_stop/']")
    tv.wait_for_function("() => document.body.dataset.clockStatus === 'paused'", timeout=LIVE)
    players = _active(tournament)
    _bust(tournament, td, next(e for e in players if e.pk != needy.pk), winner=needy)
    tv.locator("[data-banner]", has_text=words["bubble"]).wait_for(timeout=LIVE)
    tv.wait_for_function("() => document.body.dataset.clockStatus === 'running'", timeout=LIVE)
    tournament.refresh_from_db()
    assert not tournament.h4h_active

    for entry in _active(tournament):
        if entry.pk != needy.pk:
            _bust(tournament, td, entry, winner=needy)
    tv.wait_for_function("() => document.body.dataset.clockStatus === 'finished'", timeout=LIVE)
    assert tv.inner_text("[data-status]").strip() == words["finished"]
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def _the_field_is_balanced_from_the_first_registration(tournament):
    """Every table planned for the expected field holds the same number of players within
    one; returns where each entry sits, which the start must not change."""
    counts = [t.seats.count() for t in Table.objects.filter(tournament=tournament)]
    assert max(counts) - min(counts) <= 1, counts
    return _where_everyone_sits(tournament)


def _where_everyone_sits(tournament):
    return {
        s.entry_id: (s.table_id, s.number)
        for s in Seat.objects.filter(table__tournament=tournament)
    }


ENGLISH_LEFT = ("In the money", "Select an option", "Added money (montepremi aggiunto)")
RAW_CODES = re.compile(r"§\d|TDA-\d|\bRP-9\b|003 Art|allin_plus_bet|always_fold|by_position")


def _italian_as_an_italian_reads_it(page, url, tournament):
    """The pages of the night read in Italian: no English left, no rule codes without
    words, amounts written the Italian way."""
    slug = tournament.slug
    for path in ("", "players/", "money/", "bounties/", "room/", "ruling/"):
        page.goto(f"{url}/t/{slug}/{path}")
        text = page.inner_text("main")
        left = [english for english in ENGLISH_LEFT if english in text]
        assert not left, (path, left)
        assert not RAW_CODES.search(text), (path, RAW_CODES.search(text).group())
        assert not re.search(r"\b\d+\.\d\d\b", text), (path, re.search(r"\b\d+\.\d\d\b", text))

"""What a bounty event's player paid, what its bounties did, and what the books say agree."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import BountyAward, Entry
from tournaments.selectors import books as book_reads
from tournaments.selectors import formats as format_selectors
from tournaments.services import bounties as bounties_services
from tournaments.services import entries as entry_services
from tournaments.services import results

pytestmark = pytest.mark.django_db


def pko(td, **fields):
    # A €100+15 PKO: 50 to the prize pool, 50 to the bounty, 15 fee.
    values = {
        "bounty_format": "progressive",
        "bounty_part_cents": 5000,
        "buy_in_prize": 50,
        "buy_in_fee": 15,
        **fields,
    }
    return make_tournament(td, **values)


def fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]


def bust(tournament, td, entry):
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=1000)],
        actor=td,
        now=NOW,
    )


def test_undoing_a_bust_whose_bounty_was_awarded_is_refused_naming_the_award(td):
    tournament = pko(td)
    costa, winner, _other = fill(tournament, td, 3)
    bust(tournament, td, costa)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=costa, portions=[[winner]], actor=td, now=NOW
    )
    elimination = tournament.events.get(action="entry.eliminate")
    with pytest.raises(errors.CannotUndo, match="Bounty awarded"):
        event_undo(event_id=elimination.pk, tournament=tournament, actor=td, now=NOW)
    costa.refresh_from_db()
    assert costa.status == Entry.Status.ELIMINATED
    assert BountyAward.objects.filter(voided=False).count() == 1
    # Undo the award first, then the bust: both allowed, and the bounty is his again.
    award = tournament.events.get(action="bounty.award")
    event_undo(event_id=award.pk, tournament=tournament, actor=td, now=NOW)
    event_undo(event_id=elimination.pk, tournament=tournament, actor=td, now=NOW)
    costa.refresh_from_db()
    assert costa.status == Entry.Status.ACTIVE
    assert format_selectors.bounty_board(tournament)["in_play"] == 3 * 5000


def _sell(tournament, user, method="cash"):
    return entry_services.entry_register(
        tournament=tournament, player=make_player(), actor=user, now=NOW, payment_method=method
    ).entry


def test_the_seat_card_and_the_receipt_say_the_whole_buy_in_with_its_parts(client, td):
    from django.urls import reverse

    from tournaments.documents import bookprint

    tournament = pko(td)
    entry = _sell(tournament, td)
    client.force_login(td)
    page = client.get(reverse("seat_card", args=[tournament.slug, entry.number])).content.decode()
    assert "Paid 115.00 EUR" in page
    parts = page.split('data-testid="paid-parts"')[1].split("</p>")[0]
    assert "Prize pool 50.00" in parts and "Fee 15.00" in parts and "Bounty 50.00" in parts

    printed = {}

    def keep(title, blocks, **kwargs):
        printed["blocks"] = blocks
        return b"%PDF"

    from unittest import mock

    with mock.patch.object(bookprint.pdf, "render", keep):
        bookprint.receipt_pdf(tournament, entry, size="receipt", now=NOW)
    texts = [b.text for b in printed["blocks"] if b.kind == "text"]
    assert "Total 115.00 EUR" in texts
    rows = next(b.rows for b in printed["blocks"] if b.kind == "table")
    assert [r[1] for r in rows] == ["115.00", "50.00", "50.00", "15.00"]
    # In Italian, as the TD reads it.
    from django.utils import translation

    with translation.override("it"):
        page = client.get(
            reverse("seat_card", args=[tournament.slug, entry.number]),
            HTTP_ACCEPT_LANGUAGE="it",
        ).content.decode()
    assert "Pagato 115,00 EUR" in page


def test_a_count_of_the_till_mid_night_matches_the_books_bounties_included(td):

    tournament = pko(td, progressive_cash_percent=50)
    a, b, c, d = (_sell(tournament, td, m) for m in ("cash", "cash", "card", "cash"))
    bust(tournament, td, b)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    report = book_reads.event_books(tournament)
    result = report["books"]
    # 4 x 115 taken; 25 of b's bounty handed to a in cash (the other 25 rides on a's head).
    assert result.taken == 460
    assert result.bounties_paid == 25
    assert result.drawer == 435
    assert report["allocation"].bounties_held == 175
    assert result.balances, (result.drawer, result.accounted)
    assert report["bounty_money"] == {
        "taken": 20000,
        "paid": 2500,
        "to_prize_pool": 0,
        "held": 17500,
    }


def test_a_refunded_pko_buy_in_gives_the_bounty_part_back_too(td):
    from tournaments.services import books

    tournament = pko(td)
    _sell(tournament, td)
    sold = _sell(tournament, td)
    refund = books.sale_void(
        tournament=tournament, entry=sold, reason="wrong event", actor=td, now=NOW
    )
    assert (refund.amount, refund.bounty_cents) == (65, 5000)
    result = book_reads.event_books(tournament)["books"]
    assert (result.taken, result.refunds, result.drawer) == (230, 115, 115)
    assert result.balances, (result.drawer, result.accounted)


def test_half_a_bounty_in_cents_keeps_the_books_exact(td):
    """A 25.00 PKO bounty halves to 12.50 in cash: the books carry the cents."""
    from decimal import Decimal

    tournament = pko(td, bounty_part_cents=2500, bounty_unit_cents=50)
    a, b, _c = (_sell(tournament, td) for _ in range(3))
    bust(tournament, td, b)
    bounties_services.bounty_award_record(
        tournament=tournament, eliminated=b, portions=[[a]], actor=td, now=NOW
    )
    result = book_reads.event_books(tournament)["books"]
    assert result.bounties_paid == Decimal("12.50")
    assert result.drawer == Decimal("257.50")
    assert result.balances


def _agree(tournament):
    """The bounty figures and the books tell one story."""

    tournament.refresh_from_db()
    entries = list(tournament.entries.exclude(status=Entry.Status.VOIDED))
    settled = set(
        BountyAward.objects.filter(
            tournament=tournament, voided=False, own_bounty=False
        ).values_list("eliminated_id", flat=True)
    )
    in_play = sum(
        format_selectors.bounty_of(e, tournament) for e in entries if e.status == "active"
    )
    pending = sum(
        format_selectors.bounty_of(e, tournament)
        for e in entries
        if e.status != "active" and e.pk not in settled
    )
    money = book_reads.bounty_money(tournament)
    board = format_selectors.bounty_board(tournament)
    assert board["in_play"] == in_play
    # Held: what rides on the heads still in, what waits for its winner, and what went
    # to the prize pool; nothing else, never less.
    assert money["held"] == in_play + pending + money["to_prize_pool"], (money, in_play, pending)
    report = book_reads.event_books(tournament)
    assert report["books"].bounties_paid * 100 == money["paid"]
    assert report["books"].balances, (report["books"].drawer, report["books"].accounted)


def test_bounty_figures_and_books_agree_whatever_busts_awards_payments_and_undos(td):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    step = st.one_of(
        st.tuples(st.just("sell"), st.sampled_from(["cash", "card"])),
        st.tuples(st.just("bust"), st.integers(0, 20)),
        st.tuples(st.just("award"), st.integers(0, 20), st.lists(st.integers(0, 20), max_size=3)),
        st.tuples(st.just("undo"), st.integers(0, 30)),
    )

    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(step, min_size=1, max_size=14), st.sampled_from([1000, 2500, 5000]))
    def run(steps, part):
        tournament = pko(td, bounty_part_cents=part, bounty_unit_cents=50)
        for _ in range(3):
            _sell(tournament, td)
        for op in steps:
            everyone = list(tournament.entries.order_by("number"))
            active = [e for e in everyone if e.status == "active"]
            out = [e for e in everyone if e.status == "eliminated"]
            try:
                if op[0] == "sell":
                    _sell(tournament, td, op[1])
                elif op[0] == "bust" and len(active) > 2:
                    bust(tournament, td, active[op[1] % len(active)])
                elif op[0] == "award" and out and active:
                    winners = [active[i % len(active)] for i in [op[1], *op[2]]]
                    bounties_services.bounty_award_record(
                        tournament=tournament,
                        eliminated=out[op[1] % len(out)],
                        portions=[list(dict.fromkeys(winners))],
                        actor=td,
                        now=NOW,
                    )
                elif op[0] == "undo":
                    standing = list(
                        tournament.events.filter(
                            action__in=["entry.eliminate", "bounty.award"],
                            undone_at__isnull=True,
                        ).order_by("pk")
                    )
                    if standing:
                        event = standing[op[1] % len(standing)]
                        event_undo(event_id=event.pk, tournament=tournament, actor=td, now=NOW)
            except errors.DomainError:
                pass  # a refusal changes nothing; the figures must still agree
            _agree(tournament)

    run()

"""The dealer trainer: a seed always deals the same question, and answers are checked
exactly against the rules' own settlement."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tables.games import trainer


@pytest.mark.parametrize("kind", trainer.KINDS)
def test_a_seed_deals_the_same_question(kind):
    for seed in range(30):
        q = trainer.question(kind, seed)
        assert q == trainer.question(kind, seed)
        assert trainer.check(q, q.answer)
        assert q.rule.startswith(("BJ ", "PB ")) and q.steps


def test_answers_are_read_as_a_dealer_writes_them():
    q = next(
        q for seed in range(500) if (q := trainer.question("pb_payout", seed)).answer.endswith(".5")
    )
    assert trainer.check(q, q.answer.replace(".", ","))
    assert trainer.check(q, f"€ {q.answer}")
    assert not trainer.check(q, str(Decimal(q.answer) + 1))
    assert not trainer.check(q, "lots")
    draws = trainer.question("pb_banco_draws", 7)
    assert trainer.check(draws, "sì" if draws.answer == "yes" else "resta")


def test_the_blackjack_trainer_shows_no_annulled_cards():
    for seed in range(30):
        q = trainer.question("bj_payout", seed)
        assert all(s.code != "bj.annulled" for s in q.steps)

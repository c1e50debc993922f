"""The bounty rules beyond the public cases: formats.md's own examples and edge cases."""

from __future__ import annotations

import pytest

from tournaments.rules import bounties as b


def _table(**seats: int) -> b.Table:
    return b.Table(button=1, seats={seat: player for player, seat in seats.items()})


def test_bwin_example_the_bounty_goes_to_the_side_pot_winner() -> None:
    # §6.2 [BWIN-PKO]: AA wins the main pot but did not cover QQ; KK wins the side pot.
    table = _table(KK=1, QQ=2, AA=3)
    result = b.settle_bounties(
        bounty_format=b.BountyFormat.PROGRESSIVE,
        table=table,
        bounties={"KK": 1000, "QQ": 1000, "AA": 1000},
        start_stacks={"KK": 10000, "QQ": 5000, "AA": 1000},
        pots=[
            b.Pot(eligible=frozenset({"KK", "QQ", "AA"}), winners=(("AA",),)),
            b.Pot(eligible=frozenset({"KK", "QQ"}), winners=(("KK",),)),
            b.Pot(eligible=frozenset({"KK"}), winners=(("KK",),)),
        ],
        busted=["QQ"],
    )
    assert result.awards[0].cash == {"KK": 500}
    assert result.bounties_after == {"KK": 1500, "AA": 1000}


def test_a_player_who_won_part_of_a_pot_is_not_eliminated() -> None:
    with pytest.raises(ValueError, match="not eliminated"):
        b.relevant_pot([b.Pot(eligible=frozenset({"A", "B"}), winners=(("A", "B"),))], "A")


def test_the_worked_pko_chain_pays_out_the_whole_bounty_pool() -> None:
    # §8.5: three €10 bounties; A busts B, C busts A, C wins.
    table = _table(A=1, B=2, C=3)
    first = b.settle_bounties(
        bounty_format=b.BountyFormat.PROGRESSIVE,
        table=table,
        bounties={"A": 1000, "B": 1000, "C": 1000},
        start_stacks={"A": 5000, "B": 1000, "C": 5000},
        pots=[b.Pot(eligible=frozenset({"A", "B"}), winners=(("A",),))],
        busted=["B"],
    )
    second = b.settle_bounties(
        bounty_format=b.BountyFormat.PROGRESSIVE,
        table=table,
        bounties=first.bounties_after,
        start_stacks={"A": 6000, "C": 5000},
        pots=[b.Pot(eligible=frozenset({"A", "C"}), winners=(("C",),))],
        busted=["A"],
    )
    end = b.final_bounty(end=b.EventEnd.WINNER, bounties=second.bounties_after)
    paid = first.cash_total["A"] + second.cash_total["C"] + end.cash["C"]
    assert (first.cash_total["A"], second.cash_total["C"], end.cash["C"]) == (500, 750, 1750)
    assert paid == 3000


def test_a_deal_under_included_puts_the_bounties_in_the_deal() -> None:
    end = b.final_bounty(
        end=b.EventEnd.DEAL,
        bounties={"P1": 3500, "P2": 1500},
        deal_bounty_handling=b.DealBountyHandling.INCLUDED,
    )
    assert end.cash == {"P1": 0, "P2": 0}
    assert end.added_to_deal == 5000


def test_a_forfeited_stack_re_enters_with_the_starting_bounty() -> None:
    result = b.forfeit_bounty(
        bounty=3750,
        reason=b.ForfeitReason.STACK_FORFEITED,
        prize_pool=100000,
        starting_bounty=2000,
    )
    assert (result.prize_pool_after, result.new_entry_bounty) == (103750, 2000)


def test_the_pko_cash_part_rounds_down_to_the_bounty_chip() -> None:
    assert b.progressive_split(7500, cash_percent=50, bounty_unit=2500) == (2500, 5000)
    assert b.progressive_split(1875, cash_percent=50) == (937, 938)
    with pytest.raises(ValueError):
        b.progressive_split(1000, cash_percent=100)


def test_envelopes_fewer_than_stage_players_are_refused() -> None:
    check = b.validate_envelopes(
        bounty_pool=1000, stage_trigger_players=3, envelopes={"E1": 500, "E2": 400}
    )
    assert check.reasons == (
        b.EnvelopeProblem.SUM_NOT_POOL,
        b.EnvelopeProblem.FEWER_ENVELOPES_THAN_STAGE_PLAYERS,
    )


def test_the_mirror_proposal_adds_up_to_the_pool() -> None:
    envelopes = b.mirror_envelopes({1: 5000, 2: 3000, 3: 2000}, bounty_pool=100001)
    assert sum(envelopes.values()) == 100001
    assert len(envelopes) == 3


def test_the_winner_takes_every_envelope_left_when_the_stage_started_short() -> None:
    table = b.Table(button=1, seats={1: "A", 2: "B"})
    result = b.draw_envelopes(
        envelopes={"E1": 300, "E2": 200, "E3": 100},
        hands=[
            b.MysteryHand(
                hand=1,
                table=table,
                remaining_before_hand=2,
                start_stacks={"A": 10, "B": 5},
                eliminations=(b.MysteryElimination(player="B", winners=(("A",),)),),
            )
        ],
        draw_sequence=["E3"],
        stage_trigger_players=3,
        winner="A",
    )
    assert result.paid_total == {"A": 600}
    assert set(result.winner_envelopes) == {"E1", "E2"}


def test_a_draw_sequence_that_does_not_match_the_rights_is_refused() -> None:
    with pytest.raises(ValueError, match="one envelope per draw right"):
        b.draw_envelopes(
            envelopes={"E1": 100},
            hands=[],
            draw_sequence=["E1"],
            stage_trigger_players=3,
        )

"""A raise in two motions (R-ACT-12): without "raise" said first only the first motion
counts, and the ruling cites the string-bet and chips-before-words rules, not the minimum
raise; said first, both motions make the raise."""

from __future__ import annotations

from tables.engine import Action, Hand, SeatStack, TableSetup


def opened() -> Hand:
    """Blinds 100/200, seat 1 (under the gun) opens to 1000; seat 2 is next."""
    setup = TableSetup(
        players=(
            SeatStack(1, 20000),
            SeatStack(2, 20000),
            SeatStack(3, 20000),
            SeatStack(4, 20000),
        ),
        button=4,
        sb=100,
        bb=200,
    )
    hand = Hand(setup)
    seat = hand.next_to_act
    assert seat is not None
    hand.act(Action(seat, "raise", to=1000))
    return hand


def test_a_silent_second_motion_is_a_call_cited_to_the_string_bet_rules():
    hand = opened()
    seat = hand.next_to_act
    assert seat is not None
    ruling = hand.act(Action(seat, "chips", chips=(1000,), second_motion=(1000, 1000)))
    assert (ruling.act, ruling.to) == ("call", 1000)
    assert ruling.rules[:4] == ("R-ACT-12", "TDA-56", "R-ACT-5", "TDA-40a")
    assert "R-RAISE-2" not in ruling.rules
    assert hand.stack(seat) == 19000  # the second motion's chips went back
    assert hand.next_to_act != seat


def test_raise_said_only_after_the_first_motion_is_still_a_call():
    hand = opened()
    seat = hand.next_to_act
    assert seat is not None
    ruling = hand.act(
        Action(
            seat,
            "chips",
            chips=(1000,),
            second_motion=(2000,),
            declared="raise",
            declared_after_chips=True,
        )
    )
    assert (ruling.act, ruling.to) == ("call", 1000)
    assert "R-ACT-12" in ruling.rules


def test_raise_said_before_the_first_motion_covers_both():
    hand = opened()
    seat = hand.next_to_act
    assert seat is not None
    ruling = hand.act(
        Action(seat, "chips", chips=(1000,), second_motion=(1000, 1000), declared="raise")
    )
    assert (ruling.act, ruling.to) == ("raise", 3000)
    assert "R-ACT-12" not in ruling.rules


def test_the_two_motions_survive_the_hands_round_trip():
    hand = opened()
    seat = hand.next_to_act
    assert seat is not None
    hand.act(Action(seat, "chips", chips=(1000,), second_motion=(2000,)))
    again = Hand.from_dict(hand.to_dict())
    assert again.rulings == hand.rulings
    assert again.log[-1]["second_motion"] == [2000]

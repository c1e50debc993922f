"""Next-hand positions, deal-in and the button draw (tournament.md §6.3-6.4, §7)."""

from __future__ import annotations

import pytest

from tables.rules.buttons import (
    Positions,
    card_key,
    deal_in,
    draw_button,
    first_hand,
    next_hand,
    project_hands,
    rank_cards,
    strictly_between,
)

SIX = range(1, 7)


def occupied_without(*gone: int, seats: range = SIX) -> list[int]:
    return [s for s in seats if s not in gone]


@pytest.mark.parametrize(
    ("occupied", "last", "expected", "acts_last"),
    [
        # Nobody busts: everything moves one seat.
        (list(SIX), (1, 2, 3), (2, 3, 4, False, False), 2),
        # Button busts: nothing special (BM-03 shape, other seats).
        (occupied_without(4), (4, 5, 6), (5, 6, 1, False, False), 5),
        # SB busts: dead button on his seat, the old button acts last again (FIGP §3a).
        (occupied_without(5), (4, 5, 6), (5, 6, 1, True, False), 4),
        # BB busts: dead SB, lone big blind (FIGP §3b).
        (occupied_without(6), (4, 5, 6), (5, 6, 1, False, True), 5),
        # SB and BB bust together, across the wrap: dead button and dead SB.
        (occupied_without(6, 1), (5, 6, 1), (6, 1, 2, True, True), 5),
        # Two players after the BB bust: the BB skips the empty seats.
        (occupied_without(4, 5), (2, 3, 4), (3, 4, 6, False, True), 3),
    ],
)
def test_next_hand_bb_always_advances(
    occupied: list[int],
    last: tuple[int, int, int],
    expected: tuple[int, int, int, bool, bool],
    acts_last: int,
) -> None:
    hand = next_hand(max_seats=6, occupied=occupied, last_hand=Positions(*last))
    p = hand.positions
    assert (p.button, p.sb, p.bb, p.button_dead, p.sb_dead) == expected
    assert hand.acts_last == acts_last
    assert not p.heads_up
    assert hand.post_for(p.bb) == "bb"
    assert hand.post_for(p.sb) == ("none" if p.sb_dead else "sb")


def test_double_elimination_gives_three_hands_of_the_same_last_actor() -> None:
    # BM-04 at a nine-seat table: seats 4 and 5 (SB, BB) bust; seat 3 was the button.
    seats = [s for s in range(1, 10) if s not in (4, 5)]
    hands = project_hands(max_seats=9, occupied=seats, last_hand=Positions(3, 4, 5), count=4)
    assert [(h.positions.button, h.positions.sb, h.positions.bb) for h in hands] == [
        (4, 5, 6),
        (5, 6, 7),
        (6, 7, 8),
        (7, 8, 9),
    ]
    assert [h.positions.button_dead for h in hands] == [True, True, False, False]
    assert [h.positions.sb_dead for h in hands] == [True, False, False, False]
    assert [h.acts_last for h in hands] == [3, 3, 6, 7]
    # Every remaining player posts the big blind in turn: nobody skips it.
    assert [h.positions.bb for h in hands] == [6, 7, 8, 9]


def test_projection_posts_every_big_blind_in_turn() -> None:
    seats = [1, 3, 4, 7, 9]
    hands = project_hands(max_seats=9, occupied=seats, last_hand=Positions(9, 1, 3), count=10)
    assert [h.positions.bb for h in hands] == [4, 7, 9, 1, 3] * 2


@pytest.mark.parametrize(
    ("occupied", "last", "button", "bb"),
    [
        # Three-handed, the button busts (BM-05): BB to seat 5, seat 8 has button and SB.
        ([5, 8], (2, 5, 8), 8, 5),
        # The SB busts: the BB moves on to seat 2, seat 8 (last BB) takes the button.
        ([2, 8], (2, 5, 8), 8, 2),
        # The BB busts: seat 2 is next BB, seat 5 (last SB) has the button.
        ([2, 5], (2, 5, 8), 5, 2),
    ],
)
def test_heads_up_transition_never_gives_the_bb_twice(
    occupied: list[int], last: tuple[int, int, int], button: int, bb: int
) -> None:
    hand = next_hand(max_seats=9, occupied=occupied, last_hand=Positions(*last))
    p = hand.positions
    assert p.heads_up
    assert (p.button, p.sb, p.bb) == (button, button, bb)
    assert p.bb != last[2]
    # TDA-34: the button acts first pre-flop and last afterwards.
    assert hand.preflop_first_to_act == button
    assert hand.acts_last == button
    assert hand.posts == {button: "sb", bb: "bb"}


def test_heads_up_alternates_the_big_blind() -> None:
    hands = project_hands(max_seats=9, occupied=[5, 8], last_hand=Positions(2, 5, 8), count=4)
    assert [h.positions.bb for h in hands] == [5, 8, 5, 8]
    assert all(h.positions.button == h.positions.sb != h.positions.bb for h in hands)


def test_heads_up_back_to_three_handed_keeps_blinds_moving() -> None:
    # A late entry joins a heads-up table between the two players.
    last = Positions(button=5, sb=5, bb=8, heads_up=True)
    hand = next_hand(max_seats=9, occupied=[5, 7, 8], last_hand=last, newcomers=[7])
    p = hand.positions
    assert p.bb == 5 and p.sb == 8
    assert p.button not in (p.bb, p.sb)
    assert 7 in hand.dealt_in and hand.acts_last == 7


@pytest.mark.parametrize(
    ("exclusion", "seats", "last", "busted", "seat", "dealt_in_from", "posts", "sb_dead"),
    [
        # Between the next button and the next SB: waits under both variants.
        (
            "button_to_sb",
            [1, 2, 3, 5, 6, 7, 8, 9],
            (2, 3, 5),
            [],
            4,
            "hand_after_next",
            "none",
            False,
        ),
        (
            "button_to_bb",
            [1, 2, 3, 5, 6, 7, 8, 9],
            (2, 3, 5),
            [],
            4,
            "hand_after_next",
            "none",
            False,
        ),
        # Right after the last BB: he is the next BB.
        ("button_to_sb", [1, 2, 3, 4, 6, 7, 8, 9], (2, 3, 4), [], 5, "next_hand", "bb", False),
        ("button_to_bb", [1, 2, 3, 4, 6, 7, 8, 9], (2, 3, 4), [], 5, "next_hand", "bb", False),
        # On the dead-SB seat: TDA plays him in the SB (LE-03), FIGP §6 makes him wait (LE-04).
        ("button_to_sb", [1, 2, 3, 5, 6, 7, 8, 9], (2, 3, 4), [4], 4, "next_hand", "sb", False),
        (
            "button_to_bb",
            [1, 2, 3, 5, 6, 7, 8, 9],
            (2, 3, 4),
            [4],
            4,
            "hand_after_next",
            "none",
            True,
        ),
        # On the dead-button seat: he takes the button and plays (LE-05), either variant.
        ("button_to_sb", [1, 2, 4, 5, 6, 7, 8, 9], (2, 3, 4), [3], 3, "next_hand", "none", False),
        ("button_to_bb", [1, 2, 4, 5, 6, 7, 8, 9], (2, 3, 4), [3], 3, "next_hand", "none", False),
        # An ordinary seat behind the button: dealt in, posts nothing.
        ("button_to_sb", [1, 2, 3, 4, 5, 6, 7, 9], (2, 3, 4), [], 8, "next_hand", "none", False),
    ],
)
def test_deal_in_of_a_newcomer(
    exclusion: str,
    seats: list[int],
    last: tuple[int, int, int],
    busted: list[int],
    seat: int,
    dealt_in_from: str,
    posts: str,
    sb_dead: bool,
) -> None:
    decision = deal_in(
        max_seats=9,
        occupied=seats,
        last_hand=Positions(*last),
        seat=seat,
        deal_in_exclusion=exclusion,  # type: ignore[arg-type]
    )
    assert decision.dealt_in_from == dealt_in_from
    assert decision.dealt_in is (dealt_in_from == "next_hand")
    assert decision.posts == posts
    assert decision.next_hand.positions.sb_dead is sb_dead
    assert (seat in decision.next_hand.dealt_in) is decision.dealt_in


def test_newcomer_on_dead_button_seat_acts_last() -> None:
    decision = deal_in(
        max_seats=9, occupied=[1, 2, 4, 5, 6, 7, 8, 9], last_hand=Positions(2, 3, 4), seat=3
    )
    p = decision.next_hand.positions
    assert (p.button, p.button_dead) == (3, False)
    assert decision.next_hand.acts_last == 3


def test_deal_in_refuses_a_taken_seat() -> None:
    with pytest.raises(ValueError):
        deal_in(max_seats=9, occupied=[1, 2, 3], last_hand=Positions(1, 2, 3), seat=2)


def test_strictly_between_wraps_around() -> None:
    assert strictly_between(1, 8, 3, 9)
    assert strictly_between(9, 8, 3, 9)
    assert not strictly_between(8, 8, 3, 9)
    assert not strictly_between(3, 8, 3, 9)
    assert not strictly_between(5, 8, 3, 9)


@pytest.mark.parametrize(
    ("suit_order", "cards", "button"),
    [
        # BM-08: three aces, spades highest.
        (("s", "h", "d", "c"), {1: "Qh", 2: "Ad", 3: "As", 4: "Tc", 5: "Ac", 6: "Ks"}, 3),
        # A house order with diamonds on top changes the winner.
        (("d", "s", "h", "c"), {1: "Qh", 2: "Ad", 3: "As", 4: "Tc", 5: "Ac", 6: "Ks"}, 2),
        # Rank beats suit.
        (("s", "h", "d", "c"), {2: "2s", 4: "3c", 7: "Tc"}, 7),
    ],
)
def test_draw_button_high_card_with_suit_order(
    suit_order: tuple[str, ...], cards: dict[int, str], button: int
) -> None:
    result = draw_button(max_seats=9, cards=cards, suit_order=suit_order)
    assert result.winner_seat == button
    assert result.positions.button == button


def test_draw_button_blinds_follow_occupied_seats_clockwise() -> None:
    result = draw_button(max_seats=9, cards={2: "2s", 4: "3c", 7: "Tc", 9: "9h"})
    p = result.positions
    assert (p.button, p.sb, p.bb) == (7, 9, 2)


def test_first_hand_heads_up_button_is_small_blind() -> None:
    p = first_hand(max_seats=9, occupied=[3, 8], button=8)
    assert (p.button, p.sb, p.bb, p.heads_up) == (8, 8, 3, True)


def test_card_ranking_uses_rank_then_suit() -> None:
    cards = {"a": "7c", "b": "Kh", "c": "Ah", "d": "2s", "e": "Kd", "f": "Ks"}
    assert rank_cards(cards) == ["c", "f", "b", "e", "a", "d"]
    assert card_key("As") > card_key("Ah") > card_key("Ks")

"""Who sits where in the next hand: button, blinds, deal-in and the button draw (pure).

Implements tournament.md §6.3-6.4 (high-card button draw, suit order), §7.1 (dead button,
"the BB always advances"), §7.2 (heads-up), §7.4 (where a newcomer is dealt in) and
in-hand.md §4.3-4.4 (R-BTN-1..4). Seats are integers 1..max_seats numbered clockwise;
after max_seats comes seat 1. No Django, no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

DealInExclusion = Literal["button_to_sb", "button_to_bb"]
DealtInFrom = Literal["next_hand", "hand_after_next"]
Post = Literal["sb", "bb", "none"]

# tournament.md §6.4: spades > hearts > diamonds > clubs unless the event says otherwise.
DEFAULT_SUIT_ORDER: tuple[str, ...] = ("s", "h", "d", "c")
RANKS = "23456789TJQKA"

RULE_DEAD_BUTTON = "TDA-32"  # with FIGP §2-§3 / 003 Art.9.2 as the algorithm (§7.1)
RULE_HEADS_UP = "TDA-34"
RULE_DEAL_IN_TDA = "TDA-8a"  # with TDA-10a: excluded only between button and SB
RULE_DEAL_IN_FIGP = "FIGP §6"  # with 003 Art.9.5: excluded between button and BB
RULE_BUTTON_DRAW = 'Cash "Assegnazione del bottone"'  # tournament.md §6.3


@dataclass(frozen=True)
class Positions:
    """Button and blind seats of one hand (tournament.md §1.1 positions object).

    `sb` is the small-blind seat even when no small blind is posted (`sb_dead`); heads-up the
    button seat is also the small-blind seat.
    """

    button: int
    sb: int
    bb: int
    button_dead: bool = False
    sb_dead: bool = False
    heads_up: bool = False


@dataclass(frozen=True)
class NextHand:
    """Everything the floor needs to start a hand at one table."""

    positions: Positions
    dealt_in: frozenset[int]
    # Newcomers' seats that sit this hand out (tournament.md §7.4).
    waiting: frozenset[int]
    acts_last: int
    preflop_first_to_act: int
    posts: Mapping[int, Post] = field(default_factory=dict)
    rules: tuple[str, ...] = ()

    def post_for(self, seat: int) -> Post:
        """Return what the player in `seat` posts: "sb", "bb" or "none"."""
        return self.posts.get(seat, "none")


@dataclass(frozen=True)
class DealIn:
    """Whether a newcomer at a seat plays the next hand, and what he posts (§7.4)."""

    seat: int
    dealt_in_from: DealtInFrom
    posts: Post
    next_hand: NextHand
    rule: str

    @property
    def dealt_in(self) -> bool:
        return self.dealt_in_from == "next_hand"


@dataclass(frozen=True)
class ButtonDraw:
    """The result of the high-card draw for the first button (§6.3)."""

    winner_seat: int
    positions: Positions
    rule: str = RULE_BUTTON_DRAW


def clockwise(start: int, max_seats: int) -> list[int]:
    """Return every seat clockwise after `start`, ending with `start` itself."""
    return [(start + step - 1) % max_seats + 1 for step in range(1, max_seats + 1)]


def strictly_between(seat: int, first: int, last: int, max_seats: int) -> bool:
    """Tell whether `seat` lies clockwise after `first` and before `last`, both excluded."""
    distance_seat = (seat - first) % max_seats
    distance_last = (last - first) % max_seats
    return 0 < distance_seat < distance_last


def _first_occupied_after(start: int, occupied: Collection[int], max_seats: int) -> int:
    for seat in clockwise(start, max_seats):
        if seat in occupied:
            return seat
    raise ValueError("no occupied seat")


def _nearest_counter_clockwise(start: int, candidates: Collection[int], max_seats: int) -> int:
    """Return `start` if it is a candidate, else the nearest candidate counter-clockwise."""
    for step in range(max_seats):
        seat = (start - step - 1) % max_seats + 1
        if seat in candidates:
            return seat
    raise ValueError("no candidate seat")


def next_hand(
    *,
    max_seats: int,
    occupied: Collection[int],
    last_hand: Positions,
    newcomers: Collection[int] = (),
    deal_in_exclusion: DealInExclusion = "button_to_sb",
) -> NextHand:
    """Compute the next hand's positions from the current hand's ("the BB always advances").

    `occupied` is every seat with a player after the current hand: its eliminations removed,
    newcomers (late entries, re-entries, moved players) included. `newcomers` lists the
    seats of players who were not dealt into the current hand. Needs at least two players.
    """
    seats = frozenset(occupied)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    fresh = frozenset(newcomers) & seats
    rules: list[str] = [RULE_DEAD_BUTTON]
    # §7.1 step 1 / R-BTN-2.1: the BB is the first occupied seat after the last BB.
    bb = _first_occupied_after(last_hand.bb, seats, max_seats)
    if len(seats) == 2:
        # §7.2 / TDA-34: the BB still advances, the other player takes button and SB, so
        # nobody posts the big blind twice running.
        other = next(iter(seats - {bb}))
        positions = Positions(button=other, sb=other, bb=bb, heads_up=True)
        rules.append(RULE_HEADS_UP)
        return NextHand(
            positions=positions,
            dealt_in=seats,
            waiting=frozenset(),
            acts_last=other,
            preflop_first_to_act=other,
            posts={other: "sb", bb: "bb"},
            rules=tuple(rules),
        )
    # §7.1 steps 2-3: the SB goes on last hand's BB seat, the button on last hand's SB seat.
    sb = last_hand.bb
    button = last_hand.sb
    if button == bb:
        # Only possible right after heads-up (button and SB shared a seat) or when a newcomer
        # sat between the last SB and BB. [interpretation] Put the button on the seat right
        # before the SB so the blinds still advance and no one holds button and BB at once.
        button = (sb - 2) % max_seats + 1
    waiting = set()
    for seat in fresh:
        if seat in (bb, button):
            continue
        if strictly_between(seat, button, sb, max_seats):
            waiting.add(seat)  # TDA-8a / TDA-10a: the blinds have already passed him
        elif deal_in_exclusion == "button_to_bb" and seat == sb:
            # FIGP §6 / 003 Art.9.5: no cards between the BB and the button, so a newcomer
            # on the dead-SB seat waits and the SB stays dead (LE-04).
            waiting.add(seat)
    rules.append(RULE_DEAL_IN_FIGP if deal_in_exclusion == "button_to_bb" else RULE_DEAL_IN_TDA)
    dealt_in = seats - waiting
    sb_dead = sb not in dealt_in
    button_dead = button not in seats
    positions = Positions(button=button, sb=sb, bb=bb, button_dead=button_dead, sb_dead=sb_dead)
    posts: dict[int, Post] = {bb: "bb"}
    if not sb_dead:
        posts[sb] = "sb"
    # §1.2 button_movement: a dead button's last action goes to the nearest player
    # counter-clockwise.
    acts_last = _nearest_counter_clockwise(button, dealt_in, max_seats)
    first = _first_occupied_after(bb, dealt_in, max_seats)
    return NextHand(
        positions=positions,
        dealt_in=frozenset(dealt_in),
        waiting=frozenset(waiting),
        acts_last=acts_last,
        preflop_first_to_act=first,
        posts=posts,
        rules=tuple(rules),
    )


def project_hands(
    *, max_seats: int, occupied: Collection[int], last_hand: Positions, count: int
) -> list[NextHand]:
    """Project the positions of the next `count` hands, assuming nobody busts or arrives.

    `occupied` and `last_hand` are as for `next_hand`; count >= 1.
    """
    hands: list[NextHand] = []
    previous = last_hand
    for _ in range(count):
        hand = next_hand(max_seats=max_seats, occupied=occupied, last_hand=previous)
        hands.append(hand)
        previous = hand.positions
    return hands


def deal_in(
    *,
    max_seats: int,
    occupied: Collection[int],
    last_hand: Positions,
    seat: int,
    deal_in_exclusion: DealInExclusion = "button_to_sb",
) -> DealIn:
    """Decide whether a newcomer put in `seat` plays the next hand and what he posts.

    `occupied` are the seats taken after the current hand, the newcomer not included;
    `seat` must be empty. Covers late registrations, re-entries, moved and broken-table
    players alike (tournament.md §7.4, §9.4).
    """
    if seat in occupied:
        raise ValueError(f"seat {seat} is taken")
    hand = next_hand(
        max_seats=max_seats,
        occupied=[*occupied, seat],
        last_hand=last_hand,
        newcomers=[seat],
        deal_in_exclusion=deal_in_exclusion,
    )
    waits = seat in hand.waiting
    rule = RULE_DEAL_IN_FIGP if deal_in_exclusion == "button_to_bb" else RULE_DEAL_IN_TDA
    return DealIn(
        seat=seat,
        dealt_in_from="hand_after_next" if waits else "next_hand",
        posts="none" if waits else hand.post_for(seat),
        next_hand=hand,
        rule=rule,
    )


def card_key(card: str, suit_order: Sequence[str] = DEFAULT_SUIT_ORDER) -> tuple[int, int]:
    """Return a sort key ranking `card` ("As", "Td") by rank, then by suit order (§6.4).

    `suit_order` runs highest first.
    """
    rank, suit = card[0].upper(), card[1].lower()
    return RANKS.index(rank), len(suit_order) - list(suit_order).index(suit)


def rank_cards(
    cards: Mapping[str, str], suit_order: Sequence[str] = DEFAULT_SUIT_ORDER
) -> list[str]:
    """Order the holders of face-up cards highest card first (TDA-10b, §6.4).

    Cards must be distinct.
    """
    return sorted(cards, key=lambda holder: card_key(cards[holder], suit_order), reverse=True)


def first_hand(*, max_seats: int, occupied: Collection[int], button: int) -> Positions:
    """Return the first hand's positions once the button seat is known.

    `button` must be occupied and at least two seats occupied.
    """
    seats = frozenset(occupied)
    if button not in seats or len(seats) < 2:
        raise ValueError("the button must sit on an occupied seat of a playable table")
    if len(seats) == 2:
        other = next(iter(seats - {button}))
        return Positions(button=button, sb=button, bb=other, heads_up=True)
    sb = _first_occupied_after(button, seats, max_seats)
    bb = _first_occupied_after(sb, seats, max_seats)
    return Positions(button=button, sb=sb, bb=bb)


def draw_button(
    *,
    max_seats: int,
    cards: Mapping[int, str],
    suit_order: Sequence[str] = DEFAULT_SUIT_ORDER,
) -> ButtonDraw:
    """Give the first button to the highest face-up card, suits breaking ties (§6.3-6.4).

    `cards` maps every occupied seat to the card dealt to it; the cards are distinct.
    """
    by_seat = {str(seat): card for seat, card in cards.items()}
    winner = int(rank_cards(by_seat, suit_order)[0])
    positions = first_hand(max_seats=max_seats, occupied=list(cards), button=winner)
    return ButtonDraw(winner_seat=winner, positions=positions)

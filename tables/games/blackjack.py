"""Blackjack by the Casinò Sanremo rulebook (BJ, version 2 of 17 Oct 2023), with the niWin
Black-Jack Bonus side bet.

European no-hole-card game (BJ Art.6.2): the dealer's cards are given in shoe order (up card
first) and each box's hands with their cards in the order received. `settle_round` checks
the round (every failing check's code at once, InvalidRound), draws the dealer's hand under
BJ Art.6.7 / Art.7.1 / niWin.8 and settles every bet line with its rule id. Amounts are
exact: the rulebook has no rounding rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .cards import Card, check_six_decks
from .errors import BetError, InvalidRound
from .money import BetResult, Line
from .trail import Step

# niWin.4: the dealer's final score -> odds
NIWIN_ODDS: dict[str, Decimal] = {
    "17": Decimal(5),
    "18": Decimal(6),
    "19": Decimal(6),
    "20": Decimal(4),
    "21": Decimal(12),
    "22": Decimal(12),
    "23": Decimal(13),
    "24": Decimal(15),
    "25": Decimal(18),
    "26": Decimal(22),
    "BJ": Decimal(19),
}
MAX_BETS_PER_BOX = 3  # BJ Art.3.4
MAX_HANDS = 3  # BJ Art.6.4
ZERO = Decimal(0)
ONE_AND_HALF = Decimal("1.5")

# The settings of table-games.md §7.4, with their defaults.
DEALER_BJ_VS_21 = ("dealer_wins", "push")
LIVE_INSURANCE_DRAW = ("complete", "second_card_only")


@dataclass(frozen=True)
class Settings:
    bj_dealer_blackjack_vs_21: str = "dealer_wins"
    bj_live_insurance_dealer_draw: str = "complete"

    def __post_init__(self) -> None:
        if self.bj_dealer_blackjack_vs_21 not in DEALER_BJ_VS_21:
            raise ValueError(f"bj_dealer_blackjack_vs_21 {self.bj_dealer_blackjack_vs_21!r}")
        if self.bj_live_insurance_dealer_draw not in LIVE_INSURANCE_DRAW:
            raise ValueError(
                f"bj_live_insurance_dealer_draw {self.bj_live_insurance_dealer_draw!r}"
            )


@dataclass(frozen=True)
class Total:
    total: int
    soft: bool

    @property
    def bust(self) -> bool:
        return self.total > 21


def total(cards: Sequence[Card]) -> Total:
    """Best total: aces count 1, plus 10 for one ace if that stays at or under 21."""
    s = sum(c.bj_value for c in cards)
    if any(c.is_ace for c in cards) and s + 10 <= 21:
        return Total(s + 10, True)
    return Total(s, False)


def two_card_21(cards: Sequence[Card]) -> bool:
    return len(cards) >= 2 and total(cards[:2]).total == 21


# --- input ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bet:
    bet_id: str
    player: str
    amount: Decimal
    surrender: bool = False
    insurance: bool = False
    even_money: bool = False
    follow_double: bool = False
    follow_split: bool = False


@dataclass(frozen=True)
class Hand:
    cards: tuple[Card, ...]
    double: bool = False


@dataclass(frozen=True)
class Box:
    box: int
    bets: tuple[Bet, ...]
    hands: tuple[Hand, ...]

    @property
    def split(self) -> bool:
        return len(self.hands) > 1

    @property
    def blackjack(self) -> bool:
        """Black-Jack: 21 with the first two cards dealt, never after a split (BJ Art.6.10,
        Art.6.4)."""
        return (
            len(self.hands) == 1
            and len(self.hands[0].cards) == 2
            and two_card_21(self.hands[0].cards)
        )

    @property
    def dealt_blackjack(self) -> bool:
        """The first two cards make 21 (whatever was done after them)."""
        return len(self.hands) == 1 and two_card_21(self.hands[0].cards)


@dataclass(frozen=True)
class NiwinBet:
    bet_id: str
    player: str
    score: str
    amount: Decimal


@dataclass(frozen=True)
class Limits:
    minimum: Decimal | None = None
    maximum: Decimal | None = None


# --- output -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealerHand:
    cards: tuple[Card, ...]
    annulled: tuple[Card, ...]
    completed: bool
    # cards taken out of turn and exposed by mistake (BJ Art.10.2): never part of the hand
    exposed: tuple[Card, ...] = ()

    @property
    def value(self) -> Total:
        return total(self.cards)

    @property
    def blackjack(self) -> bool:
        return len(self.cards) == 2 and two_card_21(self.cards)

    @property
    def niwin_score(self) -> str:
        """The dealer's final score on the niWin layout (BJ niWin.3)."""
        return "BJ" if self.blackjack else str(self.value.total)


@dataclass(frozen=True)
class HandView:
    box: int
    hand: int
    cards: tuple[Card, ...]
    total: int
    soft: bool
    blackjack: bool
    bust: bool
    double: bool


@dataclass(frozen=True)
class Round:
    dealer: DealerHand
    hands: tuple[HandView, ...]
    results: tuple[BetResult, ...]
    steps: tuple[Step, ...]

    @property
    def house_net(self) -> Decimal:
        return -sum((r.net for r in self.results), ZERO)

    def box_hands(self, box: int) -> list[HandView]:
        return [h for h in self.hands if h.box == box]


# --- the dealer -------------------------------------------------------------------------


def dealer_hand(listed: Sequence[Card], draw: str = "complete") -> DealerHand:
    """The dealer's hand from the cards taken for him in shoe order.

    `draw` is "complete" (BJ Art.6.7: draw on 16 or less, stand above), "second" (only the
    card that decides insurance, setting bj_live_insurance_dealer_draw) or "none" (BJ
    Art.7.1: nothing left in play). Cards listed after he had to stop are annulled (BJ
    Art.10.2). Raises InvalidRound(insufficient_dealer_cards) when he must draw and no
    further card is listed.
    """
    check_six_decks(listed)
    if not listed:
        raise InvalidRound("no dealer card", reasons=("insufficient_dealer_cards",))
    if draw == "none":
        return DealerHand(tuple(listed[:1]), tuple(listed[1:]), completed=False)
    hand = [listed[0]]
    while total(hand).total <= 16 and not (draw == "second" and len(hand) == 2):
        if len(hand) >= len(listed):
            raise InvalidRound(
                "the dealer must draw but no further card is listed",
                reasons=("insufficient_dealer_cards",),
            )
        hand.append(listed[len(hand)])
    return DealerHand(tuple(hand), tuple(listed[len(hand) :]), completed=True)


def dealer_steps(dealer: DealerHand, reason: str) -> list[Step]:
    steps: list[Step] = []
    if not dealer.completed:
        steps.append(Step("bj.dealer_no_draw", "BJ Art.7.1", {"up": str(dealer.cards[0])}))
    else:
        rule = "BJ niWin.8" if reason == "niwin" else "BJ Art.6.7"
        steps.append(Step(f"bj.dealer_draws_{reason}", rule, {"up": str(dealer.cards[0])}))
        for i in range(1, len(dealer.cards)):
            t = total(dealer.cards[: i + 1])
            steps.append(
                Step(
                    "bj.dealer_card",
                    "BJ Art.6.7",
                    {
                        "card": str(dealer.cards[i]),
                        "total": str(t.total),
                        "soft": "soft" if t.soft else "hard",
                    },
                )
            )
        v = dealer.value
        if dealer.blackjack:
            steps.append(Step("bj.dealer_blackjack", "BJ Art.6.10", {}))
        elif v.bust:
            steps.append(Step("bj.dealer_bust", "BJ Art.6.8", {"total": str(v.total)}))
        else:
            steps.append(Step("bj.dealer_stands", "BJ Art.6.7", {"total": str(v.total)}))
    if dealer.annulled:
        steps.append(
            Step(
                "bj.annulled",
                "BJ Art.10.2",
                {"cards": " ".join(str(c) for c in dealer.annulled)},
            )
        )
    return steps


# --- validation -------------------------------------------------------------------------


def _card_after_bust(cards: Sequence[Card]) -> bool:
    return any(total(cards[:i]).bust for i in range(2, len(cards)))


def validate(
    dealer: Sequence[Card],
    boxes: Sequence[Box],
    niwin: Sequence[NiwinBet],
    limits: Limits | None,
    other_boxes: int = 0,
) -> list[str]:
    """Every failing check's code, in the order of table-games.md §1.2 (dealer draw aside).

    `other_boxes` counts boxes that carried a bet in the round but are not entered (a
    dispute about one box): they count towards the two boxes of BJ Art.4.1."""
    for nb in niwin:
        if nb.score not in NIWIN_ODDS:
            raise BetError(f"no niWin box {nb.score!r}", reasons=("malformed_bet",))
    if not dealer:
        raise InvalidRound("no dealer card", reasons=("insufficient_dealer_cards",))
    up = dealer[0]
    found: set[str] = set()
    if sum(1 for b in boxes if b.bets) + other_boxes < 2:
        found.add("fewer_than_two_boxes")
    for box in boxes:
        bets, hands = box.bets, box.hands
        stakes = sum((b.amount for b in bets), ZERO)
        if len(bets) > MAX_BETS_PER_BOX:
            found.add("too_many_bets_on_box")
        low = limits.minimum if limits is not None else None
        high = limits.maximum if limits is not None else None
        if low is not None and bets and stakes < low:
            found.add("bet_below_minimum")
        if high is not None and len(bets) >= 2 and stakes > high:
            found.add("box_over_limit_shared")
        if any(b.insurance for b in bets) and not up.is_ace:
            found.add("insurance_not_offered")
        if any(b.even_money for b in bets) and (
            not box.blackjack or not (up.is_ace or up.bj_value == 10)
        ):
            found.add("even_money_not_offered")
        commander_surrendered = bool(bets) and bets[0].surrender
        for b in bets:
            if sum((b.surrender, b.insurance, b.even_money)) > 1:
                found.add("conflicting_options")
            if commander_surrendered and (b.insurance or b.even_money):
                found.add("conflicting_options")
        if box.split:
            values = {h.cards[0].bj_value for h in hands if h.cards}
            if len(values) > 1:
                found.add("invalid_split")
            if len(hands) > MAX_HANDS:
                found.add("too_many_split_hands")
            if len(values) == 1 and all(h.cards and h.cards[0].is_ace for h in hands):
                if len(hands) > 2:
                    found.add("aces_resplit")
                if any(len(h.cards) != 2 or h.double for h in hands):
                    found.add("invalid_split_aces_hand")
        for h in hands:
            if h.double and len(h.cards) != 3:
                found.add("invalid_double")
        if box.dealt_blackjack and (
            len(hands[0].cards) > 2 or hands[0].double or any(b.surrender for b in bets)
        ):
            found.add("decision_on_blackjack")
        if commander_surrendered and (
            box.split or any(h.double or len(h.cards) > 2 for h in hands)
        ):
            found.add("surrendered_hand_played")
        if not hands or any(len(h.cards) < 2 for h in hands):
            found.add("incomplete_hand")
        if any(_card_after_bust(h.cards) for h in hands):
            found.add("card_after_bust")
    return [code for code in REASON_ORDER if code in found]


REASON_ORDER = (
    "fewer_than_two_boxes",
    "too_many_bets_on_box",
    "bet_below_minimum",
    "box_over_limit_shared",
    "insurance_not_offered",
    "even_money_not_offered",
    "conflicting_options",
    "invalid_split",
    "too_many_split_hands",
    "aces_resplit",
    "invalid_split_aces_hand",
    "invalid_double",
    "decision_on_blackjack",
    "surrendered_hand_played",
    "incomplete_hand",
    "card_after_bust",
    "insufficient_dealer_cards",
)


# --- settlement -------------------------------------------------------------------------


@dataclass
class _Pending:
    """A hand stake whose result waits for the dealer's hand."""

    index: int  # position in the bet's lines
    hand_no: int
    stake: Decimal
    hand_total: int
    waiting_blackjack: bool


@dataclass
class _BetWork:
    bet: Bet
    box: Box
    lines: list[Line | None] = field(default_factory=list)
    pending: list[_Pending] = field(default_factory=list)
    insurance: Decimal | None = None
    excess: Line | None = None


def _open_lines(box: Box, bet: Bet, limits: Limits | None, up: Card) -> _BetWork:
    work = _BetWork(bet, box)
    commander = box.bets[0]
    stake = bet.amount
    cap = limits.maximum if limits is not None else None
    if cap is not None and len(box.bets) == 1 and stake > cap:
        work.excess = Line("excess", stake - cap, "returned", ZERO, "BJ Art.3.3")
        stake = cap
    if bet.surrender or commander.surrender:
        work.lines.append(Line("hand", stake, "surrender", -stake / 2, "BJ Art.6.3", hand=1))
        return work
    hands = list(enumerate(box.hands, start=1))
    if not (bet is commander or bet.follow_split):
        hands = hands[:1]  # BJ Art.6.5: plays on the first split card only
    for hand_no, h in hands:
        s = stake * 2 if h.double and (bet is commander or bet.follow_double) else stake
        t = total(h.cards)
        if box.blackjack:
            if bet.even_money:
                rule = "BJ Art.6.11b" if up.is_ace else "BJ Art.6.11a"
                work.lines.append(Line("hand", s, "even_money", s, rule, hand=hand_no))
            elif not (up.is_ace or up.bj_value == 10):
                work.lines.append(
                    Line("hand", s, "win", s * ONE_AND_HALF, "BJ Art.6.11", hand=hand_no)
                )
            else:
                work.pending.append(_Pending(len(work.lines), hand_no, s, t.total, True))
                work.lines.append(None)
        elif t.bust:
            work.lines.append(Line("hand", s, "lose", -s, "BJ Art.1.2", hand=hand_no))
        else:
            work.pending.append(_Pending(len(work.lines), hand_no, s, t.total, False))
            work.lines.append(None)
    if bet.insurance:
        work.insurance = stake / 2
    return work


def _close(p: _Pending, dealer: DealerHand, settings: Settings) -> Line:
    s, n = p.stake, p.hand_no
    dbj = dealer.blackjack
    if p.waiting_blackjack:
        if dbj:
            return Line("hand", s, "push", ZERO, "BJ Art.6.10", hand=n)
        return Line("hand", s, "win", s * ONE_AND_HALF, "BJ Art.6.10", hand=n)
    if dbj:
        if p.hand_total == 21 and settings.bj_dealer_blackjack_vs_21 == "push":
            return Line("hand", s, "push", ZERO, "BJ Art.6.9", hand=n)
        return Line("hand", s, "lose", -s, "BJ Art.6.10", hand=n)
    d = dealer.value.total
    if d > 21:
        return Line("hand", s, "win", s, "BJ Art.6.8", hand=n)
    if p.hand_total > d:
        return Line("hand", s, "win", s, "BJ Art.6.9", hand=n)
    if p.hand_total < d:
        return Line("hand", s, "lose", -s, "BJ Art.6.9", hand=n)
    return Line("hand", s, "push", ZERO, "BJ Art.6.9", hand=n)


def settle_round(
    dealer: Sequence[Card],
    boxes: Sequence[Box],
    niwin: Sequence[NiwinBet] = (),
    *,
    limits: Limits | None = None,
    settings: Settings | None = None,
    exposed: Sequence[int] = (),
    other_boxes: int = 0,
) -> Round:
    """Settle one round. Raises InvalidRound with every failing check's code, CardError
    for impossible cards, BetError for a malformed bet; nothing is settled then.

    `exposed` are positions in `dealer` of cards taken out of the shoe and exposed by
    mistake before their turn (say the Banco's second card shown before the players
    acted): they are annulled (BJ Art.10.2) and the Banco's hand is drawn from the cards
    that follow. `other_boxes` counts boxes with a bet that are not entered; while they may
    be in play, the Banco's listed cards are taken as he drew them."""
    settings = settings or Settings()
    if other_boxes < 0 or any(not 0 <= i < len(dealer) for i in exposed):
        raise ValueError("other_boxes below zero or an exposed position outside the cards")
    check_six_decks([*dealer, *(c for b in boxes for h in b.hands for c in h.cards)])
    out_of_turn = sorted(set(exposed))
    shown = tuple(dealer[i] for i in out_of_turn)
    # where each came out: the place in the Banco's hand it took by mistake
    places = [i - n + 1 for n, i in enumerate(out_of_turn)]
    dealer = [c for i, c in enumerate(dealer) if i not in set(exposed)]
    reasons = validate(dealer, boxes, niwin, limits, other_boxes)
    if reasons:
        raise InvalidRound("the round can't be settled as given", reasons=tuple(reasons))
    up = dealer[0]
    steps: list[Step] = [Step("bj.deal", "BJ Art.6.2", {"up": str(up)})]
    if other_boxes:
        steps.append(Step("bj.other_boxes", "BJ Art.4.1", {"boxes": str(other_boxes)}))
    for card, place in zip(shown, places, strict=True):
        steps.append(Step("bj.exposed", "BJ Art.10.2", {"card": str(card), "place": str(place)}))
    # the options offered, in order (BJ Art.6.3, Art.6.10, Art.6.11)
    steps.append(Step("bj.offer_surrender", "BJ Art.6.3", {}))
    if up.is_ace:
        steps.append(Step("bj.offer_insurance", "BJ Art.6.10", {}))
    if any(box.blackjack for box in boxes):
        if up.is_ace or up.bj_value == 10:
            rule = "BJ Art.6.11b" if up.is_ace else "BJ Art.6.11a"
            steps.append(Step("bj.offer_even_money", rule, {}))
        else:
            steps.append(Step("bj.blackjack_paid_now", "BJ Art.6.11", {}))
    hands: list[HandView] = []
    works: list[_BetWork] = []
    for box in boxes:
        for n, h in enumerate(box.hands, start=1):
            t = total(h.cards)
            view = HandView(box.box, n, h.cards, t.total, t.soft, box.blackjack, t.bust, h.double)
            hands.append(view)
        works.extend(_open_lines(box, b, limits, up) for b in box.bets)
    for box in boxes:
        _box_steps(box, up, steps)
    in_play = any(w.pending for w in works)
    insured = any(w.insurance is not None for w in works)
    if in_play:
        draw, reason = "complete", "in_play"
    elif niwin:
        draw, reason = "complete", "niwin"
    elif other_boxes and len(dealer) > 1:
        draw, reason = "complete", "other_boxes"
    elif insured:
        second = settings.bj_live_insurance_dealer_draw == "second_card_only"
        draw, reason = ("second" if second else "complete"), "insurance"
    else:
        draw, reason = "none", "none"
    try:
        hand = dealer_hand(dealer, draw)
    except InvalidRound as exc:
        raise InvalidRound(str(exc), reasons=exc.reasons) from exc
    if shown:
        hand = DealerHand(hand.cards, hand.annulled, hand.completed, exposed=shown)
    steps.extend(dealer_steps(hand, reason))
    results: list[BetResult] = []
    # payment order: from the dealer's right, the last box dealt first (BJ Art.6.8)
    for w in sorted(works, key=lambda w: -w.box.box):
        for p in w.pending:
            w.lines[p.index] = _close(p, hand, settings)
        lines = [line for line in w.lines if line is not None]
        if w.insurance is not None:
            i = w.insurance
            if hand.blackjack:
                lines.append(Line("insurance", i, "win", i * 2, "BJ Art.6.10"))
            else:
                lines.append(Line("insurance", i, "lose", -i, "BJ Art.6.10"))
        if w.excess is not None:
            lines.append(w.excess)
        results.append(BetResult(w.bet.bet_id, w.bet.player, tuple(lines)))
    for nb in niwin:
        if nb.score == hand.niwin_score:
            odds = NIWIN_ODDS[nb.score]
            line = Line("niwin", nb.amount, "win", nb.amount * odds, "BJ niWin.4")
        else:
            line = Line("niwin", nb.amount, "lose", -nb.amount, "BJ niWin.7")
        results.append(BetResult(nb.bet_id, nb.player, (line,)))
    return Round(dealer=hand, hands=tuple(hands), results=tuple(results), steps=tuple(steps))


def _box_steps(box: Box, up: Card, steps: list[Step]) -> None:
    commander = box.bets[0] if box.bets else None
    b = str(box.box)
    if commander is not None and commander.surrender:
        steps.append(Step("bj.surrender", "BJ Art.6.3", {"box": b}))
        return
    for bet in box.bets[1:]:
        if bet.surrender:
            steps.append(Step("bj.surrender_behind", "BJ Art.6.3", {"box": b, "bet": bet.bet_id}))
    for bet in box.bets:
        if bet.insurance:
            steps.append(Step("bj.insurance", "BJ Art.6.10", {"box": b, "bet": bet.bet_id}))
        if bet.even_money:
            rule = "BJ Art.6.11b" if up.is_ace else "BJ Art.6.11a"
            steps.append(Step("bj.even_money", rule, {"box": b, "bet": bet.bet_id}))
    if box.split:
        steps.append(Step("bj.split", "BJ Art.6.4", {"box": b, "hands": str(len(box.hands))}))
    for n, h in enumerate(box.hands, start=1):
        t = total(h.cards)
        params = {
            "box": b,
            "hand": str(n),
            "cards": " ".join(str(c) for c in h.cards),
            "total": str(t.total),
            "soft": "soft" if t.soft else "hard",
        }
        if box.blackjack:
            steps.append(Step("bj.hand_blackjack", "BJ Art.6.10", params))
        elif box.split and len(h.cards) == 2 and t.total == 21:
            # 21 on a split hand's first two cards is an ordinary 21 (BJ Art.6.4)
            steps.append(Step("bj.hand_split_21", "BJ Art.6.4", params))
        elif t.bust:
            steps.append(Step("bj.hand_bust", "BJ Art.1.2", params))
        elif h.double:
            steps.append(Step("bj.hand_double", "BJ Art.6.4", params))
        else:
            steps.append(Step("bj.hand", "BJ Art.1.2", params))

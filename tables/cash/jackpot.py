"""Jackpots (jackpots.md): the drop per hand, the funds, the bad-beat and high-hand qualifiers
and the splits. Pure: money in integer cents, moments passed in, hands ranked by the engine's
evaluator (`tables.engine.ranking`, the one the ruling tool uses; lower rank = stronger).

Invalid cards (malformed, repeated, the wrong number for the game) raise
`tables.engine.errors.InvalidCards`, whose words the ruling tool already has; a claim that is
well formed but does not qualify is a `Judgement` with `pay=False` and its reason codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from itertools import combinations
from typing import Literal

from tables.engine.cards import RANKS, check_distinct, parse_cards
from tables.engine.errors import InvalidCards
from tables.engine.ranking import high_rank, holdem_rank

SRC_FIGP = "002_25e7245d7a8abbc0.txt"
# The definition (a prize for some hands, funded from every pot besides the rake; bad beat
# and high hand) is FIGP's; every number and qualifier below is common practice we chose.
RULE_JACKPOT = f'{SRC_FIGP} Glossario "Jackpot"'
RULE_DROP = "jackpots.md §2"
RULE_FUNDS = "jackpots.md §3"
RULE_BAD_BEAT = "jackpots.md §4"
RULE_BAD_BEAT_SPLIT = "jackpots.md §5"
RULE_HIGH_HAND = "jackpots.md §6"

GAMES: frozenset[str] = frozenset({"holdem", "omaha"})
HOLE_CARDS: dict[str, int] = {"holdem": 2, "omaha": 4}
BOARD_CARDS = 5

DropKind = Literal["fixed", "share"]
Period = Literal["hour", "shift", "day"]

# Every reason code, in the order a judgement lists them (the labels module maps each to words).
REASONS: tuple[str, ...] = (
    "bad_beat_qualifies",
    "new_high_hand",
    "ties_high_hand",
    "game_not_covered",
    "board_incomplete",
    "too_few_players",
    "loser_below_minimum",
    "loser_hole_card_not_playing",
    "winner_not_better",
    "winner_below_minimum",
    "winner_hole_card_not_playing",
    "hand_below_minimum",
    "hand_hole_card_not_playing",
    "below_high_hand",
)


# --- Games and hand notation -------------------------------------------------------------


def game_key(variant: str) -> str:
    """The jackpot's name for a cash game's variant as the room writes it: "Hold'em", "NLH"
    -> "holdem"; "PLO", "Omaha" -> "omaha". Omaha hi/lo and any other game keep their own
    lowercased name, which no default rule covers."""
    text = "".join(ch for ch in variant.lower() if ch.isalnum())
    omaha = "omaha" in text or "plo" in text
    if omaha and any(mark in text for mark in ("hilo", "hl", "8")):
        return text
    if omaha:
        return "omaha"
    if "hold" in text or "texas" in text or text in ("nlh", "nlhe", "lhe", "plh", "flh"):
        return "holdem"
    return text


def hand_rank(notation: str) -> int:
    """Return the engine rank of a hand written as its five ranks (notation of jackpots.md §4).

    "AAATT" is aces full of tens, "KKKK2" four kings, "AKQJT" an ace-high straight; a
    trailing "s" makes the five cards one suit: "AKQJTs" is a royal flush, "AQT85s" an
    ace-high flush. The order of the five ranks does not matter. Raises ValueError on
    anything else (not five ranks, a rank five times, "s" on a hand with a pair).
    """
    text = notation.strip()
    suited = text[-1:] in ("s", "S") and len(text) == 6
    ranks = (text[:-1] if suited else text).upper()
    if len(ranks) != 5 or any(r not in RANKS for r in ranks):
        raise ValueError(f"hand {notation!r}: five ranks from {RANKS}, e.g. 'AAATT'")
    if suited and len(set(ranks)) != 5:
        raise ValueError(f"hand {notation!r}: a suited hand has five different ranks")
    if max(ranks.count(r) for r in ranks) > 4:
        raise ValueError(f"hand {notation!r}: a rank appears at most four times")
    return holdem_rank((), _cards_of(ranks, suited))


def _cards_of(ranks: str, suited: bool) -> tuple[str, ...]:
    """Real cards for a rank pattern: one suit when suited, else never five of one suit."""
    if suited:
        return tuple(r + "s" for r in ranks)
    return tuple(r + "cdhs"[k] for r, k in zip(ranks, _suits_for(ranks), strict=True))


def _suits_for(ranks: str) -> list[int]:
    """Suit indices giving each copy of a rank its own suit, and at least two suits in all."""
    count: dict[str, int] = {}
    out = []
    for r in ranks:
        out.append(count.get(r, 0))
        count[r] = count.get(r, 0) + 1
    if len(set(out)) == 1:  # five different ranks: move one card off the common suit
        out[-1] = 1
    return out


# --- Drop ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DropRule:
    """What is taken from a hand for the jackpot, besides the rake (jackpots.md §2).

    `fixed`: `fixed_cents` from every qualifying pot. `share`: `share_per_mille` of the pot,
    rounded down to a multiple of `step_cents` (the smallest chip the dealer drops). Either
    way at most `cap_cents` (None: no cap) and never more than the pot. A pot qualifies when
    it reaches `min_pot_cents`, a flop was dealt (if `flop_required`) and the game is one of
    `games`. `pot_cents` is the whole pot before the rake.
    """

    kind: DropKind
    fixed_cents: int = 100
    share_per_mille: int = 0
    min_pot_cents: int = 2000
    cap_cents: int | None = 100
    flop_required: bool = True
    games: frozenset[str] = GAMES
    step_cents: int = 100

    def __post_init__(self) -> None:
        if self.kind not in ("fixed", "share"):
            raise ValueError(f"drop kind {self.kind!r}: 'fixed' or 'share'")
        amounts = (self.fixed_cents, self.share_per_mille, self.min_pot_cents)
        if min(amounts) < 0 or (self.cap_cents is not None and self.cap_cents < 0):
            raise ValueError("drop amounts are never negative")
        if self.share_per_mille > 1000 or self.step_cents < 1:
            raise ValueError("share_per_mille is at most 1000 and step_cents at least 1")


def drop_for_hand(rule: DropRule, *, game: str, pot_cents: int, flop_dealt: bool) -> int:
    """Return the cents dropped into the jackpot from one hand's pot (0 when it does not
    qualify): min pot, flop, game, then fixed or share, the cap, and never over the pot."""
    if pot_cents < 0:
        raise ValueError("a pot is never negative")
    if game not in rule.games or pot_cents < rule.min_pot_cents:
        return 0
    if rule.flop_required and not flop_dealt:
        return 0
    if rule.kind == "fixed":
        drop = rule.fixed_cents
    else:
        raw = pot_cents * rule.share_per_mille // 1000
        drop = raw - raw % rule.step_cents
    if rule.cap_cents is not None:
        drop = min(drop, rule.cap_cents)
    return min(drop, pot_cents)


# --- Funds ---------------------------------------------------------------------------------

FUND_NAMES = ("main", "backup", "next")


@dataclass(frozen=True)
class FundShares:
    """How each drop is shared among the funds, per mille, summing to 1000 (jackpots.md §3).

    `main` is the prize on offer; `backup` becomes the main when the main is paid out
    (the seed, so a jackpot never restarts from zero); `next` becomes the backup then.
    """

    main: int = 700
    backup: int = 200
    next: int = 100

    def __post_init__(self) -> None:
        if min(self.main, self.backup, self.next) < 0:
            raise ValueError("fund shares are never negative")
        if self.main + self.backup + self.next != 1000:
            raise ValueError("fund shares must sum to 1000 per mille")


def split_drop(drop_cents: int, shares: FundShares) -> dict[str, int]:
    """Share one drop among "main", "backup" and "next", summing exactly to the drop.

    Each fund gets its share rounded down to the cent; the cents left over go to the main
    (the prize the players see grows first).
    """
    if drop_cents < 0:
        raise ValueError("a drop is never negative")
    out = {name: drop_cents * getattr(shares, name) // 1000 for name in FUND_NAMES}
    out["main"] += drop_cents - sum(out.values())
    return out


@dataclass(frozen=True)
class Funds:
    """The money held for players in one jackpot's three funds, in cents."""

    main: int = 0
    backup: int = 0
    next: int = 0

    @property
    def total(self) -> int:
        return self.main + self.backup + self.next


def roll_over(funds: Funds, paid_cents: int) -> Funds:
    """Return the funds after `paid_cents` are paid out of the main (jackpots.md §3).

    When the payment empties the main, the backup moves into the main and the next fund
    into the backup; a payment that leaves money in the main (a fixed high-hand prize)
    moves nothing. Paying more than the main raises ValueError.
    """
    if not 0 <= paid_cents <= funds.main:
        raise ValueError(f"cannot pay {paid_cents} from a main fund of {funds.main}")
    if paid_cents < funds.main:
        return Funds(funds.main - paid_cents, funds.backup, funds.next)
    return Funds(main=funds.backup, backup=funds.next, next=0)


# --- Claimed hands -------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimedHand:
    """One player's hole cards as the floor enters them."""

    seat: int
    hole: tuple[str, ...]


@dataclass(frozen=True)
class Judgement:
    """The engine's verdict on a claim: pay or not, and why (stable reason codes).

    On a refusal `reasons` lists every qualifier that fails, in the order of `REASONS`; on
    a payment it holds the one code that says what was won. Ranks are the engine's (1 =
    royal flush, 7462 = seven high; lower is stronger), None when the hand cannot be ranked
    (the board is not complete or the game is not one the evaluator knows).
    """

    pay: bool
    reasons: tuple[str, ...]
    loser_rank: int | None
    winner_rank: int | None
    rule: str = RULE_BAD_BEAT


@dataclass(frozen=True)
class Ranked:
    """A hand's best rank and whether that best hand can be made with both hole cards."""

    rank: int
    both_hole_cards_play: bool


def rank_claim(game: str, hole: Sequence[str], board: Sequence[str]) -> Ranked:
    """Rank a hand (five board cards) and say whether both hole cards play in its best hand.

    Hold'em: both play when some best five (the best rank) uses both hole cards. Omaha
    always uses exactly two hole cards, so it is always true there.
    """
    rank = high_rank(game, hole, board)
    if game == "omaha":
        return Ranked(rank, True)
    with_both = min(holdem_rank(hole, three) for three in combinations(board, 3))
    return Ranked(rank, with_both == rank)


def best_five(game: str, hole: Sequence[str], board: Sequence[str]) -> tuple[str, ...]:
    """Return the five cards of the best hand (for the screens), hole cards first.

    Ties between equal fives go to the one using the most hole cards, then the first met.
    """
    target = high_rank(game, hole, board)
    uses = range(2, 3) if game == "omaha" else range(2, -1, -1)
    for k in uses:
        for mine in combinations(hole, k):
            for rest in combinations(board, 5 - k):
                if holdem_rank((), (*mine, *rest)) == target:
                    return (*mine, *rest)
    raise AssertionError("the best rank is always made by some five")  # pragma: no cover


def check_cards(game: str, board: Sequence[str], hands: Iterable[ClaimedHand]) -> None:
    """Raise InvalidCards unless every card is well formed, none is repeated, each hand has
    the game's number of hole cards and the board at most five cards."""
    hands = tuple(hands)
    groups = [parse_cards(board), *(parse_cards(h.hole) for h in hands)]
    check_distinct(groups)
    if len(board) > BOARD_CARDS:
        raise InvalidCards(f"a board has at most {BOARD_CARDS} cards, got {len(board)}")
    wanted = HOLE_CARDS.get(game)
    for h in hands:
        if wanted is not None and len(h.hole) != wanted:
            raise InvalidCards(f"{game} has {wanted} hole cards, seat {h.seat} has {len(h.hole)}")
    if len({h.seat for h in hands}) != len(hands):
        raise InvalidCards("two claimed hands name the same seat")


# --- Bad beat ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadBeatRule:
    """When a losing hand wins the bad-beat jackpot, and how it is shared (jackpots.md §4-5).

    `min_losing_hand`: the weakest losing hand that qualifies, in `hand_rank` notation.
    `both_hole_cards_play`: the loser's best hand must use both hole cards (hold'em; always
    true in Omaha). `min_players_dealt`: players dealt in the hand. `winner_must_qualify`:
    the winning hand must pass the same qualifiers (the minimum, which beating a qualifying
    loser already implies, and both hole cards playing). Shares per mille, summing to 1000:
    the loser, the winner, the rest of the players dealt in, the room.
    """

    min_losing_hand: str = "AAATT"
    both_hole_cards_play: bool = True
    min_players_dealt: int = 4
    winner_must_qualify: bool = False
    share_loser: int = 500
    share_winner: int = 250
    share_table: int = 250
    share_room: int = 0
    games: frozenset[str] = GAMES

    def __post_init__(self) -> None:
        shares = (self.share_loser, self.share_winner, self.share_table, self.share_room)
        if min(shares) < 0 or sum(shares) != 1000:
            raise ValueError("bad-beat shares are never negative and sum to 1000 per mille")
        if self.min_players_dealt < 2:
            raise ValueError("a bad beat needs at least two players dealt in")
        hand_rank(self.min_losing_hand)  # a notation that names no hand is refused here

    @property
    def min_rank(self) -> int:
        """The engine rank of `min_losing_hand`."""
        return hand_rank(self.min_losing_hand)


def judge_bad_beat(
    rule: BadBeatRule,
    *,
    game: str,
    board: Sequence[str],
    loser: ClaimedHand,
    winner: ClaimedHand,
    players_dealt: int,
) -> Judgement:
    """Judge a bad-beat claim: every qualifier checked, every failure listed (§4).

    Raises InvalidCards when the cards themselves are wrong (see `check_cards`).
    """
    check_cards(game, board, (loser, winner))
    fails: list[str] = []
    if game not in rule.games:
        fails.append("game_not_covered")
    if len(board) != BOARD_CARDS:
        fails.append("board_incomplete")
    if players_dealt < rule.min_players_dealt:
        fails.append("too_few_players")
    if game not in GAMES or len(board) != BOARD_CARDS:
        return Judgement(False, tuple(fails), None, None)
    lost = rank_claim(game, loser.hole, board)
    won = rank_claim(game, winner.hole, board)
    fails += _hand_fails("loser", lost, rule.min_rank, rule.both_hole_cards_play)
    if won.rank >= lost.rank:
        fails.append("winner_not_better")
    if rule.winner_must_qualify:
        fails += _hand_fails("winner", won, rule.min_rank, rule.both_hole_cards_play)
    reasons = tuple(r for r in REASONS if r in fails) or ("bad_beat_qualifies",)
    return Judgement(not fails, reasons, lost.rank, won.rank)


def _hand_fails(who: str, hand: Ranked, min_rank: int, both_play: bool) -> list[str]:
    fails = [f"{who}_below_minimum"] if hand.rank > min_rank else []
    if both_play and not hand.both_hole_cards_play:
        fails.append(f"{who}_hole_card_not_playing")
    return fails


def split_bad_beat(
    amount_cents: int,
    rule: BadBeatRule,
    *,
    loser_seat: int,
    winner_seat: int,
    other_seats: Sequence[int],
) -> dict[str, int]:
    """Share a bad-beat payment exactly (§5). Keys: "loser", "winner", "room" and
    "table:<seat>" for each other player dealt in.

    Every share is rounded down to the cent; the table's share is split equally among
    `other_seats`, its odd cents one each to the seats in the order given; the cents the
    rounding leaves go to the loser. With no other seat the table's share goes to the loser.
    """
    seats = [loser_seat, winner_seat, *other_seats]
    if amount_cents < 0 or len(set(seats)) != len(seats):
        raise ValueError("a payment is never negative and each seat is named once")
    out = {
        "loser": amount_cents * rule.share_loser // 1000,
        "winner": amount_cents * rule.share_winner // 1000,
        "room": amount_cents * rule.share_room // 1000,
    }
    table = amount_cents * rule.share_table // 1000
    if other_seats:
        for seat, cents in zip(other_seats, split_evenly(table, len(other_seats)), strict=True):
            out[f"table:{seat}"] = cents
    out["loser"] += amount_cents - sum(out.values())
    return out


def split_evenly(amount_cents: int, ways: int) -> list[int]:
    """Split cents into `ways` parts differing by at most one cent, the larger parts first."""
    if ways < 1 or amount_cents < 0:
        raise ValueError("split a non-negative amount at least one way")
    base, odd = divmod(amount_cents, ways)
    return [base + (1 if i < odd else 0) for i in range(ways)]


# --- High hand -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HighHandRule:
    """The best hand of each period wins (jackpots.md §6).

    `period`: "hour" (clock hours), "shift" (the room's dealer shifts) or "day" (the gaming
    day). `min_hand`: the weakest hand that can hold the high hand (`hand_rank` notation).
    `both_hole_cards_play`: as for the bad beat. `prize_cents`: what the period's high hand
    is paid; None pays the whole main fund.
    """

    period: Period = "hour"
    min_hand: str = "AAA22"
    both_hole_cards_play: bool = True
    prize_cents: int | None = None
    games: frozenset[str] = GAMES

    def __post_init__(self) -> None:
        if self.period not in ("hour", "shift", "day"):
            raise ValueError(f"high-hand period {self.period!r}: 'hour', 'shift' or 'day'")
        if self.prize_cents is not None and self.prize_cents < 0:
            raise ValueError("a prize is never negative")
        hand_rank(self.min_hand)  # a notation that names no hand is refused here

    @property
    def min_rank(self) -> int:
        """The engine rank of `min_hand`."""
        return hand_rank(self.min_hand)


def period_of(
    rule: HighHandRule, at: datetime, *, day_start_minutes: int, shift_starts: Sequence[int]
) -> tuple[datetime, datetime]:
    """Return the period holding `at`, as [start, end): a moment on a boundary opens the
    next period. Wall-clock times in `at`'s own timezone.

    "hour": the clock hour. "day": the gaming day, from `day_start_minutes` after midnight
    to the same time the next day. "shift": from the start of the shift running (the one
    that started last; before the first start of the day, the last one of the day before)
    to the next start. `shift_starts` are minutes after midnight; ValueError if empty.
    """
    if rule.period == "hour":
        start = at.replace(minute=0, second=0, microsecond=0)
        return start, start + timedelta(hours=1)
    starts = [day_start_minutes] if rule.period == "day" else sorted(set(shift_starts))
    if not starts:
        raise ValueError("a shift period needs the room's shift starts")
    day = at.date()
    moments = [
        _at(day + timedelta(days=d), m, at) for d in (-1, 0, 1) for m in starts
    ]  # sorted: yesterday's starts, today's, tomorrow's
    i = max(k for k, m in enumerate(moments) if m <= at)
    return moments[i], moments[i + 1]


def _at(day: date, minutes: int, like: datetime) -> datetime:
    if not 0 <= minutes < 24 * 60:
        raise ValueError(f"{minutes} is not a minute of the day")
    clock = time(minutes // 60, minutes % 60)
    return datetime.combine(day, clock, tzinfo=like.tzinfo)


def judge_high_hand(
    rule: HighHandRule,
    *,
    game: str,
    board: Sequence[str],
    hand: ClaimedHand,
    current_best_rank: int | None,
) -> Judgement:
    """Judge a hand for the period's high hand (§6): it must reach the minimum, play both
    hole cards if the rule says so, and beat or tie the current high hand. A tie shares it.

    The hand is `winner_rank` of the judgement; `loser_rank` is None.
    """
    check_cards(game, board, (hand,))
    fails: list[str] = []
    if game not in rule.games:
        fails.append("game_not_covered")
    if len(board) != BOARD_CARDS:
        fails.append("board_incomplete")
    if game not in GAMES or len(board) != BOARD_CARDS:
        return Judgement(False, tuple(fails), None, None, RULE_HIGH_HAND)
    ranked = rank_claim(game, hand.hole, board)
    fails += _hand_fails("hand", ranked, rule.min_rank, rule.both_hole_cards_play)
    if current_best_rank is not None and ranked.rank > current_best_rank:
        fails.append("below_high_hand")
    if fails:
        reasons = tuple(r for r in REASONS if r in fails)
        return Judgement(False, reasons, None, ranked.rank, RULE_HIGH_HAND)
    won = "ties_high_hand" if ranked.rank == current_best_rank else "new_high_hand"
    return Judgement(True, (won,), None, ranked.rank, RULE_HIGH_HAND)


def split_high_hand(amount_cents: int, winners: Sequence[int]) -> dict[int, int]:
    """Share a high-hand prize among tied hands exactly: equal parts, the odd cents one each
    to the winners in the order given (callers pass the hands in the order they were made)."""
    if len(set(winners)) != len(winners):
        raise ValueError("each winner is named once")
    return dict(zip(winners, split_evenly(amount_cents, len(winners)), strict=True))

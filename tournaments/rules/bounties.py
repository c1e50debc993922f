"""Bounties: the buy-in split, knockout and progressive knockout awards, mystery envelopes.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock; a random draw is passed in as
the recorded sequence of envelope ids. Sources: formats.md §5 (buy-in split, pools,
guarantees, bounty unit), §6 (relevant pot, split pots, odd units, order of knockout, exits
without an eliminator), §7 (fixed bounty), §8 (PKO), §9 (the end and deals), §10 (mystery
bounty). Money is integer cents, like every amount in formats.json.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum


class BountyFormat(StrEnum):
    """Setting `bounty_format` (formats.md §3)."""

    NONE = "none"
    FIXED = "fixed"  # knockout (§7)
    PROGRESSIVE = "progressive"  # PKO (§8)
    MYSTERY = "mystery"  # mystery bounty (§10)


class GuaranteeScope(StrEnum):
    """Setting `guarantee_scope` (§5.4)."""

    TOTAL = "total"  # default [interpretation]: prize pool + bounty pool
    PRIZE_POOL = "prize_pool"


class SplitPotBounty(StrEnum):
    """Setting `split_pot_bounty` (§6.3)."""

    SPLIT_EQUALLY = "split_equally"  # default: eight sources
    LARGEST_STACK = "largest_stack"  # SKY-BH


class DealBountyHandling(StrEnum):
    """Setting `deal_bounty_handling` (§9.2)."""

    EACH_KEEPS_OWN = "each_keeps_own"  # default: BC-DEAL, GGN-DEAL
    INCLUDED = "included"  # APT-MB


class EventEnd(StrEnum):
    WINNER = "winner"
    DEAL = "deal"


class ForfeitReason(StrEnum):
    """Exits without an eliminator (§6.6)."""

    DISQUALIFICATION = "disqualification"
    PENALTY_ELIMINATION = "penalty_elimination"
    STACK_FORFEITED = "stack_forfeited"


class EnvelopeProblem(StrEnum):
    """Reasons `validate_envelopes` refuses a list, in this order (§1.2 Codes)."""

    SUM_NOT_POOL = "sum_not_pool"
    FEWER_ENVELOPES_THAN_STAGE_PLAYERS = "fewer_envelopes_than_stage_players"


DEFAULT_PROGRESSIVE_CASH_PERCENT = 50
DEFAULT_BOUNTY_UNIT = 1  # one cent (§5.5)


# --- §5 the buy-in and the pools -------------------------------------------------------


@dataclass(frozen=True)
class BountyBuyIn:
    """One entry's price in three parts (§5.1), written prize+bounty+fee."""

    prize_part: int
    bounty_part: int
    fee: int

    @property
    def total(self) -> int:
        return self.prize_part + self.bounty_part + self.fee


@dataclass(frozen=True)
class BountyPools:
    gross: int
    fees: int
    bounty_pool: int
    overlay: int
    prize_pool: int
    starting_bounty: int | None  # None under mystery: the bounty parts form the pool


def compute_bounty_pools(
    *,
    bounty_format: BountyFormat,
    entries: int,
    buy_in: BountyBuyIn,
    guarantee: int = 0,
    guarantee_scope: GuaranteeScope = GuaranteeScope.TOTAL,
) -> BountyPools:
    """Split every paid entry's buy-in into prize pool, bounty pool and fees (§5.1-§5.4).

    The overlay of a guarantee always goes to the regular prize pool, so that every bounty
    keeps its printed value (§5.4 [interpretation]).
    """
    if entries < 0 or min(buy_in.prize_part, buy_in.bounty_part, buy_in.fee, guarantee) < 0:
        raise ValueError("entries and amounts cannot be negative")
    prizes = entries * buy_in.prize_part
    bounty_pool = entries * buy_in.bounty_part
    covered = prizes + bounty_pool if guarantee_scope is GuaranteeScope.TOTAL else prizes
    overlay = max(0, guarantee - covered)
    return BountyPools(
        gross=entries * buy_in.total,
        fees=entries * buy_in.fee,
        bounty_pool=bounty_pool,
        overlay=overlay,
        prize_pool=prizes + overlay,
        starting_bounty=None if bounty_format is BountyFormat.MYSTERY else buy_in.bounty_part,
    )


def check_bounty_unit(*, bounty_unit: int, amounts: Sequence[int]) -> bool:
    """Return whether every amount is a whole number of bounty units (§5.5)."""
    return bounty_unit > 0 and all(a % bounty_unit == 0 for a in amounts)


# --- §6 who wins a bounty --------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One hand at one table: its button seat and who sat where (§1.1)."""

    button: int
    seats: Mapping[int, str]

    def clockwise_from_button(self) -> tuple[str, ...]:
        """Return the players in clockwise order, starting left of the button."""
        ordered = sorted(self.seats)
        after = [s for s in ordered if s > self.button]
        before = [s for s in ordered if s <= self.button]
        return tuple(self.seats[s] for s in after + before)


@dataclass(frozen=True)
class Pot:
    """A pot of the hand, main pot first: who may win it and its portions' winners."""

    eligible: frozenset[str]
    winners: tuple[tuple[str, ...], ...]  # one portion (high only) or two (high, low)
    amount: int = 0


def relevant_pot(pots: Sequence[Pot], player: str) -> int:
    """Return the index of the highest pot the eliminated player is eligible for (§6.2)."""
    indexes = [i for i, pot in enumerate(pots) if player in pot.eligible]
    if not indexes:
        raise ValueError(f"{player} is eligible for no pot")
    for pot in pots:
        if any(player in portion for portion in pot.winners):
            raise ValueError(f"{player} won part of a pot and is not eliminated")
    return indexes[-1]


def _split_units(units: int, players: Sequence[str], order: Sequence[str]) -> dict[str, int]:
    """Share whole units equally; odd units one each clockwise from the button (§6.4)."""
    each, odd = divmod(units, len(players))
    rank = {p: i for i, p in enumerate(order)}
    clockwise = sorted(players, key=lambda p: rank.get(p, len(rank)))
    return {p: each + (1 if i < odd else 0) for i, p in enumerate(clockwise)}


def share_bounty(
    amount: int,
    portions: Sequence[Sequence[str]],
    *,
    table: Table,
    start_stacks: Mapping[str, int],
    bounty_unit: int = DEFAULT_BOUNTY_UNIT,
    split_pot_bounty: SplitPotBounty = SplitPotBounty.SPLIT_EQUALLY,
) -> dict[str, int]:
    """Share a bounty (or an envelope) among the winners of the relevant pot (§6.3-§6.4).

    Under `split_equally` a hi/lo pot is halved between its portions, the odd unit to the
    high; each portion is shared among its tied winners, odd units clockwise from the
    button. Under `largest_stack` the winner who began the hand with most chips takes it
    all; equal largest stacks share. Preconditions: amount is a multiple of the unit.
    """
    if bounty_unit <= 0 or amount % bounty_unit:
        raise ValueError("the bounty is not a whole number of bounty units")
    if not portions or any(not portion for portion in portions):
        raise ValueError("the relevant pot has no winner")
    units = amount // bounty_unit
    order = table.clockwise_from_button()
    shares: dict[str, int] = {}
    if split_pot_bounty is SplitPotBounty.LARGEST_STACK:
        everyone = list(dict.fromkeys(p for portion in portions for p in portion))
        biggest = max(start_stacks.get(p, 0) for p in everyone)
        top = [p for p in everyone if start_stacks.get(p, 0) == biggest]
        for player, got in _split_units(units, top, order).items():
            shares[player] = shares.get(player, 0) + got * bounty_unit
        return shares
    per_portion, odd = divmod(units, len(portions))
    for index, portion in enumerate(portions):
        portion_units = per_portion + (1 if index < odd else 0)  # high portion first
        for player, got in _split_units(portion_units, portion, order).items():
            shares[player] = shares.get(player, 0) + got * bounty_unit
    return shares


def knockout_order(
    busted: Sequence[str], *, table: Table, start_stacks: Mapping[str, int]
) -> tuple[str, ...]:
    """Order a hand's busts as they finish: smaller starting stack first (§6.5).

    Equal stacks are taken clockwise from the button [interpretation].
    """
    rank = {p: i for i, p in enumerate(table.clockwise_from_button())}
    return tuple(sorted(busted, key=lambda p: (start_stacks[p], rank.get(p, len(rank)))))


def progressive_split(
    share: int, *, cash_percent: int, bounty_unit: int = DEFAULT_BOUNTY_UNIT
) -> tuple[int, int]:
    """Return (cash part, head part) of a PKO share (§8.2).

    The cash part is rounded down to the bounty unit; the odd unit goes to the head
    (TCH-PKO).
    """
    if not 1 <= cash_percent <= 99:
        raise ValueError("the cash share of a progressive bounty is 1-99%")
    cash = (share // bounty_unit) * cash_percent // 100 * bounty_unit
    return cash, share - cash


@dataclass(frozen=True)
class BountyAward:
    """What one eliminated player's bounty pays: to whom in cash, and onto whose head."""

    eliminated: str
    pot: int
    cash: dict[str, int]
    added: dict[str, int]  # head parts (PKO); empty for a fixed bounty

    @property
    def bounty(self) -> int:
        return sum(self.cash.values()) + sum(self.added.values())


@dataclass(frozen=True)
class HandBounties:
    awards: tuple[BountyAward, ...]  # in the order of knockout
    cash_total: dict[str, int]  # every player dealt in and still in
    bounties_after: dict[str, int]


def settle_bounties(
    *,
    bounty_format: BountyFormat,
    table: Table,
    bounties: Mapping[str, int],
    start_stacks: Mapping[str, int],
    pots: Sequence[Pot],
    busted: Sequence[str],
    bounty_unit: int = DEFAULT_BOUNTY_UNIT,
    split_pot_bounty: SplitPotBounty = SplitPotBounty.SPLIT_EQUALLY,
    progressive_cash_percent: int = DEFAULT_PROGRESSIVE_CASH_PERCENT,
) -> HandBounties:
    """Settle the bounties of every player a hand eliminated (§6, §7, §8).

    Every bounty is taken as it stood at the start of the hand; head parts won are added
    when the hand is settled (§6.1, §8.3).
    """
    if bounty_format not in (BountyFormat.FIXED, BountyFormat.PROGRESSIVE):
        raise ValueError("only fixed and progressive bounties are settled per elimination")
    if len(set(busted)) != len(busted):
        raise ValueError("a player is listed twice")
    awards: list[BountyAward] = []
    for player in knockout_order(busted, table=table, start_stacks=start_stacks):
        index = relevant_pot(pots, player)
        shares = share_bounty(
            bounties[player],
            pots[index].winners,
            table=table,
            start_stacks=start_stacks,
            bounty_unit=bounty_unit,
            split_pot_bounty=split_pot_bounty,
        )
        cash: dict[str, int] = {}
        added: dict[str, int] = {}
        for winner, share in shares.items():
            if winner in busted:
                raise ValueError(f"{winner} cannot both eliminate and be eliminated")
            if bounty_format is BountyFormat.PROGRESSIVE:
                cash[winner], added[winner] = progressive_split(
                    share, cash_percent=progressive_cash_percent, bounty_unit=bounty_unit
                )
            else:
                cash[winner] = share
        awards.append(BountyAward(eliminated=player, pot=index, cash=cash, added=added))
    still_in = [p for p in bounties if p not in busted]
    cash_total = dict.fromkeys(still_in, 0)
    after = {p: bounties[p] for p in still_in}
    for award in awards:
        for player, amount in award.cash.items():
            cash_total[player] = cash_total.get(player, 0) + amount
        for player, amount in award.added.items():
            after[player] = after.get(player, 0) + amount
    return HandBounties(awards=tuple(awards), cash_total=cash_total, bounties_after=after)


@dataclass(frozen=True)
class FinalBounty:
    cash: dict[str, int]
    added_to_deal: int


def final_bounty(
    *,
    end: EventEnd,
    bounties: Mapping[str, int],
    deal_bounty_handling: DealBountyHandling = DealBountyHandling.EACH_KEEPS_OWN,
) -> FinalBounty:
    """Pay the players left their own bounties at the end (§7, §8.4, §9.2).

    The winner always takes his own bounty; a deal under `included` puts the bounties in
    play into the money it divides instead.
    """
    if end is EventEnd.DEAL and deal_bounty_handling is DealBountyHandling.INCLUDED:
        return FinalBounty(cash=dict.fromkeys(bounties, 0), added_to_deal=sum(bounties.values()))
    return FinalBounty(cash=dict(bounties), added_to_deal=0)


@dataclass(frozen=True)
class Forfeit:
    prize_pool_after: int
    bounty_paid_to: str
    new_entry_bounty: int | None


def forfeit_bounty(
    *, bounty: int, reason: ForfeitReason, prize_pool: int, starting_bounty: int
) -> Forfeit:
    """Send the bounty of a player nobody eliminated to the prize pool (§6.6, TCH-PKO).

    A stack forfeited to re-enter also starts the new entry with the starting bounty.
    """
    return Forfeit(
        prize_pool_after=prize_pool + bounty,
        bounty_paid_to="prize_pool",
        new_entry_bounty=starting_bounty if reason is ForfeitReason.STACK_FORFEITED else None,
    )


@dataclass(frozen=True)
class BountyBoard:
    leaders: tuple[str, ...]
    leader_bounty: int
    total_in_play: int


def bounty_board(bounties: Mapping[str, int]) -> BountyBoard:
    """Return everyone tied for the largest bounty and the bounties in play (§12)."""
    if not bounties:
        return BountyBoard(leaders=(), leader_bounty=0, total_in_play=0)
    top = max(bounties.values())
    return BountyBoard(
        leaders=tuple(p for p, b in bounties.items() if b == top),
        leader_bounty=top,
        total_in_play=sum(bounties.values()),
    )


# --- §10 mystery bounty ----------------------------------------------------------------


@dataclass(frozen=True)
class EnvelopeCheck:
    valid: bool
    reasons: tuple[EnvelopeProblem, ...]
    envelope_count: int
    envelope_total: int


def validate_envelopes(
    *, bounty_pool: int, stage_trigger_players: int, envelopes: Mapping[str, int]
) -> EnvelopeCheck:
    """Check a published envelope list against the bounty pool and the stage (§10.2)."""
    total = sum(envelopes.values())
    reasons: list[EnvelopeProblem] = []
    if total != bounty_pool:
        reasons.append(EnvelopeProblem.SUM_NOT_POOL)
    if len(envelopes) < stage_trigger_players:
        reasons.append(EnvelopeProblem.FEWER_ENVELOPES_THAN_STAGE_PLAYERS)
    return EnvelopeCheck(
        valid=not reasons,
        reasons=tuple(reasons),
        envelope_count=len(envelopes),
        envelope_total=total,
    )


def mirror_envelopes(payouts: Mapping[int, int], *, bounty_pool: int) -> dict[str, int]:
    """Propose one envelope per paid place, in proportion to the payouts (§10.2, RIV-MB).

    Whole cents; what rounding leaves goes to the first envelope so the sum is exact.
    """
    places = sorted(p for p, amount in payouts.items() if amount > 0)
    total = sum(payouts[p] for p in places)
    if not places or total <= 0:
        return {}
    values = {f"E{i:02d}": payouts[p] * bounty_pool // total for i, p in enumerate(places, 1)}
    values["E01"] += bounty_pool - sum(values.values())
    return values


@dataclass(frozen=True)
class MysteryElimination:
    player: str
    winners: tuple[tuple[str, ...], ...]  # the portions of his relevant pot


@dataclass(frozen=True)
class MysteryHand:
    """One hand at one table; hands with the same number are one hand-for-hand hand."""

    hand: int
    table: Table
    remaining_before_hand: int
    start_stacks: Mapping[str, int]
    eliminations: tuple[MysteryElimination, ...]


@dataclass(frozen=True)
class DrawRight:
    """The right to draw one envelope, earned by an elimination in the stage (§10.5)."""

    eliminated: str
    winners: tuple[tuple[str, ...], ...]
    table: Table
    start_stacks: Mapping[str, int]


@dataclass(frozen=True)
class Draw:
    eliminated: str
    envelope: str
    value: int
    paid: dict[str, int]


@dataclass(frozen=True)
class MysteryResult:
    draws: tuple[Draw, ...]
    paid_total: dict[str, int]
    remaining_envelopes: tuple[str, ...]
    no_bounty: tuple[str, ...]
    winner_envelopes: tuple[str, ...]


def draw_rights(
    hands: Sequence[MysteryHand], *, stage_trigger_players: int
) -> tuple[tuple[DrawRight, ...], tuple[str, ...]]:
    """Return the draw rights in the order of knockout, and who earned nobody a draw.

    The stage starts with the first hand dealt with at most `stage_trigger_players` left
    (§10.3); within a hand (all its tables) the smaller starting stack is out first, equal
    stacks in table order then clockwise from the button (§10.6).
    """
    rights: list[DrawRight] = []
    no_bounty: list[str] = []
    stage_started = False
    by_number: dict[int, list[tuple[int, MysteryHand]]] = {}
    numbers: list[int] = []
    for position, hand in enumerate(hands):
        if hand.hand not in by_number:
            numbers.append(hand.hand)
        by_number.setdefault(hand.hand, []).append((position, hand))
    for number in numbers:
        tables = by_number[number]
        if any(h.remaining_before_hand <= stage_trigger_players for _, h in tables):
            stage_started = True
        keyed: list[tuple[int, int, int, DrawRight]] = []
        for table_order, (_, hand) in enumerate(tables):
            rank = {p: i for i, p in enumerate(hand.table.clockwise_from_button())}
            for elimination in hand.eliminations:
                right = DrawRight(
                    eliminated=elimination.player,
                    winners=elimination.winners,
                    table=hand.table,
                    start_stacks=hand.start_stacks,
                )
                stack = hand.start_stacks[elimination.player]
                keyed.append((stack, table_order, rank.get(elimination.player, 0), right))
        for *_, right in sorted(keyed, key=lambda k: k[:3]):
            if stage_started:
                rights.append(right)
            else:
                no_bounty.append(right.eliminated)  # before the stage: no bounty (§10.4)
    return tuple(rights), tuple(no_bounty)


def draw_envelopes(
    *,
    envelopes: Mapping[str, int],
    hands: Sequence[MysteryHand],
    draw_sequence: Sequence[str],
    stage_trigger_players: int,
    bounty_unit: int = DEFAULT_BOUNTY_UNIT,
    split_pot_bounty: SplitPotBounty = SplitPotBounty.SPLIT_EQUALLY,
    winner: str | None = None,
) -> MysteryResult:
    """Pay each draw right the envelope of the recorded draw, in the order of knockout.

    The k-th right gets the k-th envelope of `draw_sequence` (§10.6, §10.8), shared among
    co-eliminators (§10.5); the winner takes every envelope still undrawn (§10.9).
    """
    rights, no_bounty = draw_rights(hands, stage_trigger_players=stage_trigger_players)
    if len(draw_sequence) != len(rights):
        raise ValueError("the recorded draw does not have one envelope per draw right")
    if len(set(draw_sequence)) != len(draw_sequence):
        raise ValueError("an envelope was drawn twice")
    undrawn = dict(envelopes)
    draws: list[Draw] = []
    paid: dict[str, int] = {}
    for right, envelope in zip(rights, draw_sequence, strict=True):
        if envelope not in undrawn:
            raise ValueError(f"envelope {envelope} is not undrawn")
        value = undrawn.pop(envelope)
        shares = share_bounty(
            value,
            right.winners,
            table=right.table,
            start_stacks=right.start_stacks,
            bounty_unit=bounty_unit,
            split_pot_bounty=split_pot_bounty,
        )
        draws.append(Draw(eliminated=right.eliminated, envelope=envelope, value=value, paid=shares))
        for player, amount in shares.items():
            paid[player] = paid.get(player, 0) + amount
    winner_envelopes: tuple[str, ...] = ()
    if winner is not None:
        winner_envelopes = tuple(sorted(undrawn))
        paid[winner] = paid.get(winner, 0) + sum(undrawn.values())
        undrawn = {}
    out = {e.player for h in hands for e in h.eliminations}
    dealt = dict.fromkeys(p for h in hands for p in h.start_stacks)
    paid_total = {p: paid.get(p, 0) for p in dealt if p not in out}
    return MysteryResult(
        draws=tuple(draws),
        paid_total=paid_total,
        remaining_envelopes=tuple(sorted(undrawn)),
        no_bounty=no_bounty,
        winner_envelopes=winner_envelopes,
    )

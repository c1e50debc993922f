"""Settle the eliminations of a hand: finishing places, shared places, prizes, the winner.

Pure rules (DESIGN.md layer 1): no Django, no I/O, no clock. Sources: tournament.md §14.2
(RP-8a bubble split), §15 (FIGP §60 same-hand eliminations, §87d/§87e sanctions, §55
blinding out, 003 Art.7.5 the winner). Money is integer euros.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class SameHandRule(StrEnum):
    """Setting `same_hand_elimination_rule` (tournament.md §15.2)."""

    FIGP = "figp"  # default: same table by starting stack, different tables tie
    TDA_SHARE_ALL = "tda_share_all"  # RP-8a: everyone out in a hand-for-hand hand shares


class EliminationReason(StrEnum):
    """Why a player left (tournament.md §15.3); ordinary busts are `LOST_IN_PLAY`."""

    LOST_IN_PLAY = "lost_in_play"
    PENALTY_ELIMINATION = "penalty_elimination"  # FIGP §87d: keeps the place's prize
    DISQUALIFICATION = "disqualification"  # FIGP §87e, TDA-71d: no place, prize or refund
    BLINDED_OUT_WHILE_ABSENT = "blinded_out_while_absent"  # FIGP §55: place and prize


# Chips that leave play rather than going to the other players (tournament.md §12.4).
CHIPS_REMOVED_REASONS = frozenset(
    {EliminationReason.PENALTY_ELIMINATION, EliminationReason.DISQUALIFICATION}
)


@dataclass(frozen=True)
class Elimination:
    """One player out in the hand, with his stack at the start of the hand."""

    player: str
    table: str
    start_stack: int
    reason: EliminationReason = EliminationReason.LOST_IN_PLAY


@dataclass(frozen=True)
class PlaceGroup:
    """Players sharing the places `places` (one player: a place of his own)."""

    players: tuple[str, ...]  # larger starting stack first
    places: tuple[int, ...]  # ascending
    payout_each: int
    undivided: int = 0  # euros the equal split leaves over, for the TD to allot
    rule_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settlement:
    """The outcome of one hand's eliminations."""

    groups: tuple[PlaceGroup, ...]  # best places first; disqualified players in none
    remaining_after: int
    winner: str | None
    tournament_over: bool
    chips_removed_from_play: int
    disqualified: frozenset[str]
    payout: dict[str, int]
    refund: dict[str, int]
    needs_td_confirmation: bool  # the sources leave the order open (§15.2)
    confirmation_reasons: tuple[str, ...] = field(default=())

    def place_of(self, player: str) -> tuple[int, ...]:
        """Return the places a player holds or shares (empty when disqualified)."""
        for group in self.groups:
            if player in group.players:
                return group.places
        return ()


def _layers(
    eliminated: Sequence[Elimination], *, rule: SameHandRule, share_all: bool
) -> tuple[list[list[Elimination]], list[str]]:
    """Split the players into tiers, best first; players in one tier share their places."""
    if rule is SameHandRule.TDA_SHARE_ALL and share_all:
        # RP-8a: the players out in the bubble hand share the places reached.
        return [list(eliminated)], []
    by_table: dict[str, list[Elimination]] = {}
    for elimination in eliminated:
        by_table.setdefault(elimination.table, []).append(elimination)
    notes: list[str] = []
    ranked_tables: list[list[list[Elimination]]] = []
    for table_players in by_table.values():
        # FIGP §60: at one table, the larger starting stack finishes higher; equal stacks
        # are not covered (§15.2), so they share and the TD must confirm.
        stacks = sorted({e.start_stack for e in table_players}, reverse=True)
        tiers = [[e for e in table_players if e.start_stack == s] for s in stacks]
        if any(len(tier) > 1 for tier in tiers):
            notes.append("equal_start_stacks_same_table")
        ranked_tables.append(tiers)
    if len(ranked_tables) > 1 and any(len(t) > 1 for t in ranked_tables):
        # FIGP §60 ties different tables but orders one table: only a partial order.
        # [interpretation] each table's n-th best ties with the other tables' n-th best.
        notes.append("mixed_same_and_different_tables")
    depth = max(len(t) for t in ranked_tables)
    layers = [
        [e for tiers in ranked_tables if level < len(tiers) for e in tiers[level]]
        for level in range(depth)
    ]
    return layers, notes


def settle_eliminations(
    *,
    remaining_before_hand: int,
    eliminated: Sequence[Elimination],
    prizes: Mapping[int, int],
    paid_places: int,
    rule: SameHandRule = SameHandRule.FIGP,
    hand_for_hand: bool = False,
    announcement_hand: bool = False,
    other_players: Sequence[str] = (),
) -> Settlement:
    """Give the players out in one hand their places and prizes.

    §15.1: a lone elimination takes the place equal to the players left before it; with k
    out in the hand they take places R-k+1..R. §15.2: FIGP §60 orders one table by starting
    stack and ties different tables; `tda_share_all` (RP-8a) ties everyone out in a
    hand-for-hand hand, the announcement hand included (§14.2), or in a hand whose busts
    straddle the last paid place; other hands it orders as FIGP does. A tied group shares equally
    the prizes of the places it occupies (RP-8a; [interpretation for FIGP]).
    §15.3: a disqualified player gets no place, prize or refund and his chips leave play
    [interpretation: he occupies no place, so the others close up]; a penalty elimination
    keeps the place's prize and its chips leave play.
    `prizes` maps place -> euros; places beyond `paid_places` or missing pay nothing.
    Preconditions: every player is out once; remaining_before_hand >= len(eliminated).
    """
    if len({e.player for e in eliminated}) != len(eliminated):
        raise ValueError("a player is listed twice")
    if remaining_before_hand < len(eliminated):
        raise ValueError("more players out than were left")
    disqualified = [e for e in eliminated if e.reason is EliminationReason.DISQUALIFICATION]
    placed = [e for e in eliminated if e.reason is not EliminationReason.DISQUALIFICATION]
    field_size = remaining_before_hand - len(disqualified)
    remaining_after = field_size - len(placed)

    # RP-8a: the announcement hand already counts as hand-for-hand for sharing (§14.2).
    in_hand_for_hand = hand_for_hand or announcement_hand
    groups: list[PlaceGroup] = []
    notes: list[str] = []
    if placed:
        # tda_share_all applies to hand-for-hand hands, and to any hand whose busts straddle
        # the money line (the bubble hand, tournament.md §2) [interpretation].
        straddles = remaining_after + 1 <= paid_places < field_size
        layers, notes = _layers(placed, rule=rule, share_all=in_hand_for_hand or straddles)
        next_place = remaining_after + 1
        for layer in layers:
            places = tuple(range(next_place, next_place + len(layer)))
            next_place += len(layer)
            pot = sum(prizes.get(p, 0) for p in places if p <= paid_places)
            each, undivided = divmod(pot, len(layer))
            players = tuple(
                e.player for e in sorted(layer, key=lambda e: e.start_stack, reverse=True)
            )
            groups.append(
                PlaceGroup(
                    players=players,
                    places=places,
                    payout_each=each,
                    undivided=undivided,
                    rule_ids=_group_rule_ids(
                        layer, rule=rule, shared=len(layers) == 1 and len(layer) > 1
                    ),
                )
            )

    winner = None
    if remaining_after == 1 and len(other_players) == 1:
        winner = other_players[0]  # 003 Art.7.5: the last player left wins
    payout = {player: group.payout_each for group in groups for player in group.players}
    if winner is not None and paid_places >= 1:
        payout[winner] = prizes.get(1, 0)
    for e in disqualified:
        payout[e.player] = 0  # FIGP §87e: no prize
    return Settlement(
        groups=tuple(groups),
        remaining_after=remaining_after,
        winner=winner,
        tournament_over=remaining_after <= 1,
        chips_removed_from_play=sum(
            e.start_stack for e in eliminated if e.reason in CHIPS_REMOVED_REASONS
        ),
        disqualified=frozenset(e.player for e in disqualified),
        payout=payout,
        refund={e.player: 0 for e in disqualified},  # FIGP §87e, TDA-71d: no refund
        needs_td_confirmation=bool(notes),
        confirmation_reasons=tuple(notes),
    )


def _group_rule_ids(
    layer: Sequence[Elimination], *, rule: SameHandRule, shared: bool
) -> tuple[str, ...]:
    ids = ["tournament.md §15.1"]
    if len(layer) > 1:
        ids.append("RP-8a" if rule is SameHandRule.TDA_SHARE_ALL and shared else "FIGP §60")
    reasons = {e.reason for e in layer}
    if EliminationReason.PENALTY_ELIMINATION in reasons:
        ids.append("FIGP §87d")
    if EliminationReason.BLINDED_OUT_WHILE_ABSENT in reasons:
        ids.append("FIGP §55")
    return tuple(ids)


def bubble_group_shares(
    *, remaining_before_hand: int, eliminated_count: int, paid_places: int
) -> tuple[int, ...]:
    """Return the paid places a group out in one hand reaches (RP-8a, §14.2), best first.

    With R left, k out and P paid, the group holds places R-k+1..R and shares those <= P.
    """
    first = remaining_before_hand - eliminated_count + 1
    return tuple(range(first, min(remaining_before_hand, paid_places) + 1))

"""Conformance adapter for the money topics of floor.json (tournament.md §1.2).

Translates a case's `given`/`do` into calls of the pure rule modules (chips, payouts,
placements, penalties, entry_rules) and their results back into the `expect` shape:
JSON types, seats / denominations / places as string keys. No rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.rules import chips, entry_rules, payouts, penalties, placements

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


# ---------------------------------------------------------------------------
# JSON <-> rule types
# ---------------------------------------------------------------------------


def _chip_set(raw: Mapping[str, Any]) -> dict[int, int]:
    return {int(denomination): int(count) for denomination, count in raw.items()}


def _chip_json(chip_set: Mapping[int, int]) -> dict[str, int]:
    return {str(denomination): count for denomination, count in chip_set.items() if count}


def _seat_stacks(raw: Mapping[str, Any]) -> dict[int, dict[int, int]]:
    return {int(seat): _chip_set(stack) for seat, stack in raw.items()}


def _denominations(given: Mapping[str, Any]) -> dict[str, int]:
    return {
        "removed_denomination": int(given["removed_denomination"]),
        "lowest_remaining_denomination": int(given["lowest_remaining_denomination"]),
    }


# ---------------------------------------------------------------------------
# chip_race (CR), color_up (CU)
# ---------------------------------------------------------------------------


def color_up_exchange(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    exchanges = {
        seat: chips.exchange_full_sets(stack, **_denominations(given))
        for seat, stack in _seat_stacks(given["seats"]).items()
    }
    return {
        "exchanged": {
            str(seat): {"handed_in": _chip_json(ex.handed_in), "received": _chip_json(ex.received)}
            for seat, ex in exchanges.items()
        },
        "odd_chips_to_race": {
            str(seat): _chip_json(ex.odd_chips) for seat, ex in exchanges.items()
        },
        "odd_value_to_race": {str(seat): ex.odd_value for seat, ex in exchanges.items()},
        "stack_before_race": {
            str(seat): _chip_json(ex.stack_before_race) for seat, ex in exchanges.items()
        },
    }


def race_order(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    order = chips.race_order(
        (int(s) for s in given["odd_chip_seats"]), max_seats=int(given["max_seats"])
    )
    return {"deal_order": order}


def award_race_by_cards(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    ranking = [
        chips.RaceCard(seat=int(rc["seat"]), card=rc["card"]) for rc in given["race_ranking"]
    ]
    racing = [int(seat) for seat, count in given.get("odd_chips", {}).items() if count]
    award = chips.award_race(int(given["chips_to_race"]), ranking, racing_seats=racing)
    return {
        "awarded": {str(seat): n for seat, n in award.awarded.items()},
        "not_awarded": sorted(award.not_awarded),
    }


def award_race_results(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    result = chips.apply_race(
        _seat_stacks(given["seats"]),
        winners={int(s) for s in given["race_winners"]},
        **_denominations(given),
    )
    return {
        "eliminated": sorted(result.eliminated),
        "final_stacks": {str(seat): _chip_json(st) for seat, st in result.final_stacks.items()},
    }


def post_race_leftovers(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    cleared = {
        seat: chips.clear_leftovers(stack, **_denominations(given))
        for seat, stack in _seat_stacks(given["seats"]).items()
    }
    return {
        "final_stacks": {str(seat): _chip_json(c.chips_after) for seat, c in cleared.items()},
        "removed_without_compensation": {
            str(seat): c.removed_without_compensation for seat, c in cleared.items()
        },
    }


def _color_up_json(result: chips.ColorUp) -> dict[str, Any]:
    return {
        "chips_after": _chip_json(result.chips_after),
        "value_before": result.value_before,
        "value_after": result.value_after,
        "announcement_required": result.announcement_required,
    }


def color_up(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    # exchange "all_whole_units": every whole target chip the lower chips make (the default).
    result = chips.color_up(
        _chip_set(given["chips"]), target_denomination=int(given["target_denomination"])
    )
    return _color_up_json(result)


def color_up_leftovers(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    result = chips.color_up_leftovers(_chip_set(given["chips"]), **_denominations(given))
    out = _color_up_json(result)
    out["removed_without_compensation"] = result.value_before - result.value_after
    return out


# ---------------------------------------------------------------------------
# bubble_split (BS), placement (PL)
# ---------------------------------------------------------------------------


def settle_eliminations(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    eliminated = [
        placements.Elimination(
            player=e["player"],
            table=e["table"],
            start_stack=int(e["start_stack"]),
            reason=placements.EliminationReason(e.get("reason", "lost_in_play")),
        )
        for e in given["eliminated_in_hand"]
    ]
    settlement = placements.settle_eliminations(
        remaining_before_hand=int(given["remaining_before_hand"]),
        eliminated=eliminated,
        prizes={int(place): int(amount) for place, amount in given["prizes"].items()},
        paid_places=int(given["paid_places"]),
        rule=placements.SameHandRule(given["rules"]["same_hand_elimination_rule"]),
        hand_for_hand=bool(given["hand_for_hand"]),
        announcement_hand=bool(given["announcement_hand"]),
        other_players=tuple(given.get("other_players", ())),
    )
    result: dict[str, Any] = {
        "groups": [
            {"players": list(g.players), "places": list(g.places), "payout_each": g.payout_each}
            for g in settlement.groups
        ],
        "remaining_after": settlement.remaining_after,
        "tournament_over": settlement.tournament_over,
        "chips_removed_from_play": settlement.chips_removed_from_play,
        "disqualified": sorted(settlement.disqualified),
        "payout": settlement.payout,
        "refund": settlement.refund,
    }
    if settlement.winner is not None:
        result["winner"] = settlement.winner
    return result


# ---------------------------------------------------------------------------
# penalty_hands (PH)
# ---------------------------------------------------------------------------


def _penalty(given: dict[str, Any]) -> penalties.Penalty:
    rounds = int(given["rounds"])
    return penalties.Penalty(
        player="?",
        kind=penalties.PenaltyKind.MISSED_ROUNDS,
        total_hands=penalties.penalty_hands(
            players_at_table=int(given["players_at_table_when_given"]), rounds=rounds
        ),
        served=int(given["served"]),
        rounds=rounds,
    )


def _served(given: dict[str, Any]) -> penalties.ServingResult:
    return penalties.serve(_penalty(given), given.get("events", []))


def compute_penalty(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    served = _served(given)
    return {"total_hands": served.penalty.total_hands, "remaining": served.penalty.remaining}


def carry_over(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    served = _served(given)
    return {
        "total_hands": served.penalty.total_hands,
        "remaining": served.penalty.remaining,
        "served_on": "next_day" if served.carries_to_next_day else "none",
    }


def move_table(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    # players_at_new_table is deliberately unused: the count is fixed when given (PH-03).
    return compute_penalty(given, do)


def count_hands(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    served = _served(given)
    return {
        "total_hands": served.penalty.total_hands,
        "remaining": served.penalty.remaining,
        "hands_counted_for_events": served.hands_counted,
    }


def start_penalty(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    penalty = _penalty(given)
    window = penalties.penalty_window(
        infraction=given["infraction"],
        infraction_hand_number=int(given["infraction_hand_number"]),
        total_hands=penalty.total_hands,
        served=penalty.served,
    )
    return {
        "first_penalty_hand_number": window.first_hand,
        "last_penalty_hand_number": window.last_hand,
        "current_hand_still_live": window.current_hand_still_live,
        "total_hands": penalty.total_hands,
        "remaining": penalty.remaining,
    }


def deal_hand_during_penalty(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    before = _served(given).penalty
    blinds = given["blinds"]
    hand = penalties.deal_hand_during_penalty(
        before,
        stack=int(given["stack"]),
        blinds=penalties.Blinds(
            sb=int(blinds["sb"]), bb=int(blinds["bb"]), ante=int(blinds.get("ante", 0))
        ),
        position=given["position_next_hand"],
    )
    return {
        "stack_after": hand.stack_after,
        "hand_killed": hand.hand_killed,
        "remaining": hand.penalty.remaining,
        "total_hands": hand.penalty.total_hands,
    }


# ---------------------------------------------------------------------------
# payout_places (PP), prize_pool (PZ)
# ---------------------------------------------------------------------------


def validate_payout_structure(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    validation = payouts.validate_payout_structure(
        entries=int(given["entries"]),
        paid_places=int(given["proposed_paid_places"]),
        percentages=given.get("proposed_percentages"),
    )
    return {
        "min_paid_places": validation.min_paid_places,
        "valid": validation.valid,
        "reasons": list(validation.reasons),
    }


def compute_prize_pool(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    buy_in = given.get("buy_in")
    if buy_in is not None:
        pool = payouts.compute_prize_pool(
            entries=int(given["entries"]),
            buy_in=payouts.BuyIn(prize_part=int(buy_in["prize_part"]), fee=int(buy_in["fee"])),
            taxes=int(given.get("taxes", 0)),
        )
    else:
        pool = payouts.compute_prize_pool(
            entries=int(given["entries"]),
            entry_fee=int(given["entry_fee"]),
            house_and_dealer_percent=given["house_and_dealer_percent"],
            taxes=int(given.get("taxes", 0)),
        )
    return {
        "gross": pool.gross,
        "organiser_share": pool.organiser_share,
        "prize_pool": pool.prize_pool,
        "taxes": pool.taxes,
    }


# ---------------------------------------------------------------------------
# rebuy (RB)
# ---------------------------------------------------------------------------


def resolve_rebuy(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    outcome = entry_rules.resolve_rebuy(
        stack=int(given["stack"]),
        rebuy_stack=int(given["rebuy_stack"]),
        announced_before_hand=bool(given["announced_before_hand"]),
        net_chips=int(given["hand_outcome"]["net_chips"]),
    )
    return {
        "plays_hand_with": outcome.plays_hand_with,
        "rebuy_charged": outcome.rebuy_charged,
        "stack_after_hand": outcome.stack_after_hand,
        "eliminated": outcome.eliminated,
    }


def forfeit_and_reenter(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    result = entry_rules.forfeit_and_reenter(
        reentry_forfeit_allowed=bool(given["reentry_forfeit_allowed"]),
        stack=int(given["stack"]),
        starting_stack=int(given["starting_stack"]),
        chips_in_play_before=int(given["chips_in_play_before"]),
    )
    return {
        "removed_from_play": result.removed_from_play,
        "new_stack": result.new_stack,
        "chips_in_play_after": result.chips_in_play_after,
        "seat_assignment": str(result.seat_assignment),
    }


def request_reentry(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    decision = entry_rules.request_reentry(
        entry_rules.EntryPolicy(entry_format=entry_rules.EntryFormat(given["entry_format"])),
        stack=int(given["stack"]),
    )
    return {"eliminated": decision.eliminated, "reentry_allowed": decision.reentry_allowed}


HANDLERS: dict[tuple[str, str], Handler] = {
    ("chip_race", "color_up_exchange"): color_up_exchange,
    ("chip_race", "race_order"): race_order,
    ("chip_race", "award_race_by_cards"): award_race_by_cards,
    ("chip_race", "award_race_results"): award_race_results,
    ("chip_race", "post_race_leftovers"): post_race_leftovers,
    ("color_up", "color_up"): color_up,
    ("color_up", "color_up_leftovers"): color_up_leftovers,
    ("bubble_split", "settle_eliminations"): settle_eliminations,
    ("placement", "settle_eliminations"): settle_eliminations,
    ("penalty_hands", "compute_penalty"): compute_penalty,
    ("penalty_hands", "carry_over"): carry_over,
    ("penalty_hands", "move_table"): move_table,
    ("penalty_hands", "count_hands"): count_hands,
    ("penalty_hands", "start_penalty"): start_penalty,
    ("penalty_hands", "deal_hand_during_penalty"): deal_hand_during_penalty,
    ("payout_places", "validate_payout_structure"): validate_payout_structure,
    ("prize_pool", "compute_prize_pool"): compute_prize_pool,
    ("rebuy", "resolve_rebuy"): resolve_rebuy,
    ("rebuy", "forfeit_and_reenter"): forfeit_and_reenter,
    ("rebuy", "request_reentry"): request_reentry,
}

"""Conformance adapter for formats.json: bounties, PKO, mystery bounties, satellites.

Translates a case's `given` into calls of the pure rule modules (`tournaments.rules.bounties`,
`tournaments.rules.satellites`) and their results back into the `expect` shape of formats.md
§1.2: JSON types, places and seats as string keys, `"none"` for no value. Money is integer
cents. No rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.rules import bounties, satellites
from tournaments.rules.placements import Elimination, SameHandRule

Handler = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


def _table(raw: Mapping[str, Any]) -> bounties.Table:
    return bounties.Table(
        button=int(raw["button"]),
        seats={int(seat): str(player) for seat, player in raw["seats"].items()},
    )


def _portions(raw: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(p) for p in portion) for portion in raw)


def _split_rule(rules: Mapping[str, Any]) -> bounties.SplitPotBounty:
    return bounties.SplitPotBounty(rules.get("split_pot_bounty", "split_equally"))


def _none(value: int | None) -> int | str:
    return "none" if value is None else value


def compute_bounty_pools(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    rules = given["rules"]
    buy_in = given["buy_in"]
    pools = bounties.compute_bounty_pools(
        bounty_format=bounties.BountyFormat(rules["bounty_format"]),
        entries=int(given["entries"]),
        buy_in=bounties.BountyBuyIn(
            prize_part=int(buy_in["prize_part"]),
            bounty_part=int(buy_in["bounty_part"]),
            fee=int(buy_in["fee"]),
        ),
        guarantee=int(given.get("guarantee", 0)),
        guarantee_scope=bounties.GuaranteeScope(rules.get("guarantee_scope", "total")),
    )
    return {
        "gross": pools.gross,
        "fees": pools.fees,
        "bounty_pool": pools.bounty_pool,
        "overlay": pools.overlay,
        "prize_pool": pools.prize_pool,
        "starting_bounty": _none(pools.starting_bounty),
    }


def eliminate(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    rules = given["rules"]
    result = bounties.settle_bounties(
        bounty_format=bounties.BountyFormat(rules["bounty_format"]),
        table=_table(given["table"]),
        bounties={str(p): int(v) for p, v in given["bounties"].items()},
        start_stacks={str(p): int(v) for p, v in given["start_stacks"].items()},
        pots=[
            bounties.Pot(
                eligible=frozenset(str(p) for p in pot["eligible"]),
                winners=_portions(pot["winners"]),
                amount=int(pot.get("amount", 0)),
            )
            for pot in given["pots"]
        ],
        busted=[str(p) for p in given["busted"]],
        bounty_unit=int(rules.get("bounty_unit", 1)),
        split_pot_bounty=_split_rule(rules),
        progressive_cash_percent=int(rules.get("progressive_cash_percent", 50)),
    )
    return {
        "awards": [
            {
                "eliminated": award.eliminated,
                "pot": award.pot,
                "cash": dict(award.cash),
                "added": dict(award.added),
            }
            for award in result.awards
        ],
        "cash_total": dict(result.cash_total),
        "bounties_after": dict(result.bounties_after),
    }


def final_bounty(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    result = bounties.final_bounty(
        end=bounties.EventEnd(given["end"]),
        bounties={str(p): int(v) for p, v in given["bounties"].items()},
        deal_bounty_handling=bounties.DealBountyHandling(
            given["rules"].get("deal_bounty_handling", "each_keeps_own")
        ),
    )
    return {"cash": dict(result.cash), "added_to_deal": result.added_to_deal}


def forfeit_bounty(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    result = bounties.forfeit_bounty(
        bounty=int(given["bounty"]),
        reason=bounties.ForfeitReason(given["reason"]),
        prize_pool=int(given["prize_pool"]),
        starting_bounty=int(given["starting_bounty"]),
    )
    return {
        "prize_pool_after": result.prize_pool_after,
        "bounty_paid_to": result.bounty_paid_to,
        "new_entry_bounty": _none(result.new_entry_bounty),
    }


def bounty_board(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    board = bounties.bounty_board({str(p): int(v) for p, v in given["bounties"].items()})
    return {
        "leaders": list(board.leaders),
        "leader_bounty": board.leader_bounty,
        "total_in_play": board.total_in_play,
    }


def validate_envelopes(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    check = bounties.validate_envelopes(
        bounty_pool=int(given["bounty_pool"]),
        stage_trigger_players=int(given["stage_trigger_players"]),
        envelopes={str(e): int(v) for e, v in given["envelopes"].items()},
    )
    return {
        "valid": check.valid,
        "reasons": [reason.value for reason in check.reasons],
        "envelope_count": check.envelope_count,
        "envelope_total": check.envelope_total,
    }


def draw_envelopes(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    rules = given["rules"]
    hands = [
        bounties.MysteryHand(
            hand=int(hand["hand"]),
            table=_table(hand["table"]),
            remaining_before_hand=int(hand["remaining_before_hand"]),
            start_stacks={str(p): int(v) for p, v in hand["start_stacks"].items()},
            eliminations=tuple(
                bounties.MysteryElimination(
                    player=str(e["player"]), winners=_portions(e["winners"])
                )
                for e in hand["eliminations"]
            ),
        )
        for hand in given["hands"]
    ]
    winner = given.get("winner")
    result = bounties.draw_envelopes(
        envelopes={str(e): int(v) for e, v in given["envelopes"].items()},
        hands=hands,
        draw_sequence=[str(e) for e in given["draw_sequence"]],
        stage_trigger_players=int(rules["stage_trigger_players"]),
        bounty_unit=int(rules.get("bounty_unit", 1)),
        split_pot_bounty=_split_rule(rules),
        winner=None if winner is None else str(winner),
    )
    out: dict[str, Any] = {
        "draws": [
            {
                "eliminated": d.eliminated,
                "envelope": d.envelope,
                "value": d.value,
                "paid": dict(d.paid),
            }
            for d in result.draws
        ],
        "paid_total": dict(result.paid_total),
        "remaining_envelopes": list(result.remaining_envelopes),
        "no_bounty": list(result.no_bounty),
    }
    if winner is not None:
        out["winner_envelopes"] = list(result.winner_envelopes)
    return out


def satellite_seats(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    rules = given["rules"]
    unit = rules.get("leftover_unit")
    result = satellites.satellite_seats(
        entries=int(given["entries"]),
        prize_part=int(given["buy_in"]["prize_part"]),
        seat_value=int(given["seat_value"]),
        added_money=int(given.get("added_money", 0)),
        guaranteed_seats=int(given.get("guaranteed_seats", 0)),
        leftover_mode=satellites.LeftoverMode(rules.get("leftover_mode", "next_place")),
        leftover_unit=None if unit is None else int(unit),
    )
    return {
        "prize_pool": result.prize_pool,
        "seats": result.seats,
        "overlay": result.overlay,
        "leftover": result.leftover,
        "cash_prizes": {str(place): amount for place, amount in result.cash_prizes.items()},
        "paid_places": result.paid_places,
    }


def satellite_bubble(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    rules = given["rules"]
    result = satellites.satellite_bubble(
        seats=int(given["seats"]),
        seat_value=int(given["seat_value"]),
        cash_prizes={int(place): int(v) for place, v in given["cash_prizes"].items()},
        remaining_before_hand=int(given["remaining_before_hand"]),
        hand_for_hand=bool(given["hand_for_hand"]),
        eliminated=[
            Elimination(
                player=str(e["player"]), table=str(e["table"]), start_stack=int(e["start_stack"])
            )
            for e in given["eliminated_in_hand"]
        ],
        other_players=[str(p) for p in given["other_players"]],
        rule=SameHandRule(rules.get("same_hand_elimination_rule", "figp")),
        seat_tie_resolution=satellites.SeatTieResolution(
            rules.get("seat_tie_resolution", "play_off")
        ),
    )
    return {
        "groups": [{"players": list(g.players), "places": list(g.places)} for g in result.groups],
        "seat_winners": list(result.seat_winners),
        "play_off": "none"
        if result.play_off is None
        else {"players": list(result.play_off.players), "seats": result.play_off.seats},
        "cash": dict(result.cash),
        "satellite_over": result.satellite_over,
        "remaining_after": result.remaining_after,
    }


def award_seat(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    award = satellites.award_seat(
        already_holds_seat=bool(given["already_holds_seat"]),
        seat_value=int(given["seat_value"]),
        duplicate_seat_award=satellites.DuplicateSeatAward(
            given["rules"].get("duplicate_seat_award", "credit")
        ),
    )
    return {"award": award.kind.value, "amount": award.amount}


def satellite_status(given: dict[str, Any], do: dict[str, Any]) -> dict[str, Any]:
    status = satellites.satellite_status(
        seats=int(given["seats"]),
        last_paid_place=int(given["last_paid_place"]),
        remaining=int(given["remaining"]),
    )
    return {
        "status": status.status.value,
        "players_to_seats": status.players_to_seats,
        "hand_for_hand_suggested": status.hand_for_hand_suggested,
    }


_BOUNTY_TOPICS = ("bounty", "pko", "mystery_bounty")

HANDLERS: dict[tuple[str, str], Handler] = {
    **{(topic, "compute_bounty_pools"): compute_bounty_pools for topic in _BOUNTY_TOPICS},
    **{(topic, "eliminate"): eliminate for topic in ("bounty", "pko")},
    **{(topic, "final_bounty"): final_bounty for topic in ("bounty", "pko")},
    **{(topic, "forfeit_bounty"): forfeit_bounty for topic in ("bounty", "pko")},
    **{(topic, "bounty_board"): bounty_board for topic in ("bounty", "pko")},
    ("mystery_bounty", "validate_envelopes"): validate_envelopes,
    ("mystery_bounty", "draw_envelopes"): draw_envelopes,
    ("satellite", "satellite_seats"): satellite_seats,
    ("satellite", "satellite_bubble"): satellite_bubble,
    ("satellite", "award_seat"): award_seat,
    ("satellite", "satellite_status"): satellite_status,
}

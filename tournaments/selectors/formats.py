"""What the event formats read: the buy-in split, the bounty pools and board, a
satellite's seats, seat tickets, bounty money per finisher and what the clock screen
shows of the format (formats.md). Money in integer cents; the writes are in
the format services (`tournaments.services.bounties`, `mystery`, `satellites`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import Sum

from tournaments import selectors
from tournaments.models import BountyAward, Entry, Event, SeatTicket, Tournament
from tournaments.rules import bounties, satellites

BOUNTY_FORMATS = ("fixed", "progressive")


def rules_format(tournament: Tournament) -> bounties.BountyFormat:
    return bounties.BountyFormat(tournament.bounty_format)


def bounty_of(entry: Entry, tournament: Tournament) -> int:
    """The entry's bounty in cents: its own once changed, else the starting bounty."""
    if tournament.bounty_format not in BOUNTY_FORMATS:
        return 0
    return entry.bounty_cents if entry.bounty_cents is not None else tournament.bounty_part_cents


def buy_in_split(tournament: Tournament) -> dict[str, int]:
    """What one buy-in pays into each part, in cents (formats.md §5.1)."""
    prize = tournament.buy_in_prize * 100
    fee = tournament.buy_in_fee * 100
    bounty = tournament.bounty_part_cents if tournament.bounty_format != "none" else 0
    return {"prize": prize, "bounty": bounty, "fee": fee, "total": prize + bounty + fee}


def bounty_pools(tournament: Tournament) -> bounties.BountyPools:
    split = buy_in_split(tournament)
    return bounties.compute_bounty_pools(
        bounty_format=rules_format(tournament),
        entries=selectors.buy_ins(tournament),
        buy_in=bounties.BountyBuyIn(
            prize_part=split["prize"], bounty_part=split["bounty"], fee=split["fee"]
        ),
        guarantee=tournament.guarantee * 100,
        guarantee_scope=bounties.GuaranteeScope(tournament.guarantee_scope),
    )


def bounty_board(tournament: Tournament, *, top: int = 3) -> dict[str, Any]:
    """The clock's bounty figures: pool, bounties in play, the leaders or envelopes left."""
    data: dict[str, Any] = {"format": tournament.bounty_format}
    if tournament.bounty_format == "none":
        return data
    data["pool"] = bounty_pools(tournament).bounty_pool
    data["to_prize_pool"] = bounties_to_prize_pool(tournament)
    if tournament.bounty_format in BOUNTY_FORMATS:
        active = list(
            tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
        )
        by_id = {str(e.pk): bounty_of(e, tournament) for e in active}
        board = bounties.bounty_board(by_id)
        names = {str(e.pk): str(e.player) for e in active}
        data["in_play"] = board.total_in_play
        data["leader_bounty"] = board.leader_bounty
        data["leaders"] = [names[p] for p in board.leaders]
        ranked = sorted(active, key=lambda e: -by_id[str(e.pk)])[:top]
        data["biggest"] = [{"name": str(e.player), "bounty": by_id[str(e.pk)]} for e in ranked]
    else:
        left = tournament.envelopes.filter(drawn_for__isnull=True)
        counts: dict[int, int] = {}
        for value in left.values_list("value_cents", flat=True):
            counts[value] = counts.get(value, 0) + 1
        data["envelopes_left"] = [
            {"value": v, "count": counts[v]} for v in sorted(counts, reverse=True)
        ]
        data["envelopes_left_total"] = sum(v * c for v, c in counts.items())
        data["stage_players"] = stage_trigger(tournament)
    return data


def stage_trigger(tournament: Tournament) -> int:
    """Players at which the mystery stage starts: the setting, else the paid places."""
    if tournament.stage_trigger_players:
        return tournament.stage_trigger_players
    return len(selectors.payout_amounts(tournament))


def satellite_figures(tournament: Tournament, now: datetime) -> dict[str, Any] | None:
    """Seats, leftover and where the satellite stands (formats.md §11, §12)."""
    if tournament.prize_type != "seats" or not seat_value(tournament):
        return None
    # The prize pool as tournament.md §16.1 computes it (house share, taxes, rebuys and
    # added money), without the cash guarantee: a satellite guarantees seats (§11.2, §11.4).
    pool = selectors.prize_pool(tournament)
    seats = satellites.satellite_seats(
        entries=1,
        prize_part=(pool.prize_pool - pool.overlay) * 100,
        seat_value=seat_value(tournament),
        guaranteed_seats=tournament.guaranteed_seats,
        leftover_mode=satellites.LeftoverMode(tournament.leftover_mode),
        leftover_unit=tournament.leftover_unit_cents or 2 * tournament.buy_in_prize * 100,
    )
    remaining = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    status = satellites.satellite_status(
        seats=seats.seats, last_paid_place=seats.paid_places, remaining=remaining
    )
    return {
        "seats": seats.seats,
        "seat_value": seat_value(tournament),
        "prize_pool": seats.prize_pool,
        "leftover": seats.leftover,
        "overlay": seats.overlay,
        "cash_prizes": seats.cash_prizes,
        "paid_places": seats.paid_places,
        "remaining": remaining,
        "status": status.status.value,
        "players_to_seats": status.players_to_seats,
        "hand_for_hand_suggested": status.hand_for_hand_suggested,
        "provisional": selectors.registration_open(tournament, now),
    }


def seat_value(tournament: Tournament) -> int:
    """The seat's value in cents: the setting, else the target event's full entry price."""
    if tournament.seat_value_cents:
        return tournament.seat_value_cents
    target = tournament.target_event
    if target is None:
        return 0
    return buy_in_split(target)["total"]


def bounties_to_prize_pool(tournament: Tournament) -> int:
    """Bounties nobody won, added to the prize pool (§6.6), in cents."""
    total = BountyAward.objects.filter(
        tournament=tournament, voided=False, to_prize_pool=True
    ).aggregate(total=Sum("cash_cents"))["total"]
    return int(total or 0)


def tickets_for(tournament: Tournament, player_ids: Sequence[int]) -> dict[int, SeatTicket]:
    """Unused seat tickets for this event, by player: what the desk recognises."""
    tickets = SeatTicket.objects.filter(
        target=tournament,
        player_id__in=player_ids,
        kind=SeatTicket.Kind.SEAT,
        voided=False,
        redeemed_entry=None,
    ).select_related("satellite")
    return {t.player_id: t for t in tickets}


def seat_holders(tournament: Tournament, player_ids: Sequence[int]) -> set[int]:
    """Players of a satellite who already hold a seat in its target (§11.10): the desk warns."""
    if tournament.prize_type != "seats" or tournament.target_event_id is None:
        return set()
    held = set(
        SeatTicket.objects.filter(
            target_id=tournament.target_event_id,
            player_id__in=player_ids,
            kind=SeatTicket.Kind.SEAT,
            voided=False,
        ).values_list("player_id", flat=True)
    )
    held |= set(
        Entry.objects.filter(tournament_id=tournament.target_event_id, player_id__in=player_ids)
        .exclude(status=Entry.Status.VOIDED)
        .values_list("player_id", flat=True)
    )
    return held


def bounty_totals(tournament: Tournament) -> dict[int, int]:
    """Bounty cash won per entry, in cents (awards not voided)."""
    rows = (
        BountyAward.objects.filter(tournament=tournament, voided=False, to_prize_pool=False)
        .values("winner_id")
        .annotate(total=Sum("cash_cents"))
    )
    return {r["winner_id"]: r["total"] or 0 for r in rows}


def results_with_bounties(
    tournament: Tournament, entries: list[Entry] | None = None
) -> list[dict[str, Any]]:
    """Each finisher's prize and bounty money, separately and in total, in cents (of
    `entries`, by default every entry in `selectors.results` order)."""
    totals = bounty_totals(tournament)
    rows = []
    for entry in selectors.results(tournament) if entries is None else entries:
        prize = entry.prize * 100
        bounty = totals.get(entry.pk, 0)
        rows.append({"entry": entry, "prize": prize, "bounty": bounty, "total": prize + bounty})
    return rows


DRAW_SHOWN_SECONDS = 120


def screen_formats(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """What the clock shows of the format: bounty pool and leaders or envelopes left, the
    satellite's seats and bubble, and a mystery draw for two minutes after it is made."""
    data: dict[str, Any] = {
        "board": bounty_board(tournament),
        "satellite": satellite_figures(tournament, now),
        "last_draw": None,
        "knockouts": [],
    }
    if tournament.bounty_format != "none":
        # A ticker of the latest knockouts with the amounts won (formats.md §12).
        latest = (
            BountyAward.objects.filter(
                tournament=tournament, voided=False, to_prize_pool=False, own_bounty=False
            )
            .select_related("winner__player", "eliminated__player")
            .order_by("-pk")[:3]
        )
        data["knockouts"] = [
            {"winner": str(a.winner.player), "out": str(a.eliminated.player), "cash": a.cash_cents}
            for a in latest
        ]
    if tournament.bounty_format == "mystery":
        draw = (
            Event.objects.filter(tournament=tournament, action="mystery.draw", undone_at=None)
            .order_by("-pk")
            .first()
        )
        if draw is not None and (now - draw.at).total_seconds() <= DRAW_SHOWN_SECONDS:
            values = sorted(tournament.envelopes.values_list("value_cents", flat=True))
            data["last_draw"] = {
                **draw.data,
                "winners": ", ".join(draw.data.get("names", {}).values()),
                "big": bool(values) and draw.data["value"] >= values[-max(1, len(values) // 10)],
            }
    return data

"""A bust at one table, as the floor or the table's tablet records it: who is out and,
in a knockout or PKO event, who won the hand, so the bounty is awarded in the same
action (formats.md §6). Players are named by their seats at that table only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import Entry, Event, Seat, Tournament
from tournaments.rules import placements
from tournaments.selectors import formats as format_selectors
from tournaments.services import bounties as bounties_services
from tournaments.services import locks, results


@dataclass(frozen=True)
class BustRecorded:
    settlement: placements.Settlement
    out: list[Entry]
    awards: list[Event]


def wants_winner(tournament: Tournament) -> bool:
    """A fixed or progressive bounty goes to who won the hand: the bust asks for him."""
    return tournament.bounty_format in format_selectors.BOUNTY_FORMATS


@transaction.atomic
def table_bust(
    *,
    tournament: Tournament,
    table_number: int,
    out_seats: Sequence[int],
    winner_seats: Sequence[int],
    actor: Any,
    now: datetime,
) -> BustRecorded:
    """Record the players out at one table in one hand and, in a bounty event, award each
    one's bounty to the winners of the hand (several share a split pot), all or nothing."""
    tournament = locks.tournament_for_update(tournament)
    out_seats, winner_seats = list(dict.fromkeys(out_seats)), list(dict.fromkeys(winner_seats))
    if not out_seats:
        raise DomainError(_("Choose at least one player who is out."))
    if set(out_seats) & set(winner_seats):
        raise DomainError(_("A player who is out cannot have won the hand."))
    seats = {
        s.number: s.entry
        for s in Seat.objects.select_related("entry__player").filter(
            table__tournament=tournament,
            table__number=table_number,
            number__in=[*out_seats, *winner_seats],
        )
    }
    for number in (*out_seats, *winner_seats):
        if number not in seats:
            raise DomainError(_("Nobody sits at %(spot)s.") % {"spot": f"{table_number}/{number}"})
    ask = wants_winner(tournament)
    if ask and not winner_seats:
        raise DomainError(_("Choose who won the hand: the bounty goes to him."))
    out = [seats[n] for n in out_seats]
    winners = [seats[n] for n in winner_seats]
    settlement = results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=0) for entry in out],
        actor=actor,
        now=now,
    )
    awards = []
    if ask:
        for entry in out:
            awards.append(
                bounties_services.bounty_award_record(
                    tournament=tournament,
                    eliminated=entry,
                    portions=[winners],
                    actor=actor,
                    now=now,
                    with_bust=True,
                )
            )
    return BustRecorded(settlement=settlement, out=out, awards=awards)

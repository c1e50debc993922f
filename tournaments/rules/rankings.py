"""What the rankings' exports decide, as pure rules (no Django, money in cents).

- The field: entries sold (re-entries count, a stack carried over from a Day 1 flight does
  not), the players behind them, and the re-entries.
- Whether an event counts for the Global Poker Index (`gpi_qualifies`): the GPI counts
  "events with 21 or more players and a buy-in of $1 USD (or other currency equivalent) or
  higher that are open to the public, and that are not specialty or selected audience
  events such as charity, seniors, doubles, satellite, women, team and employee events"
  (the GPI's qualifying-tournament rule, as its partner tours publish it with the GPI
  system; tournaments/README.md "Results for the rankings" cites it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

# The GPI's least field, entries counted (re-entries too: the field a finish is measured
# against is the entries).
GPI_MIN_ENTRANTS = 21
# The only category that is no "specialty or selected audience" event.
GPI_CATEGORIES = frozenset({"open"})

ENTRY, REENTRY, CARRIED = "entry", "reentry", "carried"


@dataclass(frozen=True)
class FieldSize:
    entries: int  # buy-ins sold, re-entries included
    players: int  # the people behind them
    reentries: int


def field_size(sold: Iterable[tuple[Hashable, str]]) -> FieldSize:
    """The field from each entry's (player, kind), voided entries already left out: a
    carried-over stack is no entry (its player bought in at a flight, counted there)."""
    entries, reentries, players = 0, 0, set()
    for player, kind in sold:
        if kind == CARRIED:
            continue
        entries += 1
        reentries += kind == REENTRY
        players.add(player)
    return FieldSize(entries=entries, players=len(players), reentries=reentries)


def gpi_qualifies(
    *,
    entries: int,
    buy_in_cents: int,
    open_to_public: bool,
    category: str,
    awards_seats: bool = False,
) -> bool:
    """Whether a finish in this event counts for the GPI: 21 entries or more, a buy-in
    (fee included) above nothing, open to the public, and an open event (not for a
    selected audience; a satellite, by its category or by awarding seats, never counts)."""
    return (
        entries >= GPI_MIN_ENTRANTS
        and buy_in_cents > 0
        and open_to_public
        and category in GPI_CATEGORIES
        and not awards_seats
    )

"""What the clock screen shows beside the clock: figures, chip leaders, bounties."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    QuerySet,
)

from config.speedups.prepared import NO_ID, Prepared
from tournaments.models import (
    ChipCount,
    Entry,
    Tournament,
)
from tournaments.selectors.clock import _TOURNAMENT_BY_PK
from tournaments.selectors.figures import _figure_reads, _figures
from tournaments.selectors.money import payout_amounts, prize_pool


def screen_figures(tournament: Tournament, *, top: int = 5) -> dict[str, Any]:
    """What the clock screen shows beside the countdown: field, stacks and prizes.

    The prize pool and payouts are the money pages' own (prize_pool, payout_amounts), so
    the screens and the payouts sheet never disagree.
    """
    figures, entries, money = _figures(tournament, family=True, tables_open=True)
    left = figures["players_left"]
    pool = prize_pool(tournament, entries=entries, purchase_money=money)
    amounts = payout_amounts(tournament, pool=pool, entries=entries)
    return {
        **figures,
        "average_stack": figures["chips_in_play"] // left if left else 0,
        "prize_pool": pool.prize_pool if figures["entries"] else None,
        "payouts": list(enumerate(amounts, start=1))[:top],
        "paid_places": len(amounts),
        "chip_leaders": chip_leaders(tournament, top=top),
    }


# A playing day no event reaches (the field is a small positive integer: a negative one
# would compile to nothing).
_DAY_STAND_IN = 32_719
CHIP_LEADERS = 5


def _leaders(tournament_id: Any, day: Any) -> QuerySet[Any]:
    return (
        ChipCount.objects.filter(
            tournament_id=tournament_id, day=day, entry__status=Entry.Status.ACTIVE
        )
        .order_by("-chips", "entry__number")
        .values_list(
            "entry__player__last_name", "entry__player__first_name", "entry__number", "chips"
        )
    )


_CHIP_LEADERS = Prepared(
    lambda tournament_id, day: _leaders(tournament_id, day)[:CHIP_LEADERS],
    tournament_id=NO_ID,
    day=_DAY_STAND_IN,
)


def screen_reads(
    tournament_id: int, *, seen: tuple[int, int | None] | None, figures: bool = True
) -> tuple[list[tuple[Prepared[Any], dict[str, Any]]], list[Any]]:
    """What reading the tournament (`tournament_by_pk`) and then, with `figures`, the
    clock screen's figures (`screen_figures`) will read, as `prepared.ahead` takes them
    (to read them all in one trip). Those figures depend on the row's day and parent:
    `seen` is what the row held when last read (None: not yet read, only the row)."""
    reads: list[tuple[Prepared[Any], dict[str, Any]]] = [(_TOURNAMENT_BY_PK, {"pk": tournament_id})]
    if not figures or seen is None:
        return reads, []
    day, parent_id = seen
    reads.append((_CHIP_LEADERS, {"tournament_id": tournament_id, "day": day}))
    joined = [_figure_reads(tournament_id, family=parent_id is None, tables_open=True)]
    return reads, joined


def chip_leaders(tournament: Tournament, *, top: int = CHIP_LEADERS) -> list[dict[str, Any]]:
    """The biggest stacks of the players still in, by today's last counts (bags or the
    counts taken at the tables)."""
    if top == CHIP_LEADERS:
        rows = _CHIP_LEADERS.rows(tournament_id=tournament.pk, day=tournament.day)
    else:
        rows = _leaders(tournament.pk, tournament.day)[:top]
    return [
        # Player.__str__: "last first", stripped.
        {"name": f"{last} {first}".strip(), "number": number, "chips": chips}
        for last, first, number, chips in rows
    ]


def entry_bounty(tournament: Tournament, entry: Entry) -> int | str | None:
    """The bounty shown beside a player (formats.md §12): cents under KO and PKO, "?"
    for a mystery event (the envelopes are drawn, not worn), None without bounties."""
    return bounty_shown(tournament, entry.bounty_cents)


def bounty_shown(tournament: Tournament, bounty_cents: int | None) -> int | str | None:
    """`entry_bounty` from the entry's bounty cents alone (no entry built per row)."""
    if tournament.bounty_format in ("fixed", "progressive"):
        return bounty_cents if bounty_cents is not None else tournament.bounty_part_cents
    if tournament.bounty_format == "mystery":
        return "?"
    return None

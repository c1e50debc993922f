"""League points and standings: pure rules, no Django.

A league's formula turns one player's result in one event into points:

- ``table``: a fixed table by place (``table[0]`` for the winner; places beyond it: 0);
- ``field_size``: ``base * sqrt(entries / place)``, so a win in a big field is worth more
  (the common "sqrt(entries / place)" form);

plus, whatever the form, ``participation`` points for playing and ``bounty`` points per
bounty won. A season counts each player's ``best_n`` event scores (all when None).

Points are kept in hundredths (integers), so totals never drift and ties are exact.

Ties in the standings are broken by a stated rule (``TIE_BREAKS``); players still equal
after it share the rank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

FORMULAS = ("table", "field_size")
TIE_BREAKS = ("best_result", "more_wins")


@dataclass(frozen=True)
class Formula:
    kind: str = "table"
    table: tuple[int, ...] = ()
    base: int = 10
    participation: int = 0
    bounty: int = 0
    best_n: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in FORMULAS:
            raise ValueError(f"unknown formula {self.kind!r}")
        if any(p < 0 for p in self.table) or self.base < 0:
            raise ValueError("points cannot be negative")
        if self.participation < 0 or self.bounty < 0:
            raise ValueError("points cannot be negative")
        if self.best_n is not None and self.best_n < 1:
            raise ValueError("best N counts at least one result")


@dataclass(frozen=True)
class Result:
    """One player's result in one event: his best place there (None: no place yet, still
    playing or not recorded), the event's entries (re-entries count), bounties won, and
    whether he was paid."""

    player: int
    event: int
    place: int | None
    entries: int
    bounties: int = 0
    cashed: bool = False


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    points: int  # hundredths
    events: int
    counted: tuple[int, ...]  # the event scores counted (hundredths), best first
    wins: int
    cashes: int
    best: int  # the best single score (hundredths)
    shared: bool = False  # the rank is shared after the tie-break
    scores: dict[int, int] = field(default_factory=dict)  # event -> score (hundredths)


def place_points(formula: Formula, place: int | None, entries: int) -> int:
    """Points (hundredths) for the place alone, before participation and bounties."""
    if place is None or place < 1 or entries < 1:
        return 0
    if formula.kind == "table":
        return formula.table[place - 1] * 100 if place <= len(formula.table) else 0
    if place > entries:
        return 0
    return round(formula.base * math.sqrt(entries / place) * 100)


def score(formula: Formula, result: Result) -> int:
    """A result's points in hundredths."""
    return (
        place_points(formula, result.place, result.entries)
        + formula.participation * 100
        + formula.bounty * max(0, result.bounties) * 100
    )


def preview(formula: Formula, entries: int, places: int = 10) -> list[tuple[int, int]]:
    """(place, points in hundredths) for the first `places` places of an event of
    `entries` entries, participation included: what the TD sees before choosing."""
    shown = max(0, min(places, entries))
    return [
        (place, place_points(formula, place, entries) + formula.participation * 100)
        for place in range(1, shown + 1)
    ]


def _tie_key(standing: Standing, rule: str) -> tuple[int, ...]:
    if rule == "more_wins":
        return (-standing.points, -standing.wins, -standing.cashes, standing.events)
    return (-standing.points, -standing.best, -standing.wins, standing.events)


def standings(
    formula: Formula, results: Iterable[Result], *, tie_break: str = "best_result"
) -> list[Standing]:
    """The season's table: points (best N), ranked; ties by `tie_break`."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break {tie_break!r}")
    by_player: dict[int, dict[int, Result]] = {}
    for result in results:
        mine = by_player.setdefault(result.player, {})
        known = mine.get(result.event)
        # One result per player and event: his best place (a re-entry's better finish).
        if known is None or _better(result, known):
            mine[result.event] = result
    rows: list[Standing] = []
    for player, events in by_player.items():
        scores = {event: score(formula, r) for event, r in events.items()}
        ordered = sorted(scores.values(), reverse=True)
        counted = ordered if formula.best_n is None else ordered[: formula.best_n]
        rows.append(
            Standing(
                rank=0,
                player=player,
                points=sum(counted),
                events=len(events),
                counted=tuple(counted),
                wins=sum(1 for r in events.values() if r.place == 1),
                cashes=sum(1 for r in events.values() if r.cashed),
                best=ordered[0] if ordered else 0,
                scores=scores,
            )
        )
    rows.sort(key=lambda s: (_tie_key(s, tie_break), s.player))
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        key = _tie_key(row, tie_break)
        previous = ranked[-1] if ranked else None
        if previous is not None and _tie_key(previous, tie_break) == key:
            ranked[-1] = _with(previous, rank=previous.rank, shared=True)
            ranked.append(_with(row, rank=previous.rank, shared=True))
        else:
            ranked.append(_with(row, rank=index + 1, shared=False))
    return ranked


def _better(a: Result, b: Result) -> bool:
    if a.place is None:
        return False
    return b.place is None or a.place < b.place


def _with(row: Standing, *, rank: int, shared: bool) -> Standing:
    return Standing(
        rank=rank,
        player=row.player,
        points=row.points,
        events=row.events,
        counted=row.counted,
        wins=row.wins,
        cashes=row.cashes,
        best=row.best,
        shared=shared,
        scores=row.scores,
    )


def parse_table(text: str) -> tuple[int, ...]:
    """A points table typed as numbers separated by spaces, commas or semicolons."""
    words = text.replace(",", " ").replace(";", " ").split()
    values = tuple(int(w) for w in words)
    if any(v < 0 for v in values):
        raise ValueError("points cannot be negative")
    return values


def hundredths(points: int) -> str:
    """Points for display: "12", "12.5", "12.25"."""
    whole, part = divmod(points, 100)
    if part == 0:
        return str(whole)
    return f"{whole}.{part:02d}".rstrip("0")


__all__: Sequence[str] = (
    "FORMULAS",
    "TIE_BREAKS",
    "Formula",
    "Result",
    "Standing",
    "hundredths",
    "parse_table",
    "place_points",
    "preview",
    "score",
    "standings",
)

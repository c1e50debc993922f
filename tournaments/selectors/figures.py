"""The field's figures: entries, players left, entries by number, the desk's latest."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import (
    Count,
    IntegerField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
)

from config.speedups.prepared import INT_MAX, NO_ID, Prepared, one_row_each
from tournaments.models import (
    ChipAdjustment,
    Entry,
    EntryTally,
    Player,
    Purchase,
    Table,
    Tournament,
)


def tournament_figures(tournament: Tournament) -> dict[str, int]:
    """Entries, players left, chips in play and the prize pool's raw parts."""
    return _figures(tournament)[0]


def _one_row(queryset: QuerySet[Any]) -> QuerySet[Any]:
    """`queryset`'s aggregates as one row (no GROUP BY: a constant groups nothing), so a
    `Prepared` can compile them once: `aggregate()` runs at once and cannot be prepared."""
    return queryset.order_by().values(_one=Value(1, output_field=IntegerField()))


def _one_total(model: type[Any], total: Any, **where: Any) -> Prepared[Any]:
    """`total` (an aggregate) over one tournament's rows of `model` that match `where`,
    compiled once: always one row, so it can be read beside others (`one_row_each`)."""
    return Prepared(
        lambda tournament_id: (
            _one_row(model.objects.filter(tournament_id=tournament_id, **where))
            .annotate(n=total)
            .values_list("n")
        ),
        tournament_id=NO_ID,
    )


def _family_where(tournament_id: Any, field: str, family: bool) -> Q:
    """`_family_filter` by the tournament's key alone (a `Prepared` stand-in): with
    `family`, the main event `tournament_id` and its flights; else that tournament."""
    if family:
        return Q(**{f"{field}__in": _event_keys(tournament_id)})
    return Q(**{f"{field}_id": tournament_id})


def _per_family(build: Callable[[Any, bool], QuerySet[Any]]) -> dict[bool, Prepared[Any]]:
    """`build(tournament_id, family)` compiled once for a tournament alone and once for a
    main event with its flights (config/speedups/prepared.py)."""
    return {
        family: Prepared(
            lambda tournament_id, family=family: build(tournament_id, family),
            tournament_id=NO_ID,
        )
        for family in (False, True)
    }


def _entry_figures(tournament_id: Any, family: bool) -> QuerySet[Any]:
    # The entries as the database keeps them summed (EntryTally, one row a tournament):
    # at 10,000 entries, summing every entry here would slow every figure of the clock
    # screen.
    mine = Q(tournament_id=tournament_id)
    where = _family_where(tournament_id, "tournament", family)
    return (
        _one_row(EntryTally.objects.filter(where))
        .annotate(
            entries=Sum("entries", filter=mine),
            active=Sum("active", filter=mine),
            chips=Sum("chips", filter=mine),
            removed=Sum("removed", filter=mine),
            buy_ins=Sum("buy_ins"),
        )
        .values_list("entries", "active", "chips", "removed", "buy_ins")
    )


def _purchase_figures(tournament_id: Any, family: bool) -> QuerySet[Any]:
    own = Q(entry__tournament_id=tournament_id)
    where = _family_where(tournament_id, "entry__tournament", family)
    return (
        _one_row(Purchase.objects.filter(where, voided=False))
        .annotate(
            chips=Sum("chips", filter=own),
            money=Sum("price", filter=own),
            rebuys=Count("id", filter=own & Q(kind=Purchase.Kind.REBUY)),
            addons=Count("id", filter=own & Q(kind=Purchase.Kind.ADDON)),
            family_money=Sum("price"),
        )
        .values_list("chips", "money", "rebuys", "addons", "family_money")
    )


# The field's figures, compiled once each (config/speedups/prepared.py): every push that
# changes them renders the clock screen's figures with them, and every money page reads
# them. Three statements: the entries, the purchases, the chip adjustments; "family":
# across a main event and its flights (a flight or a lone tournament is its own family).
_ENTRY_FIGURES = _per_family(_entry_figures)
_PURCHASE_FIGURES = _per_family(_purchase_figures)
_ADJUSTED = _one_total(ChipAdjustment, Sum("amount"), voided=False)


def _number(value: Any) -> int:
    """A count or a sum as the driver gives it (PostgreSQL sums integers as numeric)."""
    return int(value or 0)


def _figure_reads(
    tournament_id: int, *, family: bool, tables_open: bool
) -> list[tuple[Prepared[Any], dict[str, Any]]]:
    mine = {"tournament_id": tournament_id}
    reads = [(_ENTRY_FIGURES[family], mine), (_PURCHASE_FIGURES[family], mine), (_ADJUSTED, mine)]
    if tables_open:
        reads.append((_TABLES_OPEN, mine))
    return reads


def _figures(
    tournament: Tournament, *, family: bool = False, tables_open: bool = False
) -> tuple[dict[str, int], int, int]:
    """`tournament_figures`, and with `family` the buy-ins and the purchases' money across
    the event and its flights (what `prize_pool` counts), read in one trip to the
    database: the entries, the purchases and the chip adjustments summed (with
    `tables_open`, the tables open counted too, as `figures["tables_open"]`)."""
    # A flight's family is the flight alone (`_family_filter`).
    family = family and tournament.parent_id is None
    rows = one_row_each(_figure_reads(tournament.pk, family=family, tables_open=tables_open))
    entries, active, chips, removed, buy_ins = rows[0]
    bought_chips, money, rebuys, addons, family_money = rows[1]
    (adjusted,) = rows[2]
    figures = {
        "entries": _number(entries),
        "players_left": _number(active),
        "chips_in_play": _number(chips)
        + _number(bought_chips)
        - _number(removed)
        + _number(adjusted),
        "rebuys": _number(rebuys),
        "addons": _number(addons),
        "purchase_money": _number(money),
    }
    if tables_open:
        figures["tables_open"] = _number(rows[3][0])
    return figures, _number(buy_ins), _number(family_money)


# The desk's latest ten entries: what its list shows of each, compiled once
# (config/speedups/prepared.py): every desk page and every registration's page reads it.
_RECENT = Prepared(
    lambda tournament_id: (
        Entry.objects.filter(tournament_id=tournament_id)
        .exclude(status=Entry.Status.VOIDED)
        .order_by("-number")
        .values_list(
            "number",
            "kind",
            "player__last_name",
            "player__first_name",
            "seat__table__number",
            "seat__number",
        )[:10]
    ),
    tournament_id=NO_ID,
)


def desk_recent(tournament: Tournament) -> list[dict[str, Any]]:
    """The desk's latest ten entries, newest first: number, kind, player's name, table
    and seat (None when the entry holds none)."""
    return [
        {
            "number": number,
            "kind": kind,
            "player": str(Player(last_name=last_name, first_name=first_name)),
            "table": table,
            "seat": seat,
        }
        for number, kind, last_name, first_name, table, seat in _RECENT.rows(
            tournament_id=tournament.pk
        )
    ]


# Entries and players left of one tournament (every desk page shows them), and below the
# entries sold: read from the tally the database keeps of the entries (EntryTally), not
# counted (10,000 of them in a big field), compiled once (config/speedups/prepared.py). One
# row, none before the first entry.
_ENTRY_COUNTS = Prepared(
    lambda tournament_id: EntryTally.objects.filter(tournament_id=tournament_id).values_list(
        "entries", "active"
    ),
    tournament_id=NO_ID,
)


def players_left(tournament: Tournament) -> int:
    """The entries still playing (every elimination reads them)."""
    return _number(_PLAYING.rows(tournament_id=tournament.pk)[0][0])


# An entry by its number in one tournament, with its player: every floor and desk action
# on one player reads it first, compiled once (config/speedups/prepared.py). The stand-in
# number is a positive one (a negative one compiles to nothing) that no event reaches.
_ENTRY_BY_NUMBER = Prepared(
    lambda tournament_id, number: Entry.objects.select_related("player").filter(
        tournament_id=tournament_id, number=number
    )[:1],
    tournament_id=NO_ID,
    number=2_147_483_629,
)


# The same with the seat the entry holds and its table: the seat card the desk prints
# after every registration.
_ENTRY_WITH_SEAT_BY_NUMBER = Prepared(
    lambda tournament_id, number: Entry.objects.select_related("player", "seat__table").filter(
        tournament_id=tournament_id, number=number
    )[:1],
    tournament_id=NO_ID,
    number=2_147_483_629,
)


def entry_by_number(tournament: Tournament, number: int, *, seat: bool = False) -> Entry | None:
    """The tournament's entry with this number, its player read with it (and, with
    `seat`, the seat it holds and that seat's table: `entry.seat` is None when it holds
    none); None if the tournament has none (another event's entry of the same number is
    never found)."""
    if not 0 < number <= INT_MAX:
        return None
    statement = _ENTRY_WITH_SEAT_BY_NUMBER if seat else _ENTRY_BY_NUMBER
    return statement.first(tournament_id=tournament.pk, number=number)


# The highest entry number the tournament gave (voided entries keep theirs), read under
# the tournament's lock by every registration: compiled once.
_LAST_NUMBER = _one_total(Entry, Max("number"))


def last_entry_number_read(tournament: Tournament) -> tuple[Prepared[Any], dict[str, Any]]:
    """`last_entry_number`'s read, as `prepared.ahead` takes it."""
    return _LAST_NUMBER, {"tournament_id": tournament.pk}


def last_entry_number(tournament: Tournament) -> int:
    """The highest number any entry of the tournament holds, 0 before the first."""
    rows = _LAST_NUMBER.rows(tournament_id=tournament.pk)
    return (rows[0][0] if rows else None) or 0


def entry_counts(tournament: Tournament) -> dict[str, int]:
    """Entries and players left, in one query (the desk's line; `tournament_figures` adds
    the chips and the purchases)."""
    entries, active = next(iter(_ENTRY_COUNTS.rows(tournament_id=tournament.pk)), (0, 0))
    return {"entries": entries, "players_left": active}


def _event_keys(event_id: Any) -> QuerySet[Tournament]:
    """A main event's key and its flights' as a subquery."""
    return Tournament.objects.filter(Q(pk=event_id) | Q(parent_id=event_id)).values("pk")


# The entries still playing, as one row even before the first entry (a sum of no rows),
# so that it can be read beside the prize pool's figures (`elimination_figures`).
_PLAYING = _one_total(EntryTally, Sum("active"))


# The clock screen's other figures, compiled once (config/speedups/prepared.py) as the field's
# are: the tables open, and the chip leaders (their names as Player.__str__ writes them).
_TABLES_OPEN = _one_total(Table, Count("id"), status=Table.Status.OPEN)

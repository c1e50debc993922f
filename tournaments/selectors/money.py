"""The money's reads: the prize pool, payouts, places and results (tournament.md §15-§16)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db.models import (
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)

from config.speedups.prepared import Prepared, one_row_each
from tournaments.models import (
    Deal,
    Entry,
    EntryTally,
    Purchase,
    Tournament,
)
from tournaments.rules import payouts
from tournaments.selectors.figures import (
    _PLAYING,
    _event_keys,
    _family_where,
    _number,
    _one_row,
    _one_total,
    _per_family,
)

# --- Money: prize pool, payouts, places (tournament.md §15-§16) ----------------------


def tournament_family(tournament: Tournament) -> list[Tournament]:
    """The main event and its Day 1 flights (a lone tournament is its own family)."""
    event = tournament.parent or tournament
    return [event, *event.flights.order_by("date", "name", "pk")]


def _family(tournament: Tournament) -> list[Tournament]:
    """The tournaments whose sales make this one's pool: the family of a main event, or
    a flight alone."""
    return tournament_family(tournament) if tournament.parent_id is None else [tournament]


def _family_filter(tournament: Tournament, field: str = "tournament") -> Q:
    """`_family` as a filter on `field` (a tournament), in the same query: the flights by a
    subquery (a join with OR would stop the index on `field` being used)."""
    return _family_where(tournament.pk, field, tournament.parent_id is None)


def _family_keys(tournament: Tournament) -> QuerySet[Tournament]:
    """`tournament_family`'s keys as a subquery (no query of its own)."""
    return _event_keys(tournament.parent_id or tournament.pk)


def _sold(where: Q) -> QuerySet[Any]:
    return (
        Entry.objects.filter(where)
        .exclude(status=Entry.Status.VOIDED)
        .exclude(kind=Entry.Kind.CARRIED)
    )


def _rebuys_and_addons(where: Q) -> QuerySet[Any]:
    return Purchase.objects.filter(where, voided=False)


# The buy-ins and the rebuys' and add-ons' money of a tournament's family (a main event
# and its flights; a flight alone), compiled once (config/speedups/prepared.py): every
# elimination reads them for its prizes, every money page for its pool.
_BUY_INS = _per_family(
    lambda tournament_id, family: (
        _one_row(EntryTally.objects.filter(_family_where(tournament_id, "tournament", family)))
        .annotate(n=Sum("buy_ins"))
        .values_list("n")
    )
)
_PURCHASE_MONEY = _per_family(
    lambda tournament_id, family: (
        _one_row(_rebuys_and_addons(_family_where(tournament_id, "entry__tournament", family)))
        .annotate(money=Sum("price"))
        .values_list("money")
    )
)


# Whether a deal stands (its terms are read only then): one row, read beside the field's.
_DEALS_STANDING = _one_total(Deal, Count("id"), voided=False)


def elimination_figure_reads(tournament: Tournament) -> list[tuple[Prepared[Any], dict[str, Any]]]:
    """The reads of `elimination_figures`, as `one_row_each` (and `prepared.ahead`) take
    them."""
    mine = {"tournament_id": tournament.pk}
    reads = [(_PLAYING, mine), (_DEALS_STANDING, mine)]
    if _prizes_generated(tournament):
        reads += [(_BUY_INS[True], mine), (_PURCHASE_MONEY[True], mine)]
    return reads


def _prizes_generated(tournament: Tournament) -> bool:
    """Whether the prizes come from the pool (a stored table, or a flight, which pays
    nothing, needs no figures for them)."""
    return tournament.parent_id is None and not tournament.payouts


def elimination_figures(tournament: Tournament) -> tuple[int, list[int], bool]:
    """What every elimination reads under the tournament's lock before its screens hear of
    it, in one trip to the database: the entries still playing (`players_left`), the prize
    of each place (`payout_amounts`), and whether a deal stands."""
    generated = _prizes_generated(tournament)
    rows = one_row_each(elimination_figure_reads(tournament))
    if generated:
        entries = _number(rows[2][0])
        pool = prize_pool(tournament, entries=entries, purchase_money=_number(rows[3][0]))
        amounts = payout_amounts(tournament, pool=pool, entries=entries)
    else:
        amounts = payout_amounts(tournament)
    return _number(rows[0][0]), amounts, _number(rows[1][0]) > 0


def buy_ins(tournament: Tournament, *, family: list[Tournament] | None = None) -> int:
    """Entries sold across the event and its flights (carried-over stacks do not count)."""
    if family is None:
        main = tournament.parent_id is None  # a flight's family is the flight alone
        return _number(_BUY_INS[main].rows(tournament_id=tournament.pk)[0][0])
    return _sold(Q(tournament__in=family)).count()


def prize_pool(
    tournament: Tournament,
    *,
    family: list[Tournament] | None = None,
    entries: int | None = None,
    purchase_money: int | None = None,
) -> payouts.PrizePool:
    """The prize pool (§16.1): the prize part of every buy-in across the flights, less the
    house and dealer percentage and taxes, plus rebuys, add-ons and added money, topped up
    to the guarantee. Rebuy and add-on prices go wholly to the pool [not in sources].

    `family`, `entries` (from `buy_ins`) and `purchase_money` (the family's rebuys and
    add-ons) save their reads when the caller has them."""
    if entries is None:
        entries = buy_ins(tournament, family=family)
    if purchase_money is None and family is None:
        main = tournament.parent_id is None
        purchase_money = _number(_PURCHASE_MONEY[main].rows(tournament_id=tournament.pk)[0][0])
    elif purchase_money is None:
        purchase_money = (
            _rebuys_and_addons(Q(entry__tournament__in=family)).aggregate(money=Sum("price"))[
                "money"
            ]
            or 0
        )
    return payouts.compute_prize_pool(
        entries=entries,
        entry_fee=tournament.buy_in_prize,
        house_and_dealer_percent=tournament.house_percent,
        tax_percent=tournament.tax_percent,
        tax_mode=tournament.tax_mode,
        added_money=tournament.added_money,
        extra_prize_contributions=purchase_money,
        guarantee=_guarantee_for_prize_pool(tournament, entries),
    )


def _guarantee_for_prize_pool(tournament: Tournament, entries: int) -> int:
    """The part of the guarantee the prize pool must reach: a bounty event whose guarantee
    covers both pools counts the bounty pool first (formats.md §5.4; whole euros, the
    house rounding in the players' favour)."""
    if tournament.bounty_format == "none" or tournament.guarantee_scope != "total":
        return tournament.guarantee
    bounty_pool_cents = entries * tournament.bounty_part_cents
    return max(0, tournament.guarantee - bounty_pool_cents // 100)


def prize_pool_lines(
    tournament: Tournament,
    *,
    family: list[Tournament] | None = None,
    entries: int | None = None,
    pool: payouts.PrizePool | None = None,
) -> dict[str, Any]:
    """The prize pool as lines that add up to it (§16.1): buy-ins (prize part), rebuys,
    add-ons, less the house and dealers' share and taxes, plus added money and the overlay
    to the guarantee. The fees the house keeps are told apart, outside the sum.
    `family`, `entries` and `pool` save their reads when the caller has them."""
    family = _family(tournament) if family is None else family
    bought = Purchase.objects.filter(entry__tournament__in=family, voided=False).aggregate(
        rebuys=Sum("price", filter=Q(kind=Purchase.Kind.REBUY)),
        rebuy_count=Count("id", filter=Q(kind=Purchase.Kind.REBUY)),
        addons=Sum("price", filter=Q(kind=Purchase.Kind.ADDON)),
        addon_count=Count("id", filter=Q(kind=Purchase.Kind.ADDON)),
    )
    entries = buy_ins(tournament, family=family) if entries is None else entries
    pool = prize_pool(tournament, family=family, entries=entries) if pool is None else pool
    lines = [
        ("buy_ins", entries, pool.gross),
        ("rebuys", bought["rebuy_count"] or 0, bought["rebuys"] or 0),
        ("addons", bought["addon_count"] or 0, bought["addons"] or 0),
        ("house", None, -pool.organiser_share),
        ("taxes", None, -pool.taxes),
        ("added_money", None, pool.added_money),
        ("overlay", None, pool.overlay),
    ]
    return {
        "lines": [{"key": key, "count": count, "amount": amount} for key, count, amount in lines],
        "prize_pool": pool.prize_pool,
        "guarantee": tournament.guarantee,
        "fees": entries * tournament.buy_in_fee,
        "fee": tournament.buy_in_fee,
        "entries": entries,
        "adds_up": sum(amount for _k, _c, amount in lines) == pool.prize_pool,
    }


def payout_amounts(
    tournament: Tournament,
    *,
    pool: payouts.PrizePool | None = None,
    entries: int | None = None,
) -> list[int]:
    """Prize per place, first place first: the stored table, else one generated for the
    field as it stands (at least 10% paid, decreasing, rounded to the unit). `pool` and
    `entries` save their reads when the caller has them."""
    if tournament.parent_id is not None:
        return []  # a Day 1 flight pays nothing: its survivors play on in the main event
    if tournament.payouts:
        return [int(a) for a in tournament.payouts]
    entries = buy_ins(tournament) if entries is None else entries
    amount = (prize_pool(tournament, entries=entries) if pool is None else pool).prize_pool
    if entries < 1 or amount < 1:
        return []
    return list(_generated_amounts(amount, entries, tournament.payout_unit or 1))


@lru_cache(maxsize=256)
def _generated_amounts(amount: int, entries: int, unit: int) -> tuple[int, ...]:
    """The generated table for a pool and a field: a pure function of its three numbers,
    kept per process (1,000 places paid at 10,000 entries sum a thousand exact fractions,
    tens of milliseconds that every money page and screen asked for again)."""
    places = payouts.min_paid_places(entries)
    while places >= 1:
        try:
            table = payouts.generate_payout_table(
                prize_pool=amount, entries=entries, paid_places=places, unit=unit
            )
        except ValueError:
            if unit > 1:
                unit = 1
                continue
            places -= 1
            continue
        return table.amounts
    return (amount,)


def payouts_board(
    tournament: Tournament, *, entries: int | None = None, pool: payouts.PrizePool | None = None
) -> dict:
    """What the screens show about the money: places paid, amounts, the pool, the bubble.

    Plain JSON types, so a push can carry it as is. `entries` (from `buy_ins`) and `pool`
    save their reads when the caller has them."""
    entries = buy_ins(tournament) if entries is None else entries
    pool = prize_pool(tournament, entries=entries) if pool is None else pool
    amounts = payout_amounts(tournament, pool=pool, entries=entries)
    left = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    return {
        "prize_pool": pool.prize_pool,
        "entries": entries,
        "paid_places": len(amounts),
        "places": [{"place": p, "amount": a} for p, a in enumerate(amounts, start=1)],
        "players_left": left,
        "in_the_money": bool(amounts) and 0 < left <= len(amounts),
        "on_the_bubble": bool(amounts) and left == len(amounts) + 1,
        # A stored table made for a smaller field no longer adds up to the pool.
        "stale": bool(tournament.payouts) and sum(amounts) != pool.prize_pool,
        "currency": tournament.currency,
    }


def money_reached(tournament: Tournament, *, left: int | None = None) -> bool:
    """Whether the field is in the money (the payout table may no longer change). `left`:
    the players still in, when the caller has counted them."""
    amounts = tournament.payouts
    if not amounts:
        return False
    if left is None:
        left = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    return left <= len(amounts) or tournament.entries.filter(prize__gt=0).exists()


def results(tournament: Tournament) -> list[Entry]:
    """Finished and playing entries, best place first (disqualified last)."""
    entries = list(
        tournament.entries.exclude(status=Entry.Status.VOIDED)
        .exclude(status=Entry.Status.FORFEITED)
        .select_related("player")
    )

    def key(e: Entry):
        if e.disqualified:
            return (2, 0, e.number)
        if e.place is None:
            return (0, 0, e.number)  # still playing: on top
        return (1, e.place, e.number)

    return sorted(entries, key=key)


def finished(tournament: Tournament) -> list[Entry]:
    """The entries with a place (or disqualified), best first, as `results` orders them,
    without reading the field still playing (9,000 rows at 10,000 entries)."""
    return finished_entries(tournament, finished_keys(tournament))


def _finished_rows(tournament: Tournament):
    return tournament.entries.exclude(
        status__in=[Entry.Status.VOIDED, Entry.Status.FORFEITED]
    ).filter(Q(place__isnull=False) | Q(disqualified=True))


def finished_keys(tournament: Tournament, *, one_per_player: bool = False) -> list[int]:
    """The ids of `finished` entries, in its order, read as a few numbers a row (a page
    then loads only the rows it shows: 1,000 places at 10,000 entries).

    With `one_per_player`, as the public results list them: each player once, by his best
    entry, nobody who re-entered and plays on, nobody disqualified."""
    # Whether the player plays on (re-entered): his live entry, looked up by key for each
    # finished row (LIMIT 1: an IN or EXISTS was planned as a hash of the whole field
    # still playing, 9,000 rows at 10,000 entries, for a tenth of them).
    playing = (
        tournament.entries.filter(status=Entry.Status.ACTIVE, player_id=OuterRef("player_id"))
        .order_by()
        .values("player_id")[:1]
    )  # unordered, and only what the unique index of live entries holds: read from it alone
    rows = sorted(
        _finished_rows(tournament)
        .annotate(again=Subquery(playing) if one_per_player else Value(None, IntegerField()))
        .values_list("pk", "player_id", "place", "number", "disqualified", "status", "again"),
        key=lambda r: (1, 0, r[3]) if r[4] else (0, r[2], r[3]),
    )
    if not one_per_player:
        return [r[0] for r in rows]
    keys, shown = [], set()
    for pk, player, place, _entry_number, disqualified, status, again in rows:
        if player in shown or (again is not None and status != Entry.Status.ACTIVE):
            continue
        shown.add(player)
        if place is not None and not disqualified:
            keys.append(pk)
    return keys


def finished_entries(tournament: Tournament, keys: list[int]) -> list[Entry]:
    """The entries `keys` names, in that order, with their players."""
    # The players by key (prefetched): joined, the planner hashes every player of the
    # room for a page of 100 entries.
    entries = {e.pk: e for e in tournament.entries.filter(pk__in=keys).prefetch_related("player")}
    return [entries[k] for k in keys if k in entries]


def playing_again(tournament: Tournament, entries: list[Entry]) -> set[int]:
    """The keys of those `entries` that are over while their player re-entered and plays
    on (a page marks them), in one read."""
    playing = set(
        tournament.entries.filter(
            status=Entry.Status.ACTIVE, player_id__in={e.player_id for e in entries}
        ).values_list("player_id", flat=True)
    )
    return {e.pk for e in entries if e.status != Entry.Status.ACTIVE and e.player_id in playing}

"""Reads: what the floor, the desk and the screens look at."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Count,
    Exists,
    F,
    Func,
    IntegerField,
    JSONField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Lead, RowNumber

from tables import permissions as room_permissions
from tables.models import Seat, SeatBoardVersion, Table
from tournaments.models import (
    ChipAdjustment,
    ChipCount,
    Deal,
    Entry,
    EntryTally,
    Event,
    FormerAddress,
    Penalty,
    Player,
    Purchase,
    Role,
    SeatTicket,
    StructureItem,
    Tournament,
)
from tournaments.prepared import INT_MAX, NO_ID, Prepared, one_row_each
from tournaments.rules import clock, entry_rules, payouts
from tournaments.rules.names import fold
from tournaments.rules.penalties import HAND_KINDS

_ITEM_COLUMNS = ("kind", "minutes", "color_up", "small_blind", "big_blind", "ante", "ante_mode")
# The structure, compiled once (tournaments/prepared.py): every change of the clock reads it.
_STRUCTURE = Prepared(
    lambda tournament_id: (
        StructureItem.objects.filter(tournament_id=tournament_id)
        .order_by("position")
        .values_list(*_ITEM_COLUMNS)
    ),
    tournament_id=NO_ID,
)


def clock_structure(tournament: Tournament) -> list[clock.Item]:
    """The tournament's structure as the pure clock reads it (levels numbered 1, 2, ...)."""
    prefetched = getattr(tournament, "_prefetched_objects_cache", {}).get("items")
    if prefetched is not None:  # the lobby reads every event's structure at once
        rows = [tuple(getattr(item, name) for name in _ITEM_COLUMNS) for item in prefetched]
    else:
        rows = _STRUCTURE.rows(tournament_id=tournament.pk)
    items: list[clock.Item] = []
    number = 0
    for kind, minutes, color_up, small_blind, big_blind, ante, ante_mode in rows:
        if kind == StructureItem.Kind.BREAK:
            items.append(clock.Break(duration=minutes * 60, color_up=color_up))
        else:
            number += 1
            items.append(
                clock.Level(
                    number=number,
                    small_blind=small_blind,
                    big_blind=big_blind,
                    duration=minutes * 60,
                    ante=ante,
                    ante_mode=clock.AnteMode(ante_mode),
                )
            )
    return items


# A tournament by its key, compiled once: a push reads it after its commit, and every
# command on a staff socket before it.
_TOURNAMENT_BY_PK = Prepared(lambda pk: Tournament.objects.filter(pk=pk)[:1], pk=NO_ID)


def tournament_by_pk(pk: int) -> Tournament | None:
    """The tournament as the database holds it now, or None."""
    return _TOURNAMENT_BY_PK.first(pk=pk)


def moved_address(slug: str) -> str | None:
    """The address an event has now, when `slug` is one it had before its date moved and
    no event holds it now; None otherwise."""
    if Tournament.objects.filter(slug=slug).exists():
        return None
    return (
        FormerAddress.objects.filter(slug=slug).values_list("tournament__slug", flat=True).first()
    )


def clock_state(tournament: Tournament) -> clock.ClockState:
    return clock.ClockState(
        status=clock.ClockStatus(tournament.clock_status),
        index=tournament.clock_index,
        started_at=tournament.clock_started_at,
        banked=timedelta(seconds=tournament.clock_elapsed),
        scheduled_start=tournament.clock_scheduled_start,
        version=tournament.clock_version,
    )


def late_registration(tournament: Tournament) -> clock.LateRegistration | None:
    if tournament.late_registration_level is None:
        return None
    return clock.LateRegistration(
        until_level=tournament.late_registration_level,
        through_break=tournament.late_registration_through_break,
    )


@dataclasses.dataclass(frozen=True)
class ClockRead:
    """The clock as one change or one page reads it, built once: the structure, the state
    the row holds and the view at `now` (None while there is no structure to run)."""

    structure: list[clock.Item]
    state: clock.ClockState
    view: clock.ClockView | None


def clock_read(
    tournament: Tournament,
    now: datetime,
    *,
    structure: list[clock.Item] | None = None,
    state: clock.ClockState | None = None,
) -> ClockRead:
    """The clock at `now`. `structure`, `state`: what the caller has already read or made
    (a change passes the state it has just stored)."""
    if structure is None:
        structure = clock_structure(tournament)
    if state is None:
        state = clock_state(tournament)
    try:
        clock.validate_structure(structure)
    except ValueError:
        return ClockRead(structure, state, None)
    view = clock.clock_view(structure, state, now, late_registration=late_registration(tournament))
    if tournament.status == Tournament.Status.FINISHED and view.status is not (
        clock.ClockStatus.NOT_STARTED
    ):
        # The winner is decided: the clock is over, whatever time its level had left.
        view = dataclasses.replace(
            view, status=clock.ClockStatus.FINISHED, ends_at=None, time_left=timedelta(0)
        )
    return ClockRead(structure, state, view)


def clock_view_for(
    tournament: Tournament, now: datetime, *, structure: list[clock.Item] | None = None
) -> clock.ClockView | None:
    """The clock at `now`, or None while the tournament has no structure to run.

    `structure`: the tournament's clock_structure when the caller has already read it."""
    return clock_read(tournament, now, structure=structure).view


def clock_spot(
    tournament: Tournament, now: datetime, *, structure: list[clock.Item] | None = None
) -> entry_rules.ClockSpot:
    """Where the clock stands for the rebuy and add-on windows (at a break: the level
    played before it, which the clock view itself leaves empty)."""
    if structure is None:
        structure = clock_structure(tournament)
    view = clock_view_for(tournament, now, structure=structure)
    if view is None or view.status in {clock.ClockStatus.NOT_STARTED, clock.ClockStatus.SCHEDULED}:
        return entry_rules.ClockSpot(started=False)
    level = clock.last_level_at(structure, view.index)
    return entry_rules.ClockSpot(
        started=True,
        finished=view.status is clock.ClockStatus.FINISHED,
        level=level.number if level is not None else None,
        at_break=view.is_break,
    )


def purchases_on_sale(tournament: Tournament, now: datetime) -> dict[str, bool]:
    """Whether the desk may sell a rebuy and an add-on now (event settings and window)."""
    if tournament.status == Tournament.Status.FINISHED:
        return {"rebuy": False, "addon": False}
    spot = clock_spot(tournament, now)
    return {
        "rebuy": tournament.rebuys_allowed
        and entry_rules.rebuy_window_open(spot, until_level=tournament.rebuy_until_level),
        "addon": tournament.addon_allowed
        and entry_rules.addon_window_open(
            spot, break_after_level=tournament.addon_break_after_level
        ),
    }


def registration_open(tournament: Tournament, now: datetime) -> bool:
    """Whether a new entry may be sold now (tournament.md §5.3, setting late_registration)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.clock_status in {"not_started", "scheduled"}:
        return True
    if tournament.late_registration_level is None:
        return tournament.clock_status != "finished"
    view = clock_view_for(tournament, now)
    return bool(view and view.late_registration_open)


# The players whose folded name (`search_name`: last, first, nickname) is one of two, or
# begins with one of them and a space (a nickname follows): read for every new player the
# desk adds, compiled once, found through the column's index. The prefixes are values (not
# `startswith` strings), so the statement keeps their places: the database escapes them
# for LIKE itself.
_SAME_NAME = Prepared(
    lambda one, one_prefix, other, other_prefix: (
        Player.objects.filter(merged_into__isnull=True, erased_at__isnull=True)
        .filter(
            Q(search_name=one)
            | Q(search_name__startswith=Value(one_prefix))
            | Q(search_name=other)
            | Q(search_name__startswith=Value(other_prefix))
        )
        .order_by()
        .values_list("id", "first_name", "last_name")
    ),
    one="-prepared one-",
    one_prefix="-prepared one prefix-",
    other="-prepared other-",
    other_prefix="-prepared other prefix-",
)


def _desk_reach(user, tournament: Tournament, candidates: list[int]) -> set[int]:
    """Which of `candidates` the user's desk may be shown by name: players of his own
    events (entered there, added at their desks, or holding a seat ticket to one of them,
    as his search finds them) and the players of this event's leagues, whose names the
    standings show; every one for the room's manager."""
    if not candidates or room_permissions.is_manager(user):
        return set(candidates)
    mine = set(room_permissions.events_for(user, STAFF_ROLES).values_list("pk", flat=True))
    mine.add(tournament.pk)
    mine |= set(Tournament.objects.filter(leagues__events=tournament).values_list("pk", flat=True))
    entered = Entry.objects.filter(player_id__in=candidates, tournament_id__in=mine)
    added = Event.objects.filter(tournament_id__in=mine, action="player.create").annotate(
        player_id=Cast(KeyTextTransform("player", "data"), BigIntegerField())
    )
    ticketed = SeatTicket.objects.filter(player_id__in=candidates, target_id__in=mine, voided=False)
    return {
        *entered.values_list("player_id", flat=True),
        *added.filter(player_id__in=candidates).values_list("player_id", flat=True),
        *ticketed.values_list("player_id", flat=True),
    }


def player_duplicates(
    tournament: Tournament,
    *,
    user,
    first_name: str,
    last_name: str,
    document_number: str = "",
) -> list[Player]:
    """Players a new one may be, the rule of the room's duplicates (`selectors.people.duplicates`):
    whoever holds the same document number (the desk finds him by it anyway), and the
    players the user's desk reaches (`_desk_reach`) with the same two names in either
    order, case, accents and spacing aside, playing, out or never entered."""
    first, last = fold(first_name), fold(last_name)
    wanted = {(first, last), (last, first)}
    found: dict[int, Player] = {}
    document = document_number.strip()
    if document:
        for player in Player.objects.select_related("merged_into").filter(
            document_number__iexact=document
        )[:10]:
            # A merged-away record keeps its document: the desk is shown whom it became.
            kept = player.merged_into or player
            found[kept.pk] = kept
    if first and last:
        one, other = f"{last} {first}", f"{first} {last}"
        rows = _SAME_NAME.rows(one=one, one_prefix=one + " ", other=other, other_prefix=other + " ")
        same = [pk for pk, named, surname in rows if (fold(named), fold(surname)) in wanted]
        reached = _desk_reach(user, tournament, same)
        # A common name's namesakes are many: the first few say enough to ask.
        same = [pk for pk in same if pk in reached and pk not in found][:10]
        if same:
            found.update(
                (player.pk, player)
                for player in Player.objects.filter(pk__in=same).only(
                    "id", "first_name", "last_name", "document_number"
                )
            )
    return list(found.values())


# Every event role: a desk clerk, the floor and the TD search among their events' players.
STAFF_ROLES = frozenset(Role.values)


def player_search(query: str, *, user, limit: int = 20) -> list[Player]:
    """Players for the desk: those of the user's own events (entered there, added at
    their desks, or holding a satellite's seat ticket to one of them) whose name or
    document number matches every word typed, and whoever holds exactly the document
    number or seat ticket code typed (a returning player from another event shows his
    document). Every player for the room's manager; never a merged-away record."""
    exact = document_match(query)
    matching = Player.objects.filter(merged_into__isnull=True)  # a merged-away record: never
    for word in query.split()[:5]:
        matching = matching.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(document_number__iexact=word)
        )
    matching = matching.order_by("last_name", "first_name")
    if room_permissions.is_manager(user):  # the TD of every event: every player
        found = list(matching[:limit])
    else:
        # Entered in one of the user's events, or added at one of their desks: two
        # searches, each walking the names in order and stopping at `limit`. As one
        # (`entered OR added`) the database gathered every entry of the user's events
        # first: a 10,000-entry field read at every keystroke.
        # The user's events named by their ids, not joined: the database then knows how
        # many entries they hold (its statistics per event). Joined, it guessed an
        # average event's few hundred and gathered a 10,000-entry field at every
        # keystroke, in name order only after.
        mine = list(room_permissions.events_for(user, STAFF_ROLES).values_list("pk", flat=True))
        entered = Entry.objects.filter(player_id=OuterRef("pk"), tournament_id__in=mine)
        added = (
            Event.objects.filter(tournament_id__in=mine, action="player.create")
            .annotate(player_id=Cast(KeyTextTransform("player", "data"), BigIntegerField()))
            .values("player_id")
        )
        # A satellite's winner is a player of the event his ticket is for, whoever ran
        # the satellite.
        ticketed = SeatTicket.objects.filter(
            player_id=OuterRef("pk"), target_id__in=mine, voided=False
        )
        # The first `limit` of each, then the first `limit` of all in the database's
        # own order of names (its collation, not Python's).
        keys = [
            *matching.filter(Exists(entered)).values_list("pk", flat=True)[:limit],
            *matching.filter(pk__in=added).values_list("pk", flat=True)[:limit],
            *matching.filter(Exists(ticketed)).values_list("pk", flat=True)[:limit],
        ]
        found = list(matching.filter(pk__in=keys)[:limit]) if keys else []
    if exact is not None and exact.pk not in {p.pk for p in found}:
        found.insert(0, exact)
    return found


def document_match(query: str) -> Player | None:
    """The player whose document number, or seat ticket code, is exactly what was typed
    (case aside), if any."""
    number = query.strip()
    if not number:
        return None
    players = Player.objects.filter(merged_into__isnull=True)
    found = players.filter(document_number__iexact=number).first()
    if found is None and len(number.split()) == 1:
        # Ticket codes are stored in capitals: the code's own unique index answers.
        holder = SeatTicket.objects.filter(code=number.upper()).values("player_id")
        found = players.filter(pk__in=holder).first()
    return found


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
    main event with its flights (tournaments/prepared.py)."""
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


# The field's figures, compiled once each (tournaments/prepared.py): every push that
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
# (tournaments/prepared.py): every desk page and every registration's page reads it.
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
# counted (10,000 of them in a big field), compiled once (tournaments/prepared.py). One
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
# on one player reads it first, compiled once (tournaments/prepared.py). The stand-in
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


def entry_by_number_read(
    tournament_id: int, number: int, *, seat: bool = False
) -> list[tuple[Prepared[Any], dict]]:
    """`entry_by_number`'s read, to be made ahead (prepared.ahead)."""
    if not 0 < number <= INT_MAX:
        return []
    statement = _ENTRY_WITH_SEAT_BY_NUMBER if seat else _ENTRY_BY_NUMBER
    return [(statement, {"tournament_id": tournament_id, "number": number})]


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


def _event_keys(event_id: Any) -> QuerySet[Tournament]:
    """A main event's key and its flights' as a subquery."""
    return Tournament.objects.filter(Q(pk=event_id) | Q(parent_id=event_id)).values("pk")


def _sold(where: Q) -> QuerySet[Any]:
    return (
        Entry.objects.filter(where)
        .exclude(status=Entry.Status.VOIDED)
        .exclude(kind=Entry.Kind.CARRIED)
    )


def _rebuys_and_addons(where: Q) -> QuerySet[Any]:
    return Purchase.objects.filter(where, voided=False)


# The buy-ins and the rebuys' and add-ons' money of a tournament's family (a main event
# and its flights; a flight alone), compiled once (tournaments/prepared.py): every
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


# The entries still playing, as one row even before the first entry (a sum of no rows),
# so that it can be read beside the prize pool's figures (`elimination_figures`).
_PLAYING = _one_total(EntryTally, Sum("active"))


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

    playing = {e.player_id for e in entries if e.status == Entry.Status.ACTIVE}
    for e in entries:
        # An earlier entry of a player who re-entered: he is still playing.
        e.playing_again = e.status != Entry.Status.ACTIVE and e.player_id in playing  # type: ignore[attr-defined]

    def key(e: Entry):
        if e.disqualified:
            return (2, 0, e.number)
        if e.place is None:
            return (0, 0, e.number)  # still playing: on top
        return (1, e.place, e.number)

    return sorted(entries, key=key)


def finished(tournament: Tournament) -> list[Entry]:
    """The entries with a place (or disqualified), best first, as `results` orders and
    marks them, without reading the field still playing (9,000 rows at 10,000 entries)."""
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
    for pk, player, place, _number, disqualified, status, again in rows:
        if player in shown or (again is not None and status != Entry.Status.ACTIVE):
            continue
        shown.add(player)
        if place is not None and not disqualified:
            keys.append(pk)
    return keys


def finished_entries(tournament: Tournament, keys: list[int]) -> list[Entry]:
    """The entries `keys` names, in that order, with their players, marked as `finished`
    marks them (`playing_again`)."""
    # The players by key (prefetched): joined, the planner hashes every player of the
    # room for a page of 100 entries.
    entries = {e.pk: e for e in tournament.entries.filter(pk__in=keys).prefetch_related("player")}
    playing = set(
        tournament.entries.filter(
            status=Entry.Status.ACTIVE, player_id__in={e.player_id for e in entries.values()}
        ).values_list("player_id", flat=True)
    )
    for e in entries.values():
        e.playing_again = e.status != Entry.Status.ACTIVE and e.player_id in playing  # type: ignore[attr-defined]
    return [entries[k] for k in keys if k in entries]


def _item_payload(item: clock.Item) -> dict[str, Any]:
    if isinstance(item, clock.Break):
        return {"break": True, "duration": item.duration, "color_up": item.color_up}
    return {
        "break": False,
        "duration": item.duration,
        "number": item.number,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "ante_mode": str(item.ante_mode),
    }


def structure_key(items: list[dict[str, Any]]) -> str:
    """A short fingerprint of the structure a clock payload carries: a screen keeps the
    levels it has while the key it is sent is the key of the levels it holds."""
    text = json.dumps(items, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def clock_payload(
    tournament: Tournament,
    now: datetime,
    *,
    structure: list[clock.Item] | None = None,
    read: ClockRead | None = None,
    with_items: bool = True,
) -> dict[str, Any]:
    """The clock message screens count down from, with hand-for-hand and end of day.

    Small JSON (STYLE.md 14): the pure clock's payload plus what the floor has set.
    The whole structure travels on a screen's first state and with a change of the
    structure; a clock change (`with_items=False`) sends only its key (`structure`), which
    a screen compares with the levels it holds and asks for the state again when they
    differ (it missed a change of the structure): four-fifths of the bytes of every push.
    `read`: the clock as the caller has already read it (`clock_read`).
    """
    if read is None:
        read = clock_read(tournament, now, structure=structure)
    structure, view = read.structure, read.view
    if view is None:
        payload: dict[str, Any] = {
            "type": "clock",
            "version": tournament.clock_version,
            "status": "no_structure",
            "server_time": now.isoformat(),
        }
    else:
        payload = clock.to_payload(view)
        payload["remaining"] = clock.format_clock(view.time_left)
        # The whole structure, so a screen rolls over boundaries by itself while offline.
        items = [_item_payload(item) for item in structure]
        payload["structure"] = structure_key(items)
        if with_items:
            payload["items"] = items
        payload["sounds"] = {
            "level_up": tournament.sound_level_up,
            "one_minute": tournament.sound_one_minute,
            "break_over": tournament.sound_break_over,
        }
        # The break at which add-ons are sold, for the screens to announce it.
        payload["addon_break_index"] = (
            clock.break_after_level(structure, tournament.addon_break_after_level)
            if tournament.addon_allowed and tournament.addon_break_after_level is not None
            else None
        )
    payload["hand_for_hand"] = (
        {"hands": tournament.h4h_hands, "tables_done": list(tournament.h4h_tables_done)}
        if tournament.h4h_active
        else None
    )
    remaining = tournament.eod_remaining or {}
    payload["end_of_day"] = (
        {
            "card": tournament.eod_card,
            "hands_left": max(remaining.values(), default=0),
            "tables": dict(remaining),
        }
        if tournament.eod_card
        else None
    )
    return payload


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


# The clock screen's other figures, compiled once (tournaments/prepared.py) as the field's
# are: the tables open, and the chip leaders (their names as Player.__str__ writes them).
_TABLES_OPEN = _one_total(Table, Count("id"), status=Table.Status.OPEN)


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


# The seating board's order: the seat's copies of the player's name (one index holds
# them with the tournament), the entry as the tie-break.
BOARD_ORDER = ("board_last_name", "board_first_name", "entry_id")


def seating_board(
    tournament: Tournament, *, page: int, per_page: int = 120, with_entry: bool = False
) -> tuple[list[dict[str, Any]], int, int, list[dict[str, Any]]]:
    """One page of the seating board: active players A-Z with table and seat; the number
    of pages, the page shown (clamped to them) and, on a board of several pages, which
    surnames each page holds ("Bianchi – Colombo"), so a player sees at once which page
    is his.

    What it reads depends on the page, not the field: the page index (the count, the
    first and last seat of every page) is kept for the board's version (`_board_index`),
    then only the page's rows are read, as a range of the seats' board index
    (`Seat.board_*`). A seat is only ever an active entry's (the services free it before
    an entry leaves play), so the seats are the board.

    `with_entry`: each row also names its entry's key, for the board to match pushes."""
    seats = Seat.objects.filter(tournament=tournament)
    fields = ("board_last_name", "board_first_name", "entry_id", "number")
    asked = page
    for fresh in (False, True):
        total, edges = _board_index(tournament, seats, per_page=per_page, fresh=fresh)
        pages = max(len(edges), 1)
        page = min(max(asked, 1), pages)
        if pages == 1:
            break
        # The page's seats: a range of the board's index, from its first seat's surname
        # to its last's, cut at those two seats in the database's own order (a namesake
        # beyond either is another page's).
        first, last = edges[page - 1]
        read: list[tuple] = []
        for r in (
            seats.filter(board_last_name__gte=first[0], board_last_name__lte=last[0])
            .order_by(*BOARD_ORDER)
            .values_list(*fields, "table_id")
        ):
            if read or r[2] == first[2]:
                read.append(r)
            if r[2] == last[2]:
                break
        if read:
            break
        # Its first seat was freed since the version was read (a change committed in
        # between): the index is read again, as it now is.
    index: list[dict[str, Any]] = []
    if pages > 1:
        index = [
            {"page": number, "first": first[0], "last": last[0]}
            for number, (first, last) in enumerate(edges, start=1)
        ]
    if pages == 1:  # the whole board is the page (a small field, a printout)
        found = list(
            seats.order_by(*BOARD_ORDER).values_list(
                *fields, "table__number", "entry__bounty_cents"
            )
        )
    else:
        # Their tables and bounties by key: joined in one query, the planner hashes every
        # entry and table of the event for 120 rows.
        tables = dict(Table.objects.filter(pk__in={r[4] for r in read}).values_list("pk", "number"))
        bounties: dict[int, int | None] = {}
        if tournament.bounty_format in ("fixed", "progressive"):  # else the same for all
            bounties = dict(
                Entry.objects.filter(pk__in=[r[2] for r in read]).values_list("pk", "bounty_cents")
            )
        found = [(*r[:4], tables[r[4]], bounties.get(r[2])) for r in read]
    rows = []
    for last_name, first_name, entry_id, seat, table, bounty_cents in found:
        row: dict[str, Any] = {
            "name": f"{last_name} {first_name}".strip(),  # as str(Player), no model per row
            "table": table,
            "seat": seat,
            "bounty": bounty_shown(tournament, bounty_cents),
        }
        if with_entry:
            row["entry"] = entry_id
        rows.append(row)
    return rows, pages, page, index


# A seat's place in the board's order: (last name, first name, entry).
BoardKey = tuple[str, str, int]
BoardIndex = tuple[int, tuple[tuple[BoardKey, BoardKey], ...]]

# The boards' page indexes, per process, by (tournament, board version, page size): a
# version is the database's random token for the board's order (`SeatBoardVersion`), so
# an index kept here is the board's for as long as its token is the tournament's.
_BOARD_INDEXES: OrderedDict[tuple[int, str, int], BoardIndex] = OrderedDict()
_BOARD_INDEXES_KEPT = 64
_BOARD_INDEXES_LOCK = threading.Lock()


def _board_index(
    tournament: Tournament, seats: QuerySet[Seat], *, per_page: int, fresh: bool = False
) -> BoardIndex:
    """The board's count of seats and each page's first and last seat: kept for the
    board's version, else (or when `fresh`) read (`_board_edges`) and kept. The version is
    read first, so an index is never kept for a version older than the seats it was read
    from."""
    version = _board_version(tournament.pk)
    key = (tournament.pk, version or "", per_page)
    if version is not None and not fresh:
        with _BOARD_INDEXES_LOCK:
            found = _BOARD_INDEXES.get(key)
            if found is not None:
                _BOARD_INDEXES.move_to_end(key)
                return found
    index = _board_edges(seats, per_page=per_page)
    if version is not None:
        with _BOARD_INDEXES_LOCK:
            _BOARD_INDEXES[key] = index
            while len(_BOARD_INDEXES) > _BOARD_INDEXES_KEPT:
                _BOARD_INDEXES.popitem(last=False)
    return index


def _board_version(tournament_id: int) -> str | None:
    """The tournament's board version (`tables.models.SeatBoardVersion`); None when it has
    none yet, or when this transaction has itself written (on PostgreSQL the token
    changes when the writer commits: until then it is the one before the writes)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT token, pg_current_xact_id_if_assigned() IS NULL"
                f" FROM {SeatBoardVersion._meta.db_table} WHERE tournament_id = %s",
                [tournament_id],
            )
        else:
            cursor.execute(
                f"SELECT token, 1 FROM {SeatBoardVersion._meta.db_table} WHERE tournament_id = %s",
                [tournament_id],
            )
        row = cursor.fetchone()
    return row[0] if row is not None and row[1] else None


def _board_edges(seats: QuerySet[Seat], *, per_page: int) -> BoardIndex:
    """(count, each page's first and last seat) of the board, in one pass over the
    board's index (index-only: no join, no sort, no count apart). The pages' edges are
    picked by remainder: a list of ranks would be compared with each row."""
    order = [F(key).asc() for key in BOARD_ORDER]
    keys: dict[int, BoardKey] = {}
    total = 0
    for rank, last, first, entry, following in (
        seats.annotate(
            rank=Window(RowNumber(), order_by=order),
            following=Window(Lead("entry_id"), order_by=order),
        )
        .annotate(edge=F("rank") % per_page)
        .filter(Q(edge__in=(0, 1 % per_page)) | Q(following__isnull=True))
        .order_by()
        .values_list("rank", "board_last_name", "board_first_name", "entry_id", "following")
    ):
        keys[rank] = (last, first, entry)
        if following is None:
            total = rank
    edges = tuple(
        (keys[start], keys[min(start + per_page - 1, total)])
        for start in range(1, total + 1, per_page)
    )
    return total, edges


def seating_page(
    tournament: Tournament, *, page: int, per_page: int = 120, with_entry: bool = False
) -> tuple[list[dict[str, Any]], int]:
    """One page of the seating board (`seating_board`) and the number of pages."""
    rows, pages, _page, _index = seating_board(
        tournament, page=page, per_page=per_page, with_entry=with_entry
    )
    return rows, pages


MOVE_ACTIONS = ("seat.move", "room.balance", "room.break", "room.final_table")


MOVES_SHOWN = 12


def recent_moves(tournament: Tournament, now: datetime, *, minutes: int = 15) -> list[dict]:
    """The moves of the last minutes, newest first, for the seating board to list after a
    reload as well as when they are pushed."""
    events = tournament.events.filter(
        action__in=MOVE_ACTIONS, undone_at__isnull=True, at__gte=now - timedelta(minutes=minutes)
    ).order_by("-at", "-pk")[:20]
    if connection.vendor == "postgresql":
        # A balance or a draw of the whole room names every seat moved (9,000 at 10,000
        # entries, 76 kB): only the first twelve of an event's moves are read, in one pass
        # over its log; a single move's log is read whole (it holds no list).
        logged = list(events.annotate(shown=_FirstMoves(F("data"))).values_list("at", "shown"))
    else:
        logged = [
            (event.at, (event.data or {}).get("moves") or [event.data or {}]) for event in events
        ]
    moves: list[dict] = []
    for at, rows in logged:
        # A balance of the whole room names hundreds: only the newest twelve are shown.
        for move in rows[: MOVES_SHOWN - len(moves)]:
            if not move.get("to"):
                continue  # a log of no move (no list, no seat to go to)
            origin, target = move.get("from") or [None, None], move["to"]
            moves.append(
                {
                    "name": move.get("name", ""),
                    "from_table": origin[0],
                    "from_seat": origin[1],
                    "table": target[0],
                    "seat": target[1],
                    "at": at.isoformat(),
                }
            )
    return moves


class _FirstMoves(Func):
    """PostgreSQL: a logged move's list of moves, its first MOVES_SHOWN only, else the log
    itself in a list (a single move), as `recent_moves` reads them; the log is read once."""

    template = (
        "COALESCE(NULLIF(jsonb_path_query_array(%(expressions)s, "
        f"'$.moves[0 to {MOVES_SHOWN - 1}]'), '[]'::jsonb), jsonb_build_array(%(expressions)s))"
    )
    output_field = JSONField()


def table_seats(tournament: Tournament, number: int) -> list[dict[str, Any]]:
    """A table's seats, 1..max, with the player on each (None when empty) and the hands
    left of any penalty he is sitting out (tournament.md §19.2)."""
    return tables_seats(tournament, [number]).get(number, [])


def tables_seats(tournament: Tournament, numbers: list[int]) -> dict[int, list[dict[str, Any]]]:
    """`table_seats` of each named table (those not in the room left out), read in three
    queries however many are named: a break's push brings the list of every table it
    fills, and a trip to the database for each table's table, seats and penalties was
    the push's whole wait."""
    tables = {
        table.pk: table
        for table in Table.objects.filter(tournament=tournament, number__in=numbers).only(
            "number", "max_seats"
        )
    }
    if not tables:
        return {}
    seated: dict[int, dict[int, Entry]] = {table_id: {} for table_id in tables}
    for seat in Seat.objects.select_related("entry__player").filter(
        table_id__in=list(tables), entry__status=Entry.Status.ACTIVE
    ):
        seated[seat.table_id][seat.number] = seat.entry
    players = [e.player_id for held in seated.values() for e in held.values()]
    sitting_out: dict[int, int] = {}
    if players:
        for penalty in Penalty.objects.filter(
            tournament__in=_family_keys(tournament),
            player_id__in=players,
            voided=False,
            kind__in=[k.value for k in HAND_KINDS],
        ):
            if penalty.remaining:
                sitting_out[penalty.player_id] = (
                    sitting_out.get(penalty.player_id, 0) + penalty.remaining
                )
    lists = {}
    for table_id, table in tables.items():
        held = seated[table_id]
        lists[table.number] = [
            {
                "seat": n,
                "name": str(held[n].player) if n in held else None,
                "penalty_hands": sitting_out.get(held[n].player_id, 0) if n in held else 0,
                "bounty": entry_bounty(tournament, held[n]) if n in held else None,
            }
            for n in range(1, table.max_seats + 1)
        ]
    return lists


def public_seat_search(tournament: Tournament, query: str, *, limit: int = 10) -> list[dict]:
    """Players found by name: only name, table and seat (nothing else is public)."""
    words = query.split()[:4]
    if not words or len(query.strip()) < 2:
        return []
    # Through the seats' copies of the names (`Seat.board_*`, a seat is only an active
    # entry's) and their trigram indexes on PostgreSQL (tables 0007): the players' own
    # names are every player's in the database, read whole for a LIKE '%...%'.
    seats = Seat.objects.filter(tournament=tournament)
    for word in words:
        seats = seats.filter(
            Q(board_last_name__icontains=word) | Q(board_first_name__icontains=word)
        )
    found = list(
        seats.order_by("board_last_name", "board_first_name").values_list(
            "entry_id", "table_id", "number"
        )[:limit]
    )
    entries = Entry.objects.select_related("player").in_bulk([r[0] for r in found])
    tables = dict(Table.objects.filter(pk__in={r[1] for r in found}).values_list("pk", "number"))
    return [
        {
            # The entry lets the phone follow its player's pushes (they name the entry).
            "entry": entry,
            "name": str(entries[entry].player),
            "table": tables[table],
            "seat": number,
            "bounty": entry_bounty(tournament, entries[entry]),
        }
        for entry, table, number in found
    ]


CHIP_RACE_SHOWN = timedelta(minutes=30)


def table_chip_race(tournament: Tournament, number: int, now: datetime) -> dict[str, Any] | None:
    """The latest chip race at a table, for its tablet (§12): per seat the chips exchanged,
    the odd chips raced, the cards and who won a chip; shown for half an hour after it."""
    event = (
        tournament.events.filter(
            action="chips.race",
            undone_at__isnull=True,
            at__gte=now - CHIP_RACE_SHOWN,
            data__table=number,
        )
        .order_by("-pk")
        .first()
    )
    if event is None:
        return None
    data = event.data
    seats = sorted(
        {int(s) for s in (data.get("exchanged") or {})}
        | {int(s) for s in (data.get("odd_chips") or {})}
    )
    winners = set(data.get("winners") or [])
    protected = set(data.get("protected") or [])
    return {
        "removed": data.get("removed"),
        "into": data.get("into"),
        "chips_raced": data.get("chips_raced", 0),
        "drawn_by_app": bool(data.get("drawn_by_app")),
        "rows": [
            {
                "seat": seat,
                "exchanged": (data.get("exchanged") or {}).get(str(seat), 0),
                "odd_chips": (data.get("odd_chips") or {}).get(str(seat), 0),
                "cards": (data.get("cards") or {}).get(str(seat), []),
                "won": seat in winners,
                "protected": seat in protected,
            }
            for seat in seats
        ],
    }


def tables_in_play(tournament: Tournament) -> list[dict[str, int]]:
    """Each table with players on it, and how many (one query): a floor page's table
    picker for a big field."""
    rows = (
        Seat.objects.filter(table__tournament=tournament)
        .values("table__number")
        .annotate(players=Count("id"))
        .order_by("table__number")
    )
    return [{"number": r["table__number"], "players": r["players"]} for r in rows]


_TABLES_IN_PLAY = Prepared(
    lambda tournament_id: (
        _one_row(
            Table.objects.filter(tournament_id=tournament_id).filter(
                Exists(Seat.objects.filter(table_id=OuterRef("pk")))
            )
        )
        .annotate(n=Count("id"))
        .values_list("n")
    ),
    tournament_id=NO_ID,
)


def tables_in_play_count(tournament: Tournament) -> int:
    """How many tables have players on them: counted, not listed (`tables_in_play`)."""
    return _TABLES_IN_PLAY.rows(tournament_id=tournament.pk)[0][0]


# --- the event log's list ---------------------------------------------------------------
# A line of the log reads these keys of a row's payload (labels.event_details and
# events.action_label), looked up in the database: the list never reads a whole payload,
# so the draw of 10,000 seats (190 kB) or a balance of 714 moves costs a line what a
# registration costs. The row's own page (`event_row`) reads everything.
LOG_LINE_KEYS = (
    "name",
    "names",
    "entry",
    "from",
    "to",
    "table",
    "seat",
    "number",
    "kind",
    "chips",
    "price",
    "hands",
    "offence",
    "amount",
    "chips_raced",
    "chips_added",
    "removed_value",
    "seconds",
    "places",
    "prizes",
    "shares",
    "ruling",
    "rules",
    "undone_action",
    "seated",
)
# Lists that grow with the field (a balance's moves, a payout table): a line reads their
# first items and their length.
LOG_LINE_LISTS = ("moves", "after")
LOG_LINE_HEAD = 3


class _LogLine(Func):
    """The keys of LOG_LINE_KEYS and LOG_LINE_LISTS a row's payload has, as one JSON object;
    each list as {"size": its length, "head": its first LOG_LINE_HEAD items}. The payload is
    read once (each `data -> key` of PostgreSQL unpacks the whole payload again: 33 lookups
    of a 190 kB draw took longer than reading it)."""

    output_field = JSONField()

    def __init__(self) -> None:
        super().__init__(F("data"))

    def _sql(self, compiler: Any, template: str) -> tuple[str, list[Any]]:
        sql, params = compiler.compile(self.source_expressions[0])
        keys = [*LOG_LINE_KEYS, *LOG_LINE_LISTS]
        return (
            template.format(
                data=sql,
                lists=", ".join(["%s"] * len(LOG_LINE_LISTS)),
                keys=", ".join(["%s"] * len(keys)),
                last=LOG_LINE_HEAD - 1,
            ),
            [*LOG_LINE_LISTS, *params, *params, *keys],
        )

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return self._sql(
            compiler,
            "(SELECT json_group_object(k.key, CASE"
            " WHEN k.key IN ({lists}) AND k.type = 'array' THEN json_object("
            "'size', json_array_length(k.value), 'head', (SELECT json_group_array(h.value)"
            " FROM json_each(k.value) h WHERE h.key <= {last}))"
            " WHEN k.type = 'true' THEN json('true') WHEN k.type = 'false' THEN json('false')"
            " ELSE k.value END)"
            " FROM json_each(CASE WHEN json_type({data}) = 'object' THEN {data} ELSE '{{}}' END) k"
            " WHERE k.key IN ({keys}))",
        )

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return self._sql(
            compiler,
            "(SELECT jsonb_object_agg(k.key, CASE"
            " WHEN k.key IN ({lists}) AND jsonb_typeof(k.value) = 'array' THEN jsonb_build_object("
            "'size', jsonb_array_length(k.value),"
            " 'head', jsonb_path_query_array(k.value, '$[0 to {last}]'))"
            " ELSE k.value END)"
            " FROM jsonb_each(CASE WHEN jsonb_typeof({data}) = 'object' THEN {data}"
            " ELSE '{{}}'::jsonb END) k"
            " WHERE k.key IN ({keys}))",
        )


def log_lines(tournament: Tournament) -> QuerySet[Event]:
    """The event log newest first, each row without its payload: `line` holds the keys a
    line of the list shows (each list of LOG_LINE_LISTS cut to its first items)."""
    return (
        tournament.events.defer("data")
        .select_related("actor", "undone_by")
        .annotate(line=_LogLine())
    )


def log_line(row: Event) -> tuple[dict[str, Any], dict[str, int]]:
    """A row of `log_lines` as the payload a line reads (lists cut to their first items)
    and the full length of each list cut."""
    found = getattr(row, "line", None)
    line: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
    sizes: dict[str, int] = {}
    for key in LOG_LINE_LISTS:
        cut = line.get(key)
        if isinstance(cut, dict) and set(cut) == {"size", "head"}:
            line[key] = cut["head"] if isinstance(cut["head"], list) else []
            sizes[key] = int(cut["size"])
    return line, sizes

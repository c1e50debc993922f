"""Read-only queries: the player list of an event, the room's players (who
may see whom, duplicates, history, a data export) and league standings. Views and
exports read here; nothing writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from tournaments.models import (
    ChipCount,
    Entry,
    Purchase,
    Tournament,
)
from tournaments.rules.names import fold

Table = tuple[list[str], list[list[Any]]]

# --- The player list of one event ---------------------------------------------

SHOW = ("all", "active", "out", "paid")
SORTS = {
    "number": ("number",),
    "name": ("player__last_name", "player__first_name", "number"),
    "table": ("seat__table__number", "seat__number", "number"),
    "chips": (F("last_chips").desc(nulls_last=True), "number"),
    "place": (F("place").asc(nulls_first=True), "number"),
    "prize": ("-prize", "number"),
}
PER_PAGE = 100


def _filtered(tournament: Tournament, query: str, show: str) -> QuerySet[Entry]:
    entries = tournament.entries.exclude(status=Entry.Status.VOIDED)
    if show == "active":
        entries = entries.filter(status=Entry.Status.ACTIVE)
    elif show == "out":
        entries = entries.filter(status__in=[Entry.Status.ELIMINATED, Entry.Status.FORFEITED])
    elif show == "paid":
        entries = entries.filter(Q(prize__gt=0) | Q(deal_amount__gt=0))
    for word in query.split()[:5]:
        # In the last name, first name or nickname, case and accents aside.
        match = Q(player__search_name__contains=fold(word))
        if word.isascii() and word.isdigit() and len(word) < 10:  # "²" is not an entry number
            match |= Q(number=int(word))
        entries = entries.filter(match)
    return entries


def _last_chips() -> Subquery:
    return Subquery(
        ChipCount.objects.filter(entry=OuterRef("pk"))
        .order_by("-day", "-counted_at", "-pk")
        .values("chips")[:1],
        output_field=IntegerField(),
    )


def _purchases(kind: str) -> Coalesce:
    return Coalesce(
        Subquery(
            Purchase.objects.filter(entry=OuterRef("pk"), kind=kind, voided=False)
            .order_by()
            .values("entry")
            .annotate(n=Count("pk"))
            .values("n")[:1],
            output_field=IntegerField(),
        ),
        Value(0),
    )


def _annotated(tournament: Tournament, entries: QuerySet[Entry]) -> QuerySet[Entry]:
    return entries.select_related("player", "seat__table").annotate(
        rebuys=_purchases(Purchase.Kind.REBUY),
        addons=_purchases(Purchase.Kind.ADDON),
        last_chips=_last_chips(),
    )


def entries_per_player(tournament: Tournament, players: list[int] | None = None) -> dict[int, int]:
    """How many entries (re-entries included) each player bought here: one grouped query
    (a correlated count per row would walk the event's index for every row)."""
    rows = tournament.entries.exclude(status=Entry.Status.VOIDED)
    if players is not None:
        rows = rows.filter(player_id__in=players)
    return dict(rows.order_by().values("player").annotate(n=Count("pk")).values_list("player", "n"))


class Listed(NamedTuple):
    """A line of the player list: the entry, and how many entries its player bought here."""

    entry: Entry
    player_entries: int


def player_list(
    tournament: Tournament, *, query: str = "", show: str = "all", sort: str = "number"
) -> list[Listed]:
    """Every entry of the event (cancelled ones aside) with its player, seat, purchases,
    the player's entries here and the last chip count, in two queries whatever the size
    (the exports and the print view)."""
    entries = list(
        _annotated(tournament, _filtered(tournament, query, show)).order_by(
            *SORTS.get(sort, SORTS["number"])
        )
    )
    counts = entries_per_player(tournament)
    return [Listed(entry, counts.get(entry.player_id, 1)) for entry in entries]


def player_list_page(
    tournament: Tournament,
    *,
    query: str = "",
    show: str = "all",
    sort: str = "number",
    page: int = 1,
    per_page: int = PER_PAGE,
) -> tuple[Page, list[Listed]]:
    """One page of the list: the page's entries are chosen on the bare rows (sorted by an
    index, or by the last count when sorting by chips), then only they are read with
    their seats, purchases and counts. Four queries at any size (three when the page
    holds the last matches: no count)."""
    filtered = _filtered(tournament, query, show)
    keys = filtered.values_list("pk", flat=True)
    if sort == "chips":
        take = _by_chips(filtered)
    else:
        ordered = keys.order_by(*SORTS.get(sort, SORTS["number"]))

        def take(start: int, n: int) -> list[int]:
            return list(ordered[start : start + n])

    # The page's keys and one more: when they end on this page they also give the count,
    # and the match (a scan of the players by name) is not made a second time for it.
    start = (max(page, 1) - 1) * per_page
    shown = take(start, per_page + 1)
    paginator = Paginator(keys, per_page)
    if len(shown) <= per_page and (shown or start == 0):
        paginator.count = start + len(shown)  # type: ignore[misc]
    chosen = paginator.get_page(page)
    if shown:
        chosen.object_list = shown[:per_page]
    else:
        chosen.object_list = take((chosen.number - 1) * per_page, per_page)
    ids = list(chosen.object_list)  # past the last page: the last page, read again
    found = {e.pk: e for e in _annotated(tournament, Entry.objects.filter(pk__in=ids))}
    rows = [found[pk] for pk in ids if pk in found]
    counts = entries_per_player(tournament, [e.player_id for e in rows])
    return chosen, [Listed(entry, counts.get(entry.player_id, 1)) for entry in rows]


def _by_chips(filtered: QuerySet[Entry]) -> Callable[[int, int], list[int]]:
    """Keys of the list by last count (biggest first, then by number) from `start`: the
    counted entries sorted by their last count, then the uncounted ones in number order.
    The same order as sorting every entry by its last count (nulls last), but only the
    counted entries are sorted: the uncounted rest is read in the event's number index up
    to the page (sorting thousands of uncounted entries by a subquery each was most of the
    page's time at 10,000 entries)."""
    has_count = Exists(ChipCount.objects.filter(entry=OuterRef("pk")))
    counted = list(
        filtered.filter(has_count)
        .annotate(last_chips=_last_chips())
        .order_by(*SORTS["chips"])
        .values_list("pk", flat=True)
    )
    uncounted = filtered.filter(~has_count).order_by("number").values_list("pk", flat=True)

    def take(start: int, n: int) -> list[int]:
        keys = counted[start : start + n]
        rest = start + len(keys) - len(counted)  # where the uncounted part starts
        if len(keys) < n:
            keys += list(uncounted[rest : rest + n - len(keys)])
        return keys

    return take


def last_counts(tournament: Tournament, entry_ids: list[int]) -> dict[int, int]:
    """Today's last count of each of these entries (the count pages show it beside the
    field)."""
    return dict(
        ChipCount.objects.filter(entry_id__in=entry_ids, day=tournament.day).values_list(
            "entry_id", "chips"
        )
    )


def player_list_table(lines: Iterable[Listed]) -> Table:
    """The list as a table for CSV and XLSX (numbers stay numbers)."""
    head = [
        _("Entry"),
        _("Player"),
        _("Nickname"),
        _("Status"),
        _("Table"),
        _("Seat"),
        _("Entries"),
        _("Rebuys"),
        _("Add-ons"),
        _("Chips (last count)"),
        _("Place"),
        _("Prize"),
    ]
    rows = []
    for e, player_entries in lines:
        seat = getattr(e, "seat", None) if e.status == Entry.Status.ACTIVE else None
        rows.append(
            [
                e.number,
                str(e.player),
                e.player.nickname,
                e.get_status_display(),
                seat.table.number if seat else "",
                seat.number if seat else "",
                player_entries,
                e.rebuys,
                e.addons,
                e.last_chips if e.last_chips is not None else "",
                place_text(e),
                e.prize or "",
            ]
        )
    return head, rows


def place_text(entry: Entry) -> str:
    if entry.disqualified:
        return _("DQ")
    if entry.place is None:
        return ""
    if entry.place_last and entry.place_last != entry.place:
        return f"{entry.place}-{entry.place_last}"
    return str(entry.place)


# --- The room's players --------------------------------------------------------------


def mask(document: str) -> str:
    """A document number as staff see it: the last three characters."""
    if not document:
        return ""
    return "•" * max(0, len(document) - 3) + document[-3:]


def mask_phone(phone: str) -> str:
    """A phone number as staff see it: its country code (when written) and last four
    digits, e.g. "+39 *** *** 1234"."""
    digits = "".join(c for c in phone if c.isdigit())
    if not digits:
        return ""
    if len(digits) <= 4:
        return "*" * len(digits)
    country = ""
    if phone.strip().startswith("+"):
        country = "+" + digits[:2] + " "
    return f"{country}*** *** {digits[-4:]}"


def mask_email(email: str) -> str:
    """An e-mail address as staff see it: the first letter and the domain,
    e.g. "m***@example.com"."""
    name, at, domain = email.strip().partition("@")
    if not at:
        return "***" if email else ""
    return f"{name[:1]}***@{domain}"


# --- Leagues ------------------------------------------------------------------

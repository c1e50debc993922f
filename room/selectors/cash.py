"""What the cash room's pages read: where a player already plays, which lists hold him,
the room's players a name, card or document typed at the list finds, the room's and a
game's settings, where a called name's call stands, and the hand a rake form is for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from datetime import datetime
from typing import Any

from django.db.models import Max, Q

from room.models import CashGame, CashRoom, CashSeat, CashTable, WaitEntry
from room.permissions import players_for as cash_players_for
from tables.cash import waitlist
from tables.cash.settings import CashSettings
from tables.cash.shifts import Shift
from tournaments.models import Player


@dataclass(frozen=True)
class Playing:
    """A player's seat in the room: which game, table and seat."""

    game_id: int
    game: str
    table: int
    seat: int


@dataclass
class Found:
    """A player the list's search found, with what the brush needs before adding him."""

    player: Player
    playing: Playing | None = None
    lists: list[str] = field(default_factory=list)


def playing_at(player_ids: Iterable[int] | None = None) -> dict[int, Playing]:
    """Where each seated player sits (a player sits in at most one seat of the room)."""
    seats = CashSeat.objects.select_related("table__game")
    if player_ids is not None:
        seats = seats.filter(player_id__in=list(player_ids))
    return {
        s.player_id: Playing(s.table.game_id, str(s.table.game), s.table.number, s.number)
        for s in seats
    }


def lists_of(player_ids: Iterable[int] | None = None) -> dict[int, list[tuple[int, str]]]:
    """The lists each player is on: (game id, game) in the catalogue's order."""
    games = {g.pk: str(g) for g in CashGame.objects.all()}
    entries = WaitEntry.objects.order_by("game_id")
    if player_ids is not None:
        entries = entries.filter(player_id__in=list(player_ids))
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for player_id, game_id in entries.values_list("player_id", "game_id"):
        found[player_id].append((game_id, games.get(game_id, "")))
    return found


def player_search(query: str, *, user: Any, limit: int = 10) -> list[Found]:
    """The room's players for a name, card or document typed at the list: those the user
    reaches (`permissions.players_for` with the cash room) whose names or card match every
    word, and whoever holds exactly the card or document typed. Nobody for an empty query."""
    words = query.split()[:5]
    if not words:
        return []
    exact = Player.objects.filter(
        document_number__iexact=query.strip(), erased_at__isnull=True
    ).first()
    # A duplicate merged into another keeps his card: the card finds the player kept.
    while exact is not None and exact.merged_into_id is not None:
        exact = Player.objects.filter(pk=exact.merged_into_id, erased_at__isnull=True).first()
    matching = cash_players_for(user).filter(erased_at__isnull=True)
    for word in words:
        matching = matching.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(nickname__icontains=word)
            | Q(document_number__iexact=word)
        )
    found = list(matching.order_by("last_name", "first_name", "pk")[:limit])
    if exact is not None and exact.pk not in {p.pk for p in found}:
        found.insert(0, exact)
    ids = [p.pk for p in found]
    seats, lists = playing_at(ids), lists_of(ids)
    return [Found(p, seats.get(p.pk), [name for _pk, name in lists.get(p.pk, [])]) for p in found]


def cash_room() -> CashRoom:
    """The room's settings row; unsaved defaults until the TD first saves them (a page that
    only reads never writes)."""
    room = CashRoom.objects.order_by("pk").first()
    return room if room is not None else CashRoom()


def room_settings() -> CashSettings:
    """The room's settings: the defaults, overridden by the room's row."""
    room = cash_room()
    known = {f.name for f in dataclass_fields(CashSettings)}
    values = {k: v for k, v in (room.overrides or {}).items() if k in known}
    if "suit_order" in values:
        values["suit_order"] = tuple(values["suit_order"])
    if "shifts" in values:
        values["shifts"] = tuple(Shift(name, start) for name, start in values["shifts"])
    return replace(CashSettings(**values), answer_minutes=room.answer_minutes)


def game_settings(game: CashGame) -> CashSettings:
    """The room's settings with the game's own values (seats, rake, maximum buy-in)."""
    return replace(
        room_settings(),
        max_seats=game.max_seats,
        rake_percent=float(game.rake_percent),
        rake_cap=game.rake_cap,
        max_buy_in=game.max_buy_in,
    )


def call_status(entry: WaitEntry, now: datetime) -> waitlist.CallStatus | None:
    """Where the entry's call stands at `now` (its window and deadline), or None uncalled."""
    if entry.called_at is None:
        return None
    coming_at = (entry.coming_at or entry.called_at) if entry.coming else None
    return waitlist.call_status(
        called_at=entry.called_at, coming_at=coming_at, now=now, settings=game_settings(entry.game)
    )


def next_rake_hand(table: CashTable) -> int:
    """The hand a rake form drawn now is for: the table's next one to rake."""
    return (table.rake.aggregate(m=Max("hand"))["m"] or 0) + 1

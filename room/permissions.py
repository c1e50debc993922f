"""The scopes of the room's own rows: what the cash room adds to who may reach a player,
a cash game, a cash table's tablet. The roles themselves, and every scope the events
share, are `tournaments.permissions`' (one module for who holds what); this module only
widens or narrows them by the room's rows, which the events never see."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from room.models import CashGame, CashOut, CashSeat, League, WaitEntry
from tournaments import permissions
from tournaments.models import (
    Entry,
    Player,
    Role,
    RoomRole,
    StaffAssignment,
    Tournament,
)


def _in_cash_room() -> Q:
    return Q(
        Exists(WaitEntry.objects.filter(player=OuterRef("pk")))
        | Exists(CashSeat.objects.filter(player=OuterRef("pk")))
        | Exists(CashOut.objects.filter(player=OuterRef("pk")))
    )


def players_for(user: Any, roles: frozenset[str] = permissions.TD) -> QuerySet[Player]:
    """The players the user reaches through his events (`tournaments.permissions`), and,
    when he works the cash room, those the cash room holds (a list, a seat, a cash-out)."""
    works_cash = RoomRole.CASH in permissions.room_roles_for(user)
    return permissions.players_for(user, roles, beside=_in_cash_room() if works_cash else None)


def player_for(user: Any, player_id: int) -> Player:
    """One player of `players_for`; 404 otherwise, as for one who does not exist."""
    player = players_for(user).filter(pk=player_id).first()
    if player is None:
        raise Http404
    return player


def may_reach_everything_of(user: Any, player: Player) -> bool:
    """Whether the user runs every event holding `player` and, when the cash room holds
    him, works the cash room: what a merge or an erasure of him needs."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    held = permissions.room_roles_for(user)
    if RoomRole.MANAGER in held:
        return True
    mine = set(
        StaffAssignment.objects.filter(user=user, role=Role.TD).values_list(
            "tournament_id", flat=True
        )
    )
    theirs = set(Entry.objects.filter(player=player).values_list("tournament_id", flat=True))
    if not theirs <= mine:
        return False
    in_cash = Player.objects.filter(pk=player.pk).filter(_in_cash_room()).exists()
    return not in_cash or RoomRole.CASH in held


def cash_game_for(user: Any, game_id: int) -> CashGame:
    """A game of the cash room, for one who holds a cash-room role (else 404, as for a
    game that is not the room's)."""
    if not permissions.room_roles_for(user) & permissions.CASH:
        raise Http404
    game = CashGame.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404
    return game


def require_cash_tablet(user: Any, session: Any, table_pk: int) -> None:
    """A cash table's tablet and what it posts: the cash-room floor (by password), or a
    dealer whose PIN unlocked this very table. PermissionDenied otherwise."""
    if not permissions.is_pin_session(session):
        permissions.require_room_role(user, permissions.CASH)
        return
    if not permissions.pin_reaches(session, kind="cash", pk=table_pk):
        raise PermissionDenied
    if permissions.runs_events_or_room(user):
        raise PermissionDenied
    permissions.require_room_role(user, permissions.DEALER)


def leagues_for(user: Any) -> QuerySet[League]:
    """The leagues the user may read and change: every league for the room's manager; for
    a TD, the leagues that hold at least one event and whose every event he runs."""
    if user is None or not user.is_authenticated or not user.is_active:
        return League.objects.none()
    if permissions.is_manager(user):
        return League.objects.all()
    mine = StaffAssignment.objects.filter(user=user, role=Role.TD).values("tournament")
    foreign = Tournament.objects.filter(leagues=OuterRef("pk")).exclude(pk__in=mine)
    return League.objects.filter(events__in=mine).exclude(Exists(foreign)).distinct()


def league_for(user: Any, league_id: int) -> League:
    league = leagues_for(user).filter(pk=league_id).first()
    if league is None:
        raise Http404
    return league

"""Who may reach what in the room: the one place that resolves a user's scopes outside
an event (an event's own roles are `tournaments.permissions`).

- The room, through room roles (`RoomRole`): the manager runs the room (accounts, room
  roles, leagues, events); the books role keeps the night's books; the cash-room floor
  runs the cash games; the pit supervisor the pit; a dealer only his table's tablet. A
  superuser holds every role but the dealer's. `is_staff` holds none, and a TD of an
  event holds none by being one.
- A player, through what holds him: the events the user works (an entry in one), the
  cash room (a list, a seat, a cash-out) for the cash-room floor, everyone for the
  manager.
- A league, through its events: the manager's are all; a TD's are those whose every
  event he runs.
- A tablet unlocked by PIN: the session reaches that one table's tablet and nothing else
  (`pin_table`, enforced for every address by config.middleware.TabletOnly). Only an
  account that runs no event and not the room unlocks one (`runs_events_or_room`).

Views, consumers and services ask here; no view looks a room-level row up by id alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Model, OuterRef, Q, QuerySet
from django.http import Http404

from tables.models import CashGame, CashOut, CashSeat, RoomRole, RoomStaff, WaitEntry
from tournaments.models import Entry, League, Player, Role, StaffAssignment, Tournament

M = TypeVar("M", bound=Model)

MANAGER = frozenset({RoomRole.MANAGER})
BOOKS = frozenset({RoomRole.MANAGER, RoomRole.BOOKS})
CASH = frozenset({RoomRole.MANAGER, RoomRole.CASH})
# The rake report: the cash-room floor that records it and the books that count it.
RAKE = frozenset({RoomRole.MANAGER, RoomRole.CASH, RoomRole.BOOKS})
PIT = frozenset({RoomRole.MANAGER, RoomRole.PIT})
DEALER = frozenset({RoomRole.DEALER})
ANY_ROOM_ROLE = frozenset(RoomRole.values)

_SUPERUSER_ROLES = frozenset(RoomRole.values) - {RoomRole.DEALER}


def _active(user: Any) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def room_roles_for(user: Any) -> frozenset[str]:
    """Every room role the user holds now. Read fresh on every call: a socket asks on
    every message, so a role taken away takes effect at once."""
    if not _active(user):
        return frozenset()
    if user.is_superuser:
        return _SUPERUSER_ROLES
    return frozenset(RoomStaff.objects.filter(user=user).values_list("role", flat=True))


def has_room_role(user: Any, roles: frozenset[str]) -> bool:
    return not room_roles_for(user).isdisjoint(roles)


def require_room_role(user: Any, roles: frozenset[str]) -> frozenset[str]:
    """The user's room roles if one of them is in `roles`; PermissionDenied otherwise."""
    held = room_roles_for(user)
    if held.isdisjoint(roles):
        raise PermissionDenied
    return held


def is_manager(user: Any) -> bool:
    return has_room_role(user, MANAGER)


def runs_events_or_room(user: Any) -> bool:
    """A superuser, the room's manager or the TD of any event: such an account logs in
    with its password only, never holds a tablet's PIN nor a dealer's role."""
    if user is None or not user.is_authenticated:
        return False
    return bool(
        user.is_superuser
        or RoomStaff.objects.filter(user=user, role=RoomRole.MANAGER).exists()
        or StaffAssignment.objects.filter(user=user, role=Role.TD).exists()
    )


def may_create_events(user: Any) -> bool:
    """Events are the room's: its manager creates (and imports) them."""
    return is_manager(user)


def room_object(queryset: QuerySet[M], user: Any, roles: frozenset[str], **lookup: Any) -> M:
    """A row of the room's own (a cash game, a seat, a list entry, a log row) for a user
    holding one of `roles` over the room: 403 without the role, 404 when there is no such
    row."""
    require_room_role(user, roles)
    found = queryset.filter(**lookup).first()
    if found is None:
        raise Http404
    return found


# Who deals a cash hand on the rake's record: the room's dealers, and the cash-room floor
# that deals when short of dealers.
DEALS_CASH = frozenset({RoomRole.DEALER, RoomRole.CASH})


def staff_holding(roles: frozenset[str]) -> QuerySet[Any]:
    """The active accounts holding one of the room roles `roles`, by name: the choice a
    form offers when it asks for a person of the staff (a dealer), never a typed name."""
    held = RoomStaff.objects.filter(user=OuterRef("pk"), role__in=list(roles))
    return (
        get_user_model()
        .objects.filter(Exists(held), is_active=True)
        .order_by("first_name", "last_name", "username")
    )


# --- events ----------------------------------------------------------------------------


def events_for(user: Any, roles: frozenset[str]) -> QuerySet[Tournament]:
    """The events in which the user holds one of the event roles `roles` (all of them for
    the room's manager when `roles` includes the TD's)."""
    if not _active(user):
        return Tournament.objects.none()
    if Role.TD in roles and is_manager(user):
        return Tournament.objects.all()
    held = StaffAssignment.objects.filter(user=user, role__in=list(roles)).values("tournament")
    return Tournament.objects.filter(pk__in=held)


# --- players ---------------------------------------------------------------------------


def _in_cash_room() -> Q:
    return Q(
        Exists(WaitEntry.objects.filter(player=OuterRef("pk")))
        | Exists(CashSeat.objects.filter(player=OuterRef("pk")))
        | Exists(CashOut.objects.filter(player=OuterRef("pk")))
    )


def players_for(
    user: Any, roles: frozenset[str] = frozenset({Role.TD}), *, cash: bool = False
) -> QuerySet[Player]:
    """The players the user may reach: those with an entry in an event where he holds one
    of `roles`; with `cash`, also those the cash room holds when he works it; every player
    for the room's manager. Merged-away records are never reached."""
    players = Player.objects.filter(merged_into__isnull=True)
    if not _active(user):
        return players.none()
    held = room_roles_for(user)
    if RoomRole.MANAGER in held:
        return players
    events = StaffAssignment.objects.filter(user=user, role__in=list(roles)).values("tournament")
    reach = Q(Exists(Entry.objects.filter(player=OuterRef("pk"), tournament__in=events)))
    if cash and RoomRole.CASH in held:
        reach |= _in_cash_room()
    return players.filter(reach)


def player_for(
    user: Any,
    player_id: int,
    roles: frozenset[str] = frozenset({Role.TD}),
    *,
    cash: bool = False,
) -> Player:
    """One player the user may reach (`players_for`); 404 otherwise, whether the player
    does not exist or belongs to events the user does not work: ids tell nothing."""
    player = players_for(user, roles, cash=cash).filter(pk=player_id).first()
    if player is None:
        raise Http404
    return player


def desk_player_for(
    user: Any, player_id: int, roles: frozenset[str], *, shown: Iterable[int] = ()
) -> Player:
    """A player the desk may register or check: one with an entry in an event where the
    user holds one of `roles` (`players_for`), or one the user's own desk search showed him
    lately (`shown`, the ids the desk kept: a returning player found by his exact
    document number). 404 otherwise: walking ids finds nobody."""
    if player_id in set(shown):
        player = Player.objects.filter(pk=player_id, merged_into__isnull=True).first()
        if player is not None and _active(user):
            return player
    return player_for(user, player_id, roles)


def may_see_people(user: Any) -> bool:
    """The room's players page: the manager, and the TD of an event (his events' players)."""
    if not _active(user):
        return False
    return is_manager(user) or StaffAssignment.objects.filter(user=user, role=Role.TD).exists()


def may_reach_everything_of(user: Any, player: Player) -> bool:
    """Whether the user runs every event holding `player` and, when the cash room holds
    him, works the cash room: what a merge or an erasure of him needs."""
    if not _active(user):
        return False
    held = room_roles_for(user)
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


# --- leagues ---------------------------------------------------------------------------


def leagues_for(user: Any) -> QuerySet[League]:
    """The leagues the user may read and change: every league for the room's manager; for
    a TD, the leagues that hold at least one event and whose every event he runs."""
    if not _active(user):
        return League.objects.none()
    if is_manager(user):
        return League.objects.all()
    mine = StaffAssignment.objects.filter(user=user, role=Role.TD).values("tournament")
    foreign = Tournament.objects.filter(leagues=OuterRef("pk")).exclude(pk__in=mine)
    return League.objects.filter(events__in=mine).exclude(Exists(foreign)).distinct()


def league_for(user: Any, league_id: int) -> League:
    league = leagues_for(user).filter(pk=league_id).first()
    if league is None:
        raise Http404
    return league


def cash_game_for(user: Any, game_id: int) -> CashGame:
    """A game of the cash room, for one who holds a cash-room role (else 404, as for a
    game that is not the room's)."""
    if not room_roles_for(user) & CASH:
        raise Http404
    game = CashGame.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404
    return game


def may_run_leagues(user: Any) -> bool:
    return is_manager(user) or (
        _active(user) and StaffAssignment.objects.filter(user=user, role=Role.TD).exists()
    )


# --- a tablet unlocked by PIN ----------------------------------------------------------

# The session key that marks a login made by a PIN: {"kind": "tournament", "slug": ...,
# "number": ...} or {"kind": "cash", "pk": ...}, and "until" (a POSIX timestamp: the end
# of the shift).
PIN_TABLE = "pin_table"


def pin_table(session: Any) -> dict[str, Any] | None:
    """The table a PIN unlocked for this session, or None for a password's login."""
    value = session.get(PIN_TABLE) if session is not None else None
    return value if isinstance(value, dict) else None


def is_pin_session(session: Any) -> bool:
    return pin_table(session) is not None


def pin_reaches(session: Any, *, kind: str, slug: str = "", number: int = 0, pk: int = 0) -> bool:
    """Whether the session's PIN unlocked this table (a tournament's by slug and number, a
    cash table by key)."""
    pin = pin_table(session)
    if pin is None or pin.get("kind") != kind:
        return False
    if kind == "cash":
        return pin.get("pk") == pk
    return pin.get("slug") == slug and pin.get("number") == number


def require_cash_tablet(user: Any, session: Any, table_pk: int) -> None:
    """A cash table's tablet and what it posts: the cash-room floor (by password), or a
    dealer whose PIN unlocked this very table. PermissionDenied otherwise."""
    if not is_pin_session(session):
        require_room_role(user, CASH)
        return
    if not pin_reaches(session, kind="cash", pk=table_pk) or runs_events_or_room(user):
        raise PermissionDenied
    require_room_role(user, DEALER)

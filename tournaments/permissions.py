"""Who may do what: the one module that resolves a user's scopes (tournament.md §4
"Suggested app permissions").

- An event, through its roles: TD, floor, desk (staff assignments per tournament), display
  (a screen's secret token), public (anyone).
- The room, through room roles (`RoomRole`): the manager runs the room (accounts, room
  roles, leagues, events) and is the TD of every event; the books role keeps the night's
  books; the cash-room floor runs the cash games; the pit supervisor the pit; a dealer
  only his table's tablet. A superuser holds every role but the dealer's. `is_staff`
  holds none, and a TD of an event holds none by being one.
- A player, through the events the user works (an entry in one), everyone for the
  manager; the cash room's reach is added by `room.permissions`, which holds the scopes of
  the room's own rows.
- A league, through its events: the manager's are all; a TD's are those whose every
  event he runs.
- A tablet unlocked by PIN: the session reaches that one table's tablet and nothing else
  (`pin_table`, enforced for every address by config.middleware.TabletOnly). Only an
  account that runs no event and not the room unlocks one (`runs_events_or_room`).

Views, consumers and services fetch through these helpers and never look a row up by id
alone on a user's say-so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Model, OuterRef, Q, QuerySet, Subquery
from django.http import Http404

from config.speedups.prepared import NO_ID, NO_TEXT, Prepared
from tournaments.models import (
    DisplayScreen,
    Entry,
    Player,
    Role,
    RoomRole,
    RoomStaff,
    StaffAssignment,
    Tournament,
)

TD = frozenset({Role.TD})
FLOOR = frozenset({Role.TD, Role.FLOOR})
DESK = frozenset({Role.TD, Role.DESK})
STAFF = frozenset({Role.TD, Role.FLOOR, Role.DESK})


def role_for(user, tournament: Tournament) -> str | None:
    """The user's role in this tournament, or None."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.TD
    cache = getattr(user, "_torneo_roles", None)
    if cache is None:
        cache = {}
        user._torneo_roles = cache
    if tournament.pk not in cache:
        found = _ROLE.rows(tournament_id=tournament.pk, user_id=user.pk)
        cache[tournament.pk] = found[0][0] if found else _manager_role(user)
    return cache[tournament.pk]


def _manager_role(user) -> str | None:
    """The room's manager runs every event as its TD; asked only of a user who holds no
    role in the event (the refusal's path), so a page of an event's own staff costs no
    more."""
    return Role.TD if is_manager(user) else None


# A role, and an account still active, compiled once (config/speedups/prepared.py): a staff
# socket asks both again for every command it sends.
_ROLE = Prepared(
    lambda tournament_id, user_id: (
        StaffAssignment.objects.filter(tournament_id=tournament_id, user_id=user_id)
        .order_by("pk")
        .values_list("role")[:1]
    ),
    tournament_id=NO_ID,
    user_id=-1_000_039,
)
_ACTIVE_USER = Prepared(
    lambda pk: get_user_model().objects.filter(pk=pk, is_active=True).order_by("pk")[:1],
    pk=NO_ID,
)


def active_user(pk: int):
    """The account as the database holds it now, or None once it is gone or disabled."""
    return _ACTIVE_USER.first(pk=pk)


# The tournament by its slug, with the user's role in it: one query for both on every
# staff page, compiled once (config/speedups/prepared.py). The stand-ins are no slug and no
# user id.
_STAFF_TOURNAMENT = Prepared(
    lambda slug, user_id: (
        Tournament.objects.filter(slug=slug)
        .annotate(
            user_role=Subquery(
                StaffAssignment.objects.filter(tournament=OuterRef("pk"), user_id=user_id).values(
                    "role"
                )[:1]
            )
        )
        .order_by("pk")[:1]
    ),
    slug=NO_TEXT,
    user_id=NO_ID,
)
_TOURNAMENT = Prepared(
    lambda slug: Tournament.objects.filter(slug=slug).order_by("pk")[:1], slug=NO_TEXT
)


def get_tournament_for(user, slug: str, *, roles: frozenset[str]) -> Tournament:
    """Return the tournament if the user holds one of `roles` in it; 404 if it does not
    exist, 403 if the user may not act (anonymous users are sent to log in by the view)."""
    known = user is not None and user.is_authenticated
    staff = known and not user.is_superuser
    # One read for everyone logged in (a superuser's role it brings is not used).
    if known:
        tournament = _STAFF_TOURNAMENT.first(slug=slug, user_id=user.pk)
    else:
        tournament = _TOURNAMENT.first(slug=slug)
    if tournament is None:
        raise Http404
    if staff:
        cache = getattr(user, "_torneo_roles", None)
        if cache is None:
            cache = user._torneo_roles = {}
        cache[tournament.pk] = tournament.user_role or _manager_role(user)
    if role_for(user, tournament) not in roles:
        raise PermissionDenied
    return tournament


def get_public_tournament(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404
    return tournament


def get_screen(token: str) -> DisplayScreen:
    """A display screen by its token; revoked or unknown tokens are 404."""
    screen = (
        DisplayScreen.objects.select_related("tournament")
        .filter(token=token, revoked=False)
        .first()
    )
    if screen is None:
        raise Http404
    return screen


def can_create_tournaments(user) -> bool:
    """Events are the room's: its manager creates and imports them (`is_staff` grants
    nothing)."""
    return may_create_events(user)


def may_hold_tablet(user, tournament: Tournament) -> bool:
    """Who may hold a table's dealer tablet by PIN: the event's floor or a dealer of the
    room, never one who runs an event or the room (they log in with their password)."""
    if runs_events_or_room(user):
        return False
    return role_for(user, tournament) == Role.FLOOR or has_room_role(user, DEALER)


def get_tablet_tournament(user, session, slug: str, number: int) -> Tournament:
    """The tournament of table `number`'s dealer tablet: the floor's and the TD's by their
    role (`get_tournament_for`); for a session unlocked by PIN, only the table it
    unlocked, while its account may still hold it (403 otherwise)."""
    if not is_pin_session(session):
        return get_tournament_for(user, slug, roles=FLOOR)
    if not pin_reaches(session, kind="tournament", slug=slug, number=number):
        raise PermissionDenied
    tournament = get_public_tournament(slug)
    if not may_hold_tablet(user, tournament):
        raise PermissionDenied
    return tournament


# --- the room's roles ------------------------------------------------------------------

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


def players_for(
    user: Any, roles: frozenset[str] = frozenset({Role.TD}), *, beside: Q | None = None
) -> QuerySet[Player]:
    """The players the user may reach: those with an entry in an event where he holds one
    of `roles`, and those `beside` names (the cash room's reach, `room.permissions`);
    every player for the room's manager. Merged-away records are never reached."""
    players = Player.objects.filter(merged_into__isnull=True)
    if not _active(user):
        return players.none()
    if RoomRole.MANAGER in room_roles_for(user):
        return players
    events = StaffAssignment.objects.filter(user=user, role__in=list(roles)).values("tournament")
    reach = Q(Exists(Entry.objects.filter(player=OuterRef("pk"), tournament__in=events)))
    return players.filter(reach | beside if beside is not None else reach)


def player_for(
    user: Any,
    player_id: int,
    roles: frozenset[str] = frozenset({Role.TD}),
) -> Player:
    """One player the user may reach (`players_for`); 404 otherwise, whether the player
    does not exist or belongs to events the user does not work: ids tell nothing."""
    player = players_for(user, roles).filter(pk=player_id).first()
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


# --- leagues ---------------------------------------------------------------------------


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

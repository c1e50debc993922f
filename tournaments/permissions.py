"""Who may do what (tournament.md §4 "Suggested app permissions").

Roles: TD, floor, desk (staff assignments per tournament), display (a screen's secret
token), public (anyone). Views and consumers fetch through these helpers and never call
`objects.get` on a user's say-so.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404

from tables import permissions as room_permissions
from tournaments.models import DisplayScreen, Role, StaffAssignment, Tournament
from tournaments.prepared import NO_ID, NO_TEXT, Prepared

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
    return Role.TD if room_permissions.is_manager(user) else None


# A role, and an account still active, compiled once (tournaments/prepared.py): a staff
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
# staff page, compiled once (tournaments/prepared.py). The stand-ins are no slug and no
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
    # One read for everyone logged in (a superuser's role it brings is not used): the
    # one the login's trip brings ahead (`page_reads`).
    if known:
        tournament = _STAFF_TOURNAMENT.first(slug=slug, user_id=user.pk)
    else:
        tournament = _TOURNAMENT.first(slug=slug)
    if tournament is None:
        raise Http404
    if len(_PK_OF) >= _PK_OF_MAX:
        _PK_OF.clear()
    _PK_OF[slug] = tournament.pk
    if staff:
        cache = getattr(user, "_torneo_roles", None)
        if cache is None:
            cache = user._torneo_roles = {}
        cache[tournament.pk] = tournament.user_role or _manager_role(user)
    if role_for(user, tournament) not in roles:
        raise PermissionDenied
    return tournament


# Slug -> key of the tournaments this process has served to staff: a page that names an
# entry by its number reads it ahead by that key (`page_reads`). Emptied when it grows
# past _PK_OF_MAX: a guess forgotten or wrong costs its usual trip, never a wrong answer.
_PK_OF: dict[str, int] = {}
_PK_OF_MAX = 10_000


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
    return room_permissions.may_create_events(user)


def may_hold_tablet(user, tournament: Tournament) -> bool:
    """Who may hold a table's dealer tablet by PIN: the event's floor or a dealer of the
    room, never one who runs an event or the room (they log in with their password)."""
    if room_permissions.runs_events_or_room(user):
        return False
    return role_for(user, tournament) == Role.FLOOR or room_permissions.has_room_role(
        user, room_permissions.DEALER
    )


def get_tablet_tournament(user, session, slug: str, number: int) -> Tournament:
    """The tournament of table `number`'s dealer tablet: the floor's and the TD's by their
    role (`get_tournament_for`); for a session unlocked by PIN, only the table it
    unlocked, while its account may still hold it (403 otherwise)."""
    if not room_permissions.is_pin_session(session):
        return get_tournament_for(user, slug, roles=FLOOR)
    if not room_permissions.pin_reaches(session, kind="tournament", slug=slug, number=number):
        raise PermissionDenied
    tournament = get_public_tournament(slug)
    if not may_hold_tablet(user, tournament):
        raise PermissionDenied
    return tournament

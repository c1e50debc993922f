"""What is read of reservations: the desk's finder, a confirmation, the lobby's counts."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, Q, QuerySet

from tournaments.models import Reservation, Tournament

OPEN = (Reservation.Status.HELD, Reservation.Status.WAITING)
CODE_LENGTH = 8


def normalised_code(text: str) -> str:
    """A code as typed or scanned (any case, spaces or dashes), or the last part of the
    confirmation page's address a scanner types."""
    text = text.strip().rstrip("/").rsplit("/", 1)[-1]
    return "".join(c for c in text.upper() if c.isalnum())[:CODE_LENGTH]


def by_code(tournament: Tournament, code: str) -> Reservation | None:
    code = normalised_code(code)
    if len(code) != CODE_LENGTH:
        return None
    return Reservation.objects.filter(tournament=tournament, code=code).first()


def waiting_position(reservation: Reservation) -> int | None:
    """His place on the waiting list (1 = next), or None when he is not waiting."""
    if reservation.status != Reservation.Status.WAITING:
        return None
    ahead = Reservation.objects.filter(
        tournament_id=reservation.tournament_id, status=Reservation.Status.WAITING
    ).filter(
        Q(created_at__lt=reservation.created_at)
        | Q(created_at=reservation.created_at, pk__lt=reservation.pk)
    )
    return ahead.count() + 1


def desk_find(tournament: Tournament, query: str) -> QuerySet[Reservation]:
    """The desk's finder: a code (typed, or the confirmation's QR scanned) finds its
    reservation whatever its state; words find the open reservations by name; nothing
    typed lists every open one."""
    mine = Reservation.objects.filter(tournament=tournament).select_related("player", "entry")
    query = query.strip()
    if not query:
        return mine.filter(status__in=OPEN)
    code = normalised_code(query)
    if len(code) == CODE_LENGTH:
        exact = mine.filter(code=code)
        if exact.exists():
            return exact
    words = query.split()
    found = mine.filter(status__in=OPEN)
    for word in words[:4]:
        found = found.filter(Q(last_name__icontains=word) | Q(first_name__icontains=word))
    return found


def counts(tournaments: Iterable[Tournament]) -> dict[int, tuple[int, int]]:
    """Per event: the seats held by reservations and the names waiting."""
    rows = (
        Reservation.objects.filter(tournament__in=list(tournaments), status__in=OPEN)
        .values("tournament")
        .annotate(
            held=Count("id", filter=Q(status=Reservation.Status.HELD)),
            waiting=Count("id", filter=Q(status=Reservation.Status.WAITING)),
        )
    )
    return {row["tournament"]: (row["held"], row["waiting"]) for row in rows}

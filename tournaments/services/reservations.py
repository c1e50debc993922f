"""Reservations: a seat reserved from the public event page (or the kiosk), the waiting
list when the event's reservable seats are taken, a cancellation that promotes the next
name, and the desk turning a reservation into a paid entry through the registration.

Releasing the seats still held at the hold level, and the no-shows, are `holds.py`.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.errors import CannotUndo, DomainError
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import Event, Player, Reservation, Tournament
from tournaments.rules import clock
from tournaments.selectors.reservations import CODE_LENGTH
from tournaments.services import entries, holds, locks

# No letters or digits a player misreads (O/0, I/1, S/5, B/8, Z/2).
CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"
# Held and arrived reservations take the event's reservable seats; the rest wait.
TAKING_A_SEAT = (Reservation.Status.HELD, Reservation.Status.ARRIVED)


def _code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _clean(value: str, limit: int) -> str:
    return " ".join(str(value).split())[:limit]


def _taken(tournament: Tournament) -> int:
    return Reservation.objects.filter(tournament=tournament, status__in=TAKING_A_SEAT).count()


def _open_for_reservations(tournament: Tournament, now: datetime) -> None:
    if not tournament.reservations_open or tournament.reservable_seats == 0:
        raise DomainError(_("This event takes no reservations."))
    if tournament.status == Tournament.Status.FINISHED:
        raise DomainError(_("This event is over."))
    view = selectors.clock_view_for(tournament, now)
    live = view is not None and view.status in (clock.ClockStatus.RUNNING, clock.ClockStatus.PAUSED)
    reached = view is not None and (view.level_number or 0) >= tournament.reservation_hold_level
    if live and reached:
        raise DomainError(_("Reservations are closed: the event has reached its hold level."))


@transaction.atomic
def reservation_make(
    *,
    tournament: Tournament,
    first_name: str = "",
    last_name: str = "",
    phone: str = "",
    email: str = "",
    accepted_terms: bool,
    language: str = "",
    player: Player | None = None,
    actor=None,
    now: datetime,
) -> Reservation:
    """Reserve a seat: held while the event's reservable seats last, on the waiting list
    after. A player the room knows (the kiosk) reserves under his record; anyone else gives
    his name and a phone or an e-mail, and accepts the terms (which say how his contact is
    kept). One outstanding reservation per contact or player and event."""
    tournament = locks.tournament_for_update(tournament)
    if not accepted_terms:
        raise DomainError(_("Accept the terms to reserve a seat."))
    _open_for_reservations(tournament, now)
    if player is not None:
        first_name, last_name = player.first_name, player.last_name
        phone = player.phone if player.contact_consent else ""
        email = player.email if player.contact_consent else ""
    first_name, last_name = _clean(first_name, 60), _clean(last_name, 60)
    phone, email = _clean(phone, 40), _clean(email, 120).lower()
    if not first_name or not last_name:
        raise DomainError(_("Write your first and last name."))
    if player is None and not (phone or email):
        raise DomainError(_("Write a phone number or an e-mail address to reach you."))
    if phone and len(holds.contact_key(phone).lstrip("+")) < 6:
        raise DomainError(_("Write the phone number in full."))
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise DomainError(_("Write a valid e-mail address.")) from None
    outstanding = Reservation.objects.filter(tournament=tournament, status__in=holds.OUTSTANDING)
    same = outstanding.filter(player=player) if player is not None else outstanding.none()
    if email:
        same = same | outstanding.filter(email__iexact=email)
    if same.exists() or (
        phone
        and any(
            holds.contact_key(p) == holds.contact_key(phone)
            for p in outstanding.exclude(phone="").values_list("phone", flat=True)
        )
    ):
        raise DomainError(_("A reservation for this event already holds this name or contact."))
    status = (
        Reservation.Status.HELD
        if _taken(tournament) < tournament.reservable_seats
        else Reservation.Status.WAITING
    )
    for _attempt in range(5):
        try:
            with transaction.atomic():
                reservation = Reservation.objects.create(
                    tournament=tournament,
                    player=player,
                    code=_code(),
                    first_name=first_name,
                    last_name=last_name,
                    phone=phone,
                    email=email,
                    terms_accepted_at=now,
                    language=language[:8],
                    status=status,
                    created_at=now,
                )
            break
        except IntegrityError:  # a code drawn twice (one in hundreds of billions): draw again
            continue
    else:
        raise DomainError(_("Try again in a moment."))
    event_log(
        tournament=tournament,
        actor=actor,
        action="reservation.make",
        data={"reservation": reservation.pk, "status": status, "promoted": []},
        now=now,
        undoable=False,
    )
    return reservation


def _promote(tournament: Tournament) -> list[int]:
    """The waiting list moves up, in order, into the seats a cancellation freed."""
    free = tournament.reservable_seats - _taken(tournament)
    if free <= 0:
        return []
    waiting = Reservation.objects.filter(
        tournament=tournament, status=Reservation.Status.WAITING
    ).order_by("created_at", "id")[:free]
    ids = [r.pk for r in waiting]
    Reservation.objects.filter(pk__in=ids).update(status=Reservation.Status.HELD)
    return ids


@transaction.atomic
def reservation_cancel(
    *, tournament: Tournament, reservation: Reservation, actor=None, now: datetime
) -> list[int]:
    """Cancel a held or waiting reservation (the player's own page, or the desk); a held
    seat goes to the first on the waiting list. Returns the reservations promoted."""
    tournament = locks.tournament_for_update(tournament)
    reservation = (
        Reservation.objects.select_for_update(of=("self",))
        .filter(pk=reservation.pk, tournament=tournament)
        .first()
    )
    if reservation is None or reservation.status not in holds.OUTSTANDING:
        raise DomainError(_("This reservation is no longer open."))
    reservation.status, reservation.ended_at = Reservation.Status.CANCELLED, now
    reservation.save(update_fields=["status", "ended_at"])
    promoted = _promote(tournament)
    event_log(
        tournament=tournament,
        actor=actor,
        action="reservation.cancel",
        data={"reservation": reservation.pk, "promoted": promoted},
        now=now,
        undoable=False,
    )
    return promoted


@transaction.atomic
def reservation_arrive(
    *,
    tournament: Tournament,
    reservation: Reservation,
    actor,
    now: datetime,
    payment_method: str = "cash",
) -> entries.Registration:
    """The player arrived: his reservation becomes a paid entry with its seat drawn, in
    one action. His record is found (the same last name and contact) or made from the
    reservation, and the entry is sold by the registration itself, so the money, the
    books and the draw are those of any entry."""
    tournament = locks.tournament_for_update(tournament)
    reservation = (
        Reservation.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=reservation.pk, tournament=tournament)
        .first()
    )
    if reservation is None:
        raise DomainError(_("This reservation is no longer open."))
    if reservation.status == Reservation.Status.ARRIVED:
        raise DomainError(_("This reservation is already registered."))
    if reservation.status not in holds.OUTSTANDING:
        raise DomainError(
            _("This reservation was %(status)s: register the player at the desk."),
            status=reservation.get_status_display().lower(),
        )
    reservation.tournament = tournament
    player = holds.player_for(reservation, now)
    registration = entries.entry_register(
        tournament=tournament,
        player=player,
        actor=actor,
        now=now,
        payment_method=payment_method,
        redeem_ticket=True,
    )
    before = reservation.status
    reservation.player, reservation.entry = player, registration.entry
    reservation.status, reservation.ended_at = Reservation.Status.ARRIVED, now
    reservation.save(update_fields=["player", "entry", "status", "ended_at"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="reservation.arrive",
        data={
            "reservation": reservation.pk,
            "entry": registration.entry.pk,
            "player": player.pk,
            "before": before,
        },
        now=now,
    )
    return registration


@undoes("reservation.arrive")
def _undo_arrive(event: Event, actor: Any, now: datetime) -> None:
    """The reservation is open again; the entry stays until its registration is undone
    (which the log asks for next)."""
    reservation = scoped(Reservation, event).filter(pk=logged_id(event, "reservation")).first()
    before = event.data.get("before")
    if reservation is None or before not in holds.OUTSTANDING:
        raise CannotUndo(reason=_("its log row is damaged"))
    if reservation.entry_id != logged_id(event, "entry"):
        raise CannotUndo(reason=_("the reservation changed since"))
    reservation.status, reservation.entry, reservation.ended_at = before, None, None
    reservation.save(update_fields=["status", "entry", "ended_at"])

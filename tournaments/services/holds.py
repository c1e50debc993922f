"""Reserved seats held until a level, then released (the clock's level change calls
`release_due`), and the no-shows that flag a player by the room's no-show rule (set in
`room.services.no_shows`).

Apart from `reservations.py` because the clock's services call it: it imports nothing of
the registration (which itself reads the clock).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import CannotUndo
from tournaments.events import event_log, logged_ids, scoped, undoes
from tournaments.models import Event, Player, Reservation, ReservationRules, Tournament

OUTSTANDING = (Reservation.Status.HELD, Reservation.Status.WAITING)


def rules() -> ReservationRules:
    """The room's no-show rule: its row, or the unsaved defaults (3 within 60 days)."""
    row = ReservationRules.objects.order_by("pk").first()
    return row if row is not None else ReservationRules()


def contact_key(phone: str) -> str:
    """A phone number as compared: its digits and a leading plus."""
    phone = phone.strip()
    return ("+" if phone.startswith("+") else "") + "".join(c for c in phone if c.isdigit())


def matching_player(reservation: Reservation) -> Player | None:
    """The room's player a reservation names: the same last name with the same e-mail or
    phone (a contact alone does not open someone else's record)."""
    if reservation.player_id:
        return reservation.player
    found = Player.objects.filter(
        erased_at__isnull=True,
        merged_into__isnull=True,
        last_name__iexact=reservation.last_name.strip(),
    )
    if reservation.email:
        player = found.filter(email__iexact=reservation.email).order_by("pk").first()
        if player is not None:
            return player
    if reservation.phone:
        key = contact_key(reservation.phone)
        for player in found.exclude(phone="").order_by("pk"):
            if contact_key(player.phone) == key:
                return player
    return None


def player_for(reservation: Reservation, now: datetime) -> Player:
    """The reservation's player, found, or made from what he typed (never retyped): his
    contact kept with the consent he gave when he accepted the terms."""
    player = matching_player(reservation)
    if player is None:
        player = Player.objects.create(
            first_name=reservation.first_name.strip(),
            last_name=reservation.last_name.strip(),
            phone=reservation.phone,
            email=reservation.email,
            contact_consent=bool(reservation.phone or reservation.email),
            contact_consent_at=reservation.terms_accepted_at,
        )
        event_log(
            tournament=reservation.tournament,
            actor=None,
            action="player.create",
            data={"player": player.pk, "name": str(player)},
            now=now,
            undoable=False,
        )
    return player


def _flag_no_shows(players: set[int], now: datetime) -> list[int]:
    """Flag each of `players` whose no-shows reach the room's rule; the ids flagged."""
    rule = rules()
    since = now - timedelta(days=rule.no_show_days)
    flagged = []
    for player in Player.objects.filter(pk__in=players, no_shows_flagged_at__isnull=True):
        count = Reservation.objects.filter(player=player, no_show=True, ended_at__gte=since).count()
        if count >= rule.no_show_limit:
            player.no_shows_flagged_at = now
            player.save(update_fields=["no_shows_flagged_at"])
            flagged.append(player.pk)
    return flagged


def release_due(*, tournament: Tournament, level: int | None, now: datetime) -> int:
    """Release every reservation still outstanding once the hold level has begun: a held
    seat not taken is a no-show on the player's record; the waiting list lapses. Called
    inside the clock's transaction at each level change; returns how many it released."""
    if level is None or level < tournament.reservation_hold_level:
        return 0
    outstanding = list(
        Reservation.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, status__in=OUTSTANDING)
        .select_related("player", "tournament")
    )
    if not outstanding:
        return 0
    before = {str(r.pk): r.status for r in outstanding}
    made_players: list[int] = []
    no_shows: set[int] = set()
    for reservation in outstanding:
        if reservation.status == Reservation.Status.HELD:
            found = matching_player(reservation)
            player = found or player_for(reservation, now)
            if found is None:
                made_players.append(player.pk)
            reservation.player = player
            reservation.no_show = True
            no_shows.add(player.pk)
        reservation.status = Reservation.Status.RELEASED
        reservation.ended_at = now
        reservation.save(update_fields=["player", "no_show", "status", "ended_at"])
    flagged = _flag_no_shows(no_shows, now)
    event_log(
        tournament=tournament,
        actor=None,
        action="reservation.release",
        data={
            "level": level,
            "reservations": [r.pk for r in outstanding],
            "before": before,
            "flagged": flagged,
        },
        now=now,
    )
    return len(outstanding)


@undoes("reservation.release")
def _undo_release(event: Event, actor: Any, now: datetime) -> None:
    """The reservations held or waiting again, no no-show counted; the players this
    release flagged unflagged."""
    ids = logged_ids(event, "reservations")
    before = event.data.get("before") if isinstance(event.data, dict) else None
    if not isinstance(before, dict):
        raise CannotUndo(reason=_("its log row is damaged"))
    rows = scoped(Reservation, event).select_for_update().filter(pk__in=ids)
    for reservation in rows:
        if reservation.status != Reservation.Status.RELEASED:
            raise CannotUndo(reason=_("a reservation it released was taken up since"))
        status = before.get(str(reservation.pk))
        if status not in OUTSTANDING:
            raise CannotUndo(reason=_("its log row is damaged"))
        reservation.status, reservation.no_show, reservation.ended_at = status, False, None
        reservation.save(update_fields=["status", "no_show", "ended_at"])
    Player.objects.filter(pk__in=logged_ids(event, "flagged")).update(no_shows_flagged_at=None)

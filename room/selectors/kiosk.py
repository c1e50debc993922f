"""What a kiosk reads: the device by its link, the player it identified, his places on
the cash lists, the events he may reserve."""

from __future__ import annotations

from datetime import datetime

from django.core import signing
from django.http import Http404
from django.utils import timezone

from room.models import CashGame, Kiosk, WaitEntry
from tournaments.models import Player, Reservation, Tournament

VISIT_SALT = "room.kiosk.visit"
# A player's pages at a kiosk open for this long after he identified himself; the
# screen's own idle timer goes back to the start well before.
VISIT_SECONDS = 5 * 60


def kiosk_by_token(token: str) -> Kiosk:
    kiosk = Kiosk.objects.filter(token=token, revoked=False).first()
    if kiosk is None:
        raise Http404
    return kiosk


def player_by_card(card: str) -> Player | None:
    """The holder of exactly this card (the room's card is the player's document number)."""
    card = card.strip()
    if not card:
        return None
    found = list(
        Player.objects.filter(
            document_number__iexact=card, erased_at__isnull=True, merged_into__isnull=True
        )[:2]
    )
    return found[0] if len(found) == 1 else None


def visit_for(kiosk: Kiosk, player: Player) -> str:
    """The signed key of one player's visit at one kiosk (expires)."""
    return signing.dumps([kiosk.pk, player.pk], salt=VISIT_SALT, compress=True)


def visit_player(kiosk: Kiosk, visit: str) -> Player:
    """The player of a visit at this kiosk; 404 for a visit expired, forged or of another
    kiosk."""
    try:
        value = signing.loads(visit, salt=VISIT_SALT, max_age=VISIT_SECONDS)
    except signing.BadSignature:
        raise Http404 from None
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise Http404
    if value[0] != kiosk.pk:
        raise Http404
    player = Player.objects.filter(
        pk=value[1], erased_at__isnull=True, merged_into__isnull=True
    ).first()
    if player is None:
        raise Http404
    return player


def places(player: Player) -> list[dict]:
    rows = []
    for entry in WaitEntry.objects.filter(player=player).select_related("game"):
        ahead = WaitEntry.objects.filter(game=entry.game, position__lt=entry.position).count()
        rows.append({"entry": entry, "position": ahead + 1})
    return rows


def joinable_games(player: Player) -> list[CashGame]:
    listed = set(WaitEntry.objects.filter(player=player).values_list("game_id", flat=True))
    return [g for g in CashGame.objects.filter(active=True) if g.pk not in listed]


def reservable_events(player: Player, now: datetime) -> list[dict]:
    """Today's and coming events taking reservations, with his own reservation if any."""
    events = Tournament.objects.filter(
        reservations_open=True,
        reservable_seats__gt=0,
        date__gte=timezone.localdate(now),
    ).exclude(status=Tournament.Status.FINISHED)[:20]
    mine = {
        r.tournament_id: r
        for r in Reservation.objects.filter(
            player=player, status__in=(Reservation.Status.HELD, Reservation.Status.WAITING)
        )
    }
    return [{"tournament": t, "reservation": mine.get(t.pk)} for t in events]

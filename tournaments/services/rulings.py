"""Floor rulings saved with the hand the engine judged."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tables.engine import EngineError, Hand
from tables.ruling.citations import engine_error_message
from tournaments import errors, realtime
from tournaments.events import event_log, undoes
from tournaments.models import Ruling, Table, Tournament


@transaction.atomic
def ruling_save(
    *,
    tournament: Tournament,
    actor,
    hand: dict,
    names: dict[str, str],
    table_number: int | None,
    note: str,
    now: datetime,
) -> Ruling:
    """Save a floor ruling: the hand as the engine judged it and the floor's decision.

    The hand is replayed first, so only a hand the engine accepts step by step is stored.
    """

    try:
        replayed = Hand.from_dict(hand)
    except EngineError as exc:
        raise errors.InvalidHand(reason=engine_error_message(exc)) from None
    if (
        table_number is not None
        and not Table.objects.filter(tournament=tournament, number=table_number).exists()
    ):
        raise errors.DomainError(_("Table %(table)s does not exist."), table=table_number)
    ruling = Ruling.objects.create(
        tournament=tournament,
        table_number=table_number,
        hand=replayed.to_dict(),
        names=names,
        note=note.strip(),
        created_by=actor if actor is not None and actor.is_authenticated else None,
        created_at=now,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="ruling.save",
        data={
            "ruling": ruling.pk,
            "table": table_number,
            "steps": len(replayed.log),
            "note": ruling.note[:200],
        },
        now=now,
    )
    return ruling


@undoes("ruling.save")
def _undo_ruling_save(event, actor, now: datetime) -> None:
    Ruling.objects.filter(pk=event.data["ruling"], tournament_id=event.tournament_id).delete()


@transaction.atomic
def ruling_publish(
    *, tournament: Tournament, actor, ruling_id: int, published: bool, now: datetime
) -> Ruling:
    """Publish a saved hand as a featured hand of the event's live feed (`published`), or
    take it back out. Logged and undoable; the feed's followers are told after commit."""
    ruling = Ruling.objects.select_for_update().filter(pk=ruling_id, tournament=tournament).first()
    if ruling is None:
        raise errors.DomainError(_("This hand is not one of the event's rulings."))
    if published == (ruling.published_at is not None):
        if published:
            raise errors.DomainError(_("This hand is already published."))
        raise errors.DomainError(_("This hand is not published."))
    try:
        Hand.from_dict(ruling.hand)
    except EngineError as exc:
        raise errors.InvalidHand(reason=engine_error_message(exc)) from None
    before = ruling.published_at.isoformat() if ruling.published_at else None
    ruling.published_at = now if published else None
    ruling.save(update_fields=["published_at"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="ruling.publish" if published else "ruling.unpublish",
        data={"ruling": ruling.pk, "table": ruling.table_number, "before": before},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "featured_hand"}, tables=())
    return ruling


@undoes("ruling.publish")
@undoes("ruling.unpublish")
def _undo_ruling_publish(event, actor, now: datetime) -> None:
    before = event.data.get("before")
    Ruling.objects.filter(pk=event.data["ruling"], tournament_id=event.tournament_id).update(
        published_at=datetime.fromisoformat(before) if before else None
    )
    realtime.broadcast(event.tournament_id, {"type": "featured_hand"}, tables=())

"""Floor rulings saved with the hand the engine judged."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tables.engine import EngineError, Hand
from tables.models import Ruling, Table
from tables.ruling.citations import engine_error_message
from tournaments import errors
from tournaments.events import event_log, undoes
from tournaments.models import Tournament


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

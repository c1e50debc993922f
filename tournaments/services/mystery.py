"""Mystery bounties: the envelopes published with their commitment, each draw recorded
and undoable (tournaments.rules.bounties, formats.md)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import datetime
from random import Random
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import realtime
from tournaments.errors import CannotUndo, DomainError
from tournaments.events import event_log, undoes
from tournaments.models import BountyAward, Entry, Envelope, Event, Tournament
from tournaments.rules import bounties
from tournaments.selectors.formats import (
    bounty_pools,
    stage_trigger,
)
from tournaments.services import locks
from tournaments.services.bounties import (
    _already_awarded,
    _check_eliminated,
    _fresh,
    _table_for,
    _winner_entries,
)


@transaction.atomic
def envelopes_publish(
    *, tournament: Tournament, envelopes: dict[str, int], actor: Any, now: datetime
) -> Event:
    """Publish the envelope list; it must add up to the bounty pool exactly (§10.2)."""
    tournament = locks.tournament_for_update(tournament)
    if tournament.bounty_format != "mystery":
        raise DomainError(_("This event has no mystery bounties."))
    if tournament.envelopes.exclude(drawn_for=None).exists():
        raise DomainError(_("Envelopes have been drawn: the list can no longer change."))
    unit = tournament.bounty_unit_cents or 1
    if not bounties.check_bounty_unit(bounty_unit=unit, amounts=list(envelopes.values())):
        raise DomainError(_("Every envelope must be a whole number of bounty units."))
    check = bounties.validate_envelopes(
        bounty_pool=bounty_pools(tournament).bounty_pool,
        stage_trigger_players=stage_trigger(tournament),
        envelopes=envelopes,
    )
    if not check.valid:
        reasons = {
            bounties.EnvelopeProblem.SUM_NOT_POOL: _(
                "the envelopes do not add up to the bounty pool"
            ),
            bounties.EnvelopeProblem.FEWER_ENVELOPES_THAN_STAGE_PLAYERS: _(
                "there are fewer envelopes than players at the start of the bounty stage"
            ),
        }
        raise DomainError(
            _("The envelopes cannot be published: %(reasons)s.")
            % {"reasons": "; ".join(str(reasons[r]) for r in check.reasons)}
        )
    before = {e.code: e.value_cents for e in tournament.envelopes.all()}
    tournament.envelopes.all().delete()
    tournament.mystery_permutation, tournament.mystery_fingerprint = [], ""
    tournament.save(update_fields=["mystery_permutation", "mystery_fingerprint"])
    Envelope.objects.bulk_create(
        [Envelope(tournament=tournament, code=c, value_cents=v) for c, v in envelopes.items()]
    )
    return event_log(
        tournament=tournament,
        actor=actor,
        action="envelopes.publish",
        data={"before": before, "after": envelopes},
        now=now,
    )


@undoes("envelopes.publish")
def _undo_envelopes(event: Event, actor: Any, now: datetime) -> None:
    current = Envelope.objects.filter(tournament_id=event.tournament_id)
    if current.exclude(drawn_for=None).exists():
        raise CannotUndo(reason=_("envelopes have been drawn since"))
    current.delete()
    Envelope.objects.bulk_create(
        [
            Envelope(tournament_id=event.tournament_id, code=c, value_cents=v)
            for c, v in event.data["before"].items()
        ]
    )


@transaction.atomic
def mystery_draw_record(
    *,
    tournament: Tournament,
    eliminated: Entry,
    portions: Sequence[Sequence[Entry]],
    envelope_code: str,
    actor: Any,
    now: datetime,
    rng: Random | None = None,
) -> Event:
    """Record the draw an elimination in the bounty stage earned (§10.5-§10.8).

    Physical draws name the envelope picked; electronic draws pick one at random from the
    undrawn envelopes with `rng` (a cryptographically secure generator by default).
    """
    tournament = locks.tournament_for_update(tournament)
    if tournament.bounty_format != "mystery":
        raise DomainError(_("This event has no mystery bounties."))
    eliminated, portions = _fresh(eliminated, portions)
    _check_eliminated(tournament, eliminated)
    winners = _winner_entries(tournament, eliminated, portions)
    remaining_before = _remaining_before_hand(tournament, eliminated)
    if remaining_before > stage_trigger(tournament):
        raise DomainError(
            _("The mystery bounty stage starts at %(players)s players: no draw yet.")
            % {"players": stage_trigger(tournament)}
        )
    undrawn = tournament.envelopes.select_for_update().filter(drawn_for__isnull=True)
    if tournament.mystery_draw_method == "electronic":
        if not tournament.mystery_permutation:
            draw_commit(tournament=tournament, rng=rng)
        left = {e.code: e for e in undrawn}
        following = [code for code in tournament.mystery_permutation if code in left]
        if not following:
            raise DomainError(_("No envelopes are left."))
        envelope = left[following[0]]
    else:
        envelope = undrawn.filter(code=envelope_code.strip()).first()
        if envelope is None:
            raise DomainError(
                _("Envelope %(code)s is not among the envelopes left.") % {"code": envelope_code}
            )
    table = _table_for(tournament, winners)
    try:
        shares = bounties.share_bounty(
            envelope.value_cents,
            [[str(e.pk) for e in p] for p in portions],
            table=table,
            start_stacks={str(e.pk): 0 for e in winners},
            bounty_unit=tournament.bounty_unit_cents or 1,
            split_pot_bounty=bounties.SplitPotBounty(tournament.split_pot_bounty),
        )
    except ValueError as exc:
        raise DomainError(_("The bounty cannot be shared: %(reason)s") % {"reason": exc}) from exc
    names = {str(e.pk): e for e in winners}
    event = event_log(
        tournament=tournament,
        actor=actor,
        action="mystery.draw",
        data={
            "eliminated": eliminated.pk,
            "name": str(eliminated.player),
            "envelope": envelope.code,
            "value": envelope.value_cents,
            "paid": dict(shares),
            "names": {k: str(names[k].player) for k in shares},
        },
        now=now,
    )
    envelope.drawn_for = eliminated
    envelope.drawn_at = now
    envelope.save(update_fields=["drawn_for", "drawn_at"])
    for pk, cash in shares.items():
        with locks.once(_already_awarded(eliminated)):
            BountyAward.objects.create(
                tournament=tournament,
                event=event,
                eliminated=eliminated,
                winner=names[pk],
                envelope=envelope.code,
                cash_cents=cash,
                created_at=now,
            )
    realtime.broadcast(
        tournament.pk,
        {
            "type": "mystery_draw",
            "envelope": envelope.code,
            "value": envelope.value_cents,
            "winners": [str(names[k].player) for k in shares],
            "eliminated": str(eliminated.player),
        },
    )
    return event


def _remaining_before_hand(tournament: Tournament, eliminated: Entry) -> int:
    """Players left when his hand was dealt: the worst place its busts took (§15.1)."""
    events = Event.objects.filter(
        tournament=tournament, action="entry.eliminate", undone_at=None
    ).order_by("-pk")[:200]
    for event in events:
        places = event.data.get("places") or {}
        if str(eliminated.pk) not in places:
            continue
        hand = [*places, *(event.data.get("regrouped") or {})]
        rows = Entry.objects.filter(pk__in=[int(pk) for pk in hand])
        worst = [e.place_last or e.place for e in rows if e.place]
        if worst:
            return max(worst)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    return active + 1


def fingerprint(codes: Sequence[str]) -> str:
    """SHA-256 of the drawing order, shown before the first draw and checkable after."""
    return hashlib.sha256("\n".join(codes).encode()).hexdigest()


def draw_commit(*, tournament: Tournament, rng: Random | None = None) -> str:
    """Shuffle the undrawn envelopes once and store the order with its fingerprint (§10.8).

    `rng` defaults to a cryptographically secure generator; call inside the transaction
    that holds the tournament row lock.
    """
    codes = sorted(
        tournament.envelopes.filter(drawn_for__isnull=True).values_list("code", flat=True)
    )
    (rng or secrets.SystemRandom()).shuffle(codes)
    tournament.mystery_permutation = codes
    tournament.mystery_fingerprint = fingerprint(codes)
    tournament.save(update_fields=["mystery_permutation", "mystery_fingerprint"])
    return tournament.mystery_fingerprint


@undoes("mystery.draw")
def _undo_draw(event: Event, actor: Any, now: datetime) -> None:
    later = Event.objects.filter(
        tournament_id=event.tournament_id,
        action__in=("mystery.draw", "bounty.own"),
        undone_at__isnull=True,
        pk__gt=event.pk,
    ).exists()
    if later:
        raise CannotUndo(reason=_("undo the later draws first"))
    BountyAward.objects.filter(event=event).update(voided=True)
    Envelope.objects.filter(tournament_id=event.tournament_id, code=event.data["envelope"]).update(
        drawn_for=None, drawn_at=None
    )

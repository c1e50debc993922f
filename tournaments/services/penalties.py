"""Penalties: given, served hand by hand, carried across tables and days (§19).

The rules are in tournaments/rules/penalties.py; this module stores and logs. A penalty belongs
to the player, not the seat: the tablet reports each hand through `penalty_hand_dealt`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import Entry, Event, Penalty, Player, Seat, Table, Tournament
from tournaments.rules import penalties, placements
from tournaments.services import results


def _as_rule(p: Penalty) -> penalties.Penalty:
    return penalties.Penalty(
        player=str(p.player_id),
        kind=penalties.PenaltyKind(p.kind),
        total_hands=p.total_hands,
        served=p.served,
        rounds=p.rounds,
        offence=p.offence,
        day_given=p.day_given,
    )


def penalty_history(*, tournament: Tournament, player: Player) -> list[Penalty]:
    """Every penalty the player had in this event and its flights (for escalation)."""
    return list(
        Penalty.objects.filter(
            tournament__in=selectors.tournament_family(tournament), player=player, voided=False
        )
    )


def penalty_suggestion(*, tournament: Tournament, player: Player) -> penalties.Suggestion:
    """The next step up the house ladder from the player's history (TDA-71a)."""
    history = penalty_history(tournament=tournament, player=player)
    return penalties.suggest_penalty([_as_rule(p) for p in history])


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    entry: Entry,
    kind: str,
    actor,
    now: datetime,
    rounds: int = 0,
    hands: int = 0,
    offence: str = "",
    stack: int = 0,
) -> Penalty:
    """Give a penalty (§19.1). Missed rounds are fixed now as players at his table x rounds
    (§19.2); elimination (FIGP §87d: the place's prize kept) and disqualification (FIGP
    §87e: no prize, no refund) remove his `stack` from play and end his tournament."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = Entry.objects.select_related("player").get(pk=entry.pk, tournament=tournament)
    if entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    try:
        penalty_kind = penalties.PenaltyKind(kind)
    except ValueError:
        raise errors.DomainError(_("Choose a penalty.")) from None
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    at_table = seat.table.seats.count() if seat else 0
    try:
        rule = penalties.give_penalty(
            player=str(entry.player_id),
            kind=penalty_kind,
            players_at_table=at_table,
            rounds=rounds,
            hands=hands,
            offence=offence,
            day=tournament.day,
        )
    except ValueError:
        if penalty_kind is penalties.PenaltyKind.MISSED_ROUNDS:
            raise errors.DomainError(
                _("A missed-rounds penalty needs a seated player and at least one round.")
            ) from None
        raise errors.DomainError(_("A missed-hands penalty covers at least one hand.")) from None
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=entry.player,
        kind=rule.kind,
        offence=offence.strip()[:120],
        rounds=rule.rounds,
        total_hands=rule.total_hands,
        day_given=tournament.day,
        table_at_issue=seat.table.number if seat else None,
        chips_removed=stack if penalty_kind in _ENDING else 0,
        issued_by=actor if actor is not None and actor.is_authenticated else None,
        issued_at=now,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="penalty.give",
        data={
            "penalty": penalty.pk,
            "name": str(entry.player),
            "kind": penalty.kind,
            "hands": penalty.total_hands,
            "players_at_table": at_table,
            "offence": penalty.offence,
        },
        now=now,
    )
    if penalty_kind in _ENDING:
        reason = (
            placements.EliminationReason.DISQUALIFICATION
            if penalty_kind is penalties.PenaltyKind.DISQUALIFICATION
            else placements.EliminationReason.PENALTY_ELIMINATION
        )
        results.eliminations_record(
            tournament=tournament,
            busts=[results.Bust(entry=entry, start_stack=stack, reason=reason)],
            actor=actor,
            now=now,
        )
    realtime.broadcast(
        tournament.pk,
        {"type": "penalty", "name": str(entry.player), "kind": penalty.kind},
        tables=(seat.table.number,) if seat else (),
    )
    return penalty


_ENDING = frozenset({penalties.PenaltyKind.ELIMINATION, penalties.PenaltyKind.DISQUALIFICATION})


@undoes("penalty.give")
def _undo_penalty(event: Event, actor, now: datetime) -> None:
    penalty = scoped(Penalty, event).select_for_update().get(pk=logged_id(event, "penalty"))
    if (
        penalty.kind in _ENDING
        and Entry.objects.filter(
            tournament_id=penalty.tournament_id,
            player=penalty.player,
            status=Entry.Status.ELIMINATED,
            elimination_reason__in=[
                placements.EliminationReason.DISQUALIFICATION,
                placements.EliminationReason.PENALTY_ELIMINATION,
            ],
        ).exists()
    ):
        raise errors.CannotUndo(reason=_("undo the elimination first"))
    penalty.voided = True
    penalty.save(update_fields=["voided"])


def active_penalties(tournament: Tournament) -> list[Penalty]:
    """Hand penalties still being served by players in this event (any flight or day)."""
    rows = Penalty.objects.filter(
        tournament__in=selectors.tournament_family(tournament),
        voided=False,
        kind__in=[k.value for k in penalties.HAND_KINDS],
    ).select_related("player")
    return [p for p in rows if p.remaining > 0]


@transaction.atomic
def penalty_hand_dealt(
    *, table: Table, now: datetime | None = None, event: str = penalties.TableEvent.HAND
) -> list[Penalty]:
    """Count one hand dealt at `table` against the penalties of the players seated there.

    A misdeal counts nothing and its redeal counts the hand (TDA-35c); the count follows
    the player, whatever table or day he serves it on (FIGP §89). Returns the penalties
    that moved; the tablet shows their remaining hands."""
    try:
        table_event = penalties.TableEvent(event)
    except ValueError:
        raise errors.DomainError(_("Unknown table event.")) from None
    players = list(
        Seat.objects.filter(table=table, entry__status=Entry.Status.ACTIVE).values_list(
            "entry__player_id", flat=True
        )
    )
    moved: list[Penalty] = []
    serving: set[int] = set()
    for penalty in (
        Penalty.objects.select_for_update()
        .filter(
            tournament__in=selectors.tournament_family(table.tournament),
            player_id__in=players,
            voided=False,
            kind__in=[k.value for k in penalties.HAND_KINDS],
        )
        .order_by("issued_at", "pk")
    ):
        # Penalties are served one after the other: one hand counts once per player.
        if penalty.remaining == 0 or penalty.player_id in serving:
            continue
        serving.add(penalty.player_id)
        served = penalties.serve(_as_rule(penalty), [table_event])
        if served.hands_counted:
            penalty.served = served.penalty.served
            penalty.save(update_fields=["served"])
            moved.append(penalty)
    if moved:
        realtime.broadcast(
            table.tournament_id,
            {
                "type": "penalties",
                "table": table.number,
                "remaining": {str(p.player_id): p.remaining for p in moved},
            },
            tables=(table.number,),
        )
    return moved

"""Bounty awards on the floor (KO, PKO, one's own bounty), each in one transaction, logged
and undoable, pushed after commit; the rules are `tournaments.rules.bounties`, money in
integer cents. Refusals raise a DomainError and change nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import realtime, selectors
from tournaments.errors import CannotUndo, DomainError
from tournaments.events import event_log, undoes
from tournaments.models import BountyAward, Entry, Envelope, Event, Seat, Tournament
from tournaments.rules import bounties
from tournaments.selectors.formats import (
    BOUNTY_FORMATS,
    bounty_of,
    rules_format,
)
from tournaments.services import locks


def _table_for(tournament: Tournament, entries: Sequence[Entry]) -> bounties.Table:
    """The winners' table for the odd-unit order: seats and the button (§6.4)."""
    seats = list(Seat.objects.select_related("table").filter(entry__in=entries))
    if not seats:
        return bounties.Table(button=0, seats={i: str(e.pk) for i, e in enumerate(entries, 1)})
    table = seats[0].table
    return bounties.Table(
        button=table.button or 0, seats={s.number: str(s.entry_id) for s in seats}
    )


def _winner_entries(
    tournament: Tournament, eliminated: Entry, portions: Sequence[Sequence[Entry]]
) -> list[Entry]:
    if not portions or any(not portion for portion in portions):
        raise DomainError(_("Choose who won the eliminated player's last chips."))
    winners = [e for portion in portions for e in portion]
    for entry in winners:
        if entry.tournament_id != tournament.pk or entry.status != Entry.Status.ACTIVE:
            raise DomainError(_("%(player)s is not playing.") % {"player": entry.player})
        if entry.pk == eliminated.pk:
            raise DomainError(_("A player cannot win his own bounty."))
    return winners


def _already_awarded(eliminated: Entry) -> DomainError:
    return DomainError(
        _("The bounty of %(player)s is already awarded.") % {"player": eliminated.player}
    )


def _check_eliminated(tournament: Tournament, eliminated: Entry) -> None:
    if eliminated.tournament_id != tournament.pk or eliminated.status != Entry.Status.ELIMINATED:
        raise DomainError(_("%(player)s is not eliminated.") % {"player": eliminated.player})
    if BountyAward.objects.filter(eliminated=eliminated, voided=False).exists():
        raise _already_awarded(eliminated)


def _fresh(
    eliminated: Entry, portions: Sequence[Sequence[Entry]]
) -> tuple[Entry, list[list[Entry]]]:
    """Reload the entries under lock: the caller's copies may be stale."""
    eliminated = Entry.objects.select_for_update().select_related("player").get(pk=eliminated.pk)
    ids = [e.pk for p in portions for e in p]
    rows = Entry.objects.select_for_update().select_related("player").filter(pk__in=ids)
    fresh = {e.pk: e for e in rows}
    return eliminated, [[fresh[e.pk] for e in p] for p in portions]


@dataclass(frozen=True)
class AwardPreview:
    eliminated: Entry
    bounty: int
    lines: list[dict[str, Any]]  # {entry, cash, head, bounty_before, bounty_after}


def bounty_award_preview(
    *,
    tournament: Tournament,
    eliminated: Entry,
    portions: Sequence[Sequence[Entry]],
    now: datetime | None = None,
) -> AwardPreview:
    """Compute what the bounty of an eliminated player pays, without saving (§6-§8)."""
    if tournament.bounty_format not in BOUNTY_FORMATS:
        raise DomainError(_("This event has no knockout bounties."))
    _check_eliminated(tournament, eliminated)
    winners = _winner_entries(tournament, eliminated, portions)
    table = _table_for(tournament, winners)
    ids = [str(e.pk) for e in winners]
    bounty = bounty_of(eliminated, tournament)
    try:
        result = bounties.settle_bounties(
            bounty_format=rules_format(tournament),
            table=table,
            bounties={str(eliminated.pk): bounty, **dict.fromkeys(ids, 0)},
            start_stacks={str(eliminated.pk): 0, **dict.fromkeys(ids, 0)},
            pots=[
                bounties.Pot(
                    eligible=frozenset([str(eliminated.pk), *ids]),
                    winners=tuple(tuple(str(e.pk) for e in p) for p in portions),
                )
            ],
            busted=[str(eliminated.pk)],
            bounty_unit=tournament.bounty_unit_cents or 1,
            split_pot_bounty=bounties.SplitPotBounty(tournament.split_pot_bounty),
            progressive_cash_percent=tournament.progressive_cash_percent,
        )
    except ValueError as exc:
        raise DomainError(_("The bounty cannot be shared: %(reason)s") % {"reason": exc}) from exc
    award = result.awards[0]
    lines = []
    for entry in dict.fromkeys(winners):
        before = bounty_of(entry, tournament)
        head = award.added.get(str(entry.pk), 0)
        lines.append(
            {
                "entry": entry,
                "cash": award.cash.get(str(entry.pk), 0),
                "head": head,
                "bounty_before": before,
                "bounty_after": before + head,
            }
        )
    return AwardPreview(eliminated=eliminated, bounty=bounty, lines=lines)


@transaction.atomic
def bounty_award_record(
    *,
    tournament: Tournament,
    eliminated: Entry,
    portions: Sequence[Sequence[Entry]],
    actor: Any,
    now: datetime,
    with_bust: bool = False,
) -> Event:
    """Award an eliminated player's bounty to the winners of his last pot (§6-§8).

    `with_bust`: awarded in the same action as the bust; the bust's undo takes it back
    with it, so it is no action to undo on its own."""
    tournament = locks.tournament_for_update(tournament)
    eliminated, portions = _fresh(eliminated, portions)
    preview = bounty_award_preview(tournament=tournament, eliminated=eliminated, portions=portions)
    event = event_log(
        tournament=tournament,
        actor=actor,
        action="bounty.award",
        data={
            "eliminated": eliminated.pk,
            "name": str(eliminated.player),
            "bounty": preview.bounty,
            "awards": [
                {
                    "entry": line["entry"].pk,
                    "name": str(line["entry"].player),
                    "cash": line["cash"],
                    "head": line["head"],
                    "bounty_before": line["entry"].bounty_cents,
                    "bounty_after": line["bounty_after"],
                }
                for line in preview.lines
            ],
            **({"with_bust": True} if with_bust else {}),
        },
        now=now,
        undoable=not with_bust,
    )
    for line in preview.lines:
        entry = line["entry"]
        with locks.once(_already_awarded(eliminated)):
            BountyAward.objects.create(
                tournament=tournament,
                event=event,
                eliminated=eliminated,
                winner=entry,
                cash_cents=line["cash"],
                head_cents=line["head"],
                created_at=now,
            )
        if line["head"]:
            entry.bounty_cents = line["bounty_after"]
            entry.save(update_fields=["bounty_cents"])
    if eliminated.bounty_cents is None:
        # Keep the bounty he carried, so reports survive a later change of the setting.
        eliminated.bounty_cents = preview.bounty
        eliminated.save(update_fields=["bounty_cents"])
    realtime.broadcast(
        tournament.pk,
        {
            "type": "bounty",
            "eliminated": str(eliminated.player),
            "eliminated_entry": eliminated.pk,
            # Each winner's bounty on his head after it (a phone following him shows it).
            "awards": [
                {
                    "entry": line["entry"].pk,
                    "name": str(line["entry"].player),
                    "cash": line["cash"],
                    "head": line["head"],
                    "bounty": selectors.bounty_shown(tournament, line["entry"].bounty_cents),
                }
                for line in preview.lines
            ],
        },
        # The winners' bounties grow on their tables' tablets.
        tables=tuple(
            Seat.objects.filter(
                table__tournament=tournament,
                entry__in=[line["entry"] for line in preview.lines if line["head"]],
            )
            .values_list("table__number", flat=True)
            .distinct()
        ),
    )
    return event


def _later_award_touches(event: Event, entry_ids: set[int]) -> bool:
    later = BountyAward.objects.filter(
        tournament_id=event.tournament_id, voided=False, event__pk__gt=event.pk
    )
    return (
        later.filter(winner_id__in=entry_ids).exists()
        or later.filter(eliminated_id__in=entry_ids).exists()
    )


@undoes("bounty.award")
def _undo_bounty_award(event: Event, actor: Any, now: datetime) -> None:
    winners = {int(a["entry"]) for a in event.data["awards"]}
    if _later_award_touches(event, winners | {int(event.data["eliminated"])}):
        raise CannotUndo(reason=_("a later bounty award involves the same players"))
    for award in event.data["awards"]:
        entry = Entry.objects.select_for_update().get(
            pk=award["entry"], tournament_id=event.tournament_id
        )
        if award["head"]:
            if entry.bounty_cents != award["bounty_after"]:
                raise CannotUndo(
                    reason=_("the bounty of %(player)s changed since") % {"player": entry.player}
                )
            entry.bounty_cents = award["bounty_before"]
            entry.save(update_fields=["bounty_cents"])
    BountyAward.objects.filter(event=event).update(voided=True)
    realtime.broadcast(event.tournament_id, {"type": "figures"})


FORFEIT_REASONS = {
    "disqualification": bounties.ForfeitReason.DISQUALIFICATION,
    "penalty_elimination": bounties.ForfeitReason.PENALTY_ELIMINATION,
}


@transaction.atomic
def bounty_forfeit_record(
    *, tournament: Tournament, entry: Entry, actor: Any, now: datetime
) -> Event:
    """Send the bounty of a player nobody eliminated to the prize pool (§6.6, TCH-PKO).

    For a disqualified or sanction-eliminated player, or a stack forfeited to re-enter.
    """
    tournament = locks.tournament_for_update(tournament)
    if tournament.bounty_format not in BOUNTY_FORMATS:
        raise DomainError(_("This event has no knockout bounties."))
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.Status.FORFEITED:
        reason = bounties.ForfeitReason.STACK_FORFEITED
    elif entry.status == Entry.Status.ELIMINATED and entry.elimination_reason in FORFEIT_REASONS:
        reason = FORFEIT_REASONS[entry.elimination_reason]
    else:
        raise DomainError(
            _("%(player)s lost his chips in play: his bounty goes to who won them.")
            % {"player": entry.player}
        )
    if BountyAward.objects.filter(eliminated=entry, voided=False).exists():
        raise _already_awarded(entry)
    bounty = bounty_of(entry, tournament)
    forfeit = bounties.forfeit_bounty(
        bounty=bounty, reason=reason, prize_pool=0, starting_bounty=tournament.bounty_part_cents
    )
    event = event_log(
        tournament=tournament,
        actor=actor,
        action="bounty.forfeit",
        data={
            "entry": entry.pk,
            "name": str(entry.player),
            "reason": reason.value,
            "amount": forfeit.prize_pool_after,
        },
        now=now,
    )
    with locks.once(_already_awarded(entry)):
        BountyAward.objects.create(
            tournament=tournament,
            event=event,
            eliminated=entry,
            winner=entry,
            cash_cents=forfeit.prize_pool_after,
            to_prize_pool=True,
            created_at=now,
        )
    return event


@undoes("bounty.forfeit")
def _undo_forfeit(event: Event, actor: Any, now: datetime) -> None:
    BountyAward.objects.filter(event=event).update(voided=True)


@transaction.atomic
def own_bounty_record(*, tournament: Tournament, winner: Entry, actor: Any, now: datetime) -> Event:
    """Pay the winner his own bounty, and in a mystery event the envelopes left (§7-§10.9)."""
    tournament = locks.tournament_for_update(tournament)
    if tournament.bounty_format == "none":
        raise DomainError(_("This event has no bounties."))
    if tournament.status != Tournament.Status.FINISHED or winner.place != 1:
        raise DomainError(_("Only the winner of a finished event collects his own bounty."))
    paid = DomainError(_("The winner's own bounty is already paid."))
    if BountyAward.objects.filter(winner=winner, own_bounty=True, voided=False).exists():
        raise paid
    envelopes: list[str] = []
    if tournament.bounty_format == "mystery":
        left = list(tournament.envelopes.select_for_update().filter(drawn_for__isnull=True))
        amount = sum(e.value_cents for e in left)
        envelopes = [e.code for e in left]
    else:
        amount = bounties.final_bounty(
            end=bounties.EventEnd.WINNER, bounties={"w": bounty_of(winner, tournament)}
        ).cash["w"]
    event = event_log(
        tournament=tournament,
        actor=actor,
        action="bounty.own",
        data={
            "entry": winner.pk,
            "name": str(winner.player),
            "cash": amount,
            "envelopes": envelopes,
        },
        now=now,
    )
    with locks.once(paid):
        BountyAward.objects.create(
            tournament=tournament,
            event=event,
            eliminated=winner,
            winner=winner,
            cash_cents=amount,
            own_bounty=True,
            envelope=",".join(envelopes)[:20],
            created_at=now,
        )
    tournament.envelopes.filter(code__in=envelopes).update(drawn_for=winner, drawn_at=now)
    return event


@undoes("bounty.own")
def _undo_own_bounty(event: Event, actor: Any, now: datetime) -> None:
    BountyAward.objects.filter(event=event).update(voided=True)
    Envelope.objects.filter(
        tournament_id=event.tournament_id, code__in=event.data.get("envelopes", [])
    ).update(drawn_for=None, drawn_at=None)

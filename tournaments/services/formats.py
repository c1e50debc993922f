"""Event formats on the floor: bounty awards, mystery draws, satellite seats and tickets.

Every writing function is keyword-only, runs in one transaction, writes an audit row
through `event_log` (undoable) and broadcasts after commit. The rules come from the pure
modules `tournaments.rules.bounties` and `tournaments.rules.satellites`; money here is integer cents.
Refusals raise a DomainError and change nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from random import Random
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import Seat
from tournaments import realtime, selectors
from tournaments.errors import CannotUndo, DomainError
from tournaments.events import event_log, logged_id, logged_ids, scoped, undoes
from tournaments.models import BountyAward, Entry, Envelope, Event, SeatTicket, Tournament
from tournaments.rules import bounties, placements, satellites
from tournaments.selectors.formats import (
    BOUNTY_FORMATS,
    bounty_of,
    bounty_pools,
    rules_format,
    satellite_figures,
    stage_trigger,
)
from tournaments.services import locks

# --- Bounty awards (KO, PKO) -----------------------------------------------------------


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


# --- Mystery bounties ------------------------------------------------------------------


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


# --- Satellites ------------------------------------------------------------------------


def _ticket_code() -> str:
    return secrets.token_hex(4).upper()


def _holds_seat(tournament: Tournament, entry: Entry) -> bool:
    if tournament.target_event_id is None:
        return False
    return (
        SeatTicket.objects.filter(
            target_id=tournament.target_event_id,
            player=entry.player,
            kind=SeatTicket.Kind.SEAT,
            voided=False,
        ).exists()
        or Entry.objects.filter(tournament_id=tournament.target_event_id, player=entry.player)
        .exclude(status=Entry.Status.VOIDED)
        .exists()
    )


def _last_hand(tournament: Tournament) -> Event | None:
    return (
        Event.objects.filter(tournament=tournament, action="entry.eliminate", undone_at=None)
        .order_by("-pk")
        .first()
    )


def _seat_bubble(
    tournament: Tournament, seats: int, value: int, cash_prizes: dict[int, int]
) -> tuple[satellites.SeatBubble, dict[int, Entry]] | None:
    """The last hand settled by the seat-bubble rule, when its busts reached a seat place
    (an overshoot or a tie across the last seat, §11.6, §11.8); None otherwise."""
    event = _last_hand(tournament)
    if event is None:
        return None
    ids = [int(pk) for pk in (event.data.get("entries") or [])]
    busted = {
        e.pk: e
        for e in Entry.objects.select_related("player").filter(
            pk__in=ids, tournament=tournament, disqualified=False
        )
    }
    if not busted or min(e.place or seats + 1 for e in busted.values()) > seats:
        return None
    stacks = event.data.get("stacks") or {}
    tables = event.data.get("tables") or {}
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    result = satellites.satellite_bubble(
        seats=seats,
        seat_value=value,
        cash_prizes=cash_prizes,
        remaining_before_hand=max((e.place_last or e.place or 0) for e in busted.values()),
        hand_for_hand=bool(event.data.get("hand_for_hand")),
        eliminated=[
            placements.Elimination(
                player=str(pk),
                table=str(tables.get(str(pk), "-")),
                start_stack=int(stacks.get(str(pk), 0)),
            )
            for pk in busted
        ],
        other_players=[str(e.pk) for e in active],
        rule=placements.SameHandRule(tournament.same_hand_elimination_rule),
        seat_tie_resolution=satellites.SeatTieResolution(tournament.seat_tie_resolution),
    )
    return result, busted


@transaction.atomic
def satellite_award(
    *,
    tournament: Tournament,
    actor: Any,
    now: datetime,
    play_off_winners: Sequence[Entry] = (),
) -> Event:
    """Give every player left a seat once no more are left than seats (§11.6, §11.10).

    Busts of the last hand ranked into seat places win seats too; a tie across the last
    seat is settled by `seat_tie_resolution` (§11.8): under a play-off, name its winners.
    A player who already holds a seat in the target event gets its value instead, as the
    event's `duplicate_seat_award` says. Each prize is a ticket with a code.
    """
    tournament = locks.tournament_for_update(tournament)
    figures = satellite_figures(tournament, now)
    if figures is None:
        raise DomainError(_("This event is not a satellite with a seat value."))
    if figures["remaining"] > figures["seats"]:
        raise DomainError(
            ngettext(
                "%(count)s player must still go out before the seats are awarded.",
                "%(count)s players must still go out before the seats are awarded.",
                figures["players_to_seats"],
            )
            % {"count": figures["players_to_seats"]}
        )
    awarded = DomainError(_("The seats are already awarded."))
    if tournament.tickets.filter(voided=False).exists():
        raise awarded
    value = figures["seat_value"]
    cash_prizes: dict[int, int] = figures["cash_prizes"]
    winners = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player"))
    bubble_cash: dict[int, int] = {}
    settled = _seat_bubble(tournament, figures["seats"], value, cash_prizes)
    if settled is not None:
        result, busted = settled
        winners += [busted[int(pk)] for pk in result.seat_winners if int(pk) in busted]
        bubble_cash = {int(pk): amount for pk, amount in result.cash.items()}
        if result.play_off is not None:
            names = ", ".join(str(busted[int(pk)].player) for pk in result.play_off.players)
            chosen = [e for e in play_off_winners if str(e.pk) in result.play_off.players]
            if len(chosen) != result.play_off.seats or len(chosen) != len(play_off_winners):
                raise DomainError(
                    _("Play-off for %(seats)s seat(s) between %(names)s: name its winner.")
                    % {"seats": result.play_off.seats, "names": names}
                )
            winners += [busted[e.pk] for e in chosen]
    created = []
    for entry in dict.fromkeys(winners):
        award = satellites.award_seat(
            already_holds_seat=_holds_seat(tournament, entry),
            seat_value=value,
            duplicate_seat_award=satellites.DuplicateSeatAward(tournament.duplicate_seat_award),
        )
        with locks.once(awarded):
            created.append(
                SeatTicket.objects.create(
                    satellite=tournament,
                    target=tournament.target_event,
                    player=entry.player,
                    place=entry.place or 1,
                    kind=award.kind.value,
                    amount_cents=award.amount if award.amount else value,
                    code=_ticket_code(),
                    transferable=tournament.seat_transferable,
                    created_at=now,
                )
            )
    # The leftover in cash to the places below the seats (§11.5); players who share places
    # share their cash equally. The last hand's busts take what the bubble rule gave them.
    placed = tournament.entries.filter(
        status=Entry.Status.ELIMINATED, place__in=list(cash_prizes), disqualified=False
    ).select_related("player")
    amounts: dict[Entry, int] = {}
    for entry in placed:
        if entry.pk in bubble_cash:
            continue
        places = range(entry.place, (entry.place_last or entry.place) + 1)
        sharers = tournament.entries.filter(place=entry.place, status=Entry.Status.ELIMINATED)
        amounts[entry] = sum(cash_prizes.get(p, 0) for p in places) // max(1, sharers.count())
    if settled is not None:
        for pk, amount in bubble_cash.items():
            amounts[settled[1][pk]] = amount
    for entry, amount in amounts.items():
        if amount:
            with locks.once(awarded):
                created.append(
                    SeatTicket.objects.create(
                        satellite=tournament,
                        target=None,
                        player=entry.player,
                        place=entry.place,
                        kind=SeatTicket.Kind.CASH,
                        amount_cents=amount,
                        code=_ticket_code(),
                        created_at=now,
                    )
                )
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    event = event_log(
        tournament=tournament,
        actor=actor,
        action="satellite.award",
        data={
            "tickets": [t.pk for t in created],
            "names": [str(t.player) for t in created],
            "kinds": [t.kind for t in created],
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {"type": "seats_awarded", "names": [str(t.player) for t in created]},
    )
    return event


@undoes("satellite.award")
def _undo_satellite_award(event: Event, actor: Any, now: datetime) -> None:
    tickets = scoped(SeatTicket, event).filter(pk__in=logged_ids(event, "tickets"))
    if tickets.exclude(redeemed_entry=None).exists():
        raise CannotUndo(reason=_("a seat has been used in the target event"))
    tickets.update(voided=True)
    Tournament.objects.filter(pk=event.tournament_id).update(status=Tournament.Status.RUNNING)


@transaction.atomic
def ticket_redeem(
    *, tournament: Tournament, entry: Entry, actor: Any, now: datetime
) -> SeatTicket | None:
    """Mark the player's seat ticket used for this entry: the seat paid his buy-in."""
    ticket = (
        SeatTicket.objects.select_for_update()
        .filter(
            target=tournament,
            player_id=entry.player_id,
            kind=SeatTicket.Kind.SEAT,
            voided=False,
            redeemed_entry=None,
        )
        .first()
    )
    if ticket is None:
        return None
    ticket.redeemed_entry = entry
    ticket.save(update_fields=["redeemed_entry"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="ticket.redeem",
        data={"ticket": ticket.pk, "code": ticket.code, "entry": entry.pk},
        now=now,
    )
    return ticket


@undoes("ticket.redeem")
def _undo_redeem(event: Event, actor: Any, now: datetime) -> None:
    SeatTicket.objects.filter(target_id=event.tournament_id, pk=logged_id(event, "ticket")).update(
        redeemed_entry=None
    )

"""Satellite seats and tickets: the seats awarded at the bubble, a ticket redeemed into
an event; logged, undoable, pushed after commit (`tournaments.rules.satellites`)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import realtime
from tournaments.errors import CannotUndo, DomainError
from tournaments.events import event_log, logged_id, logged_ids, scoped, undoes
from tournaments.models import Entry, Event, SeatTicket, Tournament
from tournaments.rules import placements, satellites
from tournaments.selectors.formats import (
    satellite_figures,
)
from tournaments.services import locks


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

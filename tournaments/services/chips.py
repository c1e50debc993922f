"""The chip set, scheduled colour-ups with the chip race, discretionary colour-ups
(tournament.md §12). The rules are in tournaments/rules/chips.py; this module stores and logs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import errors, realtime
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import (
    ChipAdjustment,
    ChipCount,
    ChipDenomination,
    Entry,
    Event,
    Seat,
    Table,
    Tournament,
)
from tournaments.rules import chips

SYSTEM_RANDOM = random.SystemRandom()
DECK = tuple(r + s for r in chips.RANKS for s in chips.DEFAULT_SUIT_ORDER)


@dataclass(frozen=True)
class DenominationSpec:
    value: int
    colour: str = ""
    in_starting_stack: int = 0


@transaction.atomic
def chipset_set(
    *, tournament: Tournament, actor, denominations: list[DenominationSpec], now: datetime
) -> list[ChipDenomination]:
    """Replace the chip set; the starting stack's chips must add up to the starting stack."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    values = [d.value for d in denominations]
    if not denominations or any(v <= 0 for v in values) or len(set(values)) != len(values):
        raise errors.DomainError(_("Give each chip a different positive value."))
    if any(d.in_starting_stack < 0 for d in denominations):
        raise errors.DomainError(_("A chip count cannot be negative."))
    stack = sum(d.value * d.in_starting_stack for d in denominations)
    if stack != tournament.starting_stack:
        raise errors.DomainError(
            _("The starting stack's chips are worth %(value)s, the starting stack is %(stack)s."),
            value=stack,
            stack=tournament.starting_stack,
        )
    before = list(
        tournament.denominations.values("value", "colour", "in_starting_stack", "retired")
    )
    tournament.denominations.all().delete()
    rows = ChipDenomination.objects.bulk_create(
        ChipDenomination(tournament=tournament, **vars(d)) for d in denominations
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.set",
        data={"before": before, "after": [vars(d) for d in denominations]},
        now=now,
    )
    return rows


def _void_adjustment(event: Event) -> None:
    adjustments = scoped(ChipAdjustment, event).filter(pk=logged_id(event, "adjustment"))
    if not adjustments.update(voided=True):
        raise errors.CannotUndo(reason=_("its log row does not match this tournament"))


@undoes("chips.set")
def _undo_chipset(event: Event, actor, now: datetime) -> None:
    ChipDenomination.objects.filter(tournament_id=event.tournament_id).delete()
    ChipDenomination.objects.bulk_create(
        ChipDenomination(tournament_id=event.tournament_id, **row) for row in event.data["before"]
    )


def next_denomination(tournament: Tournament, removed: int) -> int:
    """The lowest chip still in play above the one being coloured up."""
    if not tournament.denominations.filter(value=removed).exists():
        # Not a chip of the set: a typo (0 would divide by zero in the exchange).
        raise errors.DomainError(_("There is no %(value)s chip in the chip set."), value=removed)
    higher = (
        tournament.denominations.filter(value__gt=removed, retired=False)
        .order_by("value")
        .values_list("value", flat=True)
        .first()
    )
    if higher is None:
        raise errors.DomainError(_("No chip above %(value)s is in play."), value=removed)
    return higher


def color_up_plan(
    *, tournament: Tournament, table_number: int, removed: int, held: dict[int, int]
) -> chips.ChipRacePlan:
    """What one table exchanges and races (§12.2): `held` maps seat -> chips of the
    retired denomination the player holds. Read only."""
    table = _table(tournament, table_number)
    _check_seats(table, held)
    return chips.plan_chip_race(
        {seat: {removed: count} for seat, count in held.items() if count},
        max_seats=table.max_seats,
        removed_denomination=removed,
        lowest_remaining_denomination=next_denomination(tournament, removed),
    )


def _table(tournament: Tournament, number: int) -> Table:
    table = Table.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise errors.DomainError(_("Table %(table)s does not exist."), table=number)
    return table


def _check_seats(table: Table, seats) -> None:
    taken = set(table.seats.values_list("number", flat=True))
    for seat in seats:
        if seat not in taken:
            raise errors.DomainError(
                _("Nobody sits at table %(table)s, seat %(seat)s."), table=table.number, seat=seat
            )


@dataclass(frozen=True)
class RaceOutcome:
    plan: chips.ChipRacePlan
    cards: dict[int, list[str]]
    drawn_by_app: bool
    winners: tuple[int, ...]
    protected: tuple[int, ...]
    chips_added: int  # value put into play (negative: removed)


@transaction.atomic
def chip_race_record(
    *,
    tournament: Tournament,
    table_number: int,
    removed: int,
    held: dict[int, int],
    actor,
    now: datetime,
    cards: dict[int, list[str]] | None = None,
    nothing_else: frozenset[int] = frozenset(),
    rng: random.Random | None = None,
) -> RaceOutcome:
    """Record one table's colour-up and race (§12.2): full sets exchanged, one card per odd
    chip from seat 1 (entered from the table, or drawn by the app and recorded), at most one
    chip per player, nobody raced out (`nothing_else`: seats whose only chips are the odd
    ones). The difference in chip value goes in the chips-in-play ledger."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    plan = color_up_plan(
        tournament=tournament, table_number=table_number, removed=removed, held=held
    )
    into = next_denomination(tournament, removed)
    drawn = cards is None
    if cards is None:
        deck = list(DECK)
        (rng or SYSTEM_RANDOM).shuffle(deck)
        cards = {}
        for seat in plan.deal_order:
            cards[seat] = [deck.pop() for _ in range(plan.cards_per_seat[seat])]
    for seat, dealt in cards.items():
        if seat not in plan.cards_per_seat or len(dealt) != plan.cards_per_seat[seat]:
            raise errors.DomainError(
                _("Seat %(seat)s races %(n)s cards."),
                seat=seat,
                n=plan.cards_per_seat.get(seat, 0),
            )
    flat = [c for dealt in cards.values() for c in dealt]
    try:
        ranking = chips.rank_race_cards(
            chips.RaceCard(seat=seat, card=card) for seat, dealt in cards.items() for card in dealt
        )
    except ValueError:
        raise errors.DomainError(_("Write cards like Ah, Td, 7c.")) from None
    if len({c.upper() for c in flat}) != len(flat):
        raise errors.DomainError(_("The same card was dealt twice."))
    award = chips.award_race(plan.chips_to_race, ranking, racing_seats=plan.cards_per_seat)
    winners = tuple(sorted(award.awarded))
    # TDA-24.2 / FIGP §58: a player whose only chips were raced away keeps one chip.
    protected = tuple(
        sorted(
            seat
            for seat in nothing_else
            if seat not in award.awarded and not plan.exchanges[seat].received
            if seat in plan.exchanges
        )
    )
    added = (len(winners) + len(protected)) * into - plan.odd_value
    ChipDenomination.objects.filter(tournament=tournament, value=removed).update(retired=True)
    adjustment = ChipAdjustment.objects.create(
        tournament=tournament,
        amount=added,
        reason=ChipAdjustment.Reason.CHIP_RACE,
        table=table_number,
        data={"removed": removed, "into": into},
        created_at=now,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.race",
        data={
            "adjustment": adjustment.pk,
            "table": table_number,
            "removed": removed,
            "into": into,
            "exchanged": {str(s): ex.received.get(into, 0) for s, ex in plan.exchanges.items()},
            "odd_chips": {str(s): n for s, n in plan.cards_per_seat.items()},
            "chips_raced": plan.chips_to_race,
            "cards": {str(s): c for s, c in cards.items()},
            "drawn_by_app": drawn,
            "winners": list(winners),
            "protected": list(protected),
            "chips_added": added,
        },
        now=now,
    )
    realtime.broadcast(
        tournament.pk,
        {"type": "chip_race", "table": table_number, "winners": list(winners)},
        tables=(table_number,),
    )
    return RaceOutcome(plan, cards, drawn, winners, protected, added)


@undoes("chips.race")
def _undo_race(event: Event, actor, now: datetime) -> None:
    _void_adjustment(event)


@transaction.atomic
def color_up_discretionary(
    *,
    tournament: Tournament,
    entry: Entry,
    stack: dict[int, int],
    target: int,
    actor,
    now: datetime,
) -> chips.ColorUp:
    """Colour up one player's lower chips at equal value and log the announcement
    (TDA-25.5, FIGP §68: a colour-up outside the schedule must be announced)."""
    if entry.tournament_id != tournament.pk or entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    if not tournament.denominations.filter(value=target, retired=False).exists():
        raise errors.DomainError(_("There is no %(value)s chip in the chip set."), value=target)
    try:
        result = chips.color_up(chips.normalise(stack), target_denomination=target)
    except ValueError:
        raise errors.DomainError(_("Write each chip count as a whole number.")) from None
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.color_up",
        data={
            "entry": entry.pk,
            "name": str(entry.player),
            "before": {str(d): c for d, c in stack.items()},
            "after": {str(d): c for d, c in result.chips_after.items()},
            "announced": True,
        },
        now=now,
        undoable=False,
    )
    if seat:
        realtime.broadcast(
            tournament.pk,
            {"type": "color_up", "name": str(entry.player), "table": seat.table.number},
            tables=(seat.table.number,),
        )
    return result


@transaction.atomic
def chips_remove(
    *, tournament: Tournament, amount: int, reason: str, actor, now: datetime, note: str = ""
) -> ChipAdjustment:
    """Take chips out of play with a reason (lost and found, confiscation: §12.4)."""
    if amount <= 0:
        raise errors.DomainError(_("Write how many chips leave play."))
    if reason not in ChipAdjustment.Reason.values:
        raise errors.DomainError(_("Choose a reason."))
    adjustment = ChipAdjustment.objects.create(
        tournament=tournament, amount=-amount, reason=reason, data={"note": note}, created_at=now
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.remove",
        data={"adjustment": adjustment.pk, "amount": amount, "reason": reason, "note": note},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "figures"})
    return adjustment


@undoes("chips.remove")
def _undo_remove(event: Event, actor, now: datetime) -> None:
    _void_adjustment(event)


@transaction.atomic
def leftovers_clear(
    *, tournament: Tournament, entry: Entry, removed: int, count: int, actor, now: datetime
) -> chips.Leftovers:
    """Clear retired chips found in a stack after the race (§12.2 step 5): exchanged at
    equal value only, any remainder worth less than the next chip removed without
    compensation (TDA2015-§23C, TDA-24.3)."""
    if entry.tournament_id != tournament.pk or entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    if count < 1:
        raise errors.DomainError(_("Write how many retired chips were found."))
    into = next_denomination(tournament, removed)
    result = chips.clear_leftovers(
        {removed: count}, removed_denomination=removed, lowest_remaining_denomination=into
    )
    adjustment = None
    if result.removed_without_compensation:
        adjustment = ChipAdjustment.objects.create(
            tournament=tournament,
            entry=entry,
            amount=-result.removed_without_compensation,
            reason=ChipAdjustment.Reason.COLOR_UP,
            data={"removed": removed, "into": into, "count": count},
            created_at=now,
        )
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.leftovers",
        data={
            "adjustment": adjustment.pk if adjustment else None,
            "entry": entry.pk,
            "name": str(entry.player),
            "removed": removed,
            "count": count,
            "received": {str(d): c for d, c in result.chips_after.items()},
            "removed_value": result.removed_without_compensation,
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "figures"})
    return result


@undoes("chips.leftovers")
def _undo_leftovers(event: Event, actor, now: datetime) -> None:
    if event.data.get("adjustment"):
        _void_adjustment(event)


@transaction.atomic
def chips_count_table(
    *, tournament: Tournament, table: int, counts: dict[int, int], actor, now: datetime
) -> int:
    """Record the stacks counted at one table (by the floor or the table's tablet): the
    day's last count per player, which the player list, the average stack and the chip
    leaders read. `counts` maps entry numbers to chips; only players seated at that table
    may be counted. Returns how many stacks were recorded."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    seated = {
        s.entry.number: s.entry
        for s in Seat.objects.select_related("entry").filter(
            table__tournament=tournament,
            table__number=table,
            entry__status=Entry.Status.ACTIVE,
        )
    }
    if not seated:
        raise errors.DomainError(_("No player is seated at table %(table)s."), table=table)
    if not counts:
        raise errors.DomainError(_("Write at least one stack."))
    if set(counts) - set(seated):
        raise errors.DomainError(_("Only players seated at this table can be counted here."))
    if any(count < 0 for count in counts.values()):
        raise errors.DomainError(_("A chip count cannot be negative."))
    for number, count in counts.items():
        ChipCount.objects.update_or_create(
            entry=seated[number],
            day=tournament.day,
            defaults={
                "tournament": tournament,
                "chips": count,
                "bag": "",
                "table": table,
                "counted_at": now,
            },
        )
    event_log(
        tournament=tournament,
        actor=actor,
        action="chips.count",
        data={"table": table, "counts": {str(k): v for k, v in counts.items()}},
        now=now,
        undoable=False,
    )
    realtime.broadcast(tournament.pk, {"type": "figures"})
    return len(counts)

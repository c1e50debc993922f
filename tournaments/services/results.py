"""Eliminations, finishing places, payouts and deals (tournament.md §14.2, §15, §16).

Every function is keyword-only, runs in one transaction, writes an audit row through
`event_log` and broadcasts after commit. Refusals raise a DomainError and change nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.speedups import prepared
from config.speedups.prepared import NO_ID, Prepared
from tournaments import errors, realtime, selectors
from tournaments.events import (
    action_label,
    event_log,
    event_undo,
    logged_id,
    logged_ids,
    scoped,
    undo_with,
    undoes,
)
from tournaments.models import BountyAward, Deal, Entry, Event, Seat, Table, Tournament
from tournaments.rules import payouts, placements
from tournaments.services import clock as clock_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import locks
from tournaments.services import seats as seat_services
from tournaments.services.moves import auto_apply


@dataclass(frozen=True)
class Bust:
    """One player out in the hand, with his chips at the start of the hand (§15.2)."""

    entry: Entry
    start_stack: int = 0
    reason: str = placements.EliminationReason.LOST_IN_PLAY


def _field_closed(tournament: Tournament, now: datetime) -> bool:
    """Whether the last player left wins (003 Art.7.5): only once play has started and no
    entry can still be sold, so a bust before the start or during late registration never
    ends the tournament."""
    if tournament.clock_status in {"not_started", "scheduled"}:
        return False
    return tournament.late_registration_level is None or not selectors.registration_open(
        tournament, now
    )


_SNAPSHOT = (
    "status",
    "place",
    "place_last",
    "prize",
    "ended_at",
    "elimination_reason",
    "disqualified",
    "chips_removed",
)


def _snapshot(entry: Entry) -> dict:
    data = {name: getattr(entry, name) for name in _SNAPSHOT}
    data["ended_at"] = entry.ended_at.isoformat() if entry.ended_at else None
    return data


def _h4h_hand(tournament: Tournament) -> list[int] | None:
    """The hand-for-hand hand in play as [session, hand], or None outside hand-for-hand.

    The session is the `h4h.start` event, so a second bubble restarts the count; hand 0
    is the hand in progress when hand-for-hand was announced (§14.2)."""
    if not tournament.h4h_active:
        return None
    start = (
        Event.objects.filter(tournament=tournament, action="h4h.start", undone_at__isnull=True)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return [start or 0, tournament.h4h_hands]


def _earlier_in_hand(
    tournament: Tournament, hand: list[int] | None
) -> list[tuple[Entry, int, str]]:
    """Players already recorded out in this same hand-for-hand hand, with their start-of-hand
    stacks and tables: a table that reports later still shares the hand with them (§14.2)."""
    if hand is None:
        return []
    stacks: dict[int, int] = {}
    tables: dict[int, str] = {}
    for event in Event.objects.filter(
        tournament=tournament, action="entry.eliminate", undone_at__isnull=True, pk__gt=hand[0]
    ).order_by("pk"):
        if event.data.get("h4h_hand") != hand:
            continue
        for pk in event.data.get("entries") or []:
            stacks[pk] = int((event.data.get("stacks") or {}).get(str(pk), 0))
            tables[pk] = str((event.data.get("tables") or {}).get(str(pk), "-"))
    entries = (
        Entry.objects.select_for_update()
        .select_related("player")
        .filter(pk__in=stacks, status=Entry.Status.ELIMINATED)
        .order_by("pk")
    )
    return [(entry, stacks[entry.pk], tables[entry.pk]) for entry in entries]


# Read by every elimination, compiled once (config/speedups/prepared.py).
_ACTIVE_DEAL = Prepared(
    lambda tournament_id: Deal.objects.filter(tournament_id=tournament_id, voided=False).order_by(
        "-created_at", "-pk"
    )[:1],
    tournament_id=NO_ID,
)


# The entry a lone bust-out locks, with its player (the same rows the several busts of a
# hand lock together) and the seat it frees with that seat's table, compiled once. The
# stand-in key is not the tournament's.
_LONE_ENTRY_LOCKED = Prepared(
    lambda pk, tournament_id: (
        Entry.objects.select_for_update(of=("self", "player"))
        .select_related("player", "seat__table")
        .filter(pk=pk, tournament_id=tournament_id)
    ),
    pk=-1_000_037,
    tournament_id=NO_ID,
)


def _held_seats(entries: dict[int, Entry]) -> dict[int, tuple[int, int]]:
    """The table and seat number each entry holds, as locked with it (a lone bust)."""
    held = {}
    for pk, entry in entries.items():
        seat = getattr(entry, "seat", None)  # none: out already, or never seated
        if seat is not None:
            held[pk] = (seat.table.number, seat.number)
    return held


def _held_seats_read(ids: list[int]) -> dict[int, tuple[int, int]]:
    """The table and seat number each of the entries `ids` holds, read."""
    return {
        entry_id: (table, number)
        for entry_id, table, number in Seat.objects.filter(entry_id__in=ids).values_list(
            "entry_id", "table__number", "number"
        )
    }


def _active_deal(tournament: Tournament) -> Deal | None:
    return _ACTIVE_DEAL.first(tournament_id=tournament.pk)


# The entries out with a place, whose places every registration moves down one: read
# under the tournament's lock by each one, compiled once.
_PLACED_OUT = Prepared(
    lambda tournament_id: (
        Entry.objects.filter(
            tournament_id=tournament_id, status=Entry.Status.ELIMINATED, place__isnull=False
        )
        .order_by()
        .values_list("pk")
    ),
    tournament_id=NO_ID,
)


def placed_out_read(tournament: Tournament) -> tuple[Prepared[Any], dict[str, Any]]:
    """The read of `places_make_room` (every entry), as `prepared.ahead` takes it."""
    return _PLACED_OUT, {"tournament_id": tournament.pk}


def places_make_room(
    *, tournament: Tournament, by: int, entries: Sequence[int] | None = None
) -> list[int]:
    """Move the places of the entries already out by `by` (one down for each new entry,
    back up when it is undone). Returns the entries moved.

    Call inside the transaction holding the tournament row lock."""
    if entries is None:
        ids = [pk for (pk,) in _PLACED_OUT.rows(tournament_id=tournament.pk)]
    else:
        ids = list(
            Entry.objects.filter(
                tournament=tournament,
                status=Entry.Status.ELIMINATED,
                place__isnull=False,
                pk__in=list(entries),
            ).values_list("pk", flat=True)
        )
    if ids:
        Entry.objects.filter(pk__in=ids).update(
            place=F("place") + by, place_last=F("place_last") + by
        )
    return ids


@dataclass(frozen=True)
class _Hand:
    """The hand the busts happened in: from the clock in hand-for-hand (§14.2)."""

    h4h_hand: list[int] | None
    hand_for_hand: bool
    announcement_hand: bool


@transaction.atomic
def eliminations_record(
    *,
    tournament: Tournament,
    busts: Sequence[Bust],
    actor,
    now: datetime,
    hand_for_hand: bool = False,
    announcement_hand: bool = False,
) -> placements.Settlement:
    """Record the players out in one hand: free their seats, give their places and prizes.

    Places follow placements.settle_eliminations with the tournament's
    `same_hand_elimination_rule` (§15.2); a disqualified player gets no place or prize
    (§15.3) and the chips of a disqualified or penalty-eliminated player leave play (§12.4).
    When one player is left he is the winner (003 Art.7.5). After a recorded deal, each
    dealt player's prize is his deal amount, and the winner adds what was left to play for.

    In hand-for-hand the hand comes from the clock: the announcement hand or a hand-for-hand
    hand (§14.2), and players another table already reported out in the same hand are
    settled again together with these (their places and prizes may change; undo restores
    them). `hand_for_hand`/`announcement_hand` force the flags outside that state.

    Four steps: lock and check, settle (the pure rules), write, then log and publish.
    """
    with prepared.ahead(*_lone_bust_reads(tournament, busts)):
        tournament = locks.tournament_for_update(tournament)
        hand = _bust_hand(tournament, hand_for_hand, announcement_hand)
        entries = _locked_busts(tournament, busts)
        # The field and its prizes as they stand before these bust-outs, in one read.
        active, amounts, deal_stands = selectors.elimination_figures(tournament)
        held_seats = _held_seats(entries) if len(entries) == 1 else _held_seats_read(list(entries))
        earlier = _earlier_in_hand(tournament, hand.h4h_hand)
        settlement = _settle(
            tournament, now, busts, entries, held_seats, earlier, hand, active, amounts
        )
        deal = _active_deal(tournament) if deal_stands else None
        data, winner = _write_busts(
            tournament, now, busts, entries, held_seats, earlier, settlement, amounts, deal
        )
        data.update(
            needs_td_confirmation=settlement.needs_td_confirmation,
            confirmation_reasons=list(settlement.confirmation_reasons),
            hand_for_hand=hand.hand_for_hand or hand.announcement_hand,
            h4h_hand=hand.h4h_hand,
        )
        event_log(
            later=True,
            tournament=tournament,
            actor=actor,
            action="entry.eliminate",
            data=data,
            now=now,
        )
        realtime.broadcast(
            tournament.pk,
            elimination_push(data, settlement.remaining_after, winner),
            tables=tuple(sorted({seat[0] for seat in data["seats"].values()})),
        )
        _after_busts(tournament, actor, now, data, settlement)
        return settlement


def _lone_bust_reads(tournament: Tournament, busts: Sequence[Bust]) -> tuple[list, list]:
    """What `prepared.ahead` sends with the row lock. A lone bust, the floor's usual: the
    row lock, the entry's lock and the field's figures go to the database in one trip, in
    that order, so the entry and the figures are read under the lock as they were one
    after another. What the lock finds changed is read again (the figures of a tournament
    that became a flight meanwhile)."""
    if len(busts) != 1:
        return [], []
    reads = [
        locks.read_of(tournament),
        (_LONE_ENTRY_LOCKED, {"pk": busts[0].entry.pk, "tournament_id": tournament.pk}),
    ]
    return reads, [selectors.elimination_figure_reads(tournament)]


def _bust_hand(tournament: Tournament, hand_for_hand: bool, announcement_hand: bool) -> _Hand:
    h4h_hand = _h4h_hand(tournament)
    if h4h_hand is not None:
        if h4h_hand[1] == 0:
            announcement_hand = True
        else:
            hand_for_hand = True
    return _Hand(h4h_hand, hand_for_hand, announcement_hand)


def _locked_busts(tournament: Tournament, busts: Sequence[Bust]) -> dict[int, Entry]:
    """The busted entries, locked, each checked to be playing: a refusal changes nothing."""
    if not busts:
        raise errors.DomainError(_("Choose at least one player who is out."))
    ids = [b.entry.pk for b in busts]
    if len(set(ids)) != len(ids):
        raise errors.DomainError(_("A player is listed twice."))
    if len(ids) == 1:  # a lone bust, the floor's usual: its lock compiled once
        locked = _LONE_ENTRY_LOCKED.instances(pk=ids[0], tournament_id=tournament.pk)
    else:
        locked = Entry.objects.select_for_update().select_related("player")
        locked = locked.filter(pk__in=ids, tournament=tournament)
    entries = {e.pk: e for e in locked}
    for bust in busts:
        entry = entries.get(bust.entry.pk)
        if entry is None or entry.status != Entry.Status.ACTIVE:
            raise errors.NotPlaying(player=str(bust.entry.player))
        if bust.start_stack < 0:
            raise errors.DomainError(_("A stack cannot be negative."))
    return entries


def _settle(
    tournament: Tournament,
    now: datetime,
    busts: Sequence[Bust],
    entries: dict[int, Entry],
    held_seats: dict[int, tuple[int, int]],
    earlier: list,
    hand: _Hand,
    active: int,
    amounts: list[int],
) -> placements.Settlement:
    """Places and prizes of the players out in this hand, by the pure rules."""
    tables = {entry_id: table for entry_id, (table, _number) in held_seats.items()}
    return placements.settle_eliminations(
        remaining_before_hand=active + len(earlier),
        eliminated=[
            placements.Elimination(
                player=str(entry.pk),
                table=table,
                start_stack=stack,
                reason=placements.EliminationReason(entry.elimination_reason),
            )
            for entry, stack, table in earlier
        ]
        + [
            placements.Elimination(
                player=str(b.entry.pk),
                table=str(tables.get(b.entry.pk, "-")),
                start_stack=b.start_stack,
                reason=placements.EliminationReason(b.reason),
            )
            for b in busts
        ],
        prizes=dict(enumerate(amounts, start=1)),
        paid_places=len(amounts),
        rule=placements.SameHandRule(tournament.same_hand_elimination_rule),
        hand_for_hand=hand.hand_for_hand,
        announcement_hand=hand.announcement_hand,
        # The last player left wins (003 Art.7.5): only a lone survivor is ever named,
        # so the others are read only when one is left besides those out now (reading
        # every player at 10,000 entries would slow every bust), and their query is
        # built only then too.
        other_players=[
            str(pk)
            for pk in tournament.entries.filter(status=Entry.Status.ACTIVE)
            .exclude(pk__in=list(entries))
            .values_list("pk", flat=True)
        ]
        if active - len(entries) == 1 and _field_closed(tournament, now)
        else (),
    )


def _write_busts(
    tournament: Tournament,
    now: datetime,
    busts: Sequence[Bust],
    entries: dict[int, Entry],
    held_seats: dict[int, tuple[int, int]],
    earlier: list,
    settlement: placements.Settlement,
    amounts: list[int],
    deal: Deal | None,
) -> tuple[dict[str, Any], Entry | None]:
    """Write the settlement: the busted entries, their seats freed, the players out earlier
    in the hand regrouped, the winner. Returns the log row's data and the winner."""
    dealt = {int(s["entry"]): int(s["amount"]) for s in deal.shares} if deal else {}
    # The euros an equal split leaves over go one each to the group's players, larger
    # starting stack first, so the prizes always add up to the pool [house choice].
    extra: dict[str, int] = {}
    for group in settlement.groups:
        for player in group.players[: group.undivided]:
            extra[player] = 1

    def place(entry: Entry) -> None:
        places = settlement.place_of(str(entry.pk))
        entry.place = places[0] if places else None
        entry.place_last = places[-1] if len(places) > 1 else None
        entry.prize = dealt.get(
            entry.pk, settlement.payout.get(str(entry.pk), 0) + extra.get(str(entry.pk), 0)
        )

    ids = [b.entry.pk for b in busts]
    before = {str(pk): _snapshot(e) for pk, e in entries.items()}
    stacks = {b.entry.pk: b.start_stack for b in busts}
    reasons = {b.entry.pk: placements.EliminationReason(b.reason) for b in busts}
    # Their seats are free (read above with the tables they are at): one statement for
    # all. It, their rows (locked above) and the log's row go with the COMMIT, in its
    # trip to the database (prepared.save_later): none of them answers anything read.
    prepared.delete_later(Seat.objects.filter(entry_id__in=list(held_seats)))
    for pk, entry in entries.items():
        entry.status = Entry.Status.ELIMINATED
        entry.ended_at = now
        entry.elimination_reason = reasons[pk]
        entry.disqualified = str(pk) in settlement.disqualified
        place(entry)
        if reasons[pk] in placements.CHIPS_REMOVED_REASONS:
            # FIGP §87d/§87e: his chips leave play rather than going to anyone.
            entry.chips_removed += stacks[pk]
        prepared.save_later(entry, _SNAPSHOT)
    regrouped: dict[str, dict] = {}
    for entry, _stack, _table in earlier:
        regrouped[str(entry.pk)] = _snapshot(entry)
        place(entry)
        entry.save(update_fields=["place", "place_last", "prize"])
    winner = winner_before = None
    if settlement.winner is not None:
        winner = tournament.entries.get(pk=int(settlement.winner))
        winner_before = {"entry": winner.pk, **_snapshot(winner)}
        winner.place = 1
        winner.prize = (
            dealt[winner.pk] + deal.left_to_play_for
            if deal and winner.pk in dealt
            else (amounts[0] if amounts else 0)
        )
        winner.save(update_fields=["place", "prize"])
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    tables = {entry_id: table for entry_id, (table, _number) in held_seats.items()}
    data = {
        "entries": ids,
        "names": [str(entries[pk].player) for pk in ids],
        "before": before,
        "seats": {str(pk): list(seat) for pk, seat in held_seats.items()},
        "places": {str(pk): [entries[pk].place, entries[pk].place_last] for pk in ids},
        "prizes": {str(pk): entries[pk].prize for pk in ids},
        "winner": winner_before,
        "stacks": {str(pk): stacks[pk] for pk in ids},
        "tables": {str(pk): tables.get(pk) for pk in ids},
        "regrouped": regrouped,
        "regrouped_names": [str(entry.player) for entry, _s, _t in earlier],
    }
    return data, winner


def elimination_push(
    data: dict[str, Any], players_left: int, winner: Entry | None
) -> dict[str, Any]:
    """What the screens are told of a logged bust (its log row's data): the names, and each
    player's finishing place and prize (and the winner's, when one is left), so a phone
    following one of them shows it without asking."""
    out: list[dict[str, Any]] = [
        {"entry": pk, "place": data["places"][str(pk)][0], "prize": data["prizes"][str(pk)]}
        for pk in data["entries"]
    ]
    if winner is not None:
        out.append({"entry": winner.pk, "place": 1, "prize": winner.prize, "winner": True})
    return {"type": "elimination", "names": data["names"], "players_left": players_left, "out": out}


def _after_busts(
    tournament: Tournament,
    actor,
    now: datetime,
    data: dict[str, Any],
    settlement: placements.Settlement,
) -> None:
    """What follows a bust: the clocks say finished at the winner; otherwise the bubble may
    have burst in this hand (hand-for-hand ends by itself) and the room rebalances."""
    if settlement.winner is not None:
        clock_services.clock_republish(tournament=tournament, now=now)
        return
    if tournament.h4h_active:
        handforhand_services.h4h_bubble_burst(
            tournament=tournament,
            tables=[table for table, _seat in data["seats"].values()],
            actor=actor,
            now=now,
        )
    auto_apply(tournament=tournament, actor=actor, now=now)


def _undo_bounty_or_refuse(entry: Entry, actor, now: datetime) -> None:
    """A bust whose bounty was awarded, drawn or sent to the prize pool stays until that
    is undone: back in play with his bounty paid out, the player's bounty would count
    twice on the board and never in the books. An award made in the same action as the
    bust (the bust dialog) is no action of its own: it is undone with the bust."""
    award = (
        BountyAward.objects.filter(eliminated=entry, voided=False, own_bounty=False)
        .select_related("event")
        .first()
    )
    if award is None:
        return
    part = award.event
    with_bust = (
        part is not None
        and part.action == "bounty.award"
        and isinstance(part.data, dict)
        and part.data.get("with_bust") is True
    )
    if with_bust and not part.undoable and part.undone_at is None:
        undo_with(part, actor, now)
        return
    if award.event is None:
        raise errors.CannotUndo(
            reason=_("the bounty of %(player)s is settled") % {"player": entry.player}
        )
    raise errors.CannotUndo(
        reason=_("the bounty of %(player)s is settled: undo “%(action)s” (%(time)s) first")
        % {
            "player": entry.player,
            "action": action_label(award.event),
            "time": timezone.localtime(award.event.at).strftime("%H:%M"),
        }
    )


@undoes("entry.eliminate")
def _undo_eliminate(event: Event, actor, now: datetime) -> None:
    ids = logged_ids(event, "entries") if "entries" in event.data else [logged_id(event, "entry")]
    back: list[dict[str, int]] = []
    for pk in ids:
        entry = scoped(Entry, event).select_for_update().get(pk=pk)
        if entry.status != Entry.Status.ELIMINATED:
            raise errors.CannotUndo(reason=_("the entry is no longer marked eliminated"))
        if Entry.objects.filter(
            tournament_id=entry.tournament_id, player_id=entry.player_id, status="active"
        ).exists():
            raise errors.CannotUndo(reason=_("the player has re-entered since"))
        later = Event.objects.filter(
            tournament_id=event.tournament_id,
            action="entry.eliminate",
            undone_at__isnull=True,
            pk__gt=event.pk,
        ).exists()
        if later:
            raise errors.CannotUndo(reason=_("undo the later eliminations first"))
        _undo_bounty_or_refuse(entry, actor, now)
        before = (event.data.get("before") or {}).get(str(pk))
        if before:
            if not isinstance(before, dict) or not set(before) <= {*_SNAPSHOT, "ended_at"}:
                raise errors.CannotUndo(reason=_("its log row is damaged"))
            for name, value in before.items():
                setattr(entry, name, Entry._meta.get_field(name).to_python(value))
        else:
            entry.status = Entry.Status.ACTIVE
            entry.ended_at = None
        entry.save()
        seat = (event.data.get("seats") or {}).get(str(pk)) or event.data.get("seat")
        if seat:
            table = Table.objects.get(tournament_id=entry.tournament_id, number=seat[0])
            seat_services.seat_place(entry=entry, table=table, seat=seat[1], now=now)
            back.append({"entry": pk, "table": seat[0], "seat": seat[1]})
    for pk, before in (event.data.get("regrouped") or {}).items():
        # Players reported earlier in the same hand-for-hand hand get their places back.
        entry = scoped(Entry, event).select_for_update().get(pk=int(pk))
        for name in ("place", "place_last", "prize"):
            setattr(entry, name, Entry._meta.get_field(name).to_python(before[name]))
        entry.save(update_fields=["place", "place_last", "prize"])
    winner = event.data.get("winner")
    if winner:
        scoped(Entry, event).filter(pk=int(winner["entry"])).update(
            place=winner["place"], prize=winner["prize"]
        )
        Tournament.objects.filter(pk=event.tournament_id).update(status=Tournament.Status.RUNNING)
        # The clocks count again from where they are (they said finished).
        clock_services.clock_republish(
            tournament=Tournament.objects.get(pk=event.tournament_id), now=now
        )
    # Hand-for-hand that this bust ended (the bubble burst) is back on with it.
    burst = (
        Event.objects.filter(
            tournament_id=event.tournament_id,
            action="h4h.stop",
            undone_at__isnull=True,
            pk__gt=event.pk,
            data__bubble_burst=True,
        )
        .order_by("-pk")
        .first()
    )
    if burst is not None:
        event_undo(event_id=burst.pk, tournament=burst.tournament, actor=actor, now=now)
    # The players back in their seats: a phone following one of them shows the seat again.
    realtime.broadcast(event.tournament_id, {"type": "figures", "back": back})


# --- Payout table ---------------------------------------------------------------------


def _check_payouts_editable(tournament: Tournament) -> None:
    if selectors.money_reached(tournament):
        raise errors.DomainError(_("The money has been reached: the payouts are fixed."))


@transaction.atomic
def payouts_generate(
    *, tournament: Tournament, actor, now: datetime, paid_places: int | None = None
) -> list[int]:
    """Store a payout table generated for the field as it stands (§16.2: at least 10% of
    entries paid, decreasing, amounts rounded to the unit with the remainder to first)."""
    tournament = locks.tournament_for_update(tournament)
    _check_payouts_editable(tournament)
    pool = selectors.prize_pool(tournament).prize_pool
    entries = selectors.buy_ins(tournament)
    if entries < 1:
        raise errors.DomainError(_("Nobody has entered yet."))
    places = paid_places or payouts.min_paid_places(entries)
    minimum = payouts.min_paid_places(entries)
    if places < minimum or places > entries:
        raise errors.DomainError(
            _("Pay between %(min)s and %(max)s places."), min=minimum, max=entries
        )
    try:
        table = payouts.generate_payout_table(
            prize_pool=pool, entries=entries, paid_places=places, unit=tournament.payout_unit or 1
        )
    except ValueError:
        raise errors.DomainError(
            _("A pool of %(pool)s cannot pay %(places)s decreasing prizes."),
            pool=pool,
            places=places,
        ) from None
    return _store_payouts(tournament, list(table.amounts), actor, now)


@transaction.atomic
def payouts_set(*, tournament: Tournament, actor, amounts: list[int], now: datetime) -> list[int]:
    """Store a payout table written by the TD: decreasing amounts that sum to the pool, at
    least 10% of the entries paid (003 Art.8); refused once the money is reached."""
    tournament = locks.tournament_for_update(tournament)
    _check_payouts_editable(tournament)
    pool = selectors.prize_pool(tournament).prize_pool
    amounts = [int(a) for a in amounts if int(a) > 0]
    if sum(amounts) != pool:
        raise errors.DomainError(
            _("The prizes add up to %(sum)s, the prize pool is %(pool)s."),
            sum=sum(amounts),
            pool=pool,
        )
    check = payouts.validate_payout_structure(
        entries=selectors.buy_ins(tournament),
        paid_places=len(amounts),
        percentages=[payouts.exact(a) * 100 / pool for a in amounts],
    )
    if payouts.REASON_PAID_BELOW_MIN in check.reasons:
        raise errors.DomainError(
            _("At least %(min)s places must be paid."), min=check.min_paid_places
        )
    if payouts.REASON_NOT_DECREASING in check.reasons:
        raise errors.DomainError(_("Each prize must be no larger than the one before it."))
    return _store_payouts(tournament, amounts, actor, now)


def _store_payouts(tournament: Tournament, amounts: list[int], actor, now: datetime) -> list[int]:
    before = list(tournament.payouts)
    tournament.payouts = amounts
    tournament.save(update_fields=["payouts"])
    event_log(
        tournament=tournament,
        actor=actor,
        action="payouts.set",
        data={"before": before, "after": amounts},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "payouts", **selectors.payouts_board(tournament)})
    return amounts


@undoes("payouts.set")
def _undo_payouts(event: Event, actor, now: datetime) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    _check_payouts_editable(tournament)
    tournament.payouts = event.data["before"]
    tournament.save(update_fields=["payouts"])


# --- Deals ----------------------------------------------------------------------------


def deal_propose(
    *, tournament: Tournament, stacks: dict[int, int], method: str, left_to_play_for: int = 0
) -> payouts.Deal:
    """Compute a deal among the players still in (ICM exact up to 10, or a chip chop).

    `stacks` maps every active entry's pk to its chips. Read only.
    """
    active = set(tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True))
    if set(stacks) != active:
        raise errors.DomainError(_("Give the chip count of every player still in."))
    if len(active) < 2:
        raise errors.DomainError(_("A deal needs at least two players."))
    order = sorted(stacks)
    chips = [stacks[pk] for pk in order]
    if any(c <= 0 for c in chips):
        raise errors.DomainError(_("Every stack must be positive."))
    amounts = selectors.payout_amounts(tournament)
    prizes = payouts.prizes_from_mapping(dict(enumerate(amounts, start=1)), len(order))
    try:
        if method == "icm":
            return payouts.icm_deal(chips, prizes, left_to_play_for=left_to_play_for)
        if method == "chip_chop":
            return payouts.chip_chop(chips, prizes, left_to_play_for=left_to_play_for)
    except ValueError as exc:
        raise errors.DomainError(_("This deal cannot be computed: %(why)s"), why=str(exc)) from None
    raise errors.DomainError(_("Unknown deal method."))


@transaction.atomic
def deal_record(
    *,
    tournament: Tournament,
    stacks: dict[int, int],
    method: str,
    actor,
    now: datetime,
    left_to_play_for: int = 0,
) -> Deal:
    """Record the deal the players accepted: each takes his amount when he finishes, the
    winner adds what was left to play for (§16.3, house procedure)."""
    tournament = locks.tournament_for_update(tournament)
    proposal = deal_propose(
        tournament=tournament, stacks=stacks, method=method, left_to_play_for=left_to_play_for
    )
    order = sorted(stacks)
    shares = [
        {"entry": pk, "stack": stacks[pk], "amount": amount}
        for pk, amount in zip(order, proposal.amounts, strict=True)
    ]
    # The same deal sent twice (a double click, a retry) is recorded once.
    recorded = errors.DomainError(_("This deal is already recorded."))
    if Deal.objects.filter(tournament=tournament, voided=False, shares=shares).exists():
        raise recorded
    with locks.once(recorded):
        deal = Deal.objects.create(
            tournament=tournament,
            method=method,
            shares=shares,
            left_to_play_for=left_to_play_for,
            created_at=now,
        )
    Entry.objects.filter(pk__in=order).update(deal_amount=None)
    for pk, amount in zip(order, proposal.amounts, strict=True):
        Entry.objects.filter(pk=pk).update(deal_amount=amount)
    event_log(
        tournament=tournament,
        actor=actor,
        action="deal.record",
        data={"deal": deal.pk, "method": method, "shares": deal.shares, "left": left_to_play_for},
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "deal", "left_to_play_for": left_to_play_for})
    return deal


@undoes("deal.record")
def _undo_deal(event: Event, actor, now: datetime) -> None:
    deal = scoped(Deal, event).select_for_update().get(pk=logged_id(event, "deal"))
    pks = [s["entry"] for s in deal.shares]
    if Entry.objects.filter(pk__in=pks).exclude(status=Entry.Status.ACTIVE).exists():
        raise errors.CannotUndo(reason=_("a player in the deal has finished since"))
    deal.voided = True
    deal.save(update_fields=["voided"])
    Entry.objects.filter(pk__in=pks).update(deal_amount=None)

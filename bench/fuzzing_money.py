"""Every money action sent several times at once: double clicks, retries, two tabs.

For each money action (a void and its refund, a bust that pays a prize, a deal, a bounty
award and the winner's own bounty, a satellite's seats, a hand's rake, a correction to a
closed night, a cash buy-in) a round prepares a fresh sale or seat through the services,
then sends COPIES identical POSTs at the same moment, each from its own thread with its
own database connection (as the server's workers would), and counts:

- a server error: any answer of 500 or more (a lock timeout, a constraint the view did not
  expect);
- a double payment: the action's money row (a refund, a ticket, a rake, a correction, ...)
  written more than once, or chips sold more than once;
- a partial write: the money written without its log row, or logged more often than
  written.

Unlike the other fuzz cases these requests commit (parallel requests cannot share one
rolled-back transaction): the rounds write into events of their own, dated on nights no
real event uses, and `delete_money_world` removes everything afterwards.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from bench.fuzzing import forms, outcomes, worlds
from room.services import books as night_services

COPIES = 4  # identical requests sent at once in a round


@dataclass
class MoneyWorld:
    """The events, players and cash table the rounds write to, and their nights."""

    world: worlds.World
    sales_night: date
    closed_night: date
    events: dict[str, int] = field(default_factory=dict)
    player_ids: list[int] = field(default_factory=list)
    tournament_ids: list[int] = field(default_factory=list)
    game_id: int | None = None
    table_id: int | None = None
    room_events_after: int = 0

    @property
    def td(self):
        return self.world.users["td"]


def _private_night(offset: int) -> date:
    """A night long past that no real event uses (a random one per run)."""
    return date(1990, 1, 1) + timedelta(days=uuid.uuid4().int % 3000 * 2 + offset)


def _player(money: MoneyWorld):
    from tournaments.models import Player

    player = Player.objects.create(first_name="Dup", last_name=f"Money{uuid.uuid4().hex[:10]}")
    money.player_ids.append(player.pk)
    return player


def _event(money: MoneyWorld, night: date, **fields: Any):
    from tournaments.services import layout as layout_services
    from tournaments.services import setup as setup_services

    now = timezone.now()
    defaults = {"name": f"Dup {uuid.uuid4().hex[:8]}", "date": night, "seats_per_table": 9}
    tournament = setup_services.tournament_create(
        actor=money.td, fields={**defaults, **fields}, now=now
    )
    money.tournament_ids.append(tournament.pk)
    spec = setup_services.ItemSpec
    setup_services.structure_set(
        tournament=tournament,
        actor=money.td,
        items=[spec(kind="level", small_blind=100, big_blind=200, minutes=20)],
        now=now,
    )
    # Seats for every round of a long run: the shared sales event sells in each of them.
    layout_services.tables_add(
        tournament=tournament,
        actor=money.td,
        first=1,
        last=30,
        max_seats=9,
        accessible_seats=[],
        reserved_seats=[],
        now=now,
    )
    return tournament


def _sell(money: MoneyWorld, tournament):
    from tournaments.services import entries as entry_services

    return entry_services.entry_register(
        tournament=tournament, player=_player(money), actor=money.td, now=timezone.now()
    ).entry


def _bust(money: MoneyWorld, tournament, entry) -> None:
    from tournaments.services import results

    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=1000)],
        actor=money.td,
        now=timezone.now(),
    )


def build_money_world(world: worlds.World) -> MoneyWorld:
    from room.models import CashGame, RoomEvent
    from room.services import cash_lists, cash_tables

    money = MoneyWorld(world, sales_night=_private_night(0), closed_night=_private_night(1))
    money.room_events_after = (
        RoomEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    )
    sales = _event(
        money,
        money.sales_night,
        rebuys_allowed=True,
        rebuy_max=50,
        rebuy_price=50,
        rebuy_chips=20000,
        bounty_format="fixed",
        bounty_part_cents=2000,
    )
    money.events["sales"] = sales.pk
    closed = _event(money, money.closed_night)
    _sell(money, closed)
    night_services.night_close(night=money.closed_night, actor=money.td, now=timezone.now())
    game = CashGame.objects.create(sb=2, bb=5, min_buy_in=200, rake_percent=5, rake_cap=30)
    money.game_id = game.pk
    players = [_player(money) for _ in range(2)]
    now = timezone.now()
    for player in players:
        cash_lists.list_add(actor=money.td, games=[game], player=player, present=True, now=now)
    number = 9000 + uuid.uuid4().int % 900
    table = cash_tables.table_open(
        actor=money.td, game=game, number=number, present={p.pk for p in players}, now=now
    )
    money.table_id = table.pk
    return money


def delete_money_world(money: MoneyWorld) -> None:
    from room.models import CashGame, CashOut, CashSeat, CashTable, RakeRecord, RoomEvent, WaitEntry
    from tournaments.models import NightClose, Player, SeatBoardVersion, Tournament

    with transaction.atomic():
        family = Tournament.objects.filter(
            Q(pk__in=money.tournament_ids) | Q(parent_id__in=money.tournament_ids)
        )
        ids = list(family.values_list("pk", flat=True))
        Tournament.objects.filter(pk__in=ids).delete()
        SeatBoardVersion.objects.filter(tournament_id__in=ids).delete()
        NightClose.objects.filter(night__in=[money.sales_night, money.closed_night]).delete()
        RakeRecord.objects.filter(game_id=money.game_id).delete()
        CashSeat.objects.filter(table__game_id=money.game_id).delete()
        CashTable.objects.filter(game_id=money.game_id).delete()
        WaitEntry.objects.filter(game_id=money.game_id).delete()
        CashOut.objects.filter(game_id=money.game_id).delete()
        CashGame.objects.filter(pk=money.game_id).delete()
        # The rounds' cash room and the nights they closed and corrected.
        RoomEvent.objects.filter(pk__gt=money.room_events_after, actor=money.td).delete()
        Player.objects.filter(pk__in=money.player_ids).delete()


# --- The rounds -------------------------------------------------------------------------

Counter = Callable[[], tuple[int, int]]  # (times the action was written, its log rows)


@dataclass(frozen=True)
class Round:
    """One money action ready to be sent: its URL and form, and how to count it after."""

    url: str
    data: dict[str, Any]
    count: Counter


def _logged(tournament_id: int | None, action: str, since: int, **data: Any) -> int:
    from tournaments.models import Event

    rows = Event.objects.filter(action=action, pk__gt=since, undone_at=None)
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    return rows.filter(**{f"data__{k}": v for k, v in data.items()}).count()


def _last_event() -> int:
    from tournaments.models import Event

    return Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _void(kind: str) -> Callable[[MoneyWorld], Round]:
    def prepare(money: MoneyWorld) -> Round:
        from tournaments.events import event_undo
        from tournaments.models import CashRefund, Event, Tournament
        from tournaments.services import entries as entry_services

        tournament = Tournament.objects.get(pk=money.events["sales"])
        entry = _sell(money, tournament)
        data: dict[str, Any] = {"entry": entry.number, "reason": "sold twice"}
        refunds = CashRefund.objects.filter(entry=entry, purchase=None)
        if kind == "undone":
            logged = Event.objects.get(action="entry.register", data__entry=entry.pk)
            event_undo(
                event_id=logged.pk, tournament=tournament, actor=money.td, now=timezone.now()
            )
        elif kind == "rebuy":
            purchase = entry_services.entry_purchase(
                tournament=tournament,
                entry=entry,
                kind="rebuy",
                actor=money.td,
                now=timezone.now(),
                stack=0,
            )
            data["purchase"] = purchase.pk
            refunds = CashRefund.objects.filter(purchase=purchase)
        since = _last_event()
        return Round(
            reverse("sale_void", args=[tournament.slug]),
            data,
            lambda: (
                refunds.count(),
                _logged(tournament.pk, "books.refund", since, entry=entry.pk),
            ),
        )

    return prepare


def _eliminate(money: MoneyWorld) -> Round:
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=money.events["sales"])
    entry = _sell(money, tournament)
    since = _last_event()

    def count() -> tuple[int, int]:
        busts = _logged(tournament.pk, "entry.eliminate", since)
        return busts, busts

    return Round(reverse("eliminate", args=[tournament.slug, entry.number]), {}, count)


def _deal(money: MoneyWorld) -> Round:
    from tournaments.models import Deal
    from tournaments.services import results

    tournament = _event(money, money.sales_night)
    entries = [_sell(money, tournament) for _ in range(3)]
    results.payouts_generate(tournament=tournament, actor=money.td, now=timezone.now())
    data = {"action": "accept", "method": "icm"}
    data.update({f"stack_{e.number}": str(10000 * (k + 1)) for k, e in enumerate(entries)})
    since = _last_event()
    return Round(
        reverse("deal", args=[tournament.slug]),
        data,
        lambda: (
            Deal.objects.filter(tournament=tournament, voided=False).count(),
            _logged(tournament.pk, "deal.record", since),
        ),
    )


def _bounty(money: MoneyWorld) -> Round:
    from tournaments.models import BountyAward, Tournament

    tournament = Tournament.objects.get(pk=money.events["sales"])
    winner, out = _sell(money, tournament), _sell(money, tournament)
    _bust(money, tournament, out)
    since = _last_event()
    data = {"eliminated": out.number, "winners": str(winner.number), "confirm": "on"}
    return Round(
        reverse("bounty_award", args=[tournament.slug]),
        data,
        lambda: (
            BountyAward.objects.filter(eliminated=out, voided=False).count(),
            _logged(tournament.pk, "bounty.award", since),
        ),
    )


def _own_bounty(money: MoneyWorld) -> Round:
    from tournaments.models import BountyAward, Entry, Tournament

    tournament = _event(money, money.sales_night, bounty_format="fixed", bounty_part_cents=2000)
    winner, out = _sell(money, tournament), _sell(money, tournament)
    _bust(money, tournament, out)
    # The clock never ran: finish the event as its end would (late registration closed).
    Entry.objects.filter(pk=winner.pk).update(place=1)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    since = _last_event()
    return Round(
        reverse("own_bounty", args=[tournament.slug]),
        {},
        lambda: (
            BountyAward.objects.filter(winner=winner, own_bounty=True, voided=False).count(),
            _logged(tournament.pk, "bounty.own", since),
        ),
    )


def _satellite(money: MoneyWorld) -> Round:
    from tournaments.models import SeatTicket

    target = _event(money, money.sales_night, buy_in_prize=150)
    satellite = _event(
        money,
        money.sales_night,
        prize_type="seats",
        target_event=target,
        seat_value_cents=15000,
        buy_in_prize=100,
    )
    entries = [_sell(money, satellite) for _ in range(4)]
    for entry in entries[2:]:
        _bust(money, satellite, entry)
    since = _last_event()

    def count() -> tuple[int, int]:
        tickets = SeatTicket.objects.filter(satellite=satellite, voided=False)
        # One award writes one ticket per place won (a seat, or its cash): a second
        # award doubles them.
        places = tickets.values("player", "place", "kind").distinct().count()
        awards = tickets.count() // places if places else 0
        return awards, _logged(satellite.pk, "satellite.award", since)

    return Round(reverse("satellite_award", args=[satellite.slug]), {}, count)


def _rake(money: MoneyWorld) -> Round:
    from room.models import CashTable, RakeRecord
    from room.selectors import cash as cash_reads

    table = CashTable.objects.get(pk=money.table_id)
    hand = cash_reads.next_rake_hand(table)
    data = {"pot": "130", "flop_dealt": "on", "hand": str(hand), "next": "tablet"}
    return Round(
        reverse("cash_table_rake", args=[table.pk]),
        data,
        lambda: (
            RakeRecord.objects.filter(table=table, hand__gte=hand).count(),
            _room_logged(money, "cash.rake", hand=hand, table=table.pk),
        ),
    )


def _room_logged(money: MoneyWorld, action: str, **match: Any) -> int:
    from room.models import RakeRecord, RoomEvent

    rows = RoomEvent.objects.filter(pk__gt=money.room_events_after, action=action)
    if action == "cash.rake":
        records = RakeRecord.objects.filter(table_id=match["table"], hand__gte=match["hand"])
        return rows.filter(data__record__in=list(records.values_list("pk", flat=True))).count()
    return rows.filter(**{f"data__{k}": v for k, v in match.items()}).count()


def _buy_in(money: MoneyWorld) -> Round:
    from room.models import CashSeat, RoomEvent

    seat = CashSeat.objects.filter(table_id=money.table_id).order_by("number").first()
    assert seat is not None
    before = seat.buy_in
    since = RoomEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    data = {"stack": "40", "amount": "300", "bought": str(before)}

    def count() -> tuple[int, int]:
        now = CashSeat.objects.get(pk=seat.pk).buy_in
        sales = (now - before) // 300
        logged = RoomEvent.objects.filter(
            pk__gt=since, action="cash.buy", data__player=seat.player_id
        ).count()
        return sales, logged

    return Round(reverse("cash_seat_buy", args=[seat.pk]), data, count)


def _correction(money: MoneyWorld) -> Round:
    import secrets

    from tournaments.models import CashCorrection

    key = secrets.token_urlsafe(24)  # the confirmation page's one-time key
    data = {
        "night": money.closed_night.isoformat(),
        "amount": "-20",
        "payment_method": "cash",
        "reason": f"till short {key[:8]}",  # one round's own, to count its log rows
        "confirm": "on",
        "key": key,
    }
    return Round(
        reverse("night_correct"),
        data,
        lambda: (
            CashCorrection.objects.filter(key=key).count(),
            # A correction is the room's: logged in the room's log.
            _room_logged(money, "room.night_correction", reason=data["reason"]),
        ),
    )


ACTIONS: dict[str, Callable[[MoneyWorld], Round]] = {
    "void": _void("playing"),
    "void_undone": _void("undone"),
    "void_rebuy": _void("rebuy"),
    "eliminate_prize": _eliminate,
    "deal": _deal,
    "bounty_award": _bounty,
    "own_bounty": _own_bounty,
    "satellite_award": _satellite,
    "cash_rake": _rake,
    "cash_buy_in": _buy_in,
    "night_correct": _correction,
}


def run_duplicate_round(money: MoneyWorld, name: str, copies: int = COPIES) -> outcomes.Outcome:
    """One action prepared, sent `copies` times at once; what it wrote, counted."""
    outcome = outcomes.Outcome(f"dup:{name}")
    try:
        ready = ACTIONS[name](money)
    except Exception as exc:  # noqa: BLE001 - a round that cannot be prepared is a finding
        outcome.server_error = f"preparing the round failed: {type(exc).__name__}: {exc}"
        return outcome
    clients = [forms._client("td", money.world) for _ in range(copies)]
    barrier = threading.Barrier(copies)
    statuses: list[int] = []
    crashes: list[str] = []

    def send(client) -> None:
        try:
            barrier.wait()
            statuses.append(client.post(ready.url, ready.data).status_code)
        except Exception as exc:  # noqa: BLE001 - reported as a server error
            crashes.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [s for s in statuses if s >= 500]
    if crashes or errors:
        outcome.server_error = f"{name}: answers {sorted(statuses)} {crashes[:2]}"
    written, logged = ready.count()
    if written > 1:
        outcome.double_payment = f"{name}: written {written} times (answers {sorted(statuses)})"
    if written != logged and written <= 1:
        outcome.partial_write = f"{name}: written {written}, logged {logged}"
    outcome.accepted = written > 0
    outcome.refused = written == 0
    return outcome


def run_duplicates(world: worlds.World, rounds: int, tally: outcomes.Tally) -> None:
    """`rounds` rounds of every money action, each sent COPIES times at once."""
    money = build_money_world(world)
    try:
        for _ in range(rounds):
            for name in ACTIONS:
                tally.add(run_duplicate_round(money, name))
    finally:
        delete_money_world(money)

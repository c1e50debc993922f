"""The room's rows of the world, made after `worlds.build_world` made its event, through the
services as the room would: accounts holding the cash floor's, the pit's and the books' room
roles, two dealers with a PIN and a profile, clocked in and at tables; a pit table open and
one closed; a cash game with a table open, a name called, a remote joiner not yet arrived and
another game to join; hands raked into the jackpot fund, bad beats judged (one confirmed by
the floor, one refused), a past hour's high hand paid and another's to pay; a kiosk and a
revoked one; reservations of the event held, waiting and cancelled; a player's push and
e-mail opt-ins. The cash room's settings, the dealers' row and the jackpot fund are one row
each for the whole room: `delete_room` removes what the world made and puts them back as
they were. `scope` names the room's rows the snapshot watches.
"""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass
from datetime import time, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World

# The room's own accounts of the world, by the name its cases log in with.
ROOM_USERS = {
    "room_cash": "cash",
    "room_pit": "pit",
    "room_books": "books",
    "dealer": "dealer",
    "dealer2": "dealer",
}
PINS = {"dealer": "4826", "dealer2": "5937"}
# A bad beat the default rules pay: aces full of kings beaten by four kings.
BOARD = "As Kh Ks 7c 2d"
LOSER, WINNER = (3, "Ah Ad"), (7, "Kc Kd")


@dataclass
class RoomWorld:
    """The room's rows of the world, by kind."""

    dealer_ids: list[int]
    pit_tables: dict[str, int]  # "open" / "closed"
    kiosks: dict[str, int]  # "on" / "off"
    kiosk_tokens: dict[str, str]
    card: str  # the document number a kiosk identifies a player by
    cash_player_ids: list[int]
    cash_game_ids: list[int]  # the listed game, the game to join
    cash_table_ids: list[int]
    cash_seat_ids: list[int]
    tournament_table_ids: list[int]
    wait_entries: dict[str, int]  # "called", "remote", "waiting"
    called: tuple[int, int, str]  # the called entry, its player, when he was called
    phone_versions: dict[int, int]  # player -> his phone link's current version
    claims: dict[str, int]  # "judged", "confirmed", "refused", "high_paid", "high_due"
    payment_ids: list[int]
    period_due: str  # the start of a past period whose high hand is not paid yet
    reservations: dict[str, int]  # "held", "held_email", "waiting", "cancelled"
    codes: dict[str, str]
    opt_ins: list[tuple[str, int]]  # ("push" | "email", pk)
    endpoint: str
    event_ids: list[int]  # the room's log rows the world wrote (undoable and not)
    events: dict[str, list[int]]  # the same, of the dealers' and of the jackpots'


# --- The world's room ------------------------------------------------------------------


def _row(model) -> dict[str, Any] | None:
    return model.objects.order_by("pk").values().first()


def room_rows() -> dict[str, Any]:
    """The room's one-row settings (the cash room's, the dealers', the jackpot fund) and the
    room's last log row, before the world: what `delete_room` puts back."""
    from room.models import CashRoom, DealerRoom, JackpotFund, RoomEvent

    return {
        "cash_room": _row(CashRoom),
        "dealer_room": _row(DealerRoom),
        "fund": _row(JackpotFund),
        "events_after": RoomEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
    }


def build_room(world: World) -> RoomWorld:
    """Everything the room's routes act on, made through the services (committed by the
    caller, as the world is)."""
    from django.contrib.auth import get_user_model

    from room.models import GAME_CHOICES, PitTable, PushSubscription, RoomEvent, WaitEntry
    from room.selectors import jackpots as jackpot_reads
    from room.selectors import kiosk as kiosk_selectors
    from room.services import (
        accounts,
        cash_lists,
        cash_players,
        cash_rake,
        cash_settings,
        cash_tables,
        dealers,
        jackpots,
        kiosk,
        optins,
        staff,
    )
    from tables.cash.jackpot import ClaimedHand
    from tournaments.models import Player, RoomRole, Table, Tournament
    from tournaments.services import reservations

    now = timezone.now()
    td = world.users["td"]
    label = world.usernames["td"].split("-td-")[0]
    suffix = uuid.uuid4().hex[:8]
    events_after = world.room_before.get("events_after", 0)

    User = get_user_model()
    for name, role in ROOM_USERS.items():
        user = User(username=f"{label}-{name}-{suffix}")
        user.set_unusable_password()
        user.save()
        world.users[name] = user
        world.usernames[name] = user.get_username()
        staff.room_role_set(
            actor=td, username=user.get_username(), role=RoomRole(role), given=True, now=now
        )
    floor = world.users["room_cash"]
    for name, pin in PINS.items():
        accounts.pin_set(actor=td, username=world.usernames[name], pin=pin, now=now)

    # The pit's tables: one open, one closed.
    pit_open = dealers.pit_table_add(
        actor=world.users["room_pit"], name=f"BJ {suffix}", game="blackjack", now=now
    )
    dealers.pit_table_status(
        actor=world.users["room_pit"], table=pit_open, status=PitTable.Status.OPEN, now=now
    )
    pit_closed = dealers.pit_table_add(
        actor=world.users["room_pit"], name=f"PB {suffix}", game="punto_banco", now=now
    )

    # The cash room: players, a game with a table, a list with a name called and a remote
    # joiner, another game to join.
    players = [
        Player.objects.create(first_name=f"Cash{i}", last_name=f"Fuzz{suffix}{i:02d}")
        for i in range(6)
    ]
    card = f"FZ{suffix.upper()}"
    Player.objects.filter(pk=players[5].pk).update(document_number=card)
    Player.objects.filter(pk=players[4].pk).update(document_number=f"{card}B")
    world.player_ids.extend(p.pk for p in players)
    stakes = {"variant": "Hold'em", "structure": "no_limit", "max_buy_in": None, "max_seats": 9}
    stakes |= {"rake_percent": 5, "rake_cap": 30, "active": True}
    games = [
        cash_settings.game_save(
            actor=td,
            game=None,
            values={**stakes, "sb": sb, "bb": bb, "min_buy_in": 40 * bb},
            now=now,
        )
        for sb, bb in ((2, 5), (5, 10))
    ]
    for player in players[:4]:
        cash_lists.list_add(actor=floor, player=player, games=[games[0]], present=True, now=now)
    number = 8000 + uuid.uuid4().int % 900
    table = cash_tables.table_open(
        actor=floor, game=games[0], number=number, present={players[0].pk, players[1].pk}, now=now
    )
    free = cash_lists.free_seats(table)
    called = cash_lists.list_call(actor=floor, table=table, seat=free[0], now=now)
    cash_settings.room_settings_save(
        actor=td, values={"remote_joins": True, "remote_arrival_minutes": 30}, now=now
    )
    (remote,) = cash_lists.remote_join(player=players[4], games=[games[0]], now=now)
    plain = WaitEntry.objects.get(game=games[0], player=players[3])  # waits, uncalled
    cash_players.phone_link_new(actor=floor, player=players[2], now=now)  # his older links are off

    # The jackpots: drops into the fund, bad beats judged, a past period's high hand paid and
    # another's waiting to be paid (a day apart: two periods whether the room pays by the
    # hour, the shift or the day).
    for _hand in range(10):
        cash_rake.rake_record(
            actor=floor, table=table, pot=200, flop_dealt=True, dealer=None, shift="", now=now
        )
    where = jackpots.Where(cash_table=table)
    board = BOARD.split()

    def bad_beat(loser=LOSER, winner=WINNER):
        return jackpots.claim_bad_beat(
            actor=floor,
            where=where,
            board=board,
            loser=ClaimedHand(loser[0], tuple(loser[1].split())),
            winner=ClaimedHand(winner[0], tuple(winner[1].split())),
            dealt=[1, 2, 3, 5, 7],
            now=now,
        )

    judged, confirmed = bad_beat(), bad_beat()
    jackpots.claim_confirm(actor=floor, claim=confirmed, now=now)
    refused = bad_beat(loser=(3, "Qc Jd"))

    def high_hand(days: int):
        return jackpots.high_hand_record(
            actor=floor,
            where=where,
            board=board,
            hand=ClaimedHand(1, ("Ac", "Ad")),
            at=now - timedelta(days=days),
            now=now,
        )

    high_paid, high_due = high_hand(2), high_hand(1)
    payment = jackpots.high_hand_pay(actor=td, period_start=high_paid.period_start, now=now)
    assert jackpot_reads.periods_to_pay(now), "the world has a period to pay"

    # The dealers: profiles, clocked in, one moved to the pit by the floor (undoable).
    dealer_ids = [world.users[name].pk for name in PINS]
    every_game = [code for code, _words in GAME_CHOICES]
    for name, games_dealt in (("dealer", every_game), ("dealer2", ["blackjack"])):
        dealers.profile_save(
            actor=td,
            dealer=world.users[name],
            games=games_dealt,
            start=time(0, 0),
            end=time(23, 59),
            now=now,
        )
        dealers.clock_in(dealer=world.users[name], now=now)
    pit_key = f"pit:{pit_open.pk}"
    dealers.override(actor=floor, dealer_id=dealer_ids[0], table_key=pit_key, now=now)

    # The kiosks, one of them revoked.
    kiosk_on = kiosk.kiosk_create(actor=td, name=f"Kiosk {suffix}", now=now)
    kiosk_off = kiosk.kiosk_create(actor=td, name=f"Lost kiosk {suffix}", now=now)
    kiosk.kiosk_revoke(actor=td, kiosk=kiosk_off, now=now)
    assert kiosk_selectors.player_by_card(card) is not None

    # The event's reservations: two held (its seats), one waiting, one cancelled.
    tournament = Tournament.objects.get(pk=world.tournament_id)
    made = {}
    for key, contact in (
        ("held", {"phone": "+39 333 100 0001"}),
        ("held_email", {"email": f"held-{suffix}@example.org"}),
        ("waiting", {"phone": "+39 333 100 0003"}),
        ("cancelled", {"phone": "+39 333 100 0004"}),
    ):
        made[key] = reservations.reservation_make(
            tournament=tournament,
            first_name="Res",
            last_name=f"{key.title()}{suffix}",
            accepted_terms=True,
            language="it",
            now=now,
            **contact,
        )
    reservations.reservation_cancel(tournament=tournament, reservation=made["cancelled"], now=now)

    # A player's opt-ins. The push subscription is written as the phone's page would leave
    # it, without the service's first notice (a push to an address that is no service).
    endpoint = f"https://push.invalid/fuzz/{suffix}"
    push = PushSubscription.objects.create(
        player=players[0],
        endpoint=endpoint,
        p256dh=_b64(65),
        auth=_b64(16),
        language="it",
        consented_at=now,
    )
    email = optins.email_opt_in(
        player=players[0],
        email=f"optin-{suffix}@example.org",
        base_url="http://testserver/",
        language="it",
        now=now,
    )

    logged = dict(RoomEvent.objects.filter(pk__gt=events_after).values_list("pk", "action"))
    called.refresh_from_db()
    return RoomWorld(
        dealer_ids=dealer_ids,
        pit_tables={"open": pit_open.pk, "closed": pit_closed.pk},
        kiosks={"on": kiosk_on.pk, "off": kiosk_off.pk},
        kiosk_tokens={"on": str(kiosk_on.token), "off": str(kiosk_off.token)},
        card=card,
        cash_player_ids=[p.pk for p in players],
        cash_game_ids=[g.pk for g in games],
        cash_table_ids=[table.pk],
        cash_seat_ids=list(table.seats.values_list("pk", flat=True)),
        tournament_table_ids=list(
            Table.objects.filter(tournament_id=world.tournament_id).values_list("pk", flat=True)
        ),
        wait_entries={"called": called.pk, "remote": remote.pk, "waiting": plain.pk},
        called=(called.pk, called.player_id, called.called_at.isoformat()),
        phone_versions={p.pk: 1 if p == players[2] else 0 for p in players},
        claims={
            "judged": judged.pk,
            "confirmed": confirmed.pk,
            "refused": refused.pk,
            "high_paid": high_paid.pk,
            "high_due": high_due.pk,
        },
        payment_ids=[payment.pk],
        period_due=high_due.period_start.isoformat(),
        reservations={key: r.pk for key, r in made.items()},
        codes={key: r.code for key, r in made.items()},
        opt_ins=[("push", push.pk), ("email", email.pk)],
        endpoint=endpoint,
        event_ids=list(logged),
        events={
            "dealer": [pk for pk, action in logged.items() if action in dealers.ACTIONS],
            "jackpot": [pk for pk, a in logged.items() if a.startswith("cash.jackpot")],
        },
    )


def _b64(size: int) -> str:
    return base64.urlsafe_b64encode(bytes(range(1, size + 1))).rstrip(b"=").decode()


def delete_room(world: World) -> None:
    """Remove the room's rows of the world and put the room's one-row settings back."""
    from room.models import CashRoom, DealerRoom, JackpotFund

    with transaction.atomic():
        if world.room is not None:
            _delete_rows(world, world.room)
        before = world.room_before
        if before:
            _put_back(CashRoom, before["cash_room"])
            _put_back(DealerRoom, before["dealer_room"])
            _put_back(JackpotFund, before["fund"])


def _delete_rows(world: World, room: RoomWorld) -> None:
    from room.models import (
        CashGame,
        CashOut,
        CashSeat,
        CashTable,
        DealerAssignment,
        DealerShift,
        JackpotClaim,
        JackpotPayment,
        Kiosk,
        PitTable,
        RakeRecord,
        RoomEvent,
        WaitEntry,
    )

    users = world.user_ids()
    DealerAssignment.objects.filter(dealer_id__in=users).delete()
    DealerShift.objects.filter(dealer_id__in=users).delete()
    PitTable.objects.filter(pk__in=room.pit_tables.values()).delete()
    Kiosk.objects.filter(pk__in=room.kiosks.values()).delete()
    claims = JackpotClaim.objects.filter(
        Q(pk__in=room.claims.values()) | Q(cash_table_id__in=room.cash_table_ids)
    )
    JackpotPayment.objects.filter(Q(pk__in=room.payment_ids) | Q(claim__in=claims)).delete()
    claims.delete()
    RakeRecord.objects.filter(table_id__in=room.cash_table_ids).delete()  # and its drops
    CashSeat.objects.filter(table_id__in=room.cash_table_ids).delete()
    CashTable.objects.filter(pk__in=room.cash_table_ids).delete()
    WaitEntry.objects.filter(game_id__in=room.cash_game_ids).delete()
    CashOut.objects.filter(game_id__in=room.cash_game_ids).delete()
    CashGame.objects.filter(pk__in=room.cash_game_ids).delete()
    RoomEvent.objects.filter(pk__in=room.event_ids).delete()


def _put_back(model, row: dict[str, Any] | None) -> None:
    if row is None:
        model.objects.all().delete()
    else:
        model.objects.filter(pk=row["id"]).update(**{k: v for k, v in row.items() if k != "id"})


# --- What the database holds -------------------------------------------------------------


def scope(model, world: World):
    """The world's rows of a room-level model (None: not one of these). The cash room's,
    the dealers' and the fund's one row are watched whole."""
    room: RoomWorld | None = world.room
    if room is None:
        return None
    users, players = world.user_ids(), world.player_ids
    rows = {
        "room.PitTable": Q(pk__in=list(room.pit_tables.values())),
        "room.DealerRoom": Q(),
        "room.DealerProfile": Q(user_id__in=users),
        "room.DealerShift": Q(dealer_id__in=users),
        "room.DealerAssignment": Q(dealer_id__in=users),
        "room.Kiosk": Q(pk__in=list(room.kiosks.values())),
        "room.PushSubscription": Q(player_id__in=players),
        "room.EmailOptIn": Q(player_id__in=players),
        "tournaments.RoomStaff": Q(user_id__in=users),
        # An undo refused after marking its row undone would show here.
        "room.RoomEvent": Q(pk__in=room.event_ids),
        "room.CashRoom": Q(),
        "room.CashGame": Q(pk__in=room.cash_game_ids),
        "room.CashTable": Q(pk__in=room.cash_table_ids),
        "room.CashSeat": Q(table_id__in=room.cash_table_ids),
        "room.PhoneLink": Q(player_id__in=players),
        "room.WaitEntry": Q(game_id__in=room.cash_game_ids),
        "room.JackpotFund": Q(),
        "room.JackpotClaim": Q(pk__in=list(room.claims.values())),
        "room.JackpotPayment": Q(pk__in=room.payment_ids),
        "tournaments.ReservationRules": Q(),
        "tournaments.StaffPin": Q(user_id__in=users),
    }
    where = rows.get(model._meta.label)
    return None if where is None else model._default_manager.filter(where)

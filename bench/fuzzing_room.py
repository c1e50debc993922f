"""The room's routes, fuzzed as every route is (bench/fuzzing.py runs the cases): the
dealers' floor and back office, the pit's tables, the kiosks, the players' phones and
notifications, the jackpots, the reservations and a few cash-room additions.

`build_room` gives the world (after `fuzzing.build_world` made its event) what these routes
act on, through the services as the room would: accounts holding the cash floor's, the
pit's and the books' room roles, two dealers with a PIN and a profile, clocked in and at
tables; a pit table open and one closed; a cash game with a table open, a name called, a
remote joiner not yet arrived and another game to join; hands raked into the jackpot fund,
bad beats judged (one confirmed by the floor, one refused), a past hour's high hand paid and
another's to pay; a kiosk and a revoked one; reservations of the event held, waiting and
cancelled; a player's push and e-mail opt-ins. The cash room's settings, the dealers' row
and the jackpot fund are one row each for the whole room: `delete_room` removes what the
world made and puts them back as they were.

Links that expire (a kiosk visit, a player's cash and notification pages, a call's answer)
are signed when a case is drawn, not when the world is built: a case sees a fresh link, a
stale one, one of another kind or of nobody, and junk.
"""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bench import fuzzing

if TYPE_CHECKING:
    from bench.fuzzing import Target, World

PUBLIC = ("anonymous",)
MANAGER = ("td",)  # the world's TD is the room's manager
DESK = ("desk", "td")
CASH = ("td", "room_cash")
RAKE = ("td", "room_cash", "room_books")
BOOKS = ("td", "room_books")
PIT = ("td", "room_pit")
DEALERS_FLOOR = ("td", "room_cash", "room_pit")

# The room's own accounts of the world, by the name its cases log in with.
ROOM_USERS = {
    "room_cash": "cash",
    "room_pit": "pit",
    "room_books": "books",
    "dealer": "dealer",
    "dealer2": "dealer",
}
PINS = {"dealer": "4826", "dealer2": "5937"}
ROLE_CODES = ("manager", "books", "cash", "pit", "dealer", "td")
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


# --- What a case types, and the rows its address names -----------------------------------


def _st():
    from hypothesis import strategies as st

    return st


def _mostly(values: list[Any]):
    """The world's own ids most of the time, else any number (a row of nobody's)."""
    st = _st()
    return fuzzing.often(
        lambda: st.sampled_from(values), 4, st.integers(min_value=0, max_value=10**25)
    )


def _words():
    st = _st()
    words = st.text(st.characters(blacklist_characters="/", codec="utf-8"), min_size=1)
    return st.one_of(words, st.sampled_from(["x" * 400, "a:b", "1"]))


def _signed(good: list[Any], bad: list[Any], sign):
    """Links signed when the case is drawn (they expire): mostly ones that open something,
    else links of nobody's, stale or of another kind, and junk."""
    st = _st()
    others = [st.sampled_from(bad).map(sign)] if bad else []
    return fuzzing.often(lambda: st.sampled_from(good).map(sign), 6, *others, _words())


def _cash_link(player_and_version) -> str:
    from room.views.cash_phone import PHONE_SALT

    return signing.dumps(list(player_and_version), salt=PHONE_SALT)


def kwarg_kinds(world: World) -> dict[str, Any]:
    """URL arguments naming the room's rows: the world's, others', stale links, junk."""
    from room import tokens
    from room.selectors.kiosk import VISIT_SALT

    room: RoomWorld | None = world.room
    if room is None:
        return {}
    st = _st()
    players = room.cash_player_ids
    nobody = max(world.player_ids) + 1000
    kiosk_on, kiosk_off = room.kiosks["on"], room.kiosks["off"]
    entry, player, called_at = room.called
    earlier = (datetime.fromisoformat(called_at) - timedelta(minutes=1)).isoformat()
    codes = list(room.codes.values())

    def answer(a: tuple[int, int, str, str]) -> str:
        moment = datetime.fromisoformat(a[2])
        return tokens.answer_token(entry_id=a[0], player_id=a[1], called_at=moment, language=a[3])

    return {
        "kiosk": _mostly(list(room.kiosks.values())),
        "kiosk_token": fuzzing.often(
            lambda: st.just(room.kiosk_tokens["on"]),
            6,
            st.just(room.kiosk_tokens["off"]),
            st.uuids().map(str),
        ),
        "visit": _signed(
            [(kiosk_on, players[5]), (kiosk_on, players[0])],
            [(kiosk_off, players[5]), (kiosk_on, nobody), (kiosk_on, "x"), (kiosk_on,)],
            lambda pair: signing.dumps(list(pair), salt=VISIT_SALT, compress=True),
        ),
        "pit_table": _mostly(list(room.pit_tables.values())),
        "room_event": _mostly(room.event_ids),
        # A route's own log rows, and another's (refused there).
        "dealer_event": _mostly([*room.events["dealer"], room.events["jackpot"][0]]),
        "jackpot_event": _mostly([*room.events["jackpot"], room.events["dealer"][0]]),
        "relief_pk": _mostly(
            room.cash_table_ids + list(room.pit_tables.values()) + room.tournament_table_ids
        ),
        "wait_entry": _mostly(list(room.wait_entries.values())),
        "game": _mostly(room.cash_game_ids),
        "cash_table": _mostly(room.cash_table_ids),
        "cash_seat": _mostly(room.cash_seat_ids),
        "jackpot_claim": _mostly(list(room.claims.values())),
        "jackpot_payment": _mostly(room.payment_ids),
        "reservation": _mostly(list(room.reservations.values())),
        "reservation_code": fuzzing.often(
            lambda: st.sampled_from(codes),
            6,
            st.sampled_from([codes[0].lower(), "AAAAAAAA", "nope"]),
            _words(),
        ),
        "notify_token": st.one_of(
            _signed(players, [world.player_ids[0], nobody], tokens.player_token),
            _signed(room.opt_ins, [], lambda o: tokens.off_token(*o)),  # another kind of link
        ),
        "cash_token": _signed(
            [(p, room.phone_versions[p]) for p in players],
            [(players[2], 0), (nobody, 0), (players[0], "0"), (players[0],)],
            _cash_link,
        ),
        "off_token": _signed(
            room.opt_ins,
            [("push", 0), ("email", nobody), ("sms", room.opt_ins[0][1]), ("push",)],
            lambda o: signing.dumps(list(o), salt=tokens.OFF_SALT),
        ),
        "answer_token": _signed(
            [(entry, player, called_at, "it"), (entry, player, called_at, "en")],
            [
                (entry, player, earlier, "it"),
                (entry, players[0], called_at, "it"),
                (room.wait_entries["waiting"], players[3], called_at, "it"),
                (entry, player, called_at, "xx"),
            ],
            answer,
        ),
    }


def field_kinds(world: World) -> dict[str, Any]:
    """What is typed into the room's forms: the world's values, near misses."""
    room: RoomWorld | None = world.room
    if room is None:
        return {}
    st = _st()
    cash_tables = [f"c{pk}" for pk in room.cash_table_ids]
    keys = [f"cash:{pk}" for pk in room.cash_table_ids]
    keys += [f"pit:{pk}" for pk in room.pit_tables.values()]
    keys += [f"tournament:{pk}" for pk in room.tournament_table_ids]

    def phone_link(player: int) -> str:
        link = _cash_link((player, room.phone_versions[player]))
        return f"http://testserver/room/cash/me/{link}/"

    return {
        "user": st.sampled_from([*map(str, world.user_ids()), "0", "-1"]),
        "dealer": st.sampled_from(
            [*map(str, room.dealer_ids), str(world.users["floor"].pk), "0", "²", "9" * 30]
        ),
        "table_key": st.sampled_from([*keys, "pit:0", "cash:x", "pit:²", "", "pit:" + "9" * 30]),
        "pin": st.sampled_from([*PINS.values(), "0000", "12345678", "123", "٤٨٢٦"]),
        "card": st.one_of(
            st.sampled_from([room.card, room.card.lower(), f" {room.card} ", "FZ", ""]),
            st.sampled_from(room.cash_player_ids).map(phone_link),
        ),
        "cash_game": st.sampled_from([*map(str, room.cash_game_ids), "0", "-1"]),
        "cash_table_id": st.sampled_from([*map(str, room.cash_table_ids), "0", "x"]),
        "cash_player": st.sampled_from([*map(str, room.cash_player_ids), "0", "x"]),
        "event_slug": st.sampled_from([world.slug, "nope", ""]),
        "claim_table": st.sampled_from(
            [
                *cash_tables,
                f"t{room.tournament_table_ids[0]}",
                "c0",
                "x1",
                "c",
                "c٣",
                "c" + "9" * 30,
            ]
        ),
        "board": st.sampled_from(
            [BOARD, "AsKhKs7c2d", "As Kh Ks", "As As Kh 7c 2d", "Xx Kh Ks 7c 2d", "as,kh;ks 7c 2d"]
        ),
        "hole": st.sampled_from(["Ah Ad", "Kc Kd", "AhAd", "Ah", "Ah Ad Kc", "Ac Ad", "Qc Jd"]),
        "seats_dealt": st.sampled_from(["1 2 3 5 7", "1,2,3;5", "3 7", "0 11", "1 1 1", "²"]),
        "hand_rank": st.sampled_from(
            ["AAATT", "KKKK2", "AKQJTs", "AAA22", "akqjts", "AAAAA", "XYZ", "AAATTs", "AKQJT9"]
        ),
        "datetime": st.sampled_from(
            [
                room.period_due,
                room.period_due[:19],
                "2026-11-21 15:00",
                "2026-11-21T15:00:00+01:00",
                "31/12/2030 10:00",
                "2026-02-30 10:00",
                "now",
            ]
        ),
        "reservation_q": st.sampled_from([*room.codes.values(), "Res", "+39 333", "", "%"]),
        "push_endpoint": st.sampled_from(
            [
                room.endpoint,
                "https://push.invalid/fuzz/new",
                "ftp://push.invalid/x",
                "javascript:alert(1)",
                "push.invalid/x",
                "",
            ]
        ),
        "push_key": st.sampled_from([_b64(65), _b64(64), _b64(16), "!!!", ""]),
        "push_auth": st.sampled_from([_b64(16), _b64(15), _b64(65), "=", ""]),
        "email": st.sampled_from(
            ["ada@example.org", "ADA@EXAMPLE.ORG", "not-an-email", "a@b", "x@" + "y" * 300 + ".it"]
        ),
        "phone": st.sampled_from(["+39 333 1234567", "333 1234567", "12", "+39 333 100 0001"]),
    }


def placeholders(world: World) -> dict[str, list[Any]]:
    """Field-name placeholders the room's targets use (see fuzzing.Target)."""
    room: RoomWorld | None = world.room
    return {"{dealer}": room.dealer_ids if room is not None else []}


# --- The room's routes -------------------------------------------------------------------


def _room(world: World) -> RoomWorld:
    assert world.room is not None, "build_world(room=True) makes the room's rows"
    return world.room


def _profile_base(world: World) -> dict[str, Any]:
    dealer = _room(world).dealer_ids[1]
    return {
        "dealer": str(dealer),
        f"{dealer}-dealer": str(dealer),
        f"{dealer}-games": ["blackjack", "punto_banco"],
        f"{dealer}-shift_start": "20:00",
        f"{dealer}-shift_end": "04:00",
    }


def _jackpot_settings_base(world: World) -> dict[str, Any]:
    from room.forms.jackpots import JackpotSettingsForm
    from room.selectors.jackpots import jackpot_settings

    data: dict[str, Any] = {}
    for name, value in JackpotSettingsForm.initial_from(jackpot_settings()).items():
        if value is True:
            data[name] = "on"
        elif isinstance(value, list):
            data[name] = value
        elif value is not None and value is not False:
            data[name] = str(value)
    return data


def _bad_beat_base(world: World) -> dict[str, Any]:
    return {
        "table": f"c{_room(world).cash_table_ids[0]}",
        "board": BOARD,
        "loser_seat": str(LOSER[0]),
        "loser_cards": LOSER[1],
        "winner_seat": str(WINNER[0]),
        "winner_cards": WINNER[1],
        "dealt": "1 2 3 5 7",
    }


def targets() -> dict[str, Target]:
    """The room's URL names, with their fuzz specs (merged into fuzzing.targets())."""
    from room.forms import dealers, phone
    from room.forms.jackpots import JackpotSettingsForm
    from tournaments.forms.reservations import ReservationForm, ReservationRulesForm

    Target, _form_kinds = fuzzing.Target, fuzzing._form_kinds
    slug = {"slug": "slug"}
    pay = {"payment_method": "choice:cash|card|voucher|"}
    settings_kinds = _form_kinds(JackpotSettingsForm)
    settings_kinds |= {"bad_min_hand": "hand_rank", "high_min_hand": "hand_rank"}
    night = _form_kinds(dealers.NightForm)
    profile = {
        f"{{dealer}}-{name}": kind for name, kind in _form_kinds(dealers.ProfileForm).items()
    }
    return {
        **_cash_targets(),
        **_pit_targets(),
        "room_staff": Target(
            "post",
            MANAGER,
            {
                "username": "username",
                "role": "choice:" + "|".join(ROLE_CODES),
                "action": "choice:give|take",
            },
            base=lambda w: {"username": w.usernames["outsider"], "role": "books", "action": "give"},
        ),
        "room_staff_undo": Target("post", MANAGER, kwargs={"event_id": "room_event"}),
        # The kiosks: the manager's list, and the device's own pages (its link is the key).
        "kiosks": Target("post", MANAGER, {"name": "text"}, base=lambda w: {"name": "Bar"}),
        "kiosk_revoke": Target("post", MANAGER, kwargs={"pk": "kiosk"}),
        "kiosk_start": Target(
            "post",
            PUBLIC,
            {"card": "card"},
            {"token": "kiosk_token"},
            base=lambda w: {"card": _room(w).card},
        ),
        "kiosk_player": Target("get", PUBLIC, kwargs={"token": "kiosk_token", "visit": "visit"}),
        "kiosk_action": Target(
            "post",
            PUBLIC,
            {"games": "cash_game", "event": "event_slug", "accepted_terms": "choice:1|0|"},
            {
                "token": "kiosk_token",
                "visit": "visit",
                "action": "choice:join|reserve|accessible",
            },
            base=lambda w: {
                "games": str(_room(w).cash_game_ids[1]),
                "event": w.slug,
                "accepted_terms": "1",
            },
        ),
        "reservation_rules": Target(
            "post",
            MANAGER,
            _form_kinds(ReservationRulesForm),
            base=lambda w: {"no_show_limit": "4", "no_show_days": "90"},
        ),
        # The dealers' floor.
        "dealer_floor": Target("get", DEALERS_FLOOR),
        "dealer_board": Target("get", PUBLIC),
        "dealer_push": Target("post", DEALERS_FLOOR),
        "dealer_override": Target(
            "post",
            DEALERS_FLOOR,
            {"dealer": "dealer", "table": "table_key"},
            base=lambda w: {
                "dealer": str(_room(w).dealer_ids[1]),
                "table": f"pit:{_room(w).pit_tables['open']}",
            },
        ),
        "dealer_keep": Target(
            "post",
            DEALERS_FLOOR,
            {"table": "table_key", "keep": "bool"},
            base=lambda w: {"table": f"pit:{_room(w).pit_tables['open']}", "keep": "on"},
        ),
        "dealer_undo": Target("post", DEALERS_FLOOR, kwargs={"event_id": "dealer_event"}),
        "dealer_clock": Target(
            "post",
            PUBLIC,
            {**_form_kinds(dealers.ClockForm), "username": "username", "pin": "pin"},
            base=lambda w: {
                "username": w.usernames["dealer2"],
                "pin": PINS["dealer2"],
                "direction": "out",
            },
        ),
        "dealer_relief": Target(
            "get", PUBLIC, kwargs={"kind": "choice:tournament|cash|pit", "pk": "relief_pk"}
        ),
        # The dealers' back office.
        "dealer_staff": Target("get", MANAGER),
        "dealer_profile": Target(
            "post", MANAGER, {"dealer": "dealer", **profile}, base=_profile_base
        ),
        "dealer_settings": Target(
            "post",
            MANAGER,
            _form_kinds(dealers.SettingsForm),
            base=lambda w: {
                "down_minutes": "25",
                "break_minutes": "15",
                "max_minutes_without_break": "100",
                "tips_split": "shifts",
            },
        ),
        "dealer_hours": Target("get", BOOKS, night),
        "dealer_tips": Target(
            "post",
            BOOKS,
            {**_form_kinds(dealers.TipsForm), "back": "choice:books|hours|", **night},
            base=lambda w: {
                "night": timezone.localdate().isoformat(),
                "amount": "120,50",
                "back": "books",
            },
        ),
        "pit_tables": Target(
            "post",
            PIT,
            _form_kinds(dealers.PitTableForm),
            base=lambda w: {"name": "BJ 7", "game": "blackjack"},
        ),
        "pit_table_status": Target(
            "post",
            PIT,
            _form_kinds(dealers.PitStatusForm),
            {"pk": "pit_table"},
            base=lambda w: {"status": "closed"},
        ),
        # The players' phones: the app, the seat card's QR, his notifications by his link.
        "room_phone_app": Target("get", PUBLIC),
        "room_manifest": Target("get", PUBLIC),
        "room_service_worker": Target("get", PUBLIC),
        "room_phone_qr": Target("get", PUBLIC),
        "room_entry_qr": Target("get", DESK, kwargs={"slug": "slug", "number": "entry"}),
        "room_notify_page": Target("get", PUBLIC, kwargs={"token": "notify_token"}),
        # An opt-in is the player's consent, kept as its own row (when, which language):
        # no log row names a player's phone.
        "room_notify_subscribe": Target(
            "post",
            PUBLIC,
            {"endpoint": "push_endpoint", "p256dh": "push_key", "auth": "push_auth"},
            {"token": "notify_token"},
            base=lambda w: {
                "endpoint": "https://push.invalid/fuzz/new",
                "p256dh": _b64(65),
                "auth": _b64(16),
            },
            logged=False,
            json=True,
        ),
        "room_notify_unsubscribe": Target(
            "post",
            PUBLIC,
            {"endpoint": "push_endpoint"},
            {"token": "notify_token"},
            base=lambda w: {"endpoint": _room(w).endpoint},
            logged=False,
            json=True,
        ),
        "room_notify_email": Target(
            "post",
            PUBLIC,
            {**_form_kinds(phone.EmailOptInForm), "email": "email"},
            {"token": "notify_token"},
            base=lambda w: {"email": "ada@example.org", "consent": "on"},
            logged=False,
            settings={"NOTIFY_BY_EMAIL": True},
        ),
        "room_notify_cash": Target("get", PUBLIC, kwargs={"token": "notify_token"}),
        "room_notify_from_cash": Target("get", PUBLIC, kwargs={"token": "cash_token"}),
        "room_notify_off": Target(
            "post",
            PUBLIC,
            {"List-Unsubscribe": "choice:One-Click|"},
            {"token": "off_token"},
            logged=False,
        ),
        "room_notify_answer": Target(
            "post",
            PUBLIC,
            _form_kinds(phone.AnswerForm),
            {"token": "answer_token"},
            base=lambda w: {"answer": "coming"},
        ),
        # The cash room: a remote join from the phone, the floor sees him arrive.
        "cash_phone_join": Target(
            "post",
            PUBLIC,
            {"games": "cash_game"},
            {"token": "cash_token"},
            base=lambda w: {"games": [str(_room(w).cash_game_ids[1])]},
        ),
        "cash_entry_arrived": Target("post", CASH, kwargs={"pk": "wait_entry"}),
        # The jackpots.
        "jackpot_home": Target("get", CASH),
        "jackpot_board": Target("get", PUBLIC),
        "jackpot_settings": Target("post", MANAGER, settings_kinds, base=_jackpot_settings_base),
        "jackpot_rules": Target("get", RAKE),
        "jackpot_claim": Target(
            "post",
            CASH,
            {
                "table": "claim_table",
                "board": "board",
                "loser_seat": "seat",
                "loser_cards": "hole",
                "winner_seat": "seat",
                "winner_cards": "hole",
                "dealt": "seats_dealt",
            },
            base=_bad_beat_base,
        ),
        "jackpot_confirm": Target("post", CASH, kwargs={"pk": "jackpot_claim"}),
        "jackpot_high_hand": Target(
            "post",
            CASH,
            {"table": "claim_table", "board": "board", "seat": "seat", "cards": "hole"}
            | {"time": "time"},
            base=lambda w: {
                "table": f"c{_room(w).cash_table_ids[0]}",
                "board": BOARD,
                "seat": "4",
                "cards": "Ac Ad",
            },
        ),
        "jackpot_pay_period": Target(
            "post", CASH, {"start": "datetime"}, base=lambda w: {"start": _room(w).period_due}
        ),
        "jackpot_slips": Target("get", RAKE, kwargs={"pk": "jackpot_payment"}),
        "jackpot_undo": Target("post", CASH, kwargs={"event_id": "jackpot_event"}),
        # Reservations: the public page and its confirmation, the desk's finder.
        "reserve": Target(
            "post",
            PUBLIC,
            {**_form_kinds(ReservationForm), "phone": "phone", "email": "email"},
            slug,
            base=lambda w: {
                "first_name": "Zoe",
                "last_name": "Fuzz",
                "phone": "+39 333 1234567",
                "accepted_terms": "on",
            },
        ),
        "reservation": Target("get", PUBLIC, kwargs={**slug, "code": "reservation_code"}),
        "reservation_cancel": Target("post", PUBLIC, kwargs={**slug, "code": "reservation_code"}),
        "desk_reservations": Target("get", DESK, {"q": "reservation_q"}, slug),
        "reservation_register": Target("post", DESK, pay, {**slug, "pk": "reservation"}),
        "reservation_desk_cancel": Target("post", DESK, kwargs={**slug, "pk": "reservation"}),
        # The manager reads a player's contact in full (logged).
        "person_contact": Target("post", MANAGER, kwargs={"player_id": "player"}),
    }


# --- The pit's rulings and the cash room: the room's TD and the cash floor ---------------


def _pit_targets() -> dict[str, Target]:
    from room.forms import games

    Target, _form_kinds = fuzzing.Target, fuzzing._form_kinds
    saved = {"op": "choice:save|", "note": "text"}  # a saved ruling is logged (pit.ruling)
    return {
        "pit_home": Target("get", PIT),
        "pit_blackjack": Target("post", PIT, {**_form_kinds(games.BlackjackForm), **saved}),
        "pit_punto_banco": Target("post", PIT, {**_form_kinds(games.PuntoBancoForm), **saved}),
        "pit_trainer": Target(
            "post", PIT, {"seed": "int", "answer": "text", "kind": "text"}, logged=False
        ),
        "pit_ruling": Target("get", PIT, kwargs={"event_id": "room_event"}),
    }


def _cash_targets() -> dict[str, Target]:
    from room.forms import cash as cash
    from tournaments.forms import books

    Target, _form_kinds = fuzzing.Target, fuzzing._form_kinds
    entry, table, seat = {"pk": "wait_entry"}, {"pk": "cash_table"}, {"pk": "cash_seat"}
    back = {"next": "text", "table": "int"}
    at_table = {"table": "cash_table_id", "seat": "seat"}
    return {
        "cash_board": Target("get", CASH),
        "cash_brush": Target("get", PUBLIC),
        "cash_phone": Target("get", PUBLIC, kwargs={"token": "cash_token"}),
        "cash_phone_answer": Target(
            "post",
            PUBLIC,
            {"takes_seat": "choice:yes|no"},
            {"token": "cash_token", **entry},
            base=lambda w: {"takes_seat": "yes"},
        ),
        "cash_game_add": Target(
            "post",
            MANAGER,
            _form_kinds(cash.CashGameForm),
            base=lambda w: {
                "variant": "Omaha",
                "structure": "pot_limit",
                "sb": "1",
                "bb": "2",
                "min_buy_in": "100",
                "max_seats": "9",
                "rake_percent": "5",
                "rake_cap": "20",
                "active": "on",
            },
        ),
        "cash_room_settings": Target("post", MANAGER, _form_kinds(cash.CashRoomForm)),
        "cash_keep_apart": Target(
            "post",
            MANAGER,
            _form_kinds(cash.KeepApartForm),
            base=lambda w: {"card_a": _room(w).card, "card_b": f"{_room(w).card}B"},
        ),
        "cash_list_add": Target(
            "post",
            CASH,
            {**_form_kinds(cash.ListAddForm), "games": "cash_game", "player": "cash_player"},
            base=lambda w: {
                "find": _room(w).card,
                "player": str(_room(w).cash_player_ids[5]),
                "games": [str(_room(w).cash_game_ids[1])],
                "present": "on",
            },
        ),
        "cash_entry_remove": Target("post", CASH, kwargs=entry),
        "cash_entry_answer": Target(
            "post",
            CASH,
            {"takes_seat": "choice:yes|no"},
            entry,
            base=lambda w: {"takes_seat": "yes"},
        ),
        "cash_entry_no_answer": Target("post", CASH, kwargs=entry),
        "cash_entry_skip": Target("post", CASH, kwargs=entry),
        "cash_player_search": Target("get", CASH, {"find": "name"}),
        "cash_entry_seat": Target(
            "post",
            CASH,
            {**_form_kinds(cash.SeatFromListForm), **at_table},
            entry,
            base=lambda w: {**_free_seat(w), "buy_in": "200"},
        ),
        "cash_table_open": Target(
            "post",
            CASH,
            {"number": "int", "present": "cash_player"},
            {"pk": "game"},
            base=lambda w: {
                "number": "917",
                "present": [str(p) for p in _room(w).cash_player_ids[2:4]],
            },
        ),
        "cash_table_call": Target("post", CASH, {"seat": "seat"}, table, base=_free_seat),
        "cash_table_fill": Target("post", CASH, {"seat": "seat"}, table, base=_free_seat),
        "cash_table_close": Target("post", CASH, kwargs=table),
        "cash_table_hand": Target("post", CASH, kwargs=table),
        "cash_table_rake": Target(
            "post",
            CASH,
            {**_form_kinds(cash.RakeForm), "next": "text", "shift": "text"},
            table,
            base=lambda w: {"pot": "130", "flop_dealt": "on"},
        ),
        "cash_tablet": Target("get", CASH, kwargs=table),
        # A PIN unlock is a login: logged in no room log (as a password login is not).
        "cash_pin_unlock": Target(
            "post",
            PUBLIC,
            {**_form_kinds(books.PinForm), "username": "username", "pin": "pin"},
            table,
            base=lambda w: {"username": w.usernames["dealer"], "pin": PINS["dealer"]},
            logged=False,
        ),
        "cash_seat_move": Target(
            "post", CASH, {**_form_kinds(cash.MoveForm), **at_table}, seat, base=_free_seat
        ),
        "cash_seat_request": Target("post", CASH, _form_kinds(cash.RequestForm), seat),
        "cash_seat_sit_out": Target("post", CASH, back, seat),
        "cash_seat_sit_back": Target("post", CASH, back, seat),
        "cash_seat_marker": Target("post", CASH, back, seat),
        "cash_seat_leave": Target("post", CASH, _form_kinds(cash.LeaveForm), seat),
        "cash_seat_buy": Target(
            "post",
            CASH,
            _form_kinds(cash.BuyForm),
            seat,
            base=lambda w: {"stack": "40", "amount": "300", "bought": "0"},
        ),
        "cash_undo": Target("post", CASH, kwargs={"event_id": "room_event"}),
        "cash_phone_link_new": Target("post", CASH, kwargs={"player_id": "player"}),
        "cash_rake_report": Target(
            "get", RAKE, {"shift": "text", "day": "date", "format": "choice:csv|html"}
        ),
    }


def _free_seat(world: World) -> dict[str, Any]:
    """A free seat of the world's cash table (and the table, for the forms that ask it)."""
    from room.models import CashTable
    from room.services import cash_lists

    table = CashTable.objects.get(pk=_room(world).cash_table_ids[0])
    return {"table": str(table.pk), "seat": str(cash_lists.free_seats(table)[-1])}

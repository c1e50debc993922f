"""What a case types into the room's forms, and the room's rows its address names: the
world's values, near misses, others' rows and junk.

Links that expire (a kiosk visit, a player's cash and notification pages, a call's answer)
are signed when a case is drawn, not when the world is built: a case sees a fresh link, a
stale one, one of another kind or of nobody, and junk.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.core import signing

from bench.fuzzing.room_world import BOARD, PINS, RoomWorld, _b64
from bench.fuzzing.strategies import often

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World


def _st():
    from hypothesis import strategies as st

    return st


def _mostly(values: list[Any]):
    """The world's own ids most of the time, else any number (a row of nobody's)."""
    st = _st()
    return often(lambda: st.sampled_from(values), 4, st.integers(min_value=0, max_value=10**25))


def _words():
    st = _st()
    words = st.text(st.characters(blacklist_characters="/", codec="utf-8"), min_size=1)
    return st.one_of(words, st.sampled_from(["x" * 400, "a:b", "1"]))


def _signed(good: list[Any], bad: list[Any], sign):
    """Links signed when the case is drawn (they expire): mostly ones that open something,
    else links of nobody's, stale or of another kind, and junk."""
    st = _st()
    others = [st.sampled_from(bad).map(sign)] if bad else []
    return often(lambda: st.sampled_from(good).map(sign), 6, *others, _words())


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
        "kiosk_token": often(
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
        "reservation_code": often(
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
    """Field-name placeholders the room's targets use (see spec.Target)."""
    room: RoomWorld | None = world.room
    return {"{dealer}": room.dealer_ids if room is not None else []}

"""The world the cases run in: a tournament in play, built through the services as the
room would (and the room's rows, room_world.py), and its removal.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bench.fuzzing import room_world
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import rulings as ruling_services
from tournaments.services import setup as setup_services


@dataclass
class World:
    """A tournament in play: structure, four tables, seated players, chips, payouts, a
    penalty, a saved ruling, the clock paused, three screens, and its staff."""

    tournament_id: int
    slug: str
    users: dict[str, Any]
    usernames: dict[str, str]
    player_ids: list[int]
    entries: list[int]
    tables: list[int]
    event_ids: list[int]
    ruling_ids: list[int]
    screen_ids: list[int]
    tokens: dict[str, str]
    values: list[int]
    hand_json: str
    names_json: str
    league_ids: list[int] = field(default_factory=list)
    league_slugs: list[str] = field(default_factory=list)
    probe: Any = field(default=None, repr=False)  # the snapshot's SQL, compiled once
    room: Any = field(default=None, repr=False)  # the room's rows (room_world.RoomWorld)
    # The room's one-row settings as they were before the world (room_world.room_rows).
    room_before: dict[str, Any] = field(default_factory=dict, repr=False)

    def user_ids(self) -> list[int]:
        return [u.pk for u in self.users.values() if u is not None]


def build_world(label: str = "fuzz", *, room: bool = True) -> World:
    """Build the world through the services, as the room would (committed by the caller).
    `room`: the room's rows too (room_world.py), which the room's routes need."""
    from tables.engine import Hand, SeatStack, TableSetup
    from tournaments.models import DisplayScreen, Event, Player, Role, StaffAssignment
    from tournaments.services import chips, clock, penalties, results, screens

    now = timezone.now()
    # Read first: the event's first tables already make the dealers' settings row.
    room_before = room_world.room_rows()
    suffix = uuid.uuid4().hex[:8]
    User = get_user_model()
    users: dict[str, Any] = {"anonymous": None}
    for role in ("td", "floor", "desk", "outsider"):
        user = User(username=f"{label}-{role}-{suffix}", is_staff=role == "td")
        user.set_unusable_password()
        user.save()
        users[role] = user
    td = users["td"]
    tournament = setup_services.tournament_create(
        actor=td,
        fields={
            "name": f"Fuzz {suffix}",
            "date": now.date(),
            "starting_stack": 20000,
            "max_entries": 3,
            "reentry_forfeit_allowed": True,
            "rebuys_allowed": True,
            "rebuy_max": 2,
            "rebuy_price": 50,
            "rebuy_chips": 20000,
            "addon_allowed": True,
            "addon_price": 50,
            "addon_chips": 20000,
            "late_registration_level": 6,
            # Two seats held by reservation, the rest of them wait (room_world).
            "reservations_open": True,
            "reservable_seats": 2,
        },
        now=now,
    )
    for role in ("floor", "desk"):
        StaffAssignment.objects.create(tournament=tournament, user=users[role], role=Role(role))
    # The cash room: the TD also manages the room.
    from tournaments.models import RoomRole, RoomStaff

    RoomStaff.objects.create(user=td, role=RoomRole.MANAGER)
    spec = setup_services.ItemSpec
    setup_services.structure_set(
        tournament=tournament,
        actor=td,
        items=[
            spec(kind="level", small_blind=100, big_blind=200, minutes=20),
            spec(kind="level", small_blind=200, big_blind=400, minutes=20),
            spec(kind="break", minutes=10, color_up=25),
            spec(kind="level", small_blind=300, big_blind=600, minutes=20),
            spec(
                kind="level",
                small_blind=400,
                big_blind=800,
                ante=800,
                ante_mode="big_blind_ante",
                minutes=20,
            ),
            spec(kind="level", small_blind=500, big_blind=1000, minutes=20),
            spec(kind="level", small_blind=1000, big_blind=2000, minutes=20),
        ],
        now=now,
    )
    layout_services.tables_add(
        tournament=tournament,
        actor=td,
        first=1,
        last=4,
        max_seats=9,
        accessible_seats=[1],
        reserved_seats=[],
        now=now,
    )
    chips.chipset_set(
        tournament=tournament,
        actor=td,
        denominations=[
            chips.DenominationSpec(value=25, colour="green", in_starting_stack=8),
            chips.DenominationSpec(value=100, colour="black", in_starting_stack=18),
            chips.DenominationSpec(value=500, colour="purple", in_starting_stack=16),
            chips.DenominationSpec(value=1000, colour="yellow", in_starting_stack=10),
        ],
        now=now,
    )
    players = [
        Player.objects.create(first_name=f"Gino{i}", last_name=f"Fuzz{suffix}{i:02d}")
        for i in range(16)
    ]
    entries = []
    for player in players[:14]:
        registration = entry_services.entry_register(
            tournament=tournament, player=player, actor=td, now=now
        )
        entries.append(registration.entry)
    entry_services.entry_eliminate(tournament=tournament, entry=entries[-1], actor=td, now=now)
    entry_services.id_check(tournament=tournament, player=players[0], actor=td, now=now)
    penalties.penalty_give(
        tournament=tournament, entry=entries[1], kind="missed_hands", hands=3, actor=td, now=now
    )
    results.payouts_generate(tournament=tournament, actor=td, now=now)
    clock.clock_start(tournament=tournament, actor=td, now=now)
    clock.clock_pause(tournament=tournament, actor=td, now=now)
    hand = Hand(
        TableSetup(players=(SeatStack(1, 5000), SeatStack(2, 5000)), button=1, sb=50, bb=100)
    )
    ruling = ruling_services.ruling_save(
        tournament=tournament,
        actor=td,
        hand=hand.to_dict(),
        names={"1": "Anna", "2": "Bruno"},
        table_number=1,
        note="",
        now=now,
    )
    made = {
        kind: screens.screen_create(
            tournament=tournament,
            actor=td,
            name=f"{kind} screen",
            kind=kind,
            table_number=1 if kind == DisplayScreen.Kind.TABLE else None,
            now=now,
        )
        for kind in DisplayScreen.Kind.values
    }
    three = Hand(
        TableSetup(
            players=(SeatStack(1, 5000), SeatStack(2, 5000), SeatStack(3, 3000)),
            button=1,
            sb=50,
            bb=100,
        )
    )
    from room.models import League

    league = League.objects.create(
        name=f"Fuzz league {suffix}", slug=f"fuzz-league-{suffix}", created_at=now
    )
    league.events.set([tournament])
    world = World(
        tournament_id=tournament.pk,
        slug=tournament.slug,
        users=users,
        usernames={r: u.get_username() for r, u in users.items() if u is not None},
        player_ids=[p.pk for p in players],
        entries=[e.number for e in entries],
        tables=[1, 2, 3, 4],
        event_ids=list(
            Event.objects.filter(tournament=tournament).values_list("pk", flat=True)[:40]
        ),
        ruling_ids=[ruling.pk],
        screen_ids=[s.pk for s in made.values()],
        tokens={kind: str(s.token) for kind, s in made.items()},
        values=[25, 100, 500, 1000],
        hand_json=json.dumps(three.to_dict()),
        names_json=json.dumps({"1": "Anna", "2": "Bruno", "3": "Carla"}),
        league_ids=[league.pk],
        league_slugs=[league.slug],
        room_before=room_before,
    )
    if room:
        world.room = room_world.build_room(world)
    return world


def delete_world(world: World) -> None:
    """Remove everything the world made (the bench runs against the configured database)."""
    from room.models import League
    from tournaments.models import Player, Reservation, SeatBoardVersion, Tournament

    with transaction.atomic():
        room_world.delete_room(world)
        family = Tournament.objects.filter(
            Q(pk=world.tournament_id)
            | Q(parent_id=world.tournament_id)
            | Q(staff__user_id__in=world.user_ids())
        )
        ids = list(family.values_list("pk", flat=True))
        # A reservation's record, made when it arrived or lapsed (a clock's level change
        # on the socket commits).
        reserved = list(
            Reservation.objects.filter(tournament_id__in=ids, player__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        Tournament.objects.filter(pk__in=ids).delete()
        # The seating board's token: a row per event the database's triggers keep.
        SeatBoardVersion.objects.filter(tournament_id__in=ids).delete()
        League.objects.filter(pk__in=world.league_ids).delete()
        Player.objects.filter(pk__in=[*world.player_ids, *reserved]).delete()
        get_user_model().objects.filter(pk__in=world.user_ids()).delete()

"""Create the demo: a TD login and a tournament with about 150 seated entries."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournaments.models import (
    DisplayScreen,
    Player,
    Role,
    RoomRole,
    RoomStaff,
    StaffAssignment,
    Tournament,
)
from tournaments.services import entries as entry_services
from tournaments.services import layout as layout_services
from tournaments.services import moves as room_services
from tournaments.services import setup as setup_services
from tournaments.services.presets import PRESETS

FIRST = [
    "Marco",
    "Giulia",
    "Luca",
    "Sara",
    "Andrea",
    "Chiara",
    "Paolo",
    "Elena",
    "Davide",
    "Marta",
    "Stefano",
    "Laura",
    "Matteo",
    "Anna",
    "Simone",
    "Francesca",
    "Alessio",
    "Valentina",
    "Roberto",
    "Federica",
]
LAST = [
    "Rossi",
    "Russo",
    "Ferrari",
    "Esposito",
    "Bianchi",
    "Romano",
    "Colombo",
    "Ricci",
    "Marino",
    "Greco",
    "Bruno",
    "Gallo",
    "Conti",
    "De Luca",
    "Mancini",
    "Costa",
    "Giordano",
    "Rizzo",
    "Lombardi",
    "Moretti",
]
DEMO_SLUG = "torneo-demo"


class Command(BaseCommand):
    help = "Create the demo TD login and a demo tournament with about 150 seated entries."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, default=150)

    def handle(self, *args, entries: int, **options):
        users = get_user_model()
        td = users.objects.filter(username="td").first()
        if td is None:
            td = users.objects.create_user("td", password="torneo")
            for name in ("desk", "floor"):
                users.objects.create_user(name, password="torneo")
        # The room's manager: the cash room, the pit, the books, staff and room roles.
        manager = users.objects.filter(username="manager").first()
        if manager is None:
            manager = users.objects.create_user("manager", password="torneo")
        RoomStaff.objects.get_or_create(user=manager, role=RoomRole.MANAGER)
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            tournament = self._create(td, entries)
        for name, role in (("desk", Role.DESK), ("floor", Role.FLOOR)):
            StaffAssignment.objects.get_or_create(
                tournament=tournament,
                user=users.objects.get(username=name),
                defaults={"role": role},
            )
        screen, _ = DisplayScreen.objects.get_or_create(tournament=tournament, name="Clock")
        self.stdout.write(
            f"Demo tournament: {tournament.name} ({tournament.entries.count()} entries)\n"
            "Logins: manager / torneo (room manager), td / torneo (tournament director), "
            "desk / torneo, floor / torneo"
        )

    @transaction.atomic
    def _create(self, td, entries: int) -> Tournament:
        now = timezone.now()
        tournament = setup_services.tournament_create(
            actor=td,
            fields={
                "name": "Torneo Demo",
                "date": timezone.localdate(now),
                "venue": "Sala Demo",
                "buy_in_prize": 100,
                "buy_in_fee": 20,
                "starting_stack": 30000,
                "late_registration_level": 6,
                "max_entries": 3,
            },
            now=now,
        )
        tournament.slug = DEMO_SLUG
        tournament.save(update_fields=["slug"])
        setup_services.structure_set(
            tournament=tournament, actor=td, items=list(PRESETS["club"].items), now=now
        )
        layout_services.tables_add(
            tournament=tournament,
            actor=td,
            first=1,
            last=20,
            max_seats=9,
            accessible_seats=[1],
            reserved_seats=[],
            now=now,
        )
        for i in range(entries):
            player = Player.objects.create(
                first_name=FIRST[i % len(FIRST)],
                last_name=f"{LAST[(i // len(FIRST)) % len(LAST)]}",
                document_number=f"DEMO{i + 1:05d}",
            )
            entry_services.entry_register(tournament=tournament, player=player, actor=td, now=now)
        # The draw spread evenly over the fewest tables before the start (§6.1).
        room_services.seats_even_out(tournament=tournament, actor=td, now=now)
        return tournament

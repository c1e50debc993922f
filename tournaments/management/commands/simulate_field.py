"""Seat a large field and play it down to the final table through the real services.

    python manage.py simulate_field --entries 10000 --until final-table

Every step is one hand at every table: the hands start (button and blinds move on), some
players bust (entry_eliminate), then the floor applies the plan until nothing is left to do
(plan_apply: balancing moves, table breaks, the final table). After every step the room is
checked against the policy (balancing.check_room) and for seats holding two players. The
last line printed is a JSON object with the figures.
"""

from __future__ import annotations

import json
import math
import time
from random import Random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from tables.rules import balancing
from tournaments.models import Entry, Player, Seat
from tournaments.selectors import tables as room_reads
from tournaments.services import entries as entry_services
from tournaments.services import hands as hands_services
from tournaments.services import layout as layout_services
from tournaments.services import moves as room_services
from tournaments.services import seats as seat_services
from tournaments.services import setup as setup_services


class Command(BaseCommand):
    help = "Simulate a field playing down to the final table; print figures as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--entries", type=int, default=10000)
        parser.add_argument("--seats", type=int, default=9)
        parser.add_argument("--until", choices=["final-table"], default="final-table")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--max-steps", type=int, default=None, help="stop early (for profiling)"
        )
        parser.add_argument(
            "--bust-rate",
            type=float,
            default=0.3,
            help="chance that a table loses a player in a hand",
        )

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        rng = Random(options["seed"])
        entries, seats = options["entries"], options["seats"]
        if entries < 2 or not 2 <= seats <= 10:
            self.stderr.write("Give at least 2 entries and 2 to 10 seats per table.")
            return
        now = timezone.now()
        actor = self._td()
        tournament = setup_services.tournament_create(
            actor=actor,
            fields={"name": f"Simulation {entries}", "date": now.date(), "seats_per_table": seats},
            now=now,
        )
        tables = math.ceil(entries / seats)
        layout_services.tables_add(
            tournament=tournament,
            actor=actor,
            first=1,
            last=tables,
            max_seats=seats,
            accessible_seats=[],
            reserved_seats=[],
            now=now,
        )
        with transaction.atomic():
            players = Player.objects.bulk_create(
                Player(first_name="Player", last_name=f"{n:05d}") for n in range(1, entries + 1)
            )
            Entry.objects.bulk_create(
                Entry(
                    tournament=tournament,
                    player=player,
                    number=n,
                    chips=tournament.starting_stack,
                    created_at=now,
                )
                for n, player in enumerate(players, start=1)
            )
        seat_services.seats_draw_all(tournament=tournament, actor=actor, now=now, rng=rng)
        hands_services.buttons_draw(tournament=tournament, actor=actor, now=now, rng=rng)
        seated = time.perf_counter()
        self.stdout.write(f"Seated {entries} entries at {tables} tables in {seated - started:.1f}s")

        figures = {"steps": 0, "moves": 0, "breaks": 0, "eliminations": 0, "violations": 0}
        final_size = balancing.final_table_size(room_reads.room_settings(tournament))
        formed = False
        room = room_reads.room_load(tournament)
        timing = {"hands": 0.0, "eliminations": 0.0, "apply": 0.0, "check": 0.0}
        while not formed and figures["steps"] != options["max_steps"]:
            figures["steps"] += 1
            mark = time.perf_counter()
            open_numbers = [n for n, seated in room.seats.items() if len(seated) >= 2]
            hands_services.hand_done(
                tournament=tournament, table_numbers=open_numbers, actor=actor, now=now
            )
            mark = self._lap(timing, "hands", mark)
            left = sum(len(seated) for seated in room.seats.values())
            busts = self._busts(room, open_numbers, rng, options["bust_rate"])
            busts = busts[: max(0, left - final_size)]
            if busts:
                entry_services.entries_eliminate(
                    tournament=tournament, entries=busts, actor=actor, now=now
                )
                figures["eliminations"] += len(busts)
            mark = self._lap(timing, "eliminations", mark)
            for applied in room_services.plan_apply_all(
                tournament=tournament, actor=actor, now=now, rng=rng
            ):
                figures["moves"] += len(applied.moves)
                figures["breaks"] += applied.kind == "break"
                formed = formed or applied.kind == "final_table"
            mark = self._lap(timing, "apply", mark)
            room = room_reads.room_load(tournament)
            problems = balancing.check_room(room.planner, room.settings)
            double = self._double_seats(tournament)
            figures["violations"] += len(problems) + double
            mark = self._lap(timing, "check", mark)
            for problem in problems:
                self.stderr.write(f"step {figures['steps']}: {problem}")
            if not formed and len(room.planner) == 1:
                formed = room.planner[0].count <= final_size
            if figures["steps"] % 50 == 0:
                self.stdout.write(
                    f"step {figures['steps']}: {left} players, "
                    f"{len(room.planner)} tables, {time.perf_counter() - started:.1f}s"
                )
        seconds = round(time.perf_counter() - started, 2)
        left = Seat.objects.filter(table__tournament=tournament).count()
        self.stdout.write(
            f"Final table formed with {left} players after {figures['steps']} steps "
            f"({figures['moves']} moves, {figures['breaks']} breaks) in {seconds}s"
        )
        summary = {
            "entries": entries,
            "tables": tables,
            "steps": figures["steps"],
            "eliminations": figures["eliminations"],
            "moves": figures["moves"],
            "breaks": figures["breaks"],
            "players_left": left,
            "seconds": seconds,
            "violations": figures["violations"],
            "seconds_by_phase": {k: round(v, 2) for k, v in timing.items()},
            "tournament": tournament.slug,
        }
        self.stdout.write(json.dumps(summary))

    @staticmethod
    def _lap(timing: dict[str, float], phase: str, mark: float) -> float:
        now = time.perf_counter()
        timing[phase] += now - mark
        return now

    def _td(self):
        user, _created = get_user_model().objects.get_or_create(
            username="simulation", defaults={"is_staff": True}
        )
        return user

    def _busts(self, room, numbers: list[int], rng: Random, rate: float) -> list[Entry]:
        """Pick who busts this hand: at each table, with chance `rate`, one random player."""
        chosen = [
            rng.choice(sorted(room.seats[n].values()))
            for n in sorted(numbers)
            if rng.random() < rate and len(room.seats[n]) > 1
        ]
        by_pk = Entry.objects.select_related("player").in_bulk(chosen)
        return [by_pk[pk] for pk in chosen]

    def _double_seats(self, tournament) -> int:
        """Count seats holding two players (the constraint should make this zero)."""
        return (
            Seat.objects.filter(table__tournament=tournament)
            .values("table_id", "number")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
            .count()
        )

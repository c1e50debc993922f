"""The cash room's settings (cash-room.md §3), each with its documented default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tables.cash.shifts import Shift

LevelDownMoves = Literal["forbidden", "allowed"]
MainTableFeeding = Literal["on_request", "must_move"]
CloseOrder = Literal["highest_first", "lowest_first"]
RakeRounding = Literal["half_up", "down", "up"]
RakeMode = Literal["percent", "time_collection"]
Structure = Literal["no_limit", "pot_limit", "limit"]
PublicNameFormat = Literal["full", "nickname", "initials"]

# 000 "Assegnazione del bottone": spades > hearts > diamonds > clubs.
DEFAULT_SUIT_ORDER: tuple[str, ...] = ("s", "h", "d", "c")
SRC = "000_488cc5ab758b19d7.txt Cash"
SRC_004 = "004_3f2d066dda756df7.txt"


@dataclass(frozen=True)
class CashSettings:
    """Room settings of cash-room.md §3; a game may override the per-game ones.

    `None` stands for the spec's "none" (no maximum, no cap) and "off" (markers never free a
    seat).
    """

    max_seats: int = 9  # §5; 8 for stud
    limit_min_buy_in_bb: int = 20  # §10.1
    max_buy_in: int | None = None  # §10.1, per game
    short_buy_ins_per_session: int = 1  # §10.2
    rathole_rule: bool = True  # §10.3
    gaming_day_start_minutes: int = 6 * 60  # §10.3, 06:00 [not in sources]
    level_down_moves: LevelDownMoves = "forbidden"  # §6.3
    answer_minutes: int = 15  # §6.4
    # §6.4: once he answers "coming", the seat stays locked up for this long
    # [not in sources]; then the floor may send his name to the bottom.
    arrival_minutes: int = 15
    # §6.2: "A player must be present to ask for his name to be added ... No phone
    # reservations" (000 Cash "Assegnazione e spostamento dei giocatori ai tavoli" 2). A
    # room that allows call-ins turns remote joins on [not in sources]: the player joins
    # from his phone page and must arrive within `remote_arrival_minutes` or lose the place.
    remote_joins: bool = False
    remote_arrival_minutes: int = 30
    # A called player who answers "coming, but I need N more minutes" (from his phone's
    # notification) starts that window N minutes later, at most this many [not in sources].
    most_more_minutes: int = 10
    decline_lockout_minutes: int = 30  # §6.5
    declined_seat_to_bottom: bool = False  # §6.5 [not in sources]
    return_wait_minutes: int = 30  # §6.6
    suit_order: tuple[str, ...] = DEFAULT_SUIT_ORDER  # §7.3, §9.1
    open_table_suggest_at: int = 6  # §7.1 [not in sources]
    main_table_feeding: MainTableFeeding = "on_request"  # §8.6
    seat_change_post_rule: bool = True  # §8.4
    close_order: CloseOrder = "highest_first"  # §9.1 [interpretation]
    sit_out_minutes: int = 30  # §11.2
    sit_outs_per_day: int = 1  # §11.2
    max_away_full_table: int = 2  # §11.2
    max_away_short_table: int = 1  # §11.2 [interpretation]
    unannounced_absence_minutes: int = 20  # §11.1
    release_after_markers: int | None = 2  # §11.4; None = off
    absent_dealt_until_bb: bool = False  # §11.3
    rake_mode: RakeMode = "percent"  # §12.7
    rake_percent: float = 5  # §12
    rake_cap: int | None = None  # §12, per game; the sources' example implies 30
    rake_rounding: RakeRounding = "half_up"  # §12.3 [interpretation]
    no_flop_no_drop: bool = True  # §12.2
    run_it_twice_min_pot: int = 150  # in-hand.md §13.4 (000); 004 says 500
    button_straddle: Literal["allowed", "floor_approval"] = "allowed"  # in-hand.md §4.6
    table_languages: tuple[str, ...] = ("it", "en")  # §13
    public_name_format: PublicNameFormat = "nickname"  # §15 [not in sources]
    shifts: tuple[Shift, ...] = ()  # §12.8, the room's own; none until it names them


DEFAULTS = CashSettings()

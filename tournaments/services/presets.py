"""Ready structures the TD can load into the structure editor (tournament.md §11.1, §12.2).

Each preset is data: the rows the editor shows, in play order, and the chip set it was
built for, so a colour-up at a break only removes a denomination no later blind or ante
still needs (tournament.md §12.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.services.setup import ItemSpec


@dataclass(frozen=True)
class Preset:
    """A named structure: its rows and the denominations in play at the start."""

    key: str
    name: Promise
    description: Promise
    starting_stack: int
    denominations: tuple[int, ...]
    items: tuple[ItemSpec, ...]


def _levels(
    blinds: list[tuple[int, int]], *, minutes: int, ante_mode: str = "none"
) -> list[ItemSpec]:
    """Levels with these blinds; a big-blind ante equals the big blind (TDA big-blind ante)."""
    return [
        ItemSpec(
            kind="level",
            small_blind=sb,
            big_blind=bb,
            ante=bb if ante_mode == "big_blind_ante" else 0,
            ante_mode=ante_mode,
            minutes=minutes,
        )
        for sb, bb in blinds
    ]


def _break(minutes: int, color_up: int | None = None) -> ItemSpec:
    return ItemSpec(kind="break", minutes=minutes, color_up=color_up)


def _club(ante_mode: str = "none") -> tuple[ItemSpec, ...]:
    """The club structure; with a big-blind ante, the same blinds and breaks."""
    return (
        *_levels(
            [(100, 200), (200, 400), (300, 600), (400, 800), (500, 1000)],
            minutes=20,
            ante_mode=ante_mode,
        ),
        _break(10),
        *_levels(
            [(600, 1200), (800, 1600), (1000, 2000), (1500, 3000)],
            minutes=20,
            ante_mode=ante_mode,
        ),
        # From here every amount is a multiple of 500: the 100s leave play.
        _break(15, color_up=100),
        *_levels(
            [(2000, 4000), (2500, 5000), (3000, 6000), (4000, 8000)],
            minutes=20,
            ante_mode=ante_mode,
        ),
        _break(10, color_up=500),
        *_levels(
            [(5000, 10000), (6000, 12000), (8000, 16000), (10000, 20000), (15000, 30000)],
            minutes=20,
            ante_mode=ante_mode,
        ),
        *_levels([(20000, 40000), (25000, 50000), (30000, 60000)], minutes=20, ante_mode=ante_mode),
    )


_CLUB = _club()
_CLUB_BBA = _club("big_blind_ante")

_DEEP = (
    *_levels(
        [(100, 200), (200, 300), (200, 400), (300, 600)], minutes=40, ante_mode="big_blind_ante"
    ),
    _break(15),
    *_levels(
        [(400, 800), (500, 1000), (600, 1200), (800, 1600)], minutes=40, ante_mode="big_blind_ante"
    ),
    # From here every amount is a multiple of 500: the 100s leave play.
    _break(15, color_up=100),
    *_levels(
        [(1000, 2000), (1500, 3000), (2000, 4000), (2500, 5000)],
        minutes=40,
        ante_mode="big_blind_ante",
    ),
    _break(20, color_up=500),
    *_levels(
        [(3000, 6000), (4000, 8000), (5000, 10000), (6000, 12000)],
        minutes=40,
        ante_mode="big_blind_ante",
    ),
    _break(15),
    *_levels(
        [(8000, 16000), (10000, 20000), (15000, 30000), (20000, 40000), (25000, 50000)],
        minutes=40,
        ante_mode="big_blind_ante",
    ),
)

_TURBO = (
    *_levels([(100, 200), (200, 400), (300, 600), (400, 800), (600, 1200)], minutes=12),
    _break(10, color_up=100),
    *_levels(
        [(1000, 2000), (1500, 3000), (2000, 4000), (3000, 6000), (4000, 8000)],
        minutes=12,
        ante_mode="big_blind_ante",
    ),
    _break(10, color_up=500),
    *_levels(
        [(5000, 10000), (6000, 12000), (8000, 16000), (10000, 20000), (15000, 30000)],
        minutes=12,
        ante_mode="big_blind_ante",
    ),
)

PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            key="club",
            name=_("Club (20-minute levels)"),
            description=_("20-minute levels, no ante, a break every four or five levels."),
            starting_stack=30000,
            denominations=(100, 500, 1000, 5000, 25000),
            items=_CLUB,
        ),
        Preset(
            key="club_bba",
            name=_("Club, big-blind ante (20-minute levels)"),
            description=_("The club structure with a big-blind ante equal to the big blind."),
            starting_stack=30000,
            denominations=(100, 500, 1000, 5000, 25000),
            items=_CLUB_BBA,
        ),
        Preset(
            key="deep",
            name=_("Deep stack (40-minute levels, big-blind ante)"),
            description=_("40-minute levels with a big-blind ante from the first level."),
            starting_stack=50000,
            denominations=(100, 500, 1000, 5000, 25000),
            items=_DEEP,
        ),
        Preset(
            key="turbo",
            name=_("Turbo (12-minute levels)"),
            description=_("12-minute levels, big-blind ante from level 6."),
            starting_stack=20000,
            denominations=(100, 500, 1000, 5000, 25000),
            items=_TURBO,
        ),
    )
}


def preset_items(key: str) -> list[ItemSpec]:
    """Return the rows of a preset. Raise KeyError for an unknown key."""
    return list(PRESETS[key].items)

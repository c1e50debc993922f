"""The table a hand starts from: seats and stacks, button, blinds, antes, game and variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import check_distinct, parse_cards
from .errors import InvalidAmount, InvalidSetup

Game = Literal["NL", "PL", "L"]
Variant = Literal["holdem", "omaha", "omaha_hilo"]
AnteMode = Literal["none", "each", "bba"]
Street = Literal["preflop", "flop", "turn", "river"]
STREETS: tuple[Street, ...] = ("preflop", "flop", "turn", "river")
HOLE_COUNT = {"holdem": 2, "omaha": 4, "omaha_hilo": 4}
_UNSET = -1  # "use the default blind seat" marker, distinct from None (= no blind posted)


def check_amount(value: object, what: str, *, positive: bool = False) -> int:
    """Return value if it is a non-negative (or positive) integer; raise InvalidAmount otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount(f"{what} must be an integer, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise InvalidAmount(f"{what} must be {'positive' if positive else 'non-negative'}")
    return value


@dataclass(frozen=True)
class SeatStack:
    """One player dealt in: his seat number and his stack before blinds and antes."""

    seat: int
    stack: int


@dataclass(frozen=True)
class ExtraPost:
    """A cash-game post after the blinds (R-CASH-1, R-CASH-4): live part and dead part."""

    seat: int
    live: int = 0
    dead: int = 0
    kind: Literal["straddle", "missed_blinds", "new_player"] = "straddle"


@dataclass(frozen=True)
class TableSetup:
    """Everything the engine needs to start a hand.

    Preconditions: seats are distinct positive integers; with street "preflop" the blinds and
    antes are posted from the stacks; with a later street `pot` is dead money already in the
    middle and nothing is posted (in-hand.md §19).
    """

    players: tuple[SeatStack, ...]
    button: int
    sb: int
    bb: int
    game: Game = "NL"
    variant: Variant = "holdem"
    ante: int = 0
    ante_mode: AnteMode = "none"
    small_bet: int | None = None
    big_bet: int | None = None
    street: Street = "preflop"
    pot: int = 0
    sb_seat: int | None = _UNSET
    bb_seat: int | None = _UNSET
    extra_posts: tuple[ExtraPost, ...] = ()
    event_players_left: int | None = None
    hole: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        seats = [p.seat for p in self.players]
        if len(seats) < 2:
            raise InvalidSetup("a hand needs at least two players")
        if len(set(seats)) != len(seats):
            raise InvalidSetup(f"duplicate seat in {seats}")
        for p in self.players:
            check_amount(p.seat, "seat", positive=True)
            check_amount(p.stack, f"stack of seat {p.seat}")
        check_amount(self.button, "button", positive=True)
        check_amount(self.sb, "small blind")
        check_amount(self.bb, "big blind", positive=True)
        check_amount(self.ante, "ante")
        check_amount(self.pot, "pot")
        if self.game not in ("NL", "PL", "L"):
            raise InvalidSetup(f"unknown game {self.game!r}")
        if self.variant not in HOLE_COUNT:
            raise InvalidSetup(f"unknown variant {self.variant!r}")
        if self.ante_mode not in ("none", "each", "bba"):
            raise InvalidSetup(f"unknown ante mode {self.ante_mode!r}")
        if self.street not in STREETS:
            raise InvalidSetup(f"unknown street {self.street!r}")
        for name in ("sb_seat", "bb_seat"):
            value = getattr(self, name)
            if value not in (None, _UNSET) and value not in seats:
                raise InvalidSetup(f"{name} {value} is not a seat dealt in")
        for post in self.extra_posts:
            if post.seat not in seats:
                raise InvalidSetup(f"extra post by seat {post.seat}, not dealt in")
            check_amount(post.live, "live post")
            check_amount(post.dead, "dead post")
        count = HOLE_COUNT[self.variant]
        for seat, cards in self.hole.items():
            if seat not in seats:
                raise InvalidSetup(f"hole cards for seat {seat}, not dealt in")
            if len(cards) != count:
                raise InvalidSetup(f"seat {seat} needs {count} hole cards, got {len(cards)}")
        if len(self.board) > 5:
            raise InvalidSetup("a board has at most five cards")
        object.__setattr__(self, "hole", {s: parse_cards(c) for s, c in self.hole.items()})
        object.__setattr__(self, "board", parse_cards(self.board))
        check_distinct([*self.hole.values(), self.board])

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise (ascending)."""
        return tuple(sorted(p.seat for p in self.players))

    def blind_seats(self) -> tuple[int | None, int | None]:
        """Return (small-blind seat, big-blind seat); heads-up the button posts the SB (TDA-34)."""
        seats = self.seats
        after = [s for s in seats if s > self.button] + [s for s in seats if s <= self.button]
        if len(seats) == 2 and self.button in seats:
            default_sb, default_bb = self.button, next(s for s in seats if s != self.button)
        else:
            default_sb, default_bb = after[0], after[1]
        sb = default_sb if self.sb_seat == _UNSET else self.sb_seat
        bb = default_bb if self.bb_seat == _UNSET else self.bb_seat
        return sb, bb

    def bets_for_street(self, street_index: int) -> int:
        """Return the fixed bet of a limit street (R-LIMIT-1), or the minimum bet otherwise."""
        if self.game != "L":
            return self.bb
        small = self.small_bet if self.small_bet is not None else self.bb
        big = self.big_bet if self.big_bet is not None else 2 * small
        return small if street_index < 2 else big

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSetup:
        """Build a setup from the JSON shape of in-hand.md §19 (unknown keys are ignored)."""
        try:
            players = tuple(SeatStack(int(p["seat"]), p["stack"]) for p in data["players"])
            posts = tuple(
                ExtraPost(p["seat"], p.get("live", 0), p.get("dead", 0), p.get("kind", "straddle"))
                for p in data.get("extra_posts") or ()
            )
            return cls(
                players=players,
                button=data["button"],
                sb=data.get("sb") or 0,
                bb=data["bb"],
                game=data.get("game") or "NL",
                variant=data.get("variant") or "holdem",
                ante=data.get("ante") or 0,
                ante_mode=data.get("ante_mode") or "none",
                small_bet=data.get("small_bet"),
                big_bet=data.get("big_bet"),
                street=data.get("street") or "preflop",
                pot=data.get("pot") or 0,
                sb_seat=data.get("sb_seat", _UNSET),
                bb_seat=data.get("bb_seat", _UNSET),
                extra_posts=posts,
                event_players_left=data.get("event_players_left"),
                hole={int(s): tuple(c) for s, c in (data.get("hole") or {}).items()},
                board=tuple(data.get("board") or ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidSetup(f"malformed setup: {exc!r}") from exc

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON shape of in-hand.md §19."""
        out: dict[str, Any] = {
            "game": self.game,
            "variant": self.variant,
            "sb": self.sb,
            "bb": self.bb,
            "ante": self.ante,
            "ante_mode": self.ante_mode,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "button": self.button,
            "players": [{"seat": p.seat, "stack": p.stack} for p in self.players],
            "street": self.street,
            "pot": self.pot,
            "extra_posts": [
                {"seat": p.seat, "live": p.live, "dead": p.dead, "kind": p.kind}
                for p in self.extra_posts
            ],
            "event_players_left": self.event_players_left,
            "hole": {str(s): list(c) for s, c in self.hole.items()},
            "board": list(self.board),
        }
        if self.sb_seat != _UNSET:
            out["sb_seat"] = self.sb_seat
        if self.bb_seat != _UNSET:
            out["bb_seat"] = self.bb_seat
        return out

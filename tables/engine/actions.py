"""What the floor records (Action) and what the engine answers (Ruling)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import InvalidAmount
from .table import check_amount

ActionKind = Literal[
    "fold", "check", "call", "bet", "raise", "all_in", "complete", "timeout", "chips", "declare"
]
KINDS: tuple[str, ...] = (
    "fold", "check", "call", "bet", "raise", "all_in", "complete", "timeout", "chips", "declare",
)  # fmt: skip
Declared = Literal["raise", "bet", "call", "all_in", "pot"]
DECLARED: tuple[str, ...] = ("raise", "bet", "call", "all_in", "pot")


@dataclass(frozen=True)
class Action:
    """One event at the table, as recorded by the dealer or floor.

    `to` is the player's total for the betting round (bet/raise). A `chips` push lists the chip
    values moved forward, with an optional declaration made before or with the push. A
    `declare` carries the words ("raise 8000", "pot", "1400"). `forfeit` on a fold is the
    undercall chips a player leaves in the pot when the TD lets him fold (TDA-51b). For a push,
    `declared_after_chips` says the words followed the chips, and `unclear` that the floor could
    not tell what was said (R-ACT-5). `second_motion` lists the chips a player brought
    forward after going back to his stack (a raise in two motions, R-ACT-12).
    """

    seat: int
    kind: ActionKind
    to: int | None = None
    chips: tuple[int, ...] = ()
    declared: Declared | None = None
    declared_to: int | None = None
    words: str | None = None
    forfeit: int = 0
    declared_after_chips: bool = False  # the words came after the chips (R-ACT-5)
    unclear: bool = False  # the app flags the declaration as unclear (TDA-40a: TD decides)
    second_motion: tuple[int, ...] = ()  # chips of a second forward motion (R-ACT-12)

    def __post_init__(self) -> None:
        check_amount(self.seat, "seat", positive=True)
        if self.kind not in KINDS:
            raise InvalidAmount(f"unknown action {self.kind!r}")
        if self.to is not None:
            check_amount(self.to, "bet amount")
        if self.declared_to is not None:
            check_amount(self.declared_to, "declared amount")
        for chip in self.chips:
            check_amount(chip, "chip value", positive=True)
        if self.declared is not None and self.declared not in DECLARED:
            raise InvalidAmount(f"unknown declaration {self.declared!r}")
        check_amount(self.forfeit, "forfeited chips")
        if self.kind == "chips" and not self.chips:
            raise InvalidAmount("a chip push needs at least one chip")
        for chip in self.second_motion:
            check_amount(chip, "chip value", positive=True)
        if self.second_motion and self.kind != "chips":
            raise InvalidAmount("a second motion follows a chip push")
        if self.kind in ("bet", "raise") and self.to is None:
            raise InvalidAmount(f"{self.kind} needs a 'to' amount")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Build an action from the event shape of in-hand.md §19."""
        return cls(
            seat=data["seat"],
            kind=data["act"],
            to=data.get("to"),
            chips=tuple(data.get("chips") or ()),
            declared=data.get("declared"),
            declared_to=data.get("declared_to"),
            words=data.get("words"),
            forfeit=data.get("forfeit") or 0,
            declared_after_chips=bool(data.get("declared_after_chips")),
            unclear=bool(data.get("unclear")),
            second_motion=tuple(data.get("second_motion") or ()),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the event shape of in-hand.md §19 (only the fields that are set)."""
        out: dict[str, Any] = {"seat": self.seat, "act": self.kind}
        if self.to is not None:
            out["to"] = self.to
        if self.kind == "chips":
            out["chips"] = list(self.chips)
            out["declared"] = self.declared
            out["declared_to"] = self.declared_to
        if self.words is not None:
            out["words"] = self.words
        if self.forfeit:
            out["forfeit"] = self.forfeit
        if self.declared_after_chips:
            out["declared_after_chips"] = True
        if self.unclear:
            out["unclear"] = True
        if self.second_motion:
            out["second_motion"] = list(self.second_motion)
        return out


Act = Literal["check", "call", "bet", "raise", "fold", "all_in", "complete"]


@dataclass(frozen=True)
class Ruling:
    """The engine's answer to one event.

    `act`/`to` say what the event counts as (None for a binding declaration or a refused
    event); `rules` are the rule ids that decided it; `accepted` is False when the event
    could not stand as an action (state unchanged except a restriction the rule imposes).
    """

    seat: int
    accepted: bool
    act: Act | None = None
    to: int | None = None
    rules: tuple[str, ...] = ()
    out_of_turn: bool = False
    note: str = ""
    follow_ups: tuple[Ruling, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able dict of the ruling."""
        return {
            "seat": self.seat,
            "accepted": self.accepted,
            "interpreted": None if self.act is None else {"act": self.act, "to": self.to},
            "rules": list(self.rules),
            "out_of_turn": self.out_of_turn,
            "note": self.note,
            "follow_ups": [r.to_dict() for r in self.follow_ups],
        }

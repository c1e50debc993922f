"""Engine settings (in-hand.md §2); every default is the TDA choice."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .errors import InvalidSetup

VerbalVsChips = Literal["first_action", "verbal_prevails"]
FiftyPercentRule = Literal["ge_half_of_increment", "gt_half_of_min_raise"]
UndercallMode = Literal["tda", "always_full_call", "complete_or_forfeit"]
ReopenThreshold = Literal["full", "half"]
OotMode = Literal["tda", "figp", "code003"]
ShowdownOrder = Literal["tda_last_round", "last_aggressor_any_street"]
HiloIdenticalScoop = Literal["precise", "per_half"]
HiloOddChip = Literal["to_high", "by_position"]
LimitHeadsUp = Literal["event_heads_up", "round_starts_headsup", "before_third_raise"]
LimitShortAllinRaise = Literal["allin_plus_bet", "treat_as_full_bet"]
NlPotDeclaration = Literal["binds_min_bet", "not_binding"]
TimeExpiry = Literal["tda", "always_fold"]
AmbiguousAmount = Literal["largest_below_pot", "smallest"]
SubstantialAction = Literal["tda", "figp"]
MississippiFirst = Literal["utg", "sb"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "verbal_vs_chips": ("first_action", "verbal_prevails"),
    "fifty_percent_rule": ("ge_half_of_increment", "gt_half_of_min_raise"),
    "undercall_mode": ("tda", "always_full_call", "complete_or_forfeit"),
    "nl_reopen_threshold": ("full", "half"),
    "oot_mode": ("tda", "figp", "code003"),
    "showdown_order": ("tda_last_round", "last_aggressor_any_street"),
    "hilo_identical_scoop": ("precise", "per_half"),
    "hilo_odd_chip": ("to_high", "by_position"),
    "limit_headsup_uncapped": ("event_heads_up", "round_starts_headsup", "before_third_raise"),
    "limit_short_allin_raise": ("allin_plus_bet", "treat_as_full_bet"),
    "nl_pot_declaration": ("binds_min_bet", "not_binding"),
    "time_expiry": ("tda", "always_fold"),
    "ambiguous_verbal_amount": ("largest_below_pot", "smallest"),
    "substantial_action": ("tda", "figp"),
    "mississippi_first_to_act": ("utg", "sb"),
}


@dataclass(frozen=True)
class EngineSettings:
    """House settings for one hand; the defaults are the TDA text (in-hand.md §2)."""

    verbal_vs_chips: VerbalVsChips = "first_action"  # TDA-40a
    fifty_percent_rule: FiftyPercentRule = "ge_half_of_increment"  # TDA-43a
    undercall_mode: UndercallMode = "tda"  # TDA-51b
    nl_reopen_threshold: ReopenThreshold = "full"  # TDA-47a
    oot_mode: OotMode = "tda"  # TDA-53a
    showdown_order: ShowdownOrder = "tda_last_round"  # TDA-17a
    hilo_identical_scoop: HiloIdenticalScoop = "precise"  # 2015 §19D
    hilo_odd_chip: HiloOddChip = "to_high"  # TDA-20c
    limit_cap_raises: int = 3  # house choice; FIGP §8a
    limit_headsup_uncapped: LimitHeadsUp = "event_heads_up"  # TDA-48
    limit_short_allin_raise: LimitShortAllinRaise = "allin_plus_bet"  # Cash 'Limit'
    nl_pot_declaration: NlPotDeclaration = "binds_min_bet"  # TDA-54c
    time_expiry: TimeExpiry = "tda"  # TDA-29
    ambiguous_verbal_amount: AmbiguousAmount = "largest_below_pot"  # TDA-57
    substantial_action: SubstantialAction = "tda"  # TDA-36
    chip_unit: int = 1  # TDA-20: smallest chip in play
    mississippi_first_to_act: MississippiFirst = "utg"  # house choice

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise InvalidSetup(f"setting {name}={getattr(self, name)!r}: one of {choices}")
        for name in ("limit_cap_raises", "chip_unit"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidSetup(f"setting {name} must be a positive integer")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> EngineSettings:
        """Build settings from a JSON-able dict of overrides; unknown keys are an error."""
        data = data or {}
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidSetup(f"unknown settings {sorted(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as a JSON-able dict."""
        return asdict(self)

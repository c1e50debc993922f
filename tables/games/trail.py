"""The explanation trail: each step of a settlement, with its rule id.

A step is a code (what happened) plus plain parameters; the wording in the user's language
is the caller's (the pit tool translates each code). No case asserts the trail.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    code: str
    rule: str
    params: dict[str, str] = field(default_factory=dict)

"""What a case found: its outcome (refused, accepted, and any problem: a server error, a
partial write, an untranslated message, a double payment), and the per-target tally the
bench reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    target: str
    refused: bool = False
    accepted: bool = False  # something changed, and the log says so
    server_error: str = ""
    partial_write: str = ""
    untranslated: str = ""
    message: str = ""  # the first refusal shown, for the bench's report
    # Money written more than once by copies of one request (bench/fuzzing_money.py).
    double_payment: str = ""

    @property
    def problems(self) -> list[str]:
        found = (self.server_error, self.partial_write, self.untranslated, self.double_payment)
        return [p for p in found if p]


@dataclass
class Tally:
    """Per-target counts for the bench's report."""

    cases: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    accepted: dict[str, int] = field(default_factory=dict)
    server_errors: int = 0
    partial_writes: int = 0
    untranslated: int = 0
    double_payments: int = 0
    samples: list[str] = field(default_factory=list)
    messages: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        name = outcome.target
        if outcome.message:
            seen = self.messages.setdefault(name, {})
            seen[outcome.message[:90]] = seen.get(outcome.message[:90], 0) + 1
        self.cases[name] = self.cases.get(name, 0) + 1
        self.refused[name] = self.refused.get(name, 0) + outcome.refused
        self.accepted[name] = self.accepted.get(name, 0) + outcome.accepted
        self.server_errors += bool(outcome.server_error)
        self.partial_writes += bool(outcome.partial_write)
        self.untranslated += bool(outcome.untranslated)
        self.double_payments += bool(outcome.double_payment)
        for problem in outcome.problems:
            if len(self.samples) < 40:
                self.samples.append(f"{name}: {problem[:600]}")

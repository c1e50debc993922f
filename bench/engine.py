"""`bench engine`: the in-hand engine's speed, beside pokerkit on the same hand histories.

- actions_per_s: actions judged per second, over the engine conformance cases and the
  PHH hand histories (each case or hand set up and played through `tables.engine`);
- phh_hands_per_s / pokerkit_hands_per_s: the same PHH files replayed (parsed and played to
  the finishing stacks) by the engine and by pokerkit in the same run; the finishing stacks
  must be identical, hand by hand, or the bench fails;
- evals_per_s: seven-card hands ranked per second through the engine's own call
  (`tables.engine.ranking.holdem_rank`, cards as text, as the engine holds them).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from bench.common import Figures
from room.conformance.engine import run_engine_case
from tables.engine.cards import RANKS
from tables.engine.phh import iter_phh_files, parse_phh, replay
from tables.engine.ranking import holdem_rank

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SUITS = "cdhs"


def _engine_hands(texts: list[str]) -> tuple[float, list[list[float]], int]:
    start = time.perf_counter()
    stacks, parsed = [], []
    for text in texts:
        data = parse_phh(text)
        hand = replay(data)
        result = hand.result()
        stacks.append([float(result.final_stacks[s]) for s in hand.seats])
        parsed.append(data)
    seconds = time.perf_counter() - start
    # The bench's own count of the players' actions, outside the engine's time (pokerkit's
    # side counts nothing).
    actions = sum(
        1 for data in parsed for a in data.get("actions", []) if not str(a).startswith("d ")
    )
    return seconds, stacks, actions


def _pokerkit_hands(texts: list[str]) -> tuple[float, list[list[float]]]:
    from pokerkit import HandHistory  # the test extra: an oracle, never imported by the app

    start = time.perf_counter()
    stacks = []
    for text in texts:
        *_played, final = HandHistory.loads(text)  # every state of the hand; the last one
        stacks.append([float(s) for s in final.stacks])
    return time.perf_counter() - start, stacks


def _cases_actions(cases: list[dict[str, Any]]) -> tuple[float, int]:
    start = time.perf_counter()
    for case in cases:
        run_engine_case(case)
    return time.perf_counter() - start, sum(len(c.get("events", [])) for c in cases)


def _seven_card_hands(count: int, rng: random.Random) -> list[tuple[list[str], list[str]]]:
    deck = [r + s for r in RANKS for s in SUITS]
    hands = []
    for _ in range(count):
        cards = rng.sample(deck, 7)
        hands.append((cards[:2], cards[2:]))
    return hands


def run(
    *, samples: int = 200, rounds: int = 5, seed: int = 11, **_: Any
) -> tuple[list[str], Figures]:
    """Time the engine and pokerkit on the same files (`rounds` passes), and rank hands."""
    texts = [p.read_text(encoding="utf-8") for p in iter_phh_files([SHARED / "phh" / "data"])]
    cases = [
        c
        for c in json.loads((SHARED / "conformance" / "engine.json").read_text(encoding="utf-8"))
        if "setup" in c and "events" in c
    ]
    engine_s = pokerkit_s = cases_s = 0.0
    hand_actions = case_actions = 0
    for _round in range(rounds):
        seconds, ours, actions = _engine_hands(texts)
        engine_s += seconds
        hand_actions += actions
        seconds, theirs = _pokerkit_hands(texts)
        pokerkit_s += seconds
        different = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
        if different:
            raise AssertionError(f"finishing stacks differ from pokerkit in {len(different)} hands")
        seconds, actions = _cases_actions(cases)
        cases_s += seconds
        case_actions += actions
    hands = len(texts) * rounds
    evals = max(samples, 1) * 1000
    sample = _seven_card_hands(evals, random.Random(seed))
    start = time.perf_counter()
    for hole, board in sample:
        holdem_rank(hole, board)
    evals_s = time.perf_counter() - start
    figures = {
        "bench": "engine",
        "phh_files": len(texts),
        "conformance_cases": len(cases),
        "rounds": rounds,
        "actions_per_s": round((hand_actions + case_actions) / (engine_s + cases_s)),
        "phh_hands_per_s": round(hands / engine_s, 1),
        "pokerkit_hands_per_s": round(hands / pokerkit_s, 1),
        "ratio_vs_pokerkit": round(pokerkit_s / engine_s, 2),
        "evals_per_s": round(evals / evals_s),
        "identical_stacks": True,
    }
    summary = [
        f"Judged actions: {figures['actions_per_s']:,}/s over {len(cases)} conformance cases "
        f"and {len(texts)} hand histories",
        f"PHH replay: engine {figures['phh_hands_per_s']} hands/s, pokerkit "
        f"{figures['pokerkit_hands_per_s']} hands/s on the same files, identical finishing "
        f"stacks: {figures['ratio_vs_pokerkit']}x (goal >= 3x)",
        f"Seven-card evaluations through holdem_rank: {figures['evals_per_s']:,}/s "
        "(goal >= 1,000,000)",
    ]
    return summary, figures

"""More engine cases in the case format (in-hand.md §19), for rules the public file names
but does not include: limit caps and short all-ins, pot-limit maxima, straddles, reopening
variants, out-of-turn modes, showdown order, odd chips, Omaha."""

import pytest

from room.conformance.engine import run_engine_case


def six(stack=20000, n=6):
    return [{"seat": s, "stack": stack} for s in range(1, n + 1)]


def setup(**kw):
    base = {"game": "NL", "sb": 100, "bb": 200, "ante": 0, "ante_mode": "none",
            "small_bet": None, "big_bet": None, "button": 1, "players": six(),
            "street": "preflop", "pot": 0}  # fmt: skip
    return {**base, **kw}


LIMIT = {"game": "L", "sb": 5, "bb": 10, "small_bet": 10, "big_bet": 20}

CASES = [
    {
        "id": "limit-cap-preflop",
        "setup": setup(**LIMIT, players=six(1000)),
        "events": [
            {"seat": 4, "act": "raise", "to": 20},
            {"seat": 5, "act": "raise", "to": 30},
            {"seat": 6, "act": "raise", "to": 40},
            {"seat": 1, "act": "raise", "to": 50},
        ],
        "expect": [
            {"after": -1, "min_raise_to": 20, "max_raise_to": 20},
            {"after": 1, "min_raise_to": 40},
            {"after": 2, "next_to_act": 1, "can_raise": {"1": False}, "min_raise_to": None},
            {"after": 3, "legal": False},
        ],
    },
    {
        "id": "limit-cash-allin-10-may-raise-to-30",
        "setup": setup(
            **LIMIT,
            button=4,
            street="turn",
            pot=100,
            players=[
                {"seat": 1, "stack": 500},
                {"seat": 2, "stack": 500},
                {"seat": 3, "stack": 10},
                {"seat": 4, "stack": 500},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "check"},
            {"seat": 2, "act": "check"},
            {"seat": 3, "act": "all_in"},
            {"seat": 4, "act": "raise", "to": 99},
        ],
        "expect": [
            {"after": 2, "next_to_act": 4, "can_raise": {"4": True}, "min_raise_to": 30},
            {"after": 3, "interpreted": {"act": "raise", "to": 30}},
            {"after": 3, "next_to_act": 1, "min_raise_to": 50},
        ],
    },
    {
        "id": "limit-allin-10-treat-as-full-bet",
        "settings": {"limit_short_allin_raise": "treat_as_full_bet"},
        "setup": setup(
            **LIMIT,
            button=4,
            street="turn",
            pot=100,
            players=[
                {"seat": 1, "stack": 500},
                {"seat": 2, "stack": 500},
                {"seat": 3, "stack": 10},
                {"seat": 4, "stack": 500},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "check"},
            {"seat": 2, "act": "check"},
            {"seat": 3, "act": "all_in"},
        ],
        "expect": [{"after": 2, "min_raise_to": 40}],
    },
    {
        "id": "pl-with-antes",
        "setup": setup(game="PL", ante=25, ante_mode="each", players=six(10000, 4)),  # fmt: skip
        "events": [{"seat": 4, "act": "raise", "to": 5000}],
        "expect": [
            {"after": -1, "next_to_act": 4, "max_raise_to": 800, "min_raise_to": 400},
            {"after": 0, "interpreted": {"act": "raise", "to": 800}},
        ],
    },
    {
        "id": "pl-tda54b-short-bb",
        "setup": setup(
            game="PL",
            sb=50,
            bb=100,
            players=[
                {"seat": 1, "stack": 5000},
                {"seat": 2, "stack": 5000},
                {"seat": 3, "stack": 60},
                {"seat": 4, "stack": 5000},
            ],
        ),  # fmt: skip
        "events": [],
        "expect": [{"after": -1, "next_to_act": 4, "max_raise_to": 350}],
    },
    {
        "id": "flow-straddle-cash",
        "setup": setup(extra_posts=[{"seat": 4, "live": 400, "dead": 0, "kind": "straddle"}]),
        "events": [
            {"seat": 5, "act": "call"},
            {"seat": 6, "act": "fold"},
            {"seat": 1, "act": "fold"},
            {"seat": 2, "act": "fold"},
            {"seat": 3, "act": "fold"},
        ],
        "expect": [
            {"after": -1, "next_to_act": 5, "min_raise_to": 800},
            {"after": 0, "interpreted": {"act": "call", "to": 400}},
            {"after": 4, "next_to_act": 4, "can_raise": {"4": True}},
        ],
    },
    {
        "id": "tda47-ex1a-caller-not-reopened",
        "setup": setup(
            sb=50,
            bb=100,
            button=5,
            street="flop",
            pot=500,
            players=[
                {"seat": 1, "stack": 20000},
                {"seat": 2, "stack": 125},
                {"seat": 3, "stack": 20000},
                {"seat": 4, "stack": 200},
                {"seat": 5, "stack": 20000},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "bet", "to": 100},
            {"seat": 2, "act": "all_in"},
            {"seat": 3, "act": "call"},
            {"seat": 4, "act": "all_in"},
            {"seat": 5, "act": "call"},
            {"seat": 1, "act": "call"},
            {"seat": 3, "act": "raise", "to": 400},
        ],
        "expect": [
            {"after": 5, "next_to_act": 3, "can_raise": {"3": False}, "min_raise_to": None},
            {"after": 6, "legal": False},
        ],
    },
    {
        "id": "tda47-ex2-min-raise-after-short-allins",
        "setup": setup(
            sb=50,
            bb=100,
            button=6,
            street="flop",
            pot=500,
            players=[
                {"seat": 1, "stack": 20000},
                {"seat": 2, "stack": 500},
                {"seat": 3, "stack": 650},
                {"seat": 4, "stack": 800},
                {"seat": 5, "stack": 20000},
                {"seat": 6, "stack": 20000},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "bet", "to": 300},
            {"seat": 2, "act": "all_in"},
            {"seat": 3, "act": "all_in"},
            {"seat": 4, "act": "all_in"},
            {"seat": 5, "act": "call"},
        ],
        "expect": [{"after": 4, "next_to_act": 6, "min_raise_to": 1100}],
    },
    {
        "id": "short-allin-1500-code003-reopens",
        "settings": {"nl_reopen_threshold": "half"},
        "setup": setup(
            button=3,
            street="flop",
            pot=2000,
            players=[
                {"seat": 1, "stack": 20000},
                {"seat": 2, "stack": 1500},
                {"seat": 3, "stack": 20000},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "bet", "to": 1000},
            {"seat": 2, "act": "all_in"},
            {"seat": 3, "act": "call"},
        ],
        "expect": [{"after": 2, "next_to_act": 1, "can_raise": {"1": True}, "min_raise_to": 2500}],
    },
    {
        "id": "tda53a-ex1-oot-raise-binding",
        "setup": setup(
            sb=50,
            bb=100,
            button=6,
            street="flop",
            pot=400,
            players=[{"seat": s, "stack": 10000} for s in (3, 4, 5, 6)],
        ),
        "events": [
            {"seat": 3, "act": "bet", "to": 300},
            {"seat": 4, "act": "fold"},
            {"seat": 6, "act": "raise", "to": 800},
            {"seat": 5, "act": "call"},
        ],
        "expect": [
            {"after": 2, "next_to_act": 5},
            {"after": 3, "next_to_act": 3, "min_raise_to": 1300},
        ],
    },
    {
        "id": "figp23-oot-skipped-raises",
        "settings": {"oot_mode": "figp"},
        "setup": setup(),
        "events": [
            {"seat": 5, "act": "raise", "to": 800},
            {"seat": 4, "act": "raise", "to": 400},
        ],
        "expect": [{"after": 1, "next_to_act": 5, "can_raise": {"5": True}, "min_raise_to": 600}],
    },
    {
        "id": "code003-oot-call-in-between-releases",
        "settings": {"oot_mode": "code003"},
        "setup": setup(),
        "events": [
            {"seat": 5, "act": "raise", "to": 800},
            {"seat": 4, "act": "call"},
        ],
        "expect": [{"after": 1, "next_to_act": 5, "min_raise_to": 400}],
    },
    {
        "id": "code003-oot-fold-in-between-binds",
        "settings": {"oot_mode": "code003"},
        "setup": setup(),
        "events": [
            {"seat": 5, "act": "raise", "to": 800},
            {"seat": 4, "act": "fold"},
        ],
        "expect": [{"after": 1, "next_to_act": 6, "min_raise_to": 1400}],
    },
    {
        "id": "sd-river-raise-three-way",
        "setup": setup(
            button=1,
            street="river",
            pot=3000,
            players=[{"seat": s, "stack": 10000} for s in (3, 5, 7)],
        ),
        "events": [
            {"seat": 3, "act": "check"},
            {"seat": 5, "act": "bet", "to": 500},
            {"seat": 7, "act": "raise", "to": 1500},
            {"seat": 3, "act": "call"},
            {"seat": 5, "act": "call"},
        ],
        "expect": [{"after": 4, "next_to_act": None}, {"end": True, "showdown_order": [7, 3, 5]}],
    },
    {
        "id": "omaha-two-hole-cards-required",
        "setup": setup(
            game="PL",
            variant="omaha",
            button=4,
            street="river",
            pot=1000,
            players=[{"seat": 3, "stack": 1000}, {"seat": 5, "stack": 1000}],
            hole={"3": ["Ah", "Ks", "Kd", "3c"], "5": ["Qs", "Qd", "4c", "3d"]},
            board=["Kh", "9h", "6h", "2h", "Qc"],
        ),  # fmt: skip
        "events": [{"seat": 5, "act": "check"}, {"seat": 3, "act": "check"}],
        "expect": [{"end": True, "winners": {"main": [3]}}],  # trip kings; no flush with one heart
    },
    {
        "id": "three-way-split-two-odd-chips",
        "setup": setup(
            sb=1,
            bb=2,
            button=4,
            street="river",
            pot=11,
            players=[{"seat": s, "stack": 100} for s in (1, 2, 3, 4)],
            hole={"1": ["2c", "3d"], "2": ["2d", "3c"], "3": ["4h", "5s"], "4": ["7c", "8d"]},
            board=["Tc", "Jd", "Qh", "Ks", "Ad"],
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "check"},
            {"seat": 2, "act": "check"},
            {"seat": 3, "act": "check"},
            {"seat": 4, "act": "fold"},
        ],
        "expect": [
            {"end": True, "winners": {"main": [1, 2, 3]}},
            {"end": True, "odd_chip_to": [1, 2]},
        ],
    },
    {
        "id": "bba-bb-covers-only-ante",
        "setup": setup(
            ante=200,
            ante_mode="bba",
            players=[
                {"seat": 1, "stack": 20000},
                {"seat": 2, "stack": 20000},
                {"seat": 3, "stack": 150},
                {"seat": 4, "stack": 20000},
            ],
        ),  # fmt: skip
        "events": [
            {"seat": 4, "act": "call"},
            {"seat": 1, "act": "fold"},
            {"seat": 2, "act": "fold"},
        ],
        "expect": [
            {"after": -1, "next_to_act": 4, "min_raise_to": 400},
            {"after": 2, "next_to_act": None},
            {
                "end": True,
                "pots": [{"amount": 150, "eligible": [3, 4]}, {"amount": 200, "eligible": [4]}],
            },  # fmt: skip
        ],
    },
    {
        "id": "tda51-headsup-undercall",
        "setup": setup(
            button=2,
            street="flop",
            pot=1000,
            players=[{"seat": 1, "stack": 20000}, {"seat": 2, "stack": 20000}],
        ),
        "events": [
            {"seat": 1, "act": "bet", "to": 1000},
            {"seat": 2, "act": "raise", "to": 3000},
            {"seat": 1, "act": "chips", "chips": [1000], "declared": None, "declared_to": None},
        ],
        "expect": [{"after": 2, "interpreted": {"act": "call", "to": 3000}}],
    },
    {
        "id": "tda43-verbal-1400-is-call",
        "setup": setup(button=3, street="flop", pot=2000, players=six(20000, 3)),
        "events": [
            {"seat": 1, "act": "bet", "to": 1000},
            {"seat": 2, "act": "declare", "words": "1400"},
        ],
        "expect": [{"after": 1, "interpreted": {"act": "call", "to": 1000}}],
    },
    {
        "id": "cash50-b-1400-completes",
        "setup": setup(sb=50, bb=100, button=4, street="flop", pot=600, players=six(20000, 4)),
        "events": [
            {"seat": 1, "act": "bet", "to": 200},
            {"seat": 2, "act": "raise", "to": 1000},
            {
                "seat": 3,
                "act": "chips",
                "chips": [1000, 100, 100, 100, 100],
                "declared": None,
                "declared_to": None,
            },  # fmt: skip
        ],
        "expect": [{"after": 2, "interpreted": {"act": "raise", "to": 1800}}],
    },
    {
        "id": "figp15-exactly-half-is-call",
        "settings": {"fifty_percent_rule": "gt_half_of_min_raise"},
        "setup": setup(button=3, street="flop", pot=2000, players=six(20000, 3)),
        "events": [
            {"seat": 1, "act": "bet", "to": 1000},
            {
                "seat": 2,
                "act": "chips",
                "chips": [1000, 500],
                "declared": None,
                "declared_to": None,
            },
        ],
        "expect": [{"after": 1, "interpreted": {"act": "call", "to": 1000}}],
    },
    {
        "id": "nl-pot-not-binding-figp",
        "settings": {"nl_pot_declaration": "not_binding"},
        "setup": setup(button=3, street="flop", pot=2000, players=six(20000, 3)),
        "events": [{"seat": 1, "act": "declare", "words": "pot"}, {"seat": 1, "act": "check"}],
        "expect": [{"after": 0, "legal": False, "next_to_act": 1}, {"after": 1, "legal": True}],
    },
    {
        "id": "declared-raise-then-chips",
        "setup": setup(button=3, street="flop", pot=2000, players=six(20000, 3)),
        "events": [
            {"seat": 1, "act": "bet", "to": 1000},
            {"seat": 2, "act": "declare", "words": "raise"},
            {"seat": 2, "act": "fold"},
            {
                "seat": 2,
                "act": "chips",
                "chips": [1000, 100],
                "declared": None,
                "declared_to": None,
            },
        ],
        "expect": [
            {"after": 1, "next_to_act": 2},
            {"after": 2, "legal": False},
            {"after": 3, "interpreted": {"act": "raise", "to": 2000}},
        ],
    },
    {
        "id": "pl-pot-declared-words",
        "setup": setup(
            game="PL", sb=10, bb=20, button=3, street="flop", pot=100, players=six(5000, 3)
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "bet", "to": 50},
            {"seat": 2, "act": "declare", "words": "pot"},
        ],
        "expect": [{"after": 1, "interpreted": {"act": "raise", "to": 250}}],
    },
    {
        "id": "all-in-runout-expose",
        "setup": setup(
            button=2,
            street="flop",
            pot=400,
            players=[{"seat": 1, "stack": 500}, {"seat": 2, "stack": 5000}],
        ),
        "events": [{"seat": 1, "act": "all_in"}, {"seat": 2, "act": "call"}],
        "expect": [
            {"after": 1, "round_complete": True, "next_to_act": None},
            {"end": True, "pots": [{"amount": 1400, "eligible": [1, 2]}]},
        ],
    },
]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_extra_case(case):
    assert run_engine_case(case) == []


def test_limit_before_third_raise_uncaps_when_two_remain():
    case = {
        "id": "limit-004-before-third-raise",
        "settings": {"limit_headsup_uncapped": "before_third_raise"},
        "setup": setup(**LIMIT, button=3, street="flop", pot=40, players=six(1000, 3)),
        "events": [
            {"seat": 1, "act": "bet", "to": 10},
            {"seat": 2, "act": "raise", "to": 20},
            {"seat": 3, "act": "fold"},
            {"seat": 1, "act": "raise", "to": 30},
            {"seat": 2, "act": "raise", "to": 40},
        ],
        "expect": [{"after": 4, "next_to_act": 1, "can_raise": {"1": True}, "min_raise_to": 50}],
    }
    assert run_engine_case(case) == []
    capped = {**case, "settings": {}}
    capped["expect"] = [{"after": 4, "can_raise": {"1": False}}]
    assert run_engine_case(capped) == []


def test_ruling_fields_of_section_17():
    case = {
        "id": "ruling-fields",
        "setup": setup(
            button=4, street="flop", pot=10000, sb=1000, bb=2000, players=six(50000, 4)
        ),  # fmt: skip
        "events": [
            {"seat": 1, "act": "bet", "to": 2000},
            {"seat": 3, "act": "call"},
            {"seat": 2, "act": "raise", "to": 8000},
            {"seat": 3, "act": "chips", "chips": [2000], "declared": None, "declared_to": None},
        ],
        "expect": [
            {"after": -1, "to_call": 0, "can_check": True, "street": "flop"},
            {"after": 0, "to_call": 2000, "can_check": False},
            {"after": 1, "out_of_turn": True, "next_to_act": 2},
            {"after": 2, "next_to_act": 3},  # the pending call is released by the raise
            {
                "after": 3,
                "td_decision_required": True,
                "options": ["complete_call", "forfeit_and_fold"],
            },
        ],
    }
    assert run_engine_case(case) == []

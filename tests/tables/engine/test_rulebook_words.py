"""The engine held to the rulebooks' words and to every hand history.

Each test here failed on the engine before the fix it names.
"""

import random

import pytest

from tables.engine import Action, EngineSettings, Hand, SeatStack, TableSetup
from tables.engine.errors import DecisionRequired, EngineError, IllegalAction, InvalidSetup
from tables.engine.phh import (
    ReplayError,
    check_text,
    export_phh,
    in_turn_history,
    parse_phh,
    replay,
)
from tables.engine.pots import clockwise_from
from tables.engine.settings import _CHOICES
from tables.engine.table import ExtraPost

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _phh(**fields):
    lines = []
    for key, value in fields.items():
        lines.append(f"{key} = {value!r}".replace("True", "true").replace("False", "false"))
    return "\n".join(lines) + "\n"


# ----- item 1: limit completions -----------------------------------------------------------


LIMIT_COMPLETION = _phh(
    variant="FT",
    ante_trimming_status=False,
    antes=[0, 0, 0],
    blinds_or_straddles=[5, 10, 0],
    small_bet=10,
    big_bet=20,
    starting_stacks=[14, 500, 500],
    actions=[
        "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 7c2h",
        "p3 cc", "p1 cc", "p2 cc",
        "d db 2c3d9h",
        "p1 cbr 4",  # all-in for 4: less than half of the 10 bet
        "p2 cbr 10",  # the only increase allowed: the completion (R-LIMIT-3)
        "p3 cc",
        "d db Ts", "p2 cc", "p3 cc", "d db Jh", "p2 cc", "p3 cc",
        "p1 sm AsAd", "p2 sm KsKd", "p3 sm 7c2h",
    ],
    finishing_stacks=[42, 492, 480],
)  # fmt: skip


def test_limit_completion_recorded_as_cbr_replays():
    outcome = check_text(LIMIT_COMPLETION)
    assert outcome.passed, outcome
    hand = replay(parse_phh(LIMIT_COMPLETION))
    assert any(r.seat == 2 and r.act == "complete" and r.to == 10 for r in hand.rulings)


def test_limit_completion_export_replays():
    hand = replay(parse_phh(LIMIT_COMPLETION))
    text = export_phh(hand)
    assert "'p2 cbr 10'" in text
    assert check_text(text).passed


def _random_setup(rng):
    n = rng.randint(2, 6)
    game = rng.choice(["NL", "PL", "L"])
    variant = "holdem" if game != "PL" else "omaha"  # PHH has no pot-limit hold'em code
    if game == "L" and rng.random() < 0.3:
        variant = "omaha_hilo"
    sb = rng.choice([1, 5, 25])
    bb = 2 * sb
    ante_mode = rng.choice(["none", "each", "bba"])
    ante = {"none": 0, "each": rng.choice([1, sb]), "bba": bb}[ante_mode]
    stacks = [rng.choice([rng.randint(1, 8 * bb), rng.randint(bb, 100 * bb)]) for _ in range(n)]
    posts = ()
    if n >= 4 and rng.random() < 0.25:
        posts = (ExtraPost(seat=3, live=2 * bb),)  # UTG live straddle (R-CASH-1)
    kwargs = {}
    if game == "L":
        kwargs = {"small_bet": bb, "big_bet": 2 * bb}
    return TableSetup(
        players=tuple(SeatStack(i + 1, s) for i, s in enumerate(stacks)),
        button=n,
        sb=sb,
        bb=bb,
        game=game,
        variant=variant,
        ante=ante,
        ante_mode=ante_mode,
        extra_posts=posts,
        **kwargs,
    )


def _random_action(rng, hand):
    seat = hand.next_to_act
    others = [s for s in hand.seats if s != seat and not hand.is_folded(s) and hand.stack(s) > 0]
    if others and rng.random() < 0.08:  # out of turn: pending until the action reaches him
        seat = rng.choice(others)
        return Action(seat, rng.choice(["call", "check", "raise", "fold"]), to=hand.current_bet * 3)
    roll = rng.random()
    if roll < 0.12:
        return Action(seat, "fold")
    if roll < 0.25 and hand.can_complete(seat):
        return Action(seat, "complete")
    if roll < 0.55 and hand.can_raise(seat):
        lo, hi = hand.min_raise_to(seat), hand.max_raise_to(seat)
        return Action(seat, "raise", to=rng.choice([lo, hi, rng.randint(lo, max(lo, hi))]))
    if roll < 0.6:
        return Action(seat, "all_in")
    return Action(seat, "call")


def _play_random(seed):
    rng = random.Random(seed)
    try:
        settings = EngineSettings(**{k: rng.choice(v) for k, v in _CHOICES.items()})
        hand = Hand(_random_setup(rng), settings if rng.random() < 0.5 else None)
    except EngineError:
        return None
    n = len(hand.seats)
    count = 2 if hand.setup.variant == "holdem" else 4
    cards = rng.sample(DECK, count * n + 5)
    for i, seat in enumerate(hand.seats):
        hand.deal_hole(seat, cards[count * i : count * (i + 1)])
    board = cards[count * n :]
    dealt = 0
    while not hand.betting_over:
        streets = ("preflop", "flop", "turn", "river")
        need = (0, 3, 4, 5)[streets.index(hand.street)]
        if dealt < need:
            hand.deal_board(board[dealt:need])
            dealt = need
        try:
            hand.act(_random_action(rng, hand))
        except EngineError:
            hand.act(Action(hand.next_to_act, "call"))
    if dealt < 5:
        hand.deal_board(board[dealt:5])
    return hand


def test_export_then_replay_is_a_round_trip_for_random_hands():
    """Property: every hand the engine judges replays from its own export to the same stacks
    and the same betting (NL, PL and limit; antes, big-blind antes, straddles, short stacks)."""
    played = completions = 0
    for seed in range(600):
        hand = _play_random(seed)
        if hand is None:
            continue
        text = export_phh(hand)
        again = replay(parse_phh(text))
        order = [again.seats[i] for i in range(len(hand.seats))]
        # Out-of-turn folds are written where the folder's turn came (in_turn_history).
        assert [h[2:] for h in again.betting_history()] == [h[2:] for h in in_turn_history(hand)], (
            f"seed {seed}: {text}"
        )
        seats = clockwise_from(hand.setup.button, hand.seats)
        final = hand.final_stacks()
        assert [again.final_stacks()[k] for k in order] == [final[s] for s in seats], seed
        assert check_text(text).passed, f"seed {seed}: {text}"
        played += 1
        completions += any(r.act == "complete" for r in hand.rulings)
    assert played > 500
    assert completions > 0


# ----- item 2: ante_trimming_status ---------------------------------------------------------


def _bba_hand():
    setup = TableSetup(
        players=(SeatStack(1, 1000), SeatStack(2, 1000), SeatStack(3, 1000)),
        button=3, sb=50, bb=100, ante=100, ante_mode="bba",
        hole={1: ("As", "Ad"), 2: ("Kc", "Kd"), 3: ("7h", "2s")},
        board=("2c", "5d", "Jh", "Qs", "3c"),
    )  # fmt: skip
    hand = Hand(setup)
    for a in (Action(3, "fold"), Action(1, "call"), Action(2, "check")):
        hand.act(a)
    while not hand.betting_over:
        hand.act(Action(hand.next_to_act, "check"))
    return hand


def test_big_blind_ante_is_exported_untrimmed():
    text = export_phh(_bba_hand())
    assert "ante_trimming_status = false" in text
    assert check_text(text).passed


def test_pokerkit_replays_the_engines_big_blind_ante_export_to_the_same_stacks():
    from pokerkit import HandHistory  # the oracle of the differential test

    text = export_phh(_bba_hand())
    *_, final = HandHistory.loads(text)  # the states, one per action; the last one is final
    assert list(final.stacks) == parse_phh(text)["finishing_stacks"]


def test_per_player_antes_are_exported_trimmed():
    setup = TableSetup(
        players=(SeatStack(1, 1000), SeatStack(2, 1000)), button=2, sb=50, bb=100,
        ante=10, ante_mode="each",
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(2, "fold"))
    assert "ante_trimming_status = true" in export_phh(hand)


def test_trimmed_big_blind_ante_is_refused_by_name():
    text = export_phh(_bba_hand()).replace(
        "ante_trimming_status = false", "ante_trimming_status = true"
    )
    outcome = check_text(text)
    assert not outcome.passed
    assert "ante_trimming_status" in outcome.message and "R-ANTE-3" in outcome.message


def test_untrimmed_partial_ante_is_refused_by_name():
    text = _phh(
        variant="NT", ante_trimming_status=False, antes=[10, 10, 10],
        blinds_or_straddles=[50, 100, 0], min_bet=100, starting_stacks=[1000, 1000, 5],
        actions=["p1 f"],
    )  # fmt: skip
    with pytest.raises(InvalidSetup, match="ante_trimming_status.*R-ANTE-1"):
        replay(parse_phh(text))


def test_untrimmed_full_antes_replay_as_per_player_antes():
    text = _phh(
        variant="NT", ante_trimming_status=False, antes=[10, 10, 10],
        blinds_or_straddles=[50, 100, 0], min_bet=100, starting_stacks=[1000, 1000, 1000],
        actions=["p3 f", "p1 f"], finishing_stacks=[940, 1070, 990],
    )  # fmt: skip
    assert check_text(text).passed


# ----- item 3: a redundant check by the last player with chips ------------------------------


def test_recorded_check_by_the_last_player_with_chips_is_accepted():
    # p1 (small blind) is all-in on his post, the button folds: pokerkit records a BB check.
    text = _phh(
        variant="NT", ante_trimming_status=False, antes=[0, 0, 0],
        blinds_or_straddles=[50, 100, 0], min_bet=100, starting_stacks=[30, 1000, 1000],
        actions=[
            "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 7c2h", "p3 f", "p2 cc",
            "d db 2c3d9h", "d db Ts", "d db Jh", "p1 sm AsAd", "p2 sm KsKd",
        ],
        finishing_stacks=[60, 970, 1000],
    )  # fmt: skip
    outcome = check_text(text)
    assert outcome.passed, outcome


def test_a_check_by_a_player_with_nobody_to_bet_against_changes_nothing():
    text = _phh(
        variant="NT", antes=[0, 0, 0], blinds_or_straddles=[50, 100, 0], min_bet=100,
        starting_stacks=[30, 1000, 1000], actions=["p3 f", "p2 cc"],
    )  # fmt: skip
    hand = replay(parse_phh(text))
    assert hand.stack(2) == 900 and hand.betting_over
    bad = text.replace("'p2 cc'", "'p2 cbr 300'")
    with pytest.raises(ReplayError):
        replay(parse_phh(bad))


# ----- item 5: the reader covers what the engine plays, and names what it refuses ------------

FO8 = _phh(
    variant="FO/8", antes=[0, 0, 0], blinds_or_straddles=[5, 10, 0], small_bet=10, big_bet=20,
    starting_stacks=[300, 300, 300],
    actions=[
        "d dh p1 AsKs2d3c", "d dh p2 QhQdJcJs", "d dh p3 Ac4h9s9d",
        "p3 cbr 20", "p1 cc", "p2 cc", "d db 5c6h7d", "p1 cc", "p2 cbr 10", "p3 cc", "p1 cc",
        "d db Qc", "p1 cc", "p2 cc", "p3 cc", "d db 8s", "p1 cbr 20", "p2 cc", "p3 cc",
        "p1 sm AsKs2d3c", "p2 sm QhQdJcJs", "p3 sm Ac4h9s9d",
    ],
    finishing_stacks=[325, 325, 250],  # pokerkit 0.7.7: p2 scoops high, p1 low
)  # fmt: skip


def test_fixed_limit_omaha_hilo_replays_and_exports():
    outcome = check_text(FO8)
    assert outcome.passed, outcome
    text = export_phh(replay(parse_phh(FO8)))
    assert "variant = 'FO/8'" in text and check_text(text).passed


def _nt(**overrides):
    return _phh(**{**_nt_fields(), **overrides})


def _nt_fields():
    return {
        "variant": "NT",
        "antes": [0, 0, 0],
        "blinds_or_straddles": [50, 100, 0],
        "min_bet": 100,
        "starting_stacks": [1000, 1000, 1000],
        "actions": [
            "d dh p1 AsAd",
            "d dh p2 KsKd",
            "d dh p3 7c2h",
            "p3 f",
            "p1 cc",
            "p2 cc",
            "d db 2c3d9h",
            "p1 cc",
            "p2 cc",
            "d db Ts",
            "p1 cc",
            "p2 cc",
            "d db Jh",
            "p1 cc",
            "p2 cc",
            "p1 sm AsAd",
            "p2 sm -",
        ],  # fmt: skip
        "finishing_stacks": [1100, 900, 1000],
    }


def test_a_muck_at_showdown_written_sm_dash_replays():
    outcome = check_text(_nt())
    assert outcome.passed, outcome
    assert replay(parse_phh(_nt())).is_mucked(2)


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"antes": [10, 5, 10]}, "antes = [10, 5, 10]: uneven antes"),
        ({"antes": [0, 0, 30]}, "antes = [0, 0, 30]: a button ante"),
        ({"min_bet": 50}, "min_bet = 50 differs from the big blind"),
        ({"variant": "F7S"}, "variant 'F7S' is not supported"),
    ],
)
def test_what_the_engine_does_not_play_is_refused_by_name(overrides, named):
    outcome = check_text(_nt(**overrides))
    assert not outcome.passed
    assert named in outcome.message


def test_a_board_run_twice_is_refused_by_name():
    actions = [
        "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 7c2h", "p3 f", "p1 cbr 1000", "p2 cc",
        "d db 2c3d9h", "d db Ts", "d db Jh", "d db 4c5d6h", "d db Qs", "d db Qh",
    ]  # fmt: skip
    outcome = check_text(_nt(actions=actions))
    assert not outcome.passed and "run it twice" in outcome.message


# ----- item 4: rulings the rulebooks decide otherwise -------------------------------------


def _four(settings=None, **extra):
    setup = TableSetup(
        players=tuple(SeatStack(s, 5000) for s in range(1, 5)), button=4, sb=50, bb=100, **extra
    )
    return Hand(setup, settings)


def test_code003_out_of_turn_call_stays_bound_when_a_player_in_between_calls():
    hand = _four(EngineSettings(oot_mode="code003"))
    assert hand.next_to_act == 3
    assert hand.act(Action(4, "call")).out_of_turn  # pending
    ruling = hand.act(Action(3, "call"))
    # 003 Art.10.5, second sentence: who called out of turn cannot change his call.
    assert [(f.seat, f.act, f.to) for f in ruling.follow_ups] == [(4, "call", 100)]
    assert "Art.10.5" in ruling.follow_ups[0].rules
    assert hand.next_to_act == 1


def test_code003_out_of_turn_raise_is_released_when_a_player_in_between_calls():
    hand = _four(EngineSettings(oot_mode="code003"))
    hand.act(Action(4, "raise", to=300))
    hand.act(Action(3, "call"))
    assert hand.next_to_act == 4 and hand.can_raise(4)  # Art.10.5, first sentence


@pytest.mark.parametrize("mode", ["first_action", "verbal_prevails"])
def test_single_oversized_chip_with_raise_said_after_it_landed_is_a_call(mode):
    setup = TableSetup(
        players=tuple(SeatStack(s, 10000) for s in (1, 2, 3)), button=3, sb=50, bb=100,
        street="flop", pot=300,
    )  # fmt: skip
    hand = Hand(setup, EngineSettings(verbal_vs_chips=mode))
    hand.act(Action(1, "bet", to=1000))
    ruling = hand.act(
        Action(2, "chips", chips=(5000,), declared="raise", declared_after_chips=True)
    )
    assert (ruling.act, ruling.to) == ("call", 1000)  # R-ACT-5a
    assert "R-ACT-5a" in ruling.rules


def test_several_chips_with_raise_said_after_still_follow_verbal_prevails():
    setup = TableSetup(
        players=tuple(SeatStack(s, 10000) for s in (1, 2, 3)), button=3, sb=50, bb=100,
        street="flop", pot=300,
    )  # fmt: skip
    hand = Hand(setup, EngineSettings(verbal_vs_chips="verbal_prevails"))
    hand.act(Action(1, "bet", to=1000))
    ruling = hand.act(
        Action(2, "chips", chips=(1000, 1000), declared="raise", declared_after_chips=True)
    )
    assert ruling.act == "raise"


def test_undercall_facing_only_the_blinds_and_a_straddle_is_a_full_call():
    setup = TableSetup(
        players=tuple(SeatStack(s, 5000) for s in range(1, 6)), button=5, sb=50, bb=100,
        extra_posts=(ExtraPost(seat=3, live=200),),
    )  # fmt: skip
    hand = Hand(setup)
    assert hand.next_to_act == 4
    ruling = hand.act(Action(4, "chips", chips=(100,)))
    # R-CASH-1: the straddle is the big blind of the round, so the opening bet (TDA-51b).
    assert (ruling.act, ruling.to) == ("call", 200)
    assert "TDA-51b" in ruling.rules


def test_undercall_after_a_raise_over_the_straddle_is_still_for_the_td():
    setup = TableSetup(
        players=tuple(SeatStack(s, 5000) for s in range(1, 6)), button=5, sb=50, bb=100,
        extra_posts=(ExtraPost(seat=3, live=200),),
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(4, "raise", to=600))
    with pytest.raises(DecisionRequired):
        hand.act(Action(5, "chips", chips=(100,)))


def test_string_raise_second_motion_is_not_an_action():
    hand = Hand(
        TableSetup(players=tuple(SeatStack(s, 5000) for s in (1, 2, 3)), button=3, sb=50, bb=100)
    )
    assert hand.act(Action(3, "chips", chips=(100,))).act == "call"
    ruling = hand.act(Action(3, "chips", chips=(500,)))  # the second forward motion
    assert not ruling.accepted and not ruling.out_of_turn
    assert "R-ACT-12" in ruling.rules
    assert hand.stack(3) == 4900 and hand.next_to_act == 1
    hand.act(Action(1, "raise", to=300))
    hand.act(Action(2, "call"))
    assert hand.next_to_act == 3 and hand.to_call(3) == 200  # no pending action for seat 3


def test_heads_up_with_the_button_on_an_empty_seat_small_blind_acts_last_after_the_flop():
    setup = TableSetup(
        players=(SeatStack(1, 5000), SeatStack(3, 5000)), button=2, sb=50, bb=100,
    )  # fmt: skip
    hand = Hand(setup)
    assert setup.blind_seats() == (3, 1)
    assert hand.next_to_act == 3  # TDA-34: the small blind acts first pre-flop
    hand.act(Action(3, "call"))
    hand.act(Action(1, "check"))
    assert hand.street == "flop" and hand.next_to_act == 1  # ... and last after the flop
    hand.act(Action(1, "bet", to=100))
    hand.act(Action(3, "fold"))
    assert hand.final_stacks() == {1: 5100, 3: 4900}
    text = export_phh(hand)  # heads-up PHH: p1 is the big blind, p2 the button/small blind
    assert "'p1 cbr 100', 'p2 f'" in text and check_text(text).passed


def test_limit_complete_the_cap():
    # 000 Cash 'Limit': 10/20 turn, all-in for 10, raises to 30, 50, 70, then complete to 80.
    setup = TableSetup(
        players=(SeatStack(1, 500), SeatStack(2, 500), SeatStack(3, 10), SeatStack(4, 500)),
        button=4, sb=5, bb=10, game="L", small_bet=10, big_bet=20, street="turn", pot=100,
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(1, "check"))
    hand.act(Action(2, "check"))
    hand.act(Action(3, "all_in"))
    assert hand.act(Action(4, "raise", to=30)).to == 30
    assert hand.act(Action(1, "raise", to=50)).to == 50
    assert hand.act(Action(2, "raise", to=70)).to == 70
    assert not hand.can_raise(4) and hand.complete_to(4) == 80
    ruling = hand.act(Action(4, "complete"))
    assert (ruling.act, ruling.to) == ("complete", 80)
    assert not hand.can_raise(1) and hand.complete_to(1) is None
    hand.act(Action(1, "call"))
    hand.act(Action(2, "call"))
    assert hand.round_complete and hand.street == "river"


def test_limit_a_player_who_acted_may_not_complete_a_short_all_in():
    # R-LIMIT-3: an all-in of less than half a bet does not reopen the betting for a player who
    # has acted: he may call or fold, not complete; a player who has not acted may complete.
    short = TableSetup(
        players=(SeatStack(1, 500), SeatStack(2, 25), SeatStack(3, 500)),
        button=3, sb=5, bb=10, game="L", small_bet=10, big_bet=20, street="turn", pot=100,
    )  # fmt: skip
    hand = Hand(short)
    hand.act(Action(1, "bet", to=20))
    hand.act(Action(2, "all_in"))  # 25: five over the bet, less than half a raise
    assert hand.complete_to(3) == 40  # seat 3 has not acted: call, or complete to 40
    hand.act(Action(3, "call"))
    assert hand.next_to_act == 1
    assert hand.complete_to(1) is None and not hand.can_raise(1)
    with pytest.raises(IllegalAction):
        hand.act(Action(1, "complete"))


def test_export_records_the_house_settings_the_hand_was_judged_under():
    setup = TableSetup(
        players=(SeatStack(1, 500), SeatStack(2, 500), SeatStack(3, 10), SeatStack(4, 500)),
        button=4, sb=5, bb=10, game="L", small_bet=10, big_bet=20,
        hole={1: ("As", "Ad"), 2: ("Kc", "Kd"), 3: ("7h", "2s"), 4: ("9c", "8c")},
        board=("2c", "5d", "Jh", "Qs", "3c"),
    )  # fmt: skip
    hand = Hand(setup, EngineSettings(limit_short_allin_raise="treat_as_full_bet"))
    for a in (Action(3, "all_in"), Action(4, "call"), Action(1, "fold"), Action(2, "check")):
        hand.act(a)
    for a in (Action(2, "bet", to=10), Action(4, "fold")):
        hand.act(a)
    text = export_phh(hand)
    assert "_engine_settings = {limit_short_allin_raise = 'treat_as_full_bet'}" in text
    assert check_text(text).passed


def test_a_pending_check_facing_a_bet_leaves_the_player_to_act():
    # Found by the round-trip property test with out-of-turn actions: the pending "check"
    # is not an action facing a bet (R-ACT-9), so the player must still call or fold.
    hand = _four()
    assert hand.act(Action(4, "check")).out_of_turn  # seat 3 is to act; both face 100
    hand.act(Action(3, "fold"))
    assert hand.next_to_act == 4 and not hand.can_raise(4)  # R-ACT-9: no raise after "check"
    hand.act(Action(4, "call"))
    assert hand.next_to_act == 1


def test_limit_completion_for_less_than_the_full_bet_is_a_short_all_in():
    # Found by the round-trip property test: completing with too few chips is an all-in for
    # less; the bet still needs completing for the next player (R-LIMIT-3).
    setup = TableSetup(
        players=(SeatStack(1, 500), SeatStack(2, 5), SeatStack(3, 12), SeatStack(4, 500)),
        button=4, sb=5, bb=10, game="L", small_bet=10, big_bet=20, street="turn", pot=100,
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(1, "check"))
    hand.act(Action(2, "all_in"))
    ruling = hand.act(Action(3, "complete"))
    assert (ruling.act, ruling.to) == ("all_in", 12)
    assert hand.complete_to(4) == 20  # 12 is half a bet or more: seat 4 may also raise


def test_when_the_bettors_fold_out_of_turn_the_last_live_player_wins_their_chips():
    # Found by the round-trip property test: no live player reached the top level of the
    # betting, so the pot had nobody eligible and the showdown crashed.
    setup = TableSetup(
        players=tuple(SeatStack(s, 1000) for s in (1, 2, 3)), button=3, sb=50, bb=100
    )
    hand = Hand(setup)
    hand.act(Action(3, "raise", to=300))
    hand.act(Action(1, "raise", to=900))
    assert hand.act(Action(3, "fold")).out_of_turn  # the big blind (seat 2) is to act
    hand.act(Action(1, "fold"))  # out of turn too: the big blind is the last live player
    assert hand.betting_over
    assert hand.final_stacks() == {1: 700, 2: 1600, 3: 700}  # 600 of the raise uncalled
    text = export_phh(hand)  # written as folds out of turn: their turn never comes
    assert "'p3 cbr 300', 'p1 cbr 900', 'p3 f', 'p1 f'" in text
    assert check_text(text).passed

"""The Hand API: typed errors leave the hand unchanged, decisions, serialisation, settings."""

import json

import pytest

from tables.engine import (
    Action,
    DecisionRequired,
    EngineSettings,
    Hand,
    HandOver,
    IllegalAction,
    InvalidAmount,
    InvalidCards,
    InvalidSetup,
    SeatStack,
    TableSetup,
    UnknownSeat,
)
from tables.engine.interpret import resolve_ambiguous_amount


def flop_hand(n=4, stack=50000, settings=None, **kw):
    setup = TableSetup(
        players=tuple(SeatStack(s, stack) for s in range(1, n + 1)),
        button=n,
        sb=1000,
        bb=2000,
        street="flop",
        pot=10000,
        **kw,
    )
    return Hand(setup, settings)


def test_unknown_seat_raises_and_changes_nothing():
    hand = flop_hand()
    before = json.dumps(hand.to_dict())
    with pytest.raises(UnknownSeat):
        hand.act(Action(9, "check"))
    assert json.dumps(hand.to_dict()) == before
    assert hand.next_to_act == 1


@pytest.mark.parametrize(
    "build",
    [
        lambda: Action(1, "bet", to=-5),
        lambda: Action(1, "bet", to=2.5),
        lambda: Action(1, "chips", chips=(0,)),
        lambda: Action(1, "chips", chips=()),
        lambda: Action(1, "bet"),
        lambda: Action(1, "shove"),
        lambda: Action(0, "check"),
    ],
)
def test_malformed_actions_are_refused(build):
    with pytest.raises(InvalidAmount):
        build()


def test_illegal_event_leaves_state_unchanged():
    hand = flop_hand()
    hand.act(Action(1, "bet", to=2000))
    snapshot = (hand.next_to_act, hand.current_bet, hand.stack(2), hand.to_dict())
    with pytest.raises(IllegalAction):
        hand.act(Action(3, "timeout"))  # the clock runs only on the player in turn
    with pytest.raises(InvalidAmount):
        hand.act(Action(2, "chips", chips=(60000,)))  # more than his stack
    assert (hand.next_to_act, hand.current_bet, hand.stack(2), hand.to_dict()) == snapshot


def test_folded_player_cannot_act_and_hand_over_is_refused():
    hand = flop_hand(n=2)
    hand.act(Action(1, "bet", to=4000))
    hand.act(Action(2, "fold"))
    assert hand.betting_over and hand.next_to_act is None
    with pytest.raises(HandOver):
        hand.act(Action(1, "check"))
    assert hand.final_stacks() == {1: 60000, 2: 50000}


def test_undercall_multiway_after_raise_is_a_td_decision_then_forfeit():
    hand = flop_hand()
    hand.act(Action(1, "bet", to=2000))
    hand.act(Action(2, "raise", to=8000))
    with pytest.raises(DecisionRequired) as info:
        hand.act(Action(3, "chips", chips=(2000,)))
    assert info.value.options == ("complete_call", "forfeit_and_fold")
    assert "TDA-51b" in info.value.rules
    assert hand.next_to_act == 3 and hand.stack(3) == 50000  # nothing applied
    ruling = hand.act(Action(3, "fold", forfeit=2000))
    assert ruling.act == "fold"
    assert hand.stack(3) == 48000
    assert hand.pot_total() == 10000 + 2000 + 8000 + 2000


def test_complete_or_forfeit_mode_also_asks():
    hand = flop_hand(settings=EngineSettings(undercall_mode="complete_or_forfeit"))
    hand.act(Action(1, "bet", to=8000))
    with pytest.raises(DecisionRequired):
        hand.act(Action(2, "chips", chips=(2000,)))


def test_rulings_carry_rule_ids():
    hand = flop_hand()
    hand.act(Action(1, "bet", to=10000))
    ruling = hand.act(Action(2, "raise", to=18000))
    assert (ruling.act, ruling.to) == ("raise", 20000)
    assert "R-RAISE-7" in ruling.rules and "TDA-52" in ruling.rules
    assert ruling.to_dict()["interpreted"] == {"act": "raise", "to": 20000}


def test_serialisation_round_trip_rebuilds_the_same_hand():
    setup = TableSetup(
        players=(SeatStack(1, 3000), SeatStack(3, 800), SeatStack(6, 5000)),
        button=6,
        sb=50,
        bb=100,
        ante=10,
        ante_mode="each",
        hole={1: ("Ah", "Kh"), 3: ("7c", "7d"), 6: ("Qs", "Js")},
    )
    hand = Hand(setup, EngineSettings(showdown_order="last_aggressor_any_street"))
    hand.act(Action(6, "raise", to=300))
    hand.act(Action(1, "call"))
    hand.act(Action(3, "all_in"))
    hand.act(Action(6, "call"))
    hand.act(Action(1, "call"))
    hand.deal_board(["2c", "7h", "Kd"])
    hand.act(Action(1, "check"))
    hand.act(Action(6, "bet", to=500))
    data = json.loads(json.dumps(hand.to_dict()))
    again = Hand.from_dict(data)
    assert again.next_to_act == hand.next_to_act == 1
    assert again.min_raise_to() == hand.min_raise_to() == 1000
    assert again.board == hand.board
    assert [p.to_dict() for p in again.pots()] == [p.to_dict() for p in hand.pots()]


def test_cards_are_validated():
    with pytest.raises(InvalidSetup):
        TableSetup(players=(SeatStack(1, 100), SeatStack(2, 100)), button=1, sb=1, bb=2,
                   hole={1: ("As",)})  # fmt: skip
    with pytest.raises(InvalidCards):
        TableSetup(players=(SeatStack(1, 100), SeatStack(2, 100)), button=1, sb=1, bb=2,
                   hole={1: ("As", "Kd"), 2: ("As", "2c")})  # fmt: skip
    hand = flop_hand(n=2, hole={1: ("As", "Kd")})
    with pytest.raises(InvalidCards):
        hand.deal_board(["As", "2c", "3c"])
    with pytest.raises(InvalidCards):
        hand.deal_board(["Zz", "2c", "3c"])
    assert hand.board == ()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": (SeatStack(1, 100),)},
        {"players": (SeatStack(1, 100), SeatStack(1, 100))},
        {"players": (SeatStack(1, -5), SeatStack(2, 100))},
        {"game": "XL"},
        {"bb": 0},
        {"bb_seat": 7},
    ],
)
def test_bad_setups_are_refused(kwargs):
    base = {"players": (SeatStack(1, 100), SeatStack(2, 100)), "button": 1, "sb": 1, "bb": 2}
    with pytest.raises((InvalidSetup, InvalidAmount)):
        TableSetup(**{**base, **kwargs})


def test_settings_validate_and_round_trip():
    with pytest.raises(InvalidSetup):
        EngineSettings.from_dict({"oot_mode": "whatever"})
    with pytest.raises(InvalidSetup):
        EngineSettings.from_dict({"no_such_setting": 1})
    s = EngineSettings.from_dict({"chip_unit": 25})
    assert EngineSettings.from_dict(s.to_dict()) == s


def river_split(pot, holes, board, *, button=4, settings=None, seats=(1, 2, 3), variant="holdem"):
    setup = TableSetup(
        players=tuple(SeatStack(s, 1000) for s in seats),
        button=button,
        sb=1,
        bb=2,
        street="river",
        pot=pot,
        hole=holes,
        board=board,
        variant=variant,
        game="PL" if variant != "holdem" else "NL",
    )
    hand = Hand(setup, settings)
    while not hand.betting_over:
        hand.act(Action(hand.next_to_act, "check"))
    return hand.result()


BROADWAY = ("Tc", "Jd", "Qh", "Ks", "Ad")


def test_chip_unit_breaks_odd_chips_down_to_the_smallest_chip():
    holes = {1: ("2c", "3d"), 2: ("2d", "3c"), 3: ("4h", "5s")}
    result = river_split(
        125, holes, BROADWAY, seats=(1, 2, 3), settings=EngineSettings(chip_unit=25)
    )
    shares = result.awards[0].shares
    assert shares == {1: 50, 2: 50, 3: 25}  # 5 units of 25: two odd units, seats 1 then 2
    assert result.odd_chip_recipients() == [1, 2]


def test_odd_chip_starts_left_of_the_button():
    holes = {1: ("2c", "3d"), 2: ("2d", "3c"), 3: ("4h", "5s")}
    result = river_split(100, holes, BROADWAY, button=2)
    assert result.awards[0].shares == {3: 34, 1: 33, 2: 33}


HILO_BOARD = ("2h", "3d", "4c", "Ks", "Qh")


def test_hilo_identical_scoop_precise_vs_per_half():
    holes = {1: ("5s", "6s", "Jd", "Jc"), 2: ("5c", "6c", "Td", "Th")}
    precise = river_split(66, holes, HILO_BOARD, seats=(1, 2), button=2, variant="omaha_hilo")
    assert precise.final_stacks == {1: 1033, 2: 1033}
    odd = river_split(67, holes, HILO_BOARD, seats=(1, 2), button=2, variant="omaha_hilo",
                      settings=EngineSettings(hilo_identical_scoop="per_half"))  # fmt: skip
    # 67: 34 high (odd chip to the high), 33 low; each half split, odd chips left of button.
    assert sum(odd.final_stacks.values()) == 2067
    assert odd.final_stacks == {1: 1034, 2: 1033}


def test_hilo_odd_chip_to_high_or_by_position():
    holes = {1: ("As", "Ad", "Qh", "Jh"), 2: ("3c", "5d", "9c", "Ts")}
    board = ("Ks", "Kd", "7c", "4h", "2s")
    to_high = river_split(101, holes, board, seats=(1, 2), button=1, variant="omaha_hilo")
    assert to_high.final_stacks == {1: 1051, 2: 1050}
    assert to_high.winners() == {"main.hi": [1], "main.lo": [2]}
    by_pos = river_split(101, holes, board, seats=(1, 2), button=1, variant="omaha_hilo",
                         settings=EngineSettings(hilo_odd_chip="by_position"))  # fmt: skip
    assert by_pos.final_stacks == {1: 1050, 2: 1051}  # seat 2 is first left of the button


def test_showdown_needs_the_cards():
    hand = flop_hand(n=2)
    hand.act(Action(1, "check"))
    hand.act(Action(2, "check"))
    for _ in range(4):
        hand.act(Action(hand.next_to_act, "check"))
    assert hand.betting_over
    with pytest.raises(InvalidCards):
        hand.result()
    assert hand.showdown_order() == (1, 2)


def test_muck_at_showdown_forfeits():
    setup = TableSetup(
        players=(SeatStack(1, 100), SeatStack(2, 100)),
        button=2, sb=1, bb=2, street="river", pot=50,
        hole={1: ("As", "Ad"), 2: ("7c", "2d")}, board=("Kc", "9d", "5h", "4s", "3c"),
    )  # fmt: skip
    hand = Hand(setup)
    with pytest.raises(IllegalAction):
        hand.muck(1)
    hand.act(Action(1, "check"))
    hand.act(Action(2, "check"))
    hand.muck(1)
    assert hand.final_stacks() == {1: 100, 2: 150}


def test_expose_all_hands_on_all_in_and_call():
    hand = flop_hand(n=3, stack=5000)
    hand.act(Action(1, "all_in"))
    assert not hand.expose_all_hands
    hand.act(Action(2, "fold"))
    hand.act(Action(3, "call"))
    assert hand.expose_all_hands and hand.street == "showdown"


@pytest.mark.parametrize(
    ("mode", "pot", "amount"),
    [("largest_below_pot", 4900, 500), ("largest_below_pot", 5100, 5000), ("smallest", 5100, 500)],
)
def test_ambiguous_verbal_amount(mode, pot, amount):
    settings = EngineSettings(ambiguous_verbal_amount=mode)
    assert resolve_ambiguous_amount([500, 5000], pot=pot, settings=settings) == amount


def test_timeout_modes():
    hand = flop_hand()
    assert hand.act(Action(1, "timeout")).act == "check"
    hand.act(Action(2, "bet", to=2000))
    assert hand.act(Action(3, "timeout")).act == "fold"
    strict = flop_hand(settings=EngineSettings(time_expiry="always_fold"))
    assert strict.act(Action(1, "timeout")).act == "fold"


def test_limit_complete_only_below_half_bet():
    setup = TableSetup(
        players=(SeatStack(1, 500), SeatStack(2, 5), SeatStack(3, 500)),
        button=3, sb=5, bb=10, game="L", small_bet=10, big_bet=20, street="turn", pot=100,
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(1, "check"))
    hand.act(Action(2, "all_in"))
    assert hand.can_complete() and not hand.can_raise(3)
    with pytest.raises(IllegalAction):
        hand.act(Action(3, "raise", to=40))
    ruling = hand.act(Action(3, "complete"))
    assert (ruling.act, ruling.to) == ("complete", 20)
    assert hand.next_to_act == 1 and hand.can_raise(1)  # a full bet reopens for seat 1


@pytest.mark.parametrize(
    ("actions", "mode", "expected"),
    [
        ([("check",), ("check",)], "tda", False),  # two checks
        ([("check",), ("bet", 2000)], "tda", True),  # two actions, one with chips
        ([("check",), ("check",), ("check",)], "tda", True),  # any three actions
        ([("check",), ("check",)], "figp", True),  # FIGP: any two post-flop actions
        ([("check",)], "figp", False),
    ],
)
def test_substantial_action(actions, mode, expected):
    hand = flop_hand(settings=EngineSettings(substantial_action=mode))
    for act in actions:
        kind, *amount = act
        hand.act(Action(hand.next_to_act, kind, to=amount[0] if amount else None))
    assert hand.substantial_action() is expected


def test_substantial_action_preflop_figp_waits_for_the_big_blind():
    setup = TableSetup(players=tuple(SeatStack(s, 5000) for s in range(1, 5)), button=1,
                       sb=50, bb=100)  # fmt: skip
    hand = Hand(setup, EngineSettings(substantial_action="figp"))
    for seat in (4, 1, 2):
        hand.act(Action(seat, "call"))
    assert not hand.substantial_action()
    hand.act(Action(3, "check"))
    assert hand.round_complete


def test_may_see_the_river_aggressor():
    # TDA-18 ex. 2: A bets, B calls, C raises, D, A and B call; D mucks unseen.
    setup = TableSetup(players=tuple(SeatStack(s, 20000) for s in (1, 2, 3, 4)), button=4,
                       sb=50, bb=100, street="river", pot=4000)  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(1, "bet", to=1000))
    hand.act(Action(2, "call"))
    hand.act(Action(3, "raise", to=5000))
    for seat in (4, 1, 2):
        hand.act(Action(seat, "call"))
    hand.muck(4)
    assert hand.may_see(1, 3) == "right"
    assert hand.may_see(2, 3) == "right"
    assert hand.may_see(4, 3) == "none"  # mucked face down: gave up the right
    assert hand.may_see(2, 1) == "td_discretion"  # another caller's hand


def test_mississippi_straddler_acts_last_preflop():
    from tables.engine import ExtraPost

    setup = TableSetup(
        players=tuple(SeatStack(s, 5000) for s in range(1, 6)),
        button=5, sb=50, bb=100, extra_posts=(ExtraPost(5, live=200, kind="straddle"),),
    )  # fmt: skip
    hand = Hand(setup)
    assert hand.next_to_act == 3  # left of the big blind (mississippi_first_to_act=utg)
    order = []
    while hand.next_to_act != 5:
        order.append(hand.next_to_act)
        hand.act(Action(hand.next_to_act, "call"))
    assert order == [3, 4, 1, 2]
    assert hand.can_raise(5)
    sb_first = Hand(setup, EngineSettings(mississippi_first_to_act="sb"))
    assert sb_first.next_to_act == 1


@pytest.mark.parametrize(
    ("mode", "after", "expected"),
    [
        ("first_action", False, ("raise", 8000)),  # declaration with the chips
        ("first_action", True, ("call", 2000)),  # chips first: the chips define it (TDA-40a)
        ("verbal_prevails", True, ("raise", 8000)),  # 003 Art.11.9: the declared amount
    ],
)
def test_verbal_versus_chips(mode, after, expected):
    hand = flop_hand(settings=EngineSettings(verbal_vs_chips=mode))
    hand.act(Action(1, "bet", to=2000))
    ruling = hand.act(
        Action(
            2,
            "chips",
            chips=(5000,),
            declared="raise",
            declared_to=8000,
            declared_after_chips=after,
        )  # fmt: skip
    )
    assert (ruling.act, ruling.to) == expected


def test_unclear_declaration_is_for_the_td():
    hand = flop_hand()
    hand.act(Action(1, "bet", to=2000))
    with pytest.raises(DecisionRequired) as info:
        hand.act(Action(2, "chips", chips=(5000,), declared_to=42000, unclear=True))
    assert info.value.rules == ("R-ACT-5", "TDA-40a")
    assert hand.next_to_act == 2


def plo_flop():
    setup = TableSetup(players=tuple(SeatStack(s, 50000) for s in (1, 2, 3, 4)), button=4,
                       sb=500, bb=1000, game="PL", street="flop", pot=10500)  # fmt: skip
    return Hand(setup)


def test_pl_pot_miscount_low_corrected_before_substantial_action():
    # TDA-52-B ex. 2: the dealer says 9,500, A bets it, B folds; noticed now -> 10,500.
    hand = plo_flop()
    hand.act(Action(1, "bet", to=9500))
    hand.act(Action(2, "fold"))
    fixed = hand.correct_pl_bet(0)
    assert fixed.committed(1) == 10500 and fixed.next_to_act == 3
    assert hand.committed(1) == 9500  # the original is untouched


def test_pl_pot_miscount_low_stands_after_substantial_action():
    # TDA-52-B ex. 1: fold and a call with chips followed: 9,500 stands.
    hand = plo_flop()
    hand.act(Action(1, "bet", to=9500))
    hand.act(Action(2, "fold"))
    hand.act(Action(3, "call"))
    with pytest.raises(IllegalAction):
        hand.correct_pl_bet(0)

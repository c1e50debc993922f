"""PHH hand histories: every shared hand replays to its finishing stacks; export round-trips."""

import pytest
from django.core.management import call_command

from tables.engine import Action, Hand, SeatStack, TableSetup
from tables.engine.phh import (
    check_text,
    compare_stacks,
    export_phh,
    iter_phh_files,
    parse_phh,
    replay,
)
from tests.conftest import SHARED

PHH_DIR = SHARED / "phh" / "data"
FILES = sorted(iter_phh_files([PHH_DIR]))


def test_all_shared_hands_are_found():
    assert len(FILES) == 114


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PHH_DIR)) for p in FILES])
def test_shared_hand_replays(path):
    outcome = check_text(path.read_text(), str(path))
    assert outcome.passed, outcome


def test_wrong_record_fails():
    path = PHH_DIR / "wsop" / "2023" / "43" / "5" / "34.phh"
    text = path.read_text().replace("finishing_stacks = [3075000,", "finishing_stacks = [3075001,")
    assert not check_text(text).passed


@pytest.mark.parametrize(
    ("expected", "got", "ok"),
    [
        ([100.5, 99.5], [101, 99], True),  # odd chip within half a chip
        ([100.5, 99.5], [100, 100], True),
        ([100, 100], [101, 99], False),
        ([100.5, 99.5], [101, 100], False),  # totals differ
    ],
)
def test_stack_tolerance(expected, got, ok):
    assert compare_stacks(expected, got) is ok


def test_split_pot_with_odd_chip_goes_left_of_button():
    # Pluribus hands with x.5 records: the engine gives the odd chip by TDA-20a.
    odd = [p for p in FILES if ".5" in p.read_text().split("finishing_stacks")[-1]]
    assert odd, "the shared set has split pots with an odd chip"
    for path in odd:
        assert check_text(path.read_text()).passed


def _played_hand():
    setup = TableSetup(
        players=(SeatStack(2, 1000), SeatStack(4, 600), SeatStack(7, 1500)),
        button=7,
        sb=10,
        bb=20,
        ante=5,
        ante_mode="each",
        hole={2: ("As", "Kd"), 4: ("Qh", "Qs"), 7: ("7c", "2d")},
        board=("Ac", "Qd", "9h", "4s", "2c"),
    )
    hand = Hand(setup)
    for a in [
        Action(7, "raise", to=60),
        Action(2, "call"),
        Action(4, "raise", to=200),
        Action(7, "fold"),
        Action(2, "call"),
        Action(2, "check"),
        Action(4, "all_in"),
        Action(2, "call"),
    ]:
        hand.act(a)
    return hand


def test_export_then_replay_gives_the_same_stacks():
    hand = _played_hand()
    assert hand.betting_over
    text = export_phh(hand, names=["Ada", "Bea", "Cy"])
    data = parse_phh(text)
    assert data["variant"] == "NT"
    again = replay(data)
    # Antes 5, blinds 10/20 (SB seat 2, BB seat 4); QQ sets up against AK on the flop.
    assert hand.final_stacks() == {2: 400, 4: 1265, 7: 1435}
    # Seat K in the replay is pK (p1 = small blind = seat 2 here).
    replayed = again.final_stacks()
    assert [replayed[k] for k in (1, 2, 3)] == [400, 1265, 1435]
    assert check_text(text).passed


def test_export_heads_up_limit_round_trip():
    setup = TableSetup(
        players=(SeatStack(3, 500), SeatStack(5, 500)),
        button=5,
        sb=5,
        bb=10,
        game="L",
        small_bet=10,
        big_bet=20,
        hole={3: ("9s", "9d"), 5: ("Ah", "Kh")},
        board=("2c", "7d", "Jh", "3s", "4c"),
    )
    hand = Hand(setup)
    for a in [
        Action(5, "raise", to=20),
        Action(3, "call"),
        Action(3, "check"),
        Action(5, "bet", to=10),
        Action(3, "raise", to=20),
        Action(5, "call"),
        Action(3, "bet", to=20),
        Action(5, "call"),
        Action(3, "check"),
        Action(5, "check"),
    ]:
        hand.act(a)
    text = export_phh(hand)
    assert "variant = 'FT'" in text
    outcome = check_text(text)
    assert outcome.passed, outcome
    assert hand.final_stacks() == {3: 560, 5: 440}


def test_replay_phh_command(capsys):
    call_command("replay_phh", str(PHH_DIR / "pluribus" / "30"))
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].endswith("0 failed")


def test_replay_phh_command_reports_mismatch_and_fails(tmp_path, capsys):
    source = PHH_DIR / "wsop" / "2023" / "43" / "5" / "34.phh"
    bad = tmp_path / "bad.phh"
    bad.write_text(source.read_text().replace("[3075000,", "[3075100,"))
    with pytest.raises(SystemExit) as exit_info:
        call_command("replay_phh", str(tmp_path))
    assert exit_info.value.code == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith(f"{bad}: expected [3075100, ")
    assert lines[-1] == "0 passed, 1 failed"


def test_export_writes_a_binding_out_of_turn_raise_in_turn():
    setup = TableSetup(
        players=tuple(SeatStack(s, 5000) for s in range(1, 5)), button=4, sb=50, bb=100,
        hole={1: ("As", "Ad"), 2: ("Kc", "Kd"), 3: ("7h", "2s"), 4: ("9c", "8c")},
        board=("2c", "5d", "Jh", "Qs", "3c"),
    )  # fmt: skip
    hand = Hand(setup)
    hand.act(Action(4, "raise", to=400))  # seat 3 is to act: pending (TDA-53a)
    hand.act(Action(3, "fold"))  # the action to seat 4 does not change: the raise binds
    for seat in (1, 2):
        hand.act(Action(seat, "call"))
    while not hand.betting_over:
        hand.act(Action(hand.next_to_act, "check"))
    text = export_phh(hand)
    assert "'p3 f', 'p4 cbr 400'" in text
    assert check_text(text).passed
    assert hand.final_stacks() == {1: 5800, 2: 4600, 3: 5000, 4: 4600}


def test_a_player_written_with_a_superscript_is_a_replay_error_not_a_crash():
    from tables.engine.phh import ReplayError, _seat

    for token in ("p²", "p٣", "p0", "px", "p10"):
        with pytest.raises(ReplayError):
            _seat(token, 9)
    assert _seat("p3", 9) == 3


def _tomllib_reading(text):
    """What the reader gave before its fast path: tomllib's data or its error."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return f"not a PHH file: {exc}"


def _reading(text):
    from tables.engine.errors import InvalidSetup

    try:
        return parse_phh(text)
    except InvalidSetup as exc:
        return str(exc)


def _typed(value):
    """The value with every type spelled out: 1 and 1.0 and True are not the same reading."""
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, repr(value))  # repr: nan is nan


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PHH_DIR)) for p in FILES])
def test_every_shared_hand_reads_as_tomllib_reads_it(path):
    text = path.read_text(encoding="utf-8")
    assert _typed(parse_phh(text)) == _typed(_tomllib_reading(text))


def test_edited_hand_histories_read_as_tomllib_reads_them_or_fail_with_its_error():
    """Hand-typed and damaged files: the same data, or the same refusal, as tomllib gives."""
    import random

    texts = [p.read_text(encoding="utf-8") for p in FILES]
    pieces = list("'\"[],=# \t\r\n\\.-+0123456789aefxé\x00\x08\x0b\x1f\x7f{}") + [
        "true", "false", "'''", '"""', "1e5", "0x1", "inf", "nan", "1_0", "\r\n", "-0", "00",
        "p1 cc", "actions = ", "[[x]]", "a.b = 1",
    ]  # fmt: skip
    rng = random.Random(15)
    read_fast = 0
    for _ in range(6000):
        text = rng.choice(texts)
        if rng.random() < 0.5:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            text = "\n".join(lines[max(0, i - 2) : i + 2])
        for _edit in range(rng.randint(1, 3)):
            i = rng.randrange(len(text) + 1)
            j = min(len(text), i + rng.randint(0, 3))
            text = text[:i] + "".join(rng.choices(pieces, k=rng.randint(0, 3))) + text[j:]
        expected = _tomllib_reading(text)
        assert _typed(_reading(text)) == _typed(expected), repr(text)
        read_fast += isinstance(expected, dict)
    assert read_fast > 500  # the edits leave plenty of readable files, not only refusals


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\r",  # a lone carriage return
        "a = 1\nA = 2\na = 3",  # a repeated key
        "a = 01",
        "a = 1.",
        "a = [,]",
        "a = 'x\ty'\nb = \"O'Ren\"\nc = ['say \"hi\"', \"it's\"]  # comment",
        "a = [1, 2.5, -0, true, 'x']\nb = []\nc = [ 'p1 cc' , ]",
        'a = "back\\\\slash"',
        "a = 'é'\r\nb = false",
        "",
    ],
)
def test_hand_written_toml_corners_read_as_tomllib_reads_them(text):
    assert _typed(_reading(text)) == _typed(_tomllib_reading(text))

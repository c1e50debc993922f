"""Poker Hand History (PHH, uoftcprg/phh-std): replay files through the engine and export hands.

PHH lists players p1..pN in posting order: p1 is the small blind and pN the button; heads-up,
p1 is the big blind and p2 the button/small blind (as pokerkit reads it). Here pK sits in
seat K. Supported variants: NT (no-limit hold'em), FT (fixed-limit hold'em), PO (pot-limit
Omaha), FO/8 (fixed-limit Omaha hi/lo eight or better). A replay passes when each finishing
stack is within half a chip of the record and the totals are equal (records split odd chips as x.5; the engine awards them by TDA-20).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import Action
from .cards import split_concatenated
from .errors import EngineError, InvalidSetup
from .hand import Hand
from .pots import clockwise_from
from .settings import EngineSettings
from .table import STREETS, ExtraPost, SeatStack, TableSetup

_VARIANTS: dict[str, tuple[str, str]] = {
    "NT": ("NL", "holdem"),
    "FT": ("L", "holdem"),
    "PO": ("PL", "omaha"),
    "FO/8": ("L", "omaha_hilo"),
}
_CODES = {v: k for k, v in _VARIANTS.items()}


class ReplayError(EngineError):
    """A PHH action could not be replayed as recorded."""


@dataclass(frozen=True)
class ReplayOutcome:
    """Result of replaying one hand history."""

    name: str
    passed: bool
    expected: tuple[float, ...] | None
    got: tuple[int, ...] | None
    message: str = ""


def parse_phh(text: str) -> dict[str, Any]:
    """Parse PHH text (TOML) into a dict."""
    data = _parse_flat_toml(text) if isinstance(text, str) else None
    if data is not None:
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidSetup(f"not a PHH file: {exc}") from exc


# The TOML that hand histories are written in, one `key = value` a line: bare keys; values
# that are literal or basic strings without escapes, decimal integers, plain decimal floats,
# booleans, or one-line arrays of these; blank lines and comments. tomllib (pure Python) reads
# such a file several times slower than these expressions do. Anything else, malformed or
# merely outside this subset, goes to tomllib, which reads it or says what is wrong.
_CHARS = r"[^\x00-\x08\x0a-\x1f\x7f{}]*"  # TOML strings and comments: no control but tab
_LITERAL = "'" + _CHARS.format("'") + "'"
_BASIC = '"' + _CHARS.format('"\\\\') + '"'  # no escapes
_INT = "-?(?:0|[1-9][0-9]*)"
_NUMBER = _INT + r"(?:\.[0-9]+)?"
_SCALAR = f"{_LITERAL}|{_BASIC}|{_NUMBER}|true|false"
_WS = "[ \t]*"


def _array(item: str) -> str:
    return rf"\[{_WS}(?:(?:{item}){_WS},{_WS})*(?:(?:{item}){_WS})?\]"


# One group for the key, then one for each kind of value (the first that matches is taken).
_LINE = re.compile(
    rf"{_WS}(?:([A-Za-z0-9_-]+){_WS}={_WS}"
    rf"(?:({_LITERAL})|({_BASIC})|({_NUMBER})|(true|false)|"
    rf"({_array(_LITERAL)})|({_array(_BASIC)})|({_array(_NUMBER)})|({_array(_SCALAR)}))"
    rf"{_WS})?(?:#{_CHARS.format('')})?"
)
_LITERALS = re.compile("'([^']*)'")
_BASICS = re.compile('"([^"]*)"')
_NUMBERS = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_ITEM = re.compile(r"""'([^']*)'|"([^"]*)"|(-?[0-9]+\.[0-9]+)|(-?[0-9]+)|(true|false)""")


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _item(match: re.Match[str]) -> Any:
    literal, basic, decimal, integer, boolean = match.groups()
    if literal is not None:
        return literal
    if basic is not None:
        return basic
    if decimal is not None:
        return float(decimal)
    if integer is not None:
        return int(integer)
    return boolean == "true"


def _parse_flat_toml(text: str) -> dict[str, Any] | None:
    """Read `text` if it is TOML of the subset above, exactly as tomllib would; else None."""
    data: dict[str, Any] = {}
    for line in text.replace("\r\n", "\n").split("\n"):  # as tomllib; a lone CR fails
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, literal, basic, number, boolean, literals, basics, numbers, mixed = match.groups()
        if key is None:
            continue  # a blank or comment line
        if key in data:
            return None  # tomllib says which key is repeated
        value: Any
        if literal is not None:
            value = literal[1:-1]
        elif basic is not None:
            value = basic[1:-1]
        elif number is not None:
            value = _number(number)
        elif boolean is not None:
            value = boolean == "true"
        elif literals is not None:
            value = _LITERALS.findall(literals)
        elif basics is not None:
            value = _BASICS.findall(basics)
        elif numbers is not None:
            found = _NUMBERS.findall(numbers)
            value = [_number(n) for n in found] if "." in numbers else list(map(int, found))
        else:
            value = [_item(m) for m in _ITEM.finditer(mixed)]
        data[key] = value
    return data


def setup_from_phh(data: dict[str, Any]) -> TableSetup:
    """Build the table setup of a PHH hand: pK in seat K, the button on pN (heads-up: p2)."""
    code = str(data.get("variant", ""))
    if code not in _VARIANTS:
        raise InvalidSetup(f"PHH variant {code!r} is not supported (NT, FT, PO, FO/8)")
    game, variant = _VARIANTS[code]
    stacks = [int(s) for s in data["starting_stacks"]]
    n = len(stacks)
    blinds = [int(b) for b in data.get("blinds_or_straddles", [])] + [0] * n
    antes = [int(a) for a in data.get("antes", [])] + [0] * n
    antes = antes[:n]
    if not any(antes):
        ante_mode, ante = "none", 0
    elif len(set(antes)) == 1:
        ante_mode, ante = "each", antes[0]
    elif [i for i, a in enumerate(antes) if a] == [1]:
        ante_mode, ante = "bba", antes[1]  # the big blind's position posts the table ante
    elif [i for i, a in enumerate(antes) if a] == [n - 1] and n > 2:
        raise InvalidSetup(
            f"antes = {antes}: a button ante is not played by the engine (in-hand.md §4.2 "
            "knows per-player antes, R-ANTE-1, and the big-blind ante, R-ANTE-2)"
        )
    else:
        raise InvalidSetup(
            f"antes = {antes}: uneven antes are not played by the engine (in-hand.md §4.2 "
            "knows one ante for every player, R-ANTE-1, or the big-blind ante, R-ANTE-2)"
        )
    min_bet = data.get("min_bet")
    if code in ("NT", "PO") and min_bet is not None and int(min_bet) != blinds[1]:
        raise InvalidSetup(
            f"min_bet = {min_bet} differs from the big blind {blinds[1]}: the engine's minimum "
            "bet is the big blind (R-RAISE-1, TDA-43)"
        )
    _check_ante_trimming(data, ante_mode, ante, stacks)
    posts = tuple(
        ExtraPost(seat=i + 1, live=blinds[i], kind="straddle") for i in range(2, n) if blinds[i] > 0
    )
    small_bet = data.get("small_bet")
    big_bet = data.get("big_bet")
    return TableSetup(
        players=tuple(SeatStack(i + 1, s) for i, s in enumerate(stacks)),
        button=2 if n == 2 else n,
        sb=blinds[0],
        bb=blinds[1],
        game=game,  # type: ignore[arg-type]
        variant=variant,  # type: ignore[arg-type]
        ante=ante,
        ante_mode=ante_mode,  # type: ignore[arg-type]
        small_bet=None if small_bet is None else int(small_bet),
        big_bet=None if big_bet is None else int(big_bet),
        extra_posts=posts,
    )


def _check_ante_trimming(data: dict[str, Any], mode: str, ante: int, stacks: list[int]) -> None:
    """Refuse an `ante_trimming_status` that contradicts R-ANTE-1 / R-ANTE-3.

    Trimmed antes are part of each player's contribution and the unmatched part comes back
    (R-ANTE-1, per-player antes); untrimmed antes are dead money in the main pot (R-ANTE-3,
    the big-blind ante). With equal full antes the two give the same pots.
    """
    trimmed = data.get("ante_trimming_status", False)
    if not isinstance(trimmed, bool):
        raise InvalidSetup(f"ante_trimming_status must be true or false, not {trimmed!r}")
    if mode == "bba" and trimmed:
        raise InvalidSetup(
            "ante_trimming_status = true with a big-blind ante would return the ante to the big "
            "blind as unmatched; the engine keeps it as dead money in the main pot (R-ANTE-3): "
            "write ante_trimming_status = false"
        )
    if mode == "each" and not trimmed and any(s < ante for s in stacks):
        raise InvalidSetup(
            "ante_trimming_status = false with a partial ante makes every ante dead money; "
            "the engine counts each ante in the player's contribution, so a player all-in on "
            "the ante wins only what he matched (R-ANTE-1): write ante_trimming_status = true"
        )


SETTINGS_FIELD = "_engine_settings"  # a PHH user-defined field (leading underscore)


def _settings_from_phh(data: dict[str, Any]) -> EngineSettings:
    """House settings an export recorded (in-hand.md §2); the TDA defaults otherwise."""
    raw = data.get(SETTINGS_FIELD)
    if raw is None:
        return EngineSettings()
    if not isinstance(raw, dict):
        raise InvalidSetup(f"{SETTINGS_FIELD} must be a table of engine settings")
    return EngineSettings.from_dict(raw)


def _seat(token: str, n: int) -> int:
    digits = token[1:]
    # ASCII digits only: "p²".isdigit() is true and int("²") raises.
    if (
        not token.startswith("p")
        or not (digits.isascii() and digits.isdigit())
        or not 1 <= int(digits) <= n
    ):
        raise ReplayError(f"unknown player {token!r}")
    return int(digits)


def replay(data: dict[str, Any], settings: EngineSettings | None = None) -> Hand:
    """Replay a parsed PHH hand through the engine and return the finished Hand.

    Raises ReplayError when the engine judges an action differently from the record.
    """
    if settings is None:
        settings = _settings_from_phh(data)
    hand = Hand(setup_from_phh(data), settings)
    n = len(hand.seats)
    for raw in data.get("actions", []):
        line = str(raw).split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        try:
            if parts[0] == "d" and parts[1] == "dh":
                cards = split_concatenated(parts[3])
                if "??" not in cards:
                    hand.deal_hole(_seat(parts[2], n), cards)
            elif parts[0] == "d" and parts[1] == "db":
                cards = split_concatenated(parts[2])
                if len(hand.board) + len(cards) > 5:
                    raise ReplayError(
                        "a second board (run it twice) is not played by the engine: in-hand.md "
                        "§13.4 allows it in cash games only and leaves it to post-processing"
                    )
                if "??" not in cards:  # unknown cards (as the exporter writes them)
                    hand.deal_board(cards)
            else:
                _replay_player_action(hand, _seat(parts[0], n), parts[1:])
        except (IndexError, EngineError) as exc:
            raise ReplayError(f"{line!r}: {exc}") from exc
    return hand


def _replay_player_action(hand: Hand, seat: int, parts: list[str]) -> None:
    op = parts[0]
    if op == "f":
        hand.act(Action(seat=seat, kind="fold"))
    elif op == "cc":
        if _redundant_check(hand, seat):
            return  # R-FLOW-10 (c): the betting is already closed; the check changes nothing
        hand.act(Action(seat=seat, kind="call"))
    elif op == "cbr":
        amount = int(parts[1])
        # "cbr" is "complete, bet or raise to": in limit, facing a short all-in, the amount
        # may be the completion the engine allows rather than a raise (R-LIMIT-3, §9.2).
        complete = hand.complete_to(seat)
        if complete is not None and amount <= complete and hand.next_to_act == seat:
            ruling = hand.act(Action(seat=seat, kind="complete"))
        else:
            ruling = hand.act(Action(seat=seat, kind="raise", to=amount))
        if ruling.to != amount:
            raise ReplayError(f"engine made it {ruling.act} to {ruling.to}, record says {amount}")
    elif op == "sm":
        if len(parts) > 1 and parts[1] == "-":
            hand.muck(seat)  # "sm -": the hand is mucked at showdown unseen (R-SD-2)
        elif len(parts) > 1:
            cards = split_concatenated(parts[1])
            if "??" not in cards and hand.hole(seat) != tuple(cards):
                hand.deal_hole(seat, cards)
        elif hand.betting_over:
            hand.muck(seat)
    elif op == "sd":
        raise ReplayError("draw games are not supported")
    else:
        raise ReplayError(f"unknown action {op!r}")


def _redundant_check(hand: Hand, seat: int) -> bool:
    """A check recorded by the only player who could still act, owing nothing (R-FLOW-10 c).

    pokerkit and other writers let him check; the engine has already closed the betting.
    """
    if not hand.betting_over or hand.is_folded(seat) or hand.stack(seat) == 0:
        return False
    others = [s for s in hand.seats if s != seat and not hand.is_folded(s)]
    return bool(others) and all(hand.stack(s) == 0 for s in others)


def compare_stacks(expected: Sequence[float], got: Sequence[int]) -> bool:
    """Each stack within half a chip of the record, and the totals equal (README odd chips)."""
    return (
        len(expected) == len(got)
        and all(abs(e - g) <= 0.5 for e, g in zip(expected, got, strict=True))
        and abs(sum(expected) - sum(got)) < 1e-9
    )


def check_text(text: str, name: str = "<phh>") -> ReplayOutcome:
    """Replay PHH text and compare the finishing stacks with the record."""
    try:
        data = parse_phh(text)
        hand = replay(data)
        result = hand.result()
    except EngineError as exc:
        return ReplayOutcome(name, False, None, None, f"{type(exc).__name__}: {exc}")
    got = tuple(result.final_stacks[s] for s in hand.seats)
    if "finishing_stacks" not in data:
        # No record to compare with: chips must still be conserved.
        ok = sum(got) == sum(int(s) for s in data["starting_stacks"])
        return ReplayOutcome(name, ok, None, got, "" if ok else "chips not conserved")
    expected = tuple(float(s) for s in data["finishing_stacks"])
    return ReplayOutcome(name, compare_stacks(expected, got), expected, got)


def iter_phh_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Yield .phh files from files and folders (recursively), sorted within each folder."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(path.rglob("*.phh"))
        else:
            yield path


def check_files(paths: Iterable[str | Path]) -> list[ReplayOutcome]:
    """Replay every PHH file found under the paths."""
    return [check_text(p.read_text(encoding="utf-8"), str(p)) for p in iter_phh_files(paths)]


# ----- export ----------------------------------------------------------------------------


def _toml_list(values: Iterable[object]) -> str:
    return "[" + ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values) + "]"


def _apply_entry(hand: Hand, seat: int, op: str, total: int) -> None:
    if op == "f":
        hand.act(Action(seat=seat, kind="fold"))
    elif op == "cc":
        hand.act(Action(seat=seat, kind="call"))
    elif hand.complete_to(seat) == total:
        hand.act(Action(seat=seat, kind="complete"))
    else:
        hand.act(Action(seat=seat, kind="raise", to=total))


def in_turn_history(hand: Hand) -> list[tuple[int, int, str, int]]:
    """The betting history with each out-of-turn fold written where the action reached him.

    Pending out-of-turn actions already enter the history when they bind, in turn; an
    out-of-turn fold is binding and applied at once (TDA-53a), so it is written when the
    folder's turn comes in that round (PHH lists actions in turn; the chips are the same). A
    fold whose turn never comes (he owed nothing) stays where it was made: the engine's reader
    replays it as the out-of-turn fold it was.
    """
    history = list(hand.betting_history())
    oot_folders = {r.seat for r in hand.rulings if r.out_of_turn and r.act == "fold"}
    if not oot_folders:
        return history
    fresh = Hand(hand.setup, hand.settings)
    waiting: set[int] = set()
    out: list[tuple[int, int, str, int]] = []

    def fold_waiting(probe: Hand, record: bool) -> None:
        while (seat := probe.next_to_act) is not None and seat in waiting:
            street = [str(name) for name in STREETS].index(probe.street)
            if record:
                out.append((street, seat, "f", probe.committed(seat)))
            probe.act(Action(seat=seat, kind="fold"))
            if record:
                waiting.discard(seat)

    def turn_comes(seat: int, rest: list[tuple[int, int, str, int]]) -> bool:
        probe = Hand.from_dict(fresh.to_dict())
        street = probe.street
        try:
            for _, other, op, total in rest:
                fold_waiting(probe, record=False)
                if probe.next_to_act == seat:
                    return True
                if probe.street != street or probe.betting_over:
                    return False
                if not (op == "f" and other in oot_folders):
                    _apply_entry(probe, other, op, total)
            fold_waiting(probe, record=False)
            return probe.next_to_act == seat and probe.street == street
        except EngineError:
            return False

    try:
        for i, (street, seat, op, total) in enumerate(history):
            fold_waiting(fresh, record=True)
            if op == "f" and seat in oot_folders:
                if turn_comes(seat, history[i + 1 :]):
                    waiting.add(seat)
                    continue
                fresh.act(Action(seat=seat, kind="fold"))  # stays out of turn
                out.append((street, seat, op, total))
                continue
            _apply_entry(fresh, seat, op, total)
            out.append((street, seat, op, total))
        fold_waiting(fresh, record=True)
    except EngineError:
        return history  # the fold's timing mattered (e.g. 004 r.21): keep it where it was
    if sorted(out) != sorted(history):
        return history
    return out


def export_phh(hand: Hand, *, names: Sequence[str] | None = None) -> str:
    """Write a judged hand as PHH text (the betting as the engine interpreted it).

    Preconditions: a preflop hand with the default blind seats;
    variant NT, FT, PO or FO/8. Hole cards and board not known are written as "??".
    """
    setup = hand.setup
    key = (setup.game, setup.variant)
    if key not in _CODES:
        raise InvalidSetup(f"no PHH variant for {setup.game} {setup.variant}")
    if setup.street != "preflop" or "sb_seat" in setup.to_dict() or "bb_seat" in setup.to_dict():
        raise InvalidSetup("only hands from preflop with the default blinds can be exported")
    if any(p.kind != "straddle" for p in setup.extra_posts):
        raise InvalidSetup("missed-blind and new-player posts have no PHH form")
    order = clockwise_from(hand.button, hand.seats)  # p1 = SB (heads-up: p1 = BB)
    index = {seat: i + 1 for i, seat in enumerate(order)}
    stacks = {p.seat: p.stack for p in setup.players}
    n = len(order)
    antes = [0] * n
    if setup.ante_mode == "each":
        antes = [setup.ante] * n
    elif setup.ante_mode == "bba":
        antes[1] = setup.ante
    blinds = [setup.sb, setup.bb] + [0] * (n - 2)
    for post in setup.extra_posts:
        blinds[index[post.seat] - 1] = post.live
    count = 2 if setup.variant == "holdem" else 4
    actions = [f"d dh p{index[s]} {''.join(hand.hole(s)) or '??' * count}" for s in order]
    board = hand.board
    cuts = (0, 3, 4, 5)
    street = 0

    def deal_to(target: int) -> None:
        nonlocal street
        while street < target and street < 3:
            street += 1
            cards = board[cuts[street - 1] : cuts[street]]
            need = cuts[street] - cuts[street - 1]
            actions.append(f"d db {''.join(cards) if len(cards) == need else '??' * need}")

    for st, seat, op, total in in_turn_history(hand):
        deal_to(st)
        actions.append(f"p{index[seat]} {op}" + (f" {total}" if op == "cbr" else ""))
    live = [s for s in order if not hand.is_folded(s)]
    if len(live) > 1:
        deal_to(3)
        for seat in hand.showdown_order():
            cards = "" if hand.is_mucked(seat) else "".join(hand.hole(seat))
            actions.append(f"p{index[seat]} sm {cards}".rstrip())
    lines = [
        f"variant = '{_CODES[key]}'",
        # Per-player antes are contributions (R-ANTE-1: trimmed); the BBA is dead money
        # (R-ANTE-3: untrimmed), as the PHH standard and pokerkit read the field.
        f"ante_trimming_status = {'true' if setup.ante_mode == 'each' else 'false'}",
        f"antes = {_toml_list(antes)}",
        f"blinds_or_straddles = {_toml_list(blinds)}",
    ]
    if setup.game == "L":
        lines.append(f"small_bet = {setup.bets_for_street(0)}")
        lines.append(f"big_bet = {setup.bets_for_street(2)}")
    else:
        lines.append(f"min_bet = {setup.bb}")
    lines.append(f"starting_stacks = {_toml_list(stacks[s] for s in order)}")
    lines.append(f"actions = {_toml_list(actions)}")
    if names is not None:
        lines.append(f"players = {_toml_list(names)}")
    changed = {
        k: v for k, v in hand.settings.to_dict().items() if v != EngineSettings().to_dict()[k]
    }
    if changed:
        # The betting was judged under these house settings; a replay must use them too.
        pairs = ", ".join(
            f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in changed.items()
        )
        lines.append(f"{SETTINGS_FIELD} = {{{pairs}}}")
    if hand.betting_over:
        try:
            final = hand.result().final_stacks
            lines.append(f"finishing_stacks = {_toml_list(final[s] for s in order)}")
        except EngineError:
            pass  # cards unknown: no finishing stacks to record
    return "\n".join(lines) + "\n"

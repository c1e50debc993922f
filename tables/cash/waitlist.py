"""Waiting lists (cash-room.md §6): joining a list and calling names for a free seat."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from tables.cash.settings import DEFAULTS, SRC, SRC_004, CashSettings

JoinRefusal = Literal[
    "not_present", "already_on_list", "seated_in_this_game", "level_down_not_allowed"
]
CallResult = Literal["took_seat", "declined", "no_answer"]
CallState = Literal["answering", "no_answer", "on_the_way", "not_arrived"]

RULE_JOIN = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 2'
RULE_LEVEL_UP = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 4'
RULE_LEVEL_ANY = f"{SRC_004} §12"
RULE_SEATED = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 6'
RULE_ANSWER = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 3'
RULE_DECLINE = f'{SRC} "Apertura e bilanciamento dei tavoli"'
RULE_RETURN = f'{SRC} "Norme di comportamento" 14'
RULE_KEEP_APART = f'{SRC} "Assegnazione e spostamento dei giocatori ai tavoli" 10'


@dataclass(frozen=True)
class Seated:
    """Where a player sits now: the game and its big blind."""

    game: str
    bb: int


@dataclass(frozen=True)
class JoinDecision:
    accepted: bool
    position: int | None
    list_after: tuple[str, ...]
    reason: JoinRefusal | None
    rule: str


def join_list(
    *,
    game: str,
    bb: int,
    waiting: Sequence[str],
    player: str,
    present: bool,
    seated_in: Seated | None,
    settings: CashSettings = DEFAULTS,
) -> JoinDecision:
    """Add `player` at the bottom of `game`'s list, or say why not (§6.2-§6.3). A player
    not in the room is refused unless the room allows remote joins (off by default: §6.2).

    Checks in the order of the Codes table; the first failing one is the reason.
    """
    current = tuple(waiting)

    def refuse(reason: JoinRefusal, rule: str) -> JoinDecision:
        return JoinDecision(False, None, current, reason, rule)

    if not present and not settings.remote_joins:
        return refuse("not_present", RULE_JOIN)
    if player in current:
        return refuse("already_on_list", RULE_JOIN)
    if seated_in is not None and seated_in.game == game:
        return refuse("seated_in_this_game", RULE_SEATED)
    if seated_in is not None and settings.level_down_moves == "forbidden" and bb < seated_in.bb:
        return refuse("level_down_not_allowed", RULE_LEVEL_UP)
    after = (*current, player)
    rule = RULE_JOIN if settings.level_down_moves == "forbidden" else RULE_LEVEL_ANY
    return JoinDecision(True, len(after), after, None, rule)


@dataclass(frozen=True)
class Response:
    """How a called player answers: `after` minutes after his call (None: never)."""

    after: int | None
    takes_seat: bool


@dataclass(frozen=True)
class Call:
    player: str
    at: datetime
    result: CallResult
    rule: str


@dataclass(frozen=True)
class CallOutcome:
    calls: tuple[Call, ...]
    seated: str | None
    seated_at: datetime | None
    list_after: tuple[str, ...]
    locked_out_until: Mapping[str, datetime] = field(default_factory=dict)
    passed_over: Mapping[str, str] = field(default_factory=dict)  # player -> rule


def kept_apart(player: str, others: Collection[str], pairs: Collection[tuple[str, str]]) -> bool:
    """Tell whether `player` may not sit with any of `others` (§6.7)."""
    return any((a == player and b in others) or (b == player and a in others) for a, b in pairs)


def ineligible_reason(
    player: str,
    *,
    at: datetime,
    table_players: Collection[str],
    left_table_at: Mapping[str, datetime],
    declined_at: Mapping[str, datetime],
    keep_apart: Collection[tuple[str, str]],
    settings: CashSettings = DEFAULTS,
) -> str | None:
    """Return the rule that passes `player` over for this seat at `at`, or None (§6.4)."""
    if kept_apart(player, table_players, keep_apart):
        return RULE_KEEP_APART
    left = left_table_at.get(player)
    if left is not None and at < left + timedelta(minutes=settings.return_wait_minutes):
        return RULE_RETURN
    declined = declined_at.get(player)
    if declined is not None and at < declined + timedelta(minutes=settings.decline_lockout_minutes):
        return RULE_DECLINE
    return None


def next_eligible(
    waiting: Sequence[str],
    *,
    at: datetime,
    exclude: Collection[str] = (),
    table_players: Collection[str] = (),
    left_table_at: Mapping[str, datetime] | None = None,
    declined_at: Mapping[str, datetime] | None = None,
    keep_apart: Collection[tuple[str, str]] = (),
    settings: CashSettings = DEFAULTS,
) -> str | None:
    """Return the first name on the list that may be called for this seat now (§6.4)."""
    for name in waiting:
        if name in exclude:
            continue
        reason = ineligible_reason(
            name,
            at=at,
            table_players=table_players,
            left_table_at=left_table_at or {},
            declined_at=declined_at or {},
            keep_apart=keep_apart,
            settings=settings,
        )
        if reason is None:
            return name
    return None


def answer_deadline(called_at: datetime, settings: CashSettings = DEFAULTS) -> datetime:
    """Return the last moment a called player may answer in time (§6.4, "entro 15 minuti")."""
    return called_at + timedelta(minutes=settings.answer_minutes)


def arrival_deadline(answered_at: datetime, settings: CashSettings = DEFAULTS) -> datetime:
    """Return the last moment a player who answered "coming" may reach his locked-up seat
    (§6.4 lock-up; `arrival_minutes` [not in sources])."""
    return answered_at + timedelta(minutes=settings.arrival_minutes)


def arrival_put_off(
    *, coming_at: datetime | None, now: datetime, minutes: int, settings: CashSettings = DEFAULTS
) -> datetime | None:
    """Return when the arrival window starts for a called player who needs `minutes` more:
    that long after his "coming" (or after now, when this is his answer), so the window
    and its deadline move by exactly `minutes`. None when the window would start more than
    `most_more_minutes` from now: the room does not hold a seat that long (§6.4 lock-up
    [not in sources])."""
    start = (coming_at or now) + timedelta(minutes=minutes)
    if minutes < 1 or start - now > timedelta(minutes=settings.most_more_minutes):
        return None
    return start


@dataclass(frozen=True)
class CallStatus:
    """Where a call stands at a moment: the window running and when it ends.

    `overdue` says the floor may send the name to the bottom (§6.4)."""

    state: CallState
    deadline: datetime
    overdue: bool
    rule: str = RULE_ANSWER


def call_status(
    *, called_at: datetime, coming_at: datetime | None, now: datetime, settings: CashSettings
) -> CallStatus:
    """Tell where a call stands at `now`: waiting for the answer, or for the arrival of a
    player who said he is coming; past its window, the name may go to the bottom (§6.4).
    A window of N minutes is respected at exactly N."""
    if coming_at is None:
        deadline = answer_deadline(called_at, settings)
        return CallStatus("no_answer" if now > deadline else "answering", deadline, now > deadline)
    deadline = arrival_deadline(coming_at, settings)
    return CallStatus("not_arrived" if now > deadline else "on_the_way", deadline, now > deadline)


def names_passed_over(
    waiting: Sequence[str],
    player: str,
    *,
    at: datetime,
    called: Collection[str] = (),
    table_players: Collection[str] = (),
    left_table_at: Mapping[str, datetime] | None = None,
    declined_at: Mapping[str, datetime] | None = None,
    keep_apart: Collection[tuple[str, str]] = (),
    settings: CashSettings = DEFAULTS,
) -> tuple[str, ...]:
    """Return the names a seat given to `player` now would jump: those above him on the list
    who are not being called and may take a seat at this table (§6.4, §7.2 list order).

    A called `player` jumps nobody: the call procedure reached him. Names the procedure
    passes over (kept apart, back too soon, locked out) are not jumped either.
    """
    if player in called or player not in waiting:
        return ()
    above = list(waiting)[: list(waiting).index(player)]
    return tuple(
        name
        for name in above
        if name not in called
        and ineligible_reason(
            name,
            at=at,
            table_players=table_players,
            left_table_at=left_table_at or {},
            declined_at=declined_at or {},
            keep_apart=keep_apart,
            settings=settings,
        )
        is None
    )


def call_for_seat(
    *,
    waiting: Sequence[str],
    called_at: datetime,
    responses: Mapping[str, Response],
    table_players: Collection[str] = (),
    left_table_at: Mapping[str, datetime] | None = None,
    declined_at: Mapping[str, datetime] | None = None,
    keep_apart: Collection[tuple[str, str]] = (),
    settings: CashSettings = DEFAULTS,
) -> CallOutcome:
    """Run the call procedure of §6.4 for one free seat, given how each name answers.

    A name missing from `responses` never answers.
    """
    order = list(waiting)
    declines = dict(declined_at or {})
    lockouts: dict[str, datetime] = {}
    calls: list[Call] = []
    called: set[str] = set()
    passed: dict[str, str] = {}
    t = called_at
    while True:
        player = None
        for name in order:
            if name in called:
                continue
            reason = ineligible_reason(
                name,
                at=t,
                table_players=table_players,
                left_table_at=left_table_at or {},
                declined_at=declines,
                keep_apart=keep_apart,
                settings=settings,
            )
            if reason is None:
                player = name
                break
            passed.setdefault(name, reason)
        if player is None:
            return CallOutcome(tuple(calls), None, None, tuple(order), lockouts, passed)
        called.add(player)
        answer = responses.get(player, Response(after=None, takes_seat=False))
        if answer.after is not None and answer.after <= settings.answer_minutes:
            answered = t + timedelta(minutes=answer.after)
            if answer.takes_seat:
                calls.append(Call(player, t, "took_seat", RULE_ANSWER))
                order.remove(player)
                return CallOutcome(tuple(calls), player, answered, tuple(order), lockouts, passed)
            calls.append(Call(player, t, "declined", RULE_DECLINE))
            lockouts[player] = answered + timedelta(minutes=settings.decline_lockout_minutes)
            declines[player] = answered
            if settings.declined_seat_to_bottom:
                order.remove(player)
                order.append(player)
            t = answered
        else:
            calls.append(Call(player, t, "no_answer", RULE_ANSWER))
            order.remove(player)
            order.append(player)
            t = answer_deadline(t, settings)

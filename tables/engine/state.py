"""A hand's state as the engine moves it: each player's chips and flags, the betting
round's figures, the decisions pending a ruling. Copied before every event and kept only
when the event stands (`tables.engine.hand`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action


@dataclass(slots=True)
class _Player:
    seat: int
    stack: int
    committed: int = 0  # c[i], this betting round
    contributed: int = 0  # t[i], the whole hand (per-player antes included, R-ANTE-1)
    folded: bool = False
    acted: bool = False  # posting is not acting (R-FLOW-11)
    last_bet: int = 0  # H right after his last action (R-REOPEN-1 engine test)
    no_raise: bool = False  # said "check" facing a bet (R-ACT-9)
    bound: bool = False  # said "raise"/"bet"/NL "pot" without an amount
    mucked: bool = False
    hole: tuple[str, ...] = ()

    def clone(self) -> _Player:
        # Every field is an int, a bool or a tuple: a field-by-field copy is a full copy
        # (copy.copy goes through __reduce_ex__ and costs several times more).
        return _Player(
            self.seat,
            self.stack,
            self.committed,
            self.contributed,
            self.folded,
            self.acted,
            self.last_bet,
            self.no_raise,
            self.bound,
            self.mucked,
            self.hole,
        )


@dataclass(slots=True)
class _Pending:
    action: Action
    bet_at_record: int
    intervening: list[str] = field(default_factory=list)


@dataclass
class _State:
    players: dict[int, _Player]
    street: int
    bet: int = 0  # H
    inc: int = 0  # size of the last full bet/raise (TDA-43a)
    full_level: int = 0  # limit: last full bet level (§9.2)
    raise_base: int = 0  # limit: the next raise goes to raise_base + bet (§9.4)
    aggressions: int = 0  # bets and raises this round (the BB counts preflop, TDA-51b)
    raise_count: int = 0  # limit: bet + raises this round (R-LIMIT-2)
    dead: int = 0
    to_act: int | None = None
    betting_over: bool = False
    pending: dict[int, _Pending] = field(default_factory=dict)
    round_aggressor: int | None = None
    final_round_aggressor: int | None = None
    hand_aggressor: int | None = None
    round_actions: int = 0
    round_log: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, act, chips in)
    river_called: set[int] = field(default_factory=set)  # called a river bet (R-SD-6)
    deferred: int | None = None  # a button (Mississippi) straddler who acts last (R-CASH-2)
    round_start_live: int = 0
    headsup_before_cap: bool = False
    short_blind_credit: int = 0  # PL preflop: count short blinds as full (R-PL-2)
    board: tuple[str, ...] = ()
    round_complete: bool = False
    # Applied betting actions in order: (street, seat, "f" | "cc" | "cbr", round total).
    history: list[tuple[int, int, str, int]] = field(default_factory=list)

    def clone(self) -> _State:
        # A shallow copy of the attributes (ints, bools, tuples, None), then fresh copies of
        # the mutable ones: the same result as copy.copy plus the copies below, for less.
        new = _State.__new__(_State)
        new.__dict__.update(self.__dict__)
        new.players = {s: p.clone() for s, p in self.players.items()}
        new.history = list(self.history)
        new.round_log = list(self.round_log)
        new.river_called = set(self.river_called)
        new.pending = {
            s: _Pending(p.action, p.bet_at_record, list(p.intervening))
            for s, p in self.pending.items()
        }
        return new

    def live_count(self) -> int:
        return len([p for p in self.players.values() if not p.folded])

    def needs_action(self, p: _Player) -> bool:
        return not p.folded and p.stack > 0 and (not p.acted or p.committed < self.bet)

    def round_done(self) -> bool:
        live = [p for p in self.players.values() if not p.folded]
        active = [p for p in live if p.stack > 0]
        if len(live) <= 1 or not active:
            return True
        if len(active) == 1 and active[0].committed >= self.bet:
            return True  # R-FLOW-10 (c): nobody left to bet against
        return not any(self.needs_action(p) for p in active)

    def note_intervening(self, kind: str) -> None:
        for pend in self.pending.values():
            pend.intervening.append(kind)

    def second_motion(self, action: Action) -> bool:
        """More chips or a raise from the player who made the last action of the round."""
        last = self.round_log[-1][0] if self.round_log else None
        return last == action.seat and action.kind in ("chips", "raise", "bet", "all_in")

"""The Hand: a table setup plus the events of one hand, judged by the rules as they arrive.

Every betting event is validated and applied to a copy of the state; the copy replaces the
state only when the event stands, so an error always leaves the hand unchanged (card and muck
events make every check before their one change). A Hand is rebuilt
from its setup, settings and event log (`to_dict` / `from_dict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Ruling
from .cards import check_distinct, parse_cards
from .errors import EngineError, HandOver, IllegalAction, InvalidCards, UnknownSeat
from .interpret import BettingView, Resolution, resolve
from .pots import Pot, build_pots
from .settings import EngineSettings
from .showdown import HandResult, award
from .state import _Pending, _Player, _State
from .table import HOLE_COUNT, STREETS, TableSetup


class Hand:
    """One hand at one table, judged by the Poker TDA rules and the configured variants."""

    def __init__(self, setup: TableSetup, settings: EngineSettings | None = None) -> None:
        self.setup = setup
        self.settings = settings or EngineSettings()
        self.seats: tuple[int, ...] = setup.seats
        sb_seat = setup.blind_seats()[0]
        # Heads-up the small blind is the button (TDA-34, R-BTN-2 step 4): with the button on
        # an empty seat he acts first pre-flop (R-FLOW-8) and last after the flop. A hand set
        # up on a later street has posted no blinds and keeps the button it was given.
        headsup_empty_button = (
            len(self.seats) == 2 and setup.button not in self.seats and setup.street == "preflop"
        )
        self.button = sb_seat if headsup_empty_button and sb_seat is not None else setup.button
        self.log: list[dict[str, Any]] = []
        self.rulings: list[Ruling] = []
        self._state = self._initial_state()

    # ----- construction -------------------------------------------------------------------

    def _initial_state(self) -> _State:
        setup = self.setup
        players = {
            p.seat: _Player(p.seat, p.stack, hole=setup.hole.get(p.seat, ())) for p in setup.players
        }
        st = _State(players=players, street=STREETS.index(setup.street), board=setup.board)
        if st.street == 0:
            start = self._post(st)
        else:
            st.dead = setup.pot  # dead money, every player eligible (in-hand.md §19)
            st.inc = self._min_bet(st)
            start = self.button  # R-FLOW-7: first active player left of the button
        st.round_start_live = st.live_count()
        st.headsup_before_cap = st.round_start_live == 2
        self._settle(st, start)
        return st

    def _post(self, st: _State) -> int:
        """Post antes, blinds and extra posts (§4); return the seat action starts after."""
        setup = self.setup
        sb_seat, bb_seat = setup.blind_seats()
        ps = st.players
        if setup.ante_mode == "each":
            for p in ps.values():  # R-ANTE-1: dead for betting, part of t[i]
                a = min(setup.ante, p.stack)
                p.stack -= a
                p.contributed += a
        elif setup.ante_mode == "bba" and bb_seat is not None:
            p = ps[bb_seat]  # R-ANTE-2: ante priority; R-ANTE-3: dead money
            a = min(setup.ante, p.stack)
            p.stack -= a
            st.dead += a
        for seat, amount in ((sb_seat, setup.sb), (bb_seat, setup.bb)):
            if seat is not None:
                p = ps[seat]
                posted = min(amount, p.stack)
                p.stack -= posted
                p.committed += posted
                p.contributed += posted
                st.short_blind_credit += amount - posted  # R-PL-2
        start = bb_seat if bb_seat is not None else (sb_seat or setup.button)
        bet = setup.bb  # R-BLIND-3: the nominal big blind stays the bet
        inc = setup.bb if setup.game != "L" else self._min_bet(st)
        for post in setup.extra_posts:
            p = ps[post.seat]
            live = min(post.live, p.stack)
            p.stack -= live
            p.committed += live
            p.contributed += live
            dead = min(post.dead, p.stack)
            p.stack -= dead
            st.dead += dead
            if post.kind == "straddle" and live > bet:
                # R-CASH-1 convention: the straddle acts as the big blind of the round.
                inc = live if setup.game != "L" else inc
                bet = live
                # The straddle replaces the big blind as the opening bet (TDA-51b): it does
                # not count as a raise over it for the undercall rule.
                st.raise_count += 1
                mississippi = post.seat == setup.button
                if not mississippi:
                    start = post.seat
                elif self.settings.mississippi_first_to_act == "sb":
                    start = setup.button  # R-CASH-2 setting: action starts with the SB
                else:
                    st.deferred = post.seat  # "utg": start left of the BB, straddler last
        st.bet = bet
        st.inc = inc
        st.full_level = st.raise_base = bet
        st.aggressions += 1  # the big blind is the opening bet (TDA-51b)
        st.raise_count += 1
        return start

    # ----- helpers ------------------------------------------------------------------------

    def _min_bet(self, st: _State) -> int:
        return self.setup.bets_for_street(min(st.street, 3))

    def _after(self, seat: int) -> list[int]:
        """Seats clockwise after `seat` (which need not be occupied: dead button, R-BTN-2)."""
        return [s for s in self.seats if s > seat] + [s for s in self.seats if s <= seat]

    def _next_needing(self, st: _State, seat: int) -> int | None:
        found = [s for s in self._after(seat) if st.needs_action(st.players[s])]
        if st.deferred in found and len(found) > 1 and st.street == 0:
            found.remove(st.deferred)  # the Mississippi straddler acts after everyone else
        return found[0] if found else None

    def _uncapped(self, st: _State) -> bool:
        mode = self.settings.limit_headsup_uncapped
        if mode == "event_heads_up":
            return self.setup.event_players_left == 2  # TDA-48
        if mode == "round_starts_headsup":
            return st.round_start_live == 2  # FIGP §8b
        return st.headsup_before_cap  # 004 r.21

    def _can_raise(self, st: _State, p: _Player) -> tuple[bool, tuple[str, ...]]:
        if p.folded or p.stack == 0 or st.betting_over:
            return False, ("R-FLOW-9",)
        if p.stack <= st.bet - p.committed:
            return False, ("R-POT-2",)  # no chips beyond the call
        if p.no_raise:
            return False, ("R-ACT-9", "TDA-55b")
        if self.setup.game == "L":
            bet = self._min_bet(st)
            if st.raise_count >= 1 + self.settings.limit_cap_raises and not self._uncapped(st):
                return False, ("R-LIMIT-2", "TDA-48")
            if st.bet > st.full_level and 2 * (st.bet - st.full_level) < bet:
                return False, ("R-LIMIT-3",)  # short all-in under 50%: call or complete only
            if p.acted and 2 * (st.bet - p.last_bet) < bet:
                return False, ("R-LIMIT-3", "TDA-47b")
            return True, ()
        if p.acted:
            threshold = st.inc if self.settings.nl_reopen_threshold == "full" else st.inc / 2
            if st.bet - p.last_bet < threshold:
                rule = "TDA-47a" if self.settings.nl_reopen_threshold == "full" else "Art.10.11"
                return False, ("R-REOPEN-1", rule)
        return True, ()

    def _min_raise_total(self, st: _State) -> int:
        if self.setup.game == "L":
            return st.raise_base + self._min_bet(st)
        if st.bet == 0:
            return self._min_bet(st)  # R-RAISE-1
        return max(st.bet, self._min_bet(st)) + st.inc  # R-RAISE-2, §7.5

    def _pot_total(self, st: _State) -> int:
        credit = st.short_blind_credit if st.street == 0 else 0
        return st.dead + sum(p.contributed for p in st.players.values()) + credit

    def _max_raise_total(self, st: _State, p: _Player) -> int:
        if self.setup.game == "L":
            return self._min_raise_total(st)
        if self.setup.game == "PL":
            # R-PL-1: the pot after the player's call, on top of the call.
            return st.bet + self._pot_total(st) + (st.bet - p.committed)
        return p.committed + p.stack

    def _complete_to(self, st: _State, p: _Player) -> int | None:
        if self.setup.game != "L":
            return None
        bet = self._min_bet(st)
        if p.acted and 2 * (st.bet - p.last_bet) < bet:
            return None  # R-LIMIT-3: less than half a bet does not reopen for who has acted
        if st.full_level < st.bet < st.full_level + bet:
            return st.full_level + bet
        cap = (1 + self.settings.limit_cap_raises) * bet
        capped = st.raise_count >= 1 + self.settings.limit_cap_raises and not self._uncapped(st)
        if capped and st.bet < cap:
            # "Complete the cap" (000 Cash 'Limit'): after a short all-in counted as a bet,
            # raises go 30, 50, 70 in a 20 round; one more action brings the bet to the cap, 80.
            return cap
        return None

    def _view(self, st: _State, seat: int) -> BettingView:
        p = st.players[seat]
        can, block = self._can_raise(st, p)
        return BettingView(
            game=self.setup.game,
            committed=p.committed,
            stack=p.stack,
            current_bet=st.bet,
            min_bet=self._min_bet(st),
            min_raise_to=self._min_raise_total(st),
            max_raise_to=self._max_raise_total(st, p),
            can_raise=can,
            raise_block_rules=block,
            complete_to=self._complete_to(st, p),
            facing_opening_bet=st.aggressions == 1,
            live_count=st.live_count(),
            bound_to_raise=p.bound,
        )

    # ----- applying -----------------------------------------------------------------------

    def _apply(self, st: _State, seat: int, res: Resolution, forfeit: int = 0) -> None:
        p = st.players[seat]
        if res.kind == "refuse":
            if res.restrict_raise:
                p.no_raise = True
            return
        if res.kind == "bind":
            p.bound = True
            return
        st.round_actions += 1
        st.round_log.append((seat, res.kind, 0))
        p.acted = True
        p.bound = False
        p.no_raise = False
        if res.kind == "fold":
            put = min(forfeit, p.stack)
            p.stack -= put
            p.contributed += put
            p.folded = True
            p.last_bet = st.bet
            if st.live_count() == 2 and st.raise_count < 1 + self.settings.limit_cap_raises:
                st.headsup_before_cap = True  # 004 r.21: two left before the third raise
            st.history.append((st.street, seat, "f", p.committed))
            return
        total = p.committed if res.to is None else res.to
        add = total - p.committed
        if add < 0 or add > p.stack:
            raise IllegalAction(f"seat {seat} cannot put in {add}")
        p.stack -= add
        p.committed = total
        p.contributed += add
        st.history.append((st.street, seat, "cbr" if total > st.bet else "cc", total))
        st.round_log[-1] = (seat, res.kind, add)
        if st.street == 3 and st.round_aggressor is not None and add > 0 and total <= st.bet:
            st.river_called.add(seat)
        if total > st.bet:
            self._raise_bet(st, seat, total, res.kind == "complete")
        p.last_bet = st.bet

    def _raise_bet(self, st: _State, seat: int, total: int, complete: bool) -> None:
        game = self.setup.game
        min_bet = self._min_bet(st)
        if game == "L":
            bet = min_bet
            if complete:
                counted = 2 * (st.bet - st.full_level) >= bet
                st.full_level = st.raise_base = total
                if not counted:
                    st.raise_count += 1
            elif total >= st.raise_base + bet:
                st.full_level = st.raise_base = total
                st.raise_count += 1
            elif 2 * (total - st.raise_base) >= bet:
                # An all-in of half a bet or more counts as a bet/raise (FIGP §8c, Cash 'Limit').
                st.raise_count += 1
                if self.settings.limit_short_allin_raise == "allin_plus_bet":
                    st.raise_base = total
                else:
                    st.raise_base = st.full_level + bet
        else:
            full_to = self._min_raise_total(st)
            if total >= full_to:
                base = 0 if st.bet == 0 else max(st.bet, min_bet)
                st.inc = total - base  # TDA-43a; §7.5 convention below the minimum bet
            # else: a short all-in raises H but not the increment (TDA-47a)
        st.bet = total
        st.aggressions += 1
        st.round_aggressor = st.hand_aggressor = seat

    def _close_round(self, st: _State) -> None:
        if st.round_actions:
            st.final_round_aggressor = st.round_aggressor
        for p in st.players.values():
            p.committed = 0
            p.acted = False
            p.last_bet = 0
            p.no_raise = False
            p.bound = False
        st.pending.clear()
        st.round_complete = True
        if st.live_count() <= 1:
            st.betting_over = True
            st.to_act = None
            return
        st.street += 1
        st.bet = st.aggressions = st.raise_count = st.round_actions = 0
        st.round_log = []
        st.deferred = None
        st.full_level = st.raise_base = 0
        st.round_aggressor = None
        if st.street > 3:
            st.betting_over = True
            st.to_act = None
            return
        st.inc = self._min_bet(st)
        st.round_start_live = st.live_count()
        st.headsup_before_cap = st.round_start_live == 2
        active = [p for p in st.players.values() if not p.folded and p.stack > 0]
        if len(active) < 2:
            # All-in run-out: the board is dealt without betting (§3.5, R-SD-4).
            st.betting_over = True
            st.to_act = None
            return
        st.to_act = self._next_needing(st, self.button)  # R-FLOW-7

    def _settle(self, st: _State, after: int) -> list[Ruling]:
        """Move the action on from seat `after`, applying pending out-of-turn actions (§11)."""
        follow: list[Ruling] = []
        while True:
            if st.live_count() <= 1 or st.round_done():
                self._close_round(st)  # sets the first player of the next round, if any
                return follow
            nxt = self._next_needing(st, after)
            if nxt is None:  # pragma: no cover - _round_done covers it
                self._close_round(st)
                return follow
            pending = st.pending.pop(nxt, None)
            if pending is not None:
                ruling = self._apply_pending(st, nxt, pending)
                if ruling is not None:
                    follow.append(ruling)
                    after = nxt
                    continue
            st.to_act = nxt
            return follow

    def _apply_pending(self, st: _State, seat: int, pending: _Pending) -> Ruling | None:
        """Apply a pending out-of-turn action when the action reaches the player, if binding."""
        mode = self.settings.oot_mode
        if st.bet != pending.bet_at_record:
            return None  # the action changed: not binding, all options (TDA-53a)
        action = pending.action
        rules: tuple[str, ...] = ("R-OOT-1", "TDA-53a")
        if mode == "figp" and any(k in ("check", "call") for k in pending.intervening):
            action = Action(seat=seat, kind="call")  # FIGP §23: reduced to a check/call
            rules = ("R-OOT-1", "FIGP §23")
        elif mode == "code003":
            rules = ("R-OOT-1", "Art.10.5")
            # Art.10.5: binding only if those in between only check or fold; but a player who
            # called out of turn cannot change his call (second sentence), so a call stays
            # bound when those in between call (a bet or raise has changed H, above).
            passive = all(k in ("check", "fold") for k in pending.intervening)
            only_calls = all(k in ("check", "fold", "call") for k in pending.intervening)
            if not passive and not (only_calls and self._is_call(st, seat, action)):
                return None
        try:
            res = resolve(self._view(st, seat), action, self.settings)
            self._apply(st, seat, res, action.forfeit)
        except EngineError:
            return None
        if res.kind in ("refuse", "bind"):
            # Not an action (e.g. "check" facing a bet, R-ACT-9, or "raise" without an
            # amount): its restriction or binding stands and the player is still to act.
            return None
        st.note_intervening(res.kind)
        return self._ruling(st, seat, res, rules_prefix=rules)

    def _is_call(self, st: _State, seat: int, action: Action) -> bool:
        try:
            return resolve(self._view(st, seat), action, self.settings).kind == "call"
        except EngineError:
            return False

    def _ruling(
        self, st: _State, seat: int, res: Resolution, *, rules_prefix: tuple[str, ...] = ()
    ) -> Ruling:
        p = st.players[seat]
        accepted = res.kind not in ("refuse",)
        act: Any = None
        to: int | None = None
        if res.kind in ("fold", "check"):
            act = res.kind
            to = None if res.kind == "fold" else res.to
        elif res.kind in ("call", "bet", "raise", "all_in", "complete"):
            act = "all_in" if p.stack == 0 else res.kind
            to = res.to
        return Ruling(
            seat=seat,
            accepted=accepted,
            act=act,
            to=to,
            rules=(*rules_prefix, *res.rules),
            note=res.note,
        )

    # ----- public: events -----------------------------------------------------------------

    def _player(self, st: _State, seat: int) -> _Player:
        if seat not in st.players:
            raise UnknownSeat(f"seat {seat} is not dealt in (seats {list(self.seats)})")
        return st.players[seat]

    def act(self, action: Action) -> Ruling:
        """Judge one event and apply it; raise an EngineError (hand unchanged) if it cannot stand."""
        st = self._state.clone()
        p = self._player(st, action.seat)
        if st.betting_over:
            raise HandOver("no betting action is possible: the betting is over")
        if p.folded:
            raise IllegalAction(f"seat {action.seat} has folded", rules=("R-FLOW-9",))
        if p.stack == 0:
            raise IllegalAction(f"seat {action.seat} is all-in", rules=("R-FLOW-9",))
        st.round_complete = False
        if action.seat != st.to_act and st.second_motion(action):
            # R-ACT-12: a raise in two motions entitles the player only to his first motion;
            # the second is not an action (its chips go back), not an out-of-turn action.
            ruling = Ruling(
                seat=action.seat,
                accepted=False,
                rules=("R-ACT-12", "TDA-56"),
                note="string bet: the second motion is not an action; chips returned",
            )
        elif action.seat != st.to_act:
            ruling = self._out_of_turn(st, action)
        else:
            res = resolve(self._view(st, action.seat), action, self.settings)
            self._apply(st, action.seat, res, action.forfeit)
            ruling = self._ruling(st, action.seat, res)
            if res.kind not in ("refuse", "bind"):
                st.note_intervening(res.kind)
                follow = self._settle(st, action.seat)
                if follow:
                    ruling = Ruling(**{**ruling.__dict__, "follow_ups": tuple(follow)})
        self._state = st
        self.log.append({"type": "action", **action.to_dict()})
        self.rulings.append(ruling)
        return ruling

    def _out_of_turn(self, st: _State, action: Action) -> Ruling:
        if action.kind == "timeout":
            raise IllegalAction("the clock runs only on the player in turn", rules=("R-TIME-1",))
        seat = action.seat
        if action.kind == "fold":
            # An out-of-turn fold is always binding (TDA-53a, TDA-58).
            res = Resolution("fold", None, ("R-OOT-1", "TDA-53a", "R-ACT-10", "TDA-58"))
            self._apply(st, seat, res, action.forfeit)
            ruling = self._ruling(st, seat, res)
            if st.live_count() <= 1 or st.round_done():
                assert st.to_act is not None
                self._settle(st, st.to_act)
            return Ruling(**{**ruling.__dict__, "out_of_turn": True})
        if seat in st.pending:
            raise IllegalAction(f"seat {seat} already has an out-of-turn action pending")
        try:
            res = resolve(self._view(st, seat), action, self.settings)
            preview = self._ruling(st, seat, res)
            act, to, rules = preview.act, preview.to, preview.rules
        except EngineError:
            act, to, rules = None, None, ()
        st.pending[seat] = _Pending(action, st.bet)
        return Ruling(
            seat=seat,
            accepted=True,
            act=act,
            to=to,
            rules=("R-OOT-1", "TDA-53a", *rules),
            out_of_turn=True,
            note="out of turn: pending; binding if the action to him does not change",
        )

    def deal_board(self, cards: Sequence[str]) -> None:
        """Add board cards (flop, turn or river); at most five in all, no repeated card."""
        new = parse_cards(cards)
        board = (*self._state.board, *new)
        if len(board) > 5:
            raise InvalidCards("a board has at most five cards")
        check_distinct([board, *(p.hole for p in self._state.players.values())])
        self._state.board = board  # every check is made: no copy needed to stay unchanged
        self.log.append({"type": "board", "cards": list(new)})

    def deal_hole(self, seat: int, cards: Sequence[str]) -> None:
        """Record a player's hole cards (dealt, or learned when shown)."""
        st = self._state  # every check comes before the one change: no copy needed
        p = self._player(st, seat)
        hole = parse_cards(cards)
        if len(hole) != HOLE_COUNT[self.setup.variant]:
            raise InvalidCards(f"{self.setup.variant} needs {HOLE_COUNT[self.setup.variant]} cards")
        others = [q.hole for q in st.players.values() if q.seat != seat]
        check_distinct([hole, st.board, *others])
        p.hole = hole
        self.log.append({"type": "hole", "seat": seat, "cards": list(hole)})

    def muck(self, seat: int) -> None:
        """Record that a player mucked at showdown without showing: he wins nothing (R-SD-2)."""
        st = self._state  # every check comes before the one change: no copy needed
        p = self._player(st, seat)
        if not st.betting_over:
            raise IllegalAction("a hand is mucked only at showdown; use a fold")
        if p.folded:
            raise IllegalAction(f"seat {seat} has folded")
        p.mucked = True
        self.log.append({"type": "muck", "seat": seat})

    # ----- public: queries ----------------------------------------------------------------

    @property
    def next_to_act(self) -> int | None:
        """Seat that must act next; None when no further betting action is possible."""
        return None if self._state.betting_over else self._state.to_act

    @property
    def street(self) -> str:
        """Current street name, or "showdown" once the betting is over."""
        st = self._state
        return "showdown" if st.betting_over else STREETS[st.street]

    @property
    def betting_over(self) -> bool:
        """True when no more betting can happen (hand won, all-in run-out, or river done)."""
        return self._state.betting_over

    @property
    def round_complete(self) -> bool:
        """True if the last event finished the betting round it happened in."""
        return self._state.round_complete

    @property
    def board(self) -> tuple[str, ...]:
        """Board cards dealt so far."""
        return self._state.board

    def betting_history(self) -> tuple[tuple[int, int, str, int], ...]:
        """Applied actions in order: (street index, seat, "f"/"cc"/"cbr", round total)."""
        return tuple(self._state.history)

    def is_folded(self, seat: int) -> bool:
        """Whether the seat has folded."""
        return self._player(self._state, seat).folded

    def is_mucked(self, seat: int) -> bool:
        """Whether the seat mucked at showdown."""
        return self._player(self._state, seat).mucked

    def hole(self, seat: int) -> tuple[str, ...]:
        """Return the known hole cards of a seat (empty if unknown)."""
        return self._player(self._state, seat).hole

    def stack(self, seat: int) -> int:
        """Chips behind for a seat right now."""
        return self._player(self._state, seat).stack

    def committed(self, seat: int) -> int:
        """Chips a seat has put in during the current betting round."""
        return self._player(self._state, seat).committed

    @property
    def current_bet(self) -> int:
        """H: the amount to call in this round (the nominal big blind preflop)."""
        return self._state.bet

    def to_call(self, seat: int | None = None) -> int:
        """Chips the seat (default: the player to act) must add to call."""
        seat = self._default_seat(seat)
        if seat is None:
            return 0
        p = self._player(self._state, seat)
        return max(0, min(self._state.bet - p.committed, p.stack))

    def _default_seat(self, seat: int | None) -> int | None:
        return self.next_to_act if seat is None else seat

    def can_raise(self, seat: int | None = None) -> bool:
        """Whether the seat may bet or raise when next to act (§8, §9, R-ACT-9)."""
        seat = self._default_seat(seat)
        if seat is None:
            return False
        return self._can_raise(self._state, self._player(self._state, seat))[0]

    def raise_blocked_by(self, seat: int | None = None) -> tuple[str, ...]:
        """Rule ids that keep the seat from betting or raising now; empty if he may."""
        seat = self._default_seat(seat)
        if seat is None:
            return ("R-FLOW-9",)
        can, rules = self._can_raise(self._state, self._player(self._state, seat))
        return () if can else rules

    def can_check(self, seat: int | None = None) -> bool:
        """Whether the seat owes nothing in this round."""
        seat = self._default_seat(seat)
        return seat is not None and self.to_call(seat) == 0 and not self.betting_over

    def can_complete(self, seat: int | None = None) -> bool:
        """Limit only: whether a short all-in bet may be completed (§9.2)."""
        return self.complete_to(seat) is not None

    def complete_to(self, seat: int | None = None) -> int | None:
        """Limit only: the total a completion brings the bet to (§9.2); None if none is open."""
        seat = self._default_seat(seat)
        if seat is None:
            return None
        return self._complete_to(self._state, self._player(self._state, seat))

    def min_raise_to(self, seat: int | None = None) -> int | None:
        """Smallest legal total for a bet or raise (ignores the stack); None if he may not."""
        if not self.can_raise(seat):
            return None
        return self._min_raise_total(self._state)

    def max_raise_to(self, seat: int | None = None) -> int | None:
        """Largest legal total (PL: the pot; NL: all-in; limit: fixed); None if he may not."""
        seat = self._default_seat(seat)
        if seat is None or not self.can_raise(seat):
            return None
        return self._max_raise_total(self._state, self._player(self._state, seat))

    def pot_total(self) -> int:
        """All chips in the middle and in front of the players."""
        st = self._state
        return st.dead + sum(p.contributed for p in st.players.values())

    @property
    def expose_all_hands(self) -> bool:
        """All-in showdown reached: every live hand is turned face up at once (R-SD-4)."""
        st = self._state
        live = [p for p in st.players.values() if not p.folded]
        return st.betting_over and len(live) >= 2 and any(p.stack == 0 for p in live)

    def substantial_action(self) -> bool:
        """Whether substantial action has occurred in the current round (R-DEAL-1).

        TDA-36: two actions of which at least one puts chips in, or any three actions.
        FIGP §37: preflop only once the big blind has acted; after the flop any two actions.
        """
        st = self._state
        log = st.round_log
        if self.settings.substantial_action == "figp":
            if st.street == 0:
                bb_seat = self.setup.blind_seats()[1]
                return any(seat == bb_seat for seat, _, _ in log)
            return len(log) >= 2
        return len(log) >= 3 or (len(log) >= 2 and any(chips > 0 for _, _, chips in log))

    def may_see(self, requester: int, target: int) -> str:
        """Whether `requester` may ask to see `target`'s hand: "right", "td_discretion" or
        "none" (R-SD-6, TDA-18).

        A caller of a river bet who still holds or has shown his cards has the right to see the
        last river aggressor's hand; other requests are for the TD; players who folded or
        mucked unseen have no right to ask.
        """
        st = self._state
        asker = self._player(st, requester)
        self._player(st, target)
        if asker.folded or asker.mucked or requester == target:
            return "none"
        river_aggressor = st.final_round_aggressor if st.street > 3 else None
        if target == river_aggressor and requester in st.river_called:
            return "right"
        return "td_discretion"

    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots with their eligible seats, after uncalled chips are returned."""
        return self._pots()[0]

    def uncalled_returned(self) -> dict[int, int]:
        """Chips returned as uncalled, by seat (R-POT-1)."""
        return self._pots()[1]

    def _pots(self) -> tuple[tuple[Pot, ...], dict[int, int]]:
        st = self._state
        live = {s for s, p in st.players.items() if not p.folded}
        all_in = {s for s in live if st.players[s].stack == 0}
        contributions = {s: p.contributed for s, p in st.players.items()}
        return build_pots(contributions, live=live, all_in=all_in, dead=st.dead)

    def showdown_order(self) -> tuple[int, ...]:
        """Order in which live hands are shown (R-SD-5, TDA-17a); empty if uncontested."""
        st = self._state
        live = [s for s in self.seats if not st.players[s].folded]
        if len(live) < 2:
            return ()
        if self.settings.showdown_order == "tda_last_round":
            first = st.final_round_aggressor if st.betting_over else st.round_aggressor
        else:
            first = st.hand_aggressor  # FIGP §25: last aggressive action of the whole hand
        if first is None or first not in live:
            first = next(s for s in self._after(self.button) if s in live)
        start = live.index(first)
        return tuple(live[start:] + live[:start])

    def result(self) -> HandResult:
        """Award every pot (winners, split shares, odd chips) and compute final stacks.

        Preconditions: the betting is over; with two or more hands contesting a pot, the
        board has five cards and their hole cards are known.
        """
        st = self._state
        if not st.betting_over:
            raise IllegalAction("the hand is not over yet")
        pots, returned = self._pots()
        live = [s for s in self.seats if not st.players[s].folded]
        return award(
            pots,
            returned=returned,
            stacks={s: p.stack for s, p in st.players.items()},
            holes={s: st.players[s].hole for s in live},
            mucked={s for s in live if st.players[s].mucked},
            board=st.board,
            variant=self.setup.variant,
            button=self.button,
            settings=self.settings,
        )

    def final_stacks(self) -> dict[int, int]:
        """Stacks after the pots are awarded and uncalled chips returned."""
        return self.result().final_stacks

    def correct_pl_bet(self, event_index: int) -> Hand:
        """Return the hand with a too-low pot-limit "pot" bet corrected to the true pot (R-PL-4).

        `event_index` is the position of the bet in `log`. TDA-52: a pot bet on a count that
        was too low may be corrected only while the round is still on and no substantial
        action (R-DEAL-1) has followed it; the later events are replayed on the corrected bet
        (calls follow the new amount). The engine itself never accepts an oversized PL bet, so
        the too-high case of TDA-52 cannot arise here. Raises IllegalAction when it may not
        be corrected; this hand is left unchanged.
        """
        if self.setup.game != "PL":
            raise IllegalAction("only pot-limit bets are corrected this way", rules=("R-PL-4",))
        if not 0 <= event_index < len(self.log) or self.log[event_index].get("type") != "action":
            raise IllegalAction(f"event {event_index} is not a betting action")
        prefix = Hand.from_dict({**self.to_dict(), "log": self.log[:event_index]})
        entry = self.log[event_index]
        seat = int(entry["seat"])
        street = prefix.street
        maximum = prefix.max_raise_to(seat)
        bet = prefix.act(Action.from_dict({k: v for k, v in entry.items() if k != "type"}))
        if maximum is None or bet.act not in ("bet", "raise") or bet.to is None:
            raise IllegalAction(f"event {event_index} is not a pot-limit bet or raise")
        if bet.to >= maximum:
            raise IllegalAction("the bet was not below the pot", rules=("R-PL-4",))
        later = self.log[event_index + 1 :]
        if any(e.get("type") != "action" for e in later) or self.street != street:
            raise IllegalAction("the next card is out: the bet stands", rules=("R-PL-4", "TDA-52"))
        if prefix.substantial_action_after(later):
            raise IllegalAction(
                "substantial action followed the bet: it stands", rules=("R-PL-4", "TDA-52")
            )
        fixed = {"type": "action", "seat": seat, "act": "raise", "to": maximum}
        return Hand.from_dict({**self.to_dict(), "log": [*self.log[:event_index], fixed, *later]})

    def substantial_action_after(self, entries: Sequence[dict[str, Any]]) -> bool:
        """Whether these further events would amount to substantial action (TDA-36)."""
        probe = Hand.from_dict(self.to_dict())
        start = len(probe._state.round_log)
        for e in entries:
            probe.act(Action.from_dict({k: v for k, v in e.items() if k != "type"}))
        log = probe._state.round_log[start:]
        return len(log) >= 3 or (len(log) >= 2 and any(chips > 0 for _, _, chips in log))

    # ----- serialisation ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return setup + settings + event log as plain JSON-able data (replay to rebuild)."""
        return {
            "setup": self.setup.to_dict(),
            "settings": self.settings.to_dict(),
            "log": [dict(e) for e in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """Rebuild a hand by replaying its event log."""
        hand = cls(TableSetup.from_dict(data["setup"]), EngineSettings.from_dict(data["settings"]))
        for entry in data.get("log", ()):
            kind = entry.get("type", "action")
            if kind == "board":
                hand.deal_board(entry["cards"])
            elif kind == "hole":
                hand.deal_hole(entry["seat"], entry["cards"])
            elif kind == "muck":
                hand.muck(entry["seat"])
            else:
                hand.act(Action.from_dict({k: v for k, v in entry.items() if k != "type"}))
        return hand

"""What the jackpot pages and screens read: the fund, the period's high hand with its cards,
a jackpot just hit, the claims and payments, and the rules in words."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.models import CashRoom, JackpotClaim, JackpotFund, JackpotKind, JackpotPayment
from room.selectors import cash as cash_reads
from tables.cash.jackpot import (
    REASONS,
    BadBeatRule,
    DropRule,
    FundShares,
    HighHandRule,
    best_five,
    period_of,
)
from tables.ruling.jackpot_labels import PERIOD_LABELS, reason_texts

REASON_CODES = frozenset(REASONS)
# How long the screens show a jackpot just paid.
HIT_SECONDS = 120

SUIT_SIGNS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
ROLE_LABELS = {
    "loser": gettext_lazy("Losing hand"),
    "winner": gettext_lazy("Winning hand"),
    "table": gettext_lazy("Player dealt in"),
    "room": gettext_lazy("The room's share"),
    "high_hand": gettext_lazy("High hand"),
}
GAME_LABELS = {"holdem": "Hold'em", "omaha": "Omaha"}


def cards(codes: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """Cards as the screens draw them: rank, suit sign, red or black."""
    return [
        {
            "code": code,
            "rank": "10" if code[0] == "T" else code[0],
            "suit": SUIT_SIGNS.get(code[1:], code[1:]),
            "red": code[1:] in ("h", "d"),
        }
        for code in codes
    ]


def fund() -> dict[str, int]:
    row = JackpotFund.objects.order_by("pk").first()
    return row.parts() if row is not None else {"main": 0, "backup": 0, "next": 0}


def _high_hand_view(claim: JackpotClaim) -> dict[str, Any]:
    hand = claim.hands.get("hand", {})
    hole, board = tuple(hand.get("hole", ())), tuple(claim.board)
    seat = hand.get("seat")
    return {
        "claim": claim,
        "seat": seat,
        "name": claim.names.get(str(seat), ""),
        "hole": cards(hole),
        "board": cards(board),
        "best": cards(best_five(claim.game, hole, board)) if len(board) == 5 else [],
    }


def current_high_hand(now: datetime) -> dict[str, Any]:
    """The running period and its high hand so far (every hand tying it)."""
    start, end = period_at(now)
    best = best_of(period_hands(start))
    return {"start": start, "end": end, "hands": [_high_hand_view(c) for c in best]}


def last_hit(now: datetime) -> dict[str, Any] | None:
    """A jackpot paid within the last two minutes: the screens' moment."""
    payment = JackpotPayment.objects.filter(at__gt=now - timedelta(seconds=HIT_SECONDS)).first()
    if payment is None:
        return None
    return {
        "payment": payment,
        "names": [s["name"] for s in payment.shares if s.get("role") != "room" and s.get("name")],
        "seconds": max(1, HIT_SECONDS - int((now - payment.at).total_seconds())),
    }


def screen(now: datetime) -> dict[str, Any]:
    """What the jackpot TV and the brush board's strip show."""
    settings = jackpot_settings()
    return {
        "fund": fund(),
        "high_hand": current_high_hand(now),
        "hit": last_hit(now),
        "period_label": PERIOD_LABELS[settings.high_hand.period],
        "prize_cents": settings.high_hand.prize_cents,
        "min_losing_hand": hand_words(settings.bad_beat.min_losing_hand),
    }


def claim_view(claim: JackpotClaim) -> dict[str, Any]:
    """A claim as the floor's page shows it: the hands as cards, the engine's words."""
    hands = []
    for role in ("loser", "winner", "hand"):
        hand = claim.hands.get(role)
        if hand:
            seat = hand.get("seat")
            hands.append(
                {
                    "role": ROLE_LABELS["high_hand" if role == "hand" else role],
                    "seat": seat,
                    "name": claim.names.get(str(seat), ""),
                    "hole": cards(hand.get("hole", [])),
                }
            )
    return {
        "claim": claim,
        "board": cards(claim.board),
        "hands": hands,
        "words": reason_texts(tuple(claim.reasons)),
        "game": GAME_LABELS.get(claim.game, claim.game),
    }


def claims(limit: int = 20) -> list[dict[str, Any]]:
    return [
        claim_view(c)
        for c in JackpotClaim.objects.select_related("floor_by", "recorded_by", "tournament")[
            :limit
        ]
    ]


def periods_to_pay(now: datetime) -> list[dict[str, Any]]:
    """Ended high-hand periods with a standing high hand and no payment yet."""
    starts = (
        JackpotClaim.objects.filter(
            kind=JackpotKind.HIGH_HAND,
            status=JackpotClaim.Status.JUDGED,
            period_end__lte=now,
        )
        .values_list("period_start", flat=True)
        .distinct()
    )
    out = []
    for start in sorted(set(starts)):
        winners = best_of(period_hands(start))
        out.append({"start": start, "end": winners[0].period_end, "winners": winners})
    return out


def payments(limit: int = 20) -> list[dict[str, Any]]:
    return [
        {
            "payment": p,
            "shares": [{**s, "label": ROLE_LABELS.get(s.get("role"), "")} for s in p.shares],
        }
        for p in JackpotPayment.objects.select_related("paid_by")[:limit]
    ]


def rules_in_words(settings: JackpotSettings) -> list[tuple[str, list[tuple[str, str]]]]:
    """The room's jackpot rules, each with its value in words: the printed rules."""
    yes, no = _("yes"), _("no")
    drop, shares, bad, high = settings.drop, settings.shares, settings.bad_beat, settings.high_hand
    games = ", ".join(GAME_LABELS.get(g, g) for g in sorted(drop.games))

    def money(cents: int | None, none: str) -> str:
        return none if cents is None else f"€ {cents / 100:.2f}"

    drop_what = (
        _("%(amount)s from each pot") % {"amount": money(drop.fixed_cents, "")}
        if drop.kind == "fixed"
        else _("%(share)s‰ of the pot, in steps of %(step)s")
        % {"share": drop.share_per_mille, "step": money(drop.step_cents, "")}
    )
    return [
        (
            _("The drop, taken from each pot besides the rake"),
            [
                (_("Drop"), drop_what),
                (_("Smallest pot that drops"), money(drop.min_pot_cents, "")),
                (_("Largest drop of a hand"), money(drop.cap_cents, _("no cap"))),
                (_("Only when a flop is dealt"), yes if drop.flop_required else no),
                (_("Games"), games),
            ],
        ),
        (
            _("The funds (per mille of each drop)"),
            [
                (_("Jackpot on offer"), str(shares.main)),
                (_("Backup: the next jackpot's start"), str(shares.backup)),
                (_("Set aside for the jackpot after"), str(shares.next)),
            ],
        ),
        (
            _("Bad beat"),
            [
                (_("Weakest losing hand that qualifies"), hand_words(bad.min_losing_hand)),
                (
                    _("Both of the loser's hole cards must play"),
                    yes if bad.both_hole_cards_play else no,
                ),
                (_("Fewest players dealt in"), str(bad.min_players_dealt)),
                (_("The winning hand must qualify too"), yes if bad.winner_must_qualify else no),
                (_("Share of the loser (‰)"), str(bad.share_loser)),
                (_("Share of the winner (‰)"), str(bad.share_winner)),
                (_("Share of the rest of the table (‰)"), str(bad.share_table)),
                (_("Share of the room (‰)"), str(bad.share_room)),
                (
                    _("Claims at tournament tables"),
                    yes if settings.tournament_claims else no,
                ),
            ],
        ),
        (
            _("High hand"),
            [
                (_("Period"), str(PERIOD_LABELS[high.period])),
                (_("Weakest hand that qualifies"), hand_words(high.min_hand)),
                (_("Both hole cards must play"), yes if high.both_hole_cards_play else no),
                (_("Prize"), money(high.prize_cents, _("the whole jackpot on offer"))),
                (_("Tied hands"), _("share the prize equally")),
            ],
        ),
    ]


RANK_ORDER = "23456789TJQKA"
RANKS_MANY = {
    "A": gettext_lazy("aces"),
    "K": gettext_lazy("kings"),
    "Q": gettext_lazy("queens"),
    "J": gettext_lazy("jacks"),
    "T": gettext_lazy("tens"),
    "9": gettext_lazy("nines"),
    "8": gettext_lazy("eights"),
    "7": gettext_lazy("sevens"),
    "6": gettext_lazy("sixes"),
    "5": gettext_lazy("fives"),
    "4": gettext_lazy("fours"),
    "3": gettext_lazy("threes"),
    "2": gettext_lazy("deuces"),
}
RANKS_ONE = {
    "A": gettext_lazy("ace"),
    "K": gettext_lazy("king"),
    "Q": gettext_lazy("queen"),
    "J": gettext_lazy("jack"),
    "T": gettext_lazy("ten"),
}


def _one(rank: str) -> str:
    return str(RANKS_ONE.get(rank, rank))


def hand_words(notation: str) -> str:
    """A hand of the rules' notation in words: "AAATT" -> "aces full of tens"."""
    text = notation.strip()
    suited = len(text) == 6 and text[-1] in "sS"
    ranks = (text[:-1] if suited else text).upper()
    if len(ranks) != 5 or any(r not in RANK_ORDER for r in ranks):
        return notation
    counts = sorted(((ranks.count(r), RANK_ORDER.index(r), r) for r in set(ranks)), reverse=True)
    shape = [c for c, _i, _r in counts]
    top = [r for _c, _i, r in counts]
    order = sorted({RANK_ORDER.index(r) for r in ranks})
    straight = len(order) == 5 and (order[-1] - order[0] == 4 or order == [0, 1, 2, 3, 12])
    high = "5" if order == [0, 1, 2, 3, 12] else top[0]
    if suited and straight:
        if high == "A":
            return _("a royal flush")
        return _("a straight flush, %(rank)s high") % {"rank": _one(high)}
    if shape[0] == 4:
        return _("four %(rank)s") % {"rank": RANKS_MANY[top[0]]}
    if shape[:2] == [3, 2]:
        return _("%(three)s full of %(two)s") % {
            "three": RANKS_MANY[top[0]],
            "two": RANKS_MANY[top[1]],
        }
    if suited:
        return _("a flush, %(rank)s high") % {"rank": _one(top[0])}
    if straight:
        return _("a straight, %(rank)s high") % {"rank": _one(high)}
    if shape[0] == 3:
        return _("three %(rank)s") % {"rank": RANKS_MANY[top[0]]}
    if shape[:2] == [2, 2]:
        return _("two pair, %(a)s and %(b)s") % {"a": RANKS_MANY[top[0]], "b": RANKS_MANY[top[1]]}
    if shape[0] == 2:
        return _("a pair of %(rank)s") % {"rank": RANKS_MANY[top[0]]}
    return _("%(rank)s high") % {"rank": _one(top[0])}


@dataclass(frozen=True)
class JackpotSettings:
    """The room's jackpot rules: the spec's defaults where the room chose nothing else."""

    drop: DropRule = DropRule("fixed")
    shares: FundShares = FundShares()
    bad_beat: BadBeatRule = BadBeatRule()
    high_hand: HighHandRule = HighHandRule()
    # A bad beat at a tournament's table may be claimed from the cash room's jackpot.
    tournament_claims: bool = False


DEFAULTS = JackpotSettings()


GROUPS = ("drop", "shares", "bad_beat", "high_hand")


def _room() -> CashRoom:
    room = CashRoom.objects.order_by("pk").first()
    return room if room is not None else CashRoom()


def _plain(value: Any) -> Any:
    """A rule's value as JSON keeps it (a set of games as a sorted list)."""
    if isinstance(value, frozenset | set):
        return sorted(value)
    return value


def _rule(default: Any, stored: Any) -> Any:
    if not isinstance(stored, dict):
        return default
    known = {f.name for f in fields(default) if f.init}
    values = {k: v for k, v in stored.items() if k in known}
    if isinstance(values.get("games"), list):
        values["games"] = frozenset(values["games"])
    try:
        return replace(default, **values)
    except (TypeError, ValueError):
        return default  # a stored value the rules no longer accept: the spec's default


def settings_from(stored: dict[str, Any] | None) -> JackpotSettings:
    stored = stored or {}
    return JackpotSettings(
        **{group: _rule(getattr(DEFAULTS, group), stored.get(group)) for group in GROUPS},
        tournament_claims=bool(stored.get("tournament_claims", False)),
    )


def jackpot_settings() -> JackpotSettings:
    return settings_from(_room().jackpot_rules)


def period_at(at: datetime, settings: JackpotSettings | None = None) -> tuple[datetime, datetime]:
    """The high-hand period holding `at`, in the room's time (hour, shift or gaming day)."""
    settings = settings or jackpot_settings()
    cash = cash_reads.room_settings()
    return period_of(
        settings.high_hand,
        timezone.localtime(at),
        day_start_minutes=cash.gaming_day_start_minutes,
        shift_starts=[s.start_minutes for s in cash.shifts] or [cash.gaming_day_start_minutes],
    )


def moment_at(clock: time, now: datetime) -> datetime:
    """The latest moment at that time of day, not after `now`, in the room's time: the
    floor writes only the hour and minute of a hand, and a night runs past midnight."""
    local = timezone.localtime(now)
    moment = local.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
    return moment if moment <= local else moment - timedelta(days=1)


def period_hands(start: datetime) -> list[JackpotClaim]:
    """The period's standing high hands (each qualified when recorded), oldest first."""
    return list(
        JackpotClaim.objects.filter(
            kind=JackpotKind.HIGH_HAND,
            period_start=start,
            status__in=[JackpotClaim.Status.JUDGED, JackpotClaim.Status.PAID],
        ).order_by("at", "pk")
    )


def best_of(hands: list[JackpotClaim]) -> list[JackpotClaim]:
    """The period's high hand: the best rank; every hand that ties it shares it."""
    ranks = [h.winner_rank for h in hands if h.winner_rank is not None]
    if not ranks:
        return []
    return [h for h in hands if h.winner_rank == min(ranks)]

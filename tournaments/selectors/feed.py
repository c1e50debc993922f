"""The live-reporting feed: what an event shows the sites and streams that follow it.

One JSON document per event (`document`), served at /api/v1/events/<id>/ and sent whole
to a stream's follower when it connects; then, after each change the screens are told of,
one update (`update`) with the sections that change altered, rendered once for every
follower and overlay (tournaments/realtime.py sends it to the feed's group).

Ids are stable: the event's `id` (its key, which never changes, where its address follows
its date), each entry's `entry` (its key) beside its `number` at the desk, each featured
hand's `id`. Money is in the event's currency units, as the payouts page shows it.

Each change bumps the event's feed version (`bump`, kept in the cache, shared by every
server process when the cache is Redis); the document is rendered once per version and
kept (`cached_document`), so a thousand readers of one version cost one rendering, and a
reader that has it already gets 304 from its ETag without any.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _

from tables.engine import EngineError, Hand
from tables.engine.phh import export_phh
from tables.engine.pots import clockwise_from
from tables.ruling import presentation
from tournaments import selectors
from tournaments.models import ChipCount, Entry, Ruling, Seat, Table, Tournament

API_VERSION = 1
# The recent eliminations a push and the overlay carry (the document has them all).
RECENT = 10
# How long a rendered document is kept: a level boundary passes without a change, and the
# document read after it shows the new level within this time.
DOCUMENT_SECONDS = 30

# The pushes that change nothing the feed shows: no update is sent for them.
NOT_IN_FEED = frozenset(
    {
        "close",
        "timecall",
        "move",
        "buttons",
        "hands",
        "hand",
        "seat_lock",
        "penalty",
        "penalties",
        "mystery_draw",
        "seats_awarded",
        "arrived",
    }
)
# What each push kind changes in the feed (anything else: clock and figures).
_SECTIONS: dict[str, tuple[str, ...]] = {
    "clock": ("clock",),
    "structure": ("clock",),
    "day": ("clock", "figures", "chip_counts", "final_table"),
    # The payout table stays as it was (the pool counts entries, not busts); the figures
    # say how many are left against the places paid.
    "elimination": ("figures", "eliminations", "final_table"),
    "bounty": ("figures", "eliminations"),
    "payouts": ("figures", "payouts"),
    "deal": ("figures", "payouts", "eliminations"),
    "figures": ("figures", "chip_counts", "final_table"),
    "final_table": ("figures", "final_table"),
    "table_break": ("figures", "final_table"),
    "featured_hand": ("featured_hands",),
}
_DEFAULT_SECTIONS = ("clock", "figures", "final_table")

_UNSAFE_NAME = re.compile(r"[^\w .\-]", re.UNICODE)


def public_event(key: str) -> Tournament | None:
    """An event whose feed is public, by its key or its address."""
    events = Tournament.objects.filter(feed_public=True)
    if key.isascii() and key.isdigit() and len(key) < 12:
        return events.filter(pk=int(key)).first()
    return events.filter(slug=key).first()


def public_events() -> list[dict[str, Any]]:
    """The events whose feed is public, the latest first."""
    rows = Tournament.objects.filter(feed_public=True).order_by("-date", "name")
    return [
        {
            "id": t.pk,
            "slug": t.slug,
            "name": t.name,
            "date": t.date.isoformat(),
            "venue": t.venue,
            "status": t.status,
        }
        for t in rows[:200]
    ]


# --- Versions and the kept document ----------------------------------------------------


def _version_key(tournament_id: int) -> str:
    return f"feed:version:{tournament_id}"


def version(tournament_id: int) -> int:
    """The event's feed version now. Lost with the cache (Redis restarted), it starts again
    from the clock's nanoseconds: never a number an earlier document had."""
    key = _version_key(tournament_id)
    try:
        found = cache.get(key)
        if found is None:
            cache.add(key, time.time_ns(), timeout=None)
            found = cache.get(key)
        return int(found) if found is not None else time.time_ns()
    except Exception:  # noqa: BLE001 - the cache is down: a version nobody has
        return time.time_ns()


def bump(tournament_id: int) -> int:
    """A change was committed: the next document is a new version."""
    key = _version_key(tournament_id)
    try:
        return int(cache.incr(key))
    except ValueError:  # not kept yet (or lost): start it
        cache.add(key, time.time_ns(), timeout=None)
        return version(tournament_id)
    except Exception:  # noqa: BLE001 - the cache is down: readers get a fresh rendering
        return time.time_ns()


def cached_document(tournament: Tournament, now: datetime) -> tuple[str, str]:
    """The event's document as JSON text and its ETag: rendered once per version and
    kept for every reader of that version."""
    current = version(tournament.pk)
    key = f"feed:document:{tournament.pk}:{current}"
    try:
        kept = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: render for this reader
        kept = None
    if kept is not None:
        return kept
    text = json.dumps(document(tournament, now, version=current), separators=(",", ":"))
    etag = f'"{tournament.pk}-{current}-{int(now.timestamp()) // DOCUMENT_SECONDS}"'
    # Not kept (the cache is down): the next reader renders again.
    with contextlib.suppress(Exception):
        cache.set(key, (text, etag), timeout=DOCUMENT_SECONDS)
    return text, etag


# --- The sections ----------------------------------------------------------------------


def _clock(tournament: Tournament, now: datetime, *, levels: bool) -> dict[str, Any]:
    return _clock_section(selectors.clock_payload(tournament, now, with_items=levels))


def _clock_section(payload: dict[str, Any]) -> dict[str, Any]:
    """The feed's clock: the screens' clock message, less what only a screen uses."""
    keep = (
        "status",
        "server_time",
        "index",
        "is_break",
        "level",
        "duration_seconds",
        "remaining_seconds",
        "ends_at",
        "starts_at",
        "next_level",
        "next_break_in_seconds",
        "late_registration_open",
        "hand_for_hand",
        "items",
    )
    section = {key: payload[key] for key in keep if key in payload}
    if "items" in section:
        # The whole structure, so a follower rolls levels over by itself (as the screens do).
        section["levels"] = section.pop("items")
    return section


def _figures(tournament: Tournament) -> dict[str, Any]:
    figures = selectors.screen_figures(tournament)
    return {
        "entries": figures.get("entries", 0),
        "players_left": figures.get("players_left", 0),
        "average_stack": figures.get("average_stack", 0),
        "chips_in_play": figures.get("chips_in_play", 0),
        "prize_pool": figures.get("prize_pool") or 0,
        "paid_places": figures.get("paid_places", 0),
        "currency": tournament.currency,
    }


def _elimination_row(entry: Entry) -> dict[str, Any]:
    return {
        "entry": entry.pk,
        "number": entry.number,
        "name": str(entry.player),
        "place": entry.place,
        "prize": entry.prize,
        "at": entry.ended_at.isoformat() if entry.ended_at else None,
    }


def _eliminations(
    tournament: Tournament, *, limit: int | None, keys: list[int] | None = None
) -> list[dict[str, Any]]:
    """Busted entries, the latest first (the winner too, once decided); `keys`: only
    those entries (the ones a change named)."""
    rows = Entry.objects.filter(tournament=tournament, place__isnull=False)
    if keys is not None:
        rows = rows.filter(pk__in=keys)
    rows = rows.select_related("player").order_by("place", "-ended_at", "number")
    if limit is not None:
        rows = rows[:limit]
    return [_elimination_row(entry) for entry in rows]


def _payouts(tournament: Tournament) -> dict[str, Any]:
    board = selectors.payouts_board(tournament)
    return {
        "prize_pool": board["prize_pool"],
        "currency": board["currency"],
        "places": board["places"],
        "in_the_money": board["in_the_money"],
        "on_the_bubble": board["on_the_bubble"],
    }


def _chip_counts(tournament: Tournament) -> list[dict[str, Any]]:
    """Today's counts as they were entered (bagged or counted at a table), with when, the
    players still in first, biggest first."""
    rows = (
        ChipCount.objects.filter(tournament=tournament, day=tournament.day)
        .select_related("entry__player")
        .order_by("-chips", "entry__number")
    )
    return [
        {
            "entry": count.entry_id,
            "number": count.entry.number,
            "name": str(count.entry.player),
            "chips": count.chips,
            "table": count.table,
            "bag": count.bag or None,
            "counted_at": count.counted_at.isoformat(),
            "playing": count.entry.status == Entry.Status.ACTIVE,
        }
        for count in rows
    ]


def _final_table(tournament: Tournament, *, left: int | None = None) -> dict[str, Any] | None:
    """The final table once every player left sits at one open table: its seats with
    each player's last count; None before. `left`: the players still in, when known
    (more than a table seats: no final table, nothing read)."""
    if left is not None and left > tournament.seats_per_table:
        return None
    open_tables = list(
        Table.objects.filter(tournament=tournament, status=Table.Status.OPEN).values_list(
            "pk", "number"
        )[:2]
    )
    if len(open_tables) != 1:
        return None
    table_pk, number = open_tables[0]
    seats = list(
        Seat.objects.filter(table_id=table_pk, entry__isnull=False)
        .select_related("entry__player")
        .order_by("number")
    )
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if not seats or len(seats) != left:
        return None
    counts = dict(
        ChipCount.objects.filter(
            tournament=tournament, day=tournament.day, entry__in=[s.entry_id for s in seats]
        ).values_list("entry_id", "chips")
    )
    return {
        "table": number,
        "seats": [
            {
                "seat": seat.number,
                "entry": seat.entry_id,
                "number": seat.entry.number,
                "name": str(seat.entry.player),
                "chips": counts.get(seat.entry_id),
            }
            for seat in seats
        ],
    }


def hand_names(ruling: Ruling, hand: Hand) -> list[str]:
    """The players' names in PHH order (p1..pN, from the small blind), safe for its
    quoted strings; a seat without a name is called by its number."""
    order = clockwise_from(hand.setup.button, hand.seats)
    return [
        _UNSAFE_NAME.sub("", ruling.names.get(str(s), "")) or _("Seat %(seat)s") % {"seat": s}
        for s in order
    ]


def hand_text(ruling: Ruling, hand: Hand, tournament: Tournament) -> str:
    """A readable hand history in the active language: the setup, every step with the
    engine's answer, the board and who won."""
    setup = hand.setup
    view = presentation.hand_view(hand, ruling.names)
    lines = [
        _("%(event)s, table %(table)s, featured hand %(id)s")
        % {"event": tournament.name, "table": ruling.table_number or "-", "id": ruling.pk},
        _("Blinds %(sb)s/%(bb)s, ante %(ante)s, button seat %(button)s")
        % {"sb": setup.sb, "bb": setup.bb, "ante": setup.ante, "button": setup.button},
    ]
    for row in view.seats:
        name = row.name or _("Seat %(seat)s") % {"seat": row.seat}
        lines.append(
            _("Seat %(seat)s: %(name)s (%(chips)s in chips)")
            % {"seat": row.seat, "name": name, "chips": row.start}
        )
    for step in view.steps:
        line = f"{step.number}. {step.recorded}"
        if step.answer:
            line += f" - {step.answer}"
        lines.append(line)
    if view.board:
        lines.append(_("Board: %(cards)s") % {"cards": view.board})
    for pot, seats in view.winners:
        winners = ", ".join(
            ruling.names.get(str(s), "") or _("Seat %(seat)s") % {"seat": s} for s in seats
        )
        lines.append(_("%(pot)s goes to %(winners)s.") % {"pot": pot, "winners": winners})
    finals = [row for row in view.seats if row.final is not None]
    if finals:
        lines.append(
            _("Final stacks: %(stacks)s")
            % {"stacks": ", ".join(f"{row.seat}: {row.final}" for row in finals)}
        )
    if ruling.note:
        lines.append(_("Floor's decision: %(note)s") % {"note": ruling.note})
    return "\n".join(lines) + "\n"


def featured_hand(ruling: Ruling, tournament: Tournament) -> dict[str, Any] | None:
    """A published hand as the feed shows it: PHH (as the engine writes it) and plain
    text in each language; None for a hand the engine no longer replays."""
    try:
        hand = Hand.from_dict(ruling.hand)
        with translation.override("en"):
            phh = export_phh(hand, names=hand_names(ruling, hand))
        text = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                text[code] = hand_text(ruling, hand, tournament)
    except EngineError:
        return None
    return {
        "id": ruling.pk,
        "table": ruling.table_number,
        "published_at": ruling.published_at.isoformat() if ruling.published_at else None,
        "phh": phh,
        "text": text,
    }


def _featured_hands(tournament: Tournament) -> list[dict[str, Any]]:
    rulings = Ruling.objects.filter(tournament=tournament, published_at__isnull=False).order_by(
        "-published_at", "-pk"
    )
    return [row for row in (featured_hand(r, tournament) for r in rulings) if row is not None]


def _event(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "game": tournament.game,
        "status": tournament.status,
        "day": tournament.day,
        "currency": tournament.currency,
        "buy_in": tournament.buy_in_prize,
        "fee": tournament.buy_in_fee,
        "starting_stack": tournament.starting_stack,
    }


# --- The document and the updates ------------------------------------------------------


def document(tournament: Tournament, now: datetime, *, version: int) -> dict[str, Any]:
    """Everything the feed shows of the event (`type` "event")."""
    return {
        "type": "event",
        "v": API_VERSION,
        "version": version,
        "event": _event(tournament),
        "clock": _clock(tournament, now, levels=True),
        "figures": _figures(tournament),
        "payouts": _payouts(tournament),
        "eliminations": _eliminations(tournament, limit=None),
        "chip_counts": _chip_counts(tournament),
        "final_table": _final_table(tournament),
        "featured_hands": _featured_hands(tournament),
    }


def update(
    tournament: Tournament, push: dict[str, Any], now: datetime, *, version: int
) -> dict[str, Any] | None:
    """What a follower is told of a change the screens were told of (`push`), with the
        sections it altered; None when it alters nothing the feed shows. Its `type` is the
        push's; `eliminations` holds the busts an elimination recorded (other changes: the latest
    ten), which the follower merges by `entry`."""
    kind = str(push.get("type") or "")
    if kind in NOT_IN_FEED:
        return None
    sections = _SECTIONS.get(kind, _DEFAULT_SECTIONS)
    out: dict[str, Any] = {"type": kind, "v": API_VERSION, "version": version}
    out["event"] = {"id": tournament.pk, "status": tournament.status}
    if kind == "clock":
        # The screens' clock message is this one: read once by the change, not again here.
        out["clock"] = _clock_section(push)
    elif "clock" in sections:
        out["clock"] = _clock(tournament, now, levels=kind == "structure")
    if "figures" in sections:
        out["figures"] = _figures(tournament)
    if "eliminations" in sections:
        # A bust names its entries (and the winner's, once one is left): only those.
        named = [row.get("entry") for row in push.get("out") or [] if isinstance(row, dict)]
        keys = [key for key in named if isinstance(key, int)] if kind == "elimination" else None
        out["eliminations"] = _eliminations(tournament, limit=RECENT, keys=keys)
    if "payouts" in sections:
        out["payouts"] = _payouts(tournament)
    if "chip_counts" in sections:
        out["chip_counts"] = _chip_counts(tournament)
    if "final_table" in sections:
        left = out["figures"]["players_left"] if "figures" in out else None
        out["final_table"] = _final_table(tournament, left=left)
    if "featured_hands" in sections:
        out["featured_hands"] = _featured_hands(tournament)
    return out

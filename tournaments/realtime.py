"""Group names and broadcasting: one module owns them (STYLE.md 10-11).

Services call `broadcast_*` inside their transaction; the message leaves after commit, so
a rolled-back action never reaches a screen. A broadcast that fails (Redis down or
restarting) is logged and dropped: the action is already committed, and every screen gets
the whole state again when it reconnects (the consumers close their sockets when the
channel layer fails, see tournaments/sockets/layerwatch.py).

A push carries what the screens show (DESIGN.md): the fragments a change alters are
rendered once, after commit, and travel in it, so a change costs one render at a thousand
screens, not a thousand (`manage.py bench fanout`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from config.speedups import prepared, switch
from config.speedups.prepared import NO_ID, Prepared
from tournaments import selectors
from tournaments.models import DisplayScreen, TimeCall, Tournament
from tournaments.selectors import feed as feed_selectors
from tournaments.selectors import formats as format_selectors

logger = logging.getLogger(__name__)

T = TypeVar("T")


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def table_group(tournament_id: int, table_number: int) -> str:
    return f"tournament.{tournament_id}.table.{table_number}"


def feed_group(tournament_id: int) -> str:
    """The event's live feed: its public stream's followers and its stream overlays. They
    get the feed's updates (tournaments/selectors/feed.py), not the screens' pushes."""
    return f"tournament.{tournament_id}.feed"


def tablets_group(tournament_id: int) -> str:
    """Every table tablet of the tournament, whichever its table: nothing is sent to it;
    whether anybody is in it tells a push whether to ask about the tables it names."""
    return f"tournament.{tournament_id}.tablets"


def _send(group: str, payload: dict[str, Any]) -> None:
    _send_many((group,), payload)


def _blocking(call: Callable[[], Awaitable[T]]) -> T:
    """Run a channel-layer call from sync code and wait for its result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return async_to_sync(call)()
    # A sync caller on a thread that runs an event loop cannot block on it: call from a
    # short-lived worker thread instead.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(async_to_sync(call)).result()


# What Redis said of a group is kept a while, so most pushes ask nothing before they
# render: asking was a trip to Redis, through the server's event loop, before anything
# was rendered (about a millisecond of an elimination's first screen, `bench fanout
# --phases`). A group heard stays heard for HEARD_FOR seconds: a group that has lost its
# last socket costs at most a render nobody reads. A group not heard is asked about again
# after UNHEARD_FOR seconds, or at once when a socket of this process joins it
# (`heard_anew`): a screen of another process that has just come may get a push without
# its fragments for those seconds, and fetches them, as a screen does for any fragment a
# push leaves out. Before this, an elimination at a table with no tablet asked about
# that table every time; kept a second, a room without tablets still asked at one push in
# two (`bench fanout --phases`).
HEARD_FOR = 5.0
UNHEARD_FOR = 5.0


def listening(groups: tuple[str, ...], *, now: float | None = None) -> set[str]:
    """Which of `groups` a socket may be in (else there is nobody to render a fragment
    for), asked in one trip to the channel layer.

    The in-memory layer is the whole room in this process; with Redis, each group's
    members are counted (a member of a process that died counts until it expires: in
    doubt, render), and the answer is kept for HEARD_FOR seconds (heard) or UNHEARD_FOR
    (not heard) (`now`: monotonic seconds, the clock's by default).

    Without the speedups (config/speedups/switch.py) nobody is asked: every group may be heard."""
    layer = get_channel_layer()
    if layer is None:
        return set()
    if not switch.on("fragments"):
        return set(groups)
    local = getattr(layer, "groups", None)
    if isinstance(local, dict):
        return {group for group in groups if local.get(group)}
    at = time.monotonic() if now is None else now
    kept: dict[str, tuple[float, bool]] = getattr(layer, "_torneo_heard", None) or {}
    known = {group: kept[group][1] for group in groups if kept.get(group, (at, False))[0] > at}
    asked = tuple(group for group in groups if group not in known)
    if not asked:
        return {group for group, heard in known.items() if heard}
    try:

        async def members() -> set[str]:
            # One pipeline per Redis host: a break names a dozen tables, and a trip each
            # was a dozen round trips before anything was rendered.
            hosts: dict[int, list[str]] = {}
            for group in asked:
                hosts.setdefault(layer.consistent_hash(group), []).append(group)
            found = set()
            for index, named in hosts.items():
                pipe = layer.connection(index).pipeline(transaction=False)
                for group in named:
                    pipe.zcard(layer._group_key(group))
                counts = await pipe.execute()
                found.update(group for group, count in zip(named, counts, strict=True) if count)
            return found

        found = _blocking(members)
    except Exception:  # noqa: BLE001 - an unknown layer, or Redis down: render in doubt
        return set(groups)
    # A new mapping each time (the request threads share the layer), without the expired.
    fresh = {group: entry for group, entry in kept.items() if entry[0] > at}
    for group in asked:
        heard = group in found
        fresh[group] = (at + (HEARD_FOR if heard else UNHEARD_FOR), heard)
    layer._torneo_heard = fresh
    return {group for group, heard in known.items() if heard} | found


def heard_anew(layer: Any, groups: Iterable[str]) -> None:
    """A socket of this process has joined `groups`: forget that any was not heard, so the
    next push renders for it."""
    kept: dict[str, tuple[float, bool]] | None = getattr(layer, "_torneo_heard", None)
    groups = set(groups)
    if kept and any(group in kept and not kept[group][1] for group in groups):
        layer._torneo_heard = {
            group: entry for group, entry in kept.items() if entry[1] or group not in groups
        }


def _send_many(groups: tuple[str, ...], payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    # Payloads must be plain JSON: fail loudly on a stray datetime (STYLE.md 14). Encoded
    # once here, not once per socket: a clock change reaches a thousand phones, and the
    # in-memory layer deep-copies the message for each of them.
    # A "close" payload closes the sockets instead; its reason picks the close code
    # (tournaments/sockets/codes.py): "rights" is come back, anything else is revoked.
    close = payload.get("type") == "close" and str(payload.get("reason") or "revoked")
    message = {"type": "push", "text": json.dumps(payload), "close": close}

    async def send_all() -> None:
        # One hop into the event loop for every group (a move reaches three, a break a
        # dozen): their group sends go side by side.
        if len(groups) == 1:
            await layer.group_send(groups[0], message)
        else:
            await asyncio.gather(*(layer.group_send(group, message) for group in groups))

    try:
        _blocking(send_all)
    except Exception:  # noqa: BLE001 - the layer is down: the action stands, screens resync
        logger.warning(
            "broadcast to %s failed; screens resync on reconnect", ", ".join(groups), exc_info=True
        )


# Pushes that change nothing the clock screen's figures show: no figures are rendered
# for them, and the screens are told so (`same_figures`), so none asks for them either.
# A move changes who sits where, not the field, the stacks or the tables open (a table
# that opens or closes has its own push).
NO_FIGURES = frozenset({"clock", "close", "timecall", "move", "featured_hand"})

# Pushes that change nothing a table's tablet shows below its clock (seats, time call,
# chip race, hand reports): they name no table (`at_tables` is empty), so no tablet
# reloads its seats for them.
NO_TABLES = frozenset(
    {
        "clock",
        "figures",
        "payouts",
        "deal",
        "structure",
        "buttons",
        "mystery_draw",
        "seats_awarded",
        "featured_hand",
    }
)

# Pushes whose only change at the tables they name is the list of seats (who sits where,
# with his bounty and penalty): the push brings each named table's list, rendered once
# for the change, and the tablets there swap it in without asking the server again.
SEAT_LISTS = frozenset({"seat", "elimination", "move", "bounty", "penalty", "penalties"})


def screen_fragments(
    tournament_id: int, *, figures: bool = True, tournament: Tournament | None = None
) -> dict[str, dict[str, str]]:
    """What the screens show beside the clock, rendered once per change (not once per
    screen), in each language a screen may be in: the clock screen's figures (unless
    `figures` is false), and the seating board while it has one page. `tournament`: the
    row as read after the change's commit, when the caller has it."""
    if tournament is None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {}
    fragments = {}
    if figures:
        context = {
            "tournament": tournament,
            "figures": selectors.screen_figures(tournament),
            "formats": format_selectors.screen_formats(tournament, timezone.now()),
        }
        rendered = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                rendered[code] = render_to_string("displays/_figures.html", context)
        fragments["figures"] = rendered
    board = _seating_board(tournament)
    if board:
        fragments["board"] = board
    return fragments


# Whether the room has a seating screen: read for every push, compiled once
# (config/speedups/prepared.py).
_SEATING_SCREENS = Prepared(
    lambda tournament_id: DisplayScreen.objects.filter(
        tournament_id=tournament_id, kind=DisplayScreen.Kind.SEATING, revoked=False
    ).values_list("pk")[:1],
    tournament_id=NO_ID,
)


def _seating_board(tournament: Tournament) -> dict[str, str]:
    """The seating board while it fits one page (every board shows the same then), for
    the room's seating screens; none when there are none. A board of several pages
    turns them by itself."""
    if not _SEATING_SCREENS.rows(tournament_id=tournament.pk):
        return {}
    rows, pages = selectors.seating_page(tournament, page=1, with_entry=True)
    if pages > 1:
        return {}
    context = {
        "tournament": tournament,
        "rows": rows,
        "page": 1,
        "pages": 1,
        "next_page": 1,
        "index": [],
    }
    board = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            board[code] = render_to_string("displays/seating.html#board", context)
    return board


# Each tournament's day and parent as its last push read them in this process. What the
# figures read depends on them, so the next push reads it beside the tournament's row, in
# one trip (prepared.ahead): a guess the row may prove wrong, and then those reads are made
# again, after it.
_SEEN: dict[int, tuple[int, int | None]] = {}


def _push_reads(
    tournament_id: int, kind: Any
) -> tuple[list[tuple[Prepared[Any], dict[str, Any]]], list[Any]]:
    """What rendering a push of `kind` reads (`prepared.ahead` takes them)."""
    reads, joined = selectors.screen_reads(
        tournament_id, seen=_SEEN.get(tournament_id), figures=kind not in NO_FIGURES
    )
    return [*reads, (_SEATING_SCREENS, {"tournament_id": tournament_id})], joined


def _renders(kind: Any) -> bool:
    """Whether a push of `kind` brings fragments (else it goes as it is)."""
    return not (kind in NO_FIGURES and kind not in SEAT_LISTS)


def _may_be_heard(group: str) -> bool:
    """Whether a socket may be in `group`, from what is known without asking Redis (a
    group not asked about lately may be)."""
    layer = get_channel_layer()
    if layer is None:
        return False
    if not switch.on("fragments"):
        return True
    local = getattr(layer, "groups", None)
    if isinstance(local, dict):
        return bool(local.get(group))
    kept = (getattr(layer, "_torneo_heard", None) or {}).get(group)
    return kept is None or kept[0] <= time.monotonic() or kept[1]


def with_fragments(
    tournament_id: int, payload: dict[str, Any], *, ready: prepared.Riding | None = None
) -> dict[str, Any]:
    """`payload` with the fragments its change alters, so no screen asks for them again.

    Rendered only when a socket may hear it: a desk registering with no screen in the
    room pays nothing. A fragment that cannot be rendered is left out: the screens fetch
    it as before. `ready`: its reads, made with the change's COMMIT (`broadcast`); `row`: the tournament as the change
    wrote it, when the change had it in hand."""
    kind = payload.get("type")
    if kind in NO_FIGURES and kind not in {"clock", "close"}:
        payload = {**payload, "same_figures": True}
    if not _renders(kind):
        return payload
    tables = (payload.get("at_tables") or []) if kind in SEAT_LISTS else []
    # The room's group, and whether it has tablets at all: both known, most pushes, without
    # a trip (HEARD_FOR). Only then the named tables' groups, asked about in one trip.
    room = tournament_group(tournament_id)
    heard = listening((room, tablets_group(tournament_id)) if tables else (room,))
    if room not in heard:
        return payload
    if tablets_group(tournament_id) in heard:
        heard = listening(tuple(table_group(tournament_id, n) for n in tables))
    figures = kind not in NO_FIGURES
    try:
        with prepared.ahead(*_push_reads(tournament_id, kind), ready=ready):
            # Read once, after the commit, for the figures and the tables' seat lists.
            tournament = selectors.tournament_by_pk(tournament_id)
            if tournament is None:
                return payload
            if switch.on("fragments"):
                _SEEN[tournament_id] = (tournament.day, tournament.parent_id)
            fragments = screen_fragments(tournament_id, figures=figures, tournament=tournament)
    except Exception:  # noqa: BLE001 - the action is committed; the screens fetch instead
        logger.warning("could not render the screens' fragments", exc_info=True)
        return payload
    # Only the tables with a tablet listening: most rooms have none, and a list asked
    # for nothing still cost a push the ORM's work of a query.
    tablets = [n for n in tables if table_group(tournament_id, n) in heard]
    if tablets:
        try:
            lists = _seat_lists(tournament, tablets)
        except Exception:  # noqa: BLE001 - as above: the tablets fetch their seats instead
            logger.warning("could not render the tablets' seat lists", exc_info=True)
        else:
            if lists:
                fragments = {**fragments, "seats": lists}
    return {**payload, "fragments": fragments} if fragments else payload


def _seat_lists(tournament: Tournament, numbers: list[int]) -> dict[str, dict[str, str]]:
    """The seat list of each named table (the caller names those with a tablet
    listening), in each language: the same list the tablet's page shows
    (displays/table.html#seat_list)."""
    tournament_id = tournament.pk
    seats = selectors.tables_seats(tournament, numbers)
    # The tables with a time call running, in one query for all of them.
    calling = set(
        TimeCall.objects.filter(
            tournament_id=tournament_id,
            table_number__in=list(seats),
            outcome=TimeCall.Outcome.RUNNING,
        ).values_list("table_number", flat=True)
    )
    lists: dict[str, dict[str, str]] = {}
    for number in numbers:
        context = {"seats": seats.get(number, []), "timecall": number in calling}
        rendered = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                rendered[code] = render_to_string("displays/table.html#seat_list", context)
        lists[str(number)] = rendered
    return lists


def broadcast(
    tournament_id: int,
    payload: dict[str, Any],
    *,
    tables: tuple[int, ...] | None = None,
    row: Tournament | None = None,
) -> None:
    """Send `payload` to the tournament's screens (and the named tables) after commit.

    The fragments the change alters are rendered once, after commit, and travel in the
    push (DESIGN.md: a screen never answers a push by asking the server again). A push
    about some tables names them (`at_tables`): the other tables' tablets ignore it; a push
    that changes nothing at any table (NO_TABLES) names none. A push about the seats of
    some tables (SEAT_LISTS) brings their lists. `tables=None`: the push does not know
    which tables it changes, and every tablet reloads its seats.
    """

    named = tables or ()
    groups = (tournament_group(tournament_id), *(table_group(tournament_id, n) for n in named))
    if tables is not None:
        payload = {**payload, "at_tables": sorted(set(tables))}
    elif payload.get("type") in NO_TABLES:
        payload = {**payload, "at_tables": []}

    # What its fragments read goes with the COMMIT, in its trip (prepared.with_commit),
    # when a screen may hear it: not a trip of its own after it.
    ready = feed_ready = None
    kind = payload.get("type")
    if _renders(kind) and _may_be_heard(tournament_group(tournament_id)):
        ready = prepared.with_commit(*_push_reads(tournament_id, kind))
    elif kind not in feed_selectors.NOT_IN_FEED and _may_be_heard(feed_group(tournament_id)):
        # Nobody watches a screen, somebody follows the feed: its update reads the same.
        feed_ready = prepared.with_commit(*_push_reads(tournament_id, kind))

    def send() -> None:
        _send_many(groups, with_fragments(tournament_id, payload, ready=ready))
        send_feed(tournament_id, payload, ready=feed_ready, row=row)

    transaction.on_commit(send)


def send_feed(
    tournament_id: int,
    payload: dict[str, Any],
    *,
    ready: prepared.Riding | None = None,
    row: Tournament | None = None,
) -> None:
    """Tell the feed's followers and overlays what `payload` (a push the screens were just
    sent) changed: the event's feed version moves on, and the update is rendered once, here,
    for every follower of every server process, only when somebody follows. `ready`: its
    reads, made with the change's COMMIT (`broadcast`); `row`: the tournament as the change
    wrote it, when the change had it in hand."""
    if payload.get("type") in feed_selectors.NOT_IN_FEED:
        return
    try:
        current = feed_selectors.bump(tournament_id)
        group = feed_group(tournament_id)
        if group not in listening((group,)):
            return
        # The row and the figures read in one trip (with the COMMIT's, `ready`), as a
        # screens' push reads them.
        with prepared.ahead(*_push_reads(tournament_id, payload.get("type")), ready=ready):
            tournament = row if row is not None else selectors.tournament_by_pk(tournament_id)
            if tournament is None:
                return
            if switch.on("fragments"):
                _SEEN[tournament_id] = (tournament.day, tournament.parent_id)
            update = feed_selectors.update(tournament, payload, timezone.now(), version=current)
    except Exception:  # noqa: BLE001 - the action is committed; followers resync on reconnect
        logger.warning("could not render the feed's update", exc_info=True)
        return
    if update is not None:
        _send(group, update)


def screen_group(screen_id: int) -> str:
    """One screen's own group: revoking it closes its open sockets."""
    return f"screen.{screen_id}"


def broadcast_to_screen(screen_id: int, payload: dict[str, Any]) -> None:
    """Send `payload` to one screen's sockets after commit."""
    transaction.on_commit(lambda: _send(screen_group(screen_id), payload))


def user_group(user_id: int) -> str:
    """One person's sockets, all tournaments: a change of role closes them."""
    return f"user.{user_id}"


def session_group(session_key: str) -> str:
    """The sockets one login session opened: logging out closes them. The key is a
    secret, so the group is named by a digest of it."""
    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def close_user_sockets(user_id: int) -> None:
    """Close every socket the person has open (after commit): their screens reconnect and
    are authorised afresh with the role they hold now."""
    payload = {"type": "close", "reason": "rights"}
    transaction.on_commit(lambda: _send(user_group(user_id), payload))


def close_session_sockets(session_key: str) -> None:
    """Close the sockets a session opened (it is logging out): they come back anonymous."""
    payload = {"type": "close", "reason": "rights"}
    transaction.on_commit(lambda: _send(session_group(session_key), payload))


# --- the cash room: one room-wide group, no tournament -------------------------

CASH_GROUP = "cash.room"


def broadcast_cash(action: str) -> None:
    """Tell every cash screen, after commit, that the room changed (`action` names what)."""

    def send() -> None:
        _send(CASH_GROUP, {"type": "cash", "v": 1, "action": action})

    transaction.on_commit(send)

"""The event log: every floor action is a row, and undo is a service too."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.speedups import prepared
from tournaments.errors import CannotUndo
from tournaments.models import (
    ChipAdjustment,
    Deal,
    DisplayScreen,
    Entry,
    Event,
    IdCheck,
    Penalty,
    Player,
    Purchase,
    Reservation,
    Ruling,
    SeatTicket,
    TimeCall,
    Tournament,
)

UndoHandler = Callable[[Event, Any, datetime], None]
_UNDO: dict[str, UndoHandler] = {}


_CASCADES: set[str] = set()


def undoes(action: str, *, cascades: bool = False) -> Callable[[UndoHandler], UndoHandler]:
    """Register the function that reverses events of one action. `cascades`: its undo also
    takes back what later actions built on the same rows (the handler does), so later
    actions do not hold it back (`later_change`)."""

    def register(handler: UndoHandler) -> UndoHandler:
        _UNDO[action] = handler
        if cascades:
            _CASCADES.add(action)
        return handler

    return register


def event_log(
    *,
    tournament: Tournament,
    actor: AbstractBaseUser | None,
    action: str,
    data: dict[str, Any],
    now: datetime,
    undoable: bool = True,
    later: bool = False,
) -> Event:
    """Append an audit row. Call inside the transaction that made the change.

    `later`: the caller needs not the row's key, and the row goes with the transaction's
    next trip to the database, its COMMIT most often (prepared.create_later): the Event
    comes back without its key."""
    values = {
        "tournament": tournament,
        "at": now,
        "actor": actor if actor is not None and actor.is_authenticated else None,
        "action": action,
        "data": data,
        "undoable": undoable and action in _UNDO,
    }
    if later:
        return prepared.create_later(Event, **values)
    return Event.objects.create(**values)


# --- What an undo may read and write ---------------------------------------------------
# An event's payload may come from an imported file: an undo handler never trusts it. It
# reads ids through `logged_id(s)` (ints only) and rows through `scoped(Model, event)`
# (only the event's own tournament), and restores only fields its service logs.

_SCOPE = {
    "Tournament": "pk",
    "Entry": "tournament_id",
    "Purchase": "entry__tournament_id",
    "IdCheck": "tournament_id",
    "Deal": "tournament_id",
    "Penalty": "tournament_id",
    "TimeCall": "tournament_id",
    "ChipAdjustment": "tournament_id",
    "ChipDenomination": "tournament_id",
    "Table": "tournament_id",
    "Seat": "table__tournament_id",
    "Ruling": "tournament_id",
    "SeatTicket": "satellite_id",
    "BountyAward": "tournament_id",
    "Envelope": "tournament_id",
    "Reservation": "tournament_id",
}


def scoped(model: Any, event: Event) -> Any:
    """`model`'s rows that belong to the event's tournament (a queryset)."""
    return model.objects.filter(**{_SCOPE[model.__name__]: event.tournament_id})


def logged_id(event: Event, key: str) -> int:
    """The id the event logged under `key`; refuse anything but a whole number."""
    value = event.data.get(key) if isinstance(event.data, dict) else None
    if type(value) is not int:
        raise CannotUndo(reason=_("its log row is damaged"))
    return value


def logged_ids(event: Event, key: str) -> list[int]:
    """The ids the event logged under `key` (a list); refuse anything but whole numbers."""
    values = event.data.get(key) if isinstance(event.data, dict) else None
    if not isinstance(values, list) or any(type(v) is not int for v in values):
        raise CannotUndo(reason=_("its log row is damaged"))
    return values


def logged_fields(event: Event, key: str, allowed: Iterable[str]) -> dict[str, Any]:
    """The field values the event logged under `key`, only among `allowed` (never a key,
    a slug, a parent, a player or a tournament)."""
    values = event.data.get(key) if isinstance(event.data, dict) else None
    if not isinstance(values, dict) or not set(values) <= set(allowed):
        raise CannotUndo(reason=_("its log row is damaged"))
    return values


def can_undo(event: Event) -> bool:
    return event.undoable and event.undone_at is None and event.action in _UNDO


# --- Undo in order ----------------------------------------------------------------------
# An undo puts back the state its action found. A later action that named the same rows
# (an entry, a purchase, a time call...) or the same seats changed that state since: undoing
# the earlier one would leave a ghost (an eliminated player back in a seat, a voided entry
# seated by its move). Whatever the handler, the undo refuses and names the later action.

# Rows every action may name without changing them: a player is shared by all his entries
# (a re-entry names him too); an undo row names the event it undid.
_NOT_STATE = (Player, Event)

# What of an entry an action changes. An action changes all of any other row it names (its
# own purchase, deal, time call...), and all of an entry unless listed here ("*": every
# entry the payload names). Two actions depend on each other when they change the same
# thing of the same row, or the same seat.
EVERYTHING = "*"
_SEATING = frozenset({"seat"})
_ENTRY_PARTS: dict[str, dict[str, frozenset[str]]] = {
    "entry.eliminate": {"*": frozenset({"status", "seat"})},
    "entry.rebuy": {"entry": frozenset({"chips"})},
    "entry.addon": {"entry": frozenset({"chips"})},
    "seat.move": {"*": _SEATING},
    "seat.arrive": {"*": _SEATING},
    "seats.draw": {"*": _SEATING},
    "room.balance": {"*": _SEATING},
    "room.break": {"*": _SEATING},
    "room.final_table": {"*": _SEATING},
    "deal.record": {"*": frozenset({"deal"})},
    "chips.color_up": {"*": frozenset({"chips"})},
    "chips.leftovers": {"*": frozenset({"chips"})},
    "chips.bag": {"*": frozenset({"chips"})},
    "bounty.award": {"*": frozenset({"bounty"})},
    "bounty.own": {"*": frozenset({"bounty"})},
    "bounty.forfeit": {"*": frozenset({"bounty"})},
    "mystery.draw": {"*": frozenset({"bounty"})},
}
# Actions that seat or unseat players: the seats their payload names are theirs.
_SEATS_CHANGED_BY = frozenset(
    {
        "entry.register",
        "entry.eliminate",
        "seat.move",
        "seat.arrive",
        "seats.draw",
        "room.balance",
        "room.break",
        "room.final_table",
        "seat.lock",
    }
)

_ALL = frozenset({EVERYTHING})
# Actions whose undo puts back a whole piece of state as it was before them: a later action
# that set the same piece again would be lost.
_WHOLE = {
    "structure.set": "structure",
    "chips.set": "chip set",
    "payouts.set": "payouts",
    "envelopes.publish": "envelopes",
    "day.next": "playing day",
}
_PER_TABLE = {
    "table.update": "table settings",
    "table.status": "table status",
    "table.button": "positions",
    "table.button_draw": "positions",
    "table.hand": "positions",
}


def _state_pieces(action: str, data: dict[str, Any]) -> set[tuple[str, Any]]:
    """Pieces of state (not rows) the action sets, as its undo puts them back."""
    if action in _WHOLE:
        return {(_WHOLE[action], None)}
    if action == "tournament.update" and isinstance(data.get("before"), dict):
        return {("setting", name) for name in data["before"]}
    if action == "table.renumber":
        return {("table number", data.get("before")), ("table number", data.get("after"))}
    if action in _PER_TABLE:
        tables = [data.get("table")]
        if "table" not in data and isinstance(data.get("before"), dict):
            tables = list(data["before"])
        return {(_PER_TABLE[action], str(n)) for n in tables if n is not None}
    return set()


def _seat(pair: Any) -> tuple[int, int] | None:
    if isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair):
        return pair[0], pair[1]
    return None


def touched(event: Event) -> dict[tuple[str, Any], frozenset[str]]:
    """The rows and seats an action changed, as its payload names them, with what of each
    it changed (`EVERYTHING` for all of it)."""
    data = event.data if isinstance(event.data, dict) else {}
    parts = _ENTRY_PARTS.get(event.action, {})
    found: dict[tuple[str, Any], frozenset[str]] = {}

    def add(key: tuple[str, Any], what: frozenset[str]) -> None:
        found[key] = found.get(key, frozenset()) | what

    for path, model in payload_refs(event.action, data) or ():
        if model in _NOT_STATE:
            continue
        for value in values_at(data, path.split(".")):
            if model == SLUG:
                if isinstance(value, str) and value:
                    add((SLUG, value), _ALL)
                continue
            if isinstance(value, str) and value.isascii() and value.isdigit():
                value = int(value)
            if type(value) is int and value > 0:
                what = _ALL
                if model.__name__ == "Entry":
                    what = parts.get(path) or parts.get("*") or _ALL
                add((model.__name__, value), what)
    if event.action in _SEATS_CHANGED_BY:
        pairs = [data.get("from"), data.get("to"), data.get("forfeited_seat")]
        if type(data.get("table")) is int and type(data.get("seat")) is int:
            pairs.append([data["table"], data["seat"]])
        for move in data.get("moves") or []:
            if isinstance(move, dict):
                pairs += [move.get("from"), move.get("to")]
        for key in ("seats", "assignments"):
            if isinstance(data.get(key), dict):
                pairs += list(data[key].values())
        for seat in map(_seat, pairs):
            if seat is not None:
                add(("seat", seat), _ALL)
    for piece in _state_pieces(event.action, data):
        add(piece, _ALL)
    return found


def _overlap(mine: dict, theirs: dict) -> bool:
    for key, what in theirs.items():
        other = mine.get(key)
        if other is not None and (EVERYTHING in what or EVERYTHING in other or what & other):
            return True
    return False


def later_change(event: Event) -> Event | None:
    """The latest action after `event`, still standing, that changed what it changed."""
    mine = touched(event) if event.action not in _CASCADES else {}
    if not mine:
        return None
    later = (
        Event.objects.filter(
            tournament_id=event.tournament_id,
            pk__gt=event.pk,
            undone_at__isnull=True,
            undoable=True,
            action__in=list(_UNDO),
        )
        .only("pk", "action", "data", "at", "tournament_id")
        .order_by("-pk")
    )
    for other in later.iterator(chunk_size=500):
        if _overlap(mine, touched(other)):
            return other
    return None


@transaction.atomic
def event_undo(*, event_id: int, tournament: Tournament, actor: Any, now: datetime) -> Event:
    """Reverse one logged action and log the undo."""
    # The tournament's row lock first, as every service that changes its entries takes
    # it before them: an undo changes the same rows (and their tally, kept by the
    # database: tournaments/migrations/0017), and locks taken in one order never deadlock.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    event = Event.objects.select_for_update().filter(pk=event_id, tournament=tournament).first()
    if event is None:
        raise CannotUndo(reason=_("no such action in this tournament"))
    if event.undone_at is not None:
        raise CannotUndo(reason=_("it was already undone"))
    if not can_undo(event):
        raise CannotUndo(reason=_("this kind of action is not undoable"))
    blocker = later_change(event)
    if blocker is not None:
        raise CannotUndo(
            reason=_(
                "a later action changed the same players or seats: undo “%(action)s” (%(time)s) first"
            )
            % {
                "action": action_label(blocker),
                "time": timezone.localtime(blocker.at).strftime("%H:%M"),
            }
        )
    try:
        _UNDO[event.action](event, actor, now)
    except (ObjectDoesNotExist, KeyError, TypeError, ValueError, AttributeError):
        # A payload that names rows of another tournament, or no row at all (an imported
        # file): nothing is changed (the transaction rolls back).
        raise CannotUndo(reason=_("its log row does not match this tournament")) from None
    event.undone_at = now
    event.undone_by = actor if actor is not None and actor.is_authenticated else None
    event.save(update_fields=["undone_at", "undone_by"])
    undo = event_log(
        tournament=tournament,
        actor=actor,
        action="event.undo",
        data={"undone_action": event.action, "undone_event": event.pk, **event.data},
        now=now,
        undoable=False,
    )
    undo.undo_of = event
    undo.save(update_fields=["undo_of"])
    return undo


def undo_with(event: Event, actor: Any, now: datetime) -> None:
    """Reverse an action logged as a part of another (not undoable on its own), as part of
    that one's undo. Call inside the transaction of the undo that takes it with it."""
    _UNDO[event.action](event, actor, now)
    event.undone_at = now
    event.undone_by = actor if actor is not None and actor.is_authenticated else None
    event.save(update_fields=["undone_at", "undone_by"])


ACTION_LABELS = {
    "tournament.create": gettext_lazy("Tournament created"),
    "tournament.update": gettext_lazy("Settings changed"),
    "tournament.clone": gettext_lazy("Cloned from another tournament"),
    "tournament.import": gettext_lazy("Imported from a backup file"),
    "structure.set": gettext_lazy("Structure changed"),
    "tables.add": gettext_lazy("Tables added"),
    "table.update": gettext_lazy("Table changed"),
    "staff.assign": gettext_lazy("Staff role given"),
    "player.create": gettext_lazy("New player"),
    "entry.register": gettext_lazy("Entry"),
    "entry.eliminate": gettext_lazy("Eliminated"),
    "entry.rebuy": gettext_lazy("Rebuy"),
    "entry.addon": gettext_lazy("Add-on"),
    "id.check": gettext_lazy("Photo ID checked"),
    "seat.move": gettext_lazy("Seat changed"),
    "seats.draw": gettext_lazy("Seat draw for all unseated entries"),
    "ruling.save": gettext_lazy("Floor ruling saved"),
    "ruling.publish": gettext_lazy("Featured hand published"),
    "ruling.unpublish": gettext_lazy("Featured hand taken out of the feed"),
    "table.button": gettext_lazy("Button marked"),
    "table.button_draw": gettext_lazy("Button drawn by high card"),
    "table.hand": gettext_lazy("Hand done"),
    "table.status": gettext_lazy("Table opened or closed"),
    "table.renumber": gettext_lazy("Table renumbered"),
    "seat.lock": gettext_lazy("Seat locked or unlocked"),
    "seat.arrive": gettext_lazy("Moved player seated"),
    "room.balance": gettext_lazy("Balancing moves"),
    "room.break": gettext_lazy("Table broken"),
    "room.final_table": gettext_lazy("Final table drawn"),
    "event.undo": gettext_lazy("Undo"),
    "payouts.set": gettext_lazy("Payout table set"),
    "deal.record": gettext_lazy("Deal recorded"),
    "chips.set": gettext_lazy("Chip set changed"),
    "chips.race": gettext_lazy("Colour-up and chip race"),
    "chips.color_up": gettext_lazy("Colour-up (announced)"),
    "chips.remove": gettext_lazy("Chips removed from play"),
    "chips.leftovers": gettext_lazy("Retired chips exchanged after the race"),
    "day.next": gettext_lazy("Next playing day"),
    "chips.bag": gettext_lazy("End-of-day bags"),
    "chips.count": gettext_lazy("Chip counts at a table"),
    "penalty.give": gettext_lazy("Penalty"),
    "flight.create": gettext_lazy("Flight created"),
    "flights.merge": gettext_lazy("Flights merged"),
    "clock.start": gettext_lazy("Clock started"),
    "clock.pause": gettext_lazy("Clock paused"),
    "clock.resume": gettext_lazy("Clock resumed"),
    "clock.adjust": gettext_lazy("Clock adjusted"),
    "clock.next": gettext_lazy("Next level"),
    "clock.previous": gettext_lazy("Previous level"),
    "clock.jump": gettext_lazy("Clock set to a level"),
    "clock.level": gettext_lazy("Level change announced"),
    "h4h.start": gettext_lazy("Hand-for-hand started"),
    "h4h.stop": gettext_lazy("Hand-for-hand ended"),
    "h4h.table_done": gettext_lazy("Hand-for-hand: table done"),
    "h4h.next_hand": gettext_lazy("Hand-for-hand: next hand"),
    "eod.start": gettext_lazy("Final hands of the day drawn"),
    "eod.hand": gettext_lazy("Final hands: hand started"),
    "eod.stop": gettext_lazy("Final hands cleared"),
    "timecall.start": gettext_lazy("Clock called on a player"),
    "timecall.acted": gettext_lazy("Time call: acted in time"),
    "timecall.cancel": gettext_lazy("Time call cancelled"),
    "timecall.expire": gettext_lazy("Time ran out"),
    "screen.create": gettext_lazy("Screen created"),
    "screen.revoke": gettext_lazy("Screen link revoked"),
    "bounty.award": gettext_lazy("Bounty awarded"),
    "bounty.own": gettext_lazy("Winner's own bounty paid"),
    "bounty.forfeit": gettext_lazy("Bounty added to the prize pool"),
    "mystery.draw": gettext_lazy("Mystery bounty drawn"),
    "envelopes.publish": gettext_lazy("Mystery bounty envelopes published"),
    "satellite.award": gettext_lazy("Satellite seats awarded"),
    "ticket.redeem": gettext_lazy("Satellite seat ticket used"),
}


class Logged(NamedTuple):
    """An action and (some of) its payload: what a line of the log is told from."""

    action: str
    data: dict[str, Any]


def action_label(event: Event | Logged) -> str:
    """The action's name in the user's language."""
    if event.action == "entry.register" and event.data.get("kind") == "reentry":
        return str(gettext_lazy("Re-entry"))
    if event.action == "timecall.expire":
        # The ruling and the rule it applies, for the floor reading the log (§18).
        ruling = event.data.get("ruling", "")
        if ruling in TimeCall.Ruling.values:
            ruling = TimeCall.Ruling(ruling).label
        return str(
            _("Time ran out: %(ruling)s (%(rules)s)")
            % {"ruling": ruling, "rules": event.data.get("rules", "")}
        )
    if event.action == "event.undo":
        undone = ACTION_LABELS.get(event.data.get("undone_action", ""), "")
        return str(_("Undo: %(action)s") % {"action": undone})
    return str(ACTION_LABELS.get(event.action, event.action))


# --- where a logged action's payload names rows --------------------------------------
# The backup remaps these ids to the new rows of an import and refuses any that is not a
# row of the same file; an undo refuses while a later action names the same rows. Every
# action the services log is listed (a test checks).

# Marks a reference to a tournament by slug (the event log names flights by slug).
SLUG = "slug"

Ref = tuple[str, Any]  # (path, model or SLUG)

# Where ids sit inside each action's payload. Paths: "key" a dict key, "[]" each item of a
# list, "{}" each key of a dict (ids as strings). Every action the services log must be
# listed, with () when its payload holds no id (a test checks).
PAYLOAD_REFS: dict[str, tuple[Ref, ...]] = {
    "tournament.create": (),
    "tournament.update": (),
    # "from": the source's slug on the instance it was cloned on; history, not a link.
    "tournament.clone": (),
    "tournament.import": (),
    "structure.set": (),
    "tables.add": (),
    "table.update": (),
    "staff.assign": (),
    "player.create": (("player", Player),),
    "entry.register": (("entry", Entry), ("player", Player), ("forfeited_entry", Entry)),
    "entry.eliminate": (
        ("entry", Entry),
        ("entries.[]", Entry),
        ("before.{}", Entry),
        ("seats.{}", Entry),
        ("places.{}", Entry),
        ("prizes.{}", Entry),
        ("winner.entry", Entry),
        ("stacks.{}", Entry),
        ("tables.{}", Entry),
        ("regrouped.{}", Entry),
    ),
    "entry.rebuy": (("purchase", Purchase), ("entry", Entry)),
    "entry.addon": (("purchase", Purchase), ("entry", Entry)),
    "id.check": (("check", IdCheck), ("player", Player)),
    "seat.move": (("entry", Entry),),
    "seats.draw": (("assignments.{}", Entry),),
    "ruling.save": (("ruling", Ruling),),
    "timecall.start": (("call", TimeCall),),
    "timecall.acted": (("call", TimeCall),),
    "timecall.cancel": (("call", TimeCall),),
    "timecall.expire": (("call", TimeCall),),
    "table.button": (),
    "table.button_draw": (),
    "table.hand": (),
    "table.status": (),
    "table.renumber": (),
    "seat.lock": (),
    "seat.arrive": (("entry", Entry),),
    "room.balance": (("moves.[].entry", Entry),),
    "room.break": (("moves.[].entry", Entry), ("cards.{}", Entry), ("order.[]", Entry)),
    "room.final_table": (("moves.[].entry", Entry),),
    # Plus the refs of the undone action, whose payload the undo row repeats.
    "event.undo": (("undone_event", Event),),
    "payouts.set": (),
    "deal.record": (("deal", Deal), ("shares.[].entry", Entry)),
    "chips.set": (),
    "chips.race": (("adjustment", ChipAdjustment),),
    "chips.color_up": (("entry", Entry),),
    "chips.remove": (("adjustment", ChipAdjustment),),
    "chips.leftovers": (("adjustment", ChipAdjustment), ("entry", Entry)),
    "day.next": (),
    "chips.bag": (("counts.{}", Entry), ("missing.[]", Entry)),
    "penalty.give": (("penalty", Penalty),),
    "flight.create": (("flight", SLUG),),
    "flights.merge": (("flights.[]", SLUG), ("carried.{}", Player)),
    "clock.start": (),
    "clock.pause": (),
    "clock.resume": (),
    "clock.adjust": (),
    "clock.next": (),
    "clock.previous": (),
    "clock.jump": (),
    "clock.level": (),
    "h4h.start": (),
    "h4h.stop": (),
    "h4h.table_done": (),
    "h4h.next_hand": (),
    "eod.start": (),
    "eod.hand": (),
    "eod.stop": (),
    "screen.create": (("screen", DisplayScreen),),
    "screen.revoke": (("screen", DisplayScreen),),
    "bounty.award": (("eliminated", Entry), ("awards.[].entry", Entry)),
    "bounty.own": (("entry", Entry),),
    "bounty.forfeit": (("entry", Entry),),
    "mystery.draw": (("eliminated", Entry), ("paid.{}", Entry), ("names.{}", Entry)),
    "envelopes.publish": (),
    "satellite.award": (("tickets.[]", SeatTicket),),
    "ticket.redeem": (("ticket", SeatTicket), ("entry", Entry)),
    "staff.remove": (),
    "chips.count": (),  # keyed by entry numbers, which an import keeps
    # The books: the refund's and correction's own ids are history, not links.
    "books.refund": (("entry", Entry), ("purchase", Purchase)),
    "books.close": (),
    "books.correction": (),
    "table.share": (),  # "from" and "to" are slugs: history, not links
    "ruling.publish": (("ruling", Ruling),),
    "ruling.unpublish": (("ruling", Ruling),),
    "reservation.make": (("reservation", Reservation), ("promoted.[]", Reservation)),
    "reservation.cancel": (("reservation", Reservation), ("promoted.[]", Reservation)),
    "reservation.arrive": (("reservation", Reservation), ("entry", Entry), ("player", Player)),
    "reservation.release": (("reservations.[]", Reservation), ("flagged.[]", Player)),
}


Mapper = Callable[[Any, Any], Any]  # (model or SLUG, old) -> new, or None when unknown


# --- Remapping ids inside JSON ----------------------------------------------------------


def payload_refs(action: str, data: Any) -> tuple[Ref, ...] | None:
    """The id paths of one event's payload; None for an action this version does not know."""
    refs = PAYLOAD_REFS.get(action)
    if refs is None:
        return None
    if action == "event.undo" and isinstance(data, dict):
        undone = PAYLOAD_REFS.get(str(data.get("undone_action", "")))
        if undone is None:
            return None
        refs = refs + undone
    return refs


def remap(value: Any, refs: Iterable[Ref], mapper: Mapper) -> Any:
    """`value` with the ids at `refs` replaced through `mapper` (a new object; `value` is
    not changed). Unknown ids become their negative, unknown slugs empty: they match no row."""
    for path, model in refs:
        value = _walk(value, path.split("."), lambda old, model=model: _swap(model, old, mapper))
    return value


def _swap(model: Any, old: Any, mapper: Mapper) -> Any:
    if model == SLUG:
        if not isinstance(old, str) or not old:
            return old
        new = mapper(SLUG, old)
        return new if new is not None else ""
    if isinstance(old, bool) or not isinstance(old, int) or old <= 0:
        return old  # not an id, or already marked as a row that no longer exists
    new = mapper(model, old)
    return new if new is not None else -old


def _walk(node: Any, parts: list[str], swap: Callable[[Any], Any]) -> Any:
    if not parts:
        return swap(node)
    head, rest = parts[0], parts[1:]
    if head == "[]":
        return [_walk(item, rest, swap) for item in node] if isinstance(node, list) else node
    if head == "{}":
        if not isinstance(node, dict):
            return node
        return {_swap_key(key, swap): value for key, value in node.items()}  # "{}" ends a path
    if isinstance(node, dict) and head in node:
        return {**node, head: _walk(node[head], rest, swap)}
    return node


def values_at(node: Any, parts: list[str]) -> Iterable[Any]:
    """The values a payload holds at a ref path (as `_walk` visits them; "{}" gives keys)."""
    if not parts:
        yield node
        return
    head, rest = parts[0], parts[1:]
    if head == "[]":
        if isinstance(node, list):
            for item in node:
                yield from values_at(item, rest)
    elif head == "{}":
        if isinstance(node, dict):
            yield from node.keys()
    elif isinstance(node, dict) and head in node:
        yield from values_at(node[head], rest)


def _swap_key(key: str, swap: Callable[[Any], Any]) -> str:
    try:
        number = int(key)
    except (TypeError, ValueError):
        return key
    return str(swap(number))

"""Where a logged action's payload names rows (ids, and flights by slug).

The backup remaps these ids to the new rows of an import and refuses any that is not a row
of the same file; an undo refuses while a later action names the same rows
(`tournaments.events`). Every action the services log is listed (a test checks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tables.models import Ruling
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
    SeatTicket,
    TimeCall,
)

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
    "ruling.publish": (("ruling", Ruling),),
    "ruling.unpublish": (("ruling", Ruling),),
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

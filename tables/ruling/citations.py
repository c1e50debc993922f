"""Rule citations in words: each code the rules modules cite (a floor rule such as
"TDA-11a" or "003 Art.7.3", an in-hand anchor such as "R-RAISE-2") read as a short title,
with the rule's text and its sources for whoever hovers or taps it.

The pure modules keep citing codes (they are what the conformance cases and the specs
use); the pages turn them into words here, in one table, through the `cite` filter."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.engine import EngineError
from tables.ruling import labels
from tables.ruling.labels import RULE_TEXTS, RULE_TITLES

# The floor's rules, as cited by tables.rules.balancing, tables.rules.buttons, the room's
# reads and writes and tournaments.rules.timecalls: (short title, the rule in one or two sentences).
FLOOR_RULES: dict[str, tuple[Any, Any]] = {
    "§6.1": (
        gettext_lazy("Random seat draw"),
        gettext_lazy(
            "Seats are drawn at random and the tables are kept even: their player counts "
            "differ by one at most."
        ),
    ),
    "TDA-11a": (
        gettext_lazy("Who moves to balance"),
        gettext_lazy(
            "The player who would be big blind next moves, to the worst position at the short "
            "table (never the small blind)."
        ),
    ),
    "TDA-11a stud": (
        gettext_lazy("Balancing in stud"),
        gettext_lazy("Players move by position: into the most recently vacated seat."),
    ),
    "TDA-11c": (
        gettext_lazy("Play stops at a short table"),
        gettext_lazy(
            "A table three or more players short of the largest stops playing until it is balanced."
        ),
    ),
    "003 Art.7.2": (
        gettext_lazy("Tables within one player"),
        gettext_lazy("No table may ever have two players more than another."),
    ),
    "FIGP §52": (
        gettext_lazy("Balancing (FIGP)"),
        gettext_lazy("Players move to balance a table three or more players short of the others."),
    ),
    "balance_max_diff": (
        gettext_lazy("House balancing rule"),
        gettext_lazy("The largest difference in players between tables that the house allows."),
    ),
    "003 Art.7.3": (
        gettext_lazy("Breaking a table"),
        gettext_lazy(
            "The last table breaks as soon as the free seats at the other tables equal its "
            "players; they draw those seats."
        ),
    ),
    "RP-19": (
        gettext_lazy("Random table-break order"),
        gettext_lazy("The table that breaks is drawn at random instead of a published list."),
    ),
    "TDA-7": (
        gettext_lazy("Seats drawn at random"),
        gettext_lazy(
            "Tournament and satellite seats are drawn at random; a player who started in the "
            "wrong seat moves to his own with the stack he has now."
        ),
    ),
    "FIGP §50": (
        gettext_lazy("Photo ID"),
        gettext_lazy(
            "A valid photo ID is needed to take a seat at the start and at every restart."
        ),
    ),
    "RP-16": (
        gettext_lazy("An absent player's chips"),
        gettext_lazy("Staff carry an absent player's chips to his new seat."),
    ),
    "RP-8a": (
        gettext_lazy("Busts in the bubble hand (TDA)"),
        gettext_lazy(
            "Everyone knocked out in the same hand-for-hand hand shares the places they finish in."
        ),
    ),
    "RP-8f": (
        gettext_lazy("An all-in in hand-for-hand"),
        gettext_lazy(
            "The dealer stops the action at a called all-in and the cards stay face down "
            "until the floor says so."
        ),
    ),
    "FIGP §55": (
        gettext_lazy("Blinded out while absent"),
        gettext_lazy(
            "An absent player whose last chip goes is out, with the place and prize of that moment."
        ),
    ),
    "FIGP §59": (
        gettext_lazy("The end-of-day draw"),
        gettext_lazy(
            "Near the end of a day the number of hands left is drawn, so that nobody gains "
            "by slowing play."
        ),
    ),
    "FIGP §60": (
        gettext_lazy("Busts in the same hand (FIGP)"),
        gettext_lazy(
            "Players out at one table in the same hand are ranked by their starting stacks; "
            "only those out at different tables tie."
        ),
    ),
    "FIGP §87d": (
        gettext_lazy("Elimination as a penalty"),
        gettext_lazy("The player keeps the prize of the place he holds; his chips leave play."),
    ),
    "TDA-9": (
        gettext_lazy("Accessible seats"),
        gettext_lazy(
            "A player who needs an accessible seat keeps one: a move, a break or a redraw "
            "gives him an accessible seat only."
        ),
    ),
    "TDA-10b": (
        gettext_lazy("Seat cards"),
        gettext_lazy(
            "The seat cards are shuffled face down; the player with the highest card takes the "
            "top one."
        ),
    ),
    "RP-9": (
        gettext_lazy("Final table size (TDA)"),
        gettext_lazy(
            "The final table has the event's table size; with ten left in a nine-handed event, "
            "two tables of five."
        ),
    ),
    "TDA2015-§11": (
        gettext_lazy("Final table: a full table plus one"),
        gettext_lazy("The final table seats one more player than a full table, ten at most."),
    ),
    "FIGP §53": (
        gettext_lazy("Final table size (FIGP)"),
        gettext_lazy("The final table has ten players; seven in six-handed events."),
    ),
    "house final-table size": (
        gettext_lazy("House final-table size"),
        gettext_lazy("The final table has the size the house set for this event."),
    ),
    "TDA-32": (
        gettext_lazy("Dead button"),
        gettext_lazy(
            "The big blind moves on one seat each hand; the button and small blind follow, "
            "even onto an empty seat."
        ),
    ),
    "TDA-34": (
        gettext_lazy("Heads-up button"),
        gettext_lazy(
            "Heads-up the button posts the small blind and acts first before the flop; no "
            "player posts the big blind twice in a row."
        ),
    ),
    "TDA-8a": (
        gettext_lazy("When a new player is dealt in"),
        gettext_lazy(
            "A new or moved player is dealt in at once, unless his seat is between the small "
            "blind and the button."
        ),
    ),
    "FIGP §6": (
        gettext_lazy("When a new player is dealt in (FIGP)"),
        gettext_lazy(
            "A new or moved player waits if his seat is between the button and the big blind."
        ),
    ),
    'Cash "Assegnazione del bottone"': (
        gettext_lazy("Drawing the button"),
        gettext_lazy("The button is drawn by high card, the suits breaking ties."),
    ),
    "TDA-29": (
        gettext_lazy("Calling the clock"),
        gettext_lazy(
            "After a reasonable time anyone at the table may call the clock; the floor decides."
        ),
    ),
    "TDA-30": (
        gettext_lazy("The clock's countdown"),
        gettext_lazy(
            "The player has a short time to act, then a ten-second count; at its end the hand "
            "is dead."
        ),
    ),
    "TDA2015-§27": (
        gettext_lazy("Calling the clock (TDA 2015)"),
        gettext_lazy("After a reasonable time the floor may give a player one minute to act."),
    ),
    "TDA2015-§29": (
        gettext_lazy("The clock's countdown (TDA 2015)"),
        gettext_lazy("When the minute is up, a ten-second count; then the hand is dead."),
    ),
    "FIGP §22": (
        gettext_lazy("Time to act (FIGP)"),
        gettext_lazy("A player taking too long may be given a set time to act by the floor."),
    ),
    "003 Art.10.6": (
        gettext_lazy("Time to act (house rules)"),
        gettext_lazy("A player taking too long may be given a set time to act by the floor."),
    ),
}

_ANCHOR = re.compile(r"^R-[A-Z]+-\d+[a-z]?$")


@dataclass(frozen=True)
class Citation:
    """A rule as a page shows it: its title in words, its text for hover or tap."""

    code: str
    title: str
    text: str
    sources: tuple[str, ...] = field(default=())

    @property
    def hint(self) -> str:
        """The text a hover or a tap shows: the rule, then the codes it was cited by."""
        codes = " · ".join((self.code, *self.sources))
        return f"{self.text} ({codes})" if self.text else codes


def _source_title(code: str) -> str:
    """A title for a source reference the tables do not name, built from its rulebook."""
    if code.startswith("TDA2015-"):
        return _("TDA 2015 rules, %(n)s") % {"n": code.removeprefix("TDA2015-")}
    if code.startswith("TDA-") or code.startswith("RP-"):
        return _("TDA rule %(n)s") % {"n": code.removeprefix("TDA-")}
    if code.startswith("FIGP "):
        return _("FIGP rules, %(n)s") % {"n": code.removeprefix("FIGP ")}
    return _("House rules, %(n)s") % {"n": code.removeprefix("003 ")}


def citation(code: str) -> Citation:
    """Return the citation for one code, in the active language."""
    if code in FLOOR_RULES:
        title, text = FLOOR_RULES[code]
        return Citation(code, str(title), str(text))
    anchor = code.split(" ")[0]
    if _ANCHOR.match(anchor):
        # A lettered anchor without an entry of its own reads as the rule it refines.
        key = anchor if anchor in RULE_TITLES else anchor.rstrip("abcdefgh")
        if key in RULE_TITLES:
            return Citation(code, str(RULE_TITLES[key]), str(RULE_TEXTS.get(key, "")))
    return Citation(code, _source_title(code), "")


def citations(codes: Iterable[Any] | str) -> list[Citation]:
    """Turn codes (or references with an `id`) into citations, each source reference that
    follows a titled rule folded into that rule's hint (the engine cites an anchor, then
    its sources)."""
    if isinstance(codes, str):
        codes = [c.strip() for c in codes.split(",") if c.strip()]
    out: list[Citation] = []
    for code in (str(getattr(c, "id", c)) for c in codes):
        if code in FLOOR_RULES or _ANCHOR.match(code.split(" ")[0]) or not out:
            out.append(citation(code))
        else:
            last = out[-1]
            out[-1] = Citation(last.code, last.title, last.text, (*last.sources, code))
    return out


def engine_error_message(exc: EngineError) -> str:
    """Return the translated sentence for an engine error, with the rule ids it cites."""
    sentence = next(str(text) for cls, text in labels.ENGINE_ERRORS.items() if isinstance(exc, cls))
    parts = [sentence]
    options = getattr(exc, "options", ())
    if options:
        parts.append(
            _("Options: %(options)s.")
            % {"options": "; ".join(str(labels.DECISION_OPTIONS.get(o, o)) for o in options)}
        )
    if exc.rules:
        titles = ", ".join(c.title for c in citations(exc.rules))
        parts.append(_("Rules: %(rules)s.") % {"rules": titles})
    return " ".join(parts)

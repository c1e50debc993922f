"""Reading what the floor typed into engine objects (amounts, cards, seats, actions, the
table's setup and settings); what cannot be read is an InputError in the user's language."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any, get_args, get_type_hints

from django import forms
from django.utils.translation import gettext as _

from tables.engine import Action, EngineError, EngineSettings, Hand, SeatStack, TableSetup
from tables.engine.cards import split_concatenated
from tables.ruling.citations import engine_error_message
from tables.ruling.labels import (
    ACT_LABELS,
    DECLARED_LABELS,
    MAX_HAND_JSON,
    MAX_SEATS,
    SETTING_LABELS,
    InputError,
)
from tournaments.forms.fields import whole_number

# --- Reading what the floor typed -----------------------------------------------------


def parse_amount(text: str | None, what: str, *, required: bool = False) -> int | None:
    """Return a whole number of chips from the floor's input ("1200", "1.200", "1 200")."""
    raw = (text or "").strip().replace(" ", "").replace(".", "").replace("'", "")
    if not raw:
        if required:
            raise InputError(_("Write %(what)s.") % {"what": what})
        return None
    amount = whole_number(raw, high=10**12)
    if amount is None:
        raise InputError(
            _("%(what)s must be a whole number of chips, not “%(text)s”.")
            % {"what": what, "text": text}
        )
    return amount


def parse_chips(text: str | None) -> tuple[int, ...]:
    """Read a chip push: "1000 500 500", "1000, 500" or "2x1000 500" (count x value)."""
    chips: list[int] = []
    for token in re.split(r"[\s,;+]+", (text or "").strip()):
        if not token:
            continue
        count, _sep, value = token.lower().rpartition("x")
        n = whole_number(count, high=200) if _sep else 1
        chip = whole_number(value, low=1, high=10**12)
        if n is None or chip is None:
            raise InputError(_("Cannot read the chips “%(text)s”.") % {"text": token})
        chips.extend([chip] * n)
    return tuple(chips)


def parse_cards(text: str | None) -> tuple[str, ...]:
    """Split "Ah 7c 2d", "Ah,7c,2d" or "Ah7c2d" into cards (the engine validates them)."""
    cards: list[str] = []
    for token in re.split(r"[\s,;]+", (text or "").strip()):
        if token:
            cards.extend(split_concatenated(token) if len(token) > 2 else (token,))
    return tuple(cards)


def parse_seat(text: str | None) -> int:
    """Return a seat number (1 and up)."""
    seat = parse_amount(text, _("the seat"), required=True)
    assert seat is not None
    if seat < 1:
        raise InputError(_("Seats are numbered from 1."))
    return seat


def action_from_form(data: Any) -> Action:
    """Build an engine Action from the action form (a QueryDict or a dict of strings)."""
    kind = (data.get("kind") or "").strip()
    if kind not in ACT_LABELS:
        raise InputError(_("Choose what the player did."))
    declared = (data.get("declared") or "").strip() or None
    if declared is not None and declared not in DECLARED_LABELS:
        raise InputError(_("Choose what the player said."))
    chips = parse_chips(data.get("chips"))
    if kind == "chips" and not chips:
        raise InputError(_("Write the chips pushed forward, e.g. 1000 500 500."))
    second_motion = parse_chips(data.get("second_motion"))
    if second_motion and kind != "chips":
        raise InputError(
            _("A second motion back to the stack follows chips pushed: choose “chips pushed”.")
        )
    words = (data.get("words") or "").strip() or None
    if kind == "declare" and not words:
        raise InputError(_("Write the player's words, e.g. “raise 8000”."))
    return Action(
        seat=parse_seat(data.get("seat")),
        kind=kind,  # type: ignore[arg-type]
        to=parse_amount(data.get("to"), _("the amount")),
        chips=chips if kind == "chips" else (),
        declared=declared if kind == "chips" else None,  # type: ignore[arg-type]
        declared_to=parse_amount(data.get("declared_to"), _("the declared amount"))
        if kind == "chips"
        else None,
        words=words,
        forfeit=parse_amount(data.get("forfeit"), _("the forfeited chips")) or 0,
        declared_after_chips=bool(data.get("declared_after_chips")) and kind == "chips",
        unclear=bool(data.get("unclear")),
        second_motion=second_motion,
    )


def setting_choices() -> list[tuple[str, tuple[str, ...] | None, Any]]:
    """Every engine setting: (name, its choices or None for a number, its default)."""
    hints = get_type_hints(EngineSettings)
    out = []
    for f in fields(EngineSettings):
        choices = get_args(hints[f.name]) or None
        out.append((f.name, choices, f.default))
    return out


def settings_from_form(data: Any) -> EngineSettings:
    """Build the engine settings from the form; a missing setting keeps its TDA default."""
    values: dict[str, Any] = {}
    for name, choices, _default in setting_choices():
        raw = data.get(f"setting_{name}")
        if raw in (None, ""):
            continue
        if choices is None:
            values[name] = parse_amount(raw, str(SETTING_LABELS.get(name, name)))
        else:
            values[name] = raw
    return EngineSettings.from_dict(values)


def setup_from_form(data: Any) -> tuple[TableSetup, dict[str, str]]:
    """Build the table setup and the players' names by seat from the setup form."""
    players: list[SeatStack] = []
    names: dict[str, str] = {}
    for seat in range(1, MAX_SEATS + 1):
        name = (data.get(f"name_{seat}") or "").strip()[:60]
        stack = parse_amount(
            data.get(f"stack_{seat}"), _("the stack of seat %(seat)s") % {"seat": seat}
        )
        if stack is None:
            if name:
                raise InputError(
                    _("Seat %(seat)s (%(name)s) needs a stack, or clear the name.")
                    % {"seat": seat, "name": name}
                )
            continue
        players.append(SeatStack(seat, stack))
        if name:
            names[str(seat)] = name
    ante_mode = data.get("ante_mode") or "none"
    setup = TableSetup(
        players=tuple(players),
        button=parse_seat(data.get("button")),
        sb=parse_amount(data.get("sb"), _("the small blind")) or 0,
        bb=parse_amount(data.get("bb"), _("the big blind"), required=True) or 0,
        game=data.get("game") or "NL",
        variant=data.get("variant") or "holdem",
        ante=parse_amount(data.get("ante"), _("the ante")) or 0,
        ante_mode=ante_mode,
        small_bet=parse_amount(data.get("small_bet"), _("the small bet")),
        big_bet=parse_amount(data.get("big_bet"), _("the big bet")),
        street=data.get("street") or "preflop",
        pot=parse_amount(data.get("pot"), _("the pot")) or 0,
    )
    if setup.button > MAX_SEATS:
        # A dead button on an empty seat is fine (R-BTN-1); one beyond the table is a typo.
        raise InputError(_("The button must be on a seat of the table."))
    return setup, names


def hand_from_json(text: str | None) -> Hand:
    """Rebuild the hand carried by the page; raises InputError if it cannot be read."""
    if len(text or "") > MAX_HAND_JSON:
        raise InputError(_("The hand on this page could not be read; start it again."))
    try:
        data = json.loads(text or "")
        if not isinstance(data, dict):
            raise ValueError("not an object")
        return Hand.from_dict(data)
    except EngineError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(_("The hand on this page could not be read; start it again.")) from exc


def names_from_json(text: str | None) -> dict[str, str]:
    """The players' names by seat carried by the page (anything unreadable is dropped)."""
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v)[:60] for k, v in data.items() if str(k).isdigit()}


# --- The page's forms: every press of the ruling tool and of the dealer tablet ----------


def _message(exc: Exception) -> str:
    return engine_error_message(exc) if isinstance(exc, EngineError) else str(exc)


class SetupForm(forms.Form):
    """The table as the floor types it (seats, names, stacks, blinds, game) and, on the
    ruling tool, the engine's settings. The per-seat fields are read by `setup_from_form`,
    the one reader of this form; what it refuses is the form's error."""

    def __init__(self, *args: Any, with_settings: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.with_settings = with_settings

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            setup, names = setup_from_form(self.data)
            settings = settings_from_form(self.data) if self.with_settings else None
            hand = Hand(setup, settings) if settings is not None else Hand(setup)
        except (InputError, EngineError) as exc:
            raise forms.ValidationError(_message(exc)) from exc
        data.update(hand=hand, names=names)
        return data


class StepForm(forms.Form):
    """One step on a hand in progress: the hand and the names the page carries, the step
    (`op`), the table and, when saving, the note."""

    op = forms.CharField(max_length=10, required=False)
    table = forms.CharField(max_length=10, required=False)
    names = forms.CharField(max_length=MAX_HAND_JSON, required=False)
    hand = forms.CharField(required=False)  # its size is hand_from_json's to judge
    note = forms.CharField(max_length=4000, required=False)

    def clean_names(self) -> dict[str, str]:
        return names_from_json(self.cleaned_data.get("names"))

    def clean_hand(self) -> Hand:
        try:
            return hand_from_json(self.cleaned_data.get("hand"))
        except (InputError, EngineError) as exc:
            raise forms.ValidationError(_message(exc)) from exc

    def clean_table(self) -> str:
        return (self.cleaned_data.get("table") or "").strip()

    def problem(self) -> str:
        """Why the step cannot be read (the hand's reason first), or ""."""
        for name in ("hand", "note", "op", "table", "names"):
            if name in self.errors:
                return str(self.errors[name][0])
        return ""

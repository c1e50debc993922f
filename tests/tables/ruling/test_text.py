"""The ruling tool's readings of what the floor types, and its words for engine answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables import engine
from tables.ruling import citations as ruling_citations
from tables.ruling import labels as ruling_labels
from tournaments.forms import ruling as ruling_forms

ENGINE_DIR = Path(engine.__file__).parent


@pytest.mark.parametrize(
    ("text", "chips"),
    [
        ("1000 500 500", (1000, 500, 500)),
        ("1000, 500", (1000, 500)),
        ("2x1000 500", (1000, 1000, 500)),
        ("3X25+100", (25, 25, 25, 100)),
        ("", ()),
    ],
)
def test_chip_pushes_are_read(text, chips):
    assert ruling_forms.parse_chips(text) == chips


@pytest.mark.parametrize("text", ["1000 lots", "x500", "2x", "0", "500x0", "999x100", "1e3", "²"])
def test_unreadable_chips_are_refused(text):
    with pytest.raises(ruling_labels.InputError):
        ruling_forms.parse_chips(text)


@pytest.mark.parametrize(
    ("text", "amount"), [("1200", 1200), ("1.200", 1200), ("12 000", 12000), ("", None)]
)
def test_amounts_are_read(text, amount):
    assert ruling_forms.parse_amount(text, "x") == amount


@pytest.mark.parametrize("text", ["12abc", "-5", "²", "1,5", "٣"])
def test_unreadable_amounts_are_refused(text):
    with pytest.raises(ruling_labels.InputError):
        ruling_forms.parse_amount(text, "x")


@pytest.mark.parametrize(
    ("text", "cards"),
    [("Ah 7c 2d", ("Ah", "7c", "2d")), ("Ah7c2d", ("Ah", "7c", "2d")), ("as,kd", ("as", "kd"))],
)
def test_cards_are_split(text, cards):
    assert ruling_forms.parse_cards(text) == cards


def test_every_rule_id_the_engine_returns_has_a_title():
    source = "".join(p.read_text() for p in ENGINE_DIR.glob("*.py"))
    ids = set(re.findall(r'"(R-[A-Z]+-\d+)"', source))
    assert ids, "the engine names its rules"
    assert sorted(ids - set(ruling_labels.RULE_TITLES)) == []


def test_every_engine_error_has_its_own_message():
    classes = [
        c
        for c in vars(engine).values()
        if isinstance(c, type) and issubclass(c, engine.EngineError)
    ]
    messages = {}
    for cls in classes:
        exc = cls("x", options=("complete_call",)) if cls is engine.DecisionRequired else cls("x")
        messages[cls] = ruling_citations.engine_error_message(exc)
    assert len(set(messages.values())) == len(classes)
    assert "the player completes the call" in messages[engine.DecisionRequired]


def test_error_message_cites_the_rules():
    exc = engine.IllegalAction("no", rules=("R-FLOW-9",))
    assert ruling_citations.engine_error_message(exc).endswith(
        "Rules: All-in and folded players are skipped."
    )


def _anchors_the_engine_can_cite() -> set[str]:
    source = "".join(p.read_text() for p in ENGINE_DIR.glob("*.py"))
    cited = set(re.findall(r'"(R-[A-Z]+-\d+[a-z]?)"', source))
    assert cited, "the engine names its rules"
    return cited | set(ruling_labels.RULE_TITLES)


def test_every_rule_the_engine_cites_has_a_title_of_its_own():
    # Lettered anchors too (R-ACT-5a): a hover must not show a neighbouring rule's title.
    assert sorted(_anchors_the_engine_can_cite() - set(ruling_labels.RULE_TITLES)) == []


def test_every_rule_the_engine_cites_reads_as_its_text_in_english_and_italian():
    from django.utils import translation

    from tables.ruling.citations import citation

    anchors = sorted(_anchors_the_engine_can_cite())
    with translation.override("en"):
        english = {a: citation(a).text for a in anchors}
    with translation.override("it"):
        italian = {a: citation(a).text for a in anchors}
    assert [a for a in anchors if not english[a]] == []
    assert [a for a in anchors if not italian[a]] == []
    # Every Italian text is a translation, never the English sentence left in place.
    assert [a for a in anchors if italian[a] == english[a]] == []
    with translation.override("it"):
        hint = citation("R-RAISE-2").hint
    assert hint.startswith("Un rilancio deve essere almeno pari") and hint.endswith("(R-RAISE-2)")


# The floor's pure modules cite their rules by these codes; the pages show them (`cite`).
FLOOR_MODULES = (
    "tables/rules/balancing.py",
    "tables/rules/floor.py",
    "tables/rules/buttons.py",
    "tables/rules/draw.py",
    "tables/rules/seating.py",
    "tournaments/selectors/tables.py",
    "tournaments/services/hands.py",
    "tournaments/services/moves.py",
    "tournaments/rules/clock.py",
    "tournaments/rules/endofday.py",
    "tournaments/rules/entry_rules.py",
    "tournaments/rules/penalties.py",
    "tournaments/rules/placements.py",
    "tournaments/rules/timecalls.py",
)
_FLOOR_CODE = re.compile(r'"((?:TDA|RP|FIGP|003|TDA2015)[-\s][^"]{1,20})"')


def test_every_rule_the_floor_cites_reads_as_its_text_in_english_and_italian():
    from django.utils import translation

    root = Path(__file__).resolve().parents[3]
    codes = sorted(
        {c for module in FLOOR_MODULES for c in _FLOOR_CODE.findall((root / module).read_text())}
    )
    assert "TDA-9" in codes and "RP-16" in codes  # the scan finds what the modules cite
    with translation.override("en"):
        english = {c: ruling_citations.citation(c).text for c in codes}
    with translation.override("it"):
        italian = {c: ruling_citations.citation(c).text for c in codes}
    assert [c for c in codes if not english[c]] == []
    assert [c for c in codes if not italian[c] or italian[c] == english[c]] == []

"""Values no field expects: junk, long texts, numbers in the digits of other scripts, any
JSON value, a valid JSON document with one value swapped; and `often`, to weigh hypothesis's
branches. Hypothesis is a test dependency: it is imported inside functions only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

JUNK = (
    "",
    " ",
    "0",
    "-1",
    "-0",
    "+5",
    "1.5",
    "1e9",
    "1_000",
    "0x1f",
    "NaN",
    "inf",
    "-inf",
    "2147483648",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999",
    "abc",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    '{"a": 1}',
    "\x00",
    "a\x00b",
    "１２",
    "²",
    "٣",
    # Digits of other scripts and other numerals: str.isdigit() or int() take many of them
    # Every number the app reads must be ASCII digits.
    "۳",  # Extended Arabic-Indic
    "०१",  # Devanagari
    "৩",  # Bengali
    "๓",  # Thai
    "߃",  # NKo
    "፫",  # Ethiopic (a digit to isdigit(), not to int())
    "᠓",  # Mongolian
    "𝟗",  # mathematical bold
    "⑤",  # circled
    "Ⅻ",  # Roman numeral
    "½",
    "三",
    "-٣",
    "٣٫٥",  # Arabic decimal separator
    "1٬000",  # Arabic thousands separator
    "１e３",
    "٣​",
    "🂡🂱",
    "Ah\x00Kd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%s %(x)s %%",
    "{0} {x}",
    "../../etc/passwd",
    "\r\n\t",
    "\u202e\u200b",
    "9/",
    "/9",
    "1/99",
    "9999999/1",
)
LONG = (
    "x" * 5000,
    "9" * 5000,
    "9" * 4301,
    "1" * 40,
    "é" * 3000,
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "\x00" * 100,
)


def _st():
    from hypothesis import strategies as st

    return st


def junk():
    st = _st()
    return st.one_of(
        st.sampled_from(JUNK),
        st.text(max_size=30),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.floats().map(str),
        st.sampled_from(LONG),
        st.text(max_size=300),
    )


# The digits 0-9 of other scripts, for a number typed in any of them.
DIGIT_SCRIPTS = (
    "٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic
    "۰۱۲۳۴۵۶۷۸۹",  # Extended Arabic-Indic
    "०१२३४५६७८९",  # Devanagari
    "০১২৩৪৫৬৭৮৯",  # Bengali
    "๐๑๒๓๔๕๖๗๘๙",  # Thai
    "０１２３４５６７８９",  # fullwidth
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",  # mathematical bold
    "⁰¹²³⁴⁵⁶⁷⁸⁹",  # superscript
    "₀₁₂₃₄₅₆₇₈₉",  # subscript
    "⓪①②③④⑤⑥⑦⑧⑨",  # circled
)


def _in_script(text: str, script: str) -> str:
    return text.translate(str.maketrans("0123456789", script))


def _numerals(strategy):
    """Numbers as typed, and the same numbers in the digits of another script."""
    st = _st()
    other = st.tuples(strategy, st.sampled_from(DIGIT_SCRIPTS)).map(lambda p: _in_script(*p))
    return st.one_of(strategy, strategy, other)


def _mutated_json(text: str):
    """A valid hand with one value swapped for junk of another JSON type."""
    st = _st()
    data = json.loads(text)
    paths = list(_json_paths(data))
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
        st.just([]),
        st.just({}),
    )

    def swap(args):
        path, value = args
        copy = json.loads(text)
        node = copy
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
        return json.dumps(copy)

    return st.tuples(st.sampled_from(paths), scalars).map(swap)


def _json_paths(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _json_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*path, index)
            yield from _json_paths(value, (*path, index))


def often(strategy_of: Callable[[], Any], times: int, *others):
    """`strategy_of()` drawn `times` as often as each of `others`. Hypothesis's one_of draws
    each distinct branch alike and counts a branch given twice once: each repeat is a
    strategy of its own."""
    return _st().one_of(*[strategy_of() for _ in range(times)], *others)


def _anything():
    """Any JSON value, of any type."""
    st = _st()
    return st.recursive(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(min_value=-(10**40), max_value=10**40),
            st.floats(allow_nan=False, allow_infinity=False),
            st.text(max_size=40),
            st.sampled_from(JUNK),
        ),
        lambda children: st.one_of(
            st.lists(children, max_size=3), st.dictionaries(st.text(max_size=5), children)
        ),
        max_leaves=6,
    )

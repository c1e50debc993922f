"""The private speedups are pinned to the upstream releases they were written against
(config/speedups/switch.py): an upgrade fails here, naming the pieces to check again, not
silently in a room."""

from __future__ import annotations

import sys
from importlib.metadata import version

import pytest

from config.speedups import switch

pytestmark = pytest.mark.fast_path("the upstream versions the speedups were built against")


def differences(installed: dict[str, str], python: tuple[int, int]) -> list[str]:
    """Each distribution installed at another version than the speedups were built
    against, with the pieces that reach into it; every one of them when this Python
    line has no record at all."""
    recorded = switch.BUILT_AGAINST.get(python)
    if recorded is None:
        return [
            f"no versions recorded for Python {python[0]}.{python[1]} in config/speedups/switch.py"
        ]
    found = []
    for name, built in recorded.items():
        if installed.get(name) != built:
            pieces = "; ".join(switch.TOUCHES[name])
            found.append(
                f"{name} {installed.get(name)} installed, the speedups were built against "
                f"{built}: check {pieces}, then record the version in config/speedups/switch.py"
            )
    return found


def test_the_installed_upstream_releases_are_the_ones_the_speedups_were_built_against():
    python = sys.version_info[:2]
    names = switch.BUILT_AGAINST.get(python, {})
    installed = {name: version(name) for name in names}
    assert differences(installed, python) == []


def test_an_upgrade_is_named_with_the_pieces_to_check():
    python = (3, 13)
    installed = dict(switch.BUILT_AGAINST[python])
    assert differences(installed, python) == []
    installed["uvicorn"] = "0.99.0"
    [message] = differences(installed, python)
    assert message.startswith("uvicorn 0.99.0 installed, the speedups were built against 0.54.0")
    assert "config/speedups/wire.py" in message
    assert differences(installed, (3, 99)) == [
        "no versions recorded for Python 3.99 in config/speedups/switch.py"
    ]


def test_every_pinned_distribution_names_the_pieces_that_reach_into_it():
    for recorded in switch.BUILT_AGAINST.values():
        assert set(recorded) == set(switch.TOUCHES)

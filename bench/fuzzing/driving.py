"""Driving hypothesis: a strategy's cases drawn and run as a property test (a failure is
shrunk and reported), and the log of refused requests silenced meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any


@contextmanager
def quiet():
    """Silence the log of refused requests (thousands of 404s and 403s on purpose)."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def drive(strategy, run: Callable[[Any], None], *, examples: int, derandomize: bool) -> None:
    """Run `run` on `examples` cases drawn from `strategy` (a failure in `run` is shrunk
    and reported by hypothesis, as in any property test)."""
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings

    @hsettings(
        max_examples=examples,
        derandomize=derandomize,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(strategy)
    def property_(case):
        run(case)

    property_()

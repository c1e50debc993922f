"""A crowd connecting at once shares its reads, and nobody gets a read older than his ask."""

from __future__ import annotations

import asyncio

import pytest

from config.speedups.coalesce import Coalesce

pytestmark = pytest.mark.fast_path(
    "reads shared by sockets connecting at once (config/speedups/coalesce.py)"
)


async def test_sockets_arriving_during_a_read_share_the_next_one_started_after_them():
    coalesce = Coalesce()
    started: list[int] = []
    release = asyncio.Event()

    async def load() -> int:
        started.append(len(started) + 1)
        number = len(started)
        if number == 1:
            await release.wait()
        return number

    first = asyncio.ensure_future(coalesce("state", load))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert started == [1]  # the first read is running
    crowd = [asyncio.ensure_future(coalesce("state", load)) for _ in range(100)]
    await asyncio.sleep(0)
    assert started == [1]  # the crowd waits: the running read began before they asked
    release.set()
    assert await first == 1
    assert set(await asyncio.gather(*crowd)) == {2}  # one read for the hundred, after them
    assert started == [1, 2]


async def test_an_error_reaches_everybody_waiting_and_the_next_ask_reads_again():
    coalesce = Coalesce()
    calls = 0

    async def load() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise LookupError
        return "found"

    results = await asyncio.gather(*(coalesce("k", load) for _ in range(5)), return_exceptions=True)
    assert all(isinstance(r, LookupError) for r in results)
    assert await coalesce("k", load) == "found"


async def test_a_socket_that_leaves_does_not_cancel_the_others_read():
    coalesce = Coalesce()
    gate = asyncio.Event()

    async def load() -> str:
        await gate.wait()
        return "state"

    leaving = asyncio.ensure_future(coalesce("k", load))
    staying = asyncio.ensure_future(coalesce("k", load))
    await asyncio.sleep(0)
    leaving.cancel()
    gate.set()
    assert await staying == "state"
    with pytest.raises(asyncio.CancelledError):
        await leaving

"""Each socket test gets a channel layer of its own.

The tests run one event loop each, but Channels keeps one layer object per process, and
channels_redis keeps per-channel receive locks in it that belong to the loop that first
waited on them. A pump cancelled while it waits (a socket leaving) leaves its lock
behind, and the next test's receive then fails ("bound to a different event loop"). A
server process has one loop for its life, so this is the tests' own concern.
"""

from __future__ import annotations

import pytest
from channels.layers import channel_layers


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}

"""The room's sockets: the dealers' board and tablets (`dealers.py`), the cash room's
boards and tablets (`cash.py`)."""

"""Every write of the room app, one module per topic (nothing lives here)."""

"""What the room app stores (the room-wide nouns above the events and the tables)."""

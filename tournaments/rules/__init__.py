"""The event's pure rules that have moved under one folder (plain data in, decisions out,
no Django): `rankings` (what the rankings' exports decide)."""

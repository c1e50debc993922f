"""The floor ruling tool around the engine: `labels` (rule titles, engine errors in the
user's language), `forms` (reading what the floor typed) and `presentation` (a hand as
the pages show it). The rules themselves stay in `tables.engine`."""

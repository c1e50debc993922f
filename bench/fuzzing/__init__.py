"""Bad input, fuzzed: every route and every WebSocket message.

Shared by the CI sample (tests/fuzz/) and `manage.py bench fuzz` (bench/fuzz.py). Each case
sends one request (or a few socket frames) with junk and near-valid values to a realistic
world and checks three things:

- no server error: never a 500, never an exception, never a crashed or silent socket;
- no partial write: a refused input (an error message, a 4xx, a socket "error") changes
  nothing, and an accepted one that changes rows writes the event log (`Target.logged`);
- messages in the user's language: the user asks for Italian (language cookie and
  Accept-Language), and no message shown is an English text that has an Italian
  translation (locale/it and Django's own catalogues, read with polib).

Hypothesis and polib are test dependencies (the `test` extra): they are imported inside
functions only, so these modules load without them.

- spec: what a target is (a route's method, roles, fields and URL arguments, by kind);
- routes, room_routes: the event's and the room's targets, one per URL name;
- coverage: the URL names and the fields each view reads, which the targets must cover;
- worlds, room_world: the world the cases run in (the event's rows, the room's), removed
  afterwards;
- strategies, room_values: junk and other values a field does not expect, and what is
  typed into the room's forms and its addresses;
- forms, sockets: form cases and socket cases, drawn and run;
- snapshot, language, outcomes: how a case is judged (rows changed, the user's language)
  and counted;
- driving: hypothesis driven over a strategy, the refusals' log silenced.

Every money action sent several times at once is bench/fuzzing_money.py; crafted backups,
bench/fuzzing_backup.py.
"""

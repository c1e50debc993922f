"""The private speedups: each piece replaces or reaches into an upstream internal (Django,
asgiref, Channels, channels_redis, uvicorn, websockets, psycopg) to meet a goal of
`../shared/benches.txt` that the plain path misses. README.md here says what each piece
replaces, why, the figure it buys and the upstream versions it was built against;
`switch.py` is the one seam that turns each on or off (`TORNEO_PLAIN`)."""

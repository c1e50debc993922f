"""The receive side of the room's sockets: the consumer (`consumer.py`), the per-process
hub that writes each push to every local socket (`hub.py`), the channel-layer watch
(`layerwatch.py`), the embedded in-memory layer (`layers.py`), the routes (`routing.py`)
and the close codes the server and `static/js/screen.js` share (`codes.py`).

The send side is `tournaments/realtime.py`; what a socket may ask for is
`tournaments/controls.py`, shared with the views.
"""

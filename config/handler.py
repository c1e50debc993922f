"""Django's ASGI handler, serving each HTTP request in one worker thread.

Every view of the site is sync, and so are the middleware (Django's own run their hooks
as sync code even in their async mode). Django's ASGIHandler builds an async chain: with
a sync middleware innermost, a request went event loop -> thread (the middleware) ->
event loop (the URL resolver) -> the same thread (the view) -> event loop -> thread (the
middleware's responses) -> event loop. Each hop is a hand-over between threads: a
wake-up, and a wait for the GIL while the other thread holds it. Measured on the server
(`manage.py bench fanout`, each elimination's phases timed): the first SQL statement of
a request came 7.2 ms after it arrived, 2 ms with this handler.

Here the chain is built sync, as under WSGI, and the request enters it once: one hop
into the request's thread and one back. An async view (the health check) still works:
Django's sync handler runs it with async_to_sync, on the server's event loop.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneThreadASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # The request's own thread (ThreadSensitiveContext, set by ASGIHandler.__call__),
        # as every sync part of the request would have used.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

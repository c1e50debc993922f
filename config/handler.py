"""Django's ASGI handler, serving each HTTP request in one worker thread.

Every view of the site is sync, and so are the middleware (Django's own run their hooks
as sync code even in their async mode). Django's ASGIHandler builds an async chain: with
a sync middleware innermost, a request went event loop -> thread (the middleware) ->
event loop (the URL resolver) -> the same thread (the view) -> event loop -> thread (the
middleware's responses) -> event loop. Each hop is a hand-over between threads: a
wake-up, and a wait for the GIL while the other thread holds it. `manage.py bench fanout --phases`
shows the delay before a request's first SQL statement (figures in bench/RESULTS.md).

Here the chain is built sync, as under WSGI, and the request enters it once: one hop
into the request's thread and one back. An async view (the health check) still works:
Django's sync handler runs it with async_to_sync, on the server's event loop.

The request's thread is one the server has used before. Django gives each request a
thread sensitive context of its own (asgiref's ThreadSensitiveContext), and asgiref
made a new one-thread executor for it: a thread started for every request, and another
started at its end to shut the first down (`py-spy` on `bench fanout --kind move`: a
ThreadPoolExecutor and a "join" thread per form posted). Here the context is given an
executor kept from an earlier request (asgiref's `executor=`, made for this): still one
thread for all of a request's sync code, never two requests at once in one thread, no
thread started once the server has as many as requests come at once.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

# Idle request threads kept at most (each holds a thread and, between requests,
# nothing else: the database connection goes back to the pool when the request ends).
IDLE_THREADS = 64


class OneThreadASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        # One-thread executors whose thread has finished its last request (list append
        # and pop are atomic: the worker threads give them back).
        self._idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # Django refuses it
            return
        executor = self._take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._give_back(executor)

    def _take(self) -> ThreadPoolExecutor:
        try:
            return self._idle.pop()
        except IndexError:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        """Kept for another request once its thread is free: a view whose client went
        away runs on after the request ends, and the next request must not wait for it."""

        def free(_done: Future[None]) -> None:
            if len(self._idle) < IDLE_THREADS:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)

        # Shut down meanwhile (the server stopping): not kept.
        with contextlib.suppress(RuntimeError):
            executor.submit(_nothing).add_done_callback(free)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # The request's own thread (the ThreadSensitiveContext `__call__` enters), as every
        # sync part of the request would have used.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def _nothing() -> None:
    """Run in a request thread once it is free (`_give_back`)."""

"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.handler import OneThreadASGIHandler  # noqa: E402

django_asgi_app = OneThreadASGIHandler()

from django.conf import settings  # noqa: E402

if settings.SERVE_STATIC and not settings.PRODUCTION:
    # Embedded mode serves /static/ from the source folders (production: WhiteNoise).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from tournaments.sockets.hub import ServerSend  # noqa: E402
from tournaments.sockets.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": ServerSend(
            AllowedHostsOriginValidator(
                CookieMiddleware(
                    SessionMiddleware(AuthMiddleware(URLRouter(websocket_urlpatterns)))
                )
            )
        ),
    }
)

# What is loaded now lives as long as the process: frozen out of the garbage collector's
# sight, a full collection no longer walks all of Django's own objects. A big page (the
# room at 10,000 entries) set one off every few requests, each walking every object.
gc.collect()
gc.freeze()
# What comes later (a thousand screens' sockets) the collector walks on every full
# collection, which with the default thresholds fell inside one push in twenty (`bench
# fanout`). Young collections stay as they are (cheap, frequent);
# full ones come after 1,000 middle-aged ones instead of 10.
gc.set_threshold(700, 10, 1000)

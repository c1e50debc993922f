"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Which socket wrapper and garbage-collector settings: config/speedups/switch.py."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from django.core.asgi import get_asgi_application  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from config.speedups import switch  # noqa: E402

django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

if settings.SERVE_STATIC and not settings.PRODUCTION:
    # Embedded mode serves /static/ from the source folders (production: WhiteNoise).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from config.routing import feed_websocket_urlpatterns, websocket_urlpatterns  # noqa: E402

room_sockets = AllowedHostsOriginValidator(
    CookieMiddleware(SessionMiddleware(AuthMiddleware(URLRouter(websocket_urlpatterns))))
)
# The public live feed reads no cookie, so a page of any site (or a script sending no
# Origin) may follow it; everything else keeps the origin check.
feed_sockets = URLRouter(feed_websocket_urlpatterns)


async def websocket_app(scope, receive, send):
    app = feed_sockets if scope.get("path", "").startswith("/api/") else room_sockets
    return await app(scope, receive, send)


if wrapper := switch.websocket_wrapper():
    websocket_app = import_string(wrapper)(websocket_app)

application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": websocket_app})

switch.tune_gc()

"""Torneo settings: one module, driven by the environment.

With no variables set it runs embedded: SQLite under var/ (WAL, busy timeout), the
in-memory channel layer, Celery tasks inline. DATABASE_URL switches to PostgreSQL,
REDIS_URL to channels_redis and a Redis broker. TORNEO_ENV=production turns on the
deployment checks and refuses to start without SECRET_KEY. Junk in a variable raises
ImproperlyConfigured with the variable's name.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import sys
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
import django
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.speedups import switch

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TORNEO_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (1/0, yes/no, on/off), not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ImproperlyConfigured(f"{name} must be a number of seconds above 0, not {raw!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def websocket_sources(allowed_hosts: list[str]) -> list[str]:
    """ws:// and wss:// sources, any port, for the hosts in ALLOWED_HOSTS.

    CSP level 3 lets 'self' match ws/wss of the page's own host, but older browsers on
    screens and tablets do not; naming the hosts works everywhere.
    """
    sources: list[str] = []
    for entry in allowed_hosts:
        host = entry.strip().lower()
        if host == "*":
            return ["ws:", "wss:"]  # any host is served: any host may be a socket's
        if host.startswith("."):
            host = "*" + host  # Django's ".example.com" is the domain and its subdomains
            sources += [f"ws://{host[2:]}:*", f"wss://{host[2:]}:*"]
        if host:
            sources += [f"ws://{host}:*", f"wss://{host}:*"]
    return sources


ENVIRONMENT = os.environ.get("TORNEO_ENV", "development").strip().lower()
if ENVIRONMENT not in {"development", "production"}:
    raise ImproperlyConfigured(f"TORNEO_ENV must be development or production, not {ENVIRONMENT!r}")
PRODUCTION = ENVIRONMENT == "production"

# The private speedups turned off (config/speedups/switch.py lists them, config/README.md says why
# each exists): TORNEO_PLAIN=1 turns every one off (Django, Channels and channels_redis as
# their documentation runs them); a list of pieces turns those off alone.
try:
    PLAIN_PIECES = switch.plain_pieces(os.environ.get("TORNEO_PLAIN", ""))
except ValueError as exc:
    raise ImproperlyConfigured(str(exc)) from None
PLAIN = frozenset(switch.PIECES) == PLAIN_PIECES


def embedded_secret_key(folder: Path) -> str:
    """The embedded server's secret key: made once, at random, and kept in `folder`
    (var/, never committed), so sessions survive a restart and no two installations
    share a key. The same file `./bin/serve --local` uses. Two processes starting at once
    agree: the file appears whole (a hard link of a finished one) or not at all."""
    path = folder / "secret_key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        draft = folder / f".secret_key.{os.getpid()}"
        draft.write_text(secrets.token_urlsafe(50))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            draft.unlink(missing_ok=True)
    key = path.read_text().strip()
    if len(key) < 32:
        raise ImproperlyConfigured(f"{path} holds no usable secret key: delete it to make one")
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set in production (TORNEO_ENV=production)")
    SECRET_KEY = embedded_secret_key(VAR_DIR)


def embedded_vapid_key(folder: Path) -> str:
    """The embedded server's Web Push key (VAPID, RFC 8292): a P-256 private key made once
    and kept beside the secret key (var/vapid_private_key, never committed), the same way
    and for the same reason: the phones' subscriptions are bound to its public half, so a
    new key would silence every phone that opted in."""
    path = folder / "vapid_private_key"
    if not path.exists():
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        folder.mkdir(parents=True, exist_ok=True)
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        draft = folder / f".vapid_private_key.{os.getpid()}"
        draft.write_bytes(pem)
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            draft.unlink(missing_ok=True)
    return path.read_text().strip()


# Off unless asked for, embedded too (its pages are served to a room's tablets and
# phones): TORNEO_DEBUG=1 (or DEBUG=1) turns Django's debug pages on for development.
DEBUG = env_bool("TORNEO_DEBUG", env_bool("DEBUG", False))
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the server's host names in production")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A monitoring probe that sends this as X-Health-Token sees /health/'s details (staff
# accounts do anyway); anyone else is told only ok or error. Unset: no probe sees them.
HEALTH_TOKEN = os.environ.get("HEALTH_TOKEN", "")
# Reverse proxies (addresses or networks) whose X-Forwarded-For is believed when they are
# the peer (config/ratelimit.client_ip). None by default: `./bin/serve --local` and
# the embedded server have no proxy in front, and a client's own header is ignored.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is no address") from _error

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    # Country names in both languages (its catalogue), for the events' and players' countries.
    "django_countries",
    "channels",
    "tournaments",
    "tables",
    "room",
    # Dev tools (benchmarks, fuzz harness): installed for the `bench` command only.
    "bench",
]
# Daphne's app only turns `manage.py runserver` into its ASGI server (WebSockets too), and
# importing it starts Twisted: a slower start for every process that sets Django up, a
# server restarted under a room of screens among them (`bench reconnect`). The servers
# run daphne (./bin/run) or uvicorn (./bin/serve) by themselves; runserver gets it here.
if sys.argv[1:2] == ["runserver"]:
    INSTALLED_APPS.insert(0, "daphne")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Django 6's ContentSecurityPolicyMiddleware, or our rendering of SECURE_CSP on 5.2.
    "config.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.reject_nul_bytes",
    # An event's old address (before its date moved) leads to its new one.
    "config.middleware.former_addresses",
    # A session unlocked by a tablet's PIN reaches that table's tablet and nothing else.
    "config.middleware.TabletOnly",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if django.VERSION < (6, 0):
    # Django 5.2 (Python 3.11) takes {% partialdef %} from django-template-partials.
    INSTALLED_APPS.append("template_partials")
    TEMPLATES[0]["OPTIONS"]["builtins"] = ["template_partials.templatetags.partials"]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
if DATABASE_URL:
    parsed = urlparse(DATABASE_URL)
    if parsed.scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must be a postgres:// (or sqlite://) URL, not {DATABASE_URL!r}"
        )
    try:
        _db = dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is malformed: {exc}") from None
    if _db["ENGINE"].endswith("postgresql") and not _db.get("NAME"):
        raise ImproperlyConfigured("DATABASE_URL must name a database, e.g. postgres://host/torneo")
    # Django's, whose COMMIT can carry a push's reads in its trip (the module says).
    _db["ENGINE"] = switch.database_engine(_db["ENGINE"], plain="sql" in PLAIN_PIECES)
    # Production pools its PostgreSQL connections (a fresh one per request made PostgreSQL
    # fork a backend each time); DB_POOL=0 or 1 overrides, DB_POOL_MAX caps each process.
    if _db["ENGINE"].endswith("postgresql") and env_bool("DB_POOL", PRODUCTION):
        _db["CONN_MAX_AGE"] = 0  # Django refuses persistent connections beside a pool
        _pool_max = max(1, env_int("DB_POOL_MAX", 8))
        # A request that waits DB_POOL_TIMEOUT seconds for a connection is answered 503,
        # "busy, try again" (tournaments.views.core.server_error), not the error page.
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, _pool_max),
            "max_size": _pool_max,
            "timeout": env_float("DB_POOL_TIMEOUT", 10.0),
        }
    # PostgreSQL plans every statement it is sent. The hot reads compiled once in Python
    # (config/speedups/prepared.py: the tournament's row, the session and its user, the
    # screens' figures) are the same few statements again and again, and planning the
    # figures' read cost more than running it. Those, and only those, are bound on the
    # server and prepared on each connection, so each is planned there once: they never
    # carry a list, so never come near the 65,535 parameters a statement bound on the
    # server can take; every other statement stays bound by Django as usual (psycopg
    # prepares nothing on its own: the threshold is out of reach, and Django's cursors
    # bind on the client). DB_PREPARE=0 turns it off, for a pooler that keeps no session
    # (pgbouncer's transaction mode loses prepared statements).
    PREPARE_HOT_READS = switch.prepare_hot_reads(
        _db["ENGINE"].endswith("postgresql") and env_bool("DB_PREPARE", True),
        plain="sql" in PLAIN_PIECES,
    )
    if PREPARE_HOT_READS:
        _db.setdefault("OPTIONS", {})["prepare_threshold"] = 2**31
    DATABASES = {"default": _db}
else:
    PREPARE_HOT_READS = False
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "torneo.sqlite3")),
            "OPTIONS": {
                # WAL lets screens read while a desk writes; writers wait instead of failing.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USING_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")

# --- Redis: channel layer and Celery broker -------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
REDIS_SOCKET_TIMEOUT = 30  # seconds; above channels_redis's 5 s blocking pop
if REDIS_URL:
    if urlparse(REDIS_URL).scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"REDIS_URL must be a redis:// URL, not {REDIS_URL!r}")
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    # redis-py 8 caps a pool at 100 connections (raising past it) and times reads out at
    # 5 s, the very time channels_redis's receive blocks in BZPOPMIN: a thousand screens
    # connecting at once, or a quiet clock, dropped sockets (`manage.py bench fanout`).
    _redis_host = {
        "address": REDIS_URL,
        "max_connections": 2**31 - 1,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        # After a Redis restart the pooled connections are dead: a command retries on a
        # fresh one (twice, within half a second) instead of failing.
        "retry": Retry(ExponentialBackoff(0.25, 0.05), 2),
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [_redis_host],
                "prefix": os.environ.get("CHANNEL_PREFIX", "torneo"),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    # No broker: tasks run in-process, at once (screens compute level changes themselves).
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A floor action must not wait long on a broker that is down: the beat sweep below
# schedules the announcement again once it is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
# Beat's periodic work (`celery -A config.celery beat`). Redis keeps nothing on disk, so a
# boundary task waiting in it can vanish with a restart: the sweep schedules every
# running clock's next boundary again, shortly before it comes.
CLOCK_SWEEP_SECONDS = env_int("CLOCK_SWEEP_SECONDS", 30)
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {
        "task": "tournaments.tasks.sweep_clocks",
        "schedule": float(CLOCK_SWEEP_SECONDS),
        "options": {"expires": float(CLOCK_SWEEP_SECONDS)},
    },
    # The cash room's remote joins past their arrival window leave the lists (the board
    # and the calls also check when they read them).
    "cash-remote-lapse": {
        "task": "room.tasks.lapse_remote_joins",
        "schedule": float(CLOCK_SWEEP_SECONDS),
        "options": {"expires": float(CLOCK_SWEEP_SECONDS)},
    },
    # The dealers' push when its time has come and the floor has not pressed it.
    "dealers-push": {
        "task": "room.tasks.push_dealers_when_due",
        "schedule": float(CLOCK_SWEEP_SECONDS),
        "options": {"expires": float(CLOCK_SWEEP_SECONDS)},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A level-change announcement this late is stale: the screens changed level on their own
# count, a banner and a sound now would mislead the room.
CLOCK_ANNOUNCE_GRACE_SECONDS = env_int("CLOCK_ANNOUNCE_GRACE_SECONDS", 15)

# --- Auth, i18n, static ---------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament_list"
LOGOUT_REDIRECT_URL = "login"
# A table's tablet unlocked by a dealer's PIN stays unlocked for one shift, then asks
# for the PIN again (tournaments.permissions.pin_table, config.middleware.TabletOnly).
# The live feed's limits per address (config/ratelimit.py): streams opened and
# documents read a minute; 0 lifts a limit (a bench's thousand followers on one address).
FEED_STREAMS_PER_MINUTE = env_int("FEED_STREAMS_PER_MINUTE", 30)
FEED_READS_PER_MINUTE = env_int("FEED_READS_PER_MINUTE", 120)
TABLET_SHIFT_HOURS = env_int("TABLET_SHIFT_HOURS", 8)
if not 1 <= TABLET_SHIFT_HOURS <= 24:
    raise ImproperlyConfigured(
        f"TABLET_SHIFT_HOURS must be 1 to 24 hours, not {TABLET_SHIFT_HOURS}"
    )

# The room's own facts, the defaults of a new event (each event may say otherwise on its
# settings page): the currency (ISO 4217), the city and the country (ISO 3166 alpha-2) of
# the venue, which the results exports for the rankings carry.
ROOM_CURRENCY = os.environ.get("ROOM_CURRENCY", "EUR").strip().upper()
ROOM_CITY = " ".join(os.environ.get("ROOM_CITY", "").split())
ROOM_COUNTRY = os.environ.get("ROOM_COUNTRY", "IT").strip().upper()
if not (len(ROOM_CURRENCY) == 3 and ROOM_CURRENCY.isascii() and ROOM_CURRENCY.isalpha()):
    raise ImproperlyConfigured(f"ROOM_CURRENCY must be a three-letter code, not {ROOM_CURRENCY!r}")
if ROOM_COUNTRY and not (
    len(ROOM_COUNTRY) == 2 and ROOM_COUNTRY.isascii() and ROOM_COUNTRY.isalpha()
):
    raise ImproperlyConfigured(f"ROOM_COUNTRY must be a two-letter code, not {ROOM_COUNTRY!r}")

LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates and times in the European order of the rooms (config/formats/en).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
# The app serves /static/ itself unless SERVE_STATIC=0 (a proxy serves STATIC_ROOT).
# Embedded: from the source folders through the ASGI app. Production: the collected files
# (`collectstatic`) through WhiteNoise; their names carry a content hash, so browsers and
# proxies cache them for good, and the compressed copies are made once at collection.
SERVE_STATIC = env_bool("SERVE_STATIC", True)
if PRODUCTION:
    if SERVE_STATIC:
        MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    # A file missing from the manifest is served under its plain name, never a 500.
    WHITENOISE_MANIFEST_STRICT = False

# --- Security -------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_ENGINE = "django.contrib.sessions.backends.db"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
CSRF_FAILURE_VIEW = "tournaments.views.core.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Behind a TLS-terminating proxy the redirect stays on: the proxy says the request
    # was https in SECURE_PROXY_SSL_HEADER. Turn it off only if the proxy redirects itself.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # The health probe comes over plain HTTP from inside the machine or the balancer.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # The header the proxy sets to "https" (e.g. X-Forwarded-Proto); empty when there is
    # no proxy, since a client could then send the header itself.
    _proxy_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto").strip()
    if _proxy_header:
        if not all(c.isalnum() or c == "-" for c in _proxy_header):
            raise ImproperlyConfigured(
                f"SECURE_PROXY_SSL_HEADER must be a header name, not {_proxy_header!r}"
            )
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")

# Content-Security-Policy (config/csp.py): scripts only from our static files, never
# inline or eval (htmx runs with allowEval off, see base.html's htmx-config); no inline
# styles either (htmx's indicator styles are in our CSS). Sockets to our own hosts.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'", *websocket_sources(ALLOWED_HOSTS)],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    # The players' phone pages: their service worker and the installable app's manifest.
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
}

# --- Players' notifications (room/services/notify.py) -----------------------------------
# Web Push signs each push with the room's VAPID key (RFC 8292), kept like the secret key:
# VAPID_PRIVATE_KEY (PEM, or `manage.py vapid_key` makes one), or embedded a key made once
# in var/. Production without one sends no push (the phone page says so).
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip().replace("\\n", "\n")
if not VAPID_PRIVATE_KEY and not PRODUCTION:
    VAPID_PRIVATE_KEY = embedded_vapid_key(VAR_DIR)
# Who the push services may contact about our pushes (a mailto: or https: address).
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:torneo@localhost").strip()
if not VAPID_SUBJECT.startswith(("mailto:", "https:")):
    raise ImproperlyConfigured(
        f"VAPID_SUBJECT must be a mailto: or https: address, not {VAPID_SUBJECT!r}"
    )
# Notices by e-mail, where the room configures a mail server (Django's SMTP backend).
_EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
NOTIFY_BY_EMAIL = env_bool("NOTIFY_BY_EMAIL", bool(_EMAIL_HOST))
_smtp = {
    "host": _EMAIL_HOST or "localhost",
    "port": env_int("EMAIL_PORT", 587),
    "username": os.environ.get("EMAIL_HOST_USER", ""),
    "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
    "use_tls": env_bool("EMAIL_USE_TLS", env_int("EMAIL_PORT", 587) == 587),
    "timeout": 10,
}
if django.VERSION >= (6, 1):
    MAILERS = {
        "default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": _smtp}
    }
else:  # Django 5.2 names the same settings one by one
    EMAIL_HOST, EMAIL_PORT = _smtp["host"], _smtp["port"]
    EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _smtp["username"], _smtp["password"]
    EMAIL_USE_TLS, EMAIL_TIMEOUT = _smtp["use_tls"], _smtp["timeout"]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "torneo@localhost")

# --- Cache: rate limits (login, seat finder) shared by every worker process -----------
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CHANNEL_PREFIX", "torneo") + "-cache",
        }
    }
else:
    # Embedded: one process, so its memory is the whole truth.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

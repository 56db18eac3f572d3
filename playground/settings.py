"""Settings: the embedded default (SQLite, in-memory channel layer) unless the environment says
otherwise. DATABASE_URL switches to PostgreSQL, REDIS_URL to the channels-redis layer."""

from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from playground.env import envbool, envint, envlist, envsecret, envstr
from playground.static_files import cache_hashed_names_for_a_year

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(envstr("PLAYGROUND_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = envbool("DEBUG", False)
SECRET_KEY = envsecret("SECRET_KEY", required=not DEBUG, fallback="insecure-development-key-debug-only")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "playground",
]

MIDDLEWARE = [
    # Outermost, so that it compresses the response the others finished (a 500-node page is
    # 1 MB of HTML, a tenth of it gzipped). Django pads each gzipped body with up to 100 random
    # bytes against BREACH; static files come precompressed from ServeStatic and are left alone.
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "playground.security.WebsocketConnectSrcMiddleware",  # adds this host's ws:/wss: to connect-src
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A body Daphne dropped unread is refused here: with a session (the board is drawn for an
    # edit), before the CSRF check (which would read the empty form and refuse it for that).
    "playground.refused_body.RefusedBodyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "playground.outage.DatabaseUnavailableMiddleware",  # innermost: sees the views' exceptions first
]

ROOT_URLCONF = "playground.urls"
ASGI_APPLICATION = "playground.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database_url = envstr("DATABASE_URL", "")
if _database_url:
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=envint("DB_CONN_MAX_AGE", 0))}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": envstr("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")),
            # WAL lets readers and the writer of a live run work at once.
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_redis_url = envstr("REDIS_URL", "")
if _redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, shorter than the layer's
                # blocking BZPOPMIN: every idle consumer would crash after 5 s (redis-py#4091).
                # redis-py's asyncio pool refuses (MaxConnectionsError, a 500 handshake) past 100
                # connections in use instead of waiting: a hundred viewers joining their group at
                # once exhaust it. The bound is a process' websocket cap (consumers.MAX_CONNECTIONS).
                "hosts": [{"address": _redis_url, "socket_timeout": None, "max_connections": 2000}],
                "prefix": envstr("CHANNELS_PREFIX", "playground"),
            },
        },
        # Viewers' sockets and their scenario groups. Channels' Redis layer stores a group message
        # once per member (a 64 KiB batch to 200 viewers wrote 13 MB to Redis and read it back); with
        # pub/sub each web process receives it once and puts it before its own viewers. Pub/sub
        # keeps nothing: a run batch lost on the way (a web process's Redis connection dropped) is
        # a gap the page fills from the stored events when the next batch arrives, or when the run
        # has been quiet for 10 s; a lost "changed" leaves a board stale until the next edit. Run
        # requests stay on "default": they wait in Redis for a worker.
        "viewers": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": _redis_url, "socket_timeout": None}],
                "prefix": envstr("CHANNELS_PREFIX", "playground") + ".viewers",
            },
        },
    }
else:
    # Channels' in-memory layer with a group send linear in the group's size (channel_layer.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "playground.channel_layer.FanOutInMemoryChannelLayer"}}
# The layer of the viewers' sockets and of every group send (playground/broadcast.py).
VIEWER_CHANNEL_LAYER = "viewers" if "viewers" in CHANNEL_LAYERS else "default"

# Runs execute in a worker thread of the web process (see playground/runs.py), or, with the Redis
# channel layer, in Channels worker processes (`manage.py runworker simulation-runs`).
RUNS_IN_BACKGROUND = envbool("RUNS_IN_BACKGROUND", True)
RUNS_IN_WORKERS = envbool("RUNS_IN_WORKERS", bool(_redis_url))
# A running run whose executor has not written its heartbeat for this long is marked interrupted.
RUN_STALE_SECONDS = envint("RUN_STALE_SECONDS", 30)
# Runs kept per scenario, besides those opened by their address and those still running
# (playground/retention.py).
RUNS_KEPT_PER_SCENARIO = envint("PLAYGROUND_RUNS_KEPT", 20)
# ... and while their events stay within this many (about 330 MiB at a 50,000-pod run's 550 bytes
# an event); the newest finished run is kept whatever its size.
EVENTS_KEPT_PER_SCENARIO = envint("PLAYGROUND_EVENTS_KEPT", 600_000)

# Request bodies (playground/views/status.py names the limit when one is refused). A form's fields
# may carry a pasted `kubectl get nodes -o yaml` of 5,000 nodes (about 19 MB with managedFields),
# or an imported workload's edit (scenarios.MAX_IMPORT_WORKLOAD_BYTES, 30 MiB, form-encoded: about
# 39 MiB); a larger cluster comes as a file upload (gzip or not), which Django streams to a
# temporary file past FILE_UPLOAD_MAX_MEMORY_SIZE and playground/importing.py reads line by line.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("UPLOAD_MAX_BYTES", 48 * 2**20)
FILE_UPLOAD_MAX_MEMORY_SIZE = 4 * 2**20
# One import: an uploaded file as sent, and the YAML read from it once decompressed (5,000 nodes
# and 50,000 pods with managedFields are about 330 MB, 10-30 MB gzipped).
IMPORT_MAX_UPLOAD_BYTES = envint("IMPORT_MAX_UPLOAD_BYTES", 128 * 2**20)
IMPORT_MAX_BYTES = envint("IMPORT_MAX_BYTES", 768 * 2**20)

# Token buckets per client address on scenario creation, runs and validation (playground/ratelimit.py).
RATE_LIMITS_ENABLED = envbool("RATE_LIMITS", True)

# Server-side sessions: a browser may hold edit rights to any number of scenarios (a signed cookie
# dropped them all past 4 KB). playground.sessions also adopts the old signed cookies once.
SESSION_ENGINE = "playground.sessions"
SESSION_COOKIE_AGE = 365 * 24 * 3600  # a year after the last scenario a browser created or claimed
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a TLS-terminating proxy, run daphne with --proxy-headers so X-Forwarded-Proto and -For
# reach Django (https detection for these settings, the client address for the rate limits).
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # probes speak plain http to the pod
SECURE_HSTS_SECONDS = envint("HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = envbool("HSTS_PRELOAD", False)

# Content Security Policy: no inline script anywhere; scripts, styles, images and fonts from this
# origin only. The one nonce is for <style> elements the CodeMirror editor creates (it reads it from
# <meta name="csp-nonce">); no template has an inline style attribute. The embed view alone may be
# framed (views.embed).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's output, written by playground.serve before Daphne starts (playground/static_files.py):
# every file under its content-hashed name, with .br and .gz beside it.
STATIC_ROOT = Path(envstr("PLAYGROUND_STATIC_ROOT", str(VAR_DIR / "static")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "playground.static_files.HashedCompressedStaticFilesStorage"},
}
# ServeStatic serves them under ASGI (no second web server). DEBUG off: STATIC_ROOT as the manifest
# lists it, hashed names cached for a year (immutable), plain names for 60 s, brotli or gzip as the
# client accepts. DEBUG on: `{% static %}` gives plain names and each request reads static/ afresh
# (an edit shows on reload, nothing is cached, nothing needs collecting).
SERVESTATIC_USE_FINDERS = DEBUG
SERVESTATIC_AUTOREFRESH = DEBUG
SERVESTATIC_ADD_HEADERS_FUNCTION = cache_hashed_names_for_a_year

# Edit keys never reach a log (old edit links carry one in their path): the request loggers and the
# console redact them (playground/redaction.py); Daphne's access log does too (playground/serve.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_edit_keys": {"()": "playground.redaction.RedactEditKeys"}},
    "formatters": {
        "django.server": {"()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}", "style": "{"}
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_edit_keys"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "loggers": {
        "django.request": {"filters": ["redact_edit_keys"]},
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["redact_edit_keys"],
        },
    },
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}

"""ASGI entry point: Daphne serves HTTP (Django, static files through ServeStatic) and websockets.

The playground has no accounts (edit rights travel in secret links), so websockets carry the
session only, not django.contrib.auth."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "playground.settings")
# Django must be set up before the consumers (and the models they use) are imported.
django_http_application = get_asgi_application()

from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from playground import heap  # noqa: E402
from playground.broadcast import remember_event_loop  # noqa: E402
from playground.routing import websocket_urlpatterns  # noqa: E402
from playground.workers import RUN_CHANNEL, RunWorker  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_http_application,
        "websocket": AllowedHostsOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
        # Simulation workers (`manage.py runworker simulation-runs`) in the scale-out set-up.
        "channel": ChannelNameRouter({RUN_CHANNEL: RunWorker.as_asgi()}),
    }
)


async def application(scope: dict, receive: object, send: object) -> None:
    remember_event_loop()  # so that run threads publish on this loop (see playground/broadcast.py)
    if scope.get("type") != "http":
        await router(scope, receive, send)
        return
    with heap.busy():  # no whole walk of the collector starts while a request is answered
        await router(scope, receive, send)

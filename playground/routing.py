from django.urls import re_path

from playground.consumers import ScenarioConsumer, UnknownPath

# The consumer checks the slug before any lookup (a name that no scenario can have is refused with
# 4404, as an unknown one is); any other path is refused the same way, not with a routing error
# (URLRouter raises, and Daphne answers that with a 500 and a traceback in its log).
websocket_urlpatterns = [
    re_path(r"^ws/scenarios/(?P<slug>[^/]*)/$", ScenarioConsumer.as_asgi()),
    re_path(r"", UnknownPath.as_asgi()),
]

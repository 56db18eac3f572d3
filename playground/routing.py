from django.urls import re_path

from playground.consumers import ScenarioConsumer

# Slugs are short url-safe ids; the pattern bounds their length before any lookup happens.
websocket_urlpatterns = [
    re_path(r"^ws/scenarios/(?P<slug>[A-Za-z0-9_-]{1,32})/$", ScenarioConsumer.as_asgi()),
]

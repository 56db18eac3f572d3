"""The answer to a request whose body the server dropped unread (playground/request_body.py)."""

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from playground.request_body import REFUSED_META_KEY, refused_message
from playground.views.status import refused_for_size


class RefusedBodyMiddleware(MiddlewareMixin):
    """A request whose body was dropped goes no further: answered as handler400 answers a form over
    the limit (without the traceback Django logs for a raised one: the client's error, not ours)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        refused = request.META.get(REFUSED_META_KEY)
        if refused is None:
            return None
        return refused_for_size(request, refused_message(int(refused) if refused.isdigit() else 0))

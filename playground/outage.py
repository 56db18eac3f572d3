"""The database going away is an outage, not a bug: pages say so with a 503 (and Retry-After), and
recover by themselves once it is back, since every request opens its connection afresh."""

import logging
import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin

logger = logging.getLogger(__name__)

# Connection refused or lost, server shutting down, SQLite file gone or locked: the driver's
# OperationalError or InterfaceError, never a bug of ours (those are other classes).
DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def unavailable_response(request: HttpRequest, error: BaseException) -> HttpResponse:
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, error)
    if getattr(request, "htmx", False):
        response = render(request, "unavailable.html#notice", status=503)
        response["HX-Retarget"] = "#notice"  # whatever the form targeted: what it showed stays
        response["HX-Reswap"] = "innerHTML"
    else:
        response = render(request, "unavailable.html", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """A view that could not reach the database answers 503 instead of 500."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN):
            return unavailable_response(request, exception)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: also reached by errors raised outside views (in middleware), where the
    middleware above cannot catch them."""
    error = sys.exception()
    if isinstance(error, DATABASE_DOWN):
        return unavailable_response(request, error)
    return render(request, "500.html", status=500)

"""Service status: /healthz for probes, the footer's badge, and the answer to a refused request."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.views.decorators.cache import never_cache

from playground import health
from playground.models import Scenario


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    problems = await health.check_all()
    healthy = not any(problems.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": {name: (problem or "ok") for name, problem in problems.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
async def status_badge(request: HttpRequest) -> HttpResponse:
    """The footer's service status, as an htmx fragment."""
    problems = await health.check_all()
    return render(request, "index.html#status-badge", {"problems": problems})


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1 << 20)
    return (
        f"This form sent more than {limit:g} MiB, the most a request may carry: nothing was changed."
        " For a kubectl import, strip what the scheduler never reads first, for example"
        " `kubectl get nodes -o yaml | yq 'del(.items[].metadata.managedFields)'`, or send it as a file"
        " (gzip works) rather than pasted."
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's answer to a request it refuses before any view (handler400): a body over
    DATA_UPLOAD_MAX_MEMORY_SIZE among them. An edit of a scenario gets its board back with the
    reason (htmx swaps it where the board was, so nothing on the page is lost); anything else a
    page that says why, never a bare "Bad Request (400)"."""
    if isinstance(exception, RequestDataTooBig):
        return refused_for_size(request, too_large_message())
    return _refusal(request, "The request could not be read: reload the page and try again.", 400)


def refused_for_size(request: HttpRequest, message: str) -> HttpResponse:
    """413 for a body over a limit (Django's, or the server's: playground/request_body.py)."""
    # The body was never read: the board below is drawn from its defaults.
    request.POST = QueryDict()  # type: ignore[misc]
    return _refusal(request, message, 413)


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if request.headers.get("HX-Request") == "true":
        scenario = _scenario_of(request.path)
        if scenario is not None:
            from playground.views.common import board_context

            context = board_context(request, scenario, "", message)
            return render(request, "scenario.html#board", context, status=status)
    return render(request, "refused.html", {"message": message}, status=status)


def _scenario_of(path: str) -> Scenario | None:
    try:
        slug = resolve(path).kwargs.get("slug")
    except Resolver404:
        return None
    return Scenario.objects.filter(slug=slug).first() if slug else None

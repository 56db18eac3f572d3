"""Service status: /healthz for probes, and the footer's badge."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from playground import health


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

"""Token buckets per client address, for the requests that cost the server something: creating a
scenario (blank, gallery copy, fork), starting a run (run, act), validating YAML, replaying a run
to explain a pod or show its traffic (inspect), editing (edit, act) and trying an edit key (claim).

Each scope has a bucket per client: it holds at most `burst` tokens and refills at `per_minute`; a
request takes one token or is answered 429 with Retry-After and a message that says when to retry
(an htmx request gets a fragment for the page's #notice region, a plain form post a page, the
validation endpoint JSON). Buckets live in Django's cache (settings.RATE_LIMIT_CACHE): per process
with the default local-memory cache, shared by every process with a shared cache (there, concurrent
requests of one client may now and then both take the last token: a soft limit).

The client is REMOTE_ADDR (behind a proxy, run daphne with --proxy-headers so it is the client's
address); IPv6 clients are counted per /64, as one host usually holds a whole /64.
"""

import ipaddress
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


@dataclass(frozen=True, slots=True)
class Limit:
    burst: int  # requests allowed at once (the bucket's size)
    per_minute: float  # sustained rate (the refill)
    what: str  # for the message: "new scenarios", "runs", "validations"


DEFAULT_LIMITS = {
    "create": Limit(burst=30, per_minute=30, what="new scenarios"),
    "run": Limit(burst=10, per_minute=6, what="runs"),
    "validate": Limit(burst=60, per_minute=60, what="validations"),
    # Explanations and traffic views replay the run up to the event shown: bounded, but not free.
    # The live traffic panel asks at most about once a second while a run plays.
    "inspect": Limit(burst=60, per_minute=120, what="explanations and traffic views"),
    # Every edit stores a whole version (up to twice 256 KiB of YAML) and holds the server's one
    # thread for Django's sync code while it parses (0.3 s for 256 KiB). Someone dragging chips makes
    # a few a second at most, in bursts: 30 at once is a ten-second spree, then one every 2 s.
    "edit": Limit(burst=30, per_minute=30, what="edits"),
    # A palette chip is one small row update, no version: cheaper than an edit, still a write.
    "palette": Limit(burst=60, per_minute=60, what="palette changes"),
    # An imported workload, whole (up to 30 MiB read and gzipped): an editor fetches it on opening
    # and when it changed, a person a version's now and then.
    "download": Limit(burst=30, per_minute=30, what="workload downloads"),
    # Edit keys are 192 random bits: guessing is hopeless, but each guess costs a request.
    "claim": Limit(burst=10, per_minute=10, what="edit-key attempts"),
    # kubectl makes a dozen requests for one command (discovery, the object, its events), a watch
    # one that stays open; a script polls. Reads of a kept run are a copy of its objects.
    "kubeapi": Limit(burst=200, per_minute=600, what="Kubernetes API requests"),
    # The page's kubectl console: a command, a Tab's completion, and a `get -w` that asks for the
    # run's new changes about once a second while the player plays.
    "console": Limit(burst=60, per_minute=240, what="kubectl console commands"),
}

_lock = threading.Lock()  # makes take() atomic within a process
clock: Callable[[], float] = time.time  # wall time: buckets in a shared cache are read by every process


def limits() -> dict[str, Limit]:
    """The defaults, with the scopes settings.RATE_LIMITS names replaced."""
    return DEFAULT_LIMITS | getattr(settings, "RATE_LIMITS", {})


def client_key(request: HttpRequest) -> str:
    return address_key(request.META.get("REMOTE_ADDR") or "unknown")


def address_key(address: str) -> str:
    """The client a request or websocket comes from: its address, or its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def take(scope: str, client: str) -> float:
    """Takes a token from the client's bucket: 0 if there was one, else the seconds until there is."""
    limit = limits()[scope]
    rate = limit.per_minute / 60.0
    cache = caches[getattr(settings, "RATE_LIMIT_CACHE", "default")]
    key = f"ratelimit:{scope}:{client}"
    with _lock:
        now = clock()
        tokens, stamp = cache.get(key, (float(limit.burst), now))
        tokens = min(float(limit.burst), tokens + max(0.0, now - stamp) * rate)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / rate
        if not wait:
            tokens -= 1
        cache.set(key, (tokens, now), timeout=math.ceil(limit.burst / rate) + 1)
    return wait


def reset() -> None:
    """Empties every bucket (tests)."""
    caches[getattr(settings, "RATE_LIMIT_CACHE", "default")].clear()


def rate_limited(scope: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Answers 429 instead of calling the view when the client's bucket for `scope` is empty."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if getattr(settings, "RATE_LIMITS_ENABLED", True):
                wait = take(scope, client_key(request))
                if wait:
                    return too_many_requests(request, scope, wait)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def too_many_requests(request: HttpRequest, scope: str, wait: float) -> HttpResponse:
    limit = limits()[scope]
    seconds = max(1, math.ceil(wait))
    message = (
        f"Too many {limit.what} from your address (at most {limit.burst} at once, then "
        f"{limit.per_minute:g} a minute). Try again in {seconds} s."
    )
    response: HttpResponse
    if scope == "validate":
        response = JsonResponse({"ok": False, "error": message, "problems": []}, status=429)
    elif getattr(request, "htmx", False):
        response = render(request, "rate_limited.html#notice", {"message": message}, status=429)
        response["HX-Retarget"] = "#notice"  # whatever the form targeted, the message goes to the notice
        response["HX-Reswap"] = "innerHTML"
    else:
        response = render(request, "rate_limited.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response

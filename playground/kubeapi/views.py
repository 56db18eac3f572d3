"""HTTP for a scenario's Kubernetes API at /k8s/<slug>/...: authentication by bearer token, the
API's paths, content negotiation (a Table for `kubectl get`), and every failure as a meta/v1
Status (never a page, never a traceback)."""

import json
import logging
import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from playground import ratelimit
from playground.kubeapi import live
from playground.kubeapi.tokens import USERS, Access, access_of
from playground.models import Scenario
from scheduler_core.kubeapi import discovery, reads, status
from scheduler_core.kubeapi.paths import ApiPath, Discovery, parse_path
from scheduler_core.kubeapi.resources import Resource, resource_for

logger = logging.getLogger(__name__)

JSON = "application/json"
VERBS = {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}


@csrf_exempt
def kube_api(request: HttpRequest, slug: str, path: str = "", token: str = "") -> HttpResponse:
    try:
        return _serve(request, slug, "/" + path, token)
    except status.ApiError as error:
        return status_response(error)
    except Exception:  # an engine or app bug: the client gets a Status, the log the traceback
        logger.exception("Kubernetes API request failed: %s %s", request.method, request.path)
        return status_response(
            status.ApiError(500, "InternalError", "an error on the server prevented the request from succeeding")
        )


def status_response(error: status.ApiError) -> HttpResponse:
    response = _json(error.status(), error.code)
    if error.retry_after:
        response["Retry-After"] = str(error.retry_after)
    if error.code == 401:
        response["WWW-Authenticate"] = 'Bearer realm="kubernetes-playground"'
    return response


def _json(body: dict[str, Any], code: int = 200) -> HttpResponse:
    return HttpResponse(json.dumps(body, separators=(",", ":")), status=code, content_type=JSON)


def _serve(request: HttpRequest, slug: str, path: str, token: str) -> HttpResponse:
    if getattr(settings, "RATE_LIMITS_ENABLED", True):
        wait = ratelimit.take("kubeapi", ratelimit.client_key(request))
        if wait:
            seconds = max(1, math.ceil(wait))
            raise status.too_many_requests(f"too many requests, please try again in {seconds} seconds", seconds)
    scenario = Scenario.objects.filter(slug=slug).first()
    if scenario is None:
        raise status.no_such_path()
    access = access_of(scenario, request.headers.get("Authorization", ""), token)
    if access is None:
        raise status.unauthorized()
    parsed = parse_path(path)
    if parsed is None:
        raise status.no_such_path()
    if isinstance(parsed, Discovery):
        return _discovery(request, parsed)
    resource = resource_for(parsed.group, parsed.version, parsed.plural)
    if resource is None or (parsed.namespace and not resource.namespaced):
        raise status.no_such_path()
    if request.method == "GET":
        return _read(request, scenario, resource, parsed)
    verb = VERBS.get(request.method or "")
    if verb is None:
        raise status.method_not_allowed()
    if access is not Access.EDIT:
        raise status.forbidden(resource, parsed.name, USERS[access], verb, parsed.namespace, parsed.subresource)
    raise status.method_not_allowed()


def _discovery(request: HttpRequest, parsed: Discovery) -> HttpResponse:
    if request.method != "GET":
        raise status.method_not_allowed()
    document = discovery.document(parsed.path)
    if document is None:
        raise status.no_such_path()
    return _json(document)


def _read(request: HttpRequest, scenario: Scenario, resource: Resource, parsed: ApiPath) -> HttpResponse:
    if _flag(request.GET.get("watch", "")):
        raise status.method_not_allowed()  # watch: the next slice
    as_table = "as=Table" in request.headers.get("Accept", "")
    include = request.GET.get("includeObject", "Metadata")
    if include not in ("None", "Metadata", "Object"):
        raise status.bad_request(f'invalid includeObject: "{include[:40]}"')
    if parsed.subresource and parsed.subresource != "status":
        raise status.no_such_path()
    _served, snapshot = live.live_snapshot(scenario)
    if parsed.name:
        return _json(
            reads.get_object(
                snapshot, resource, parsed.namespace, parsed.name, as_table=as_table, include_object=include
            )
        )
    query = reads.ListQuery(
        namespace=parsed.namespace,
        label_selector=request.GET.get("labelSelector", ""),
        field_selector=request.GET.get("fieldSelector", ""),
        limit=_limit(request.GET.get("limit", "")),
        continue_token=request.GET.get("continue", ""),
        as_table=as_table,
        include_object=include,
    )
    return _json(reads.list_collection(snapshot, resource, query))


def _flag(value: str) -> bool:
    return value.lower() in ("1", "true")


def _limit(value: str) -> int:
    if not value:
        return 0
    try:
        return max(0, int(value))
    except ValueError:
        raise status.bad_request(f'invalid limit: "{value[:20]}"') from None

"""HTTP for a scenario's Kubernetes API at /k8s/<slug>/...: authentication by bearer token, the
API's paths, content negotiation (a Table for `kubectl get`), and every failure as a meta/v1
Status (never a page, never a traceback)."""

import json
import logging
import math
from typing import Any

import yaml
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

from playground import ratelimit
from playground.kubeapi import live, watching, writing
from playground.kubeapi.tokens import USERS, Access, access_of
from playground.models import Scenario
from scheduler_core.kubeapi import access as access_rules
from scheduler_core.kubeapi import discovery, protobuf, reads, status, writes
from scheduler_core.kubeapi.paths import ApiPath, Discovery, parse_path
from scheduler_core.kubeapi.query_selectors import (
    SelectorError,
    check_field_selector,
    parse_field_selector,
    parse_label_selector,
)
from scheduler_core.kubeapi.resources import Resource, resource_for
from scheduler_core.kubeapi.scale import scale_of
from scheduler_core.kubeapi.watch import Selection, watch_list_problems
from scheduler_core.kubeapi.write_types import WriteRequest

logger = logging.getLogger(__name__)

JSON = "application/json"
VERBS = {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}


@csrf_exempt
async def kube_api(request: HttpRequest, slug: str, path: str = "", token: str = "") -> HttpResponseBase:
    """Async so that a watch holds no thread while it waits; the rest is the sync _api."""
    if request.method == "GET" and _flag(request.GET.get("watch", "")):
        try:
            watch = await sync_to_async(_start_watch)(request, slug, "/" + path, token)
        except status.ApiError as error:
            return status_response(error)
        except Exception:
            logger.exception("Kubernetes API watch failed to start: %s", request.path)
            return status_response(status.ApiError(500, "InternalError", INTERNAL))
        return StreamingHttpResponse(watching.stream(watch), content_type=JSON)
    return await sync_to_async(_api)(request, slug, path, token)


INTERNAL = "an error on the server prevented the request from succeeding"


def _api(request: HttpRequest, slug: str, path: str, token: str) -> HttpResponse:
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


def _authorized(request: HttpRequest, slug: str, token: str) -> tuple[Scenario, Access]:
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
    return scenario, access


def _start_watch(request: HttpRequest, slug: str, path: str, token: str) -> watching.Watch:
    scenario, _access = _authorized(request, slug, token)
    parsed = parse_path(path)
    if not isinstance(parsed, ApiPath) or parsed.subresource:
        raise status.no_such_path()
    resource = resource_for(parsed.group, parsed.version, parsed.plural)
    if resource is None or (parsed.namespace and not resource.namespaced):
        raise status.no_such_path()
    field_text = request.GET.get("fieldSelector", "")
    if parsed.name:  # a watch of one object: its name as a field selector, as the API server reads it
        field_text = ",".join(part for part in (field_text, f"metadata.name={parsed.name}") if part)
    try:
        labels = parse_label_selector(request.GET.get("labelSelector", ""))
        fields = parse_field_selector(field_text)
        check_field_selector(resource.kind, fields, resource.version)
    except SelectorError as error:
        raise status.bad_request(str(error)) from None
    include = request.GET.get("includeObject", "Metadata")
    bookmarks = _flag(request.GET.get("allowWatchBookmarks", ""))
    send_initial = request.GET.get("sendInitialEvents", "")
    problems = watch_list_problems(send_initial, request.GET.get("resourceVersionMatch", ""), bookmarks)
    if problems:
        message = "; ".join(f"{cause.field}: {cause.message}" for cause in problems)
        raise status.ApiError(422, "Invalid", f'ListOptions.meta.k8s.io "" is invalid: {message}', causes=problems)
    watch = watching.Watch(
        scenario=scenario,
        selection=Selection(resource, parsed.namespace, labels, fields, bool(fields.requirements())),
        as_table="as=Table" in request.headers.get("Accept", ""),
        include_object=include if include in ("None", "Metadata", "Object") else "Metadata",
        timeout=_timeout(request.GET.get("timeoutSeconds", "")),
        bookmarks=bookmarks,
    )
    watch.start(request.GET.get("resourceVersion", ""), send_initial_events=_flag(send_initial))
    if not watching.has_room():
        raise status.too_many_requests("too many watches open; try again later", 5)
    return watch


def _timeout(value: str) -> float:
    try:
        asked = int(value) if value else watching.DEFAULT_TIMEOUT_SECONDS
    except ValueError:
        raise status.bad_request(f'invalid timeoutSeconds: "{value[:20]}"') from None
    if asked <= 0:  # 0 (and no value) is the server's own timeout, as the API server reads it
        return float(watching.DEFAULT_TIMEOUT_SECONDS)
    return float(min(asked, watching.DEFAULT_TIMEOUT_SECONDS))


def _serve(request: HttpRequest, slug: str, path: str, token: str) -> HttpResponse:
    scenario, access = _authorized(request, slug, token)
    healthy = access_rules.health(path, "verbose" in request.GET)
    if healthy is not None and request.method == "GET":
        code, text = healthy
        return HttpResponse(text, status=code, content_type="text/plain; charset=utf-8")
    parsed = parse_path(path)
    if parsed is None:
        raise status.no_such_path()
    if isinstance(parsed, ApiPath) and parsed.group == access_rules.AUTHORIZATION:
        return _review(request, parsed, access)
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
    return _write(request, scenario, resource, parsed)


def _review(request: HttpRequest, parsed: ApiPath, access: Access) -> HttpResponse:
    """kubectl auth can-i: a SelfSubjectAccessReview or SelfSubjectRulesReview, answered for the token."""
    if parsed.version != "v1" or parsed.plural not in access_rules.REVIEWS or parsed.name or parsed.namespace:
        raise status.no_such_path()
    if request.method != "POST":
        raise status.method_not_allowed()
    body = _body(request)
    may_write = access is Access.EDIT
    if parsed.plural == "selfsubjectaccessreviews":
        return _json(access_rules.access_review(body, may_write=may_write), 201)
    return _json(access_rules.rules_review(body, may_write=may_write), 201)


def _discovery(request: HttpRequest, parsed: Discovery) -> HttpResponse:
    if request.method != "GET":
        raise status.method_not_allowed()
    document = discovery.document(parsed.path)
    if document is None:
        raise status.no_such_path()
    return _json(document)


def _read(request: HttpRequest, scenario: Scenario, resource: Resource, parsed: ApiPath) -> HttpResponse:
    as_table = "as=Table" in request.headers.get("Accept", "")
    include = request.GET.get("includeObject", "Metadata")
    if include not in ("None", "Metadata", "Object"):
        raise status.bad_request(f'invalid includeObject: "{include[:40]}"')
    if parsed.subresource not in ("", "status", "scale"):
        raise status.no_such_path()
    _served, snapshot = live.live_snapshot(scenario)
    if parsed.subresource == "scale":
        if resource.kind not in writes.SCALABLE:
            raise status.no_such_path()
        return _json(scale_of(snapshot, resource, reads.find(snapshot, resource, parsed.namespace, parsed.name)))
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


def _write(request: HttpRequest, scenario: Scenario, resource: Resource, parsed: ApiPath) -> HttpResponse:
    if parsed.namespace == "" and resource.namespaced and request.method != "POST":
        raise status.no_such_path()  # a namespaced object is written at its namespace's path
    if not parsed.name and request.method != "POST":
        raise status.method_not_allowed()  # no deletecollection, no PUT of a collection
    body = _body(request)
    grace = _grace_period(request, body)
    for _ in range(writing.EDIT_ATTEMPTS):
        # One write of a scenario at a time in this process, decided on the scenario as the one
        # before it left it; another process's write in between is a stale edit, decided again.
        with live.scenario_lock(scenario.pk):
            scenario = Scenario.objects.get(pk=scenario.pk)
            try:
                return _write_once(request, scenario, resource, parsed, body, grace)
            except writing.StaleWrite:
                continue
    raise status.too_many_requests("the scenario is being changed by other requests; try again", 1)


def _write_once(
    request: HttpRequest, scenario: Scenario, resource: Resource, parsed: ApiPath, body: Any, grace: int | None
) -> HttpResponse:
    served, snapshot = live.live_snapshot(scenario)
    asked = WriteRequest(
        method=request.method or "",
        namespace=(parsed.namespace or "default") if resource.namespaced else "",
        name=parsed.name,
        subresource=parsed.subresource,
        content_type=request.content_type or "application/json",
        body=body,
        grace_period=grace,
    )
    result = writes.write(snapshot, resource, asked)
    if request.GET.get("dryRun") == "All":
        return _json(result.body, result.code)
    code, answer = writing.carry_out(scenario, served, result)
    return _json(answer, code)


PROTOBUF = "application/vnd.kubernetes.protobuf"
MAX_BODY_BYTES = 3 << 20  # the API server's limit on a request body


def _body(request: HttpRequest) -> Any:
    too_large = status.ApiError(413, "RequestEntityTooLarge", f"Request entity too large: limit is {MAX_BODY_BYTES}")
    length = request.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise too_large
    try:
        raw = request.body
    except RequestDataTooBig:
        raise too_large from None
    if len(raw) > MAX_BODY_BYTES:  # a chunked body has no Content-Length to refuse it by
        raise too_large
    if not raw:
        return None
    content_type = (request.content_type or "").lower()
    if content_type == PROTOBUF:  # kubectl create's typed clients send it
        try:
            return protobuf.decode_object(raw)
        except protobuf.ProtobufError as error:
            raise status.bad_request(f"the body of the request could not be decoded: {error}") from None
    try:
        if "yaml" in content_type:
            return yaml.safe_load(raw)
        return json.loads(raw)
    except (ValueError, yaml.YAMLError) as error:
        first_line = str(error).splitlines()[0][:200] if str(error) else "malformed"
        raise status.bad_request(f"the body of the request could not be decoded: {first_line}") from None


def _grace_period(request: HttpRequest, body: Any) -> int | None:
    """DeleteOptions.gracePeriodSeconds, from the query or the body (kubectl sends the body)."""
    raw = request.GET.get("gracePeriodSeconds")
    if raw is None and request.method == "DELETE" and isinstance(body, dict):
        raw = body.get("gracePeriodSeconds")
    if raw is None:
        return None
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise status.bad_request(f'invalid gracePeriodSeconds: "{str(raw)[:20]}"') from None


def _flag(value: str) -> bool:
    return value.lower() in ("1", "true")


def _limit(value: str) -> int:
    if not value:
        return 0
    try:
        return max(0, int(value))
    except ValueError:
        raise status.bad_request(f'invalid limit: "{value[:20]}"') from None

"""API errors as the API server writes them: a meta/v1 Status with upstream's reason, code and
message (k8s.io/apimachinery/pkg/api/errors, v1.34), which clients turn into their own errors
(kubectl prints `Error from server (NotFound): pods "web-0" not found`)."""

from dataclasses import dataclass, field
from typing import Any

from scheduler_core.kubeapi.resources import Resource


@dataclass(frozen=True, slots=True)
class Cause:
    reason: str  # FieldValueInvalid, FieldValueRequired, DisruptionBudget...
    message: str
    field: str = ""

    def as_dict(self) -> dict[str, str]:
        entry = {"reason": self.reason, "message": self.message}
        if self.field:
            entry["field"] = self.field
        return entry


@dataclass(slots=True)
class ApiError(Exception):
    code: int
    reason: str
    message: str
    name: str = ""
    group: str = ""
    kind: str = ""  # the details' kind: the resource's plural, as StatusDetails carries it
    causes: list[Cause] = field(default_factory=list)
    retry_after: int = 0

    def __str__(self) -> str:
        return self.message

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        details: dict[str, Any] = {}
        if self.name:
            details["name"] = self.name
        if self.group:
            details["group"] = self.group
        if self.kind:
            details["kind"] = self.kind
        if self.causes:
            details["causes"] = [cause.as_dict() for cause in self.causes]
        if self.retry_after:
            details["retryAfterSeconds"] = self.retry_after
        if details or self.reason not in ("", "BadRequest", "MethodNotAllowed"):
            body["details"] = details
        return body


def qualified(resource: Resource) -> str:
    """schema.GroupResource.String(): "pods", "deployments.apps"."""
    return f"{resource.plural}.{resource.group}" if resource.group else resource.plural


def not_found(resource: Resource, name: str) -> ApiError:
    return ApiError(404, "NotFound", f'{qualified(resource)} "{name}" not found', name, resource.group, resource.plural)


def no_such_path() -> ApiError:
    """What the API server answers for a path it does not serve (no such resource or group)."""
    return ApiError(404, "NotFound", "the server could not find the requested resource")


def already_exists(resource: Resource, name: str) -> ApiError:
    message = f'{qualified(resource)} "{name}" already exists'
    return ApiError(409, "AlreadyExists", message, name, resource.group, resource.plural)


def conflict(resource: Resource, name: str, why: str) -> ApiError:
    message = f'Operation cannot be fulfilled on {qualified(resource)} "{name}": {why}'
    return ApiError(409, "Conflict", message, name, resource.group, resource.plural)


STALE_OBJECT = "the object has been modified; please apply your changes to the latest version and try again"


def forbidden(resource: Resource, name: str, user: str, verb: str, namespace: str, subresource: str = "") -> ApiError:
    """An authorizer's refusal, worded as RBAC words it (ForbiddenStatusError with the reason of
    the RBAC authorizer's decision)."""
    target = f'{qualified(resource)} "{name}"' if name else qualified(resource)
    noun = f"{resource.plural}/{subresource}" if subresource else resource.plural
    scope = f'in the namespace "{namespace}"' if resource.namespaced and namespace else "at the cluster scope"
    why = f'User "{user}" cannot {verb} resource "{noun}" in API group "{resource.group}" {scope}'
    return ApiError(403, "Forbidden", f"{target} is forbidden: {why}", name, resource.group, resource.plural)


def invalid(resource: Resource, name: str, causes: list[Cause]) -> ApiError:
    """errors.NewInvalid: `Deployment.apps "web" is invalid: spec.replicas: Invalid value: ...`."""
    kind = f"{resource.kind}.{resource.group}" if resource.group else resource.kind
    listed = "; ".join(f"{cause.field}: {cause.message}" if cause.field else cause.message for cause in causes)
    summary = f"[{listed}]" if len(causes) > 1 else listed
    return ApiError(
        422, "Invalid", f'{kind} "{name}" is invalid: {summary}', name, resource.group, resource.kind, causes
    )


def bad_request(message: str) -> ApiError:
    return ApiError(400, "BadRequest", message)


def method_not_allowed() -> ApiError:
    return ApiError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource")


ACCEPTED_MEDIA_TYPES = ", ".join(
    (
        "application/json",
        "application/yaml",
        "application/apply-patch+yaml",
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/strategic-merge-patch+json",
    )
)


def unsupported_media_type(content_type: str) -> ApiError:
    return ApiError(
        415,
        "UnsupportedMediaType",
        f"the body of the request was in an unknown format - accepted media types include: {ACCEPTED_MEDIA_TYPES} "
        f"({content_type[:80]})",
    )


def too_many_requests(message: str, retry_after: int) -> ApiError:
    return ApiError(429, "TooManyRequests", message, retry_after=retry_after)


def unauthorized() -> ApiError:
    return ApiError(401, "Unauthorized", "Unauthorized")


def gone(message: str) -> ApiError:
    return ApiError(410, "Expired", message)

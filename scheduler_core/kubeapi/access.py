"""What a token may do, as the API server's authorization answers it: SelfSubjectAccessReview
(`kubectl auth can-i VERB RESOURCE`) and SelfSubjectRulesReview (`kubectl auth can-i --list`), and
the health endpoints (`/healthz`, `/livez`, `/readyz`, `?verbose`, and one check by name).

A view token may get, list and watch every resource served; an edit token may do every verb the
API serves (a role per access, as an RBAC ClusterRole `view` / `edit` would say it); both may read
the discovery and health paths, as system:public-info-viewer and system:discovery allow."""

from typing import Any

from scheduler_core.kubeapi.resources import READ_VERBS, RESOURCES

AUTHORIZATION = "authorization.k8s.io"
REVIEWS = ("selfsubjectaccessreviews", "selfsubjectrulesreviews")
PUBLIC_PATHS = (
    "/api",
    "/api/*",
    "/apis",
    "/apis/*",
    "/healthz",
    "/livez",
    "/readyz",
    "/version",
    "/version/",
    "/openapi/*",
)
# The checks each health endpoint lists with ?verbose (the API server's, those that make sense here).
ADMISSION_HOOK = "poststarthook/start-apiserver-admission-initializer"
HEALTH_CHECKS = {
    "healthz": ("ping", "log", "etcd", ADMISSION_HOOK),
    "livez": ("ping", "log", "etcd", ADMISSION_HOOK),
    "readyz": ("ping", "log", "etcd", "etcd-readiness", "informer-sync", ADMISSION_HOOK, "shutdown"),
}


def allowed(verb: str, group: str, resource: str, *, may_write: bool) -> bool:
    served = next((r for r in RESOURCES if r.plural == resource and (group in ("", "*") or r.group == group)), None)
    if resource == "*":
        return may_write or verb in READ_VERBS
    if served is None:
        return False
    if verb == "*":
        return may_write
    return verb in served.verbs and (may_write or verb in READ_VERBS)


def access_review(body: Any, *, may_write: bool) -> dict[str, Any]:
    """A SelfSubjectAccessReview answered: the request with its status."""
    spec = body.get("spec", {}) if isinstance(body, dict) else {}
    attributes = spec.get("resourceAttributes") or {}
    if attributes:
        verb = str(attributes.get("verb", ""))
        verdict = allowed(
            verb, str(attributes.get("group", "")), str(attributes.get("resource", "")), may_write=may_write
        )
    else:
        non_resource = spec.get("nonResourceAttributes") or {}
        path = str(non_resource.get("path", ""))
        verdict = str(non_resource.get("verb", "")) == "get" and _public(path)
    answer: dict[str, Any] = {"allowed": verdict}  # RBAC's denial gives no reason: kubectl prints "no"
    return {
        "kind": "SelfSubjectAccessReview",
        "apiVersion": f"{AUTHORIZATION}/v1",
        "metadata": {"creationTimestamp": None},
        "spec": spec,
        "status": answer,
    }


def rules_review(body: Any, *, may_write: bool) -> dict[str, Any]:
    """A SelfSubjectRulesReview answered: what the token may do, as rules."""
    spec = body.get("spec", {}) if isinstance(body, dict) else {}
    verbs = ["*"] if may_write else list(READ_VERBS)
    return {
        "kind": "SelfSubjectRulesReview",
        "apiVersion": f"{AUTHORIZATION}/v1",
        "metadata": {"creationTimestamp": None},
        "spec": spec,
        "status": {
            "resourceRules": [
                {"verbs": ["create"], "apiGroups": [AUTHORIZATION], "resources": list(REVIEWS)},
                {"verbs": verbs, "apiGroups": ["*"], "resources": ["*"]},
            ],
            "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": list(PUBLIC_PATHS)}],
            "incomplete": False,
        },
    }


def _public(path: str) -> bool:
    return any(path == public or (public.endswith("*") and path.startswith(public[:-1])) for public in PUBLIC_PATHS)


def health(path: str, verbose: bool) -> tuple[int, str] | None:
    """(status, text) for a health path ("/readyz", "/readyz/ping"), or None if it is not one."""
    parts = [part for part in path.strip("/").split("/") if part]
    if not parts or parts[0] not in HEALTH_CHECKS:
        return None
    endpoint, checks = parts[0], HEALTH_CHECKS[parts[0]]
    if len(parts) > 1:
        name = "/".join(parts[1:])
        return (200, "ok") if name in checks else (404, "404 page not found\n")
    if not verbose:
        return 200, "ok"
    lines = [f"[+]{check} ok" for check in checks]
    return 200, "\n".join([*lines, f"{endpoint} check passed", ""])

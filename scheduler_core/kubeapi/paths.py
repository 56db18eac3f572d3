"""Request paths of the Kubernetes API, read as the API server's RequestInfoFactory reads them:
`/api/v1/namespaces/{ns}/pods/{name}/{subresource}`, `/apis/{group}/{version}/{resource}`..."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ApiPath:
    group: str = ""
    version: str = ""
    plural: str = ""  # "" for a discovery document
    namespace: str = ""
    name: str = ""
    subresource: str = ""


@dataclass(frozen=True, slots=True)
class Discovery:
    """A discovery document: "/api", "/apis", "/api/v1", "/apis/apps", "/apis/apps/v1", "/version"."""

    path: str


def parse_path(path: str) -> ApiPath | Discovery | None:
    """None for a path the API server does not serve (it answers 404)."""
    parts = [part for part in path.strip("/").split("/") if part]
    if parts in (["version"], ["api"], ["apis"]):
        return Discovery("/" + parts[0])
    if parts[:2] == ["openapi", "v3"]:
        return Discovery("/" + "/".join(parts))
    if not parts or parts[0] not in ("api", "apis"):
        return None
    if parts[0] == "api":
        if len(parts) < 2:
            return None
        group, version, rest = "", parts[1], parts[2:]
    else:
        if len(parts) < 3:
            return Discovery("/" + "/".join(parts))
        group, version, rest = parts[1], parts[2], parts[3:]
    if not rest:
        return Discovery("/" + "/".join(parts))
    namespace = ""
    # "namespaces/{ns}/{resource}...": a namespaced request; "namespaces" or "namespaces/{name}"
    # alone (or with a subresource of a namespace: "namespaces/{name}/status") is the namespace itself.
    if rest[0] == "namespaces" and len(rest) >= 3 and rest[2] not in ("status", "finalize"):
        namespace, rest = rest[1], rest[2:]
    if len(rest) > 3:
        return None
    plural = rest[0]
    name = rest[1] if len(rest) > 1 else ""
    subresource = rest[2] if len(rest) > 2 else ""
    return ApiPath(group, version, plural, namespace, name, subresource)

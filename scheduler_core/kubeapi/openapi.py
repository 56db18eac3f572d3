"""OpenAPI v3 discovery: `/openapi/v3` lists a document per group version, and each document has
the resources' paths and operations with their `x-kubernetes-group-version-kind` and query
parameters. kubectl reads it to learn that the server validates fields itself (the `fieldValidation`
parameter of PATCH): then `kubectl apply` and `create` send `fieldValidation=Strict` and skip their
client-side schema check, which would need every type's full schema. Types are not described here
(`kubectl explain` needs them: not yet served)."""

import hashlib
import json
from typing import Any

from scheduler_core.kubeapi.resources import Resource, group_versions, resources_of

QUERY_PARAMETERS = ("dryRun", "fieldManager", "fieldValidation", "force", "pretty")


def root(prefix: str = "") -> dict[str, Any]:
    """The index: each group version's document, by a path relative to the server."""
    paths = {}
    for group, versions in group_versions().items():
        for version in versions:
            key = f"apis/{group}/{version}" if group else f"api/{version}"
            paths[key] = {"serverRelativeURL": f"{prefix}/openapi/v3/{key}?hash={_hash(group, version)}"}
    return {"paths": paths}


def group_version_document(path: str) -> dict[str, Any] | None:
    """The document of "api/v1" or "apis/apps/v1"; None for a group version the server lacks."""
    parts = path.strip("/").split("/")
    if parts[:1] == ["api"] and len(parts) == 2:
        group, version = "", parts[1]
    elif parts[:1] == ["apis"] and len(parts) == 3:
        group, version = parts[1], parts[2]
    else:
        return None
    if version not in group_versions().get(group, []):
        return None
    return _document(group, version)


def _document(group: str, version: str) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    prefix = f"/apis/{group}/{version}" if group else f"/api/{version}"
    for resource in resources_of(group, version):
        scope = "/namespaces/{namespace}" if resource.namespaced else ""
        gvk = {"group": group, "version": version, "kind": resource.kind}
        paths[f"{prefix}{scope}/{resource.plural}"] = {
            "get": _operation("list", resource, gvk),
            "post": _operation("create", resource, gvk),
        }
        paths[f"{prefix}{scope}/{resource.plural}/{{name}}"] = {
            "get": _operation("read", resource, gvk),
            "put": _operation("replace", resource, gvk),
            "patch": _operation("patch", resource, gvk),
            "delete": _operation("delete", resource, gvk),
        }
    return {
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.34.0-playground"},
        "paths": paths,
        "components": {"schemas": {}},
    }


def _operation(action: str, resource: Resource, gvk: dict[str, str]) -> dict[str, Any]:
    parameters = [{"name": name, "in": "query", "schema": {"type": "string"}} for name in QUERY_PARAMETERS]
    return {
        "operationId": f"{action}{resource.kind}",
        "parameters": parameters,
        "responses": {"200": {"description": "OK"}},
        "x-kubernetes-action": {"list": "list", "read": "get"}.get(action, action),
        "x-kubernetes-group-version-kind": gvk,
    }


def _hash(group: str, version: str) -> str:
    return hashlib.sha512(json.dumps(_document(group, version), sort_keys=True).encode()).hexdigest()[:64].upper()

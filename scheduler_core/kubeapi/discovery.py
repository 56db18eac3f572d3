"""Discovery: what `/version`, `/api`, `/apis` and each group version answer, as a v1.34 API
server's unaggregated discovery does (clients that ask for aggregated discovery, as kubectl does,
read these when the answer is plain application/json)."""

from typing import Any

from scheduler_core.kubeapi import openapi
from scheduler_core.kubeapi.resources import Resource, group_versions, resources_of

SERVER_VERSION = {
    "major": "1",
    "minor": "34",
    "gitVersion": "v1.34.0-playground",
    "gitCommit": "",
    "gitTreeState": "clean",
    "buildDate": "2026-01-01T00:00:00Z",
    "goVersion": "go1.24.6",
    "compiler": "gc",
    "platform": "linux/amd64",
}

# Subresources: (name, the kind its body is, its group version when not the resource's, verbs).
_SUBRESOURCES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "status": ("", "", ("get", "patch", "update")),
    "scale": ("Scale", "autoscaling/v1", ("get", "patch", "update")),
    "eviction": ("Eviction", "policy/v1", ("create",)),
    "binding": ("Binding", "", ("create",)),
}


def document(path: str, prefix: str = "") -> dict[str, Any] | None:
    """The discovery document at `path` ("/api", "/apis/apps/v1"...), None when there is none.
    `prefix`: the server's own path (OpenAPI's index names documents by paths under it)."""
    if path == "/openapi/v3":
        return openapi.root(prefix)
    if path.startswith("/openapi/v3/"):
        return openapi.group_version_document(path.removeprefix("/openapi/v3/"))
    if path == "/version":
        return dict(SERVER_VERSION)
    if path == "/api":
        return {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}
    if path == "/apis":
        groups = [_group(name, versions) for name, versions in group_versions().items() if name]
        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
    parts = path.strip("/").split("/")
    if parts == ["api", "v1"]:
        return _resource_list("", "v1")
    if parts[0] == "apis" and len(parts) == 2:
        versions = group_versions().get(parts[1])
        return None if versions is None else _group(parts[1], versions) | {"kind": "APIGroup", "apiVersion": "v1"}
    if parts[0] == "apis" and len(parts) == 3 and parts[2] in group_versions().get(parts[1], []):
        return _resource_list(parts[1], parts[2])
    return None


def _group(name: str, versions: list[str]) -> dict[str, Any]:
    listed = [{"groupVersion": f"{name}/{version}", "version": version} for version in versions]
    return {"name": name, "versions": listed, "preferredVersion": listed[0]}


def _resource_list(group: str, version: str) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    for resource in resources_of(group, version):
        entries.append(_entry(resource))
        entries.extend(_subresource_entry(resource, sub) for sub in resource.subresources)
    group_version = f"{group}/{version}" if group else version
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": entries}


def _entry(resource: Resource) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": resource.plural,
        "singularName": resource.singular,
        "namespaced": resource.namespaced,
        "kind": resource.kind,
        "verbs": list(resource.verbs),
    }
    if resource.short_names:
        entry["shortNames"] = list(resource.short_names)
    if resource.categories:
        entry["categories"] = list(resource.categories)
    return entry


def _subresource_entry(resource: Resource, subresource: str) -> dict[str, Any]:
    kind, group_version, verbs = _SUBRESOURCES[subresource]
    entry: dict[str, Any] = {
        "name": f"{resource.plural}/{subresource}",
        "singularName": "",
        "namespaced": resource.namespaced,
        "kind": kind or resource.kind,
        "verbs": list(verbs),
    }
    if group_version:
        group, _, version = group_version.rpartition("/")
        entry |= {"group": group, "version": version}
    return entry

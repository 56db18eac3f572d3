"""Discovery documents as a v1.34 API server writes them (what `kubectl api-resources` reads)."""

from scheduler_core.kubeapi.discovery import document
from scheduler_core.kubeapi.resources import RESOURCES


def test_version_is_the_release_the_engine_follows() -> None:
    version = document("/version")
    assert version is not None
    assert (version["major"], version["minor"]) == ("1", "34")
    assert version["gitVersion"].startswith("v1.34.")


def test_core_group_and_named_groups() -> None:
    assert document("/api") == {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}
    groups = document("/apis")
    assert groups is not None
    names = [group["name"] for group in groups["groups"]]
    assert names == sorted(set(names), key=names.index)  # each once
    assert {"apps", "batch", "policy", "autoscaling", "storage.k8s.io", "scheduling.k8s.io"} <= set(names)
    apps = next(group for group in groups["groups"] if group["name"] == "apps")
    assert apps["preferredVersion"] == {"groupVersion": "apps/v1", "version": "v1"}


def test_resource_lists_name_every_resource_and_subresource() -> None:
    core = document("/api/v1")
    assert core is not None and core["groupVersion"] == "v1"
    by_name = {entry["name"]: entry for entry in core["resources"]}
    assert by_name["pods"]["shortNames"] == ["po"] and by_name["pods"]["namespaced"] is True
    assert by_name["nodes"]["namespaced"] is False
    # kubectl drain looks for the eviction subresource, in policy/v1, before it evicts.
    assert by_name["pods/eviction"] == {
        "name": "pods/eviction",
        "singularName": "",
        "namespaced": True,
        "kind": "Eviction",
        "verbs": ["create"],
        "group": "policy",
        "version": "v1",
    }
    apps = document("/apis/apps/v1")
    assert apps is not None
    scale = next(entry for entry in apps["resources"] if entry["name"] == "deployments/scale")
    assert (scale["group"], scale["version"], scale["kind"]) == ("autoscaling", "v1", "Scale")
    listed = {entry["kind"] for path in ("/api/v1", *_group_paths()) for entry in (document(path) or {})["resources"]}
    assert {resource.kind for resource in RESOURCES} <= listed


def test_no_document_for_unknown_groups() -> None:
    assert document("/apis/example.com") is None
    assert document("/apis/apps/v2") is None
    assert document("/api/v2") is None


def _group_paths() -> list[str]:
    groups = document("/apis") or {}
    return [f"/apis/{version['groupVersion']}" for group in groups["groups"] for version in group["versions"]]

"""The OpenAPI v3 documents: upstream v1.34's paths and type schemas of the served resources, each
document self-contained, with what kubectl reads in them (the GVK extensions, the fieldValidation
parameter of PATCH, the strategic-merge-patch request bodies, the patch strategies)."""

from typing import Any

import pytest

from scheduler_core.kubeapi import discovery, openapi
from scheduler_core.kubeapi.resources import RESOURCES, Resource, group_versions

KEYS = [
    f"apis/{group}/{version}" if group else f"api/{version}" for group, vs in group_versions().items() for version in vs
]
REF = "#/components/schemas/"


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def _gvk(resource: Resource) -> dict[str, str]:
    return {"group": resource.group, "kind": resource.kind, "version": resource.version}


def test_the_index_names_each_group_versions_document_by_its_hash() -> None:
    index = discovery.document("/openapi/v3")
    assert index is not None and sorted(index["paths"]) == sorted(KEYS)
    url = index["paths"]["apis/apps/v1"]["serverRelativeURL"]
    assert url.startswith("/openapi/v3/apis/apps/v1?hash=") and len(url.partition("hash=")[2]) == 64
    assert openapi.root("/k8s/x")["paths"]["api/v1"]["serverRelativeURL"].startswith("/k8s/x/openapi/v3/api/v1?")
    assert discovery.document("/openapi/v3/apis/apps/v1") is openapi.group_version_document("apis/apps/v1")
    assert openapi.group_version_document("apis/apps/v2") is None
    assert openapi.group_version_document("apis/autoscaling/v1") is None  # the served HPA version is v2
    assert openapi.group_version_document("apis/apps") is None


@pytest.mark.parametrize("key", KEYS)
def test_a_document_is_self_contained_and_holds_only_what_its_paths_reach(key: str) -> None:
    document = openapi.group_version_document(key)
    assert document is not None
    assert list(document) == ["components", "info", "openapi", "paths"] and document["openapi"] == "3.0.0"
    schemas = document["components"]["schemas"]
    refs = set(_refs(document))
    assert all(ref.startswith(REF) and ref.removeprefix(REF) in schemas for ref in refs)
    assert set(schemas) == {ref.removeprefix(REF) for ref in refs}  # nothing unreachable
    assert list(schemas) == sorted(schemas)


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda resource: resource.kind)
def test_each_kind_has_its_schema_and_operations(resource: Resource) -> None:
    key = f"apis/{resource.group_version}" if resource.group else f"api/{resource.version}"
    document = openapi.group_version_document(key)
    assert document is not None
    named = [
        s
        for s in document["components"]["schemas"].values()
        if _gvk(resource) in s.get("x-kubernetes-group-version-kind", [])
    ]
    assert len(named) == 1 and named[0]["properties"]["metadata"]
    prefix = f"/{key}/namespaces/{{namespace}}" if resource.namespaced else f"/{key}"
    item = document["paths"][f"{prefix}/{resource.plural}/{{name}}"]
    assert set(item) >= {"get", "put", "patch", "delete", "parameters"}
    assert all(item[verb]["x-kubernetes-group-version-kind"] == _gvk(resource) for verb in ("get", "put", "patch"))
    patch = item["patch"]
    # kubectl apply/create send fieldValidation=Strict and skip client-side validation when PATCH has it.
    assert {"name": "fieldValidation", "in": "query"}.items() <= next(
        p for p in patch["parameters"] if p["name"] == "fieldValidation"
    ).items()
    # kubectl apply builds its strategic merge patch from the schema when PATCH takes one.
    assert "application/strategic-merge-patch+json" in patch["requestBody"]["content"]
    response = patch["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert document["components"]["schemas"][response.removeprefix(REF)] is named[0]
    listed = document["paths"][f"{prefix}/{resource.plural}"]["get"]["responses"]["200"]["content"]
    assert listed["application/json"]["schema"]["$ref"].endswith(f".{resource.kind}List")
    assert not [path for path in document["paths"] for sub in ("/log", "/exec", "/watch/", "/proxy") if sub in path]


def test_subresources_name_their_own_kinds() -> None:
    apps = openapi.group_version_document("apis/apps/v1")
    core = openapi.group_version_document("api/v1")
    assert apps is not None and core is not None
    scale = apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"]["put"]
    assert scale["x-kubernetes-group-version-kind"] == {"group": "autoscaling", "kind": "Scale", "version": "v1"}
    assert scale["requestBody"]["content"]["*/*"]["schema"]["$ref"] == REF + "io.k8s.api.autoscaling.v1.Scale"
    eviction = core["paths"]["/api/v1/namespaces/{namespace}/pods/{name}/eviction"]["post"]
    assert eviction["requestBody"]["content"]["*/*"]["schema"]["$ref"] == REF + "io.k8s.api.policy.v1.Eviction"
    assert "/api/v1/namespaces/{namespace}/pods/{name}/binding" in core["paths"]
    assert (
        "/api/v1/namespaces/{name}/status" in core["paths"]
        and "/api/v1/namespaces/{name}/finalize" not in core["paths"]
    )


def test_upstream_schemas_keep_every_field_and_patch_strategy() -> None:
    core = openapi.group_version_document("api/v1")
    assert core is not None
    schemas = core["components"]["schemas"]
    pod_spec = schemas["io.k8s.api.core.v1.PodSpec"]["properties"]
    assert {"tolerations", "topologySpreadConstraints", "schedulingGates", "resourceClaims", "hostnameOverride"} <= set(
        pod_spec
    )
    assert pod_spec["containers"]["x-kubernetes-patch-merge-key"] == "name"
    assert pod_spec["containers"]["x-kubernetes-patch-strategy"] == "merge"
    assert "extendedResourceClaimStatus" in schemas["io.k8s.api.core.v1.PodStatus"]["properties"]  # new in v1.34
    assert "workloadRef" not in pod_spec  # v1.35's
    taint = schemas["io.k8s.api.core.v1.Taint"]
    assert taint["required"] == ["key", "effect"] and set(taint["properties"]) == {
        "effect",
        "key",
        "timeAdded",
        "value",
    }


def test_the_data_says_where_it_comes_from() -> None:
    source = openapi.source()
    assert source["repository"] == "kubernetes/kubernetes" and "release-1.34" in source["release"]
    assert source["blobs"]["api__v1_openapi.json"] == "e97c10daeafabbc388a32f668dfed59a05993901"
    assert set(source["blobs"]) == {
        (f"apis__{group}__{version}_openapi.json" if group else f"api__{version}_openapi.json")
        for group, versions in group_versions().items()
        for version in versions
    }

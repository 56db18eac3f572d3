"""Lists, gets and Tables over a simulated store, as the API server answers them."""

import base64
import json

import pytest

from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.reads import ListQuery, get_object, list_collection
from scheduler_core.kubeapi.resources import BY_KIND

PODS, NODES, EVENTS, DEPLOYMENTS = BY_KIND["Pod"], BY_KIND["Node"], BY_KIND["Event"], BY_KIND["Deployment"]


def test_a_list_is_typed_and_leaves_out_each_items_type(snapshot: ApiSnapshot) -> None:
    listed = list_collection(snapshot, PODS, ListQuery())
    assert (listed["kind"], listed["apiVersion"]) == ("PodList", "v1")
    assert listed["metadata"] == {"resourceVersion": str(snapshot.resource_version)}
    assert len(listed["items"]) == 4
    assert all("kind" not in item and "apiVersion" not in item for item in listed["items"])
    versions = [int(item["metadata"]["resourceVersion"]) for item in listed["items"]]
    assert all(0 < version <= snapshot.resource_version for version in versions)


def test_namespace_labels_and_fields_select(snapshot: ApiSnapshot) -> None:
    def names(query: ListQuery) -> list[str]:
        return [item["metadata"]["name"] for item in list_collection(snapshot, PODS, query)["items"]]

    assert names(ListQuery(namespace="ops")) == ["tool"]
    assert len(names(ListQuery(label_selector="app=web"))) == 3
    assert names(ListQuery(label_selector="app notin (web)")) == ["tool"]
    assert names(ListQuery(field_selector="metadata.namespace!=default")) == ["tool"]
    on_worker1 = names(ListQuery(field_selector="spec.nodeName=worker1"))
    assert len(on_worker1) == 4  # worker2 is cordoned
    nodes = list_collection(snapshot, NODES, ListQuery(field_selector="spec.unschedulable=true"))
    assert [node["metadata"]["name"] for node in nodes["items"]] == ["worker2"]


def test_bad_selectors_are_bad_requests(snapshot: ApiSnapshot) -> None:
    with pytest.raises(status.ApiError) as refused:
        list_collection(snapshot, PODS, ListQuery(field_selector="spec.color=red"))
    assert (refused.value.code, refused.value.message) == (400, "field label not supported: spec.color")
    with pytest.raises(status.ApiError) as unparsable:
        list_collection(snapshot, PODS, ListQuery(label_selector="app in web"))
    assert unparsable.value.code == 400


def test_pages_continue_where_they_stopped(snapshot: ApiSnapshot) -> None:
    first = list_collection(snapshot, PODS, ListQuery(limit=3))
    assert len(first["items"]) == 3 and first["metadata"]["remainingItemCount"] == 1
    rest = list_collection(snapshot, PODS, ListQuery(limit=3, continue_token=first["metadata"]["continue"]))
    assert len(rest["items"]) == 1 and "continue" not in rest["metadata"]
    names = [item["metadata"]["name"] for item in first["items"] + rest["items"]]
    assert len(set(names)) == 4
    stale = json.dumps({"v": "meta.k8s.io/v1", "rv": snapshot.resource_version - 1, "start": 3})
    with pytest.raises(status.ApiError) as expired:
        list_collection(snapshot, PODS, ListQuery(continue_token=base64.urlsafe_b64encode(stale.encode()).decode()))
    assert (expired.value.code, expired.value.reason) == (410, "Expired")


def test_a_table_has_the_printers_columns_and_partial_metadata(snapshot: ApiSnapshot) -> None:
    table = list_collection(snapshot, NODES, ListQuery(as_table=True))
    assert (table["kind"], table["apiVersion"]) == ("Table", "meta.k8s.io/v1")
    assert [column["name"] for column in table["columnDefinitions"]][:5] == [
        "Name",
        "Status",
        "Roles",
        "Age",
        "Version",
    ]
    cells = {row["cells"][0]: row["cells"] for row in table["rows"]}
    assert cells["worker2"][1] == "Ready,SchedulingDisabled"
    assert table["rows"][0]["object"]["kind"] == "PartialObjectMetadata"
    bare = list_collection(snapshot, NODES, ListQuery(as_table=True, include_object="None"))
    assert all("object" not in row for row in bare["rows"])


def test_events_are_core_v1_events_with_counts(snapshot: ApiSnapshot) -> None:
    events = list_collection(snapshot, EVENTS, ListQuery(field_selector="involvedObject.name=tool,reason=Scheduled"))
    [scheduled] = events["items"]
    assert scheduled["involvedObject"]["kind"] == "Pod" and scheduled["involvedObject"]["namespace"] == "ops"
    assert scheduled["reportingComponent"] == "default-scheduler" and scheduled["action"] == "Binding"
    assert scheduled["eventTime"].endswith("Z") and len(scheduled["eventTime"].split(".")[1]) == 7  # MicroTime
    assert scheduled["message"] == "Successfully assigned ops/tool to worker1"
    table = list_collection(snapshot, EVENTS, ListQuery(as_table=True, namespace="ops"))
    assert [column["name"] for column in table["columnDefinitions"]][:5] == [
        "Last Seen",
        "Type",
        "Reason",
        "Object",
        "Subobject",
    ]
    assert {row["cells"][3] for row in table["rows"]} == {"pod/tool"}
    pulled = next(row["cells"] for row in table["rows"] if row["cells"][2] == "Pulled")
    assert pulled[5] == "kubelet, worker1"  # SOURCE: the component and its host


def test_timestamps_are_on_the_epoch(snapshot: ApiSnapshot) -> None:
    node = get_object(snapshot, NODES, "", "worker1")
    assert node["metadata"]["creationTimestamp"] == "1970-01-12T13:46:40Z"  # Unix second 1,000,000
    assert node["kind"] == "Node"


def test_get_of_a_missing_object_is_not_found(snapshot: ApiSnapshot) -> None:
    with pytest.raises(status.ApiError) as missing:
        get_object(snapshot, DEPLOYMENTS, "default", "nope")
    assert missing.value.message == 'deployments.apps "nope" not found'


def test_namespaces_in_use_and_the_system_ones_are_listed(snapshot: ApiSnapshot) -> None:
    namespaces = BY_KIND["Namespace"]
    names = [namespace.metadata.name for namespace in snapshot.objects(namespaces)]
    assert names == ["default", "kube-node-lease", "kube-public", "kube-system", "ops"]
    ops = snapshot.manifest(snapshot.get(namespaces, "", "ops"))
    assert ops["status"] == {"phase": "Active"} and ops["metadata"]["labels"] == {"kubernetes.io/metadata.name": "ops"}
    assert ops["metadata"]["uid"] == snapshot.manifest(snapshot.get(namespaces, "", "ops"))["metadata"]["uid"]
    assert snapshot.get(namespaces, "", "nope") is None

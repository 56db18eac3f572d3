"""Writes decided on the store a client reads: the narrowest timeline actions for a change, the API
server's refusals, and evictions against a disruption budget."""

import pytest

from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.resources import BY_KIND
from scheduler_core.kubeapi.write_types import WriteRequest
from scheduler_core.kubeapi.writes import MERGE, STRATEGIC, narrow_actions, write

NODES, DEPLOYMENTS, PODS = BY_KIND["Node"], BY_KIND["Deployment"], BY_KIND["Pod"]


def patch(
    snapshot: ApiSnapshot,
    resource,
    name: str,
    body,
    namespace: str = "",
    content_type: str = STRATEGIC,
    subresource: str = "",
):
    return write(snapshot, resource, WriteRequest("PATCH", namespace, name, subresource, content_type, body))


def test_kubectls_patches_become_the_acts_operations(snapshot: ApiSnapshot) -> None:
    cordon = patch(snapshot, NODES, "worker1", {"spec": {"unschedulable": True}})
    assert cordon.actions == [{"op": "cordon", "target": "Node/worker1"}]
    assert cordon.body["spec"]["unschedulable"] is True
    uncordon = patch(snapshot, NODES, "worker2", {"spec": {"unschedulable": None}})
    assert uncordon.actions == [{"op": "uncordon", "target": "Node/worker2"}]
    taint = patch(
        snapshot, NODES, "worker1", {"spec": {"taints": [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]}}
    )
    assert taint.actions == [
        {"op": "taint", "target": "Node/worker1", "taint": {"key": "gpu", "value": "true", "effect": "NoSchedule"}}
    ]
    label = patch(
        snapshot, NODES, "worker1", {"metadata": {"labels": {"disk": "ssd", "zone": None}}}, content_type=MERGE
    )
    assert label.actions == [
        {"op": "label", "target": "Node/worker1", "labels": {"disk": "ssd"}},
        {"op": "unlabel", "target": "Node/worker1", "keys": ["zone"]},
    ]
    image = {
        "spec": {
            "template": {
                "spec": {
                    "$setElementOrder/containers": [{"name": "nginx"}],
                    "containers": [{"name": "nginx", "image": "nginx:1.28"}],
                }
            }
        }
    }
    set_image = patch(snapshot, DEPLOYMENTS, "web", image, "default")
    assert set_image.actions == [
        {"op": "set-image", "target": "Deployment/default/web", "container": "nginx", "image": "nginx:1.28"}
    ]


def test_other_changes_apply_the_whole_object(snapshot: ApiSnapshot) -> None:
    restart = {
        "spec": {
            "template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "2026-12-07T10:00:00Z"}}}
        }
    }
    result = patch(snapshot, DEPLOYMENTS, "web", restart, "default")
    [action] = result.actions
    assert action["op"] == "apply"
    assert (
        action["manifest"]["spec"]["template"]["metadata"]["annotations"]
        == restart["spec"]["template"]["metadata"]["annotations"]
    )
    assert "resourceVersion" not in action["manifest"]["metadata"] and "uid" not in action["manifest"]["metadata"]


def test_a_patch_that_changes_nothing_writes_nothing(snapshot: ApiSnapshot) -> None:
    same = patch(snapshot, NODES, "worker2", {"spec": {"unschedulable": True}})
    assert same.actions == [] and same.code == 200


def test_narrow_actions_refuse_what_they_cannot_say() -> None:
    before = {"metadata": {"name": "web"}, "spec": {"replicas": 2, "paused": False}}
    assert narrow_actions(
        "Deployment", "Deployment/default/web", before, before | {"spec": {"replicas": 5, "paused": False}}
    ) == [{"op": "scale", "target": "Deployment/default/web", "replicas": 5}]
    assert (
        narrow_actions(
            "Deployment",
            "Deployment/default/web",
            before,
            {"metadata": {"name": "web"}, "spec": {"replicas": 2, "paused": True}},
        )
        is None
    )


def test_the_api_servers_refusals(snapshot: ApiSnapshot) -> None:
    with pytest.raises(status.ApiError) as missing:
        patch(snapshot, NODES, "worker9", {"spec": {"unschedulable": True}})
    assert missing.value.code == 404
    body = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {}}
    with pytest.raises(status.ApiError) as exists:
        write(snapshot, DEPLOYMENTS, WriteRequest("POST", "default", "", body=body))
    assert (exists.value.code, exists.value.message) == (409, 'deployments.apps "web" already exists')
    current = snapshot.manifest(snapshot.get(NODES, "", "worker1"))
    stale = current | {"metadata": current["metadata"] | {"resourceVersion": "999999"}}
    with pytest.raises(status.ApiError) as conflict:
        write(snapshot, NODES, WriteRequest("PUT", "", "worker1", body=stale))
    assert conflict.value.code == 409 and conflict.value.message.endswith(status.STALE_OBJECT)
    bad = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "lots"}}}]},
    }
    with pytest.raises(status.ApiError) as invalid:
        write(snapshot, PODS, WriteRequest("POST", "default", "", body=bad))
    assert invalid.value.code == 422 and invalid.value.causes[0].field.endswith("requests.cpu")


def test_scale_subresource(snapshot: ApiSnapshot) -> None:
    scaled = patch(snapshot, DEPLOYMENTS, "web", {"spec": {"replicas": 5}}, "default", MERGE, "scale")
    assert scaled.body["kind"] == "Scale" and scaled.body["spec"]["replicas"] == 5
    assert scaled.body["status"]["selector"] == "app=web"
    assert scaled.actions == [{"op": "scale", "target": "Deployment/default/web", "replicas": 5}]
    with pytest.raises(status.ApiError) as negative:
        patch(snapshot, DEPLOYMENTS, "web", {"spec": {"replicas": -1}}, "default", MERGE, "scale")
    assert negative.value.code == 422


def test_an_eviction_is_tried_on_a_copy_and_becomes_an_action(snapshot: ApiSnapshot) -> None:
    pod = next(p for p in snapshot.cluster.objects("Pod") if p.metadata.labels.get("app") == "web")
    evicted = write(
        snapshot, PODS, WriteRequest("POST", "default", pod.metadata.name, "eviction", body={"kind": "Eviction"})
    )
    assert evicted.code == 201 and evicted.actions == [{"op": "evict", "target": f"Pod/default/{pod.metadata.name}"}]
    assert snapshot.cluster.get("Pod", pod.metadata.key).metadata.deletion_timestamp is None  # the store is untouched


def test_a_rename_is_refused_as_the_handlers_checkname_refuses_it(snapshot: ApiSnapshot) -> None:
    with pytest.raises(status.ApiError) as renamed:
        patch(snapshot, NODES, "worker1", {"metadata": {"name": "worker9"}}, content_type=MERGE)
    assert (renamed.value.code, renamed.value.reason) == (400, "BadRequest")
    assert renamed.value.message == "the name of the object (worker9) does not match the name on the URL (worker1)"
    node = snapshot.manifest(snapshot.get(NODES, "", "worker2"))
    with pytest.raises(status.ApiError, match=r"the name of the object \(worker2\) .* URL \(worker1\)"):
        write(snapshot, NODES, WriteRequest("PUT", "", "worker1", body=node))


def test_delete_preconditions_must_hold(snapshot: ApiSnapshot) -> None:
    node = snapshot.manifest(snapshot.get(NODES, "", "worker1"))["metadata"]
    held = {"preconditions": {"uid": node["uid"], "resourceVersion": node["resourceVersion"]}}
    assert write(snapshot, NODES, WriteRequest("DELETE", "", "worker1", body=held)).actions
    with pytest.raises(status.ApiError) as stale:
        write(snapshot, NODES, WriteRequest("DELETE", "", "worker1", body={"preconditions": {"uid": "other"}}))
    assert (stale.value.code, stale.value.reason) == (409, "Conflict")
    assert stale.value.message == (
        'Operation cannot be fulfilled on nodes "worker1": Precondition failed: UID in precondition: other, '
        f"UID in object meta: {node['uid']}"
    )
    stale_version = {"preconditions": {"resourceVersion": "999999"}}
    with pytest.raises(
        status.ApiError, match="ResourceVersion in precondition: 999999, ResourceVersion in object meta"
    ):
        write(snapshot, NODES, WriteRequest("DELETE", "", "worker1", body=stale_version))

"""VolumeBinding (and the other volume plugins) against a fixed set of claims, volumes and classes,
then through the scheduler and a simulation (Reserve, PreBind and its wait)."""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.manifests import load_manifests, parse_object
from scheduler_core.api.types import Pod
from scheduler_core.api.volumes import ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim, StorageClass
from scheduler_core.controllers.kubelet import Kubelet
from scheduler_core.controllers.scheduler_controller import SchedulerController
from scheduler_core.scheduler.framework import Code, CycleState
from scheduler_core.scheduler.plugins.node_volume_limits import NodeVolumeLimits
from scheduler_core.scheduler.plugins.volume_binding import (
    ERR_REASON_BIND_CONFLICT,
    ERR_REASON_NODE_CONFLICT,
    UNBOUND_IMMEDIATE,
    VolumeBinding,
)
from scheduler_core.scheduler.plugins.volume_restrictions import (
    ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
    VolumeRestrictions,
)
from scheduler_core.scheduler.plugins.volume_zone import VolumeZone
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.scheduler.schedule_one import Scheduler
from scheduler_core.scheduler.snapshot import build_snapshot
from scheduler_core.scheduler.volume_lister import StaticVolumeLister
from scheduler_core.simulation.simulation import Simulation

HOSTNAME = "kubernetes.io/hostname"


def node(name: str, cpu: str = "4", **labels: str) -> Any:
    return parse_object(
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": name, "labels": {HOSTNAME: name, **labels}},
            "status": {"capacity": {"cpu": cpu, "memory": "8Gi", "pods": "110"}},
        }
    )


def pod(*claims: str, name: str = "pod-a", cpu: str = "100m", node_name: str = "") -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "app", "resources": {"requests": {"cpu": cpu}}}]}
    if claims:
        spec["volumes"] = [{"name": f"v{i}", "persistentVolumeClaim": {"claimName": c}} for i, c in enumerate(claims)]
    if node_name:
        spec["nodeName"] = node_name
    result: Pod = parse_object({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec})
    return result


def claim(name: str, cls: str | None = "wait", *, bound: str = "", storage: str = "1Gi", modes=("ReadWriteOnce",)):
    spec: dict[str, Any] = {"accessModes": list(modes), "resources": {"requests": {"storage": storage}}}
    if cls is not None:
        spec["storageClassName"] = cls
    meta: dict[str, Any] = {"name": name}
    if bound:
        spec["volumeName"] = bound
        meta["annotations"] = {ANN_BIND_COMPLETED: "yes"}
    result: PersistentVolumeClaim = parse_object(
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta, "spec": spec}
    )
    return result


def volume(name: str, cls: str = "wait", *, on: str = "", storage: str = "5Gi", labels=None, claim_ref: str = ""):
    spec: dict[str, Any] = {"capacity": {"storage": storage}, "accessModes": ["ReadWriteOnce"], "storageClassName": cls}
    if on:
        spec["nodeAffinity"] = {
            "required": {
                "nodeSelectorTerms": [{"matchExpressions": [{"key": HOSTNAME, "operator": "In", "values": [on]}]}]
            }
        }
    if claim_ref:
        namespace, _, claim_name = claim_ref.partition("/")
        spec["claimRef"] = {"namespace": namespace, "name": claim_name}
    result: PersistentVolume = parse_object(
        {
            "apiVersion": "v1",
            "kind": "PersistentVolume",
            "metadata": {"name": name, "labels": labels or {}},
            "spec": spec,
        }
    )
    return result


def storage_class(name: str, mode: str = "WaitForFirstConsumer", provisioner: str = "") -> StorageClass:
    manifest = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name}}
    manifest["volumeBindingMode"] = mode
    if provisioner:
        manifest["provisioner"] = provisioner
    result: StorageClass = parse_object(manifest)
    return result


CLASSES = [
    storage_class("wait", provisioner="kubernetes.io/no-provisioner"),
    storage_class("immediate", "Immediate", "example.com/disk"),
    storage_class("dynamic", provisioner="example.com/disk"),
]


def setup(nodes, claims=(), volumes=(), pods=()) -> tuple[VolumeBinding, Handle, StaticVolumeLister]:
    lister = StaticVolumeLister(claims, volumes, CLASSES)
    handle = Handle(snapshot=build_snapshot(nodes, pods), volumes=lister)
    return VolumeBinding({}, handle), handle, lister


def verdicts(plugin: Any, handle: Handle, p: Pod, state: CycleState | None = None) -> dict[str, Any]:
    state = state or CycleState()
    _, status = plugin.pre_filter(state, p, handle.snapshot.nodes())
    if not status.is_success:
        return {"preFilter": (status.code.name, status.reasons)}
    return {n.name: (s.code.name, s.reasons) for n in handle.snapshot.nodes() if (s := plugin.filter(state, p, n))}


# ---------------------------------------------------------------------------- PreFilter / Filter


def test_a_pod_without_claims_is_skipped_by_every_volume_plugin():
    plugin, handle, _ = setup([node("a")])
    state = CycleState()
    for each in (plugin, VolumeRestrictions({}, handle), NodeVolumeLimits({}, handle), VolumeZone({}, handle)):
        assert each.pre_filter(state, pod(), handle.snapshot.nodes())[1].code is Code.Skip


def test_a_missing_claim_is_unresolvable():
    plugin, handle, _ = setup([node("a")])
    assert verdicts(plugin, handle, pod("data")) == {
        "preFilter": ("UnschedulableAndUnresolvable", ('persistentvolumeclaim "data" not found',))
    }
    _, status = VolumeRestrictions({}, handle).pre_filter(CycleState(), pod("data"), [])
    assert status.reasons == ('persistentvolumeclaim "data" not found',)


def test_an_unbound_immediate_claim_keeps_the_pod_waiting():
    plugin, handle, _ = setup([node("a")], [claim("data", "immediate")])
    assert verdicts(plugin, handle, pod("data")) == {
        "preFilter": ("UnschedulableAndUnresolvable", (UNBOUND_IMMEDIATE,))
    }


def test_a_pre_bound_but_unbound_delay_claim_counts_as_immediate():
    pre_bound = replace(claim("data"), spec=replace(claim("data").spec, volume_name="pv-a"))
    plugin, handle, _ = setup([node("a")], [pre_bound], [volume("pv-a", on="a")])
    assert verdicts(plugin, handle, pod("data"))["preFilter"][1] == (UNBOUND_IMMEDIATE,)


def test_a_bound_claim_only_fits_the_node_of_its_volume():
    plugin, handle, _ = setup([node("a"), node("b")], [claim("data", bound="pv-a")], [volume("pv-a", on="a")])
    assert verdicts(plugin, handle, pod("data")) == {
        "a": ("Success", ()),
        "b": ("UnschedulableAndUnresolvable", (ERR_REASON_NODE_CONFLICT,)),
    }


def test_a_delay_binding_claim_fits_where_a_matching_volume_is_available():
    volumes = [
        volume("pv-a", on="a", storage="1Gi"),
        volume("pv-b", on="b", storage="500Mi"),
        volume("pv-c", "other", on="c"),
    ]
    plugin, handle, _ = setup([node("a"), node("b"), node("c")], [claim("data", storage="1Gi")], volumes)
    assert verdicts(plugin, handle, pod("data")) == {
        "a": ("Success", ()),
        "b": ("UnschedulableAndUnresolvable", (ERR_REASON_BIND_CONFLICT,)),  # too small
        "c": ("UnschedulableAndUnresolvable", (ERR_REASON_BIND_CONFLICT,)),  # another class
    }


def test_a_volume_bound_to_another_claim_or_with_other_access_modes_does_not_match():
    taken = volume("pv-a", on="a", claim_ref="default/other")
    rox = replace(volume("pv-b", on="b"), spec=replace(volume("pv-b", on="b").spec, access_modes=("ReadOnlyMany",)))
    plugin, handle, _ = setup([node("a"), node("b")], [claim("data")], [taken, rox])
    assert set(verdicts(plugin, handle, pod("data")).values()) == {
        ("UnschedulableAndUnresolvable", (ERR_REASON_BIND_CONFLICT,))
    }


def test_two_claims_never_get_the_same_volume():
    plugin, handle, _ = setup([node("a")], [claim("one"), claim("two")], [volume("pv-a", on="a")])
    assert verdicts(plugin, handle, pod("one", "two")) == {
        "a": ("UnschedulableAndUnresolvable", (ERR_REASON_BIND_CONFLICT,))
    }


def test_a_claim_of_a_class_with_a_provisioner_fits_every_node():
    plugin, handle, _ = setup([node("a"), node("b")], [claim("data", "dynamic")])
    assert verdicts(plugin, handle, pod("data")) == {"a": ("Success", ()), "b": ("Success", ())}


def test_a_claim_already_being_provisioned_for_a_node_only_fits_that_node():
    selected = claim("data", "dynamic")
    selected = replace(selected, metadata=replace(selected.metadata, annotations={ANN_SELECTED_NODE: "b"}))
    plugin, handle, _ = setup([node("a"), node("b")], [selected])
    assert verdicts(plugin, handle, pod("data")) == {
        "a": ("UnschedulableAndUnresolvable", (ERR_REASON_BIND_CONFLICT,)),
        "b": ("Success", ()),
    }


def test_a_claim_without_a_class_that_needs_provisioning_is_an_error():
    plugin, handle, _ = setup([node("a")], [claim("data", None)])
    classes = [*CLASSES, replace(storage_class("wait"), is_default=True)]
    handle.volumes = StaticVolumeLister([claim("data", "")], [], classes)
    # "" is no class at all: immediate binding (only a matching PV of no class would do)
    assert verdicts(plugin, handle, pod("data"))["preFilter"][1] == (UNBOUND_IMMEDIATE,)


# ---------------------------------------------------------------------------- Reserve / PreBind


def test_reserve_and_pre_bind_write_the_pvs_claim_ref_then_wait_for_the_binding():
    plugin, handle, lister = setup([node("a"), node("b")], [claim("data")], [volume("pv-b", on="b")])
    p, state = pod("data"), CycleState()
    plugin.pre_filter(state, p, handle.snapshot.nodes())
    assert plugin.filter(state, p, handle.snapshot.get("b")).is_success
    assert plugin.reserve(state, p, "b").is_success
    assert lister.volume("pv-b").spec.claim_ref == ""  # Reserve only assumes
    assert plugin.pre_bind(state, p, "b").code is Code.Wait
    written = lister.volume("pv-b")
    assert written.spec.claim_ref == "default/data"
    assert written.metadata.annotations[ANN_BOUND_BY_CONTROLLER] == "yes"
    assert plugin.pre_bind(state, p, "b").code is Code.Wait  # the PV controller has not bound the claim yet
    bound = claim("data", bound="pv-b")
    lister.update_claim(bound)
    assert plugin.pre_bind(state, p, "b").is_success


def test_pre_bind_asks_for_provisioning_on_the_chosen_node():
    plugin, handle, lister = setup([node("a")], [claim("data", "dynamic")])
    p, state = pod("data"), CycleState()
    plugin.pre_filter(state, p, handle.snapshot.nodes())
    plugin.filter(state, p, handle.snapshot.get("a"))
    plugin.reserve(state, p, "a")
    assert plugin.pre_bind(state, p, "a").code is Code.Wait
    assert lister.claim("default", "data").metadata.annotations[ANN_SELECTED_NODE] == "a"
    # The provisioner gives up and removes the annotation: scheduling must be retried.
    failed = lister.claim("default", "data")
    lister.update_claim(replace(failed, metadata=replace(failed.metadata, annotations={"other": "x"})))
    status = plugin.pre_bind(state, p, "a")
    assert status.code is Code.Error
    assert status.message == 'binding volumes: provisioning failed for PVC "data"'


def test_reserve_of_a_pod_whose_claims_are_bound_needs_no_pre_bind():
    plugin, handle, lister = setup([node("a")], [claim("data", bound="pv-a")], [volume("pv-a", on="a")])
    p, state = pod("data"), CycleState()
    plugin.pre_filter(state, p, handle.snapshot.nodes())
    plugin.filter(state, p, handle.snapshot.get("a"))
    assert plugin.reserve(state, p, "a").is_success
    assert plugin.pre_bind(state, p, "a").is_success
    assert lister.volume("pv-a").spec.claim_ref == ""  # nothing written


def test_a_pv_that_no_longer_fits_the_node_fails_the_binding():
    plugin, handle, lister = setup([node("a")], [claim("data")], [volume("pv-a", on="a")])
    p, state = pod("data"), CycleState()
    plugin.pre_filter(state, p, handle.snapshot.nodes())
    plugin.filter(state, p, handle.snapshot.get("a"))
    plugin.reserve(state, p, "a")
    plugin.pre_bind(state, p, "a")
    moved = lister.volume("pv-a")
    lister.update_volume(replace(moved, spec=replace(moved.spec, node_affinity=volume("x", on="z").spec.node_affinity)))
    status = plugin.pre_bind(state, p, "a")
    assert status.message == (
        'binding volumes: pv "pv-a" node affinity doesn\'t match node "a": no matching NodeSelectorTerms'
    )


# ---------------------------------------------------------------------------- the other volume plugins


def test_a_read_write_once_pod_claim_in_use_makes_the_pod_unschedulable():
    rwop = claim("data", bound="pv-a", modes=("ReadWriteOncePod",))
    user = pod("data", name="user", node_name="a")
    _, handle, _ = setup([node("a"), node("b")], [rwop], [volume("pv-a")], pods=[user])
    restrictions, state = VolumeRestrictions({}, handle), CycleState()
    assert restrictions.pre_filter(state, pod("data"), handle.snapshot.nodes())[1].is_success
    status = restrictions.filter(state, pod("data"), handle.snapshot.get("b"))
    assert (status.code, status.reasons) == (Code.Unschedulable, (ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,))
    # Preemption's what-if: without the user the claim is free.
    assert restrictions.remove_pod(
        state, pod("data"), handle.snapshot.get("a").pods[0], handle.snapshot.get("a")
    ).is_success
    assert restrictions.filter(state, pod("data"), handle.snapshot.get("b")).is_success


def test_volume_zone_keeps_a_pod_in_the_zone_of_its_bound_volume():
    zoned = volume("pv-a", labels={"topology.kubernetes.io/zone": "z1"})
    nodes = [node("a", **{"topology.kubernetes.io/zone": "z1"}), node("b", **{"topology.kubernetes.io/zone": "z2"})]
    _, handle, _ = setup(nodes, [claim("data", bound="pv-a")], [zoned])
    zone = VolumeZone({}, handle)
    assert verdicts(zone, handle, pod("data")) == {
        "a": ("Success", ()),
        "b": ("UnschedulableAndUnresolvable", ("node(s) had no available volume zone",)),
    }


# ---------------------------------------------------------------------------- through the scheduler


def schedule(nodes, claims=(), volumes=(), pods=(), incoming: Pod | None = None):
    scheduler = Scheduler(seed=1)
    for n in nodes:
        scheduler.snapshot.add_node(n)
    for p in pods:
        scheduler.snapshot.add_pod(p)
    scheduler.handle.volumes = StaticVolumeLister(claims, volumes, CLASSES)
    return scheduler.schedule_pod(incoming or pod("data"))


def test_failed_scheduling_names_the_volume_conflicts():
    busy = pod(name="busy", cpu="4", node_name="a")
    result = schedule(
        [node("a"), node("b"), node("c")], [claim("data", bound="pv-a")], [volume("pv-a", on="a")], [busy]
    )
    assert result.selected is None
    assert result.message == (
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had volume node affinity conflict."
        " no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for"
        " incoming pod, 2 Preemption is not helpful for scheduling."
    )


def test_failed_scheduling_for_an_unbound_immediate_claim():
    """PreFilter stops at VolumeBinding, so DynamicResources' PreFilter never ran and its PostFilter
    fails with "not found" (as v1.34 clusters report it, with no preemption text)."""
    result = schedule([node("a"), node("b")], [claim("data", "immediate")])
    assert result.message == "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found"


def test_no_local_volume_left_for_a_delay_binding_claim():
    result = schedule([node("a"), node("b")], [claim("data")], [volume("pv-a", on="a", claim_ref="default/x")])
    assert result.message.startswith(
        "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind."
    )


# ---------------------------------------------------------------------------- in a simulation


WAITING = """apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers: [{name: app, image: app, resources: {requests: {cpu: 1500m}}}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: v1
kind: Pod
metadata: {name: other}
spec:
  containers: [{name: app, image: app, resources: {requests: {cpu: 1}}}]
"""


def without_pv_controller(text: str) -> Simulation:
    return Simulation(load_manifests(text), controllers=[SchedulerController, Kubelet])


def test_the_pod_waiting_for_its_volumes_holds_its_place_on_the_node():
    """Without a PV controller nothing binds the claim: PreBind waits, the pod stays assumed (so
    "other" does not fit beside it) and gives up after bindTimeoutSeconds (600 s)."""
    sim = without_pv_controller(WAITING)
    sim.run_to_end(until=599)
    assert sim.cluster.get(PersistentVolumeClaim, "default/data").metadata.annotations[ANN_SELECTED_NODE] == "node-a"
    assert sim.cluster.get(Pod, "default/app").spec.node_name == ""
    other = [e for e in sim.cluster.events if e.object == "Pod/default/other"]
    assert other[0].reason == "FailedScheduling"
    assert other[0].message.startswith("0/1 nodes are available: 1 Insufficient cpu.")

    sim = without_pv_controller(WAITING)
    sim.run_to_end(until=601)
    app = [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == "Pod/default/app"]
    assert app[0] == (
        600.0,
        "FailedScheduling",
        'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
    )
    # Forgotten: "other" fits now.
    assert sim.cluster.get(Pod, "default/other").spec.node_name == "node-a"


def test_a_pod_deleted_while_its_volumes_bind_is_given_up():
    sim = without_pv_controller(
        WAITING + "---\napiVersion: playground/v1\nkind: Action\nspec: {at: 5500ms, op: delete, target: Pod/app}\n"
    )
    sim.run_to_end(until=20)
    app = [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == "Pod/default/app"]
    assert app == [
        (
            6.0,
            "FailedScheduling",
            'running PreBind plugin "VolumeBinding": binding volumes: pod does not exist any more: pod "app" not found',
        )
    ]
    assert sim.cluster.get(Pod, "default/other").spec.node_name == "node-a"


def test_with_the_pv_controller_the_pod_is_bound_a_second_after_its_volume():
    sim = Simulation(load_manifests(WAITING))
    sim.run_to_end()
    reasons = [
        (e.time, e.object, e.reason) for e in sim.cluster.events if e.reason != "Pulled" and e.reason != "Created"
    ]
    assert reasons[:6] == [
        (0.0, "PersistentVolumeClaim/default/data", "WaitForFirstConsumer"),
        (0.0, "PersistentVolumeClaim/default/data", "ExternalProvisioning"),
        (0.0, "PersistentVolumeClaim/default/data", "Provisioning"),
        (0.0, "PersistentVolumeClaim/default/data", "ProvisioningSucceeded"),
        (0.0, "Pod/default/other", "FailedScheduling"),
        (1.0, "Pod/default/app", "Scheduled"),
    ]


@pytest.mark.parametrize("name", ["VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone"])
def test_the_default_profile_runs_the_volume_plugins(name):
    scheduler = Scheduler()
    framework = next(iter(scheduler.frameworks.values()))
    assert framework.plugin(name) is not None
    assert any(plugin.name == "VolumeBinding" for plugin in framework.points["preBind"])
    assert any(plugin.name == "VolumeBinding" for plugin in framework.points["reserve"])
    assert all(plugin.name != "VolumeBinding" for plugin in framework.points["score"])

"""The PV controller's binder and the simulated external provisioner."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.volumes import ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER
from scheduler_core.api.workloads import PersistentVolume, PersistentVolumeClaim
from scheduler_core.simulation.simulation import Simulation

NODE = """apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def pv(name: str, storage: str = "1Gi", cls: str = "manual", *, policy: str = "Retain", extra: str = "") -> str:
    return f"""apiVersion: v1
kind: PersistentVolume
metadata: {{name: {name}}}
spec:
  capacity: {{storage: {storage}}}
  accessModes: [ReadWriteOnce]
  storageClassName: "{cls}"
  persistentVolumeReclaimPolicy: {policy}
  hostPath: {{path: /data/{name}}}
{extra}"""


def pvc(name: str = "data", storage: str = "1Gi", cls: str | None = "manual", extra: str = "") -> str:
    class_line = f'  storageClassName: "{cls}"\n' if cls is not None else ""
    return f"""apiVersion: v1
kind: PersistentVolumeClaim
metadata: {{name: {name}}}
spec:
  accessModes: [ReadWriteOnce]
  resources: {{requests: {{storage: {storage}}}}}
{class_line}{extra}"""


def storage_class(name: str, provisioner: str, mode: str = "Immediate", default: bool = False, policy: str = "Delete"):
    annotations = '  annotations: {storageclass.kubernetes.io/is-default-class: "true"}\n' if default else ""
    return f"""apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: {name}
{annotations}provisioner: {provisioner}
volumeBindingMode: {mode}
reclaimPolicy: {policy}
"""


def pod(name: str = "app", claim: str = "data") -> str:
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  containers: [{{name: app, image: app}}]
  volumes: [{{name: data, persistentVolumeClaim: {{claimName: {claim}}}}}]
"""


def action(at: str, op: str, target: str = "", extra: str = "") -> str:
    target_part = f", target: {target}" if target else ""
    return f"""apiVersion: playground/v1
kind: Action
spec: {{at: {at}, op: {op}{target_part}{extra}}}
"""


def simulate(*documents: str, until: float | None = None) -> Simulation:
    simulation = Simulation(load_manifests("---\n".join(documents)))
    simulation.run_to_end(until)
    return simulation


def claim_events(sim: Simulation, name: str = "data") -> list[tuple[float, str, str, str]]:
    ref = f"PersistentVolumeClaim/default/{name}"
    return [(e.time, e.type, e.reason, e.message) for e in sim.cluster.events if e.object == ref]


def test_an_immediate_claim_binds_the_smallest_volume_that_fits():
    sim = simulate(pv("big", "10Gi"), pv("small", "500Mi"), pv("right", "2Gi"), pvc(storage="1Gi"))
    claim = sim.cluster.get(PersistentVolumeClaim, "default/data")
    assert claim.spec.volume_name == "right"
    assert claim.status.phase == "Bound" and claim.status.capacity == 2 * 1024**3
    assert claim.metadata.annotations[ANN_BIND_COMPLETED] == "yes"
    assert claim.metadata.annotations[ANN_BOUND_BY_CONTROLLER] == "yes"
    volume = sim.cluster.get(PersistentVolume, "right")
    assert (volume.spec.claim_ref, volume.phase) == ("default/data", "Bound")
    assert sim.cluster.get(PersistentVolume, "big").phase == "Available"
    assert claim_events(sim) == []  # binding records no event


def test_a_volume_pre_bound_to_the_claim_wins():
    prebound = pv("reserved", "10Gi", extra="  claimRef: {namespace: default, name: data}\n")
    sim = simulate(pv("right", "1Gi"), prebound, pvc())
    assert sim.cluster.get(PersistentVolumeClaim, "default/data").spec.volume_name == "reserved"
    assert ANN_BOUND_BY_CONTROLLER not in sim.cluster.get(PersistentVolume, "reserved").metadata.annotations


def test_a_claim_naming_its_volume_binds_to_it_or_reports_the_mismatch():
    sim = simulate(pv("mine", "1Gi"), pvc(extra="  volumeName: mine\n"))
    assert sim.cluster.get(PersistentVolume, "mine").spec.claim_ref == "default/data"
    sim = simulate(pv("tiny", "100Mi"), pvc(extra="  volumeName: tiny\n"))
    assert claim_events(sim) == [
        (0.0, "Warning", "VolumeMismatch", 'Cannot bind to requested volume "tiny": requested PV is too small')
    ]


def test_no_volume_and_no_class():
    sim = simulate(pvc(cls=""))
    assert claim_events(sim) == [
        (0.0, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set")
    ]
    assert sim.cluster.get(PersistentVolumeClaim, "default/data").status.phase == "Pending"


def test_a_claim_without_a_class_gets_the_default_one_and_is_provisioned():
    sim = simulate(storage_class("standard", "example.com/disk", default=True), pvc(cls=None))
    claim = sim.cluster.get(PersistentVolumeClaim, "default/data")
    assert claim.spec.storage_class_name == "standard"
    name = f"pvc-{claim.metadata.uid}"
    assert claim.spec.volume_name == name
    volume = sim.cluster.get(PersistentVolume, name)
    assert volume.spec.node_affinity is None  # Immediate: provisioned without a node
    assert (volume.spec.storage, volume.spec.reclaim_policy, volume.phase) == (1024**3, "Delete", "Bound")
    assert [(reason, source) for reason, source in ((e.reason, e.source) for e in sim.cluster.events)] == [
        ("ExternalProvisioning", "persistentvolume-controller"),
        ("Provisioning", "example.com/disk"),
        ("ProvisioningSucceeded", "example.com/disk"),
    ]


def test_provisioning_failures():
    sim = simulate(pvc(cls="missing"))
    assert claim_events(sim) == [
        (0.0, "Warning", "ProvisioningFailed", 'storageclass.storage.k8s.io "missing" not found')
    ]
    sim = simulate(storage_class("local", "kubernetes.io/no-provisioner"), pvc(cls="local"))
    assert claim_events(sim) == [
        (0.0, "Warning", "ProvisioningFailed", "no volume plugin matched name: kubernetes.io/no-provisioner")
    ]


def test_a_class_created_later_lets_a_waiting_claim_be_provisioned():
    sim = simulate(
        pvc(cls="late"), action("10s", "apply", extra=", manifest: " + _flow(storage_class("late", "x.io/d")))
    )
    assert sim.cluster.get(PersistentVolumeClaim, "default/data").status.phase == "Bound"
    assert [e[0] for e in claim_events(sim) if e[2] == "ProvisioningSucceeded"] == [10.0]


def _flow(manifest: str) -> str:
    import json

    import yaml

    return json.dumps(yaml.safe_load(manifest))


def test_wait_for_first_consumer_claims_wait_and_say_for_whom():
    wffc = storage_class("local", "kubernetes.io/no-provisioner", "WaitForFirstConsumer")
    sim = simulate(wffc, pvc(cls="local"))
    assert claim_events(sim) == [
        (0.0, "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding")
    ]
    # A pod using the claim that exists before it: named in the event. (No node fits it: nothing is bound.)
    sim = simulate(NODE, wffc, pod(), pvc(cls="local"))
    assert claim_events(sim) == [(0.0, "Normal", "WaitForPodScheduled", "waiting for pod app to be scheduled")]


def test_a_released_volume_is_retained_and_not_bound_again():
    sim = simulate(
        pv("disk"),
        pvc(),
        action("10s", "delete", "PersistentVolumeClaim/data"),
        action("20s", "apply", extra=", manifest: " + _flow(pvc())),
    )
    volume = sim.cluster.get(PersistentVolume, "disk")
    assert (volume.phase, volume.spec.claim_ref) == ("Released", "default/data")
    claim = sim.cluster.get(PersistentVolumeClaim, "default/data")
    assert (claim.status.phase, claim.spec.volume_name) == ("Pending", "")


def test_reclaim_delete_deletes_a_provisioned_volume_and_fails_on_a_static_one():
    sim = simulate(
        storage_class("standard", "example.com/disk"),
        pvc(cls="standard"),
        action("10s", "delete", "PersistentVolumeClaim/data"),
    )
    assert sim.cluster.objects(PersistentVolume) == []
    sim = simulate(pv("disk", policy="Delete"), pvc(), action("10s", "delete", "PersistentVolumeClaim/data"))
    assert sim.cluster.get(PersistentVolume, "disk").phase == "Failed"
    assert [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == "PersistentVolume/disk"] == [
        (
            10.0,
            "VolumeFailedDelete",
            'error getting deleter volume plugin for volume "disk": no deletable volume plugin matched',
        )
    ]


def test_a_bound_claim_whose_volume_disappears_is_lost():
    sim = simulate(
        NODE,
        pv("disk"),
        pvc(),
        action("10s", "delete", "PersistentVolume/disk"),
        action("20s", "apply", extra=", manifest: " + _flow(pod())),
    )
    assert claim_events(sim) == [
        (10.0, "Warning", "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!")
    ]
    assert sim.cluster.get(PersistentVolumeClaim, "default/data").status.phase == "Lost"
    failed = [e.message for e in sim.cluster.events if e.object == "Pod/default/app"]
    assert failed[0] == (
        '0/1 nodes are available: persistentvolumeclaim "data" bound to non-existent persistentvolume "disk". not found'
    )


def test_a_pod_waits_for_its_immediate_claim_and_is_scheduled_once_it_binds():
    sim = simulate(
        NODE,
        pvc(),
        pod(),
        action("10s", "apply", extra=", manifest: " + _flow(pv("disk"))),
    )
    events = [(e.time, e.reason, e.message) for e in sim.cluster.events if e.object == "Pod/default/app"]
    assert events[0] == (
        0.0,
        "FailedScheduling",
        "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found",
    )
    assert (10.0, "Scheduled", "Successfully assigned default/app to node-a") in events

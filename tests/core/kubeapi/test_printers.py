"""Server-side printing (scheduler_core/kubeapi/printers.py) against upstream's printers.

A table's comment names the upstream test it ports, "[printers_test.go; v1.34.1]": the cases of
kubernetes/kubernetes pkg/printers/internalversion/printers_test.go (the version the code index
stores, id 100530230: post-1.31, with the Job "Status" column and the restartable init container
cases), checked against printers.go of Kubernetes v1.34.1 (k8s.io/kubernetes v1.34.1, as vendored by
openshift/openshift-apiserver at 56aa2d96edd7), whose rules the other cases follow. Ported to the
engine's objects: a Go test's `time.Now().Add(1.9e9)` creation is NOW + 1.9 here ("0s"), and an
age upstream prints "<unknown>" for a zero CreationTimestamp is the age of the engine's creation
time (it always has one).
"""

from dataclasses import replace
from typing import Any

import pytest

from scheduler_core.api.container_states import RUNNING, TERMINATED, WAITING, ContainerState
from scheduler_core.api.manifest_writer import format_timestamp
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.object_manifest import _WRITERS
from scheduler_core.api.types import (
    Condition,
    Container,
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    Node,
    NodeCondition,
    NodeSpec,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
    PodSpec,
    PodStatus,
    PriorityClass,
)
from scheduler_core.api.workloads import (
    CronJob,
    CronJobSpec,
    CronJobStatus,
    DaemonSet,
    DaemonSetSpec,
    DaemonSetStatus,
    Deployment,
    DeploymentSpec,
    DeploymentStatus,
    HorizontalPodAutoscaler,
    HorizontalPodAutoscalerSpec,
    HorizontalPodAutoscalerStatus,
    Ingress,
    IngressRule,
    IngressSpec,
    Job,
    JobReference,
    JobSpec,
    JobStatus,
    LimitRange,
    MetricStatus,
    MetricTarget,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeClaimStatus,
    PersistentVolumeSpec,
    PodTemplateSpec,
    ReplicaSet,
    ReplicaSetSpec,
    ReplicaSetStatus,
    ResourceQuota,
    Service,
    ServicePort,
    ServiceSpec,
    StatefulSet,
    StatefulSetSpec,
    StatefulSetStatus,
    StorageClass,
)
from scheduler_core.kubeapi.printers import DEFAULT_COLUMNS, Column, printed_cells, printed_columns
from scheduler_core.kubeapi.printers_common import age
from scheduler_core.kubeapi.printers_pod import pod_summary, readiness_gates_cell, restarts_cell
from scheduler_core.kubeapi.printers_swagger import SWAGGER

NOW = 1_000_000.0
SOON = NOW + 1.9  # upstream's time.Now().Add(1.9e9): ages "0s"
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0

TWO_CONTAINERS = (Container("fake-container1", "fake-image1"), Container("fake-container2", "fake-image2"))
CONTAINER_CELLS = ["fake-container1,fake-container2", "fake-image1,fake-image2"]
JOB_CONTAINERS = (
    Container("fake-job-container1", "fake-job-image1"),
    Container("fake-job-container2", "fake-job-image2"),
)
JOB_CONTAINER_CELLS = ["fake-job-container1,fake-job-container2", "fake-job-image1,fake-job-image2"]
FOO_BAR = LabelSelector(match_labels={"foo": "bar"})


def meta(name: str, created: float = SOON, **fields: Any) -> ObjectMeta:
    return ObjectMeta(name, creation_timestamp=created, **fields)


def template(containers: tuple[Container, ...] = TWO_CONTAINERS, **spec: Any) -> PodTemplateSpec:
    return PodTemplateSpec(spec=PodSpec(containers=containers, **spec))


# ---------------------------------------------------------------------------- columns

# Every printer's columns in upstream's order (printers.go v1.34.1 AddHandlers): "Name:type" (type
# string unless named), "+" before a column of priority 1.
EXPECTED_COLUMNS = {
    "Pod": "Name, Ready, Status, Restarts, Age, +IP, +Node, +Nominated Node, +Readiness Gates",
    "Node": (
        "Name, Status, Roles, Age, Version, +Internal-IP, +External-IP, +OS-Image, +Kernel-Version, +Container-Runtime"
    ),
    "Namespace": "Name, Status, Age",
    "PriorityClass": "Name, Value:integer, Global-Default:boolean, Age, PreemptionPolicy",
    "PodDisruptionBudget": "Name, Min Available, Max Unavailable, Allowed Disruptions:integer, Age",
    "Deployment": "Name, Ready, Up-to-date, Available, Age, +Containers, +Images, +Selector",
    "ReplicaSet": "Name, Desired:integer, Current:integer, Ready:integer, Age, +Containers, +Images, +Selector",
    "StatefulSet": "Name, Ready, Age, +Containers, +Images",
    "DaemonSet": (
        "Name, Desired:integer, Current:integer, Ready:integer, Up-to-date:integer, Available:integer, "
        "Node Selector, Age, +Containers, +Images, +Selector"
    ),
    "Job": "Name, Status, Completions, Duration, Age, +Containers, +Images, +Selector",
    "CronJob": (
        "Name, Schedule, Timezone, Suspend:boolean, Active:integer, Last Schedule, Age, +Containers, +Images, +Selector"
    ),
    "HorizontalPodAutoscaler": "Name, Reference, Targets, MinPods, MaxPods, Replicas, Age",
    "Service": "Name, Type, Cluster-IP, External-IP, Port(s), Age, +Selector",
    "Ingress": "Name, Class, Hosts, Address, Ports, Age",
    "PersistentVolume": (
        "Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass, VolumeAttributesClass, Reason, "
        "Age, +VolumeMode"
    ),
    "PersistentVolumeClaim": (
        "Name, Status, Volume, Capacity, Access Modes, StorageClass, VolumeAttributesClass, Age, +VolumeMode"
    ),
    "StorageClass": "Name, Provisioner, ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age",
    "ResourceQuota": "Name, Request, Limit, Age",
}


def expected_columns(kind: str) -> list[tuple[str, str, int]]:
    """(name, type, priority) of each column EXPECTED_COLUMNS lists for the kind."""
    columns = []
    for item in EXPECTED_COLUMNS[kind].split(", "):
        name, _, column_type = item.removeprefix("+").partition(":")
        columns.append((name, column_type or "string", 1 if item.startswith("+") else 0))
    return columns


@pytest.mark.parametrize("kind", sorted(EXPECTED_COLUMNS))
def test_columns_are_upstreams(kind: str) -> None:
    columns = printed_columns(kind)
    assert columns is not None
    assert [(c.name, c.type, c.priority) for c in columns] == expected_columns(kind)
    assert [c.format for c in columns] == ["name" if c.name == "Name" and i == 0 else "" for i, c in enumerate(columns)]


@pytest.mark.parametrize("kind", sorted(EXPECTED_COLUMNS))
def test_wide_columns_come_after_the_others(kind: str) -> None:
    priorities = [c.priority for c in printed_columns(kind) or ()]
    assert priorities == sorted(priorities)


@pytest.mark.parametrize("kind", ["LimitRange", "Event", "Secret", "NoSuchKind"])
def test_a_kind_without_a_printer_has_no_columns(kind: str) -> None:
    assert printed_columns(kind) is None


def test_descriptions_are_upstreams_texts() -> None:
    pod = {c.name: c for c in printed_columns("Pod") or ()}
    assert pod["Name"].description.startswith("Name must be unique within a namespace.")
    assert pod["Age"].description == SWAGGER["metav1.ObjectMeta.creationTimestamp"]
    assert pod["Age"].description.endswith("api-conventions.md#metadata")
    assert pod["Ready"].description == "The aggregate readiness state of this pod for accepting traffic."
    assert pod["Node"].description == SWAGGER["apiv1.PodSpec.nodeName"]
    job = {c.name: c.description for c in printed_columns("Job") or ()}
    assert job["Status"] == "Status of the job."
    assert job["Completions"].startswith("The number of pods which reached phase Succeeded.")
    assert (
        Column("Name", "string", "name", SWAGGER["metav1.ObjectMeta.name"], 0),
        Column("Created At", "date", "", SWAGGER["metav1.ObjectMeta.creationTimestamp"], 0),
    ) == DEFAULT_COLUMNS


# One object of every kind the store keeps, as a manifest (what the engine reads and writes).
POD_SPEC: dict[str, Any] = {"containers": [{"name": "c", "image": "nginx"}]}
TEMPLATE = {"metadata": {"labels": {"app": "web"}}, "spec": POD_SPEC}
SELECTOR = {"matchLabels": {"app": "web"}}
MANIFESTS: list[dict[str, Any]] = [
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": POD_SPEC},
    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"capacity": {"cpu": "4"}}},
    {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}},
    {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"}, "value": 1000},
    {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": "pdb"},
        "spec": {"minAvailable": 1, "selector": SELECTOR},
    },
    {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d"},
        "spec": {"selector": SELECTOR, "template": TEMPLATE},
    },
    {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {"name": "rs"},
        "spec": {"selector": SELECTOR, "template": TEMPLATE},
    },
    {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "ss"},
        "spec": {"selector": SELECTOR, "template": TEMPLATE, "serviceName": "web"},
    },
    {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "ds"},
        "spec": {"selector": SELECTOR, "template": TEMPLATE},
    },
    {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j"},
        "spec": {"template": {"spec": {**POD_SPEC, "restartPolicy": "Never"}}},
    },
    {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": "cj"},
        "spec": {
            "schedule": "*/5 * * * *",
            "jobTemplate": {"spec": {"template": {"spec": {**POD_SPEC, "restartPolicy": "Never"}}}},
        },
    },
    {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "hpa"},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"},
            "maxReplicas": 5,
            "metrics": [
                {
                    "type": "Resource",
                    "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}},
                }
            ],
        },
    },
    {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "svc"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]},
    },
    {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": {"name": "ing"},
        "spec": {"rules": [{"host": "example.com"}]},
    },
    {
        "apiVersion": "v1",
        "kind": "PersistentVolume",
        "metadata": {"name": "pv"},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"]},
    },
    {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "pvc"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    },
    {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {"name": "standard"},
        "provisioner": "example.com/disk",
    },
    {
        "apiVersion": "v1",
        "kind": "LimitRange",
        "metadata": {"name": "limits"},
        "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m"}}]},
    },
    {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "quota"}, "spec": {"hard": {"pods": "10"}}},
]
PYTHON_TYPES = {"string": str, "integer": int, "boolean": bool, "number": float, "date": str}
# Cells upstream fills with another type than its column's (printers_test.go expects these too).
UPSTREAM_CELL_TYPES = {
    ("CronJob", "Suspend"): str,  # printBoolPtr: "False"
    ("Deployment", "Up-to-date"): int,
    ("Deployment", "Available"): int,
    ("HorizontalPodAutoscaler", "MaxPods"): int,
    ("HorizontalPodAutoscaler", "Replicas"): int,
    ("StorageClass", "AllowVolumeExpansion"): bool,
}


def test_the_manifests_cover_every_stored_kind() -> None:
    assert {type(parse_object(m)) for m in MANIFESTS} == set(_WRITERS)


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m["kind"] for m in MANIFESTS])
def test_a_row_has_a_cell_for_every_column(manifest: dict[str, Any]) -> None:
    obj = parse_object(manifest)
    columns = printed_columns(manifest["kind"]) or DEFAULT_COLUMNS
    cells = printed_cells(obj, NOW)
    assert len(cells) == len(columns)
    for column, cell in zip(columns, cells, strict=True):
        expected = UPSTREAM_CELL_TYPES.get((manifest["kind"], column.name), PYTHON_TYPES[column.type])
        assert isinstance(cell, expected), (column.name, cell)


def test_an_object_the_store_does_not_keep_has_no_printer() -> None:
    with pytest.raises(TypeError):
        printed_cells(object(), NOW)


# ---------------------------------------------------------------------------- ages


# TestTranslateTimestampSince [printers_test.go; v1.34.1]: seconds since, as translateTimestampSince prints them.
@pytest.mark.parametrize(
    ("since", "expected"),
    [
        (NOW + 2.1, "<invalid>"),  # a while from now
        (NOW + 1.9, "0s"),  # almost now
        (NOW, "0s"),
        (None, "<unknown>"),
        (NOW - 30, "30s"),
        (NOW - 300, "5m"),
        (NOW - 6000, "100m"),
        (NOW - 2 * DAY, "2d"),
        (NOW - 90 * DAY, "90d"),
        (NOW - 10 * 365 * DAY, "10y"),
    ],
)
def test_ages(since: float | None, expected: str) -> None:
    assert age(since, NOW) == expected


# ---------------------------------------------------------------------------- pods


def state(
    kind: str = "",
    reason: str = "",
    *,
    name: str = "c",
    ready: bool = False,
    restarts: int = 0,
    exit_code: int | None = None,
    started: bool = False,
) -> ContainerState:
    """A ContainerStatus; kind "" is one that reports no state at all (upstream's `{RestartCount: 3}`)."""
    return ContainerState(
        name, "", kind, reason, ready=ready, started=started, exit_code=exit_code, restart_count=restarts
    )


def bare_pod(containers: int = 2, init: int = 0, phase: str = "podPhase", reason: str = "", **fields: Any) -> Pod:
    spec = PodSpec(
        containers=tuple(Container(f"c{i}") for i in range(containers)),
        init_containers=tuple(Container(f"i{i}") for i in range(init)),
    )
    return Pod(meta("test", **fields), spec, PodStatus(phase=phase, reason=reason))


def sidecar_pod(phase: str) -> Pod:
    sidecars = tuple(Container(f"restartable-init-{i}", restart_policy="Always") for i in (1, 2))
    return Pod(meta("test"), PodSpec(containers=(Container("c"),), init_containers=sidecars), PodStatus(phase=phase))


RUNNING_READY = state(RUNNING, ready=True, restarts=3)
READY_TRUE = (PodCondition("Ready", "True"),)
INITIALIZED = (PodCondition("Initialized", "True"),)
NOT_INITIALIZED = (PodCondition("Initialized", "False"),)
GATED = (PodCondition("PodScheduled", "False", "SchedulingGated"),)
DELETED = NOW - 10


# TestPrintPod, TestPrintPodWithRestartableInitContainer, TestPrintNonTerminatedPod [printers_test.go; v1.34.1]:
# READY, STATUS and the restart count, as printPod reads the container statuses.
@pytest.mark.parametrize(
    ("pod", "init_states", "states", "conditions", "expected"),
    [
        # test1: name, containers, restarts, readiness
        (bare_pod(), [], [RUNNING_READY, state(restarts=3)], (), ("1/2", "podPhase", 6)),
        # test2: a container's waiting reason overrides the phase
        (
            bare_pod(),
            [],
            [RUNNING_READY, state(WAITING, "ContainerWaitingReason", restarts=3)],
            (),
            ("1/2", "ContainerWaitingReason", 6),
        ),
        # test3: the first container's reason wins
        (
            bare_pod(),
            [],
            [
                state(WAITING, "ContainerWaitingReason", restarts=3),
                state(TERMINATED, "ContainerTerminatedReason", restarts=3),
            ],
            (),
            ("0/2", "ContainerWaitingReason", 6),
        ),
        # test4: ready is not enough for running
        (bare_pod(), [], [RUNNING_READY, state(ready=True, restarts=3)], (), ("1/2", "podPhase", 6)),
        # test5: status.reason over the phase
        (bare_pod(reason="podReason"), [], [RUNNING_READY, state(ready=True, restarts=3)], (), ("1/2", "podReason", 6)),
        # test6: one container completed, one running: NotReady without the Ready condition...
        (
            bare_pod(phase="Running"),
            [],
            [state(TERMINATED, "Completed", ready=True, restarts=3, exit_code=0), RUNNING_READY],
            (),
            ("1/2", "NotReady", 6),
        ),
        # ... Running with it
        (
            bare_pod(phase="Running"),
            [],
            [state(TERMINATED, "Completed", ready=True, restarts=3, exit_code=0), RUNNING_READY],
            READY_TRUE,
            ("1/2", "Running", 6),
        ),
        # test7: an init container restarting, a container not running
        (bare_pod(1, 1), [state(RUNNING, restarts=3)], [state(WAITING)], (), ("0/1", "Init:0/1", 3)),
        # test8: two init containers, the first restarting
        (bare_pod(1, 2), [state(RUNNING, restarts=3), state(WAITING)], [state(WAITING)], (), ("0/1", "Init:0/2", 3)),
        # test9: the first init container done, the second restarting
        (
            bare_pod(1, 2),
            [state(TERMINATED, exit_code=0), state(RUNNING, restarts=3)],
            [state(WAITING)],
            (),
            ("0/1", "Init:1/2", 3),
        ),
        # test10: the first done after restarts, the second restarting
        (
            bare_pod(1, 2),
            [state(TERMINATED, restarts=2, exit_code=0), state(RUNNING, restarts=3)],
            [state(WAITING)],
            (),
            ("0/1", "Init:1/2", 5),
        ),
        # test11: init done with restarts, the container restarting: only the container's count
        (
            bare_pod(1, 1, "Running"),
            [state(TERMINATED, restarts=2, exit_code=0)],
            [state(RUNNING, restarts=4)],
            (),
            ("0/1", "Running", 4),
        ),
        # test15: the PodScheduled condition says SchedulingGated
        (bare_pod(), [], [], GATED, ("0/2", "SchedulingGated", 0)),
        # test16, test17: Succeeded and Failed
        (
            bare_pod(1, phase="Succeeded"),
            [],
            [state(TERMINATED, "Completed", exit_code=0)],
            (),
            ("0/1", "Completed", 0),
        ),
        (bare_pod(1, phase="Failed"), [], [state(TERMINATED, "Error", exit_code=1)], (), ("0/1", "Error", 0)),
        # test18: a Succeeded pod being deleted stays Completed
        (
            bare_pod(1, phase="Succeeded", deletion_timestamp=DELETED),
            [],
            [state(TERMINATED, "Completed", exit_code=0)],
            (),
            ("0/1", "Completed", 0),
        ),
        # test19, test20: a Running or Pending pod being deleted is Terminating
        (bare_pod(1, phase="Running", deletion_timestamp=DELETED), [], [state(RUNNING)], (), ("0/1", "Terminating", 0)),
        (bare_pod(1, phase="Pending", deletion_timestamp=DELETED), [], [], (), ("0/1", "Terminating", 0)),
        # printPod: a pod lost with its node and being deleted is Unknown
        (
            bare_pod(1, phase="Running", reason="NodeLost", deletion_timestamp=DELETED),
            [],
            [state(RUNNING)],
            (),
            ("0/1", "Unknown", 0),
        ),
        # printPod: an init container that failed without a reason, and one waiting for a reason
        (
            bare_pod(1, 1, "Pending"),
            [state(TERMINATED, exit_code=1)],
            [state(WAITING, "PodInitializing")],
            (),
            ("0/1", "Init:ExitCode:1", 0),
        ),
        (
            bare_pod(1, 1, "Pending"),
            [state(WAITING, "ImagePullBackOff")],
            [state(WAITING, "PodInitializing")],
            (),
            ("0/1", "Init:ImagePullBackOff", 0),
        ),
        # TestPrintNonTerminatedPod: the phase when nothing overrides it
        (bare_pod(phase="Pending"), [], [RUNNING_READY, state(restarts=3)], (), ("1/2", "Pending", 6)),
        (bare_pod(phase="Unknown"), [], [RUNNING_READY, state(restarts=3)], (), ("1/2", "Unknown", 6)),
        # TestPrintPodWithRestartableInitContainer test1: sidecars not started yet
        (
            sidecar_pod("Pending"),
            [state(RUNNING, name="restartable-init-1", restarts=3), state(WAITING, name="restartable-init-2")],
            [state(WAITING)],
            NOT_INITIALIZED,
            ("0/3", "Init:0/2", 3),
        ),
        # the first sidecar started, the second running but not started
        (
            sidecar_pod("Pending"),
            [
                state(RUNNING, name="restartable-init-1", restarts=3, started=True),
                state(RUNNING, name="restartable-init-2"),
            ],
            [state(WAITING)],
            NOT_INITIALIZED,
            ("0/3", "Init:1/2", 3),
        ),
        # test2: both sidecars started, the container running ready: their restarts add up
        (
            sidecar_pod("Running"),
            [
                state(RUNNING, name="restartable-init-1", restarts=3, started=True),
                state(RUNNING, name="restartable-init-2", started=True),
            ],
            [state(RUNNING, ready=True, restarts=4)],
            INITIALIZED,
            ("1/3", "Running", 7),
        ),
        # test3: sidecars killed after the container completed
        (
            sidecar_pod("Succeeded"),
            [
                state(TERMINATED, "Error", name="restartable-init-1", restarts=3, exit_code=137),
                state(TERMINATED, "Error", name="restartable-init-2", exit_code=137),
            ],
            [state(TERMINATED, "Completed", restarts=4, exit_code=0)],
            INITIALIZED,
            ("0/3", "Completed", 7),
        ),
    ],
)
def test_pod_status(
    pod: Pod,
    init_states: list[ContainerState],
    states: list[ContainerState],
    conditions: tuple[PodCondition, ...],
    expected: tuple[str, str, int],
) -> None:
    summary = pod_summary(pod, init_states, states, conditions)
    assert (f"{summary.ready}/{summary.total}", summary.reason, summary.restarts) == expected


# TestPrintPod test7..test14 [printers_test.go; v1.34.1]: the RESTARTS cell, with the last restart's age when known.
@pytest.mark.parametrize(
    ("restarts", "last", "expected"),
    [
        (0, None, "0"),
        (6, None, "6"),
        (3, NOW - 10, "3 (10s ago)"),
        (4, NOW - 20, "4 (20s ago)"),
        (3, NOW - 5 * DAY, "3 (5d ago)"),
        (9, NOW - 5 * DAY, "9 (5d ago)"),
        (3, NOW - 10 * DAY, "3 (10d ago)"),
        (0, NOW - 10, "0"),
    ],
)
def test_restarts(restarts: int, last: float | None, expected: str) -> None:
    assert restarts_cell(restarts, last, NOW) == expected


# TestPrintPodwide [printers_test.go; v1.34.1]: READINESS GATES counts the gates' conditions that are True.
def test_readiness_gates() -> None:
    conditions = (PodCondition("condition1", "False"), PodCondition("condition2", "True"))
    assert readiness_gates_cell(("condition1", "condition2", "condition3"), conditions) == "1/3"
    assert readiness_gates_cell((), conditions) == "<none>"


def pod_manifest(
    phase: str = "",
    node: str = "",
    start: float | None = None,
    ready: bool = False,
    init: bool = False,
    sidecar: bool = False,
    **status: Any,
) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "app", "image": "nginx"}]}
    if node:
        spec["nodeName"] = node
    if init or sidecar:
        spec["initContainers"] = [
            {"name": "init", "image": "busybox", **({"restartPolicy": "Always"} if sidecar else {})}
        ]
    pod_status: dict[str, Any] = {**status}
    if phase:
        pod_status["phase"] = phase
    if start is not None:
        pod_status["startTime"] = format_timestamp(start)
        pod_status["conditions"] = [{"type": "Ready", "status": "True" if ready else "False"}]
    metadata = {"name": "web", "namespace": "default", "creationTimestamp": format_timestamp(NOW - 90)}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec, "status": pod_status}


# The engine's pods, read as object_manifest writes their container statuses (api/container_states.py).
@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        # not scheduled: no container statuses
        (pod_manifest(), ["web", "0/1", "Pending", "0", "90s", "<none>", "<none>", "<none>", "<none>"]),
        # bound, not started: the kubelet's ContainerCreating
        (
            pod_manifest("Pending", "n1"),
            ["web", "0/1", "ContainerCreating", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        # init containers not run yet: PodInitializing says nothing of its own
        (
            pod_manifest("Pending", "n1", init=True),
            ["web", "0/1", "Init:0/1", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest("Running", "n1", NOW - 60, ready=True),
            ["web", "1/1", "Running", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest("Running", "n1", NOW - 60),
            ["web", "0/1", "Running", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest("Running", "n1", NOW - 60, ready=True, init=True),
            ["web", "1/1", "Running", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        # a sidecar counts with the containers
        (
            pod_manifest("Running", "n1", NOW - 60, ready=True, sidecar=True),
            ["web", "2/2", "Running", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest("Succeeded", "n1", NOW - 60),
            ["web", "0/1", "Completed", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest("Failed", "n1", NOW - 60),
            ["web", "0/1", "Error", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        # rejected by the kubelet's admission: the phase's reason, no container ran
        (
            pod_manifest(
                "Failed", "n1", reason="OutOfcpu", message="Pod was rejected: Node didn't have enough resource: cpu"
            ),
            ["web", "0/1", "OutOfcpu", "0", "90s", "<none>", "n1", "<none>", "<none>"],
        ),
        (
            pod_manifest(nominatedNodeName="n2"),
            ["web", "0/1", "Pending", "0", "90s", "<none>", "<none>", "n2", "<none>"],
        ),
    ],
)
def test_pod_rows(manifest: dict[str, Any], expected: list[Any]) -> None:
    assert printed_cells(parse_object(manifest), NOW) == expected


def test_a_gated_pod_and_a_deleted_pod() -> None:
    pod = parse_object(pod_manifest())
    gated = replace(pod, status=replace(pod.status, conditions=GATED))
    assert printed_cells(gated, NOW)[2] == "SchedulingGated"
    running = parse_object(pod_manifest("Running", "n1", NOW - 60, ready=True))
    deleting = replace(running, metadata=replace(running.metadata, deletion_timestamp=NOW - 5))
    assert printed_cells(deleting, NOW)[1:3] == ["1/1", "Terminating"]


# ---------------------------------------------------------------------------- nodes


def node(name: str, *conditions: tuple[str, str], unschedulable: bool = False, **fields: Any) -> Node:
    written = tuple(NodeCondition(kind, status) for kind, status in conditions)
    ready = next((status == "True" for kind, status in reversed(conditions) if kind == "Ready"), True)
    status = NodeStatus(conditions=written, ready=ready)
    return Node(meta(name, **fields), NodeSpec(unschedulable=unschedulable), status)


WIDE_NODE = ["", "<none>", "<none>", "<unknown>", "<unknown>", "<unknown>"]


# TestPrintNodeStatus, TestPrintNodeRole, TestPrintNodeOSImage... [printers_test.go; v1.34.1]. The engine's nodes always
# have a Ready condition (api/node_conditions.py), so upstream's "Unknown" (no Ready condition) does
# not arise; a Ready condition Unknown (a kubelet gone quiet) is NotReady, as upstream prints it.
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (node("foo1", ("Ready", "True")), ["foo1", "Ready", "<none>", "0s", *WIDE_NODE]),
        (
            node("foo2", ("Ready", "True"), unschedulable=True),
            ["foo2", "Ready,SchedulingDisabled", "<none>", "0s", *WIDE_NODE],
        ),
        (node("foo3", ("Ready", "True"), ("Ready", "True")), ["foo3", "Ready", "<none>", "0s", *WIDE_NODE]),
        (node("foo4", ("Ready", "False")), ["foo4", "NotReady", "<none>", "0s", *WIDE_NODE]),
        (
            node("foo5", ("Ready", "False"), unschedulable=True),
            ["foo5", "NotReady,SchedulingDisabled", "<none>", "0s", *WIDE_NODE],
        ),
        (node("lost", ("Ready", "Unknown")), ["lost", "NotReady", "<none>", "0s", *WIDE_NODE]),
        # no condition written: the kubelet's healthy ones
        (node("fresh", created=NOW - 3 * HOUR), ["fresh", "Ready", "<none>", "3h", *WIDE_NODE]),
        (
            node(
                "foo10",
                labels={
                    "node-role.kubernetes.io/master": "",
                    "node-role.kubernetes.io/control-plane": "",
                    "node-role.kubernetes.io/proxy": "",
                    "kubernetes.io/role": "node",
                },
            ),
            ["foo10", "Ready", "control-plane,master,node,proxy", "0s", *WIDE_NODE],
        ),
        (node("foo11", labels={"kubernetes.io/role": "node"}), ["foo11", "Ready", "node", "0s", *WIDE_NODE]),
        (
            node("empty-role", labels={"kubernetes.io/role": "", "node-role.kubernetes.io/": "x"}),
            ["empty-role", "Ready", "<none>", "0s", *WIDE_NODE],
        ),
    ],
)
def test_node_rows(obj: Node, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# ---------------------------------------------------------------------------- apps/v1


def deployment(selector: LabelSelector = FOO_BAR) -> Deployment:
    spec = DeploymentSpec(selector, template(), replicas=5)
    status = DeploymentStatus(replicas=10, updated_replicas=2, available_replicas=1, unavailable_replicas=4)
    return Deployment(meta("test1"), spec, status)


EXPRESSIONS = LabelSelector(
    match_labels={"app": "web"},
    match_expressions=(
        LabelSelectorRequirement("tier", "In", ("y", "x")),
        LabelSelectorRequirement("env", "NotIn", ("prod",)),
        LabelSelectorRequirement("canary", "DoesNotExist"),
        LabelSelectorRequirement("zone", "Exists"),
    ),
)


# TestPrintDeployment, TestPrintReplicaSet, TestPrintStatefulSet, TestPrintDaemonSet [printers_test.go; v1.34.1]
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (deployment(), ["test1", "0/5", 2, 1, "0s", *CONTAINER_CELLS, "foo=bar"]),
        # LabelSelectorAsSelector's String: requirements by key, values sorted
        (
            deployment(EXPRESSIONS),
            ["test1", "0/5", 2, 1, "0s", *CONTAINER_CELLS, "app=web,!canary,env notin (prod),tier in (x,y),zone"],
        ),
        (deployment(LabelSelector()), ["test1", "0/5", 2, 1, "0s", *CONTAINER_CELLS, ""]),
        (
            ReplicaSet(
                meta("test1"),
                ReplicaSetSpec(FOO_BAR, template(), replicas=5),
                ReplicaSetStatus(replicas=5, ready_replicas=2),
            ),
            ["test1", 5, 5, 2, "0s", *CONTAINER_CELLS, "foo=bar"],
        ),
        # FormatLabelSelector: "<none>" for a selector of everything
        (
            ReplicaSet(
                meta("replicaset2"),
                ReplicaSetSpec(LabelSelector(), template(()), replicas=4),
                ReplicaSetStatus(replicas=3, ready_replicas=1),
            ),
            ["replicaset2", 4, 3, 1, "0s", "", "", "<none>"],
        ),
        (
            StatefulSet(
                meta("test1"),
                StatefulSetSpec(FOO_BAR, template(), replicas=5),
                StatefulSetStatus(replicas=5, ready_replicas=2),
            ),
            ["test1", "2/5", "0s", *CONTAINER_CELLS],
        ),
        (
            DaemonSet(
                meta("test1"),
                DaemonSetSpec(FOO_BAR, template()),
                DaemonSetStatus(
                    current_number_scheduled=2,
                    desired_number_scheduled=3,
                    number_ready=1,
                    updated_number_scheduled=2,
                    number_available=0,
                ),
            ),
            ["test1", 3, 2, 1, 2, 0, "<none>", "0s", *CONTAINER_CELLS, "foo=bar"],
        ),
        (
            DaemonSet(meta("test1"), DaemonSetSpec(FOO_BAR, template(node_selector={"zone": "a", "disk": "ssd"}))),
            ["test1", 0, 0, 0, 0, 0, "disk=ssd,zone=a", "0s", *CONTAINER_CELLS, "foo=bar"],
        ),
    ],
)
def test_apps_rows(obj: Any, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# ---------------------------------------------------------------------------- batch/v1


def job(
    name: str = "job1",
    created: float = SOON,
    completions: int | None = None,
    parallelism: int = 1,
    deleted: bool = False,
    selector: LabelSelector | None = None,
    **status: Any,
) -> Job:
    spec = JobSpec(template(JOB_CONTAINERS), parallelism=parallelism, completions=completions, selector=selector)
    metadata = meta(name, created, deletion_timestamp=SOON if deleted else None)
    return Job(metadata, spec, JobStatus(**status))


def job_condition(*kinds: str, status: str = "True") -> tuple[Condition, ...]:
    return tuple(Condition(kind, status) for kind in kinds)


TEN_YEARS = NOW - 10 * 365 * DAY
JOB_LABEL = LabelSelector(match_labels={"job-label": "job-label-value"})


# TestPrintJob, TestPrintJobList [printers_test.go; v1.34.1], and printJob's later statuses
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            job(completions=2, selector=JOB_LABEL, succeeded=1),
            ["job1", "Running", "1/2", "", "0s", *JOB_CONTAINER_CELLS, "job-label=job-label-value"],
        ),
        (job("job2", TEN_YEARS), ["job2", "Running", "0/1", "", "10y", *JOB_CONTAINER_CELLS, "<none>"]),
        (
            job("job3", TEN_YEARS, start_time=NOW + MINUTE, completion_time=NOW + 31 * MINUTE),
            ["job3", "Running", "0/1", "30m", "10y", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job4", TEN_YEARS, start_time=NOW - 20 * MINUTE),
            ["job4", "Running", "0/1", "20m", "10y", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job5", conditions=job_condition("Complete")),
            ["job5", "Complete", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job6", conditions=job_condition("Failed")),
            ["job6", "Failed", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job7", conditions=job_condition("Suspended")),
            ["job7", "Suspended", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job8", conditions=job_condition("FailureTarget")),
            ["job8", "FailureTarget", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (job("job9", deleted=True), ["job9", "Terminating", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"]),
        (
            job("met", conditions=job_condition("SuccessCriteriaMet")),
            ["met", "SuccessCriteriaMet", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        # Complete wins over a deletion; a deletion over Suspended; a False condition is none
        (
            job("done", deleted=True, conditions=job_condition("Complete")),
            ["done", "Complete", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("gone", deleted=True, conditions=job_condition("Suspended")),
            ["gone", "Terminating", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("resumed", conditions=job_condition("Suspended", status="False")),
            ["resumed", "Running", "0/1", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        # no completions: one success needed, "of N" for a parallelism above one
        (
            job("work-queue", parallelism=3, succeeded=1),
            ["work-queue", "Running", "1/1 of 3", "", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
        (
            job("job2", completions=2, succeeded=2, start_time=NOW - 20 * MINUTE),
            ["job2", "Running", "2/2", "20m", "0s", *JOB_CONTAINER_CELLS, "<none>"],
        ),
    ],
)
def test_job_rows(obj: Job, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


def cron_job(
    name: str = "cronjob1",
    created: float = SOON,
    time_zone: str | None = None,
    last: float | None = SOON,
    active: int = 0,
    suspend: bool = False,
) -> CronJob:
    job_spec = JobSpec(template(JOB_CONTAINERS), completions=2, selector=LabelSelector(match_labels={"a": "b"}))
    spec = CronJobSpec("0/5 * * * ?", job_spec, time_zone=time_zone, suspend=suspend)
    status = CronJobStatus(active=tuple(JobReference(f"j{i}") for i in range(active)), last_schedule_time=last)
    return CronJob(meta(name, created), spec, status)


# TestPrintCronJob, TestPrintCronJobList [printers_test.go; v1.34.1]
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (cron_job(), ["cronjob1", "0/5 * * * ?", "<none>", "False", 0, "0s", "0s", *JOB_CONTAINER_CELLS, "a=b"]),
        (
            cron_job(time_zone="LOCAL"),
            ["cronjob1", "0/5 * * * ?", "LOCAL", "False", 0, "0s", "0s", *JOB_CONTAINER_CELLS, "a=b"],
        ),
        (
            cron_job("cronjob2", NOW - 300, last=NOW - 30),
            ["cronjob2", "0/5 * * * ?", "<none>", "False", 0, "30s", "5m", *JOB_CONTAINER_CELLS, "a=b"],
        ),
        (
            cron_job("cronjob3", NOW - 300, last=None),
            ["cronjob3", "0/5 * * * ?", "<none>", "False", 0, "<none>", "5m", *JOB_CONTAINER_CELLS, "a=b"],
        ),
        (
            cron_job("busy", last=NOW - 20 * MINUTE, active=2, suspend=True),
            ["busy", "0/5 * * * ?", "<none>", "True", 2, "20m", "0s", *JOB_CONTAINER_CELLS, "a=b"],
        ),
    ],
)
def test_cron_job_rows(obj: CronJob, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# ---------------------------------------------------------------------------- autoscaling/v2

CPU_VALUE = MetricTarget("cpu", "AverageValue", average_value=100)
CPU_UTIL = MetricTarget("cpu", "Utilization", average_utilization=80)
MEMORY_VALUE = MetricTarget("memory", "AverageValue", average_value=500 * 2**20)


def hpa(metrics: tuple[MetricTarget, ...], current: tuple[MetricStatus, ...] = ()) -> HorizontalPodAutoscaler:
    spec = HorizontalPodAutoscalerSpec("Deployment", "web", max_replicas=10, min_replicas=2, metrics=metrics)
    status = HorizontalPodAutoscalerStatus(current_replicas=4, desired_replicas=5, current_metrics=current)
    return HorizontalPodAutoscaler(meta("some-hpa", NOW - 300), spec, status)


# TestPrintHPA [printers_test.go; v1.34.1], its Resource metrics (the engine simulates no other type)
@pytest.mark.parametrize(
    ("obj", "targets"),
    [
        (hpa(()), "<none>"),
        (hpa((CPU_VALUE,)), "cpu: <unknown>/100m"),
        (hpa((CPU_VALUE,), (MetricStatus("cpu", average_value=50),)), "cpu: 50m/100m"),
        (hpa((CPU_UTIL,)), "cpu: <unknown>/80%"),
        (hpa((CPU_UTIL,), (MetricStatus("cpu", average_value=40, average_utilization=50),)), "cpu: 50%/80%"),
        # a metric the controller could not compute (upstream's zero MetricStatus)
        (hpa((CPU_UTIL,), (MetricStatus(),)), "cpu: <unknown>/80%"),
        (hpa((MetricTarget("cpu", "Utilization"),)), "cpu: <unknown>/<auto>"),
        (hpa((MEMORY_VALUE,), (MetricStatus("memory", average_value=200 * 2**20),)), "memory: 209715200/500Mi"),
        # a Resource status without an average value: a nil *Quantity prints "<nil>" in Go
        (hpa((CPU_VALUE,), (MetricStatus("cpu"),)), "cpu: <nil>/100m"),
        # multiple specs: two, then how many more
        (
            hpa(
                (CPU_VALUE, CPU_UTIL, MEMORY_VALUE),
                (MetricStatus("cpu", average_value=50), MetricStatus("cpu", average_utilization=50)),
            ),
            "cpu: 50m/100m, cpu: 50%/80% + 1 more...",
        ),
    ],
)
def test_hpa_rows(obj: HorizontalPodAutoscaler, targets: str) -> None:
    assert printed_cells(obj, NOW) == ["some-hpa", "Deployment/web", targets, "2", 10, 4, "5m"]


# ---------------------------------------------------------------------------- policy


def pdb(
    name: str, min_available: int | str | None = None, max_unavailable: int | str | None = None
) -> PodDisruptionBudget:
    spec = PodDisruptionBudgetSpec(min_available=min_available, max_unavailable=max_unavailable)
    return PodDisruptionBudget(meta(name), spec, PodDisruptionBudgetStatus(disruptions_allowed=5))


# TestPrintPodDisruptionBudget [printers_test.go; v1.34.1]
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (pdb("pdb1", min_available=22), ["pdb1", "22", "N/A", 5, "0s"]),
        (pdb("pdb2", max_unavailable=11), ["pdb2", "N/A", "11", 5, "0s"]),
        (pdb("pdb3", max_unavailable="25%"), ["pdb3", "N/A", "25%", 5, "0s"]),
    ],
)
def test_pod_disruption_budget_rows(obj: PodDisruptionBudget, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# TestPrintNamespace, TestPrintPriorityClass [printers_test.go; v1.34.1]
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (Namespace(meta("namespace1")), ["namespace1", "Active", "0s"]),
        (Namespace(meta("gone", deletion_timestamp=NOW)), ["gone", "Terminating", "0s"]),
        (PriorityClass(meta("pc1"), 1, preemption_policy="Never"), ["pc1", 1, False, "0s", "Never"]),
        (
            PriorityClass(meta("pc2", NOW - 300), 1000000000, global_default=True),
            ["pc2", 1000000000, True, "5m", "PreemptLowerPriority"],
        ),
    ],
)
def test_namespace_and_priority_class_rows(obj: Any, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# printResourceQuota (printers.go v1.34.1; printers_test.go has no case): "name: used/hard" by name,
# limits.* under LIMIT, quantities as api/quantity.py writes them.
@pytest.mark.parametrize(
    ("hard", "used", "requests", "limits"),
    [
        ({"pods": 10, "cpu": 2000}, {"pods": 3, "cpu": 500}, "cpu: 500m/2, pods: 3/10", ""),
        (
            {"requests.memory": 2**30, "limits.memory": 2 * 2**30, "limits.cpu": 4000, "count/deployments.apps": 5},
            {"limits.memory": 512 * 2**20},
            "count/deployments.apps: 0/5, requests.memory: 0/1Gi",
            "limits.cpu: 0/4, limits.memory: 512Mi/2Gi",
        ),
        ({}, {}, "", ""),
    ],
)
def test_resource_quota_rows(hard: dict[str, int], used: dict[str, int], requests: str, limits: str) -> None:
    quota = ResourceQuota(meta("quota", NOW - 300), hard=hard, used=used)
    assert printed_cells(quota, NOW) == ["quota", requests, limits, "5m"]


def test_a_limit_range_prints_the_default_table() -> None:
    """LimitRange has no printer: the default table's name and RFC 3339 creation time, whole seconds."""
    assert printed_cells(LimitRange(meta("limits", 100.75)), NOW) == ["limits", "1970-01-01T00:01:40Z"]


# ---------------------------------------------------------------------------- networking


def service(
    service_type: str = "ClusterIP",
    ports: tuple[ServicePort, ...] = (ServicePort(2233, protocol="tcp"),),
    cluster_ip: str = "10.9.8.7",
    selector: dict[str, str] | None = None,
) -> Service:
    spec = ServiceSpec(type=service_type, ports=ports, cluster_ip=cluster_ip, selector=selector)
    return Service(meta("test1", NOW - 300), spec)


# TestPrintService, TestPrintServiceList [printers_test.go; v1.34.1]: the engine keeps no external IPs nor a load
# balancer's status, so a LoadBalancer is <pending>.
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (service(selector={"foo": "bar"}), ["test1", "ClusterIP", "10.9.8.7", "<none>", "2233/tcp", "5m", "foo=bar"]),
        (
            service("NodePort", (ServicePort(8888, node_port=9999, protocol="tcp"),)),
            ["test1", "NodePort", "10.9.8.7", "<none>", "8888:9999/tcp", "5m", "<none>"],
        ),
        (
            service("LoadBalancer", (ServicePort(8888, protocol="tcp"),)),
            ["test1", "LoadBalancer", "10.9.8.7", "<pending>", "8888/tcp", "5m", "<none>"],
        ),
        (
            service(
                "LoadBalancer", (ServicePort(80), ServicePort(8090, protocol="UDP"), ServicePort(7777, protocol="SCTP"))
            ),
            ["test1", "LoadBalancer", "10.9.8.7", "<pending>", "80/TCP,8090/UDP,7777/SCTP", "5m", "<none>"],
        ),
        (service("ExternalName", (), ""), ["test1", "ExternalName", "<none>", "", "<none>", "5m", "<none>"]),
        # the engine allocates no cluster IP; a headless service's is "None"
        (service(cluster_ip=""), ["test1", "ClusterIP", "<none>", "<none>", "2233/tcp", "5m", "<none>"]),
        (
            service(cluster_ip="None", ports=(ServicePort(80),)),
            ["test1", "ClusterIP", "None", "<none>", "80/TCP", "5m", "<none>"],
        ),
    ],
)
def test_service_rows(obj: Service, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


def ingress(class_name: str = "", hosts: tuple[str, ...] = (), tls: tuple[str, ...] = ()) -> Ingress:
    spec = IngressSpec(class_name, tuple(IngressRule(host) for host in hosts), "default-backend", tls)
    return Ingress(meta("test1", TEN_YEARS), spec)


# TestPrintIngress [printers_test.go; v1.34.1], and formatHosts, formatPorts
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (ingress("foo"), ["test1", "foo", "*", "", "80", "10y"]),
        (ingress(hosts=("a.com", "b.com")), ["test1", "<none>", "a.com,b.com", "", "80", "10y"]),
        (
            ingress(hosts=("a", "", "b", "c", "d"), tls=("a",)),
            ["test1", "<none>", "a,b,c + 2 more...", "", "80, 443", "10y"],
        ),
        (ingress(hosts=("", "")), ["test1", "<none>", "*", "", "80", "10y"]),
    ],
)
def test_ingress_rows(obj: Ingress, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# ---------------------------------------------------------------------------- storage


def volume(
    name: str, modes: tuple[str, ...], phase: str, storage_class: str = "", size: int = 4 * 2**30, **fields: Any
) -> PersistentVolume:
    spec = PersistentVolumeSpec(
        storage=size, access_modes=modes, storage_class_name=storage_class, claim_ref="default/test"
    )
    return PersistentVolume(meta(name, **fields), spec, phase)


# TestPrintPersistentVolume [printers_test.go; v1.34.1]: the engine's volumes default reclaimPolicy Retain and keep no
# volumeAttributesClassName, status.reason nor volumeMode.
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            volume("test1", ("ReadOnlyMany",), "Bound"),
            ["test1", "4Gi", "ROX", "Retain", "Bound", "default/test", "", "<unset>", "", "0s", "<unset>"],
        ),
        (
            volume("test3", ("ReadWriteMany",), "Pending", size=10 * 2**30),
            ["test3", "10Gi", "RWX", "Retain", "Pending", "default/test", "", "<unset>", "", "0s", "<unset>"],
        ),
        (
            volume("test4", ("ReadWriteOnce",), "Available", "my-scn", 10 * 2**30),
            ["test4", "10Gi", "RWO", "Retain", "Available", "default/test", "my-scn", "<unset>", "", "0s", "<unset>"],
        ),
        # GetAccessModesAsString's order; a volume being deleted; the beta class annotation first
        (
            volume(
                "many",
                ("ReadWriteOncePod", "ReadWriteMany", "ReadWriteOnce"),
                "Released",
                "my-scn",
                deletion_timestamp=NOW,
                annotations={"volume.beta.kubernetes.io/storage-class": "beta"},
            ),
            [
                "many",
                "4Gi",
                "RWO,RWX,RWOP",
                "Retain",
                "Terminating",
                "default/test",
                "beta",
                "<unset>",
                "",
                "0s",
                "<unset>",
            ],
        ),
    ],
)
def test_persistent_volume_rows(obj: PersistentVolume, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


def claim(
    name: str,
    phase: str,
    volume_name: str = "",
    storage_class: str | None = None,
    mode: str = "Filesystem",
    **fields: Any,
) -> PersistentVolumeClaim:
    spec = PersistentVolumeClaimSpec(("ReadOnlyMany",), 2**30, storage_class, volume_name, mode)
    return PersistentVolumeClaim(meta(name, **fields), spec, PersistentVolumeClaimStatus(phase, 4 * 2**30))


# TestPrintPersistentVolumeClaim [printers_test.go; v1.34.1]: capacity once bound; the engine keeps no
# status.accessModes (ACCESS MODES stays empty) nor volumeAttributesClassName.
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            claim("test1", "Bound", "my-volume"),
            ["test1", "Bound", "my-volume", "4Gi", "", "", "<unset>", "0s", "Filesystem"],
        ),
        (claim("test2", "Lost"), ["test2", "Lost", "", "", "", "", "<unset>", "0s", "Filesystem"]),
        (
            claim("test4", "Pending", "my-volume", "my-scn"),
            ["test4", "Pending", "my-volume", "4Gi", "", "my-scn", "<unset>", "0s", "Filesystem"],
        ),
        (
            claim("test5", "Pending", "my-volume", "my-scn", ""),
            ["test5", "Pending", "my-volume", "4Gi", "", "my-scn", "<unset>", "0s", "<unset>"],
        ),
        (
            claim(
                "gone",
                "Bound",
                "v",
                deletion_timestamp=NOW,
                annotations={"volume.beta.kubernetes.io/storage-class": "beta"},
            ),
            ["gone", "Terminating", "v", "4Gi", "", "beta", "<unset>", "0s", "Filesystem"],
        ),
    ],
)
def test_persistent_volume_claim_rows(obj: PersistentVolumeClaim, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


# TestPrintStorageClass [printers_test.go; v1.34.1], and the default class's name; the engine keeps no
# allowVolumeExpansion (false, as upstream prints it unset).
@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            StorageClass(meta("sc1"), "kubernetes.io/glusterfs"),
            ["sc1", "kubernetes.io/glusterfs", "Delete", "Immediate", False, "0s"],
        ),
        (
            StorageClass(meta("sc5", NOW - 300), "kubernetes.io/nfs", "WaitForFirstConsumer", "Retain"),
            ["sc5", "kubernetes.io/nfs", "Retain", "WaitForFirstConsumer", False, "5m"],
        ),
        (
            StorageClass(meta("standard"), "p", is_default=True),
            ["standard (default)", "p", "Delete", "Immediate", False, "0s"],
        ),
        (
            StorageClass(meta("old", annotations={"storageclass.beta.kubernetes.io/is-default-class": "true"}), "p"),
            ["old (default)", "p", "Delete", "Immediate", False, "0s"],
        ),
    ],
)
def test_storage_class_rows(obj: StorageClass, expected: list[Any]) -> None:
    assert printed_cells(obj, NOW) == expected


def test_a_default_storage_class_read_from_its_annotation() -> None:
    manifest = {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "provisioner": "p",
        "metadata": {"name": "standard", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
    }
    assert printed_cells(parse_object(manifest), NOW)[0] == "standard (default)"

"""The Kubernetes objects the engine reasons about, as small immutable dataclasses.

Field names follow the Kubernetes API in snake_case. Resource amounts are integers in canonical
units (CPU in millicores, everything else in base units: bytes, counts), read as kube-scheduler
reads them (MilliValue for CPU, Value otherwise).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# Canonical resource names (k8s.io/api/core/v1).
CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"

ResourceList = Mapping[str, int]
IntOrString = int | str
EMPTY: Mapping[str, str] = MappingProxyType({})
NO_RESOURCES: ResourceList = MappingProxyType({})

# Taint effects.
NO_SCHEDULE = "NoSchedule"
PREFER_NO_SCHEDULE = "PreferNoSchedule"
NO_EXECUTE = "NoExecute"


@dataclass(frozen=True, slots=True)
class OwnerReference:
    kind: str
    name: str
    uid: str = ""
    api_version: str = ""
    controller: bool = False


@dataclass(frozen=True, slots=True)
class ObjectMeta:
    name: str
    namespace: str = ""
    uid: str = ""
    labels: Mapping[str, str] = EMPTY
    annotations: Mapping[str, str] = EMPTY
    owner_references: tuple[OwnerReference, ...] = ()
    creation_timestamp: float = 0.0
    deletion_timestamp: float | None = None
    deletion_grace_period_seconds: int | None = None
    generate_name: str = ""

    @property
    def key(self) -> str:
        """namespace/name for namespaced objects, name otherwise (as client-go keys them)."""
        return f"{self.namespace}/{self.name}" if self.namespace else self.name

    def controller_ref(self) -> OwnerReference | None:
        return next((ref for ref in self.owner_references if ref.controller), None)


# ---------------------------------------------------------------------------- selectors


@dataclass(frozen=True, slots=True)
class LabelSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist
    values: tuple[str, ...] = ()
    # In and NotIn look a label up among thousands of values in one step (a tuple scans them all,
    # for every node and every pod); a frozenset also keeps its hash once computed.
    value_set: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_set", frozenset(self.values))


@dataclass(frozen=True, slots=True)
class LabelSelector:
    match_labels: Mapping[str, str] = EMPTY
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()

    @property
    def is_empty(self) -> bool:
        """An empty selector ({}) selects everything."""
        return not self.match_labels and not self.match_expressions


@dataclass(frozen=True, slots=True)
class NodeSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt
    values: tuple[str, ...] = ()
    value_set: frozenset[str] = field(init=False, repr=False, compare=False)  # as LabelSelectorRequirement's

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_set", frozenset(self.values))


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelector:
    node_selector_terms: tuple[NodeSelectorTerm, ...] = ()


# ---------------------------------------------------------------------------- affinity


@dataclass(frozen=True, slots=True)
class PreferredSchedulingTerm:
    weight: int
    preference: NodeSelectorTerm


@dataclass(frozen=True, slots=True)
class NodeAffinity:
    required: NodeSelector | None = None
    preferred: tuple[PreferredSchedulingTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class PodAffinityTerm:
    topology_key: str
    label_selector: LabelSelector | None = None
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WeightedPodAffinityTerm:
    weight: int
    pod_affinity_term: PodAffinityTerm


@dataclass(frozen=True, slots=True)
class PodAffinity:
    required: tuple[PodAffinityTerm, ...] = ()
    preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class Affinity:
    node_affinity: NodeAffinity | None = None
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAffinity | None = None


# ---------------------------------------------------------------------------- taints


@dataclass(frozen=True, slots=True)
class Taint:
    key: str
    effect: str
    value: str = ""
    time_added: float | None = None

    def __str__(self) -> str:
        """key=value:effect, as kubectl prints a taint."""
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


@dataclass(frozen=True, slots=True)
class Toleration:
    key: str = ""
    operator: str = "Equal"  # Equal or Exists
    value: str = ""
    effect: str = ""  # empty matches every effect
    toleration_seconds: int | None = None

    def tolerates(self, taint: Taint) -> bool:
        """k8s.io/api/core/v1 Toleration.ToleratesTaint."""
        if self.effect and self.effect != taint.effect:
            return False
        if self.key and self.key != taint.key:
            return False
        if self.operator == "Exists":
            return True
        return self.operator in ("Equal", "") and self.value == taint.value


def tolerates_taint(tolerations: tuple[Toleration, ...], taint: Taint) -> bool:
    return any(toleration.tolerates(taint) for toleration in tolerations)


# ---------------------------------------------------------------------------- pods


@dataclass(frozen=True, slots=True)
class ContainerPort:
    container_port: int
    host_port: int = 0
    host_ip: str = ""
    protocol: str = "TCP"
    name: str = ""


@dataclass(frozen=True, slots=True)
class ResourceRequirements:
    requests: ResourceList = NO_RESOURCES
    limits: ResourceList = NO_RESOURCES


# A field added after pod templates were first hashed (controllers/naming.template_hash) enters a
# template's hash only when it differs from its default: the pods of a template that declares none
# of it keep their names.
HASHED_WHEN_SET_KEY = "hashed_when_set"
HASHED_WHEN_SET: Mapping[str, bool] = MappingProxyType({HASHED_WHEN_SET_KEY: True})


@dataclass(frozen=True, slots=True)
class ExecAction:
    command: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HTTPHeader:
    name: str
    value: str = ""


@dataclass(frozen=True, slots=True)
class HTTPGetAction:
    port: IntOrString
    path: str = "/"  # SetDefaults_HTTPGetAction
    host: str = ""
    scheme: str = "HTTP"  # SetDefaults_HTTPGetAction
    http_headers: tuple[HTTPHeader, ...] = ()


@dataclass(frozen=True, slots=True)
class TCPSocketAction:
    port: IntOrString
    host: str = ""


@dataclass(frozen=True, slots=True)
class GRPCAction:
    port: int
    service: str = ""  # declaratively defaulted to ""


ProbeHandler = ExecAction | HTTPGetAction | TCPSocketAction | GRPCAction


@dataclass(frozen=True, slots=True)
class Probe:
    """A container probe with SetDefaults_Probe's defaults. The kubelet reads a readiness probe's
    timings; the handler is kept for the API (no probe is ever run)."""

    initial_delay_seconds: int = 0
    period_seconds: int = 10
    success_threshold: int = 1
    failure_threshold: int = 3
    timeout_seconds: int = field(default=1, metadata=HASHED_WHEN_SET)
    handler: ProbeHandler | None = field(default=None, metadata=HASHED_WHEN_SET)  # None: declared without one
    termination_grace_period_seconds: int | None = field(default=None, metadata=HASHED_WHEN_SET)


@dataclass(frozen=True, slots=True)
class ConfigMapKeySelector:
    name: str
    key: str
    optional: bool | None = None


@dataclass(frozen=True, slots=True)
class SecretKeySelector:
    name: str
    key: str
    optional: bool | None = None


@dataclass(frozen=True, slots=True)
class ObjectFieldSelector:
    field_path: str
    api_version: str = "v1"  # SetDefaults_ObjectFieldSelector


@dataclass(frozen=True, slots=True)
class ResourceFieldSelector:
    resource: str
    container_name: str = ""
    divisor: str = "0"  # a Quantity as declared; its zero value is written "0"


EnvVarSource = ObjectFieldSelector | ResourceFieldSelector | ConfigMapKeySelector | SecretKeySelector


@dataclass(frozen=True, slots=True)
class EnvVar:
    name: str
    value: str = ""
    value_from: EnvVarSource | None = None


@dataclass(frozen=True, slots=True)
class EnvFromSource:
    """One envFrom entry: a ConfigMap's (configMapRef) or a Secret's (secretRef) keys."""

    kind: str  # "configMapRef" or "secretRef"
    name: str
    optional: bool | None = None
    prefix: str = ""


@dataclass(frozen=True, slots=True)
class VolumeMount:
    name: str
    mount_path: str
    read_only: bool = False
    sub_path: str = ""
    sub_path_expr: str = ""
    mount_propagation: str | None = None
    recursive_read_only: str | None = None


# SetDefaults_Container's values (k8s.io/api/core/v1 TerminationMessagePathDefault, TerminationMessageReadFile).
TERMINATION_MESSAGE_PATH = "/dev/termination-log"
TERMINATION_MESSAGE_READ_FILE = "File"


@dataclass(frozen=True, slots=True)
class ContainerDetails:
    """What a container declares that neither the scheduler nor a controller reads: kept apart from
    the fields they do read so that they never walk it, and written back as the API shows it."""

    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    working_dir: str = ""
    env_from: tuple[EnvFromSource, ...] = ()
    env: tuple[EnvVar, ...] = ()
    volume_mounts: tuple[VolumeMount, ...] = ()
    liveness_probe: Probe | None = None
    startup_probe: Probe | None = None
    termination_message_path: str = TERMINATION_MESSAGE_PATH
    termination_message_policy: str = TERMINATION_MESSAGE_READ_FILE
    # "" is SetDefaults_Container's choice for the image (api/pod_defaults.image_pull_policy); the
    # parser keeps a declared policy only where it differs from that choice.
    image_pull_policy: str = ""
    security_context: Mapping[str, Any] | None = None  # as declared (plain JSON data)


NO_CONTAINER_DETAILS = ContainerDetails()


@dataclass(frozen=True, slots=True)
class Container:
    name: str
    image: str = ""
    resources: ResourceRequirements = ResourceRequirements()
    ports: tuple[ContainerPort, ...] = ()
    restart_policy: str | None = None  # "Always" on an init container makes it a sidecar
    readiness_probe: Probe | None = None
    details: ContainerDetails = field(default=NO_CONTAINER_DETAILS, metadata=HASHED_WHEN_SET)


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    max_skew: int
    topology_key: str
    when_unsatisfiable: str  # DoNotSchedule or ScheduleAnyway
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str | None = None  # Honor (default) or Ignore
    node_taints_policy: str | None = None  # Ignore (default) or Honor
    match_label_keys: tuple[str, ...] = ()


# SetDefaults_PodSpec's DNS policy; the ServiceAccount admission plugin's account.
DNS_CLUSTER_FIRST = "ClusterFirst"
DEFAULT_SERVICE_ACCOUNT = "default"


@dataclass(frozen=True, slots=True)
class PodDetails:
    """What a pod spec declares that neither the scheduler nor a controller reads (the pod's
    ContainerDetails), with the API server's defaults."""

    service_account_name: str = ""  # the ServiceAccount admission plugin names "default" on a pod
    automount_service_account_token: bool | None = None
    dns_policy: str = DNS_CLUSTER_FIRST
    enable_service_links: bool | None = None  # SetDefaults_Pod makes it true on a pod, not in a template
    security_context: Mapping[str, Any] = field(default_factory=dict)  # PodSecurityContext as declared
    hostname: str = ""
    subdomain: str = ""


NO_POD_DETAILS = PodDetails()


@dataclass(frozen=True, slots=True)
class PodSpec:
    containers: tuple[Container, ...] = ()
    init_containers: tuple[Container, ...] = ()
    node_name: str = ""
    node_selector: Mapping[str, str] = EMPTY
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    scheduler_name: str = "default-scheduler"
    priority: int | None = None
    priority_class_name: str = ""
    preemption_policy: str | None = None  # PreemptLowerPriority (default) or Never
    overhead: ResourceList = NO_RESOURCES
    resources: ResourceRequirements | None = None  # pod-level resources
    restart_policy: str = "Always"
    termination_grace_period_seconds: int = 30
    host_network: bool = False
    volumes: tuple["Volume", ...] = ()
    scheduling_gates: tuple[str, ...] = ()
    resource_claims: tuple[str, ...] = ()  # names of spec.resourceClaims entries
    details: PodDetails = field(default=NO_POD_DETAILS, metadata=HASHED_WHEN_SET)


@dataclass(frozen=True, slots=True)
class Volume:
    name: str
    persistent_volume_claim: str = ""  # claimName, when the volume is a PVC
    # The volume's source as declared, with the API server's defaults (plain JSON data, one key:
    # {"configMap": {...}}); None for a claim's bare {claimName} or, without a claim, emptyDir {}.
    # The scheduler reads only persistent_volume_claim.
    source: Mapping[str, Any] | None = field(default=None, metadata=HASHED_WHEN_SET)


@dataclass(frozen=True, slots=True)
class Condition:
    """A status condition of a workload (Deployment, Job, PodDisruptionBudget), as its controller
    writes it. Times are simulated seconds."""

    type: str
    status: str  # "True", "False" or "Unknown"
    reason: str = ""
    message: str = ""
    last_transition_time: float | None = None
    last_update_time: float | None = None  # a Deployment's conditions only
    observed_generation: int | None = None  # a metav1.Condition's (a PodDisruptionBudget's) only


def condition_status(conditions: tuple[Condition, ...], condition_type: str) -> str | None:
    """The status of the condition of that type ("True", "False", "Unknown"), None without one."""
    return next((c.status for c in conditions if c.type == condition_type), None)


@dataclass(frozen=True, slots=True)
class PodCondition:
    """One of status.conditions that someone other than the kubelet writes (the scheduler's
    PodScheduled, DisruptionTarget); the kubelet's own (Initialized, Ready...) are read off the
    pod's phase and readiness by api/pod_conditions.py."""

    type: str
    status: str  # "True" or "False"
    reason: str = ""
    message: str = ""
    last_transition_time: float | None = None


@dataclass(frozen=True, slots=True)
class PodStatus:
    phase: str = "Pending"
    nominated_node_name: str = ""
    start_time: float | None = None
    ready: bool = False
    # The Ready condition's lastTransitionTime (simulated seconds): set when `ready` flips; None
    # when it has not since the pod was created (api/pod_conditions.py reads it).
    ready_changed: float | None = None
    # Why the pod is in its phase, as the kubelet writes it ("OutOfcpu" and "Pod was rejected: ...")
    reason: str = ""
    message: str = ""
    conditions: tuple[PodCondition, ...] = ()  # PodScheduled, DisruptionTarget


@dataclass(frozen=True, slots=True)
class Pod:
    metadata: ObjectMeta
    spec: PodSpec = PodSpec()
    status: PodStatus = PodStatus()

    kind = "Pod"

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    def namespace(self) -> str:
        return self.metadata.namespace

    @property
    def key(self) -> str:
        return self.metadata.key

    @property
    def labels(self) -> Mapping[str, str]:
        return self.metadata.labels

    @property
    def priority(self) -> int:
        return self.spec.priority or 0


# ---------------------------------------------------------------------------- nodes


@dataclass(frozen=True, slots=True)
class ContainerImage:
    names: tuple[str, ...]
    size_bytes: int = 0


@dataclass(frozen=True, slots=True)
class NodeSpec:
    unschedulable: bool = False
    taints: tuple[Taint, ...] = ()


# The conditions a node's kubelet posts (k8s.io/api/core/v1 NodeConditionType), in the order its
# status setters append them (Ready last), with the status each has on a healthy node.
NODE_CONDITION_HEALTHY_STATUS: Mapping[str, str] = MappingProxyType(
    {"MemoryPressure": "False", "DiskPressure": "False", "PIDPressure": "False", "Ready": "True"}
)


@dataclass(frozen=True, slots=True)
class NodeCondition:
    """One of a node's status.conditions, as the kubelet or the node lifecycle controller writes it.
    Times are simulated seconds."""

    type: str  # Ready, MemoryPressure, DiskPressure, PIDPressure (or any a manifest names)
    status: str  # "True", "False" or "Unknown"
    reason: str = ""
    message: str = ""
    last_heartbeat_time: float | None = None
    last_transition_time: float | None = None


@dataclass(frozen=True, slots=True)
class NodeStatus:
    capacity: ResourceList = NO_RESOURCES
    allocatable: ResourceList = NO_RESOURCES
    images: tuple[ContainerImage, ...] = ()
    # Whether the Ready condition is True: what every reader of a node's health reads. Whoever
    # writes conditions keeps it in step (api/node_conditions.py); `conditions` holds them as
    # written, () until someone writes one (api/node_conditions.node_conditions lists them all).
    ready: bool = True
    conditions: tuple[NodeCondition, ...] = ()

    def condition_statuses(self) -> dict[str, str]:
        """Each condition type's status as api/node_conditions.node_conditions lists them: the ones
        written, the kubelet's healthy ones where none is, Ready as `ready` says. What the scheduler
        compares between two versions of a node (extractNodeConditionsChange)."""
        statuses = {**NODE_CONDITION_HEALTHY_STATUS, **{c.type: c.status for c in self.conditions}}
        if self.ready != (statuses["Ready"] == "True"):
            statuses["Ready"] = "True" if self.ready else "Unknown"
        return statuses


@dataclass(frozen=True, slots=True)
class Node:
    metadata: ObjectMeta
    spec: NodeSpec = NodeSpec()
    status: NodeStatus = NodeStatus()

    kind = "Node"

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    def labels(self) -> Mapping[str, str]:
        return self.metadata.labels


# ---------------------------------------------------------------------------- policy objects


@dataclass(frozen=True, slots=True)
class Namespace:
    metadata: ObjectMeta
    kind = "Namespace"


@dataclass(frozen=True, slots=True)
class PriorityClass:
    metadata: ObjectMeta
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"
    description: str = ""
    kind = "PriorityClass"


@dataclass(frozen=True, slots=True)
class PodDisruptionBudgetSpec:
    selector: LabelSelector | None = None
    min_available: IntOrString | None = None
    max_unavailable: IntOrString | None = None


@dataclass(frozen=True, slots=True)
class PodDisruptionBudgetStatus:
    disruptions_allowed: int = 0
    current_healthy: int = 0
    desired_healthy: int = 0
    expected_pods: int = 0
    disrupted_pods: Mapping[str, float] = field(default_factory=dict)
    conditions: tuple[Condition, ...] = ()  # DisruptionAllowed
    observed_generation: int = 0  # the budget's generation this status was computed for


@dataclass(frozen=True, slots=True)
class PodDisruptionBudget:
    metadata: ObjectMeta
    spec: PodDisruptionBudgetSpec = PodDisruptionBudgetSpec()
    status: PodDisruptionBudgetStatus = PodDisruptionBudgetStatus()
    generation: int = 1  # bumped by a spec change; the eviction API waits for status to catch up
    kind = "PodDisruptionBudget"

"""The column definitions of upstream's server-side printers (pkg/printers/internalversion/printers.go,
AddHandlers, Kubernetes v1.34.1): per kind, each column's name, type, format, description and
priority, in upstream's order. A description upstream takes from the API's swagger docs is that
text (printers_swagger.py); the others are upstream's literals."""

from dataclasses import dataclass

from scheduler_core.kubeapi.printers_swagger import SWAGGER


@dataclass(frozen=True, slots=True)
class Column:
    """A metav1.TableColumnDefinition."""

    name: str
    type: str  # string, integer, number, boolean or date
    format: str  # "name" for the Name column, else ""
    description: str
    priority: int  # 0: always shown; 1: only with -o wide


def _column(name: str, description: str, type_: str = "string", priority: int = 0) -> Column:
    return Column(name, type_, "", description, priority)


def _wide(name: str, description: str) -> Column:
    return _column(name, description, priority=1)


NAME = Column("Name", "string", "name", SWAGGER["metav1.ObjectMeta.name"], 0)
AGE = _column("Age", SWAGGER["metav1.ObjectMeta.creationTimestamp"])
CONTAINERS = _wide("Containers", "Names of each container in the template.")
IMAGES = _wide("Images", "Images referenced by each container in the template.")

# The table the API server prints for a kind without a printer (rest.NewDefaultTableConvertor).
DEFAULT_COLUMNS = (NAME, _column("Created At", SWAGGER["metav1.ObjectMeta.creationTimestamp"], "date"))

POD = (
    NAME,
    _column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
    _column("Status", "The aggregate status of the containers in this pod."),
    _column(
        "Restarts",
        "The number of times the containers in this pod have been restarted and when the last container in this"
        " pod has restarted.",
    ),
    AGE,
    _wide("IP", SWAGGER["apiv1.PodStatus.podIP"]),
    _wide("Node", SWAGGER["apiv1.PodSpec.nodeName"]),
    _wide("Nominated Node", SWAGGER["apiv1.PodStatus.nominatedNodeName"]),
    _wide("Readiness Gates", SWAGGER["apiv1.PodSpec.readinessGates"]),
)

POD_DISRUPTION_BUDGET = (
    NAME,
    _column("Min Available", "The minimum number of pods that must be available."),
    _column("Max Unavailable", "The maximum number of pods that may be unavailable."),
    _column("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time.", "integer"),
    AGE,
)

REPLICA_SET = (
    NAME,
    _column("Desired", SWAGGER["extensionsv1beta1.ReplicaSetSpec.replicas"], "integer"),
    _column("Current", SWAGGER["extensionsv1beta1.ReplicaSetStatus.replicas"], "integer"),
    _column("Ready", SWAGGER["extensionsv1beta1.ReplicaSetStatus.readyReplicas"], "integer"),
    AGE,
    CONTAINERS,
    IMAGES,
    _wide("Selector", SWAGGER["extensionsv1beta1.ReplicaSetSpec.selector"]),
)

DAEMON_SET = (
    NAME,
    _column("Desired", SWAGGER["extensionsv1beta1.DaemonSetStatus.desiredNumberScheduled"], "integer"),
    _column("Current", SWAGGER["extensionsv1beta1.DaemonSetStatus.currentNumberScheduled"], "integer"),
    _column("Ready", SWAGGER["extensionsv1beta1.DaemonSetStatus.numberReady"], "integer"),
    _column("Up-to-date", SWAGGER["extensionsv1beta1.DaemonSetStatus.updatedNumberScheduled"], "integer"),
    _column("Available", SWAGGER["extensionsv1beta1.DaemonSetStatus.numberAvailable"], "integer"),
    _column("Node Selector", SWAGGER["apiv1.PodSpec.nodeSelector"]),
    AGE,
    CONTAINERS,
    IMAGES,
    _wide("Selector", SWAGGER["extensionsv1beta1.DaemonSetSpec.selector"]),
)

JOB = (
    NAME,
    _column("Status", "Status of the job."),
    _column("Completions", SWAGGER["batchv1.JobStatus.succeeded"]),
    _column("Duration", "Time required to complete the job."),
    AGE,
    CONTAINERS,
    IMAGES,
    _wide("Selector", SWAGGER["batchv1.JobSpec.selector"]),
)

CRON_JOB = (
    NAME,
    _column("Schedule", SWAGGER["batchv1beta1.CronJobSpec.schedule"]),
    _column("Timezone", SWAGGER["batchv1beta1.CronJobSpec.timeZone"]),
    _column("Suspend", SWAGGER["batchv1beta1.CronJobSpec.suspend"], "boolean"),
    _column("Active", SWAGGER["batchv1beta1.CronJobStatus.active"], "integer"),
    _column("Last Schedule", SWAGGER["batchv1beta1.CronJobStatus.lastScheduleTime"]),
    AGE,
    CONTAINERS,
    IMAGES,
    _wide("Selector", SWAGGER["batchv1.JobSpec.selector"]),
)

SERVICE = (
    NAME,
    _column("Type", SWAGGER["apiv1.ServiceSpec.type"]),
    _column("Cluster-IP", SWAGGER["apiv1.ServiceSpec.clusterIP"]),
    _column("External-IP", SWAGGER["apiv1.ServiceSpec.externalIPs"]),
    _column("Port(s)", SWAGGER["apiv1.ServiceSpec.ports"]),
    AGE,
    _wide("Selector", SWAGGER["apiv1.ServiceSpec.selector"]),
)

INGRESS = (
    NAME,
    _column("Class", "The name of the IngressClass resource that should be used for additional configuration"),
    _column("Hosts", "Hosts that incoming requests are matched against before the ingress rule"),
    _column("Address", "Address is a list containing ingress points for the load-balancer"),
    _column("Ports", "Ports of TLS configurations that open"),
    AGE,
)

STATEFUL_SET = (NAME, _column("Ready", "Number of the pod with ready state"), AGE, CONTAINERS, IMAGES)

NODE = (
    NAME,
    _column("Status", "The status of the node"),
    _column("Roles", "The roles of the node"),
    AGE,
    _column("Version", SWAGGER["apiv1.NodeSystemInfo.kubeletVersion"]),
    _wide("Internal-IP", SWAGGER["apiv1.NodeStatus.addresses"]),
    _wide("External-IP", SWAGGER["apiv1.NodeStatus.addresses"]),
    _wide("OS-Image", SWAGGER["apiv1.NodeSystemInfo.osImage"]),
    _wide("Kernel-Version", SWAGGER["apiv1.NodeSystemInfo.kernelVersion"]),
    _wide("Container-Runtime", SWAGGER["apiv1.NodeSystemInfo.containerRuntimeVersion"]),
)

NAMESPACE = (NAME, _column("Status", "The status of the namespace"), AGE)

PERSISTENT_VOLUME = (
    NAME,
    _column("Capacity", SWAGGER["apiv1.PersistentVolumeSpec.capacity"]),
    _column("Access Modes", SWAGGER["apiv1.PersistentVolumeSpec.accessModes"]),
    _column("Reclaim Policy", SWAGGER["apiv1.PersistentVolumeSpec.persistentVolumeReclaimPolicy"]),
    _column("Status", SWAGGER["apiv1.PersistentVolumeStatus.phase"]),
    _column("Claim", SWAGGER["apiv1.PersistentVolumeSpec.claimRef"]),
    _column("StorageClass", "StorageClass of the pv"),
    _column("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
    _column("Reason", SWAGGER["apiv1.PersistentVolumeStatus.reason"]),
    AGE,
    _wide("VolumeMode", SWAGGER["apiv1.PersistentVolumeSpec.volumeMode"]),
)

PERSISTENT_VOLUME_CLAIM = (
    NAME,
    _column("Status", SWAGGER["apiv1.PersistentVolumeClaimStatus.phase"]),
    _column("Volume", SWAGGER["apiv1.PersistentVolumeClaimSpec.volumeName"]),
    _column("Capacity", SWAGGER["apiv1.PersistentVolumeClaimStatus.capacity"]),
    _column("Access Modes", SWAGGER["apiv1.PersistentVolumeClaimStatus.accessModes"]),
    _column("StorageClass", "StorageClass of the pvc"),
    _column("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
    AGE,
    _wide("VolumeMode", SWAGGER["apiv1.PersistentVolumeClaimSpec.volumeMode"]),
)

DEPLOYMENT = (
    NAME,
    _column("Ready", "Number of the pod with ready state"),
    _column("Up-to-date", SWAGGER["extensionsv1beta1.DeploymentStatus.updatedReplicas"]),
    _column("Available", SWAGGER["extensionsv1beta1.DeploymentStatus.availableReplicas"]),
    AGE,
    CONTAINERS,
    IMAGES,
    _wide("Selector", SWAGGER["extensionsv1beta1.DeploymentSpec.selector"]),
)

HORIZONTAL_POD_AUTOSCALER = (
    NAME,
    _column("Reference", SWAGGER["autoscalingv2beta1.HorizontalPodAutoscalerSpec.scaleTargetRef"]),
    _column("Targets", SWAGGER["autoscalingv2beta1.HorizontalPodAutoscalerSpec.metrics"]),
    _column("MinPods", SWAGGER["autoscalingv2beta1.HorizontalPodAutoscalerSpec.minReplicas"]),
    _column("MaxPods", SWAGGER["autoscalingv2beta1.HorizontalPodAutoscalerSpec.maxReplicas"]),
    _column("Replicas", SWAGGER["autoscalingv2beta1.HorizontalPodAutoscalerStatus.currentReplicas"]),
    AGE,
)

STORAGE_CLASS = (
    NAME,
    _column("Provisioner", SWAGGER["storagev1.StorageClass.provisioner"]),
    _column("ReclaimPolicy", SWAGGER["storagev1.StorageClass.reclaimPolicy"]),
    _column("VolumeBindingMode", SWAGGER["storagev1.StorageClass.volumeBindingMode"]),
    _column("AllowVolumeExpansion", SWAGGER["storagev1.StorageClass.allowVolumeExpansion"]),
    AGE,
)

RESOURCE_QUOTA = (
    NAME,
    _column("Request", "Request represents a minimum amount of cpu/memory that a container may consume."),
    _column(
        "Limit",
        "Limits control the maximum amount of cpu/memory that a container may use independent of contention on"
        " the node.",
    ),
    AGE,
)

# PreemptionPolicy has priority 0 upstream, though printPriorityClass fills it only when printing
# wide; the API server always prints wide, so `kubectl get priorityclass` shows it.
PRIORITY_CLASS = (
    NAME,
    _column("Value", SWAGGER["schedulingv1.PriorityClass.value"], "integer"),
    _column("Global-Default", SWAGGER["schedulingv1.PriorityClass.globalDefault"], "boolean"),
    AGE,
    _column("PreemptionPolicy", SWAGGER["schedulingv1.PriorityClass.preemptionPolicy"]),
)

# Kinds with a printer, by kind. LimitRange has none upstream: the API server prints it with
# DEFAULT_COLUMNS.
COLUMNS: dict[str, tuple[Column, ...]] = {
    "Pod": POD,
    "PodDisruptionBudget": POD_DISRUPTION_BUDGET,
    "ReplicaSet": REPLICA_SET,
    "DaemonSet": DAEMON_SET,
    "Job": JOB,
    "CronJob": CRON_JOB,
    "Service": SERVICE,
    "Ingress": INGRESS,
    "StatefulSet": STATEFUL_SET,
    "Node": NODE,
    "Namespace": NAMESPACE,
    "PersistentVolume": PERSISTENT_VOLUME,
    "PersistentVolumeClaim": PERSISTENT_VOLUME_CLAIM,
    "Deployment": DEPLOYMENT,
    "HorizontalPodAutoscaler": HORIZONTAL_POD_AUTOSCALER,
    "StorageClass": STORAGE_CLASS,
    "ResourceQuota": RESOURCE_QUOTA,
    "PriorityClass": PRIORITY_CLASS,
}

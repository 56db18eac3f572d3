"""The API resources the simulated API server serves: for each kind the store keeps, its group,
version, plural and short names, scope and verbs, as the v1.34 API server's discovery lists them
(`kubectl api-resources` against a v1.34 cluster). Writes go through the engine's timeline, so a
resource lists the verbs the API server has; which writes the playground takes is the writer's
concern (it answers 405 MethodNotAllowed to the others, as a read-only resource would).
"""

from dataclasses import dataclass

READ_VERBS = ("get", "list", "watch")
ALL_VERBS = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@dataclass(frozen=True, slots=True)
class Resource:
    kind: str  # the store's kind: "Pod"
    group: str  # "" for the core group
    version: str
    plural: str
    singular: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    subresources: tuple[str, ...] = ()  # "status", "scale", "eviction"
    verbs: tuple[str, ...] = ALL_VERBS

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def list_kind(self) -> str:
        return self.kind + "List"


def _resource(
    kind: str,
    group_version: str,
    plural: str,
    *,
    namespaced: bool = True,
    short: tuple[str, ...] = (),
    categories: tuple[str, ...] = (),
    subresources: tuple[str, ...] = ("status",),
) -> Resource:
    group, _, version = group_version.rpartition("/")
    return Resource(kind, group, version, plural, kind.lower(), namespaced, short, categories, subresources)


ALL = ("all",)
RESOURCES: tuple[Resource, ...] = (
    _resource("Pod", "v1", "pods", short=("po",), categories=ALL, subresources=("status", "eviction", "binding")),
    _resource("Node", "v1", "nodes", namespaced=False, short=("no",)),
    _resource("Namespace", "v1", "namespaces", namespaced=False, short=("ns",)),
    _resource("Service", "v1", "services", short=("svc",), categories=ALL),
    _resource("Event", "v1", "events", short=("ev",), subresources=()),
    _resource("PersistentVolume", "v1", "persistentvolumes", namespaced=False, short=("pv",)),
    _resource("PersistentVolumeClaim", "v1", "persistentvolumeclaims", short=("pvc",)),
    _resource("LimitRange", "v1", "limitranges", short=("limits",), subresources=()),
    _resource("ResourceQuota", "v1", "resourcequotas", short=("quota",)),
    _resource(
        "Deployment", "apps/v1", "deployments", short=("deploy",), categories=ALL, subresources=("status", "scale")
    ),
    _resource("ReplicaSet", "apps/v1", "replicasets", short=("rs",), categories=ALL, subresources=("status", "scale")),
    _resource(
        "StatefulSet", "apps/v1", "statefulsets", short=("sts",), categories=ALL, subresources=("status", "scale")
    ),
    _resource("DaemonSet", "apps/v1", "daemonsets", short=("ds",), categories=ALL),
    _resource("Job", "batch/v1", "jobs", categories=ALL),
    _resource("CronJob", "batch/v1", "cronjobs", short=("cj",), categories=ALL),
    _resource("HorizontalPodAutoscaler", "autoscaling/v2", "horizontalpodautoscalers", short=("hpa",), categories=ALL),
    _resource("PodDisruptionBudget", "policy/v1", "poddisruptionbudgets", short=("pdb",)),
    _resource("Ingress", "networking.k8s.io/v1", "ingresses", short=("ing",)),
    _resource("StorageClass", "storage.k8s.io/v1", "storageclasses", namespaced=False, short=("sc",), subresources=()),
    _resource(
        "PriorityClass", "scheduling.k8s.io/v1", "priorityclasses", namespaced=False, short=("pc",), subresources=()
    ),
)

BY_KIND = {resource.kind: resource for resource in RESOURCES}
BY_PATH = {(resource.group, resource.version, resource.plural): resource for resource in RESOURCES}


def group_versions() -> dict[str, list[str]]:
    """Each group's versions, the preferred (only) one first, in the order discovery lists groups."""
    groups: dict[str, list[str]] = {}
    for resource in RESOURCES:
        versions = groups.setdefault(resource.group, [])
        if resource.version not in versions:
            versions.append(resource.version)
    return groups


def resources_of(group: str, version: str) -> list[Resource]:
    return [resource for resource in RESOURCES if resource.group == group and resource.version == version]


def resource_for(group: str, version: str, plural: str) -> Resource | None:
    return BY_PATH.get((group, version, plural))

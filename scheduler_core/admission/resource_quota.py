"""The ResourceQuota admission plugin (k8s.io/apiserver/pkg/admission/plugin/resourcequota) and the
usage its evaluators charge (pkg/quota/v1/evaluator/core, k8s.io/apiserver/pkg/quota/v1/generic).

What an object uses:
- a Pod: count/pods always; while it is charged (not Succeeded/Failed, and not stuck terminating
  past its grace period) also pods=1, cpu and requests.cpu (its requests), limits.cpu, the same
  for memory and ephemeral-storage, hugepages-* and requests.<extended resource>;
- a Service: services, count/services, services.loadbalancers, services.nodeports;
- a PersistentVolumeClaim: persistentvolumeclaims, count/persistentvolumeclaims, requests.storage
  (and the <class>.storageclass.storage.k8s.io/ forms);
- any other namespaced object: count/<resource>.<group> (count/deployments.apps), and the legacy
  name resourcequotas for a ResourceQuota.

On create, every quota of the namespace whose hard names cover the object (and whose scopes match
a pod) is checked in name order: a pod that leaves out a cpu or memory request or limit the quota
tracks is refused ("failed quota: NAME: must specify ..."); a request that would take a tracked
amount above hard is refused with upstream's "exceeded quota: NAME, requested: ..., used: ...,
limited: ...". The amount used is what the namespace's objects use now, which is what the quota
controller keeps in status.used (controllers/resource_quota.py).
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scheduler_core.admission.limit_ranger import forbidden, pod_totals
from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.qos import BEST_EFFORT, qos_class
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import CPU, EPHEMERAL_STORAGE, MEMORY, Pod
from scheduler_core.api.workloads import PersistentVolumeClaim, ResourceQuota, Service
from scheduler_core.scheduler.resources import is_pod_level_resource, pod_requests

# kind -> (resource, API group): what the quota's count/ names and the Forbidden message call it.
KIND_RESOURCES: dict[str, tuple[str, str]] = {
    "Pod": ("pods", ""),
    "Service": ("services", ""),
    "PersistentVolumeClaim": ("persistentvolumeclaims", ""),
    "ResourceQuota": ("resourcequotas", ""),
    "LimitRange": ("limitranges", ""),
    "Deployment": ("deployments", "apps"),
    "ReplicaSet": ("replicasets", "apps"),
    "StatefulSet": ("statefulsets", "apps"),
    "DaemonSet": ("daemonsets", "apps"),
    "Job": ("jobs", "batch"),
    "CronJob": ("cronjobs", "batch"),
    "HorizontalPodAutoscaler": ("horizontalpodautoscalers", "autoscaling"),
    "Ingress": ("ingresses", "networking.k8s.io"),
    "PodDisruptionBudget": ("poddisruptionbudgets", "policy"),
}
# Quota names that predate count/ (legacyObjectCountAliases).
LEGACY_ALIASES = {"ResourceQuota": "resourcequotas"}

POD_RESOURCES = frozenset(
    {
        "count/pods",
        "cpu",
        "memory",
        "ephemeral-storage",
        "requests.cpu",
        "requests.memory",
        "requests.ephemeral-storage",
        "limits.cpu",
        "limits.memory",
        "limits.ephemeral-storage",
        "pods",
    }
)
SERVICE_RESOURCES = frozenset({"count/services", "services", "services.loadbalancers", "services.nodeports"})
PVC_RESOURCES = frozenset({"count/persistentvolumeclaims", "persistentvolumeclaims", "requests.storage"})
STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/"
# Quotaing one of these makes every container state it (the evaluator's validationSet).
MUST_SPECIFY = frozenset({"cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"})

# Upstream's texts (controller.go CheckRequest, pods.go Constraints).
EXCEEDED_QUOTA = "exceeded quota: {}, requested: {}, used: {}, limited: {}"
FAILED_QUOTA = "failed quota: {}: {}"
MUST_SPECIFY_MESSAGE = "must specify {}"

SCOPE_TERMINATING = "Terminating"
SCOPE_NOT_TERMINATING = "NotTerminating"
SCOPE_BEST_EFFORT = "BestEffort"
SCOPE_NOT_BEST_EFFORT = "NotBestEffort"
SCOPE_PRIORITY_CLASS = "PriorityClass"
SCOPE_CROSS_NAMESPACE_POD_AFFINITY = "CrossNamespacePodAffinity"


def group_resource(kind: str) -> str | None:
    """schema.GroupResource.String(): "pods", "deployments.apps"; None for kinds quota ignores."""
    known = KIND_RESOURCES.get(kind)
    if known is None:
        return None
    resource, group = known
    return f"{resource}.{group}" if group else resource


def count_name(kind: str) -> str | None:
    resource = group_resource(kind)
    return None if resource is None else f"count/{resource}"


# ---------------------------------------------------------------------------- usage


def is_charged(pod: Pod, now: float) -> bool:
    """QuotaV1Pod: terminal pods are free, and so is a pod stuck terminating past its grace period.
    Upstream's deletionTimestamp is the deletion request plus the grace period, and the pod stops
    counting once that much more has passed."""
    if is_pod_terminal(pod):
        return False
    deleted_at = pod.metadata.deletion_timestamp
    grace = pod.metadata.deletion_grace_period_seconds
    return not (deleted_at is not None and grace is not None and now > deleted_at + 2 * grace)


def _is_native(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def pod_limits(pod: Pod) -> dict[str, int]:
    """resourcehelper.PodLimits: containers and init containers as for requests, pod-level limits
    replace cpu and memory, overhead is added to the limits that are set."""
    limits = pod_totals(pod, True)
    pod_level = pod.spec.resources
    if pod_level is not None and pod_level.limits:
        for name, amount in pod_level.limits.items():
            if is_pod_level_resource(name):
                limits[name] = amount
    for name, amount in pod.spec.overhead.items():
        if name in limits:
            limits[name] += amount
    return limits


def pod_usage(pod: Pod, now: float) -> dict[str, int]:
    """PodUsageFunc."""
    usage = {"count/pods": 1}
    if not is_charged(pod, now):
        return usage
    requests = pod_requests(pod)
    limits = pod_limits(pod)
    usage["pods"] = 1
    for name in (CPU, MEMORY, EPHEMERAL_STORAGE):
        if name in requests:
            usage[name] = requests[name]
            usage[f"requests.{name}"] = requests[name]
        if name in limits:
            usage[f"limits.{name}"] = limits[name]
    for name, amount in requests.items():
        if name.startswith("hugepages-"):
            usage[name] = amount
            usage[f"requests.{name}"] = amount
        elif not _is_native(name) and not name.startswith("requests."):
            usage[f"requests.{name}"] = amount
    return usage


def _service_usage(service: Service) -> dict[str, int]:
    usage = {"count/services": 1, "services": 1}
    if service.spec.type == "NodePort":
        usage["services.nodeports"] = len(service.spec.ports)
    elif service.spec.type == "LoadBalancer":
        usage["services.nodeports"] = len(service.spec.ports)
        usage["services.loadbalancers"] = 1
    return usage


def _claim_usage(claim: PersistentVolumeClaim) -> dict[str, int]:
    usage = {"count/persistentvolumeclaims": 1, "persistentvolumeclaims": 1, "requests.storage": claim.spec.storage}
    storage_class = claim.spec.storage_class_name
    if storage_class:
        prefix = f"{storage_class}{STORAGE_CLASS_SUFFIX}"
        usage[f"{prefix}persistentvolumeclaims"] = 1
        usage[f"{prefix}requests.storage"] = claim.spec.storage
    return usage


def object_usage(kind: str, obj: Any, now: float) -> dict[str, int]:
    """What one object counts against quota (empty for kinds quota does not know)."""
    if kind == "Pod":
        return pod_usage(obj, now)
    if kind == "Service":
        return _service_usage(obj)
    if kind == "PersistentVolumeClaim":
        return _claim_usage(obj)
    name = count_name(kind)
    if name is None:
        return {}
    usage = {name: 1}
    if kind in LEGACY_ALIASES:
        usage[LEGACY_ALIASES[kind]] = 1
    return usage


def matching_resources(kind: str, names: Iterable[str]) -> list[str]:
    """The evaluator's MatchingResources: which of a quota's hard names this kind can use."""
    result = []
    for name in names:
        if kind == "Pod":
            matched = (
                name in POD_RESOURCES
                or name.startswith(("hugepages-", "requests.hugepages-"))
                or (name.startswith("requests.") and not _is_native(name[len("requests.") :]))
            )
        elif kind == "Service":
            matched = name in SERVICE_RESOURCES
        elif kind == "PersistentVolumeClaim":
            matched = name in PVC_RESOURCES or (
                STORAGE_CLASS_SUFFIX in name and name.endswith(("/persistentvolumeclaims", "/requests.storage"))
            )
        else:
            matched = name == count_name(kind) or name == LEGACY_ALIASES.get(kind)
        if matched:
            result.append(name)
    return result


def _uses_cross_namespace_affinity(pod: Pod) -> bool:
    affinity = pod.spec.affinity
    if affinity is None:
        return False
    for group in (affinity.pod_affinity, affinity.pod_anti_affinity):
        if group is None:
            continue
        terms = [*group.required, *(weighted.pod_affinity_term for weighted in group.preferred)]
        if any(term.namespaces or term.namespace_selector is not None for term in terms):
            return True
    return False


def scope_matches(scope: str, pod: Pod) -> bool:
    """podMatchesScopeFunc (spec.scopes: the Exists form). Pods here never set activeDeadlineSeconds."""
    if scope == SCOPE_TERMINATING:
        return False
    if scope == SCOPE_NOT_TERMINATING:
        return True
    if scope == SCOPE_BEST_EFFORT:
        return qos_class(pod) == BEST_EFFORT
    if scope == SCOPE_NOT_BEST_EFFORT:
        return qos_class(pod) != BEST_EFFORT
    if scope == SCOPE_PRIORITY_CLASS:
        return bool(pod.spec.priority_class_name)
    if scope == SCOPE_CROSS_NAMESPACE_POD_AFFINITY:
        return _uses_cross_namespace_affinity(pod)
    return False


def quota_matches(quota: ResourceQuota, kind: str, obj: Any) -> bool:
    """generic.Matches: the quota tracks something of this kind, and every scope selects it
    (scopes only ever select pods)."""
    if not matching_resources(kind, quota.hard):
        return False
    if not quota.scopes:
        return True
    return kind == "Pod" and all(scope_matches(scope, obj) for scope in quota.scopes)


def quota_usage(quota: ResourceQuota, objects: Mapping[str, Sequence[Any]], now: float) -> dict[str, int]:
    """status.used: for each hard name, what the namespace's matching objects use (0 if none)."""
    used = dict.fromkeys(quota.hard, 0)
    for kind, items in objects.items():
        if not matching_resources(kind, quota.hard):
            continue
        for obj in items:
            if obj.metadata.namespace != quota.metadata.namespace or not quota_matches(quota, kind, obj):
                continue
            for name, amount in object_usage(kind, obj, now).items():
                if name in used:
                    used[name] += amount
    return used


# ---------------------------------------------------------------------------- admission


def pretty_print(amounts: Mapping[str, int]) -> str:
    """prettyPrint: name=quantity, sorted by name, comma-separated."""
    return ",".join(f"{name}={format_quantity(name, amounts[name])}" for name in sorted(amounts))


def pod_constraints(pod: Pod, tracked: Iterable[str]) -> str | None:
    """podEvaluator.Constraints: the containers that leave out a cpu/memory amount the quota tracks."""
    required = MUST_SPECIFY.intersection(tracked)
    missing: dict[str, set[str]] = {}
    for container in (*pod.spec.containers, *pod.spec.init_containers):
        requests, limits = container.resources.requests, container.resources.limits
        present = set()
        for name in (CPU, MEMORY):
            if name in requests:
                present.update({name, f"requests.{name}"})
            if name in limits:
                present.add(f"limits.{name}")
        for name in required - present:
            missing.setdefault(name, set()).add(container.name)
    if not missing:
        return None
    parts = [f"{name} for: {','.join(sorted(missing[name]))}" for name in sorted(missing)]
    return MUST_SPECIFY_MESSAGE.format("; ".join(parts))


def check_request(
    kind: str, obj: Any, quotas: Sequence[ResourceQuota], objects: Mapping[str, Sequence[Any]], now: float
) -> None:
    """CheckRequest for a create: raises the API server's Forbidden, or returns when it fits."""
    resource = group_resource(kind)
    if resource is None:
        return
    name = obj.metadata.name
    interesting: list[ResourceQuota] = []
    for quota in sorted(quotas, key=lambda q: q.metadata.name):
        if quota.metadata.namespace != obj.metadata.namespace or not quota_matches(quota, kind, obj):
            continue
        if kind == "Pod":
            problem = pod_constraints(obj, matching_resources(kind, quota.hard))
            if problem is not None:
                raise forbidden(resource, name, FAILED_QUOTA.format(quota.metadata.name, problem))
        interesting.append(quota)
    if not interesting:
        return
    delta = {key: amount for key, amount in object_usage(kind, obj, now).items() if amount != 0}
    if not delta:
        return
    for quota in interesting:
        requested = {key: amount for key, amount in delta.items() if key in quota.hard}
        if not requested:
            continue
        used = quota_usage(quota, objects, now)
        exceeded = [key for key, amount in requested.items() if used.get(key, 0) + amount > quota.hard[key]]
        if exceeded:
            message = EXCEEDED_QUOTA.format(
                quota.metadata.name,
                pretty_print({key: requested[key] for key in exceeded}),
                pretty_print({key: used[key] for key in exceeded if key in used}),
                pretty_print({key: quota.hard[key] for key in exceeded}),
            )
            raise forbidden(resource, name, message)

"""The admission chain a simulated API server runs on every create, in upstream's order (but for
ServiceAccount's place: see default_chain).

Each admission function takes the object and the cluster and returns the object (possibly changed)
or raises AdmissionError with the API server's message.
"""

from collections.abc import Callable
from dataclasses import replace

from scheduler_core.admission import limit_ranger
from scheduler_core.admission.default_toleration_seconds import default_toleration_seconds_spec
from scheduler_core.admission.priority import admit_priority
from scheduler_core.admission.resource_quota import KIND_RESOURCES, check_request
from scheduler_core.admission.service_account import admit_service_account
from scheduler_core.admission.spec_memo import SpecMemo
from scheduler_core.api.pod_conditions import (
    POD_SCHEDULED,
    SCHEDULING_GATED,
    SCHEDULING_GATED_MESSAGE,
    condition_of,
)
from scheduler_core.api.pod_defaults import default_pod_spec
from scheduler_core.api.types import Pod, PodCondition, PriorityClass
from scheduler_core.api.workloads import LimitRange, ResourceQuota
from scheduler_core.store.cluster import Cluster, StoredObject, type_name

Admission = Callable[[StoredObject, Cluster], StoredObject]


def pod_defaults(memo: SpecMemo) -> Admission:
    """Not a plugin: SetDefaults_Pod, which the API server applies as it decodes a pod. The parser
    applies it to a pod it reads; a controller's pod, built from its template (which SetDefaults_Pod
    leaves alone), gets it here."""

    def admit(obj: StoredObject, cluster: Cluster) -> StoredObject:
        if not isinstance(obj, Pod):
            return obj
        spec = memo.get(obj.spec, None, lambda: default_pod_spec(obj.spec))
        return obj if spec is obj.spec else replace(obj, spec=spec)

    return admit


def service_account(seed: int) -> Admission:
    """ServiceAccount, mutating; `seed` names the token volumes."""

    def admit(obj: StoredObject, cluster: Cluster) -> StoredObject:
        return admit_service_account(obj, seed) if isinstance(obj, Pod) else obj

    return admit


def priority(memo: SpecMemo) -> Admission:
    def admit(obj: StoredObject, cluster: Cluster) -> StoredObject:
        if not isinstance(obj, Pod):
            return obj
        classes: dict[str, PriorityClass] = {pc.metadata.name: pc for pc in cluster.objects(PriorityClass)}
        return admit_priority(obj, classes, memo)

    return admit


def limit_ranger_admit(obj: StoredObject, cluster: Cluster) -> StoredObject:
    """LimitRanger, mutating: default requests and limits."""
    if not isinstance(obj, Pod):
        return obj
    return limit_ranger.mutate(obj, cluster.objects(LimitRange))


def default_toleration_seconds(memo: SpecMemo) -> Admission:
    def admit(obj: StoredObject, cluster: Cluster) -> StoredObject:
        if not isinstance(obj, Pod):
            return obj
        spec = memo.get(obj.spec, None, lambda: default_toleration_seconds_spec(obj.spec))
        return obj if spec is obj.spec else replace(obj, spec=spec)

    return admit


def scheduling_gated(obj: StoredObject, cluster: Cluster) -> StoredObject:
    """Not a plugin either: the pod strategy's PrepareForCreate (applySchedulingGatedCondition). A
    pod created with scheduling gates and no PodScheduled condition gets PodScheduled=False,
    SchedulingGated (no transition time, as upstream writes it)."""
    if not isinstance(obj, Pod) or not obj.spec.scheduling_gates or condition_of(obj.status, POD_SCHEDULED):
        return obj
    gated = PodCondition(POD_SCHEDULED, "False", SCHEDULING_GATED, SCHEDULING_GATED_MESSAGE)
    return replace(obj, status=replace(obj.status, conditions=(*obj.status.conditions, gated)))


def pod_validation(obj: StoredObject, cluster: Cluster) -> StoredObject:
    """Not a plugin: the API server validates the object between the mutating and the validating
    plugins, which is where a defaulted limit below an explicit request is refused."""
    return limit_ranger.validate_requests_within_limits(obj) if isinstance(obj, Pod) else obj


def limit_ranger_validate(obj: StoredObject, cluster: Cluster) -> StoredObject:
    """LimitRanger, validating: min, max and maxLimitRequestRatio."""
    if not isinstance(obj, Pod):
        return obj
    return limit_ranger.validate(obj, cluster.objects(LimitRange))


def resource_quota(obj: StoredObject, cluster: Cluster) -> StoredObject:
    """ResourceQuota, validating: the last plugin, as upstream orders it."""
    kind = type_name(obj)
    if kind not in KIND_RESOURCES or not obj.metadata.namespace:
        return obj
    quotas = cluster.objects(ResourceQuota)
    if not quotas:
        return obj
    objects = {name: cluster.objects(name) for name in KIND_RESOURCES}
    now = cluster._clock()  # the API server's clock, for pods stuck terminating past their grace period
    check_request(kind, obj, quotas, objects, now)
    return obj


def default_chain(seed: int = 0) -> list[Admission]:
    # Upstream's order (pkg/kubeapiserver/options/plugins.go): defaulting as the object is decoded,
    # every mutating plugin, then object validation, then every validating plugin. One exception:
    # ServiceAccount runs after Priority and DefaultTolerationSeconds, not before them. The three
    # change different fields and the engine's ServiceAccount refuses nothing, so no outcome shows
    # the order; but its volume is the pod's own, and run last it lets the pods of one template
    # share what the others make of the template's spec (SpecMemo).
    return [
        pod_defaults(SpecMemo()),
        limit_ranger_admit,
        priority(SpecMemo()),
        default_toleration_seconds(SpecMemo()),
        service_account(seed),
        scheduling_gated,
        pod_validation,
        limit_ranger_validate,
        resource_quota,
    ]


def install(cluster: Cluster, chain: list[Admission] | None = None, *, seed: int = 0) -> None:
    """The chain (default: default_chain(seed), `seed` being the run's) on the store's creates."""
    for admit in chain if chain is not None else default_chain(seed):
        cluster.admission.append(_bound(admit, cluster))


def _bound(admit: Admission, cluster: Cluster) -> Callable[[StoredObject], StoredObject]:
    def run(obj: StoredObject) -> StoredObject:
        return admit(obj, cluster)

    return run

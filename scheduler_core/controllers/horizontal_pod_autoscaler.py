"""The HorizontalPodAutoscaler controller (autoscaling/v2), as kube-controller-manager v1.34 runs it
(pkg/controller/podautoscaler: horizontal.go, replica_calculator.go, metrics/utilization.go).

Sync loop. Each HPA is reconciled 15 s after it is created and every 15 s after that
(--horizontal-pod-autoscaler-sync-period; upstream's work queue re-adds every key with a fixed
15 s delay), on a real timer of the simulation. Deleting the HPA ends its loop.

One reconcile, as upstream does it:
1. currentReplicas is the target's spec.replicas (the scale subresource of a Deployment, ReplicaSet
   or StatefulSet). 0 with minReplicas > 0 means autoscaling is disabled; outside
   [minReplicas, maxReplicas] the target is brought back in range at once.
2. Each metric proposes a replica count; the highest wins. For a Utilization target:
   ratio = utilization / target, and desired = ceil(ratio x ready pods) unless the ratio is within
   the tolerance (0.1, or behavior.scaleUp/scaleDown.tolerance when set). Pods are grouped as the
   replica calculator groups them: deleted and Failed pods are ignored; Pending pods, and during
   the first 5 minutes of a pod (--horizontal-pod-autoscaler-cpu-initialization-period) pods not
   Ready or whose readiness changed less than one metric window ago, are unready; Running pods
   without a sample are missing. Unready pods count as 0% on a scale-up; missing pods as 0% on a
   scale-up and 100% on a scale-down; no change when that reverses the direction.
3. Without spec.behavior: the highest recommendation of the last 300 s wins
   (--horizontal-pod-autoscaler-downscale-stabilization) and a scale-up is capped at
   max(2 x current, 4). With spec.behavior (defaults filled in as the API server does: scale-up
   max(+4 pods, +100%) per 15 s with no window, scale-down -100% per 15 s after a 300 s window):
   recommendations are bounded by the scale-up and scale-down windows, then by the policies of the
   direction (selectPolicy Max, Min or Disabled) over the scale events of their periods.
4. On a change, the target's spec.replicas is written and a SuccessfulRescale event is recorded
   ("New size: 6; reason: cpu resource utilization (percentage of request) above target");
   status.currentReplicas, desiredReplicas and lastScaleTime follow (setStatus), with
   currentMetrics: one entry per metric of the spec, in its order, the average usage measured
   (and the utilization, for a Utilization target), or an empty entry for a metric that failed.
   status.observedGeneration stays unset: upstream's controller never writes it.

Metrics (what metrics-server would report). A workload's load is a total CPU demand in
millicores, ctx.workload_demand["Kind/namespace/name"] of the HPA's scale target. The timeline op
`set-utilization` (cpu: percent; target: the workload, or the HPA itself) sets it to
cpu% x the CPU requests of the workload's pods at that moment (its Ready pods; when none is Ready,
its active pods; when it has none, its template x spec.replicas). The demand then stays fixed, as
a real load does, while replicas change: it is shared by the Ready pods (the Service's endpoints)
in proportion to their requests, so each sync sees utilization = demand / requests of the Ready
pods, and the HPA converges as on a real cluster. Pods not Ready receive no traffic (0 m). A
workload whose demand was never set is idle (0 m): the HPA scales it to minReplicas once the
stabilization window has passed. Memory metrics read the pod annotation
playground.k8s.io/memory-usage (a pod without it has no memory sample). Samples are taken at the
sync, with a 15 s window (metrics-server's --metric-resolution).

End of a run. An HPA's timer keeps the run alive while its decision can still change by itself;
it becomes idle (a timer that alone does not keep the run going) once nothing it depends on has
changed for its quiet period: the longest of the CPU initialization period, the stabilization
windows and the policy periods, plus two sync periods. Its inputs are its spec, its target's
spec, the pods of its namespace and the target's demand; with those fixed for that long the
recommendations in every window are equal and every scale event has left its period, so no
later sync can rescale. Any change of an input (a set-utilization, a pod becoming Ready, a scale)
makes the timer active again. So a scenario with an HPA ends by itself a few minutes after it
settles; use --until to stop earlier.

Status conditions as upstream sets them: AbleToScale (SucceededGetScale, FailedGetScale,
ReadyForNewScale, ScaleUpStabilized, ScaleDownStabilized, SucceededRescale), ScalingActive
(ValidMetricFound, FailedGetResourceMetric, ScalingDisabled) and ScalingLimited (the limiting
reason, False when the count is within range).

Not simulated: Pods, Object,
External and ContainerResource metrics (the parser accepts only Resource metrics), selectors
shared by several HPAs (AmbiguousSelector), and the difference between a `behavior: {}` and no
behavior (the parsed spec cannot tell them apart: both run the no-behavior path).
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scheduler_core.api.conditions import set_condition
from scheduler_core.api.errors import ActionError, QuantityError
from scheduler_core.api.pod_conditions import is_pod_terminal, ready_changed_at
from scheduler_core.api.quantity import value
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.timeline import Action
from scheduler_core.api.types import CPU, Condition, ObjectMeta, Pod
from scheduler_core.api.workloads import (
    SCALE_TARGETS,
    Deployment,
    HorizontalPodAutoscaler,
    HorizontalPodAutoscalerSpec,
    HorizontalPodAutoscalerStatus,
    HPAScalingPolicy,
    HPAScalingRules,
    MetricStatus,
    MetricTarget,
    ReplicaSet,
    ScaleTarget,
)
from scheduler_core.controllers.base import MEMORY_USAGE_ANNOTATION, Context, record
from scheduler_core.store.cluster import Change, ChangeType, StoredObject

NAME = "horizontal-pod-autoscaler"
HPA_KIND = "HorizontalPodAutoscaler"
SCALE_TARGET_KINDS = tuple(SCALE_TARGETS)
_RESOURCE_NAMES = {
    "Deployment": "deployments.apps",
    "ReplicaSet": "replicasets.apps",
    "StatefulSet": "statefulsets.apps",
}

# kube-controller-manager defaults (pkg/controller/podautoscaler/config/v1alpha1/defaults.go).
SYNC_PERIOD_SECONDS = 15.0
DOWNSCALE_STABILIZATION_SECONDS = 300
DEFAULT_TOLERANCE = 0.1
CPU_INITIALIZATION_PERIOD_SECONDS = 300.0
INITIAL_READINESS_DELAY_SECONDS = 30.0
# metrics-server's --metric-resolution: the window of every sample.
METRIC_WINDOW_SECONDS = 15.0
# horizontal.go: the scale-up cap without spec.behavior.
SCALE_UP_LIMIT_FACTOR = 2.0
SCALE_UP_LIMIT_MINIMUM = 4.0

# pkg/apis/autoscaling/v2/defaults.go: what the API server fills into a spec.behavior.
DEFAULT_SCALE_UP_RULES = HPAScalingRules(
    stabilization_window_seconds=0,
    select_policy="Max",
    policies=(HPAScalingPolicy("Pods", 4, 15), HPAScalingPolicy("Percent", 100, 15)),
)
DEFAULT_SCALE_DOWN_RULES = HPAScalingRules(
    stabilization_window_seconds=None,  # the controller's --horizontal-pod-autoscaler-downscale-stabilization
    select_policy="Max",
    policies=(HPAScalingPolicy("Percent", 100, 15),),
)

# Event reasons and messages (kubernetes v1.34, horizontal.go and replica_calculator.go).
REASON_SUCCESSFUL_RESCALE = "SuccessfulRescale"
REASON_FAILED_GET_SCALE = "FailedGetScale"
REASON_FAILED_GET_RESOURCE_METRIC = "FailedGetResourceMetric"
REASON_FAILED_COMPUTE_METRICS_REPLICAS = "FailedComputeMetricsReplicas"
MESSAGE_RESCALE = "New size: {replicas}; reason: {reason}"
RESCALE_ABOVE_MAX = "Current number of replicas above Spec.MaxReplicas"
RESCALE_BELOW_MIN = "Current number of replicas below Spec.MinReplicas"
RESCALE_ABOVE_TARGET = "{metric} above target"
RESCALE_BELOW_TARGET = "All metrics below target"
METRIC_NAME_UTILIZATION = "{resource} resource utilization (percentage of request)"
METRIC_NAME_VALUE = "{resource} resource"
ERROR_SCALE_NOT_FOUND = '{resource} "{name}" not found'
ERROR_GET_UTILIZATION = "failed to get {resource} utilization: {error}"
ERROR_GET_USAGE = "failed to get {resource} usage: {error}"
ERROR_METRIC_VALUE = "failed to get {resource} resource metric value: {error}"
ERROR_INVALID_METRICS = "invalid metrics ({invalid} invalid out of {total}), first error is: {error}"
ERROR_UNABLE_TO_GET_METRICS = "unable to get metrics for resource {resource}: {error}"
ERROR_NO_METRICS_RETURNED = "no metrics returned from resource metrics API"
ERROR_NO_PODS = "no pods returned by selector while calculating replica count"
ERROR_NO_READY_METRICS = "did not receive metrics for targeted pods (pods might be unready)"
ERROR_NO_MATCHING_METRICS = "no metrics returned matched known pods"
ERROR_MISSING_REQUEST = "missing request for {resource} in container {container} of Pod {pod}"
ERROR_MISSING_POD_LEVEL_REQUEST = "missing pod-level request for {resource} in Pod {pod}"

# Limiting reasons (the ScalingLimited condition's reasons), returned by the normalizers.
LIMIT_NONE = "DesiredWithinRange"
LIMIT_SCALE_UP = "ScaleUpLimit"
LIMIT_TOO_MANY = "TooManyReplicas"
LIMIT_SCALE_DOWN = "ScaleDownLimit"
LIMIT_TOO_FEW = "TooFewReplicas"
LIMIT_MESSAGES = {
    LIMIT_NONE: "the desired count is within the acceptable range",
    LIMIT_SCALE_UP: "the desired replica count is increasing faster than the maximum scale rate",
    LIMIT_TOO_MANY: "the desired replica count is more than the maximum replica count",
    LIMIT_SCALE_DOWN: "the desired replica count is decreasing faster than the maximum scale rate",
    LIMIT_TOO_FEW: "the desired replica count is less than the minimum replica count",
}

# Status conditions (horizontal.go's setCondition calls).
ABLE_TO_SCALE = "AbleToScale"
SCALING_ACTIVE = "ScalingActive"
SCALING_LIMITED = "ScalingLimited"
SUCCEEDED_GET_SCALE = ("SucceededGetScale", "the HPA controller was able to get the target's current scale")
FAILED_GET_SCALE_MESSAGE = "the HPA controller was unable to get the target's current scale: {error}"
SCALING_DISABLED = ("ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
VALID_METRIC_FOUND = ("ValidMetricFound", "the HPA was able to successfully calculate a replica count from {metric}")
UNABLE_TO_COMPUTE_MESSAGE = "the HPA was unable to compute the replica count: {error}"
READY_FOR_NEW_SCALE = ("ReadyForNewScale", "recommended size matches current size")
SCALE_UP_STABILIZED = (
    "ScaleUpStabilized",
    "recent recommendations were lower than current one, applying the lowest recent recommendation",
)
SCALE_DOWN_STABILIZED = (
    "ScaleDownStabilized",
    "recent recommendations were higher than current one, applying the highest recent recommendation",
)
SUCCEEDED_RESCALE = ("SucceededRescale", "the HPA controller was able to update the target scale to {replicas}")


class MetricError(Exception):
    """A metric that cannot give a replica count (upstream's errors, with their texts)."""


class _Conditions:
    """status.conditions as one reconcile sets them (setConditionInList: in place, the transition
    time moved only when the status flips)."""

    def __init__(self, conditions: tuple[Condition, ...], at: float) -> None:
        self.now = conditions
        self.at = at

    def set(self, condition_type: str, value: bool, reason: str, message: str) -> None:
        status = "True" if value else "False"
        self.now = set_condition(self.now, condition_type, status, reason, message, self.at)


# ---------------------------------------------------------------------------- replica calculator


@dataclass(frozen=True, slots=True)
class PodMetric:
    value: int  # millicores for cpu, bytes for memory
    timestamp: float
    window: float = METRIC_WINDOW_SECONDS


@dataclass(frozen=True, slots=True)
class Tolerances:
    """No change while 1 - scale_down <= ratio <= 1 + scale_up (Tolerances.isWithin)."""

    scale_down: float = DEFAULT_TOLERANCE
    scale_up: float = DEFAULT_TOLERANCE

    def within(self, ratio: float) -> bool:
        return 1.0 - self.scale_down <= ratio <= 1.0 + self.scale_up


@dataclass(frozen=True, slots=True)
class PodGroups:
    ready_count: int
    unready: frozenset[str]
    missing: frozenset[str]
    ignored: frozenset[str]


def group_pods(
    pods: Sequence[Pod],
    metrics: Mapping[str, PodMetric],
    resource: str,
    now: float,
    ready_transitions: Mapping[str, float] | None = None,
) -> PodGroups:
    """groupPods: which pods count, which are unready, missing or ignored.

    `ready_transitions` gives, by pod name, when its Ready condition last changed (the
    condition's lastTransitionTime); a pod not in it changed at its start time."""
    transitions = ready_transitions or {}
    ready_count = 0
    unready: set[str] = set()
    missing: set[str] = set()
    ignored: set[str] = set()
    for pod in pods:
        if pod.metadata.deletion_timestamp is not None or pod.status.phase == "Failed":
            ignored.add(pod.name)
            continue
        if pod.status.phase == "Pending":
            unready.add(pod.name)
            continue
        metric = metrics.get(pod.name)
        if metric is None:
            missing.add(pod.name)
            continue
        if resource == CPU:
            start = pod.status.start_time
            if start is None:
                is_unready = True
            else:
                changed = transitions.get(pod.name, start)
                if start + CPU_INITIALIZATION_PERIOD_SECONDS > now:
                    # Within its initialization: skip a pod not ready, or whose sample predates readiness.
                    is_unready = not pod.status.ready or metric.timestamp < changed + metric.window
                else:
                    # Afterwards, skip only a pod that has never been ready.
                    is_unready = not pod.status.ready and start + INITIAL_READINESS_DELAY_SECONDS > changed
            if is_unready:
                unready.add(pod.name)
                continue
        ready_count += 1
    return PodGroups(ready_count, frozenset(unready), frozenset(missing), frozenset(ignored))


def _container_request(pod: Pod, resource: str, container: Any) -> int:
    if resource not in container.resources.requests:
        raise MetricError(ERROR_MISSING_REQUEST.format(resource=resource, container=container.name, pod=pod.name))
    return int(container.resources.requests[resource])


def pod_requests(pods: Sequence[Pod], resource: str) -> dict[str, int]:
    """calculateRequests: pod-level requests when set, else the containers' (with sidecars)."""
    requests: dict[str, int] = {}
    for pod in pods:
        pod_level = pod.spec.resources
        if pod_level is not None and pod_level.requests:
            if resource not in pod_level.requests:
                raise MetricError(ERROR_MISSING_POD_LEVEL_REQUEST.format(resource=resource, pod=pod.name))
            requests[pod.name] = int(pod_level.requests[resource])
            continue
        sidecars = [c for c in pod.spec.init_containers if c.restart_policy == "Always"]
        requests[pod.name] = sum(_container_request(pod, resource, c) for c in [*pod.spec.containers, *sidecars])
    return requests


def utilization_ratio(
    metrics: Mapping[str, PodMetric], requests: Mapping[str, int], target_utilization: int
) -> tuple[float, int, int]:
    """GetResourceUtilizationRatio: (ratio to target, utilization %, average raw value)."""
    total = requested = entries = 0
    for name, metric in metrics.items():
        if name not in requests:
            continue
        total += metric.value
        requested += requests[name]
        entries += 1
    if requested == 0:
        raise MetricError(ERROR_NO_MATCHING_METRICS)
    utilization = total * 100 // requested
    return utilization / target_utilization, utilization, total // entries


def usage_ratio(metrics: Mapping[str, PodMetric], target_usage: int) -> tuple[float, int]:
    """GetMetricUsageRatio: (ratio to target, average usage)."""
    usage = sum(metric.value for metric in metrics.values()) // len(metrics)
    return usage / target_usage, usage


def _drop(metrics: dict[str, PodMetric], names: Iterable[str]) -> None:
    for name in names:
        metrics.pop(name, None)


def replicas_for_utilization(
    current: int,
    target_utilization: int,
    resource: str,
    tolerances: Tolerances,
    pods: Sequence[Pod],
    metrics: Mapping[str, PodMetric],
    now: float,
    ready_transitions: Mapping[str, float] | None = None,
) -> tuple[int, int, int]:
    """GetResourceReplicas: (replicas, utilization %, average raw value) for a Utilization target."""
    if not pods:
        raise MetricError(ERROR_NO_PODS)
    samples = dict(metrics)
    groups = group_pods(pods, samples, resource, now, ready_transitions)
    _drop(samples, groups.ignored)
    _drop(samples, groups.unready)
    if not samples:
        raise MetricError(ERROR_NO_READY_METRICS)
    requests = pod_requests(pods, resource)
    ratio, utilization, raw = utilization_ratio(samples, requests, target_utilization)

    scale_up_with_unready = bool(groups.unready) and ratio > 1.0
    if not scale_up_with_unready and not groups.missing:
        if tolerances.within(ratio):
            return current, utilization, raw
        return math.ceil(ratio * groups.ready_count), utilization, raw

    if groups.missing:
        if ratio < 1.0:  # a scale-down: missing pods use their whole request (or the target, above 100%)
            fallback = max(100, target_utilization)
            for name in groups.missing:
                samples[name] = PodMetric(requests[name] * fallback // 100, now)
        elif ratio > 1.0:  # a scale-up: missing pods use nothing
            for name in groups.missing:
                samples[name] = PodMetric(0, now)
    if scale_up_with_unready:
        for name in groups.unready:
            samples[name] = PodMetric(0, now)

    new_ratio, _, _ = utilization_ratio(samples, requests, target_utilization)
    if tolerances.within(new_ratio) or (ratio < 1.0 < new_ratio) or (new_ratio < 1.0 < ratio):
        return current, utilization, raw
    replicas = math.ceil(new_ratio * len(samples))
    if (new_ratio < 1.0 and replicas > current) or (new_ratio > 1.0 and replicas < current):
        return current, utilization, raw
    return replicas, utilization, raw


def replicas_for_average_value(
    current: int,
    target_usage: int,
    resource: str,
    tolerances: Tolerances,
    pods: Sequence[Pod],
    metrics: Mapping[str, PodMetric],
    now: float,
    ready_transitions: Mapping[str, float] | None = None,
) -> tuple[int, int]:
    """calcPlainMetricReplicas: (replicas, average usage) for an AverageValue target."""
    if not pods:
        raise MetricError(ERROR_NO_PODS)
    samples = dict(metrics)
    groups = group_pods(pods, samples, resource, now, ready_transitions)
    _drop(samples, groups.ignored)
    _drop(samples, groups.unready)
    if not samples:
        raise MetricError(ERROR_NO_READY_METRICS)
    ratio, usage = usage_ratio(samples, target_usage)

    scale_up_with_unready = bool(groups.unready) and ratio > 1.0
    if not scale_up_with_unready and not groups.missing:
        if tolerances.within(ratio):
            return current, usage
        return math.ceil(ratio * groups.ready_count), usage

    if groups.missing:
        if ratio < 1.0:  # a scale-down: missing pods use exactly the target
            for name in groups.missing:
                samples[name] = PodMetric(target_usage, now)
        elif ratio > 1.0:
            for name in groups.missing:
                samples[name] = PodMetric(0, now)
    if scale_up_with_unready:
        for name in groups.unready:
            samples[name] = PodMetric(0, now)

    new_ratio, _ = usage_ratio(samples, target_usage)
    if tolerances.within(new_ratio) or (ratio < 1.0 < new_ratio) or (new_ratio < 1.0 < ratio):
        return current, usage
    replicas = math.ceil(new_ratio * len(samples))
    if (new_ratio < 1.0 and replicas > current) or (new_ratio > 1.0 and replicas < current):
        return current, usage
    return replicas, usage


# ---------------------------------------------------------------------------- normalization


@dataclass(slots=True)
class Recommendation:
    replicas: int
    time: float


@dataclass(slots=True)
class ScaleEvent:
    change: int  # replicas added or removed (positive)
    time: float
    outdated: bool = False


@dataclass(slots=True)
class ScalingHistory:
    """What the controller remembers of one HPA between syncs (never stored in the API)."""

    recommendations: list[Recommendation] = field(default_factory=list)
    scale_up_events: list[ScaleEvent] = field(default_factory=list)
    scale_down_events: list[ScaleEvent] = field(default_factory=list)

    def record_initial(self, current: int, now: float) -> None:
        if not self.recommendations:
            self.recommendations.append(Recommendation(current, now))

    def _remember(self, desired: int, now: float, old_index: int | None) -> None:
        entry = Recommendation(desired, now)
        if old_index is None:
            self.recommendations.append(entry)
        else:
            self.recommendations[old_index] = entry  # reuse the slot of an expired sample


def effective_behavior(spec: HorizontalPodAutoscalerSpec) -> tuple[HPAScalingRules, HPAScalingRules] | None:
    """spec.behavior with the API server's defaults and the controller's scale-down window filled in,
    or None when the HPA has no behavior."""
    if spec.scale_up is None and spec.scale_down is None:
        return None
    up = _with_defaults(spec.scale_up, DEFAULT_SCALE_UP_RULES)
    down = _with_defaults(spec.scale_down, DEFAULT_SCALE_DOWN_RULES)
    if down.stabilization_window_seconds is None:
        down = replace(down, stabilization_window_seconds=DOWNSCALE_STABILIZATION_SECONDS)
    return up, down


def _with_defaults(rules: HPAScalingRules | None, default: HPAScalingRules) -> HPAScalingRules:
    if rules is None:
        return default
    return HPAScalingRules(
        stabilization_window_seconds=(
            rules.stabilization_window_seconds
            if rules.stabilization_window_seconds is not None
            else default.stabilization_window_seconds
        ),
        select_policy=rules.select_policy or default.select_policy,
        policies=rules.policies or default.policies,
        tolerance=rules.tolerance if rules.tolerance is not None else default.tolerance,
    )


def tolerances_of(spec: HorizontalPodAutoscalerSpec) -> Tolerances:
    """behavior.scaleDown/scaleUp.tolerance when set (HPAConfigurableTolerance), else the cluster's 10%."""
    down = spec.scale_down.tolerance if spec.scale_down is not None else None
    up = spec.scale_up.tolerance if spec.scale_up is not None else None
    return Tolerances(
        scale_down=DEFAULT_TOLERANCE if down is None else down, scale_up=DEFAULT_TOLERANCE if up is None else up
    )


def stabilize_recommendation(history: ScalingHistory, desired: int, now: float) -> int:
    """stabilizeRecommendation (no behavior): the highest recommendation of the downscale window."""
    best = desired
    old_index = None
    cutoff = now - DOWNSCALE_STABILIZATION_SECONDS
    for index, recommendation in enumerate(history.recommendations):
        if recommendation.time < cutoff:
            old_index = index
        elif recommendation.replicas > best:
            best = recommendation.replicas
    history._remember(desired, now, old_index)
    return best


def scale_up_limit(current: int) -> int:
    return int(max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM))


def convert_with_rules(current: int, desired: int, min_replicas: int, max_replicas: int) -> tuple[int, str]:
    """convertDesiredReplicasWithRules: clamp to [min, max] and to the scale-up cap."""
    limit = scale_up_limit(current)
    if max_replicas > limit:
        maximum, limiting = limit, LIMIT_SCALE_UP
    else:
        maximum, limiting = max_replicas, LIMIT_TOO_MANY
    if desired < min_replicas:
        return min_replicas, LIMIT_TOO_FEW
    if desired > maximum:
        return maximum, limiting
    return desired, LIMIT_NONE


def stabilize_with_behavior(
    history: ScalingHistory, current: int, desired: int, up_window: int, down_window: int, now: float
) -> int:
    """stabilizeRecommendationWithBehaviors: keep the recommendation between the lowest of the
    scale-up window and the highest of the scale-down window."""
    up_recommendation = down_recommendation = desired
    up_cutoff, down_cutoff = now - up_window, now - down_window
    old_index = None
    for index, recommendation in enumerate(history.recommendations):
        if recommendation.time > up_cutoff:
            up_recommendation = min(up_recommendation, recommendation.replicas)
        if recommendation.time > down_cutoff:
            down_recommendation = max(down_recommendation, recommendation.replicas)
        if recommendation.time < up_cutoff and recommendation.time < down_cutoff:
            old_index = index
    stabilized = max(current, up_recommendation)
    stabilized = min(stabilized, down_recommendation)
    history._remember(desired, now, old_index)
    return stabilized


def _changed_in_period(period: int, events: Sequence[ScaleEvent], now: float) -> int:
    cutoff = now - period
    return sum(event.change for event in events if event.time > cutoff)


def scale_up_limit_with_rules(
    current: int, up_events: Sequence[ScaleEvent], down_events: Sequence[ScaleEvent], rules: HPAScalingRules, now: float
) -> int:
    """calculateScaleUpLimitWithScalingRules: the most replicas the scale-up policies allow now."""
    if rules.select_policy == "Disabled":
        return current
    proposals = []
    for policy in rules.policies:
        start = (
            current
            - _changed_in_period(policy.period_seconds, up_events, now)
            + _changed_in_period(policy.period_seconds, down_events, now)
        )
        if policy.type == "Pods":
            proposals.append(start + policy.value)
        else:  # Percent: rounded up, or a small target would never grow
            proposals.append(math.ceil(start * (1 + policy.value / 100)))
    return min(proposals) if rules.select_policy == "Min" else max(proposals)


def scale_down_limit_with_rules(
    current: int, up_events: Sequence[ScaleEvent], down_events: Sequence[ScaleEvent], rules: HPAScalingRules, now: float
) -> int:
    """calculateScaleDownLimitWithBehaviors: the fewest replicas the scale-down policies allow now."""
    if rules.select_policy == "Disabled":
        return current
    proposals = []
    for policy in rules.policies:
        start = (
            current
            - _changed_in_period(policy.period_seconds, up_events, now)
            + _changed_in_period(policy.period_seconds, down_events, now)
        )
        if policy.type == "Pods":
            proposals.append(start - policy.value)
        else:  # Percent: the replicas that stay are truncated, as Go's float-to-int conversion does
            proposals.append(int(start * (1 - policy.value / 100)))
    # For a scale-down the smallest change ("Min") is the highest count.
    return max(proposals) if rules.select_policy == "Min" else min(proposals)


def convert_with_behavior_rate(
    history: ScalingHistory,
    current: int,
    desired: int,
    min_replicas: int,
    max_replicas: int,
    up: HPAScalingRules,
    down: HPAScalingRules,
    now: float,
) -> tuple[int, str]:
    """convertDesiredReplicasWithBehaviorRate: apply the policies of the direction, and [min, max]."""
    if desired > current:
        limit = scale_up_limit_with_rules(current, history.scale_up_events, history.scale_down_events, up, now)
        limit = max(limit, current)
        if max_replicas > limit:
            maximum, limiting = limit, LIMIT_SCALE_UP
        else:
            maximum, limiting = max_replicas, LIMIT_TOO_MANY
        if desired > maximum:
            return maximum, limiting
    elif desired < current:
        limit = scale_down_limit_with_rules(current, history.scale_up_events, history.scale_down_events, down, now)
        limit = min(limit, current)
        if min_replicas < limit:
            minimum, limiting = limit, LIMIT_SCALE_DOWN
        else:
            minimum, limiting = min_replicas, LIMIT_TOO_FEW
        if desired < minimum:
            return minimum, limiting
    return desired, LIMIT_NONE


def _longest_period(rules: HPAScalingRules) -> int:
    return max((policy.period_seconds for policy in rules.policies), default=0)


def store_scale_event(
    history: ScalingHistory, behavior: tuple[HPAScalingRules, HPAScalingRules] | None, old: int, new: int, now: float
) -> None:
    """storeScaleEvent: remember a rescale for the policies' periods (only with a behavior)."""
    if behavior is None:
        return
    up, down = behavior
    if new > old:
        events, period, change = history.scale_up_events, _longest_period(up), new - old
    else:
        events, period, change = history.scale_down_events, _longest_period(down), old - new
    old_index = None
    for index, event in enumerate(events):
        if event.time < now - period:
            event.outdated = True
        if event.outdated:
            old_index = index
    entry = ScaleEvent(change, now)
    if old_index is None:
        events.append(entry)
    else:
        events[old_index] = entry


def normalize(
    history: ScalingHistory,
    spec: HorizontalPodAutoscalerSpec,
    current: int,
    desired: int,
    now: float,
) -> tuple[int, str, int]:
    """normalizeDesiredReplicas / normalizeDesiredReplicasWithBehaviors: stabilize, then limit.
    Returns the count, the limiting reason and the stabilized recommendation."""
    behavior = effective_behavior(spec)
    if behavior is None:
        stabilized = stabilize_recommendation(history, desired, now)
        limited, reason = convert_with_rules(current, stabilized, spec.min_replicas, spec.max_replicas)
        return limited, reason, stabilized
    up, down = behavior
    stabilized = stabilize_with_behavior(
        history, current, desired, up.stabilization_window_seconds or 0, down.stabilization_window_seconds or 0, now
    )
    limited, reason = convert_with_behavior_rate(
        history, current, stabilized, spec.min_replicas, spec.max_replicas, up, down, now
    )
    return limited, reason, stabilized


def stabilized_condition(
    spec: HorizontalPodAutoscalerSpec, current: int, desired: int, stabilized: int
) -> tuple[str, str]:
    """AbleToScale's reason and message after the stabilization: ReadyForNewScale unless the window
    changed the recommendation (which way it went, with a behavior; ScaleDownStabilized without)."""
    if stabilized == desired:
        return READY_FOR_NEW_SCALE
    if effective_behavior(spec) is not None and desired >= current:
        return SCALE_UP_STABILIZED
    return SCALE_DOWN_STABILIZED


def quiet_period(spec: HorizontalPodAutoscalerSpec) -> float:
    """How long an HPA's inputs must stay unchanged before no sync can rescale any more."""
    spans = [CPU_INITIALIZATION_PERIOD_SECONDS, float(DOWNSCALE_STABILIZATION_SECONDS)]
    behavior = effective_behavior(spec)
    if behavior is not None:
        for rules in behavior:
            spans.append(float(rules.stabilization_window_seconds or 0))
            spans.append(float(_longest_period(rules)))
    return max(spans) + 2 * SYNC_PERIOD_SECONDS


# ---------------------------------------------------------------------------- simulated metrics


def workload_key(kind: str, namespace: str, name: str) -> str:
    """The key of ctx.workload_demand: "Kind/namespace/name" of a scale target."""
    return f"{kind}/{namespace}/{name}"


def is_serving(pod: Pod) -> bool:
    """A pod that receives the workload's traffic: Running, Ready and not being deleted."""
    return pod.status.phase == "Running" and pod.status.ready and pod.metadata.deletion_timestamp is None


def cpu_request(pod: Pod) -> int:
    """The pod's CPU request as the HPA reads it (0 when a container has none)."""
    try:
        return pod_requests([pod], CPU)[pod.name]
    except MetricError:
        return 0


def share_demand(demand: float, pods: Sequence[Pod]) -> dict[str, int]:
    """Split a demand (millicores) over the pods in proportion to their CPU requests, in whole
    millicores that add up to the rounded demand (largest remainders, ties by pod name)."""
    total = max(round(demand), 0)
    weights = {pod.name: cpu_request(pod) for pod in pods}
    weight_sum = sum(weights.values())
    if not pods:
        return {}
    if weight_sum == 0:
        weights = dict.fromkeys(weights, 1)
        weight_sum = len(weights)
    exact = {name: total * weight / weight_sum for name, weight in weights.items()}
    shares = {name: math.floor(amount) for name, amount in exact.items()}
    left = total - sum(shares.values())
    for name in sorted(exact, key=lambda n: (shares[n] - exact[n], n))[:left]:
        shares[name] += 1
    return shares


def pod_metrics(pods: Sequence[Pod], resource: str, demand: float, now: float) -> dict[str, PodMetric]:
    """What the resource metrics API returns for these pods (metrics-server reports Running pods)."""
    running = [pod for pod in pods if pod.status.phase == "Running"]
    if not running:
        raise MetricError(ERROR_UNABLE_TO_GET_METRICS.format(resource=resource, error=ERROR_NO_METRICS_RETURNED))
    samples: dict[str, PodMetric] = {}
    if resource == CPU:
        shares = share_demand(demand, [pod for pod in running if is_serving(pod)])
        for pod in running:
            samples[pod.name] = PodMetric(shares.get(pod.name, 0), now)
        return samples
    for pod in running:
        raw = pod.metadata.annotations.get(MEMORY_USAGE_ANNOTATION)
        if raw is None:
            continue
        try:
            samples[pod.name] = PodMetric(value(raw), now)
        except QuantityError:
            continue
    return samples


# ---------------------------------------------------------------------------- the controller


@dataclass(slots=True)
class _Autoscaler:
    uid: str
    history: ScalingHistory = field(default_factory=ScalingHistory)
    token: int = 0
    next_sync: float = 0.0
    idle: bool = False
    firing: bool = False
    first_sync: float | None = None
    last_input: float = 0.0


def _scaled(target: ScaleTarget, replicas: int) -> ScaleTarget:
    """The target with spec.replicas set, as a write through its scale subresource leaves it (one
    branch per kind: each spec is its own dataclass)."""
    generation = target.generation + 1
    if isinstance(target, Deployment):
        return replace(target, spec=replace(target.spec, replicas=replicas), generation=generation)
    if isinstance(target, ReplicaSet):
        return replace(target, spec=replace(target.spec, replicas=replicas), generation=generation)
    return replace(target, spec=replace(target.spec, replicas=replicas), generation=generation)


class HorizontalPodAutoscalerController:
    name = NAME
    watch_kinds = frozenset({"Pod", HPA_KIND, *SCALE_TARGET_KINDS})  # the kinds on_change reacts to

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._autoscalers: dict[str, _Autoscaler] = {}

    # ------------------------------------------------------------------ watching

    def on_change(self, change: Change[StoredObject]) -> None:
        if (pod_change := change.of(Pod)) is not None:
            self._pod_changed(pod_change)
        elif (hpa_change := change.of(HorizontalPodAutoscaler)) is not None:
            self._hpa_changed(hpa_change)
        elif change.kind in SCALE_TARGET_KINDS and self._autoscalers:
            old_spec = getattr(change.old, "spec", None)
            new_spec = getattr(change.new, "spec", None)
            if old_spec != new_spec:
                metadata = change.latest.metadata
                self._wake_targeting(change.kind, metadata.namespace, metadata.name)

    def sync(self) -> bool:
        return False  # every reconcile runs on the 15 s timers

    def _pod_changed(self, change: Change[Pod]) -> None:
        if self._autoscalers:
            namespace = change.latest.metadata.namespace
            for key in self._autoscalers:
                if key.split("/", 1)[0] == namespace:
                    self._wake(key)

    def _hpa_changed(self, change: Change[HorizontalPodAutoscaler]) -> None:
        key = change.key
        if change.type is ChangeType.DELETED:
            self._autoscalers.pop(key, None)  # its pending timer finds nothing and stops
            return
        state = self._autoscalers.get(key)
        hpa = change.latest
        if state is None or state.uid != hpa.metadata.uid:
            state = _Autoscaler(uid=hpa.metadata.uid, last_input=self.ctx.now)
            self._autoscalers[key] = state
            self._arm(key, state, self.ctx.now + SYNC_PERIOD_SECONDS, idle=False)
        elif change.old is not None and change.old.spec != hpa.spec:
            self._wake(key)

    def _wake_targeting(self, kind: str, namespace: str, name: str) -> None:
        for key in list(self._autoscalers):
            hpa = self.ctx.cluster.get(HorizontalPodAutoscaler, key)
            if (
                hpa is not None
                and hpa.metadata.namespace == namespace
                and hpa.spec.target_kind == kind
                and hpa.spec.target_name == name
            ):
                self._wake(key)

    # ------------------------------------------------------------------ timers

    def _arm(self, key: str, state: _Autoscaler, at: float, *, idle: bool) -> None:
        state.token += 1
        token = state.token
        state.next_sync = at
        state.idle = idle
        self.ctx.after(at - self.ctx.now, lambda: self._fire(key, token), label=f"hpa sync {key}", idle=idle)

    def _wake(self, key: str) -> None:
        """An input changed: the HPA may rescale again, so its timer keeps the run going."""
        state = self._autoscalers[key]
        state.last_input = self.ctx.now
        if state.idle and not state.firing:
            self._arm(key, state, state.next_sync, idle=False)

    def _fire(self, key: str, token: int) -> None:
        state = self._autoscalers.get(key)
        if state is None or state.token != token:
            return
        hpa = self.ctx.cluster.get(HorizontalPodAutoscaler, key)
        if hpa is None:
            self._autoscalers.pop(key, None)
            return
        state.firing = True
        try:
            self._reconcile(hpa, state)
        finally:
            state.firing = False
        if state.first_sync is None:
            state.first_sync = self.ctx.now
        quiet = self.ctx.now - max(state.last_input, state.first_sync) >= quiet_period(hpa.spec)
        self._arm(key, state, self.ctx.now + SYNC_PERIOD_SECONDS, idle=quiet)

    # ------------------------------------------------------------------ reconcile

    def _reconcile(self, hpa: HorizontalPodAutoscaler, state: _Autoscaler) -> None:
        spec = hpa.spec
        namespace = hpa.metadata.namespace
        target_class = SCALE_TARGETS.get(spec.target_kind)
        key = f"{namespace}/{spec.target_name}"
        target = self.ctx.cluster.get(target_class, key) if target_class is not None else None
        now = self.ctx.now
        conditions = _Conditions(hpa.status.conditions, now)
        if target is None:
            resource = _RESOURCE_NAMES.get(spec.target_kind, spec.target_kind.lower())
            message = ERROR_SCALE_NOT_FOUND.format(resource=resource, name=spec.target_name)
            record(self.ctx, hpa, REASON_FAILED_GET_SCALE, message, warning=True, source=NAME)
            conditions.set(
                ABLE_TO_SCALE, False, REASON_FAILED_GET_SCALE, FAILED_GET_SCALE_MESSAGE.format(error=message)
            )
            self._write_conditions(hpa, conditions.now)
            return
        conditions.set(ABLE_TO_SCALE, True, *SUCCEEDED_GET_SCALE)
        current = int(target.spec.replicas)
        state.history.record_initial(current, now)

        desired = 0
        reason = ""
        rescale = True
        metrics: tuple[MetricStatus, ...] = ()
        if current == 0 and spec.min_replicas != 0:
            desired, rescale = 0, False  # the target was scaled to zero by hand
            conditions.set(SCALING_ACTIVE, False, *SCALING_DISABLED)
        elif current > spec.max_replicas:
            reason, desired = RESCALE_ABOVE_MAX, spec.max_replicas
        elif current < spec.min_replicas:
            reason, desired = RESCALE_BELOW_MIN, spec.min_replicas
        else:
            pods = self._pods_of(target, namespace)
            demand = self.ctx.workload_demand.get(workload_key(spec.target_kind, namespace, spec.target_name), 0.0)
            proposal, metric_name, metrics, error = self._replicas_for_metrics(hpa, current, pods, demand, conditions)
            if error is not None and proposal == -1:
                # setCurrentReplicasAndMetricsInStatus: desiredReplicas stays what it was.
                self._set_status(hpa, current, hpa.status.desired_replicas, metrics, conditions, rescaled=False)
                record(self.ctx, hpa, REASON_FAILED_COMPUTE_METRICS_REPLICAS, error, warning=True, source=NAME)
                return
            conditions.set(
                SCALING_ACTIVE, True, VALID_METRIC_FOUND[0], VALID_METRIC_FOUND[1].format(metric=metric_name)
            )
            desired = max(desired, proposal)
            if desired > current:
                reason = RESCALE_ABOVE_TARGET.format(metric=metric_name)
            elif desired < current:
                reason = RESCALE_BELOW_TARGET
            prenormalized = desired
            desired, limiting, stabilized = normalize(state.history, spec, current, desired, now)
            conditions.set(ABLE_TO_SCALE, True, *stabilized_condition(spec, current, prenormalized, stabilized))
            conditions.set(SCALING_LIMITED, desired != stabilized, limiting, LIMIT_MESSAGES[limiting])
            rescale = desired != current

        if rescale:
            self.ctx.cluster.update(_scaled(target, desired))
            conditions.set(ABLE_TO_SCALE, True, SUCCEEDED_RESCALE[0], SUCCEEDED_RESCALE[1].format(replicas=desired))
            message = MESSAGE_RESCALE.format(replicas=desired, reason=reason)
            record(self.ctx, hpa, REASON_SUCCESSFUL_RESCALE, message, source=NAME)
            store_scale_event(state.history, effective_behavior(spec), current, desired, now)
            state.last_input = now
        else:
            desired = current
        self._set_status(hpa, current, desired, metrics, conditions, rescaled=rescale)

    def _pods_of(self, target: Any, namespace: str) -> list[Pod]:
        selector = target.spec.selector
        pods = [
            pod
            for pod in self.ctx.cluster.objects(Pod)
            if pod.metadata.namespace == namespace and label_selector_matches(selector, pod.metadata.labels)
        ]
        return sorted(pods, key=lambda pod: pod.name)

    def _ready_transitions(self, pods: Sequence[Pod]) -> dict[str, float]:
        return {pod.name: changed for pod in pods if (changed := ready_changed_at(pod)) is not None}

    def _replicas_for_metrics(
        self,
        hpa: HorizontalPodAutoscaler,
        current: int,
        pods: Sequence[Pod],
        demand: float,
        conditions: "_Conditions",
    ) -> tuple[int, str, tuple[MetricStatus, ...], str | None]:
        """computeReplicasForMetrics: the highest proposal, or -1 and the error when it cannot scale
        (ScalingActive then says why, from the first invalid metric); and each metric's status, an
        empty one for a metric that failed."""
        replicas = 0
        metric_name = ""
        statuses: list[MetricStatus] = []
        invalid = 0
        first_error: str | None = None
        transitions = self._ready_transitions(pods)
        for metric in hpa.spec.metrics:
            try:
                proposal, name, measured = self._replicas_for_metric(metric, current, pods, demand, hpa, transitions)
            except MetricError as error:
                statuses.append(MetricStatus())
                template = ERROR_GET_UTILIZATION if metric.target_type == "Utilization" else ERROR_GET_USAGE
                message = template.format(resource=metric.resource, error=error)
                record(self.ctx, hpa, REASON_FAILED_GET_RESOURCE_METRIC, message, warning=True, source=NAME)
                if first_error is None:
                    first_error = ERROR_METRIC_VALUE.format(resource=metric.resource, error=message)
                    unable = UNABLE_TO_COMPUTE_MESSAGE.format(error=message)
                invalid += 1
                continue
            statuses.append(measured)
            if replicas == 0 or proposal > replicas:
                replicas, metric_name = proposal, name
        failure = None
        if first_error is not None:
            failure = ERROR_INVALID_METRICS.format(invalid=invalid, total=len(hpa.spec.metrics), error=first_error)
        if invalid >= len(hpa.spec.metrics) or (invalid > 0 and replicas < current):
            if first_error is not None:
                conditions.set(SCALING_ACTIVE, False, REASON_FAILED_GET_RESOURCE_METRIC, unable)
            return -1, "", tuple(statuses), failure
        return replicas, metric_name, tuple(statuses), failure

    def _replicas_for_metric(
        self,
        metric: MetricTarget,
        current: int,
        pods: Sequence[Pod],
        demand: float,
        hpa: HorizontalPodAutoscaler,
        transitions: Mapping[str, float],
    ) -> tuple[int, str, MetricStatus]:
        """computeStatusForResourceMetricGeneric: the proposal, the metric's name in messages, and
        its status (the average usage; and the utilization, for a Utilization target)."""
        now = self.ctx.now
        tolerances = tolerances_of(hpa.spec)
        samples = pod_metrics(pods, metric.resource, demand, now)
        if metric.target_type == "AverageValue" and metric.average_value is not None:
            replicas, usage = replicas_for_average_value(
                current, metric.average_value, metric.resource, tolerances, pods, samples, now, transitions
            )
            measured = MetricStatus(metric.resource, average_value=usage)
            return replicas, METRIC_NAME_VALUE.format(resource=metric.resource), measured
        target = metric.average_utilization or 0
        replicas, percent, raw = replicas_for_utilization(
            current, target, metric.resource, tolerances, pods, samples, now, transitions
        )
        measured = MetricStatus(metric.resource, average_value=raw, average_utilization=percent)
        return replicas, METRIC_NAME_UTILIZATION.format(resource=metric.resource), measured

    def _set_status(
        self,
        hpa: HorizontalPodAutoscaler,
        current: int,
        desired: int,
        metrics: tuple[MetricStatus, ...],
        conditions: "_Conditions",
        *,
        rescaled: bool,
    ) -> None:
        """setStatus, then updateStatusIfNeeded (the store skips an equal write)."""
        stored = self.ctx.cluster.get(HorizontalPodAutoscaler, hpa.metadata.key)
        if stored is None:
            return
        status = HorizontalPodAutoscalerStatus(
            current_replicas=current,
            desired_replicas=desired,
            current_metrics=metrics,
            last_scale_time=self.ctx.now if rescaled else stored.status.last_scale_time,
            conditions=conditions.now,
        )
        self.ctx.cluster.update(replace(stored, status=status))

    def _write_conditions(self, hpa: HorizontalPodAutoscaler, conditions: tuple[Condition, ...]) -> None:
        """updateStatusIfNeeded after a failure that leaves the rest of the status as it was."""
        stored = self.ctx.cluster.get(HorizontalPodAutoscaler, hpa.metadata.key)
        if stored is not None and stored.status.conditions != conditions:
            self.ctx.cluster.update(replace(stored, status=replace(stored.status, conditions=conditions)))

    # ------------------------------------------------------------------ the set-utilization op

    def handle_action(self, action: Action) -> None:
        if action.op != "set-utilization" or action.target is None:
            raise ActionError(f"{action.op} is not an autoscaler operation")
        target = action.target
        kind, namespace, name = target.kind, target.namespace, target.name
        if kind == HPA_KIND:
            hpa = self.ctx.cluster.get(HorizontalPodAutoscaler, target.key)
            if hpa is None:
                raise ActionError(f"{target} not found")
            kind, name = hpa.spec.target_kind, hpa.spec.target_name
        workload = self.ctx.cluster.get(kind, f"{namespace}/{name}")
        if workload is None:
            raise ActionError(f"{kind}/{namespace}/{name} not found")
        if not isinstance(workload, ScaleTarget):
            raise ActionError(
                f"{kind}/{namespace}/{name} is not a scalable workload (Deployment, ReplicaSet, StatefulSet)"
            )
        percent = int(action.args["cpu"])
        requested = self._requested_cpu(workload, namespace)
        key, demand = workload_key(kind, namespace, name), percent * requested / 100
        self.ctx.workload_demand[key] = demand
        self.ctx.demand_log.append((self.ctx.now, key, demand))
        self._wake_targeting(kind, namespace, name)

    def _requested_cpu(self, workload: ScaleTarget, namespace: str) -> int:
        """The CPU requests a utilization is a percentage of: the Ready pods', else the active pods',
        else the template's times spec.replicas."""
        pods = self._pods_of(workload, namespace)
        serving = [pod for pod in pods if is_serving(pod)]
        active = [pod for pod in pods if not is_pod_terminal(pod) and pod.metadata.deletion_timestamp is None]
        chosen = serving or active
        if chosen:
            return sum(cpu_request(pod) for pod in chosen)
        template = Pod(metadata=ObjectMeta(f"{workload.metadata.name}-template"), spec=workload.spec.template.spec)
        return cpu_request(template) * int(workload.spec.replicas)

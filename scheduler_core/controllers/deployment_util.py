"""The Deployment controller's helpers: pkg/controller/deployment/util/deployment_util.go and the
ReplicaSet orderings of pkg/controller/controller_utils.go, over this engine's objects.

Pure functions: no store access, no events. Timestamps compare at the API's one-second precision.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

from scheduler_core.api import conditions as api_conditions
from scheduler_core.api.types import Condition, IntOrString, LabelSelector
from scheduler_core.api.workloads import Deployment, DeploymentStatus, PodTemplateSpec, ReplicaSet
from scheduler_core.controllers.pod_deletion import api_seconds

# Annotations and labels (k8s.io/api/apps/v1, deployment_util.go).
REVISION_ANNOTATION = "deployment.kubernetes.io/revision"
REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history"
DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas"
MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas"
ROLLBACK_TO_ANNOTATION = "deprecated.deployment.rollback.to"  # apps.DeprecatedRollbackTo
LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"
POD_TEMPLATE_HASH_LABEL = "pod-template-hash"  # apps.DefaultDeploymentUniqueLabelKey
MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000
MAX_INT32 = 2**31 - 1
ANNOTATIONS_TO_SKIP = frozenset(
    {
        LAST_APPLIED_ANNOTATION,
        REVISION_ANNOTATION,
        REVISION_HISTORY_ANNOTATION,
        DESIRED_REPLICAS_ANNOTATION,
        MAX_REPLICAS_ANNOTATION,
        ROLLBACK_TO_ANNOTATION,
    }
)

# Event reasons.
SCALING_REPLICA_SET_REASON = "ScalingReplicaSet"
ROLLBACK_REVISION_NOT_FOUND = "DeploymentRollbackRevisionNotFound"
ROLLBACK_TEMPLATE_UNCHANGED = "DeploymentRollbackTemplateUnchanged"
ROLLBACK_DONE = "DeploymentRollback"
SELECTING_ALL_REASON = "SelectingAll"

# Condition types and reasons.
PROGRESSING = "Progressing"
AVAILABLE = "Available"
REPLICA_FAILURE = api_conditions.REPLICA_FAILURE
REPLICA_SET_UPDATED_REASON = "ReplicaSetUpdated"
FAILED_RS_CREATE_REASON = "ReplicaSetCreateError"
NEW_REPLICA_SET_REASON = "NewReplicaSetCreated"
FOUND_NEW_RS_REASON = "FoundNewReplicaSet"
NEW_RS_AVAILABLE_REASON = "NewReplicaSetAvailable"
TIMED_OUT_REASON = "ProgressDeadlineExceeded"
PAUSED_DEPLOY_REASON = "DeploymentPaused"
RESUMED_DEPLOY_REASON = "DeploymentResumed"
MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable"
MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable"


def go_quote(text: str) -> str:
    """%q of a Go string (object names need no escapes beyond these)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------- conditions


Conditions = dict[str, Condition]  # by type, in the order status.conditions lists them


def new_condition(kind: str, status: str, reason: str, message: str, now: float) -> Condition:
    return Condition(kind, status, reason, message, last_transition_time=now, last_update_time=now)


def updated_at(condition: Condition) -> float:
    """lastUpdateTime: every condition the controller writes has one."""
    return condition.last_update_time if condition.last_update_time is not None else 0.0


def set_condition(conditions: Conditions, condition: Condition) -> None:
    """SetDeploymentCondition: same status and reason is no change; same status keeps the transition time."""
    current = conditions.get(condition.type)
    if current is not None and current.status == condition.status and current.reason == condition.reason:
        return
    if current is not None and current.status == condition.status:
        condition = replace(condition, last_transition_time=current.last_transition_time)
    conditions.pop(condition.type, None)
    conditions[condition.type] = condition


# ---------------------------------------------------------------------------- rolling parameters


def is_rolling_update(d: Deployment) -> bool:
    return d.spec.strategy_type == "RollingUpdate"


def scaled_value(value: IntOrString, total: int, round_up: bool) -> int:
    """intstr.GetScaledValueFromIntOrPercent: a number, or a percentage of total rounded up or down."""
    if isinstance(value, int):
        return value
    text = value.strip()
    if text.endswith("%"):
        percent = int(text[:-1])
        scaled = percent * total
        return -(-scaled // 100) if round_up else scaled // 100
    return int(text)


def resolve_fenceposts(max_surge: IntOrString, max_unavailable: IntOrString, desired: int) -> tuple[int, int]:
    """ResolveFenceposts: surge rounds up, unavailability down; both zero makes unavailability 1."""
    surge = scaled_value(max_surge, desired, True)
    unavailable = scaled_value(max_unavailable, desired, False)
    if surge == 0 and unavailable == 0:
        unavailable = 1
    return surge, unavailable


def max_unavailable(d: Deployment) -> int:
    if not is_rolling_update(d) or d.spec.replicas == 0:
        return 0
    rolling = d.spec.rolling_update
    _, unavailable = resolve_fenceposts(rolling.max_surge, rolling.max_unavailable, d.spec.replicas)
    return min(unavailable, d.spec.replicas)


def max_surge(d: Deployment) -> int:
    if not is_rolling_update(d):
        return 0
    rolling = d.spec.rolling_update
    surge, _ = resolve_fenceposts(rolling.max_surge, rolling.max_unavailable, d.spec.replicas)
    return surge


def has_progress_deadline(d: Deployment) -> bool:
    return d.spec.progress_deadline_seconds != MAX_INT32


def has_revision_history_limit(d: Deployment) -> bool:
    return d.spec.revision_history_limit != MAX_INT32


# ---------------------------------------------------------------------------- revisions and annotations


def revision(rs: ReplicaSet) -> int | None:
    """Revision: 0 without the annotation, None when it does not parse."""
    value = rs.metadata.annotations.get(REVISION_ANNOTATION)
    if value is None:
        return 0
    try:
        return int(value)
    except ValueError:
        return None


def max_revision(rss: Iterable[ReplicaSet]) -> int:
    return max((v for rs in rss if (v := revision(rs)) is not None), default=0)


def last_revision(rss: Iterable[ReplicaSet]) -> int:
    """LastRevision: the second highest revision."""
    highest = second = 0
    for rs in rss:
        v = revision(rs)
        if v is None:
            continue
        if v >= highest:
            second, highest = highest, v
        elif v > second:
            second = v
    return second


def copy_deployment_annotations(d: Deployment, annotations: dict[str, str]) -> bool:
    """copyDeploymentAnnotationsToReplicaSet: every annotation but the skipped ones."""
    changed = False
    for key, value in d.metadata.annotations.items():
        if key in ANNOTATIONS_TO_SKIP or annotations.get(key) == value:
            continue
        annotations[key] = value
        changed = True
    return changed


def set_replicas_annotations(annotations: dict[str, str], desired: int, maximum: int) -> bool:
    changed = False
    for key, value in ((DESIRED_REPLICAS_ANNOTATION, str(desired)), (MAX_REPLICAS_ANNOTATION, str(maximum))):
        if annotations.get(key) != value:
            annotations[key] = value
            changed = True
    return changed


def replicas_annotations_need_update(rs: ReplicaSet, desired: int, maximum: int) -> bool:
    annotations = rs.metadata.annotations
    return annotations.get(DESIRED_REPLICAS_ANNOTATION) != str(desired) or annotations.get(
        MAX_REPLICAS_ANNOTATION
    ) != str(maximum)


def set_new_replica_set_annotations(
    d: Deployment, annotations: dict[str, str], new_revision: str, exists: bool, history_limit: int
) -> bool:
    """SetNewReplicaSetAnnotations: copy the deployment's annotations, raise the revision (keeping the old
    one in revision-history when an old ReplicaSet comes back), and on creation the replica annotations."""
    changed = copy_deployment_annotations(d, annotations)
    old_revision = annotations.get(REVISION_ANNOTATION)
    had_revision = old_revision is not None
    if old_revision:
        try:
            old_value = int(old_revision)
        except ValueError:
            return False
    else:
        old_value = 0
    new_value = int(new_revision)
    if old_value < new_value:
        annotations[REVISION_ANNOTATION] = new_revision
        changed = True
    if had_revision and old_value < new_value and old_revision is not None:
        history = annotations.get(REVISION_HISTORY_ANNOTATION, "")
        old_revisions = history.split(",")
        if not old_revisions[0]:
            annotations[REVISION_HISTORY_ANNOTATION] = old_revision
        else:
            total = len(history) + len(old_revision) + 1
            start = 0
            while total > history_limit and start < len(old_revisions):
                total -= len(old_revisions[start]) + 1
                start += 1
            if total <= history_limit:
                annotations[REVISION_HISTORY_ANNOTATION] = ",".join([*old_revisions[start:], old_revision])
    if not exists and set_replicas_annotations(annotations, d.spec.replicas, d.spec.replicas + max_surge(d)):
        changed = True
    return changed


def deployment_annotations_from(d: Deployment, rs: ReplicaSet) -> dict[str, str]:
    """SetDeploymentAnnotationsTo: keep the deployment's skipped annotations, take the rest from the ReplicaSet."""
    annotations = {k: v for k, v in d.metadata.annotations.items() if k in ANNOTATIONS_TO_SKIP}
    annotations.update({k: v for k, v in rs.metadata.annotations.items() if k not in ANNOTATIONS_TO_SKIP})
    return annotations


# ---------------------------------------------------------------------------- templates


def without_hash(template: PodTemplateSpec) -> PodTemplateSpec:
    labels = {k: v for k, v in template.labels.items() if k != POD_TEMPLATE_HASH_LABEL}
    return replace(template, labels=labels)


def equal_ignore_hash(a: PodTemplateSpec, b: PodTemplateSpec) -> bool:
    """EqualIgnoreHash: the templates are equal but for the pod-template-hash label."""
    if a.spec != b.spec or a.annotations != b.annotations:
        return False
    ignored = POD_TEMPLATE_HASH_LABEL
    return {k: v for k, v in a.labels.items() if k != ignored} == {k: v for k, v in b.labels.items() if k != ignored}


def selector_with_hash(selector: LabelSelector, hash_value: str) -> LabelSelector:
    return replace(selector, match_labels={**selector.match_labels, POD_TEMPLATE_HASH_LABEL: hash_value})


# ---------------------------------------------------------------------------- ReplicaSet sets


def creation_key(rs: ReplicaSet) -> tuple[int, str]:
    """ReplicaSetsByCreationTimestamp: oldest first, then by name."""
    return api_seconds(rs.metadata.creation_timestamp), rs.metadata.name


def by_creation(rss: Iterable[ReplicaSet]) -> list[ReplicaSet]:
    return sorted(rss, key=creation_key)


def by_revision(rss: Iterable[ReplicaSet]) -> list[ReplicaSet]:
    """ReplicaSetsByRevision: lowest revision first; unparsable or equal revisions by creation."""
    items = list(rss)

    def key(rs: ReplicaSet) -> tuple[int, int, str]:
        v = revision(rs)
        stamp, name = creation_key(rs)
        return (v if v is not None else -1, stamp, name)

    return sorted(items, key=key)


def newest_first(rss: Iterable[ReplicaSet]) -> list[ReplicaSet]:
    return sorted(rss, key=creation_key, reverse=True)


def by_size_newer(rss: Iterable[ReplicaSet]) -> list[ReplicaSet]:
    """ReplicaSetsBySizeNewer: larger first; same size newer first."""
    ordered = newest_first(rss)
    ordered.sort(key=lambda rs: -rs.spec.replicas)
    return ordered


def by_size_older(rss: Iterable[ReplicaSet]) -> list[ReplicaSet]:
    """ReplicaSetsBySizeOlder: larger first; same size older first."""
    ordered = by_creation(rss)
    ordered.sort(key=lambda rs: -rs.spec.replicas)
    return ordered


def active(rss: Iterable[ReplicaSet | None]) -> list[ReplicaSet]:
    """FilterActiveReplicaSets: the ones with replicas wanted."""
    return [rs for rs in rss if rs is not None and rs.spec.replicas > 0]


def replica_count(rss: Iterable[ReplicaSet | None]) -> int:
    return sum(rs.spec.replicas for rs in rss if rs is not None)


def actual_replica_count(rss: Iterable[ReplicaSet | None]) -> int:
    return sum(rs.status.replicas for rs in rss if rs is not None)


def ready_replica_count(rss: Iterable[ReplicaSet | None]) -> int:
    return sum(rs.status.ready_replicas for rs in rss if rs is not None)


def available_replica_count(rss: Iterable[ReplicaSet | None]) -> int:
    return sum(rs.status.available_replicas for rs in rss if rs is not None)


def find_new_replica_set(d: Deployment, rss: Iterable[ReplicaSet]) -> ReplicaSet | None:
    """FindNewReplicaSet: the oldest ReplicaSet whose template is the deployment's."""
    return next((rs for rs in by_creation(rss) if equal_ignore_hash(rs.spec.template, d.spec.template)), None)


def find_old_replica_sets(d: Deployment, rss: list[ReplicaSet]) -> list[ReplicaSet]:
    """FindOldReplicaSets (all of them, with or without pods)."""
    new = find_new_replica_set(d, rss)
    return [rs for rs in rss if new is None or rs.metadata.uid != new.metadata.uid]


def find_active_or_latest(new: ReplicaSet | None, old: list[ReplicaSet]) -> ReplicaSet | None:
    """FindActiveOrLatest: the only active ReplicaSet, or the newest when none is active; None when several are."""
    if new is None and not old:
        return None
    old_newest_first = newest_first(old)
    live = active([*old_newest_first, new])
    if not live:
        return new if new is not None else old_newest_first[0]
    return live[0] if len(live) == 1 else None


def desired_replicas_annotation(rs: ReplicaSet) -> int | None:
    return _int_annotation(rs, DESIRED_REPLICAS_ANNOTATION)


def _int_annotation(rs: ReplicaSet, key: str) -> int | None:
    value = rs.metadata.annotations.get(key)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def is_saturated(d: Deployment, rs: ReplicaSet | None) -> bool:
    """IsSaturated: the new ReplicaSet owns all the desired replicas and all of them are available."""
    if rs is None:
        return False
    desired = desired_replicas_annotation(rs)
    if desired is None:
        return False
    return (
        rs.spec.replicas == d.spec.replicas
        and desired == d.spec.replicas
        and rs.status.available_replicas == d.spec.replicas
    )


def new_rs_new_replicas(d: Deployment, all_rss: list[ReplicaSet | None], new: ReplicaSet) -> int:
    """NewRSNewReplicas: how far the new ReplicaSet may grow now."""
    if d.spec.strategy_type == "Recreate":
        return d.spec.replicas
    surge = scaled_value(d.spec.rolling_update.max_surge, d.spec.replicas, True)
    current = replica_count(all_rss)
    max_total = d.spec.replicas + surge
    if current >= max_total:
        return new.spec.replicas
    scale_up = min(max_total - current, d.spec.replicas - new.spec.replicas)
    return new.spec.replicas + scale_up


def round_half_away(value: float) -> int:
    """math.Round: halves away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def replica_set_fraction(rs: ReplicaSet, d: Deployment) -> int:
    """getReplicaSetFraction: this ReplicaSet's share of a scaling event."""
    if d.spec.replicas == 0:
        return -rs.spec.replicas
    deployment_replicas = d.spec.replicas + max_surge(d)
    annotated = _int_annotation(rs, MAX_REPLICAS_ANNOTATION)
    if annotated is None:
        annotated = d.status.replicas
    if annotated == 0:
        return 0  # upstream divides by zero here; a share of nothing is nothing
    return round_half_away(rs.spec.replicas * deployment_replicas / annotated) - rs.spec.replicas


def proportion(rs: ReplicaSet | None, d: Deployment, to_add: int, added: int) -> int:
    """GetProportion: the replicas to add to (or remove from) this ReplicaSet, within what is left."""
    if rs is None or rs.spec.replicas == 0 or to_add == 0 or to_add == added:
        return 0
    fraction = replica_set_fraction(rs, d)
    allowed = to_add - added
    return min(fraction, allowed) if to_add > 0 else max(fraction, allowed)


def deployment_complete(d: Deployment, status: DeploymentStatus) -> bool:
    return (
        status.updated_replicas == d.spec.replicas
        and status.replicas == d.spec.replicas
        and status.available_replicas == d.spec.replicas
        and status.observed_generation >= d.generation
    )


def deployment_progressing(d: Deployment, status: DeploymentStatus) -> bool:
    old = d.status
    return (
        status.updated_replicas > old.updated_replicas
        or (status.replicas - status.updated_replicas) < (old.replicas - old.updated_replicas)
        or status.ready_replicas > old.ready_replicas
        or status.available_replicas > old.available_replicas
    )


def deployment_timed_out(d: Deployment, conditions: Mapping[str, Condition], now: float) -> bool:
    if not has_progress_deadline(d):
        return False
    condition = conditions.get(PROGRESSING)
    if condition is None or condition.reason == NEW_RS_AVAILABLE_REASON:
        return False
    if condition.reason == TIMED_OUT_REASON:
        return True
    return updated_at(condition) + d.spec.progress_deadline_seconds < now


def controller_uid_is(rs: ReplicaSet, uid: str) -> bool:
    ref = rs.metadata.controller_ref()
    return ref is not None and ref.uid == uid


def rollback_to(d: Deployment) -> int | None:
    """getRollbackTo: the revision a rollback was asked for (0: the previous one), from the deprecated annotation."""
    value = d.metadata.annotations.get(ROLLBACK_TO_ANNOTATION)
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        return None

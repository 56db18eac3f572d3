"""RollingUpdate (pkg/controller/deployment/rolling.go): grow the new ReplicaSet while the total stays within
replicas + maxSurge, shrink the old ones while availability stays at replicas - maxUnavailable or more.
"""

from typing import TYPE_CHECKING

from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.controllers import deployment_util as util
from scheduler_core.controllers.deployment_progress import sync_rollout_status
from scheduler_core.controllers.deployment_sync import (
    cleanup_deployment,
    get_all_replica_sets_and_sync_revision,
    scale_replica_set_and_record_event,
)

if TYPE_CHECKING:
    from scheduler_core.controllers.deployment import DeploymentController


def rollout_rolling(dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet]) -> str | None:
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, True)
    if error is not None or new is None:
        return error
    all_rss: list[ReplicaSet | None] = [*old, new]
    scaled_up, new = reconcile_new_replica_set(dc, all_rss, new, d)
    if scaled_up:
        sync_rollout_status(dc, [*old, new], new, d)
        return None
    if reconcile_old_replica_sets(dc, [*old, new], util.active(old), new, d):
        sync_rollout_status(dc, [*old, new], new, d)
        return None
    if util.deployment_complete(d, d.status):
        cleanup_deployment(dc, old, d)
    sync_rollout_status(dc, [*old, new], new, d)
    return None


def reconcile_new_replica_set(
    dc: "DeploymentController", all_rss: list[ReplicaSet | None], new: ReplicaSet, d: Deployment
) -> tuple[bool, ReplicaSet]:
    if new.spec.replicas == d.spec.replicas:
        return False, new
    if new.spec.replicas > d.spec.replicas:
        return scale_replica_set_and_record_event(dc, new, d.spec.replicas, d)
    count = util.new_rs_new_replicas(d, all_rss, new)
    return scale_replica_set_and_record_event(dc, new, count, d)


def reconcile_old_replica_sets(
    dc: "DeploymentController",
    all_rss: list[ReplicaSet | None],
    old: list[ReplicaSet],
    new: ReplicaSet,
    d: Deployment,
) -> bool:
    """Scale old ReplicaSets down as far as availability allows: first their unhealthy replicas, then the rest.

    maxScaledDown = all pods - minAvailable - unavailable pods of the new ReplicaSet, so that new pods
    that never become available do not let the old ones shrink (a stuck rollout keeps its old pods)."""
    if util.replica_count(old) == 0:
        return False
    all_pods = util.replica_count(all_rss)
    min_available = d.spec.replicas - util.max_unavailable(d)
    new_unavailable = new.spec.replicas - new.status.available_replicas
    max_scaled_down = all_pods - min_available - new_unavailable
    if max_scaled_down <= 0:
        return False
    old, cleaned = cleanup_unhealthy_replicas(dc, old, d, max_scaled_down)
    scaled_down = scale_down_old_replica_sets_for_rolling_update(dc, [*old, new], old, d)
    return cleaned + scaled_down > 0


def cleanup_unhealthy_replicas(
    dc: "DeploymentController", old: list[ReplicaSet], d: Deployment, max_cleanup: int
) -> tuple[list[ReplicaSet], int]:
    """Scale old ReplicaSets down by their unavailable replicas (oldest first), which costs no availability."""
    old = util.by_creation(old)
    total = 0
    for index, rs in enumerate(old):
        if total >= max_cleanup:
            break
        if rs.spec.replicas == 0 or rs.spec.replicas == rs.status.available_replicas:
            continue
        count = min(max_cleanup - total, rs.spec.replicas - rs.status.available_replicas)
        _, old[index] = scale_replica_set_and_record_event(dc, rs, rs.spec.replicas - count, d)
        total += count
    return old, total


def scale_down_old_replica_sets_for_rolling_update(
    dc: "DeploymentController", all_rss: list[ReplicaSet | None], old: list[ReplicaSet], d: Deployment
) -> int:
    """Scale old ReplicaSets down (oldest first) by the available pods above replicas - maxUnavailable."""
    min_available = d.spec.replicas - util.max_unavailable(d)
    available = util.available_replica_count(all_rss)
    if available <= min_available:
        return 0
    goal = available - min_available
    total = 0
    for rs in util.by_creation(old):
        if total >= goal:
            break
        if rs.spec.replicas == 0:
            continue
        count = min(rs.spec.replicas, goal - total)
        scale_replica_set_and_record_event(dc, rs, rs.spec.replicas - count, d)
        total += count
    return total

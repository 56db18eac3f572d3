"""Recreate (pkg/controller/deployment/recreate.go): scale every old ReplicaSet to zero, wait until none of
their pods is left (terminating ones included), then create and scale up the new ReplicaSet.
"""

from typing import TYPE_CHECKING

from scheduler_core.api.pod_conditions import is_pod_terminal
from scheduler_core.api.types import Pod
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


def rollout_recreate(
    dc: "DeploymentController", d: Deployment, rs_list: list[ReplicaSet], pod_map: dict[str, list[Pod]]
) -> str | None:
    # The new ReplicaSet is not created yet, so that nothing scales up before the old ones are down.
    d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, rs_list, False)
    if error is not None:
        return error
    if scale_down_old_replica_sets_for_recreate(dc, util.active(old), d):
        sync_rollout_status(dc, [*old, new], new, d)
        return None
    if old_pods_running(new, [rs for rs in (dc.fresh(rs) for rs in old) if rs is not None], pod_map):
        sync_rollout_status(dc, [*old, new], new, d)
        return None
    if new is None:
        d, new, old, error = get_all_replica_sets_and_sync_revision(dc, d, dc.replica_sets(d), True)
        if error is not None or new is None:
            return error
    scale_replica_set_and_record_event(dc, new, d.spec.replicas, d)
    if util.deployment_complete(d, d.status):
        cleanup_deployment(dc, old, d)
    sync_rollout_status(dc, [*old, new], new, d)
    return None


def scale_down_old_replica_sets_for_recreate(dc: "DeploymentController", old: list[ReplicaSet], d: Deployment) -> bool:
    scaled = False
    for rs in old:
        if rs.spec.replicas == 0:
            continue
        changed, _ = scale_replica_set_and_record_event(dc, rs, 0, d)
        scaled = scaled or changed
    return scaled


def old_pods_running(new: ReplicaSet | None, old: list[ReplicaSet], pod_map: dict[str, list[Pod]]) -> bool:
    """Whether an old ReplicaSet still counts pods, or any pod not of the new one is not finished."""
    if util.actual_replica_count(old) > 0:
        return True
    for rs_uid, pods in pod_map.items():
        if new is not None and rs_uid == new.metadata.uid:
            continue
        if any(not is_pod_terminal(pod) for pod in pods):
            return True
    return False

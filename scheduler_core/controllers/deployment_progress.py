"""A rollout's status and its Progressing condition (pkg/controller/deployment/progress.go).

Progress is judged against spec.progressDeadlineSeconds: a rollout that makes no progress for that
long gets Progressing=False, ProgressDeadlineExceeded (a condition, not an event; the rollout goes on).
"""

from dataclasses import replace
from typing import TYPE_CHECKING

from scheduler_core.api.conditions import condition_of_type
from scheduler_core.api.types import Condition
from scheduler_core.api.workloads import Deployment, DeploymentStatus, ReplicaSet
from scheduler_core.controllers import deployment_util as util
from scheduler_core.controllers.deployment_sync import calculate_status, refreshed, with_conditions, write_status
from scheduler_core.controllers.deployment_util import PROGRESSING, REPLICA_FAILURE, go_quote, new_condition

if TYPE_CHECKING:
    from scheduler_core.controllers.deployment import DeploymentController

RS_PROGRESSED_MESSAGE = "ReplicaSet {} has successfully progressed."
DEPLOYMENT_PROGRESSED_MESSAGE = "Deployment {} has successfully progressed."
RS_PROGRESSING_MESSAGE = "ReplicaSet {} is progressing."
DEPLOYMENT_PROGRESSING_MESSAGE = "Deployment {} is progressing."
RS_TIMED_OUT_MESSAGE = "ReplicaSet {} has timed out progressing."
DEPLOYMENT_TIMED_OUT_MESSAGE = "Deployment {} has timed out progressing."


def _about(new: ReplicaSet | None, d: Deployment, for_rs: str, for_deployment: str) -> str:
    if new is not None:
        return for_rs.format(go_quote(new.metadata.name))
    return for_deployment.format(go_quote(d.metadata.name))


def replica_failure(all_rss: list[ReplicaSet | None], new: ReplicaSet | None) -> Condition | None:
    """getReplicaFailures: the new ReplicaSet's ReplicaFailure, else the first old one's, as a
    Deployment condition (ReplicaSetToDeploymentCondition: updated when it last transitioned)."""
    for rs in (new, *all_rss):
        if rs is None:
            continue
        failure = condition_of_type(rs.status.conditions, REPLICA_FAILURE)
        if failure is not None:
            return replace(failure, last_update_time=failure.last_transition_time)
    return None


def sync_rollout_status(
    dc: "DeploymentController", all_rss: list[ReplicaSet | None], new: ReplicaSet | None, d: Deployment
) -> None:
    """syncRolloutStatus: the status, with the Progressing condition brought up to date."""
    all_rss, new = refreshed(dc, all_rss), dc.fresh(new)
    status, conditions = calculate_status(dc, all_rss, new, d)
    if not util.has_progress_deadline(d):
        conditions.pop(PROGRESSING, None)
    now = dc.ctx.now
    current = dc.conditions(d).get(PROGRESSING)
    complete = (
        status.replicas == status.updated_replicas
        and current is not None
        and current.reason == util.NEW_RS_AVAILABLE_REASON
    )
    if util.has_progress_deadline(d) and not complete:
        if util.deployment_complete(d, status):
            message = _about(new, d, RS_PROGRESSED_MESSAGE, DEPLOYMENT_PROGRESSED_MESSAGE)
            condition = new_condition(PROGRESSING, "True", util.NEW_RS_AVAILABLE_REASON, message, now)
            util.set_condition(conditions, condition)
        elif util.deployment_progressing(d, status):
            message = _about(new, d, RS_PROGRESSING_MESSAGE, DEPLOYMENT_PROGRESSING_MESSAGE)
            condition = new_condition(PROGRESSING, "True", util.REPLICA_SET_UPDATED_REASON, message, now)
            if current is not None:
                if current.status == "True":
                    condition = replace(condition, last_transition_time=current.last_transition_time)
                conditions.pop(PROGRESSING, None)
            util.set_condition(conditions, condition)
        elif util.deployment_timed_out(d, conditions, now):
            message = _about(new, d, RS_TIMED_OUT_MESSAGE, DEPLOYMENT_TIMED_OUT_MESSAGE)
            condition = new_condition(PROGRESSING, "False", util.TIMED_OUT_REASON, message, now)
            util.set_condition(conditions, condition)
    # A ReplicaSet's failure to create or delete pods shows on the Deployment, the new one's first.
    failure = replica_failure(all_rss, new)
    if failure is not None:
        util.set_condition(conditions, failure)
    else:
        conditions.pop(REPLICA_FAILURE, None)
    if with_conditions(status, conditions) == d.status and conditions == dc.conditions(d):
        requeue_stuck_deployment(dc, d, status)
        return
    write_status(dc, d, status, conditions)


def requeue_stuck_deployment(dc: "DeploymentController", d: Deployment, status: DeploymentStatus) -> None:
    """Come back when the progress deadline passes, to report a rollout that stopped moving."""
    current = dc.conditions(d).get(PROGRESSING)
    if not util.has_progress_deadline(d) or current is None:
        return
    if util.deployment_complete(d, status) or current.reason == util.TIMED_OUT_REASON:
        return
    after = util.updated_at(current) + d.spec.progress_deadline_seconds - dc.ctx.now
    if after < 1.0:
        dc.requeue.rate_limited(d.metadata.key)
        return
    # A second more against clock skew, as upstream. Idle, yet work left while the rollout is still
    # stuck: the status will say Progressing=False, ProgressDeadlineExceeded, and a run goes on
    # until it does; a rollout that completes meanwhile leaves nothing for it to do.
    dc.requeue.after(d.metadata.key, after + 1.0, idle=True, needed=lambda: _still_stuck(dc, d))


def _still_stuck(dc: "DeploymentController", d: Deployment) -> bool:
    current: Deployment | None = dc.ctx.cluster.get(Deployment, d.metadata.key)
    if current is None or current.metadata.uid != d.metadata.uid or current.spec.paused:
        return False
    condition = dc.conditions(current).get(PROGRESSING)
    if condition is None or condition.reason in (util.NEW_RS_AVAILABLE_REASON, util.TIMED_OUT_REASON):
        return False
    return not util.deployment_complete(current, current.status)

"""Workload status conditions as their controllers set them: apimeta.SetStatusCondition's rule
(the transition time moves only when the status does), a PodDisruptionBudget's DisruptionAllowed
condition (pdbhelper.UpdateDisruptionAllowedCondition), and the ReplicaFailure condition's name."""

from dataclasses import replace

from scheduler_core.api.types import Condition, PodDisruptionBudgetStatus

DISRUPTION_ALLOWED = "DisruptionAllowed"
SUFFICIENT_PODS = "SufficientPods"
INSUFFICIENT_PODS = "InsufficientPods"
SYNC_FAILED = "SyncFailed"
# A ReplicaSet that could not create or delete its pods, and its Deployment (ReplicaSetReplicaFailure).
REPLICA_FAILURE = "ReplicaFailure"


def condition_of_type(conditions: tuple[Condition, ...], condition_type: str) -> Condition | None:
    return next((condition for condition in conditions if condition.type == condition_type), None)


def set_condition(
    conditions: tuple[Condition, ...],
    condition_type: str,
    status: str,
    reason: str,
    message: str,
    now: float,
    observed_generation: int | None = None,
) -> tuple[Condition, ...]:
    """SetStatusCondition: the conditions with that one set in place (or added last); its
    lastTransitionTime moves only when its status changes. The same tuple when nothing changes.
    `observed_generation` is a metav1.Condition's (a PodDisruptionBudget's); other kinds have none."""
    for index, old in enumerate(conditions):
        if old.type != condition_type:
            continue
        if (old.status, old.reason, old.message, old.observed_generation) == (
            status,
            reason,
            message,
            observed_generation,
        ):
            return conditions
        since = old.last_transition_time if old.status == status else now
        new = Condition(condition_type, status, reason, message, since, observed_generation=observed_generation)
        return (*conditions[:index], new, *conditions[index + 1 :])
    return (
        *conditions,
        Condition(condition_type, status, reason, message, now, observed_generation=observed_generation),
    )


def with_disruption_allowed(
    status: PodDisruptionBudgetStatus, now: float, reason: str = "", message: str = ""
) -> PodDisruptionBudgetStatus:
    """The status with DisruptionAllowed brought up to date with disruptionsAllowed: True
    (SufficientPods) above zero, False (InsufficientPods) at zero, or False for `reason` (the
    disruption controller's SyncFailed, with the error). The condition observes the generation
    status.observedGeneration names (pdbhelper.UpdateDisruptionAllowedCondition, failSafe)."""
    if reason:
        truth = "False"
    elif status.disruptions_allowed > 0:
        truth, reason = "True", SUFFICIENT_PODS
    else:
        truth, reason = "False", INSUFFICIENT_PODS
    generation = status.observed_generation
    conditions = set_condition(status.conditions, DISRUPTION_ALLOWED, truth, reason, message, now, generation)
    return status if conditions is status.conditions else replace(status, conditions=conditions)

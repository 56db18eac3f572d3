"""The pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go): a DELETE that honours
PodDisruptionBudgets.

A pod that is finished, Pending or already being deleted is deleted at once. Otherwise the one
budget that selects it decides: a pod that is not ready goes while the budget is met; a ready pod
goes only while status.disruptionsAllowed is above zero, which the eviction spends (and notes the
pod in status.disruptedPods) before deleting; at zero the request fails with 429 TooManyRequests,
"Cannot evict pod as it would violate the pod's disruption budget.", as it does while the budget's
status.observedGeneration is behind its generation (a spec the disruption controller has not
synced yet). More than one budget is a 500. The eviction API records no event; the kubelet's
Killing follows the graceful delete.
"""

from dataclasses import dataclass, replace

from scheduler_core.api.conditions import with_disruption_allowed
from scheduler_core.api.pod_conditions import EVICTION_API_MESSAGE, EVICTION_BY_EVICTION_API
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import Pod, PodDisruptionBudget
from scheduler_core.controllers.base import Context, delete_pod, mark_disruption_target

# Upstream's texts.
VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget."
BUDGET_CAUSE = "The disruption budget {} needs {} healthy pods and has {} currently"
BUDGET_NOT_PROCESSED_CAUSE = "The disruption budget {} is still being processed by the server."
MULTIPLE_BUDGETS = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
NEGATIVE_ALLOWED = 'poddisruptionbudget.policy "{}" is forbidden: pdb disruptions allowed is negative'
TOO_MANY_DISRUPTED = (
    'poddisruptionbudget.policy "{}" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB '
    "controller"
)
NOT_FOUND = 'pods "{}" not found'
MAX_DISRUPTED_POD_SIZE = 2000

OK = 201
NOT_FOUND_CODE = 404
FORBIDDEN = 403
TOO_MANY_REQUESTS = 429
INTERNAL_ERROR = 500


@dataclass(frozen=True, slots=True)
class EvictionResult:
    code: int
    message: str = ""
    cause: str = ""

    @property
    def ok(self) -> bool:
        return self.code == OK


def budget_selects(pdb: PodDisruptionBudget, pod: Pod) -> bool:
    """How the eviction API matches budgets: same namespace, and a nil or empty selector matches nothing."""
    selector = pdb.spec.selector
    if pdb.metadata.namespace != pod.namespace or selector is None or selector.is_empty:
        return False
    return label_selector_matches(selector, pod.labels)


def _can_ignore_budget(pod: Pod) -> bool:
    return pod.status.phase in ("Succeeded", "Failed", "Pending") or pod.metadata.deletion_timestamp is not None


def evict(ctx: Context, namespace: str, name: str, *, grace_period: int | None = None) -> EvictionResult:
    """POST pods/NAME/eviction with DeleteOptions.gracePeriodSeconds (None: the pod's own)."""
    key = f"{namespace}/{name}" if namespace else name
    pod: Pod | None = ctx.cluster.get(Pod, key)
    if pod is None:
        return EvictionResult(NOT_FOUND_CODE, NOT_FOUND.format(name))
    if _can_ignore_budget(pod):
        _condition_and_delete(ctx, pod, grace_period)
        return EvictionResult(OK)
    budgets = [pdb for pdb in ctx.cluster.objects(PodDisruptionBudget) if budget_selects(pdb, pod)]
    if len(budgets) > 1:
        return EvictionResult(INTERNAL_ERROR, MULTIPLE_BUDGETS)
    if budgets:
        pdb = budgets[0]
        status = pdb.status
        unhealthy_may_go = (
            not pod.status.ready and status.current_healthy >= status.desired_healthy and status.desired_healthy > 0
        )
        if not unhealthy_may_go:
            refusal = _check_and_decrement(ctx, pdb, pod)
            if refusal is not None:
                return refusal
    _condition_and_delete(ctx, pod, grace_period)
    return EvictionResult(OK)


def _condition_and_delete(ctx: Context, pod: Pod, grace_period: int | None) -> None:
    """addConditionAndDeletePod: DisruptionTarget (EvictionByEvictionAPI), then the deletion."""
    marked = mark_disruption_target(ctx, pod, EVICTION_BY_EVICTION_API, EVICTION_API_MESSAGE)
    delete_pod(ctx, marked or pod, grace_period=grace_period)


def _check_and_decrement(ctx: Context, pdb: PodDisruptionBudget, pod: Pod) -> EvictionResult | None:
    status = pdb.status
    if status.observed_generation < pdb.generation:  # the disruption controller has not seen this spec yet
        return EvictionResult(TOO_MANY_REQUESTS, VIOLATES_BUDGET, BUDGET_NOT_PROCESSED_CAUSE.format(pdb.metadata.name))
    if status.disruptions_allowed < 0:
        return EvictionResult(FORBIDDEN, NEGATIVE_ALLOWED.format(pdb.metadata.name))
    if len(status.disrupted_pods) > MAX_DISRUPTED_POD_SIZE:
        return EvictionResult(FORBIDDEN, TOO_MANY_DISRUPTED.format(pdb.metadata.name))
    if status.disruptions_allowed == 0:
        cause = BUDGET_CAUSE.format(pdb.metadata.name, status.desired_healthy, status.current_healthy)
        return EvictionResult(TOO_MANY_REQUESTS, VIOLATES_BUDGET, cause)
    disrupted = dict(status.disrupted_pods)
    disrupted[pod.name] = ctx.now
    new_status = replace(status, disruptions_allowed=status.disruptions_allowed - 1, disrupted_pods=disrupted)
    if new_status.disruptions_allowed == 0:  # the last one spent: DisruptionAllowed turns False
        new_status = with_disruption_allowed(new_status, ctx.now)
    ctx.cluster.update(replace(pdb, status=new_status))
    return None

"""POST pods/NAME/eviction through the API: the engine's eviction (controllers/eviction.py) tried
on a copy of the store the client reads, so that the answer is the API server's at that moment (201,
or 429 while a PodDisruptionBudget allows no disruption, which kubectl drain retries every 5 s).
When it is allowed, the eviction becomes a timeline action at the same moment, which the run then
carries out on the same store."""

import random
from collections.abc import Callable
from typing import Any

from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.controllers.eviction import evict as engine_evict
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubeapi.reads import find
from scheduler_core.kubeapi.resources import Resource
from scheduler_core.kubeapi.write_types import WriteRequest, WriteResult
from scheduler_core.store.cluster import Cluster

DISRUPTION_BUDGET_CAUSE = "DisruptionBudget"


class _TryContext:
    """The simulation as the eviction API sees it, over a copy of the store: timers go nowhere."""

    def __init__(self, cluster: Cluster, now: float) -> None:
        self.cluster = cluster
        self.rng = random.Random(0)
        self.options = SimulationOptions()
        self.workload_demand: dict[str, float] = {}
        self.demand_log: list[tuple[float, str, float]] = []
        self._now = now

    @property
    def now(self) -> float:
        return self._now

    def after(self, delay: float, callback: Callable[[], None], **_: Any) -> None:
        pass


def evict(snapshot: ApiSnapshot, resource: Resource, request: WriteRequest) -> WriteResult:
    if resource.kind != "Pod" or request.method != "POST":
        raise status.method_not_allowed()
    body = request.body if isinstance(request.body, dict) else {}
    if body.get("kind") not in (None, "Eviction"):
        raise status.bad_request(f"the body of an eviction is an Eviction, not a {str(body.get('kind'))[:40]}")
    find(snapshot, resource, request.namespace, request.name)  # NotFound before anything else
    options = body.get("deleteOptions") or {}
    grace = options.get("gracePeriodSeconds") if isinstance(options, dict) else None
    grace = grace if isinstance(grace, int) and not isinstance(grace, bool) else None
    trial = _TryContext(snapshot.cluster.before([]), snapshot.now)
    result = engine_evict(trial, request.namespace, request.name, grace_period=grace)
    if result.code == 429:
        causes = [status.Cause(DISRUPTION_BUDGET_CAUSE, result.cause)] if result.cause else []
        raise status.ApiError(429, "TooManyRequests", result.message, causes=causes, retry_after=0)
    if not result.ok:
        reasons = {403: "Forbidden", 404: "NotFound", 500: "InternalError"}
        raise status.ApiError(
            result.code, reasons.get(result.code, "InternalError"), result.message, request.name, "", "pods"
        )
    action: dict[str, Any] = {"op": "evict", "target": f"Pod/{request.namespace}/{request.name}"}
    if grace is not None:
        action["gracePeriodSeconds"] = grace
    done = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}
    return WriteResult(201, done, [action])

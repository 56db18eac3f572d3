"""Runs: a scenario version simulated by the engine, its events stored and streamed to viewers.

A run executes in a worker thread, off the event loop. Each stored event carries the changes to
pods and nodes since the previous one, so a viewer can rebuild the cluster as it was at any event
(forward by applying them, backward by replaying from the start). Events go to the database in
batches and to the scenario's websocket group as they are stored.
"""

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction

from playground.broadcast import send_run_batch, send_run_status
from playground.models import Run, RunEvent, Scenario
from playground.scenarios import snapshot
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.cluster import Change, ChangeType, SimulationLimitError
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.errors import ManifestError
from scheduler_core.scheduler.config import parse_configuration
from scheduler_core.scheduler.resources import pod_requests
from scheduler_core.simulation import Simulation

logger = logging.getLogger(__name__)

MAX_RUN_EVENTS = 20_000
DEFAULT_UNTIL_SECONDS = 3600.0  # a run stops after one simulated hour (CronJobs and HPAs never settle)
BATCH_SIZE = 200


def pod_frame(pod: Pod) -> dict[str, Any]:
    owner = pod.metadata.controller_ref()
    return {
        "op": "pod",
        "key": pod.key,
        "name": pod.name,
        "namespace": pod.namespace,
        "node": pod.spec.node_name or None,
        "phase": pod.status.phase,
        "ready": pod.status.ready,
        "deleting": pod.metadata.deletion_timestamp is not None,
        "owner": f"{owner.kind}/{owner.name}" if owner else None,
        "nominated": pod.status.nominated_node_name or None,
        "priority": pod.priority,
        # What the pod takes from its node (cpu in millicores, memory in bytes), for the per-node bars.
        "requests": {name: amount for name, amount in pod_requests(pod).items() if amount},
    }


def node_frame(node: Node) -> dict[str, Any]:
    return {
        "op": "node",
        "name": node.name,
        "unschedulable": node.spec.unschedulable,
        "ready": node.status.ready,
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in node.spec.taints],
        "labels": dict(node.labels),
        "allocatable": dict(node.status.allocatable),
    }


def workload_frame(kind: str, obj: Any) -> dict[str, Any]:
    """Deployments and ReplicaSets, for the rollout view: desired and ready counts, surge limits."""
    from scheduler_core.controllers.deployment_util import max_surge, max_unavailable

    frame: dict[str, Any] = {
        "op": "workload",
        "kind": kind,
        "key": obj.metadata.key,
        "name": obj.metadata.name,
        "replicas": obj.spec.replicas,
        "ready": obj.status.ready_replicas,
        "available": obj.status.available_replicas,
    }
    if kind == "Deployment":
        frame["strategy"] = obj.spec.strategy_type
        if obj.spec.strategy_type == "RollingUpdate":
            frame["maxSurge"] = max_surge(obj)
            frame["maxUnavailable"] = max_unavailable(obj)
    else:
        owner = obj.metadata.controller_ref()
        frame["owner"] = f"{owner.kind}/{owner.name}" if owner else None
        frame["revision"] = obj.metadata.annotations.get("deployment.kubernetes.io/revision")
    return frame


class ChangeRecorder:
    """Collects the pod and node changes between two events (the last write of an object wins)."""

    def __init__(self) -> None:
        self._pending: dict[tuple[str, str], dict[str, Any]] = {}

    def __call__(self, change: Change) -> None:
        if change.kind == "Pod":
            key = ("Pod", change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "pod-", "key": change.key}
            else:
                self._pending[key] = pod_frame(change.new)
        elif change.kind == "Node":
            key = ("Node", change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "node-", "name": change.key}
            else:
                self._pending[key] = node_frame(change.new)
        elif change.kind in ("Deployment", "ReplicaSet"):
            key = (change.kind, change.key)
            if change.type is ChangeType.DELETED:
                self._pending[key] = {"op": "workload-", "kind": change.kind, "key": change.key}
            else:
                self._pending[key] = workload_frame(change.kind, change.new)

    def take(self) -> list[dict[str, Any]]:
        changes = list(self._pending.values())
        self._pending.clear()
        return changes


def start_run(scenario: Scenario, seed: int = 0, *, background: bool = True) -> Run:
    version = snapshot(scenario)
    run = Run.objects.create(scenario=scenario, version=version, seed=seed)
    if background and settings.RUNS_IN_WORKERS:
        _send_to_worker(run.pk)
    elif background:
        threading.Thread(target=_execute_in_thread, args=(run.pk,), name=f"run-{run.pk}", daemon=True).start()
    else:
        execute(run)
    return run


def _send_to_worker(run_id: int) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from playground.workers import RUN_CHANNEL

    def send() -> None:
        layer = get_channel_layer()
        assert layer is not None
        async_to_sync(layer.send)(RUN_CHANNEL, {"type": "run.execute", "run": run_id})

    # Only once the run row is committed can a worker in another process read it.
    transaction.on_commit(send)


def _execute_in_thread(run_id: int) -> None:
    close_old_connections()
    try:
        execute(Run.objects.select_related("scenario", "version").get(pk=run_id))
    finally:
        close_old_connections()


def execute(run: Run, publish: Callable[[str, int, list[dict[str, Any]]], None] | None = None) -> None:
    publish = publish or send_run_batch
    slug = run.scenario.slug
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    send_run_status(slug, run.pk, Run.Status.RUNNING)
    try:
        manifests = load_manifests(run.version.document, source="scenario")
        config = (
            parse_configuration(run.version.scheduler_config_yaml)
            if run.version.scheduler_config_yaml.strip()
            else None
        )
        simulation = Simulation(manifests, config, seed=run.seed, options=SimulationOptions(max_events=MAX_RUN_EVENTS))
        recorder = ChangeRecorder()
        simulation.cluster.watch(recorder)
        batch: list[RunEvent] = []
        seq = 0
        for event in simulation.run(until=DEFAULT_UNTIL_SECONDS):
            seq += 1
            batch.append(RunEvent(run=run, seq=seq, payload={"event": event.as_dict(), "changes": recorder.take()}))
            if len(batch) >= BATCH_SIZE:
                _flush(run, slug, batch, publish)
        final = recorder.take()
        seq += 1
        batch.append(RunEvent(run=run, seq=seq, payload={"event": None, "changes": final, "end": simulation.now}))
        _flush(run, slug, batch, publish)
    except (ManifestError, SimulationLimitError) as error:
        _fail(run, slug, str(error))
        return
    except Exception as error:  # an engine bug: the run says so; the server keeps serving
        logger.exception("run %s failed", run.pk)
        _fail(run, slug, f"internal error: {type(error).__name__}")
        return
    Run.objects.filter(pk=run.pk).update(status=Run.Status.FINISHED)
    send_run_status(slug, run.pk, Run.Status.FINISHED)


def _flush(
    run: Run, slug: str, batch: list[RunEvent], publish: Callable[[str, int, list[dict[str, Any]]], None]
) -> None:
    if not batch:
        return
    RunEvent.objects.bulk_create(batch)
    publish(slug, run.pk, [{"seq": item.seq, **item.payload} for item in batch])
    batch.clear()


def _fail(run: Run, slug: str, message: str) -> None:
    Run.objects.filter(pk=run.pk).update(status=Run.Status.FAILED, error=message[:2000])
    send_run_status(slug, run.pk, Run.Status.FAILED, message)


def events_after(run: Run, seq: int, limit: int = 5000) -> list[dict[str, Any]]:
    rows = RunEvent.objects.filter(run=run, seq__gt=seq).order_by("seq")[:limit]
    return [{"seq": row.seq, **row.payload} for row in rows]


def explain_at(run: Run, pod_key: str, seq: int) -> Any:
    """Why the pod is where it is (or Pending) at event `seq` of the run: the run is replayed with
    the same seed up to that event, then the engine explains the pod against that cluster."""
    from scheduler_core.explain import explain_in_cluster

    manifests = load_manifests(run.version.document, source="scenario")
    config = (
        parse_configuration(run.version.scheduler_config_yaml) if run.version.scheduler_config_yaml.strip() else None
    )
    simulation = Simulation(manifests, config, seed=run.seed, options=SimulationOptions(max_events=MAX_RUN_EVENTS))
    for index, _event in enumerate(simulation.run(until=DEFAULT_UNTIL_SECONDS), start=1):
        if index >= seq:
            break
    return explain_in_cluster(simulation.cluster, pod_key, config, seed=run.seed)

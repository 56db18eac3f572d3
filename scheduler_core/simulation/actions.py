"""Carrying out a scenario's documents and timeline actions against the object store.

Documents without an Action are applied at time 0, in file order. Actions run at their `at` time;
the ones that are plain API writes (cordon, label, scale...) are done here, the ones that belong to
a controller or a client (drain, node-down, set-utilization, rollout undo) are handed to it.
"""

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.errors import ActionError, ManifestError
from scheduler_core.api.fields import Fields
from scheduler_core.api.manifests import Manifest, parse_object
from scheduler_core.api.parse import parse_taint
from scheduler_core.api.timeline import Action
from scheduler_core.api.types import Node, ObjectMeta, Pod, Taint
from scheduler_core.controllers.base import ActionHandler, delete_pod, record
from scheduler_core.controllers.eviction import evict
from scheduler_core.store.cluster import ConflictError, type_name

if TYPE_CHECKING:  # the simulation carries out actions: it imports this module
    from scheduler_core.simulation.simulation import Simulation

# Controllers that take over an op: op -> controller name (controllers/registry.py).
DELEGATED_OPS = {
    "drain": "drain",
    "node-down": "node-lifecycle",
    "node-up": "node-lifecycle",
    "set-utilization": "horizontal-pod-autoscaler",
    "rollout-undo": "deployment",
    "pause": "deployment",
    "resume": "deployment",
}


def apply_document(sim: "Simulation", manifest: Manifest) -> None:
    """Create the object, or update it when it exists (kubectl apply). Refusals become Warning events."""
    try:
        apply_object(sim, manifest.object)
    except (AdmissionError, ConflictError) as error:
        sim.cluster.record(manifest.object, "FailedCreate", str(error), event_type="Warning", source="kubectl")


def apply_object(sim: "Simulation", obj: Any) -> Any:
    kind = type_name(obj)
    existing = sim.cluster.get(kind, obj.metadata.key)
    if existing is None:
        return sim.cluster.create(obj)
    metadata = replace(obj.metadata, uid=existing.metadata.uid, creation_timestamp=existing.metadata.creation_timestamp)
    updated = replace(obj, metadata=metadata)
    if hasattr(existing, "status") and hasattr(updated, "status"):
        updated = replace(updated, status=existing.status)
    if hasattr(existing, "generation") and getattr(existing, "spec", None) != getattr(updated, "spec", None):
        updated = replace(updated, generation=existing.generation + 1)
    elif hasattr(existing, "generation"):
        updated = replace(updated, generation=existing.generation)
    return sim.cluster.update(updated)


def schedule_action(sim: "Simulation", action: Action) -> None:
    sim.after(action.at - sim.now, lambda: run_action(sim, action), label=f"{action.op} {action.target}")


def run_action(sim: "Simulation", action: Action) -> None:
    try:
        _run(sim, action)
    except ActionError as error:
        subject = _subject(sim, action)
        sim.cluster.record(subject, "FailedAction", f"{action.op}: {error}", event_type="Warning", source="playground")


def _subject(sim: "Simulation", action: Action) -> Any:
    """The object an action's event is about: its target when it exists, else a stand-in."""
    if action.target is not None:
        found = sim.cluster.get(action.target.kind, action.target.key)
        if found is not None:
            return found
    kind = action.target.kind if action.target else "Action"
    name = action.target.name if action.target else action.op
    namespace = action.target.namespace if action.target else ""
    return _Named(kind, ObjectMeta(name, namespace))


class _Named:
    """A stand-in for an object that does not exist, for an event about it."""

    def __init__(self, kind: str, metadata: ObjectMeta) -> None:
        self.kind_name = kind
        self.metadata = metadata


def _target(sim: "Simulation", action: Action) -> Any:
    assert action.target is not None
    found = sim.cluster.get(action.target.kind, action.target.key)
    if found is None:
        raise ActionError(f"{action.target} not found")
    return found


def _run(sim: "Simulation", action: Action) -> None:
    op = action.op
    if op in DELEGATED_OPS:
        controller = sim.controller(DELEGATED_OPS[op])
        if not isinstance(controller, ActionHandler):
            raise ActionError(f"no {DELEGATED_OPS[op]} controller in this simulation")
        controller.handle_action(action)
        return
    if op == "apply":
        try:
            obj = parse_object(action.args["manifest"], action.document)
        except ManifestError as error:
            raise ActionError(str(error)) from None
        try:
            apply_object(sim, obj)
        except (AdmissionError, ConflictError) as error:
            raise ActionError(str(error)) from None
        return
    target = _target(sim, action)
    grace = action.args.get("gracePeriodSeconds")
    if op == "evict":
        # POST pods/NAME/eviction (the Kubernetes API's, at the action's time): refused by a
        # disruption budget as the API refuses it, said in a Warning event.
        result = evict(sim, target.metadata.namespace, target.metadata.name, grace_period=grace)
        if not result.ok:
            raise ActionError(f"{result.message} {result.cause}".strip())
    elif op == "delete":
        if isinstance(target, Pod):
            delete_pod(sim, target, grace_period=grace)
        else:
            sim.cluster.delete(type_name(target), target.metadata.key)
    elif op == "scale":
        if not hasattr(target, "spec") or not hasattr(target.spec, "replicas"):
            raise ActionError(f"{action.target} has no replicas to scale")
        spec = replace(target.spec, replicas=int(action.args["replicas"]))
        sim.cluster.update(replace(target, spec=spec, generation=target.generation + 1))
    elif op == "set-image":
        _set_image(sim, action, target)
    elif op in ("cordon", "uncordon"):
        _set_unschedulable(sim, target, op == "cordon")
    elif op == "taint":
        _taint(sim, action, target)
    elif op == "untaint":
        key, effect = action.args.get("key"), action.args.get("effect")
        taints = tuple(t for t in target.spec.taints if not (t.key == key and (not effect or t.effect == effect)))
        if len(taints) == len(target.spec.taints):
            raise ActionError(f"taint {key}{':' + effect if effect else ''} not found on {action.target}")
        sim.cluster.update(replace(target, spec=replace(target.spec, taints=taints)))
    elif op == "label":
        labels = dict(target.metadata.labels)
        labels.update({str(k): str(v) for k, v in (action.args.get("labels") or {}).items()})  # labels: null
        sim.cluster.update(replace(target, metadata=replace(target.metadata, labels=labels)))
    elif op == "unlabel":
        keys = set(action.args.get("keys") or [])  # keys: null is no keys, as the parser read it
        labels = {k: v for k, v in target.metadata.labels.items() if k not in keys}
        sim.cluster.update(replace(target, metadata=replace(target.metadata, labels=labels)))


def _set_image(sim: "Simulation", action: Action, target: Any) -> None:
    template = getattr(getattr(target, "spec", None), "template", None)
    if template is None:
        raise ActionError(f"{action.target} has no pod template")
    wanted = action.args.get("container")
    containers = list(template.spec.containers)
    if not containers:
        raise ActionError(f"{action.target} has no containers")
    index = next((i for i, c in enumerate(containers) if c.name == wanted), None) if wanted else 0
    if index is None:
        raise ActionError(f'container "{wanted}" not found in {action.target}')
    containers[index] = replace(containers[index], image=str(action.args["image"]))
    new_template = replace(template, spec=replace(template.spec, containers=tuple(containers)))
    sim.cluster.update(
        replace(target, spec=replace(target.spec, template=new_template), generation=target.generation + 1)
    )


def _set_unschedulable(sim: "Simulation", node: Any, unschedulable: bool) -> None:
    if not isinstance(node, Node):
        raise ActionError("cordon and uncordon act on nodes")
    if node.spec.unschedulable == unschedulable:
        return
    updated = sim.cluster.update(replace(node, spec=replace(node.spec, unschedulable=unschedulable)))
    status = "NodeNotSchedulable" if unschedulable else "NodeSchedulable"
    record(sim, updated, status, f"Node {node.name} status is now: {status}", source="kubelet")


def _taint(sim: "Simulation", action: Action, node: Any) -> None:
    raw = action.args["taint"]
    fields = Fields(raw, "spec.taint", action.document, action.line)
    try:
        taint: Taint = parse_taint(fields)
    except ManifestError as error:
        raise ActionError(str(error)) from None
    taint = replace(taint, time_added=sim.now if taint.effect == "NoExecute" else None)
    kept = tuple(t for t in node.spec.taints if not (t.key == taint.key and t.effect == taint.effect))
    sim.cluster.update(replace(node, spec=replace(node.spec, taints=(*kept, taint))))

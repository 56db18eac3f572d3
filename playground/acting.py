"""Acting during a run: an operation chosen at the run's current simulated time becomes a timeline
Action appended to the scenario's workload (so the run replays identically and can be shared), and
the scenario is run again from the start with the same seed: identical up to that moment, then
the consequences of the action."""

from typing import Any

import yaml

from playground.scenarios import InvalidEdit
from scheduler_core.api.manifests import Manifest

# op -> what the single "value" field means (None: the op takes no value)
OPS: dict[str, str | None] = {
    "cordon": None,
    "uncordon": None,
    "drain": None,
    "node-down": None,
    "node-up": None,
    "taint": "key=value:Effect",
    "untaint": "key:Effect",
    "label": "key=value",
    "unlabel": "key",
    "scale": "replicas",
    "set-image": "image (first container) or container=image",
    "set-utilization": "CPU % of requests",
    "delete": None,
}
NODE_OPS = {"cordon", "uncordon", "drain", "node-down", "node-up", "taint", "untaint", "label", "unlabel"}


def _seconds(value: str) -> str:
    try:
        seconds = float(value)
    except ValueError:
        raise InvalidEdit("the run's current time is not a number") from None
    if not 0 <= seconds <= 366 * 24 * 3600:
        raise InvalidEdit("the time must be within a year of the start")
    return f"{round(seconds, 3):g}s"


def action_document(op: str, target: str, value: str, at: str) -> str:
    """The Action as YAML, validated by the caller through the engine's parser."""
    if op not in OPS:
        raise InvalidEdit(f"unknown operation {op[:40]!r}")
    if not target or "/" not in target:
        raise InvalidEdit("choose a target")
    spec: dict[str, Any] = {"at": _seconds(at), "op": op, "target": target}
    value = value.strip()
    if OPS[op] and not value:
        raise InvalidEdit(f"{op} needs a value: {OPS[op]}")
    if op == "taint":
        key_value, _, effect = value.rpartition(":")
        key, _, taint_value = key_value.partition("=")
        spec["taint"] = {"key": key, "value": taint_value, "effect": effect}
    elif op == "untaint":
        key, _, effect = value.partition(":")
        spec["key"] = key
        if effect:
            spec["effect"] = effect
    elif op == "label":
        key, _, label_value = value.partition("=")
        spec["labels"] = {key.strip(): label_value.strip()}
    elif op == "unlabel":
        spec["keys"] = [value]
    elif op == "scale":
        if not value.isdigit():
            raise InvalidEdit("replicas must be a whole number")
        spec["replicas"] = int(value)
    elif op == "set-image":
        container, _, image = value.rpartition("=")
        spec["image"] = image
        if container:
            spec["container"] = container
    elif op == "set-utilization":
        if not value.rstrip("%").isdigit():
            raise InvalidEdit("CPU utilization is a whole percentage")
        spec["cpu"] = int(value.rstrip("%"))
    return yaml.safe_dump({"apiVersion": "playground/v1", "kind": "Action", "spec": spec}, sort_keys=False)


def append_action(workload_yaml: str, document: str) -> str:
    base = workload_yaml.rstrip("\n")
    return f"{base}\n---\n{document}" if base.strip() else document


def targets(manifests: list[Manifest]) -> list[str]:
    """What an action can target in this scenario version: its nodes and workloads."""
    kinds = ("Node", "Deployment", "StatefulSet", "ReplicaSet", "DaemonSet", "Pod", "HorizontalPodAutoscaler")
    found = []
    for manifest in manifests:
        if manifest.kind in kinds:
            metadata = manifest.object.metadata
            found.append(
                f"{manifest.kind}/{metadata.name}"
                if manifest.kind == "Node"
                else f"{manifest.kind}/{metadata.namespace}/{metadata.name}"
            )
    return found


# Past this many targets (an imported cluster: thousands of nodes, tens of thousands of bare Pods)
# the Act form's target is typed, with suggestions, instead of a <select> of every one: 55,000
# options were megabytes of the page and a list no one scrolls.
SELECT_TARGETS_MAX = 300
SUGGESTED_TARGETS = 200


def target_field(found: tuple[str, ...]) -> dict[str, Any]:
    """How the Act form offers the targets: all of them in a select, or, past SELECT_TARGETS_MAX, a
    typed field suggesting the workloads first (there are few), then nodes, then pods."""
    if len(found) <= SELECT_TARGETS_MAX:
        return {"act_targets": found, "act_target_typed": False}
    rank = {"Node": 1, "Pod": 2}
    ordered = sorted(found, key=lambda target: rank.get(target.split("/", 1)[0], 0))
    return {"act_targets": ordered[:SUGGESTED_TARGETS], "act_target_typed": True, "act_target_count": len(found)}


def check_target(target: str, found: tuple[str, ...]) -> None:
    """A typed target must be one the scenario declares, as the select's are."""
    if not target or "/" not in target:
        raise InvalidEdit("choose a target")
    if target not in found:
        raise InvalidEdit(
            f"{target} is not in this scenario: name one of its nodes (Node/<name>) or workloads "
            "(<Kind>/<namespace>/<name>, such as Deployment/default/web)"
        )

"""Timeline actions: `kind: Action` documents that change the cluster at a given simulated time.

apiVersion: playground/v1
kind: Action
spec:
  at: 30s                # Go duration: 500ms, 30s, 5m, 1h30m
  op: cordon
  target: Node/worker1   # Kind/name or Kind/namespace/name
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.fields import Fields
from scheduler_core.api.parse import parse_labels, parse_taint
from scheduler_core.api.validation import qualified_name_problem

API_VERSION = "playground/v1"
MAX_DURATION_SECONDS = 366 * 24 * 3600.0

_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}

# op -> (fields it takes besides at/op/target, whether a target is required)
OPERATIONS: dict[str, tuple[frozenset[str], bool]] = {
    "apply": (frozenset({"manifest"}), False),
    "delete": (frozenset({"gracePeriodSeconds"}), True),
    "evict": (frozenset({"gracePeriodSeconds"}), True),
    "scale": (frozenset({"replicas"}), True),
    "set-image": (frozenset({"container", "image"}), True),
    "cordon": (frozenset(), True),
    "uncordon": (frozenset(), True),
    "drain": (frozenset({"gracePeriodSeconds", "timeout"}), True),
    "taint": (frozenset({"taint"}), True),
    "untaint": (frozenset({"key", "effect"}), True),
    "label": (frozenset({"labels"}), True),
    "unlabel": (frozenset({"keys"}), True),
    "node-down": (frozenset(), True),
    "node-up": (frozenset(), True),
    "set-utilization": (frozenset({"cpu"}), True),
    "rollout-undo": (frozenset({"toRevision"}), True),
    "pause": (frozenset(), True),
    "resume": (frozenset(), True),
}


class DurationError(ValueError):
    pass


def parse_duration(text: str | int | float) -> float:
    """A Go duration ("1h30m", "500ms") in seconds; a bare number means seconds."""
    if isinstance(text, bool) or not isinstance(text, int | float | str) or text != text:  # NaN is not a time
        raise DurationError("must be a duration such as 30s, 5m or 1h")
    if isinstance(text, int | float):
        seconds = text  # compared before any float(): a huge integer is "at most one year", not an OverflowError
    else:
        value = text.strip()
        sign = -1.0 if value.startswith("-") else 1.0
        value = value.lstrip("+-")
        if value == "0":
            return 0.0
        position, seconds = 0, 0.0
        while position < len(value):
            match = _DURATION_PART.match(value, position)
            if match is None:
                raise DurationError(f'time: invalid duration "{text}"')
            seconds += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
            position = match.end()
        if not value:
            raise DurationError(f'time: invalid duration "{text}"')
        seconds *= sign
    if seconds < 0:
        raise DurationError("must not be negative")
    if seconds > MAX_DURATION_SECONDS:
        raise DurationError("must be at most one year")
    return float(seconds)


@dataclass(frozen=True, slots=True)
class Target:
    kind: str
    namespace: str
    name: str

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}" if self.namespace else self.name

    def __str__(self) -> str:
        return f"{self.kind}/{self.key}"


CLUSTER_SCOPED = frozenset({"Node", "Namespace", "PriorityClass", "PersistentVolume", "StorageClass"})


def parse_target(text: str, fields: Fields) -> Target:
    parts = text.split("/")
    if len(parts) == 2 and parts[0] and parts[1]:
        kind, name = parts
        namespace = "" if kind in CLUSTER_SCOPED else "default"
        return Target(kind, namespace, name)
    if len(parts) == 3 and all(parts):
        if parts[0] in CLUSTER_SCOPED:
            raise fields.error("target", f'{parts[0]} is cluster-scoped: write "{parts[0]}/{parts[2]}"')
        return Target(parts[0], parts[1], parts[2])
    raise fields.error("target", f'invalid target "{text[:80]}": use Kind/name or Kind/namespace/name')


@dataclass(frozen=True, slots=True)
class Action:
    at: float
    op: str
    target: Target | None
    args: Mapping[str, Any] = field(default_factory=dict)
    document: str = ""
    line: int = 0
    kind = "Action"


def parse_action(fields: Fields) -> Action:
    fields.reject_unknown({"apiVersion", "kind", "metadata", "spec"})
    spec = fields.object("spec")
    if spec is None:
        raise fields.error("spec", "Required value: an Action needs spec.at and spec.op")
    op = spec.string("op")
    if op not in OPERATIONS:
        raise spec.error("op", f'Unsupported value: "{op[:40]}": supported values: {", ".join(OPERATIONS)}')
    extra, needs_target = OPERATIONS[op]
    spec.reject_unknown({"at", "op", "target", *extra})
    raw_at = spec.data.get("at", 0)
    try:
        at = parse_duration(raw_at)
    except DurationError as error:
        raise spec.error("at", str(error)) from None
    target = None
    if spec.has("target"):
        target = parse_target(spec.string("target"), spec)
    elif needs_target:
        raise spec.error("target", f"Required value: {op} needs a target (Kind/name)")
    args = {key: value for key, value in spec.data.items() if key in extra}
    _check_args(op, spec, target)
    return Action(at=at, op=op, target=target, args=args, document=fields.document, line=fields.line or 0)


def _check_args(op: str, spec: Fields, target: Target | None) -> None:
    node_ops = {"cordon", "uncordon", "drain", "taint", "untaint", "node-down", "node-up"}
    if op in node_ops and target is not None and target.kind != "Node":
        raise spec.error("target", f"{op} acts on a Node, not a {target.kind}")
    if op in ("delete", "evict") and spec.has("gracePeriodSeconds"):
        spec.integer("gracePeriodSeconds", minimum=0)  # DeleteOptions.gracePeriodSeconds
    if op == "evict" and target is not None and target.kind != "Pod":
        raise spec.error("target", f"evict acts on a Pod, not a {target.kind}")
    if op == "scale":
        # As `kubectl scale` writes it: the scale subresource's autoscaling/v1 ScaleSpec (an int32).
        if spec.int32("replicas", "ScaleSpec", minimum=0) is None:
            raise spec.error("replicas", "Required value")
    elif op == "set-image":
        if not spec.string("image"):
            raise spec.error("image", "Required value")
    elif op == "apply":
        if spec.object("manifest") is None:
            raise spec.error("manifest", "Required value: the object to apply")
    elif op == "taint":
        taint = spec.object("taint")
        if taint is None:
            raise spec.error("taint", "Required value: {key, value, effect}")
        parse_taint(taint)  # validated now, not when the action runs
    elif op == "untaint":
        key = spec.string("key")
        if not key:
            raise spec.error("key", "Required value")
        spec.string("effect")  # optional, but a string when given
        problem = qualified_name_problem(key)
        if problem:
            raise spec.error("key", f'invalid taint key "{key[:80]}": {problem}')
    elif op == "label":
        parse_labels(spec, "labels")  # keys and values as metadata.labels
    elif op == "unlabel":
        for index, key in enumerate(spec.strings("keys")):
            problem = qualified_name_problem(key)
            if problem:
                raise spec.error(f"keys[{index}]", f'invalid label key "{key[:80]}": {problem}')
    elif op == "set-utilization":
        cpu = spec.integer("cpu", minimum=0)
        if cpu is None:
            raise spec.error("cpu", "Required value: percent of requests")

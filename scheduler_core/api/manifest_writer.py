"""Engine objects back to manifest fields, as kubectl would write them: what a suggested fix shows
as the YAML to put into an object. The inverse of api/parse.py for the fields fixes change."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import yaml

from scheduler_core.api.types import (
    LabelSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    PodAffinityTerm,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)


def dump_yaml(data: Any) -> str:
    text: str = yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)
    return text.rstrip("\n")


# Where simulated second 0 lies in Unix seconds while writing (timestamps_from): 0 for `simulate`,
# the wall clock's anchor for the API a client reads (kubectl ages objects by its own clock).
_EPOCH: ContextVar[float] = ContextVar("timestamp_epoch", default=0.0)


@contextmanager
def timestamps_from(epoch: float) -> Iterator[None]:
    """Writes every timestamp inside the block with simulated second 0 at Unix second `epoch`."""
    token = _EPOCH.set(epoch)
    try:
        yield
    finally:
        _EPOCH.reset(token)


def current_epoch() -> float:
    """The Unix second of simulated second 0 inside the current timestamps_from block (0 outside)."""
    return _EPOCH.get()


def format_timestamp(seconds: float) -> str:
    """RFC 3339 in UTC, the inverse of parse.parse_timestamp: simulated second 0 is the Unix epoch
    (1970-01-01T00:00:00Z), so a time read from a manifest (Unix seconds) prints as it was written
    (inside timestamps_from, it is that block's epoch). Fractional seconds, to the microsecond
    parse_timestamp reads, only when the time has them."""
    moment = datetime.fromtimestamp(seconds + _EPOCH.get(), UTC)
    text = moment.replace(tzinfo=None, microsecond=0).isoformat()
    if moment.microsecond:
        text += f".{moment.microsecond:06d}".rstrip("0")
    return text + "Z"


def toleration_manifest(toleration: Toleration) -> dict[str, Any]:
    """A toleration as the API shows it: empty fields left out (an empty key or effect matches all)."""
    entry: dict[str, Any] = {}
    if toleration.key:
        entry["key"] = toleration.key
    if toleration.operator:
        entry["operator"] = toleration.operator
    if toleration.value and toleration.operator != "Exists":
        entry["value"] = toleration.value
    if toleration.effect:
        entry["effect"] = toleration.effect
    if toleration.toleration_seconds is not None:
        entry["tolerationSeconds"] = toleration.toleration_seconds
    return entry


def taint_manifest(taint: Taint) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": taint.key}
    if taint.value:
        entry["value"] = taint.value
    entry["effect"] = taint.effect
    return entry


def node_selector_requirement_manifest(requirement: NodeSelectorRequirement) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": requirement.key, "operator": requirement.operator}
    if requirement.values:
        entry["values"] = list(requirement.values)
    return entry


def node_selector_term_manifest(term: NodeSelectorTerm) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if term.match_expressions:
        entry["matchExpressions"] = [node_selector_requirement_manifest(r) for r in term.match_expressions]
    if term.match_fields:
        entry["matchFields"] = [node_selector_requirement_manifest(r) for r in term.match_fields]
    return entry


def label_selector_manifest(selector: LabelSelector | None) -> dict[str, Any] | None:
    if selector is None:
        return None
    entry: dict[str, Any] = {}
    if selector.match_labels:
        entry["matchLabels"] = dict(selector.match_labels)
    if selector.match_expressions:
        entry["matchExpressions"] = [
            {"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}
            for r in selector.match_expressions
        ]
    return entry


def spread_constraint_manifest(constraint: TopologySpreadConstraint) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "maxSkew": constraint.max_skew,
        "topologyKey": constraint.topology_key,
        "whenUnsatisfiable": constraint.when_unsatisfiable,
    }
    selector = label_selector_manifest(constraint.label_selector)
    if selector is not None:
        entry["labelSelector"] = selector
    return entry


def pod_affinity_term_manifest(term: PodAffinityTerm) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    selector = label_selector_manifest(term.label_selector)
    if selector is not None:
        entry["labelSelector"] = selector
    if term.namespaces:
        entry["namespaces"] = list(term.namespaces)
    entry["topologyKey"] = term.topology_key
    return entry

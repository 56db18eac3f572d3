"""NodeAffinity's fixes: the nodeSelector value changed to one the nodes have, the key or the failing
requirement removed, a value added to an In requirement; or the missing label put on the node."""

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from scheduler_core.api.manifest_writer import node_selector_term_manifest
from scheduler_core.api.selectors import NODE_NAME_FIELD, requirement_matches
from scheduler_core.api.types import (
    Affinity,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
)
from scheduler_core.explain.suggestions.candidates import (
    CHANGE_NODE_SELECTOR,
    LABEL_NODE,
    RELAX_AFFINITY_TERM,
    RELAX_NODE_SELECTOR,
    SCOPE_NODES,
    SCOPE_POD,
    Candidate,
    NodeChange,
    PodChange,
    Rejection,
    pod_target,
)
from scheduler_core.scheduler.plugins.node_affinity import ERR_REASON_ENFORCED


def _required_terms(pod: Pod) -> tuple[NodeSelectorTerm, ...]:
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None or affinity.node_affinity.required is None:
        return ()
    return affinity.node_affinity.required.node_selector_terms


def _requirement_holds(requirement: NodeSelectorRequirement, is_field: bool, node: Node) -> bool:
    if is_field:
        if requirement.key != NODE_NAME_FIELD or len(requirement.values) != 1:
            return False
        return requirement_matches(requirement, {NODE_NAME_FIELD: node.name})
    return requirement_matches(requirement, node.labels)


def _term_requirements(term: NodeSelectorTerm) -> list[tuple[NodeSelectorRequirement, bool]]:
    return [(r, False) for r in term.match_expressions] + [(r, True) for r in term.match_fields]


def _requirement_text(requirement: NodeSelectorRequirement) -> str:
    if requirement.operator in ("Exists", "DoesNotExist"):
        return f"{requirement.key} {requirement.operator}"
    return f"{requirement.key} {requirement.operator} [{', '.join(requirement.values)}]"


def _with_required(pod: Pod, required: NodeSelector | None) -> Pod:
    affinity = pod.spec.affinity or Affinity()
    node_affinity = affinity.node_affinity or NodeAffinity()
    affinity = replace(affinity, node_affinity=replace(node_affinity, required=required))
    return replace(pod, spec=replace(pod.spec, affinity=affinity))


def _required_yaml(required: NodeSelector | None) -> dict[str, Any]:
    block = (
        {"nodeSelectorTerms": [node_selector_term_manifest(t) for t in required.node_selector_terms]}
        if required
        else None
    )
    return {"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": block}}}}


def _closest(wanted: str, values: Iterable[str]) -> list[str]:
    """Distinct values, the likeliest fix of a typo first: fewest edits, then the longest common
    prefix (typos rarely hit the first letters), then the most common, then by name."""
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1

    def prefix(value: str) -> int:
        return next(
            (i for i, (a, b) in enumerate(zip(wanted, value, strict=False)) if a != b), min(len(wanted), len(value))
        )

    return sorted(counts, key=lambda v: (_edits(wanted, v), -prefix(v), -counts[v], v))


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, swaps of neighbours."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def _set_label(key: str, value: str) -> NodeChange:
    def change(node: Node) -> Node:
        labels = dict(node.labels)
        labels[key] = value
        return replace(node, metadata=replace(node.metadata, labels=labels))

    return change


def _remove_label(key: str) -> NodeChange:
    def change(node: Node) -> Node:
        labels = {k: v for k, v in node.labels.items() if k != key}
        return replace(node, metadata=replace(node.metadata, labels=labels))

    return change


def _label_candidate(node: Node, key: str, value: str | None, why: str) -> Candidate:
    """``value`` None removes the label."""
    if value is None:
        return Candidate(
            LABEL_NODE,
            f"Remove the label {key} from node {node.name} ({why})",
            {"metadata": {"labels": {key: None}}},
            f"Node {node.name}",
            SCOPE_NODES,
            f"unlabel:{key}",
            command=f"kubectl label nodes {node.name} {key}-",
            node_changes={node.name: _remove_label(key)},
        )
    overwrite = " --overwrite" if key in node.labels else ""
    verb = "Set" if key in node.labels else "Add"
    return Candidate(
        LABEL_NODE,
        f"{verb} the label {key}={value} on node {node.name} ({why})",
        {"metadata": {"labels": {key: value}}},
        f"Node {node.name}",
        SCOPE_NODES,
        f"label:{key}={value}",
        command=f"kubectl label nodes {node.name} {key}={value}{overwrite}",
        node_changes={node.name: _set_label(key, value)},
    )


def candidates(rejection: Rejection) -> list[Candidate]:
    pod, nodes, reasons = rejection.pod, rejection.nodes, rejection.reasons
    # The nodes the pod's own selector and affinity reject (not the scheduler-enforced addedAffinity).
    rejected = [info.node for info in nodes if ERR_REASON_ENFORCED not in reasons[info.name]]
    candidates: list[Candidate] = []
    selector = dict(pod.spec.node_selector)
    terms = _required_terms(pod)
    target = pod_target(pod)

    # spec.nodeSelector: the value one of the nodes has, or no such key at all.
    for key, wanted in selector.items():
        missing = [node for node in rejected if node.labels.get(key) != wanted]
        if not missing:
            continue
        for value in _closest(wanted, [n.labels[key] for n in missing if key in n.labels]):
            candidates.append(
                Candidate(
                    CHANGE_NODE_SELECTOR,
                    f"Change the pod's nodeSelector {key}: {wanted} to {key}: {value} (a value nodes have)",
                    {"spec": {"nodeSelector": {**selector, key: value}}},
                    target,
                    SCOPE_POD,
                    f"selector-value:{key}",
                    pod_change=_set_selector(key, value),
                )
            )
        rest = {k: v for k, v in selector.items() if k != key}
        candidates.append(
            Candidate(
                RELAX_NODE_SELECTOR,
                f"Remove {key}: {wanted} from the pod's nodeSelector",
                {"spec": {"nodeSelector": rest}},
                target,
                SCOPE_POD,
                f"selector-remove:{key}",
                pod_change=_set_selector(key, None),
            )
        )

    # Required node affinity: one requirement dropped, or a value added to an In requirement.
    for index, term in enumerate(terms):
        for requirement, is_field in _term_requirements(term):
            failing = [node for node in rejected if not _requirement_holds(requirement, is_field, node)]
            if not failing:
                continue
            if requirement.operator == "In" and not is_field:
                present = [n.labels[requirement.key] for n in failing if requirement.key in n.labels]
                for value in _closest(requirement.values[0], present):
                    widened = replace(requirement, values=(*requirement.values, value))
                    widened_terms = _with_requirement(terms, index, requirement, widened)
                    candidates.append(
                        Candidate(
                            RELAX_AFFINITY_TERM,
                            f"Add {value} to the values of the pod's node affinity requirement "
                            f"{_requirement_text(requirement)}",
                            _required_yaml(widened_terms),
                            target,
                            SCOPE_POD,
                            f"affinity-widen:{index}:{requirement}",
                            pod_change=_set_required(widened_terms),
                        )
                    )
            required = _without_requirement(terms, index, requirement)
            candidates.append(
                Candidate(
                    RELAX_AFFINITY_TERM,
                    f"Remove the requirement {_requirement_text(requirement)} from the pod's required node affinity",
                    _required_yaml(required),
                    target,
                    SCOPE_POD,
                    f"affinity-remove:{index}:{requirement}",
                    pod_change=_set_required(required),
                )
            )

    # A node that misses exactly one label (or has exactly one too many) gets it fixed.
    for node in rejected:
        label = _one_label_change(selector, terms, node)
        if label is not None:
            candidates.append(_label_candidate(node, *label))
    return candidates


def _set_selector(key: str, value: str | None) -> PodChange:
    def change(pod: Pod) -> Pod:
        selector = {k: v for k, v in pod.spec.node_selector.items() if k != key}
        if value is not None:
            selector = {**pod.spec.node_selector, key: value}
        return replace(pod, spec=replace(pod.spec, node_selector=selector))

    return change


def _set_required(required: NodeSelector | None) -> PodChange:
    def change(pod: Pod) -> Pod:
        return _with_required(pod, required)

    return change


def _with_requirement(
    terms: tuple[NodeSelectorTerm, ...],
    index: int,
    old: NodeSelectorRequirement,
    new: NodeSelectorRequirement,
) -> NodeSelector:
    term = terms[index]
    term = replace(
        term,
        match_expressions=tuple(new if r is old else r for r in term.match_expressions),
        match_fields=tuple(new if r is old else r for r in term.match_fields),
    )
    return NodeSelector((*terms[:index], term, *terms[index + 1 :]))


def _without_requirement(
    terms: tuple[NodeSelectorTerm, ...], index: int, requirement: NodeSelectorRequirement
) -> NodeSelector | None:
    """The terms without the requirement; a term left empty (it would match nothing) goes, and with
    it the whole required affinity when it was the only term."""
    term = terms[index]
    term = replace(
        term,
        match_expressions=tuple(r for r in term.match_expressions if r is not requirement),
        match_fields=tuple(r for r in term.match_fields if r is not requirement),
    )
    if term.match_expressions or term.match_fields:
        return NodeSelector((*terms[:index], term, *terms[index + 1 :]))
    rest = (*terms[:index], *terms[index + 1 :])
    return NodeSelector(rest) if rest else None


def _one_label_change(
    selector: Mapping[str, str], terms: tuple[NodeSelectorTerm, ...], node: Node
) -> tuple[str, str | None, str] | None:
    """(key, value or None to remove, why) when one label change makes the node match the pod's
    nodeSelector and required node affinity."""
    wrong = [(key, value) for key, value in selector.items() if node.labels.get(key) != value]
    terms_hold = not terms or any(
        all(_requirement_holds(r, f, node) for r, f in _term_requirements(term)) for term in terms
    )
    if len(wrong) == 1 and terms_hold:
        key, value = wrong[0]
        return key, value, "the pod's nodeSelector asks for it"
    if wrong:
        return None
    for term in terms:
        failing = [(r, f) for r, f in _term_requirements(term) if not _requirement_holds(r, f, node)]
        if len(failing) != 1 or failing[0][1]:
            continue
        requirement = failing[0][0]
        why = f"the pod's node affinity requires {_requirement_text(requirement)}"
        if requirement.operator == "In":
            return requirement.key, requirement.values[0], why
        if requirement.operator == "Exists":
            return requirement.key, "true", why
        if requirement.operator in ("NotIn", "DoesNotExist"):
            return requirement.key, None, why
    return None

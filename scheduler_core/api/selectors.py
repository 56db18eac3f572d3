"""Label selectors and node selector terms, matched as apimachinery and component-helpers do.

A nil (None) label selector selects nothing and an empty one ({}) everything. A node selector term
with neither expressions nor fields matches no node, and a term with an invalid requirement (In
with no values, Gt with a non-integer) is ignored, as upstream's parser rejects it.
"""

from collections.abc import Mapping
from functools import lru_cache

from scheduler_core.api.types import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)
from scheduler_core.api.validation import label_value_problem, qualified_name_problem

NODE_NAME_FIELD = "metadata.name"


def requirement_matches(
    requirement: LabelSelectorRequirement | NodeSelectorRequirement, labels: Mapping[str, str]
) -> bool:
    operator = requirement.operator
    if operator == "In":
        return requirement.key in labels and labels[requirement.key] in requirement.value_set
    if operator == "NotIn":
        return requirement.key not in labels or labels[requirement.key] not in requirement.value_set
    if operator == "Exists":
        return requirement.key in labels
    if operator == "DoesNotExist":
        return requirement.key not in labels
    if operator in ("Gt", "Lt"):
        if requirement.key not in labels:
            return False
        try:
            have, bound = int(labels[requirement.key]), int(requirement.values[0])
        except (ValueError, IndexError):
            return False
        return have > bound if operator == "Gt" else have < bound
    return False


def _requirement_is_valid(requirement: LabelSelectorRequirement | NodeSelectorRequirement) -> bool:
    """labels.NewRequirement's checks: a valid key, and values that are valid label values."""
    # Keyed by the value set, whose hash is computed once: the requirement's own hash goes over
    # its values tuple on every call (for every node, with thousands of values).
    values = requirement.values
    return _validity(
        requirement.key, requirement.operator, requirement.value_set, len(values), values[0] if values else ""
    )


@lru_cache(maxsize=8192)
def _validity(key: str, operator: str, value_set: frozenset[str], count: int, first: str) -> bool:
    """_requirement_is_valid's answer; `count` and `first` are the values' tuple as far as it matters
    beyond the set (a duplicated Gt bound is two values)."""
    if qualified_name_problem(key):
        return False
    if operator in ("In", "NotIn"):
        return count > 0 and not any(label_value_problem(value) for value in value_set)
    if operator in ("Exists", "DoesNotExist"):
        return count == 0
    if operator in ("Gt", "Lt"):
        if count != 1:
            return False
        try:
            int(first)
        except ValueError:
            return False
        return True
    return False


def label_selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    if selector is None:
        return False
    for key, value in selector.match_labels.items():
        if labels.get(key) != value:
            return False
    return all(requirement_matches(requirement, labels) for requirement in selector.match_expressions)


def node_selector_map_matches(node_selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    """spec.nodeSelector: every key=value must be on the node."""
    return all(labels.get(key) == value for key, value in node_selector.items())


def node_selector_term_matches(term: NodeSelectorTerm, node_name: str, labels: Mapping[str, str]) -> bool:
    if not term.match_expressions and not term.match_fields:
        return False
    for requirement in term.match_expressions:
        if not _requirement_is_valid(requirement) or not requirement_matches(requirement, labels):
            return False
    for requirement in term.match_fields:
        if requirement.key != NODE_NAME_FIELD or requirement.operator not in ("In", "NotIn"):
            return False
        if len(requirement.values) != 1:
            return False
        if not requirement_matches(requirement, {NODE_NAME_FIELD: node_name}):
            return False
    return True


def node_selector_matches(selector: NodeSelector, node_name: str, labels: Mapping[str, str]) -> bool:
    """Terms are ORed; an empty list of terms matches nothing."""
    return any(node_selector_term_matches(term, node_name, labels) for term in selector.node_selector_terms)

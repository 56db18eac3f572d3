"""Label and node selector matching (scheduler_core/api/selectors.py): requirements of many values
are looked up as sets, and what is valid is what labels.NewRequirement accepts."""

import pytest

from scheduler_core.api.selectors import node_selector_matches, requirement_matches
from scheduler_core.api.types import (
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)
from scheduler_core.controllers.naming import _plain, template_hash

MANY = tuple(f"value-{index}" for index in range(10_000))


def term(*requirements: NodeSelectorRequirement) -> NodeSelector:
    return NodeSelector((NodeSelectorTerm(match_expressions=requirements),))


@pytest.mark.parametrize("kind", [LabelSelectorRequirement, NodeSelectorRequirement])
def test_in_and_not_in_over_ten_thousand_values(kind: type) -> None:
    listed, unlisted = {"zone": "value-9999"}, {"zone": "elsewhere"}
    assert requirement_matches(kind("zone", "In", MANY), listed)
    assert not requirement_matches(kind("zone", "In", MANY), unlisted)
    assert not requirement_matches(kind("zone", "NotIn", MANY), listed)
    assert requirement_matches(kind("zone", "NotIn", MANY), unlisted)
    assert requirement_matches(kind("zone", "NotIn", MANY), {})  # no such label: not in


def test_requirements_with_the_same_values_in_another_order_are_equal_only_as_written() -> None:
    # The value set is derived: equality, hashing and repr are about the values as written.
    first, second = NodeSelectorRequirement("k", "In", ("a", "b")), NodeSelectorRequirement("k", "In", ("b", "a"))
    assert first.value_set == second.value_set
    assert first != second
    assert first == NodeSelectorRequirement("k", "In", ("a", "b")) and hash(first) == hash(("k", "In", ("a", "b")))
    assert "value_set" not in repr(first)


@pytest.mark.parametrize(
    ("requirement", "matches"),
    [
        (NodeSelectorRequirement("size", "Gt", ("3",)), True),
        (NodeSelectorRequirement("size", "Gt", ("3", "3")), False),  # one bound, however repeated
        (NodeSelectorRequirement("size", "Lt", ("x",)), False),
        (NodeSelectorRequirement("zone", "In", ()), False),
        (NodeSelectorRequirement("zone", "In", ("a", "bad value")), False),  # not a label value
        (NodeSelectorRequirement("zone", "In", (*MANY, "a")), True),
        (NodeSelectorRequirement("zone", "Exists", ("a",)), False),
        (NodeSelectorRequirement("bad key!", "Exists"), False),
    ],
)
def test_a_term_with_an_invalid_requirement_matches_no_node(requirement: NodeSelectorRequirement, matches: bool):
    labels = {"size": "5", "zone": "a"}
    assert node_selector_matches(term(requirement), "node-1", labels) is matches


def test_a_templates_hash_is_over_its_content_not_the_derived_value_sets() -> None:
    requirement = NodeSelectorRequirement("zone", "In", ("a", "b"))
    assert _plain(requirement) == {"key": "zone", "operator": "In", "values": ["a", "b"]}
    assert template_hash(requirement) == template_hash({"key": "zone", "operator": "In", "values": ["a", "b"]})

"""block_yaml writes PyYAML's bytes for the documents it takes, and declines the rest."""

import string

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.block_yaml import block_yaml
from playground.scenarios import _dump

# Names, labels, taints and quantities, with the strings the resolver reads as something else.
TRICKY = [
    "4",
    "110",
    "16Gi",
    "100m",
    "true",
    "True",
    "yes",
    "no",
    "on",
    "off",
    "null",
    "~",
    "1e3",
    "1.5",
    ".5",
    ".inf",
    "-.inf",
    ".nan",
    "0x1F",
    "0o17",
    "017",
    "0b101",
    "1_000",
    "2024-01-31",
    "-1",
    "+1",
    "-abc",
    "a-b",
    "-",
    "--",
    "---x",
    "...",
    "..x",
    ".",
    "/",
    "a/b",
    "y",
    "n",
    "Y",
    "NULL",
    "=",
    "<<",
]
text = st.one_of(st.sampled_from(TRICKY), st.text(string.ascii_letters + string.digits + "._/-", max_size=12))
anything = st.one_of(text, st.text(max_size=8), st.booleans(), st.integers(-5, 10**12), st.none(), st.floats())
scalar = st.one_of(text, st.booleans(), st.integers(-5, 10**12))
tree = st.recursive(
    scalar,
    lambda inner: st.one_of(
        st.dictionaries(text, inner, max_size=4),
        st.lists(st.one_of(scalar, st.dictionaries(text, inner, max_size=3)), max_size=3),
    ),
    max_leaves=20,
)


def node(name: str, labels: dict, taints: list, unschedulable: bool) -> dict:
    manifest: dict = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": {"capacity": {"cpu": "4", "memory": "16Gi", "pods": "110", "nvidia.com/gpu": "1"}},
    }
    spec: dict = {}
    if taints:
        spec["taints"] = taints
    if unschedulable:
        spec["unschedulable"] = True
    if spec:
        manifest["spec"] = spec
    return manifest


def test_a_node_is_written_as_pyyaml_writes_it():
    manifest = node(
        "worker-1",
        {"kubernetes.io/hostname": "worker-1", "topology.kubernetes.io/zone": "zone-a", "gpu": "true", "empty": ""},
        [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}, {"key": "x", "effect": "NoExecute"}],
        True,
    )
    written = block_yaml(manifest)
    assert written == _dump(manifest)
    assert "cpu: '4'" in written and "gpu: 'true'" in written and "  - key: dedicated" in written


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(text, tree, max_size=5))
def test_any_document_it_takes_is_pyyamls_to_the_byte(document):
    written = block_yaml(document)
    if written is not None:
        assert written == _dump(document)
        assert written == yaml.safe_dump(document, sort_keys=False)  # the Python emitter agrees too


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(text, st.one_of(anything, st.lists(anything, max_size=3)), max_size=5))
def test_what_it_declines_is_left_to_pyyaml(document):
    written = block_yaml(document)
    assert written is None or written == _dump(document)


@pytest.mark.parametrize(
    "document",
    [
        {"a": "has space"},
        {"a": "colon:"},
        {"a": "ünïcode"},
        {"a": 1.5},
        {"a": None},
        {"a": [[1]]},
        {"k" * 101: "v"},
        {"a": "---"},
        {"a": "-"},
        {"": "v"},
    ],
)
def test_it_declines_what_it_does_not_write(document):
    assert block_yaml(document) is None

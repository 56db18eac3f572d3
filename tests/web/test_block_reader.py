"""The fast reader of an import's stripped YAML gives what PyYAML gives, or declines."""

import pytest
import yaml

from playground.block_reader import block_yaml
from playground.import_strip import strip_text
from tests.web.kubectl_output import nodes_yaml, pods_yaml


@pytest.mark.parametrize("text", [nodes_yaml(20), pods_yaml(60, 20)])
def test_the_block_reader_reads_stripped_kubectl_output_as_pyyaml_does(text):
    stripped = strip_text(text.splitlines(keepends=True))
    assert block_yaml(stripped) == yaml.safe_load(stripped)


@pytest.mark.parametrize(
    "text",
    [
        "a: |\n  text\n",  # block scalar
        "a: [1,\n  2]\n",  # multi-line flow
        "a: &x 1\nb: *x\n",  # anchors
        "a: 1\na: 2\n",  # duplicate key
        "a: !!str 1\n",  # tag
        "a: 1\n---\nb: 2\n",  # two documents
        "a:\n  b: 1\n   c: 2\n",  # odd indentation
        "a: 1\rb: 2\n",  # a line break PyYAML reads and "\n" is not
        "a: 1\u2028b: 2\n",
        "a:\n  b: 1\n  ...\n",  # a document end marker
        "%YAML 1.1\na: 1\n",  # a directive
    ],
)
def test_the_block_reader_leaves_anything_else_to_pyyaml(text):
    assert block_yaml(text) is None


def test_the_block_reader_resolves_scalars_as_pyyaml_does():
    text = (
        "a: 1\nb: '2'\nc: \"x y\"\nd: true\ne: null\nf: ~\ng: 1.5\nh: registry:5000/img\ni: {x: [1, two]}\n"
        "j:\n- - 1\n  - 2\n- k: v\n  l:\n  - m\nn: on\n'o': 0x1F\np: 2026-12-03\n"
    )
    assert block_yaml(text) == yaml.safe_load(text)


def test_blank_lines_comments_and_trailing_spaces_are_read_as_pyyaml_does():
    text = "a:\n\n  # note\n  b: 1   \n      \n  c:\n  - x  \n# end\n"
    assert block_yaml(text) == yaml.safe_load(text) == {"a": {"b": 1, "c": ["x"]}}

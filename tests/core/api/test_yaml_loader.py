"""The YAML loader (scheduler_core/api/yaml_loader.py): libyaml reads what it can, and gives the
same documents, data and lines as the pure-Python parser; whatever it finds wrong is read again by
the Python parser, so users see its messages and lines."""

from pathlib import Path
from typing import Any

import pytest

from scheduler_core.api import yaml_loader
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.yaml_loader import MarkedDict, MarkedList, load_documents

ROOT = Path(__file__).resolve().parents[3]
CORPUS = sorted(
    [*ROOT.glob("playground/gallery/*.yaml"), *ROOT.glob("tests/core/data/*.yaml")],
    key=lambda path: path.name,
)


def marked(value: Any) -> Any:
    """The data with every line the loader kept, for comparing two loads."""
    if isinstance(value, MarkedDict):
        return ("map", value.line, value.key_lines, {key: marked(item) for key, item in value.items()})
    if isinstance(value, MarkedList):
        return ("seq", value.line, value.item_lines, [marked(item) for item in value])
    return (type(value).__name__, value)


def python_documents(text: str) -> list[tuple[int, int, Any]]:
    return [(doc.index, doc.line, marked(doc.data)) for doc in yaml_loader._iter_documents(text, "test")]


def test_libyaml_is_there_and_used():
    assert yaml_loader._FAST_BASE is not None


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_libyaml_reads_every_gallery_and_test_file_as_the_python_parser_does(path: Path):
    text = path.read_text()
    fast = [(doc.index, doc.line, marked(doc.data)) for doc in yaml_loader._fast_documents(text)]
    assert fast == python_documents(text)


@pytest.mark.parametrize(
    "text",
    [
        "on: yes\n1: 2\nnull: ~\nf: 1.5e3\nd: 2024-01-01\n",  # YAML 1.1 keys and scalars
        "a: |\n  two\n  lines\nb: >-\n  folded\n  text\n",
        "---\n---\nkind: Pod\n...\n---\n# only a comment\n",  # empty documents are skipped, counted
        "a: !!str 5\nb: !!int '7'\nc: [1, {d: e}]\n",
    ],
)
def test_libyaml_agrees_on_scalars_styles_and_empty_documents(text: str):
    assert [(doc.index, doc.line, marked(doc.data)) for doc in load_documents(text)] == python_documents(text)


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("a: &x [1]\nb: *x\n", "aliases (*name) are not accepted; write the value out in full", 2),
        ("a: 1\na: 2\n", 'duplicate key "a"', 2),
        ("a: [1\nb: 2\n", "invalid YAML:", 2),
        ("a: !!float ''\n", 'invalid YAML: the float value "" cannot be read', 1),
        ("a: 1\n\x07b: 2\n", "invalid YAML: unacceptable character #x0007", 2),
    ],
)
def test_what_libyaml_refuses_is_named_as_the_python_parser_names_it(text: str, message: str, line: int):
    with pytest.raises(ManifestError) as refused:
        load_documents(text)
    assert refused.value.message.startswith(message) and refused.value.line == line


def test_too_many_nodes_are_refused_with_the_python_parsers_line(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(yaml_loader, "MAX_YAML_NODES", 10)
    with pytest.raises(ManifestError) as refused:
        load_documents("a: [1, 2, 3]\nb: [4, 5, 6]\nc: [7, 8, 9]\n")
    assert refused.value.message == "too many YAML nodes (more than 10)"
    assert refused.value.line == 2  # the eleventh node, 5 in b

"""Multi-document YAML with line numbers kept, safely.

PyYAML's safe constructors build the data; each mapping and sequence remembers the line of every
key and item, so an error deep in a manifest can name its line. Aliases are refused (a "billion
laughs" document costs nothing to reject), and the text and node count are bounded.

Text is parsed by libyaml when PyYAML has it (five times faster: 500 nodes read in a tenth of a
second). Whatever it finds wrong, or a character PyYAML's own reader refuses, sends the text to
the pure-Python parser, whose messages and lines are the ones users are shown.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from scheduler_core.api.errors import ManifestError

# Bounds on what one parse may cost, sized for the largest scenario the playground holds (5,000
# Nodes, about 4 MiB and 80,000 YAML nodes, beside a workload) and an imported cluster's pods (a
# cleaned pod with labels, an affinity and requests is about 55 YAML nodes and 500 bytes: 50,000
# of them are 25 MiB and 2,750,000 YAML nodes; a parse of the whole is about 20 s and 1 GiB). The
# node bound leaves room for playground/workload_changes.py's estimate of them (which counts
# characters, about 1.6 times too many for such pods). Past them, the text is refused before it is
# composed into objects.
MAX_YAML_BYTES = 36 * 1024 * 1024
MAX_YAML_NODES = 5_000_000
MAX_DOCUMENTS = 60_000


class MarkedDict(dict[str, Any]):
    """A mapping that knows its own line and the line of each key (1-based)."""

    line: int
    key_lines: dict[str, int]


class MarkedList(list[Any]):
    """A sequence that knows its own line and the line of each item (1-based)."""

    line: int
    item_lines: list[int]


@dataclass(frozen=True, slots=True)
class YamlDocument:
    index: int  # 1-based position in the file
    line: int  # first line of the document
    data: Any


_CONSTRUCTION_ERRORS = (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError)


def _unreadable(node: Any) -> ManifestError:
    tag = str(node.tag).rsplit(":", 1)[-1]
    shown = f' "{node.value[:40]}"' if isinstance(node.value, str) else ""
    return ManifestError("", "", f"invalid YAML: the {tag} value{shown} cannot be read", node.start_mark.line + 1)


class _MarkedConstruction(yaml.constructor.SafeConstructor):
    """The constructors of both loaders: marked mappings and sequences, readable errors."""

    # PyYAML's safe constructors fail with plain Python errors on some explicitly tagged values
    # (`!!float ""`, `!!bool maybe`, `!!set` on a sequence): report them as the node's YAML error.
    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except _CONSTRUCTION_ERRORS:
            raise _unreadable(node) from None

    def construct_document(self, node: Any) -> Any:
        try:
            return super().construct_document(node)
        except _CONSTRUCTION_ERRORS:
            raise _unreadable(node) from None

    def construct_mapping(self, node: Any, deep: bool = False) -> MarkedDict:  # type: ignore[override]
        mapping = MarkedDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                # Kubernetes field names and label keys are strings; YAML 1.1 turns `on:` or `1:` into others.
                key = str(key).lower() if isinstance(key, bool) else str(key)
            if key in mapping:
                raise ManifestError("", "", f'duplicate key "{key}"', key_node.start_mark.line + 1)
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.key_lines[key] = key_node.start_mark.line + 1
        return mapping

    def construct_sequence(self, node: Any, deep: bool = False) -> MarkedList:
        sequence = MarkedList(self.construct_object(child, deep=True) for child in node.value)
        sequence.line = node.start_mark.line + 1
        sequence.item_lines = [child.start_mark.line + 1 for child in node.value]
        return sequence


class _MarkedLoader(_MarkedConstruction, yaml.SafeLoader):
    """SafeLoader that records marks and refuses aliases, as it composes."""

    nodes_seen: int

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise ManifestError(
                "", "", "aliases (*name) are not accepted; write the value out in full", event.start_mark.line + 1
            )
        self.nodes_seen += 1
        if self.nodes_seen > MAX_YAML_NODES:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise ManifestError("", "", f"too many YAML nodes (more than {MAX_YAML_NODES})", event.start_mark.line + 1)
        return super().compose_node(parent, index)


_FAST_BASE: Any = getattr(yaml, "CSafeLoader", None)


class _FastCheckFailed(Exception):
    """libyaml's document holds an alias or too many nodes: the Python loader says which, where."""


if _FAST_BASE is not None:

    class _FastMarkedLoader(_MarkedConstruction, _FAST_BASE):  # type: ignore[misc]
        """libyaml composes (in C, so compose_node cannot be overridden): each document's node
        tree is walked before it is constructed instead, for aliases and the node bound."""

        nodes_seen: int

        def check_document(self, root: Any) -> None:
            seen: set[int] = set()
            stack = [root]
            while stack:
                node = stack.pop()
                if id(node) in seen:  # the same node twice: an alias
                    raise _FastCheckFailed
                seen.add(id(node))
                self.nodes_seen += 1
                if self.nodes_seen > MAX_YAML_NODES:
                    raise _FastCheckFailed
                if isinstance(node, yaml.MappingNode):
                    for key, value in node.value:
                        stack.append(key)
                        stack.append(value)
                elif isinstance(node, yaml.SequenceNode):
                    stack.extend(node.value)

    for _loader in (_MarkedLoader, _FastMarkedLoader):
        _loader.add_constructor("tag:yaml.org,2002:map", _loader.construct_mapping)  # type: ignore[type-var]
        _loader.add_constructor("tag:yaml.org,2002:seq", _loader.construct_sequence)  # type: ignore[type-var]
else:  # pragma: no cover - PyYAML built without libyaml
    _MarkedLoader.add_constructor("tag:yaml.org,2002:map", _MarkedLoader.construct_mapping)  # type: ignore[type-var]
    _MarkedLoader.add_constructor("tag:yaml.org,2002:seq", _MarkedLoader.construct_sequence)  # type: ignore[type-var]


def load_documents(text: str, source: str = "input") -> list[YamlDocument]:
    """Every non-empty document of a multi-document YAML text."""
    if len(text.encode("utf-8", errors="replace")) > MAX_YAML_BYTES:
        raise ManifestError("", "", f"the YAML is larger than {MAX_YAML_BYTES // (1024 * 1024)} MiB")
    if _FAST_BASE is not None and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        try:
            return list(_fast_documents(text))
        except (_FastCheckFailed, ManifestError, yaml.YAMLError, RecursionError):
            pass  # the Python loader below finds the same problem and names it as users are shown
    return list(_iter_documents(text, source))


def _fast_documents(text: str) -> Iterator[YamlDocument]:
    loader = _FastMarkedLoader(text)  # type: ignore[call-arg]  # libyaml's loader takes the stream
    loader.nodes_seen = 0
    index = 0
    try:
        while loader.check_node():
            node = loader.get_node()
            index += 1
            if index > MAX_DOCUMENTS:
                raise _FastCheckFailed
            if node is None:
                continue
            loader.check_document(node)
            data = loader.construct_document(node)
            if data is not None:
                yield YamlDocument(index=index, line=node.start_mark.line + 1, data=data)
    finally:
        loader.dispose()


def _iter_documents(text: str, source: str) -> Iterator[YamlDocument]:
    try:
        loader = _MarkedLoader(text)  # the reader refuses control characters here, before any document
    except yaml.reader.ReaderError as error:
        message = f"invalid YAML: unacceptable character #x{error.character:04x}: {error.reason}"
        raise ManifestError("", "", message, text.count("\n", 0, error.position) + 1) from None
    loader.nodes_seen = 0
    index = 0
    constructing = False  # errors name the document being composed (index + 1) or constructed (index)
    try:
        while loader.check_node():
            node = loader.get_node()
            index += 1
            if index > MAX_DOCUMENTS:
                raise ManifestError("", "", f"more than {MAX_DOCUMENTS} YAML documents")
            if node is None:
                continue
            constructing = True
            data = loader.construct_document(node)
            constructing = False
            if data is None:
                continue
            yield YamlDocument(index=index, line=node.start_mark.line + 1, data=data)
    except ManifestError as error:
        where = f"document {index if constructing else index + 1}"
        raise ManifestError(where, error.path, error.message, error.line) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = error.problem or error.context or "invalid YAML"
        where = f"document {index if constructing else index + 1}"
        raise ManifestError(where, "", f"invalid YAML: {problem}", line) from None
    except yaml.YAMLError as error:
        raise ManifestError("", "", f"invalid YAML: {error}") from None
    except RecursionError:
        raise ManifestError("", "", "the YAML is nested too deeply") from None
    finally:
        loader.dispose()

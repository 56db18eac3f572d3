"""Import a real cluster: the output of `kubectl get nodes -o yaml` becomes the node board, and
`kubectl get pods -A -o yaml` (optional) becomes bound Pods in the workload, cleaned of what the
scheduler never reads (status, managedFields, volumes...). The engine's parser validates both, so
an import error names the document, the field and the line.

At real size (5,000 nodes are about 19 MB of kubectl YAML, 50,000 pods hundreds of MB) most of the
text is what the engine never reads: managedFields, images, conditions, annotations, probes,
environments. `strip_text` drops those blocks line by line while the text is read (streamed, from a
file, gzip or not), before any YAML is composed: a dropped line is left empty, so the line numbers
the engine's errors give are those of the text the user sent. What is left is parsed once."""

import gzip
import io
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import yaml

from playground import import_json
from playground.scenarios import MAX_IMPORT_WORKLOAD_BYTES, MAX_NODES, InvalidEdit
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.yaml_loader import MAX_YAML_BYTES, YamlDocument, load_documents
from scheduler_core.errors import ManifestError

# The pod fields that matter for scheduling, kept as they are.
POD_SPEC_KEEP = (
    "nodeName", "nodeSelector", "affinity", "tolerations", "topologySpreadConstraints", "schedulerName",
    "priority", "preemptionPolicy", "overhead", "resources", "hostNetwork", "terminationGracePeriodSeconds",
    "restartPolicy",
)  # fmt: skip
CONTAINER_KEEP = ("name", "image", "resources", "ports", "restartPolicy")

# What the text filter keeps, by the path of the mapping a key is in (an object's own keys at ()):
# keys of these mappings that are not listed are dropped. Mappings not listed keep everything.
_KEEP: dict[tuple[str, ...], frozenset[str]] = {
    (): frozenset({"apiVersion", "kind", "metadata", "spec", "status", "items"}),
    ("metadata",): frozenset({"name", "namespace", "labels"}),
    ("spec",): frozenset({*POD_SPEC_KEEP, "containers", "initContainers", "taints", "unschedulable"}),
    ("spec", "containers"): frozenset(CONTAINER_KEEP),
    ("spec", "initContainers"): frozenset(CONTAINER_KEEP),
    ("status",): frozenset({"phase", "capacity", "allocatable"}),
}
_KEY_LINE = re.compile(r"( *)(- +)?([A-Za-z_][\w./-]*|\"[^\"]*\"|'[^']*'):(?: +(.*))?$")
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*(?: +#.*)?$")

# Bounds on one import (the settings may lower or raise them; see import_limits).
DEFAULT_MAX_IMPORT_BYTES = 512 * 2**20  # decompressed text: 50,000 pods with managedFields fit
DEFAULT_MAX_IMPORT_UPLOAD_BYTES = 128 * 2**20  # one uploaded file as sent (gzip or not)
_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20


@dataclass(slots=True)
class Imported:
    nodes: list[dict[str, Any]]
    workload_yaml: str
    skipped_pods: int  # finished pods and pods on nodes not imported
    pods_read: bool = False  # any Pod in either input (the workload is then replaced by the imported one)


def import_limits() -> tuple[int, int]:
    """(decompressed text bound, uploaded file bound) in bytes, from the settings."""
    from django.conf import settings

    return (
        getattr(settings, "IMPORT_MAX_BYTES", DEFAULT_MAX_IMPORT_BYTES),
        getattr(settings, "IMPORT_MAX_UPLOAD_BYTES", DEFAULT_MAX_IMPORT_UPLOAD_BYTES),
    )


def mib(amount: int) -> str:
    """A size as people read it: "768 MiB", "9.77 KiB", "105 bytes"."""
    if amount >= 2**20:
        return f"{amount / 2**20:.3g} MiB" if amount < 100 * 2**20 else f"{round(amount / 2**20):,} MiB"
    return f"{amount / 2**10:.3g} KiB" if amount >= 2**10 else f"{amount} bytes"


# ---------------------------------------------------------------------------- reading


class Upload:
    """The lines of an uploaded file (see read_upload), and how much of the file, as sent, has been
    read: what an import's progress is measured by (a gzip's decompressed size is not known)."""

    def __init__(self, lines: Iterator[str], raw: "_Prefixed") -> None:
        self._lines, self._raw = lines, raw

    def __iter__(self) -> Iterator[str]:
        return self._lines

    def fraction(self) -> float:
        return self._raw.fraction()


def read_upload(stream: IO[bytes], what: str, max_bytes: int, *, size: int = 0) -> Upload:
    """The lines of an uploaded file of `size` bytes, gunzipped when it starts with gzip's magic
    bytes, as UTF-8. Reading stops past `max_bytes` of text (a small gzip can expand a
    thousandfold)."""
    head = stream.read(2)
    prefixed = _Prefixed(head, stream, size)
    raw = io.BufferedReader(prefixed)
    source: IO[bytes] = gzip.GzipFile(fileobj=raw) if head == _GZIP_MAGIC else raw  # type: ignore[assignment]
    text = io.TextIOWrapper(_Bounded(source, max_bytes, what), encoding="utf-8", errors="strict", newline=None)
    return Upload(_decoded(text, what), prefixed)


def _decoded(text: IO[str], what: str) -> Iterator[str]:
    """The text in pieces of about _CHUNK characters, each ending a line. Not line by line: kubectl's
    JSON of 50,000 pods is millions of short lines, and passing each through the readers' Python
    loops was 43 % of py-spy's samples of reading its pods (a third less time since, in process)."""
    try:
        while piece := text.read(_CHUNK):
            if not piece.endswith("\n"):
                piece += text.readline()
            yield piece
    except UnicodeDecodeError:
        raise InvalidEdit(f"{what}: the file is not UTF-8 text (nor gzip-compressed UTF-8 text)") from None
    except (gzip.BadGzipFile, EOFError, OSError, ValueError) as error:
        raise InvalidEdit(f"{what}: the gzip file cannot be read ({error})") from None


class _Prefixed(io.RawIOBase):
    """A stream with the bytes already read from it put back in front."""

    def __init__(self, head: bytes, rest: IO[bytes], size: int = 0) -> None:
        self._head, self._rest = head, rest
        self._size, self._read = size, len(head)

    def fraction(self) -> float:
        return min(self._read / self._size, 1.0) if self._size else 0.0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        self._read += len(data)
        return len(data)


class _Bounded(io.RawIOBase):
    """Reads at most `limit` bytes from a stream; one byte more is an InvalidEdit naming the limit."""

    def __init__(self, source: IO[bytes], limit: int, what: str) -> None:
        self._source, self._left, self._limit, self._what = source, limit, limit, what

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._source.read(min(len(buffer), _CHUNK))
        if len(data) > self._left:
            raise InvalidEdit(
                f"{self._what}: more than {mib(self._limit)} of YAML once decompressed, the most an import"
                " reads: import fewer nodes or namespaces"
            )
        self._left -= len(data)
        buffer[: len(data)] = data
        return len(data)


def check_size(text: str, what: str, max_bytes: int) -> None:
    if len(text) > max_bytes:  # characters: a lower bound of the bytes
        raise InvalidEdit(f"{what}: more than {mib(max_bytes)} of YAML, the most an import reads")


def _lines(pieces: Iterable[str]) -> Iterator[str]:
    """Lines, from pieces of text that may hold several lines or part of one."""
    partial = ""
    for piece in pieces:
        if partial:
            piece, partial = partial + piece, ""
        if piece.endswith("\n") and piece.count("\n") == 1:  # already a line: the usual case
            yield piece
            continue
        lines = piece.splitlines(keepends=True)
        if lines and not lines[-1].endswith(("\n", "\r")):
            partial = lines.pop()
        yield from lines
    if partial:
        yield partial


# ---------------------------------------------------------------------------- stripping


def strip_text(lines: Iterable[str]) -> str:
    """The YAML without the blocks the engine never reads (see _KEEP), each dropped line left empty.
    Only block-style YAML as kubectl writes it is stripped; flow collections spanning lines, block
    scalars and anything unrecognised are kept as they are, so the result always means the same
    objects minus dropped keys (and a text this misreads still parses: see _documents)."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (column of the key, key) of the mappings the line is in
    drop_above: int | None = None  # inside a dropped block: lines indented more than this go
    drop_column = -1
    raw_above: int | None = None  # inside a block scalar or a multi-line flow value: kept as is
    flow_depth = 0
    for line in lines:
        body = line.rstrip("\r\n")
        stripped = body.lstrip(" ")
        if flow_depth > 0:  # a flow collection spanning lines: kept, unless in a dropped block
            flow_depth += _depth_change(stripped)
            out.append("\n" if drop_above is not None else body + "\n")
            continue
        if not stripped or stripped.startswith("#"):
            out.append("\n" if drop_above is not None else body + "\n")
            continue
        indent = len(body) - len(stripped)
        if raw_above is not None:
            if indent > raw_above:
                out.append("\n" if drop_above is not None else body + "\n")
                continue
            raw_above = None
        if drop_above is not None:
            if indent > drop_above or (indent == drop_above and stripped.startswith("- ") and drop_column == indent):
                out.append("\n")
                continue
            drop_above = None
        if stripped.startswith(("---", "...")) and indent == 0:
            stack.clear()
            out.append(body + "\n")
            continue
        match = _KEY_LINE.match(body)
        if match is None:
            out.append(body + "\n")
            if stripped.startswith("- "):  # an item that is not a mapping: leave the levels as they are
                while stack and stack[-1][0] > indent:
                    stack.pop()
            continue
        spaces, dash, key, value = match.group(1), match.group(2), match.group(3), match.group(4) or ""
        column = len(spaces) + (len(dash) if dash else 0)
        if dash:
            while stack and stack[-1][0] > indent:
                stack.pop()
        else:
            while stack and stack[-1][0] >= column:
                stack.pop()
        path = tuple(name for _, name in stack)
        if path[:1] == ("items",):
            path = path[1:]
        kept = _KEEP.get(path)
        key = key.strip("\"'")
        if kept is not None and key not in kept:
            if dash:
                out.append(f"{spaces}-\n")  # the item stays; its other keys follow, indented
            else:
                out.append("\n")
            drop_above, drop_column = column, column
            if value and value[0] in "[{":
                flow_depth = _depth_change(value)
            continue
        out.append(body + "\n")
        stack.append((column, key))
        if value:
            if _BLOCK_SCALAR.match(value):
                raw_above = column
            elif value[0] in "[{":
                flow_depth = _depth_change(value)
            stack.pop()  # a value on the line: nothing nests under this key
    return "".join(out)


def _depth_change(text: str) -> int:
    """How many flow collections the text opens and does not close (quotes taken into account)."""
    depth = 0
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "#" and (index == 0 or text[index - 1] == " "):
            break
        index += 1
    return depth


# ---------------------------------------------------------------------------- parsing


def _error(what: str, error: ManifestError) -> InvalidEdit:
    where = f"line {error.line}: " if error.line else ""
    subject = " ".join(part for part in (error.document, error.path) if part)
    return InvalidEdit(f"{what}: {where}{subject + ': ' if subject else ''}{error.message}")


def _documents(
    text: str, what: str, original: list[str] | None = None, progress: Callable[[float], None] | None = None
) -> list[dict[str, Any]]:
    """Every Node or Pod (Lists expanded), each validated by the engine; an error names the
    document, the field and the line. When the stripped text does not parse (a YAML the filter
    misread), the text as sent is parsed instead, for the error the user should see. `progress` is
    told the part of the text done after each batch."""
    items: list[dict[str, Any]] = []
    for batch, offset, done in _batches(text):
        if progress is not None:
            progress(done)
        quick = _quickly(batch)
        if quick is not None:
            items.extend(quick)
            continue
        try:
            documents = load_documents(batch, what)
        except ManifestError as error:
            if original is not None:
                return _documents("".join(original), what)
            raise _error(what, _shifted(error, offset)) from None
        try:
            items.extend(_validated(documents))
        except ManifestError as error:
            raise _error(what, _shifted(error, offset)) from None
    return items


ITEMS_PER_BATCH = 2000  # a batch's YAML nodes stay well under the loader's bound (MAX_YAML_NODES)
_LIST_HEADER = "apiVersion: v1\nkind: List\nitems:\n"


def _batches(text: str) -> Iterator[tuple[str, int, float]]:
    """The text in parts the loader takes one at a time, each with the number of lines to add to
    its line numbers and the part of the text before it: a kubectl List (`items:` then `- ` items at
    the margin) is cut every ITEMS_PER_BATCH items, each part a List of its own; any other text is
    one part."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("items:"))
    except StopIteration:
        yield text, 0, 0.0
        return
    if lines[start].strip() != "items:" or any(
        line.strip() and not line.startswith(("apiVersion:", "kind:", "metadata:", "items:", " ", "#"))
        for line in lines[:start]
    ):
        yield text, 0, 0.0
        return
    header = len(_LIST_HEADER.splitlines())
    item_starts = [i for i in range(start + 1, len(lines)) if lines[i].startswith("- ")]
    end = next(
        (i for i in range(item_starts[-1] if item_starts else start + 1, len(lines))
         if lines[i].strip() and not lines[i].startswith(("- ", " ", "#"))),
        len(lines),
    )  # fmt: skip
    if len(item_starts) <= ITEMS_PER_BATCH or any(
        lines[i].strip() and not lines[i].startswith(("- ", " ", "#")) for i in range(start + 1, end)
    ):
        yield text, 0, 0.0
        return
    for first in range(0, len(item_starts), ITEMS_PER_BATCH):
        begin = item_starts[first]
        stop = item_starts[first + ITEMS_PER_BATCH] if first + ITEMS_PER_BATCH < len(item_starts) else end
        yield _LIST_HEADER + "".join(lines[begin:stop]), begin - header, first / len(item_starts)


_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)


def _quickly(batch: str) -> list[dict[str, Any]] | None:
    """The batch's objects read by libyaml without line marks (a third faster), when nothing in it
    needs the engine's careful loader: no anchor or alias can be in a text without & and *, and
    the size is within the loader's bound. Anything wrong (a YAML error, a field the engine
    refuses) gives None: the careful loader reads the batch again and names the line."""
    if _FAST_LOADER is None or "&" in batch or "*" in batch or len(batch) > MAX_YAML_BYTES:
        return None
    try:
        data = block_yaml(batch)
        if data is not None:
            documents = [YamlDocument(index=1, line=0, data=data)]
        else:
            documents = [
                YamlDocument(index=index, line=0, data=data)
                for index, data in enumerate(yaml.load_all(batch, Loader=_FAST_LOADER), start=1)
                if data is not None
            ]
        return list(_validated(documents))
    except (yaml.YAMLError, ManifestError, ValueError, TypeError, AttributeError, KeyError, RecursionError):
        return None


class _NotPlain(Exception):
    """The text holds YAML block_yaml does not read: PyYAML reads it instead."""


def block_yaml(text: str) -> Any:
    """One YAML document in the block style kubectl writes (mappings, sequences, plain and quoted
    one-line scalars, one-line flow values), read line by line, ten times faster than PyYAML's
    node-per-scalar construction. Scalars are resolved by libyaml itself (one value at a time,
    cached), so they mean what PyYAML makes of them. Anything else (block scalars, multi-line flow
    or quoted values, anchors, tags, several documents, duplicate keys) gives None."""
    indents: list[int] = []
    bodies: list[str] = []
    for line in text.splitlines():
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        if "\t" in line[: len(line) - len(body)] or body.startswith(("---", "...", "%")):
            return None
        indents.append(len(line) - len(body))
        bodies.append(body.rstrip())
    if not bodies:
        return None
    reader = _BlockReader(indents, bodies)
    try:
        value, end = reader.block(0, indents[0])
    except (_NotPlain, RecursionError, yaml.YAMLError):
        return None
    return value if end == len(bodies) else None


class _BlockReader:
    def __init__(self, indents: list[int], bodies: list[str]) -> None:
        self.indents, self.bodies, self.cache = indents, bodies, dict[str, Any]()

    def block(self, index: int, indent: int) -> tuple[Any, int]:
        body = self.bodies[index]
        if body == "-" or body.startswith("- "):
            return self.sequence(index, indent)
        return self.mapping(index, indent)

    def sequence(self, index: int, indent: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        indents, bodies = self.indents, self.bodies
        while index < len(bodies) and indents[index] == indent and (bodies[index] == "-" or bodies[index][:2] == "- "):
            rest = bodies[index][1:].lstrip(" ")
            if not rest:
                if index + 1 < len(bodies) and indents[index + 1] > indent:
                    value, index = self.block(index + 1, indents[index + 1])
                else:
                    value, index = None, index + 1
            elif rest == "-" or rest.startswith("- ") or _mapping_key(rest) is not None:
                indents[index] = indent + len(bodies[index]) - len(rest)
                bodies[index] = rest
                value, index = self.block(index, indents[index])
            else:
                value, index = self.scalar(rest), index + 1
            items.append(value)
        if index < len(bodies) and indents[index] > indent:
            raise _NotPlain
        return items, index

    def mapping(self, index: int, indent: int) -> tuple[dict[str, Any], int]:
        mapping: dict[str, Any] = {}
        indents, bodies = self.indents, self.bodies
        while index < len(bodies) and indents[index] == indent:
            body = bodies[index]
            if body == "-" or body[:2] == "- ":
                break
            split = _mapping_key(body)
            if split is None:
                raise _NotPlain
            raw_key, rest = split
            key = self.scalar(raw_key)
            key = str(key).lower() if isinstance(key, bool) else str(key)
            if key in mapping:
                raise _NotPlain
            index += 1
            if rest:
                mapping[key] = self.scalar(rest)
            elif index < len(bodies) and indents[index] > indent:
                mapping[key], index = self.block(index, indents[index])
            elif (
                index < len(bodies) and indents[index] == indent and (bodies[index] == "-" or bodies[index][:2] == "- ")
            ):
                mapping[key], index = self.sequence(index, indent)
            else:
                mapping[key] = None
        if index < len(bodies) and indents[index] > indent:
            raise _NotPlain
        return mapping, index

    def scalar(self, text: str) -> Any:
        try:
            return self.cache[text]
        except KeyError:
            pass
        if text[0] in "&*!|>@`%?" or (text[0] in "-:" and text[1:2] in ("", " ")):
            raise _NotPlain
        if text[0] == '"' and text.endswith('"') and "\\" not in text and text.count('"') == 2:
            value: Any = text[1:-1]
        elif text[0] == "'" and text.endswith("'") and text.count("'") == 2:
            value = text[1:-1]
        else:
            if text[0] in "\"'" or (text[0] not in "[{" and (": " in text or text.endswith(":"))):
                raise _NotPlain
            value = yaml.load(text, Loader=_FAST_LOADER or yaml.SafeLoader)
            if text[0] in "[{":
                if not isinstance(value, (dict, list)) or "&" in text or "*" in text or "!" in text:
                    raise _NotPlain
                value = _plain(value)
            elif isinstance(value, (dict, list)):
                raise _NotPlain
            else:
                self.cache[text] = value
            return value
        self.cache[text] = value
        return value


_MAPPING_KEY = re.compile(r"""([^\s"'#&*!|>%@`{}\[\],?:-][^:#]*|"[^"\\]*"|'[^']*'):(?: +(.*))?$""")


def _mapping_key(body: str) -> tuple[str, str] | None:
    match = _MAPPING_KEY.match(body)
    if match is None:
        return None
    rest = match.group(2) or ""
    if rest.startswith("#"):
        rest = ""
    return match.group(1).rstrip(), rest


def _shifted(error: ManifestError, offset: int) -> ManifestError:
    if error.line and offset:
        return ManifestError(error.document, error.path, error.message, error.line + offset)
    return error


def _validated(documents: list[Any]) -> Iterator[dict[str, Any]]:
    """Every Node and Pod of the documents (Lists expanded), each checked by the engine's parser."""
    for document in documents:
        data = document.data
        if not isinstance(data, dict):
            raise ManifestError(
                f"document {document.index}", "", "must be a mapping with apiVersion and kind", document.line
            )
        objects = (
            [item for item in data.get("items") or [] if isinstance(item, dict)]
            if data.get("kind") == "List"
            else [data]
        )
        for item in objects:
            if item.get("kind") in ("Node", "Pod"):
                parse_object(item)  # the engine's validation: ManifestError with the line
                yield item


def _resources(values: Any) -> dict[str, str]:
    return {str(name): str(amount) for name, amount in (values or {}).items()}


def _node_row(document: dict[str, Any]) -> dict[str, Any]:
    metadata = document.get("metadata") or {}
    spec = document.get("spec") or {}
    status = document.get("status") or {}
    capacity = _resources(status.get("capacity") or status.get("allocatable"))
    allocatable = _resources(status.get("allocatable"))
    return {
        "name": metadata["name"],
        "labels": {str(k): str(v) for k, v in (metadata.get("labels") or {}).items()},
        "taints": [
            {key: str(taint[key]) for key in ("key", "value", "effect") if key in taint}
            for taint in spec.get("taints") or []
        ],
        "capacity": capacity,
        # What pods fit into; empty is "the same as capacity".
        "allocatable": {} if allocatable == capacity else allocatable,
        "unschedulable": bool(spec.get("unschedulable")),
    }


_DEFAULT_TOLERATIONS = [  # what the DefaultTolerationSeconds admission plugin adds to every pod
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
]
_SPEC_DEFAULTS = {
    "schedulerName": "default-scheduler",
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "preemptionPolicy": "PreemptLowerPriority",
}


def _clean_pod(document: dict[str, Any]) -> dict[str, Any]:
    """The pod as the scheduler reads it, without what the API server fills in by default."""
    metadata = document.get("metadata") or {}
    spec = document.get("spec") or {}
    cleaned_meta: dict[str, Any] = {"name": metadata["name"], "namespace": metadata.get("namespace", "default")}
    if metadata.get("labels"):
        cleaned_meta["labels"] = dict(metadata["labels"])
    cleaned_spec: dict[str, Any] = {}
    for key in POD_SPEC_KEEP:
        if key in spec and _SPEC_DEFAULTS.get(key, ...) != spec[key] and not (key == "priority" and spec[key] == 0):
            cleaned_spec[key] = spec[key]
    tolerations = [t for t in cleaned_spec.get("tolerations") or [] if t not in _DEFAULT_TOLERATIONS]
    if tolerations:
        cleaned_spec["tolerations"] = tolerations
    else:
        cleaned_spec.pop("tolerations", None)
    for key in ("initContainers", "containers"):
        if spec.get(key):
            cleaned_spec[key] = [_clean_container(container) for container in spec[key]]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": cleaned_meta, "spec": cleaned_spec}


def _clean_container(container: dict[str, Any]) -> dict[str, Any]:
    cleaned = {key: container[key] for key in CONTAINER_KEEP if key in container}
    ports = [port for port in cleaned.pop("ports", None) or [] if port.get("hostPort")]  # only host ports schedule
    if ports:
        cleaned["ports"] = ports
    resources = cleaned.get("resources")
    if resources is not None:
        resources = {kind: values for kind, values in resources.items() if values}
        if resources.get("requests") and "limits" in resources:  # the scheduler fits requests
            del resources["limits"]
        if resources:
            cleaned["resources"] = resources
        else:
            del cleaned["resources"]
    return cleaned


def compact_workload(pods: list[dict[str, Any]]) -> str:
    """One pod a line, as YAML flow documents (`--- {apiVersion: v1, kind: Pod, ...}`): 50,000 pods
    are 50,000 lines the editor and the engine read as any other YAML."""
    plain: dict[str, bool] = {}
    return "".join(f"--- {_flow(pod, plain)}\n" for pod in pods)


_PLAIN_STRING = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*\Z")


def _flow(value: Any, plain: dict[str, bool]) -> str:
    """A value in YAML flow style: strings plain where YAML reads them back as the same string
    (`web`, `250m`; not `true`, `1`, `on`, `2026-12-03`), else double-quoted (JSON's escapes are
    YAML's); numbers, booleans and null as JSON writes them, which YAML reads alike."""
    if isinstance(value, str):
        known = plain.get(value)
        if known is None:
            known = (
                bool(_PLAIN_STRING.match(value)) and yaml.load(value, Loader=_FAST_LOADER or yaml.SafeLoader) == value
            )
            plain[value] = known
        return value if known else json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(str(k), plain)}: {_flow(v, plain)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item, plain) for item in value) + "]"
    if value is None or isinstance(value, (bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return json.dumps(value)
    return _flow(str(value), plain)  # a date or a timestamp YAML made of a plain scalar: its text


def _plain(value: Any) -> Any:
    """Plain dicts and lists (the loader's marked ones would be dumped with their Python tags)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


# ---------------------------------------------------------------------------- importing


def import_cluster(
    nodes_text: str | Iterable[str],
    pods_text: str | Iterable[str] = "",
    *,
    max_bytes: int | None = None,
    progress: Callable[[str], Callable[[float], None]] | None = None,
) -> Imported:
    """The board and the workload of a cluster from kubectl's output, YAML or JSON: each argument is
    the text or its lines (read_upload's, for a file). Nodes and pods are taken from either, so the
    one file of `kubectl get nodes,pods -A -o yaml` can go in the first. `progress`, given "nodes"
    or "pods", returns what to tell the part of that input done, from 0 to 1, as it is read."""
    limit = max_bytes if max_bytes is not None else import_limits()[0]
    for text, what in ((nodes_text, "nodes"), (pods_text, "pods")):
        if isinstance(text, str):
            check_size(text, what, limit)
    first = _objects(nodes_text, "nodes", progress("nodes") if progress else None)
    nodes = [_node_row(doc) for doc in first if doc.get("kind") == "Node"]
    if not nodes:
        raise InvalidEdit("nodes: no Node found: paste the output of `kubectl get nodes -o yaml`")
    if len(nodes) > MAX_NODES:
        raise InvalidEdit(f"nodes: {len(nodes):,} nodes; a scenario holds at most {MAX_NODES:,}")
    names = {node["name"] for node in nodes}
    if len(names) != len(nodes):
        raise InvalidEdit("nodes: two nodes have the same name")
    pods: list[dict[str, Any]] = []
    skipped = 0
    pods_objects = _objects(pods_text, "pods", progress("pods") if progress else None)
    seen: set[tuple[str, str]] = set()  # a pod in both inputs (the one file pasted twice) once
    pods_read = False
    for document in itertools.chain(first, pods_objects):
        if document.get("kind") != "Pod":
            continue
        pods_read = True
        metadata = document.get("metadata") or {}
        identity = (str(metadata.get("namespace", "default")), str(metadata.get("name")))
        if identity in seen:
            continue
        seen.add(identity)
        phase = (document.get("status") or {}).get("phase")
        node_name = (document.get("spec") or {}).get("nodeName")
        if phase in ("Succeeded", "Failed") or not node_name or node_name not in names:
            skipped += 1
            continue
        pods.append(_clean_pod(document))
    del first, pods_objects
    workload = compact_workload(pods)
    try:
        size = len(workload.encode())
    except UnicodeEncodeError as error:  # JSON's "\ud800": a lone surrogate, no character at all
        raise InvalidEdit(
            f"pods: a pod holds {error.object[error.start : error.end]!r}, which is not a Unicode character:"
            " the API server would refuse it too"
        ) from None
    if size > MAX_IMPORT_WORKLOAD_BYTES:
        raise InvalidEdit(
            f"pods: the {len(pods):,} imported pods make {mib(size)} of YAML once cleaned; an imported"
            f" workload holds at most {mib(MAX_IMPORT_WORKLOAD_BYTES)} (import fewer namespaces)"
        )
    return Imported(nodes=nodes, workload_yaml=workload, skipped_pods=skipped, pods_read=pods_read)


class _Pieces:
    """A text as pieces of about a megabyte, each ending a line, and how much of it was given out."""

    def __init__(self, text: str) -> None:
        self._text, self._given = text, 0

    def __iter__(self) -> Iterator[str]:
        text = self._text
        while self._given < len(text):
            end = text.find("\n", self._given + _CHUNK)
            end = len(text) if end < 0 else end + 1
            piece, self._given = text[self._given : end], end
            yield piece

    def fraction(self) -> float:
        return self._given / len(self._text) if self._text else 1.0


class _Told:
    """Passes items (pieces or lines of an input) through, telling `progress` the part of the input
    read (`measure()`, 0 to 1) scaled into [0, `share`], every `every` items."""

    def __init__(
        self,
        items: Iterable[str],
        measure: Callable[[], float],
        progress: Callable[[float], None],
        share: float,
        every: int,
    ) -> None:
        self._items, self._measure, self._progress = iter(items), measure, progress
        self._share, self._every, self._count = share, every, 0

    def __iter__(self) -> "_Told":
        return self

    def __next__(self) -> str:
        self._count += 1
        if self._count % self._every == 0:
            self._progress(self._share * self._measure())
        return next(self._items)


# Of a YAML input's phase, the part its reading (and stripping) is worth; the parse is the rest. JSON
# is parsed as it is read.
YAML_READING_SHARE = 0.6


def _objects(
    source: str | Iterable[str], what: str, progress: Callable[[float], None] | None = None
) -> list[dict[str, Any]]:
    """The Nodes and Pods of one input, cut down to what the scheduler reads and validated by the
    engine: JSON (`-o json`) streamed through the json module, YAML stripped line by line.
    `progress` is told the part of the input done, from 0 to 1."""
    told = progress or (lambda _done: None)
    if isinstance(source, str):  # its size was checked (import_cluster)
        if not source.strip():
            return []
        source = _Pieces(source)
    pieces = iter(source)
    head: list[str] = []
    for piece in pieces:  # enough to tell JSON from YAML (import_json.looks_like_json)
        head.append(piece)
        if len("".join(head).strip()) >= import_json.HEAD_CHARACTERS:
            break
    if not head or not "".join(head).strip():
        return []
    rest: Iterable[str] = itertools.chain(head, pieces)
    measure = getattr(source, "fraction", None)  # a file's or a string's; not a bare iterator's
    if import_json.looks_like_json("".join(head)):
        objects = _json_objects(_Told(rest, measure, told, 1.0, 1) if measure else rest, what)  # a piece: 1 MiB
        told(1.0)
        return objects
    lines: Iterable[str] = _lines(rest)
    if measure:
        lines = _Told(lines, measure, told, YAML_READING_SHARE, 4096)
    read = _Keeping(lines)
    stripped = strip_text(read)
    told(YAML_READING_SHARE)
    objects = _documents(
        stripped, what, read.kept, lambda done: told(YAML_READING_SHARE + (1 - YAML_READING_SHARE) * done)
    )
    told(1.0)
    return objects


def _json_objects(lines: Iterable[str], what: str) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    try:
        for line, item in import_json.json_objects(lines, _kept_object):
            try:
                parse_object(item)
            except ManifestError as error:
                raise import_json.engine_error(line, error) from None
            objects.append(item)
    except import_json.JsonImportError as error:
        raise InvalidEdit(f"{what}: {error}") from None
    return objects


def _kept_object(item: dict[str, Any]) -> dict[str, Any] | None:
    """A Node or a Pod without what the text filter would have dropped (see _KEEP); others: None."""
    return _pruned(item, ()) if item.get("kind") in ("Node", "Pod") else None


_KEPT_PREFIXES = frozenset(path[:length] for path in _KEEP for length in range(len(path) + 1))


def _pruned(value: Any, path: tuple[str, ...]) -> Any:
    if path not in _KEPT_PREFIXES:
        return value  # nothing under here is dropped
    if isinstance(value, list):
        return [_pruned(item, path) for item in value]
    if not isinstance(value, dict):
        return value
    kept = _KEEP.get(path)
    return {key: _pruned(item, (*path, key)) for key, item in value.items() if kept is None or key in kept}


class _Keeping:
    """Passes lines through, keeping them only while they are few (a small paste whose stripped
    form fails to parse is parsed as sent, for its error; a large file is not held twice)."""

    KEEP_BYTES = 4 * 2**20

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines, self._size = iter(lines), 0
        self.kept: list[str] | None = []  # None once past KEEP_BYTES

    def __iter__(self) -> "_Keeping":
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        if self.kept is not None:
            self._size += len(line)
            if self._size > self.KEEP_BYTES:
                self.kept = None  # too large to keep: the stripped text's own error stands
            else:
                self.kept.append(line)
        return line

"""Import a real cluster: the output of `kubectl get nodes -o yaml` becomes the node board, and
`kubectl get pods -A -o yaml` (optional) becomes bound Pods in the workload, cleaned of what the
scheduler never reads (status, managedFields, volumes...). The engine's parser validates both, so
an import error names the document, the field and the line.

At real size (5,000 nodes are about 19 MB of kubectl YAML, 50,000 pods hundreds of MB) most of the
text is what the engine never reads: managedFields, images, conditions, annotations, probes,
environments. `strip_text` (import_strip) drops those blocks while the text is read (streamed, from a
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
from playground.block_reader import FAST_LOADER, block_yaml
from playground.import_strip import CONTAINER_KEEP, KEEP, KEPT_PREFIXES, POD_SPEC_KEEP, strip_text
from playground.scenarios import MAX_IMPORT_WORKLOAD_BYTES, MAX_NODES, InvalidEdit
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import parse_object
from scheduler_core.api.yaml_loader import MAX_YAML_BYTES, YamlDocument, load_documents

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
    one part. (Searched, not split into lines: the stripped text of 50,000 pods is millions of
    lines, most of them empty.)"""
    items = _ITEMS_KEY.search(text)
    if items is None or items.group(1).strip() or _NOT_LIST_HEAD.search(text, 0, items.start()):
        yield text, 0, 0.0
        return
    starts = [match.start() for match in _ITEM_START.finditer(text, items.end())]
    after = _OUTSIDE_ITEMS.search(text, starts[-1] if starts else items.end())
    end = after.start() if after else len(text)
    if len(starts) <= ITEMS_PER_BATCH or _OUTSIDE_ITEMS.search(text, items.end(), end):
        yield text, 0, 0.0
        return
    header = _LIST_HEADER.count("\n")
    line, counted = 0, 0  # the line of the position `counted`
    for first in range(0, len(starts), ITEMS_PER_BATCH):
        begin = starts[first]
        stop = starts[first + ITEMS_PER_BATCH] if first + ITEMS_PER_BATCH < len(starts) else end
        line, counted = line + text.count("\n", counted, begin), begin
        yield _LIST_HEADER + text[begin:stop], line - header, first / len(starts)


_ITEMS_KEY = re.compile(r"^items:(.*)$", re.MULTILINE)  # the List's items, the first line "items:" opens
_NOT_LIST_HEAD = re.compile(r"^(?!apiVersion:|kind:|metadata:|items:|[ #]).*\S", re.MULTILINE)
_ITEM_START = re.compile(r"^- ", re.MULTILINE)
_OUTSIDE_ITEMS = re.compile(r"^(?!- |[ #]).*\S", re.MULTILINE)  # a line that is not part of an item


def _quickly(batch: str) -> list[dict[str, Any]] | None:
    """The batch's objects read by libyaml without line marks (a third faster), when nothing in it
    needs the engine's careful loader: no anchor or alias can be in a text without & and *, and
    the size is within the loader's bound. Anything wrong (a YAML error, a field the engine
    refuses) gives None: the careful loader reads the batch again and names the line."""
    if FAST_LOADER is None or "&" in batch or "*" in batch or len(batch) > MAX_YAML_BYTES:
        return None
    try:
        data = block_yaml(batch)
        if data is not None:
            documents = [YamlDocument(index=1, line=0, data=data)]
        else:
            documents = [
                YamlDocument(index=index, line=0, data=data)
                for index, data in enumerate(yaml.load_all(batch, Loader=FAST_LOADER), start=1)
                if data is not None
            ]
        return list(_validated(documents))
    except (yaml.YAMLError, ManifestError, ValueError, TypeError, AttributeError, KeyError, RecursionError):
        return None


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
                bool(_PLAIN_STRING.match(value)) and yaml.load(value, Loader=FAST_LOADER or yaml.SafeLoader) == value
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
    engine: JSON (`-o json`) streamed through the json module, YAML stripped (import_strip) as read.
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
    if measure:
        rest = _Told(rest, measure, told, YAML_READING_SHARE, 1)
    read = _Keeping(rest)
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
    """A Node or a Pod without what the text filter would have dropped (see import_strip.KEEP); others: None."""
    return _pruned(item, ()) if item.get("kind") in ("Node", "Pod") else None


def _pruned(value: Any, path: tuple[str, ...]) -> Any:
    if path not in KEPT_PREFIXES:
        return value  # nothing under here is dropped
    if isinstance(value, list):
        return [_pruned(item, path) for item in value]
    if not isinstance(value, dict):
        return value
    kept = KEEP.get(path)
    return {key: _pruned(item, (*path, key)) for key, item in value.items() if kept is None or key in kept}


class _Keeping:
    """Passes pieces of text through, keeping them only while they are few (a small paste whose
    stripped form fails to parse is parsed as sent, for its error; a large file is not held twice)."""

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

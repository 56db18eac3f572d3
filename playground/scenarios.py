"""What the web app does with scenarios, independent of HTTP: create, validate, edit, version, fork,
export. Kubernetes rules (what a valid label or taint is, what parses) come from the engine."""

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import yaml
from django.db import IntegrityError, transaction
from django.db.models import Count, Sum

from playground.block_yaml import block_yaml
from playground.models import (
    MAX_WORKLOAD_BYTES,
    PERMALINK_LENGTH,
    Node,
    Scenario,
    ScenarioVersion,
    StoredText,
    config_part,
)
from playground.node_loading import load_nodes
from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests, parse_object

MAX_NODES = 5000  # the size of upstream scheduler_perf and of large production clusters (#14)
# An imported cluster's bound pods, one line each (importing.compact_workload): a cleaned pod is
# 250-600 bytes (525 with labels, a preferred anti-affinity and requests), so 50,000 fit. The engine
# parses at most 36 MiB a run (yaml_loader.MAX_YAML_BYTES), and a 5,000-node board takes about
# 4 MiB of that. Sent back from the editor it is at most 1.3 times as long, form-encoded: within
# one request's form data (settings.DATA_UPLOAD_MAX_MEMORY_SIZE).
MAX_IMPORT_WORKLOAD_BYTES = 30 * 2**20
# A scenario's history is bounded (every edit stores a whole version); a fork starts a fresh one.
MAX_VERSIONS = 1000
# The YAML its versions store (documents, workloads, configurations). A workload over
# MAX_WORKLOAD_BYTES (an imported cluster's) is stored once however many versions hold it
# (models.StoredText), so a cordon of an imported 5,000-node, 50,000-pod cluster stores its 4 MiB
# of nodes, not 54 MiB: this keeps about sixty such edits before a fork is needed.
MAX_HISTORY_BYTES = 256 * 2**20
HISTORY_FULL = "Fork it to go on: a fork starts a fresh history."
DEFAULT_CAPACITY = {"cpu": "4", "memory": "16Gi", "pods": "110"}
HOSTNAME_LABEL = "kubernetes.io/hostname"


class StaleEdit(Exception):
    """The edit was made against an older version than the scenario's current one."""

    def __init__(self, current: int) -> None:
        super().__init__(current)
        self.current = current


class InvalidEdit(Exception):
    """The edit would make the scenario invalid; the message says why, in the engine's words."""


@dataclass(frozen=True, slots=True)
class ValidationProblem:
    message: str
    line: int | None = None
    document: str = ""
    path: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "line": self.line, "document": self.document, "path": self.path}


# ---------------------------------------------------------------------------- nodes


def node_manifest(node: Node) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": node.name, "labels": dict(node.labels)},
        "status": {"capacity": dict(node.capacity)},
    }
    if node.allocatable:  # else the engine takes allocatable to be the capacity, as the API server does
        manifest["status"]["allocatable"] = dict(node.allocatable)
    spec: dict[str, Any] = {}
    if node.taints:
        spec["taints"] = [dict(taint) for taint in node.taints]
    if node.unschedulable:
        spec["unschedulable"] = True
    if spec:
        manifest["spec"] = spec
    return manifest


def check_node(node: Node) -> None:
    """Raises InvalidEdit with the engine's message when the node is not a valid Kubernetes Node."""
    try:
        parse_object(node_manifest(node), f"Node {node.name}")
    except ManifestError as error:
        raise InvalidEdit(f"{error.path}: {error.message}" if error.path else error.message) from None


def node_fields(node: Node) -> dict[str, Any]:
    return {
        "name": node.name,
        "labels": dict(node.labels),
        "taints": [dict(taint) for taint in node.taints],
        "capacity": dict(node.capacity),
        **({"allocatable": dict(node.allocatable)} if node.allocatable else {}),
        "unschedulable": node.unschedulable,
    }


# ---------------------------------------------------------------------------- documents

_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump(manifest: dict[str, Any]) -> str:
    """yaml.safe_dump's text, emitted by libyaml (the same bytes, four times faster: a version's
    document for 5,000 nodes is written on every edit)."""
    return yaml.dump(manifest, Dumper=_DUMPER, sort_keys=False)


# A node's YAML by its manifest's JSON (key order kept, as the YAML keeps it): an edit to one of
# 5,000 nodes wrote all 5,000 again (0.9 s); JSON is ten times quicker to write than YAML.
_NODE_YAML_KEPT = 20_000
_kept_node_yaml: "OrderedDict[str, str]" = OrderedDict()
_node_yaml_lock = threading.Lock()


def _node_yaml(node: Node) -> str:
    manifest = node_manifest(node)
    key = json.dumps(manifest, separators=(",", ":"))
    with _node_yaml_lock:
        text = _kept_node_yaml.get(key)
        if text is not None:
            _kept_node_yaml.move_to_end(key)
            return text
    text = block_yaml(manifest) or _dump(manifest)
    with _node_yaml_lock:
        _kept_node_yaml[key] = text
        while len(_kept_node_yaml) > _NODE_YAML_KEPT:
            _kept_node_yaml.popitem(last=False)
    return text


def export_document(scenario: Scenario, nodes: list[Node] | None = None) -> str:
    """The whole scenario as one multi-document YAML: nodes, then the workload, then the config.
    `nodes`: the scenario's nodes in order, when the caller has them."""
    document = _nodes_document(scenario, nodes)
    if scenario.workload_yaml.strip():
        document += ("---\n" if document else "") + scenario.workload_yaml.strip() + "\n"
    if scenario.scheduler_config_yaml.strip():
        document += "---\n" + scenario.scheduler_config_yaml.strip() + "\n"
    return document


def _nodes_document(scenario: Scenario, nodes: list[Node] | None) -> str:
    return "---\n".join(_node_yaml(node) for node in (load_nodes(scenario.pk) if nodes is None else nodes))


def _before_workload(scenario: Scenario, nodes: list[Node]) -> str:
    """What export_document writes before a (non-empty) workload."""
    document = _nodes_document(scenario, nodes)
    return document + "---\n" if document else ""


PLAYGROUND_API = "playground/"


def _is_playground_only(document: Any) -> bool:
    """A document a cluster refuses: the timeline's Actions (playground/v1) and the like."""
    return isinstance(document, dict) and str(document.get("apiVersion", "")).startswith(PLAYGROUND_API)


def _split_documents(text: str) -> tuple[list[str], list[str]]:
    """The workload's documents as written (comments kept), split into the Kubernetes ones and the
    playground's own. A text that does not parse is all Kubernetes (the board refused it anyway)."""
    kubernetes: list[str] = []
    playground: list[str] = []
    for chunk in _chunks(text):
        if PLAYGROUND_API not in chunk:  # its apiVersion cannot be the playground's: no need to parse it
            kubernetes.append(chunk)
            continue
        try:
            data = yaml.load(chunk, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            data = None
        if data is None and not chunk.strip(" \n-").strip():
            continue
        (playground if _is_playground_only(data) else kubernetes).append(chunk)
    return kubernetes, playground


def _chunks(text: str) -> list[str]:
    """The text cut at its document markers (`---` at the start of a line), each chunk its own
    document; a compact import's `--- {...}` lines are one chunk each."""
    chunks: list[str] = []
    current: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("---") and (len(line) == 3 or line[3] in " \t\r\n"):
            if any(part.strip() for part in current):
                chunks.append("".join(current))
            current = [line[3:].lstrip(" \t")] if line[3:].strip() else []
        else:
            current.append(line)
    if any(part.strip() for part in current):
        chunks.append("".join(current))
    return [chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks]


def export_kubernetes(scenario: Scenario) -> str:
    """What `kubectl apply -f` takes: the nodes (capacity and allocatable as they are), then the
    workload's Kubernetes objects; the timeline and anything else playground-only is left out."""
    parts = [_dump(node_manifest(node)) for node in load_nodes(scenario.pk)]
    kubernetes, _ = _split_documents(scenario.workload_yaml)
    return "---\n".join(parts + kubernetes)


def export_timeline(scenario: Scenario) -> str:
    """The playground's own documents (the timeline's Actions, the scheduler configuration): the
    rest of the scenario, for the playground and not for a cluster."""
    _, playground = _split_documents(scenario.workload_yaml)
    if scenario.scheduler_config_yaml.strip():
        playground.append(scenario.scheduler_config_yaml.strip() + "\n")
    return "---\n".join(playground)


def validate_workload(text: str, limit: int = MAX_WORKLOAD_BYTES) -> list[ValidationProblem]:
    """The engine's problems with a workload; `limit` is MAX_WORKLOAD_BYTES for a typed one,
    MAX_IMPORT_WORKLOAD_BYTES for the edit of one an import made larger."""
    if len(text.encode()) > limit:
        return [ValidationProblem(f"the YAML is larger than {_size(limit)}")]
    try:
        manifests = load_manifests(text, source="workload")
    except ManifestError as error:
        return [ValidationProblem(error.message, error.line, error.document, error.path)]
    problems = []
    for manifest in manifests:
        if manifest.kind == "Node":
            problems.append(
                ValidationProblem(
                    "nodes belong on the board: add them there (or import them)", manifest.line, manifest.document
                )
            )
    return problems


# ---------------------------------------------------------------------------- versions


def permalink_for(slug: str, document: str, title: str) -> str:
    """A version's id: its scenario and its content. The scenario is part of it so that the same
    content in two scenarios is two versions, each its scenario's own (a version found by content
    alone belonged to whichever scenario saved it first, and its page led to that scenario)."""
    digest = hashlib.sha256(f"{slug}\n\0{title}\n\0{document}".encode()).hexdigest()
    return digest[:PERMALINK_LENGTH]


def permalink_of_parts(slug: str, title: str, stored: "_Stored", config: str) -> str:
    """permalink_for of content whose workload is stored apart: its workload named by digest, not
    hashed again with the rest (30 MiB at 50,000 pods, on every edit). Which way is a function of
    the content (a workload is stored apart exactly when it is over MAX_WORKLOAD_BYTES); a version
    saved before this existed keeps the permalink it has."""
    if not stored.text_digest:
        return permalink_for(slug, stored.document, title)
    head = f"{slug}\n\0{title}\n\0{stored.document}\0workload sha256:{stored.text_digest}\0{config_part(config)}"
    return hashlib.sha256(head.encode()).hexdigest()[:PERMALINK_LENGTH]


def stored_text_length(digest: str) -> int:
    """The length of a text stored apart, read without the text (25 MiB for 50,000 pods)."""
    return StoredText.objects.filter(pk=digest).values_list("size", flat=True).first() or 0


def _size(amount: int) -> str:
    return f"{amount / 2**20:g} MiB" if amount >= 2**20 else f"{amount / 2**10:g} KiB"


def check_history_room(scenario: Scenario, stored: "_Stored") -> None:
    """Refuses (InvalidEdit) a version the scenario's bounded history has no room for: what its
    versions hold, each workload stored apart counted once, and what this one adds."""
    versions = ScenarioVersion.objects.filter(scenario=scenario)
    held = versions.aggregate(count=Count("pk"), size=Sum("stored_size"))
    texts = StoredText.objects.filter(pk__in=versions.exclude(workload_text=None).values("workload_text"))
    apart = texts.aggregate(size=Sum("size"))["size"] or 0
    adding = stored.size(scenario.scheduler_config_yaml)
    if stored.text_digest and not texts.filter(pk=stored.text_digest).exists():
        adding += stored_text_length(stored.text_digest)
    if held["count"] >= MAX_VERSIONS:
        limit = f"it keeps at most {MAX_VERSIONS:,} versions"
    elif (held["size"] or 0) + apart + adding > MAX_HISTORY_BYTES:
        limit = f"its versions keep at most {_size(MAX_HISTORY_BYTES)} of YAML"
    else:
        return
    raise InvalidEdit(f"This scenario's history is full: {limit}. {HISTORY_FULL}")


def snapshot(scenario: Scenario, *, bounded: bool = False, nodes: list[Node] | None = None) -> ScenarioVersion:
    """The immutable version for the scenario's current content (the same content, the same
    permalink), looked up among this scenario's own versions only. With `bounded` (an edit), a new
    version must fit in the scenario's history (check_history_room). `nodes`: the scenario's nodes
    in order, when the caller has them already (a page view of 5,000 nodes loaded them twice)."""
    verified = _verified_version(scenario)
    if verified is not None:
        return verified
    # Edits move the version counter, so the version saved at the current number is most likely
    # the current content: compared field by field (cheap), it spares a page view the export of
    # the board (YAML for 500 nodes, most of the view's time). Anything else takes the export.
    current = ScenarioVersion.objects.filter(scenario=scenario, number=scenario.version).order_by("-pk").first()
    nodes = load_nodes(scenario.pk) if nodes is None else nodes  # loaded once (node_loading.py)
    if current is not None and _holds_current_content(current, scenario, nodes):
        _remember_verified(scenario, current)
        return current
    stored = _stored(scenario, nodes)
    permalink = permalink_of_parts(scenario.slug, scenario.title, stored, scenario.scheduler_config_yaml)
    existing = ScenarioVersion.objects.filter(scenario=scenario, permalink=permalink).first()
    if existing is not None:
        _remember_verified(scenario, existing)
        return existing
    if bounded:
        check_history_room(scenario, stored)
    try:
        with transaction.atomic():
            # A workload stored apart is the scenario's own StoredText row, already written.
            created = ScenarioVersion.objects.create(
                scenario=scenario,
                number=scenario.version,
                permalink=permalink,
                title=scenario.title,
                description=scenario.description,
                stored_document=stored.document,
                nodes=[node_fields(node) for node in nodes],
                stored_workload=stored.workload,
                workload_text_id=stored.text_digest or None,
                scheduler_config_yaml=scenario.scheduler_config_yaml,
                stored_size=stored.size(scenario.scheduler_config_yaml),
            )
        if stored.text_digest and _WORKLOAD_TEXT.is_cached(scenario):
            created.workload_text = scenario.workload_text  # in memory: the board's preview reads no 25 MiB
    except IntegrityError:
        # Another request saved the same content meanwhile. Were it another scenario's permalink
        # (48 bits alike), this refuses rather than hand that version over.
        existing = ScenarioVersion.objects.filter(scenario=scenario, permalink=permalink).first()
        if existing is None:
            raise
        return existing
    # Should an enclosing transaction roll back, the row's version and updated_at go back too, and no
    # later read of it matches this entry; a lookup that finds no version falls back to comparing.
    _remember_verified(scenario, created)
    return created


# The version this process found to hold a scenario's content, by the scenario row's state then:
# every change of content moves the row (bump() raises the version and sets updated_at; the gallery's
# reload saves it whole), so an entry stands until the row says otherwise. It spares each Run and
# page view loading and comparing the nodes (0.1 s at 5,000 nodes, before a run's first frame).
_VerifiedKey = tuple[int, str, int, Any]
_verified: "OrderedDict[_VerifiedKey, int]" = OrderedDict()
_verified_lock = threading.Lock()
MAX_VERIFIED = 1024


def _verified_key(scenario: Scenario) -> _VerifiedKey:
    return (scenario.pk, scenario.slug, scenario.version, scenario.updated_at)


def _verified_version(scenario: Scenario) -> ScenarioVersion | None:
    with _verified_lock:
        version_id = _verified.get(_verified_key(scenario))
    if version_id is None:
        return None
    # Its nodes are read only by a permalink's page or a fork: loaded then, not here (5,000 nodes'
    # JSON is 40 ms to decode).
    return ScenarioVersion.objects.filter(pk=version_id, scenario=scenario).defer("nodes").first()


def _remember_verified(scenario: Scenario, version: ScenarioVersion) -> None:
    with _verified_lock:
        _verified[_verified_key(scenario)] = version.pk
        _verified.move_to_end(_verified_key(scenario))
        while len(_verified) > MAX_VERIFIED:
            _verified.popitem(last=False)


def forget_verified() -> None:
    with _verified_lock:
        _verified.clear()


@dataclass(frozen=True, slots=True)
class _Stored:
    """What a version's own row holds: the document (or its part before a workload stored apart),
    the workload (or nothing), and the digest of the workload stored apart (or "")."""

    document: str
    workload: str
    text_digest: str

    def size(self, config: str) -> int:
        """The characters of YAML the version's own row holds (ScenarioVersion.stored_size)."""
        return len(self.document) + len(self.workload) + len(config)


_WORKLOAD_TEXT = Scenario._meta.get_field("workload_text")


def _stored(scenario: Scenario, nodes: list[Node]) -> _Stored:
    """What a version of the scenario's content stores: a workload stored apart is named by its
    digest, and the document is what comes before it (neither joined nor hashed: 30 MiB)."""
    if not scenario.workload_text_id:
        return _Stored(export_document(scenario, nodes), scenario.stored_workload, "")
    return _Stored(_before_workload(scenario, nodes), "", scenario.workload_text_id)


def _holds_current_content(version: ScenarioVersion, scenario: Scenario, nodes: list[Node] | None) -> bool:
    """The version's title, nodes (in order, labels in order), workload and configuration are the
    scenario's: its document is what export_document would write. A workload stored apart is
    compared by its digest (not read back: it may be 25 MiB)."""
    if (version.title, version.scheduler_config_yaml) != (scenario.title, scenario.scheduler_config_yaml):
        return False
    if version.workload_text_id or scenario.workload_text_id:
        if version.workload_text_id != scenario.workload_text_id:
            return False
    elif version.stored_workload != scenario.stored_workload:
        return False
    fields = [node_fields(node) for node in (load_nodes(scenario.pk) if nodes is None else nodes)]
    return _same_nodes(version.nodes, fields)


def _same_nodes(stored: list[dict[str, Any]], current: list[dict[str, Any]]) -> bool:
    """The same nodes in the same order, their keys too (the YAML keeps a dict's order, which `==`
    ignores). Compared as values, then key orders: a third of the time of comparing their JSON
    texts (75 ms for 5,000 nodes, on every page view and Run)."""
    return stored == current and all(_key_order(a) == _key_order(b) for a, b in zip(stored, current, strict=True))


def _key_order(node: dict[str, Any]) -> tuple[Any, ...]:
    return (
        tuple(node),
        tuple(node["labels"]),
        tuple(node["capacity"]),
        tuple(node.get("allocatable", ())),
        tuple(tuple(taint) for taint in node["taints"]),
    )


@transaction.atomic
def bump(scenario_id: int, expected_version: int) -> Scenario:
    """Locks the scenario and moves it to the next version, or refuses a stale edit."""
    scenario = Scenario.objects.select_for_update().get(pk=scenario_id)
    if scenario.version != expected_version:
        raise StaleEdit(scenario.version)
    scenario.version += 1
    scenario.save(update_fields=["version", "updated_at"])
    return scenario


# ---------------------------------------------------------------------------- creating


def default_nodes(count: int = 3) -> list[dict[str, Any]]:
    return [
        {
            "name": f"worker{i}",
            "labels": {HOSTNAME_LABEL: f"worker{i}"},
            "taints": [],
            "capacity": dict(DEFAULT_CAPACITY),
        }
        for i in range(1, count + 1)
    ]


@transaction.atomic
def create_scenario(
    title: str,
    *,
    description: str = "",
    nodes: list[dict[str, Any]] | None = None,
    workload_yaml: str = "",
    scheduler_config_yaml: str = "",
    forked_from: ScenarioVersion | None = None,
    gallery_key: str = "",
    gallery_order: int = 0,
) -> tuple[Scenario, str]:
    """A new scenario and its edit secret (shown once, to its creator)."""
    scenario = Scenario(
        title=title[:120] or "Untitled scenario",
        description=description,
        workload_yaml=workload_yaml,
        scheduler_config_yaml=scheduler_config_yaml,
        forked_from=forked_from,
        gallery_key=gallery_key,
        gallery_order=gallery_order,
    )
    secret = scenario.set_edit_secret()
    scenario.save()
    created = []
    for position, spec in enumerate(nodes if nodes is not None else default_nodes()):
        node = Node(
            scenario=scenario,
            name=spec["name"],
            position=position,
            labels=spec.get("labels", {}),
            taints=spec.get("taints", []),
            capacity=spec.get("capacity", dict(DEFAULT_CAPACITY)),
            allocatable=spec.get("allocatable", {}),
            unschedulable=spec.get("unschedulable", False),
        )
        check_node(node)
        created.append(node)
    Node.objects.bulk_create(created, batch_size=500)  # before the scenario's first version is made
    snapshot(scenario)
    return scenario, secret


def fork(version: ScenarioVersion, title: str = "", workload_yaml: str | None = None) -> tuple[Scenario, str]:
    """A new scenario of one's own from any version; it remembers where it came from. With
    `workload_yaml` (already validated), the fork holds that text instead of the version's."""
    if not title:
        title = version.title if version.title.startswith("Fork of ") else f"Fork of {version.title}"
    return create_scenario(
        title[:120],
        description=version.description,
        nodes=[dict(node) for node in version.nodes],
        workload_yaml=version.workload_yaml if workload_yaml is None else workload_yaml,
        scheduler_config_yaml=version.scheduler_config_yaml,
        forked_from=version,
    )

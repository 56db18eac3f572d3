"""A simulated cluster as the API server shows it at one moment: every stored object in its API
shape with the metadata clients rely on (resourceVersion, and timestamps on the client's clock),
and the events as core/v1 Events.

resourceVersion: the store counts every change (Cluster.resource_version). An object's version is
the count at its last change, read off the run's journal of changes; an object the journal never
changed (created before it began) has the version the journal started from. So versions grow with
every change of a scenario's run, and a run that extends another (a write appended to its
timeline at its end replays identically up to there) keeps the versions it had.

Timestamps: simulated second 0 lies at Unix second `epoch` (the web shell anchors it to the wall
clock), because kubectl ages what it prints client-side (describe, -w) by its own clock.
"""

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.manifest_writer import format_timestamp, timestamps_from
from scheduler_core.api.object_manifest import API_VERSIONS, object_manifest
from scheduler_core.api.types import Namespace, ObjectMeta, Pod
from scheduler_core.kubeapi.resources import RESOURCES, Resource
from scheduler_core.store.cluster import Change, Cluster, uuid4_text
from scheduler_core.store.event_correlation import SCHEDULER_SOURCES, correlate, event_rows
from scheduler_core.store.events import Event

KUBELET = "kubelet"
EVENT_SEQ = "#event"  # versions' key for an event by its seq
# The action an events.k8s.io Event of the scheduler names (its recorder's Eventf calls).
SCHEDULER_ACTIONS = {"Scheduled": "Binding", "Preempted": "Preempting"}


@dataclass(frozen=True, slots=True)
class ApiEvent:
    """One row of `kubectl get events`: repeats of an event counted on it, as the reporters'
    event libraries do (store/event_correlation.py)."""

    first: Event
    last: Event
    count: int
    message: str
    host: str  # the node of a kubelet's event (EventSource.Host)
    resource_version: int

    @property
    def namespace(self) -> str:
        kind_and_rest = self.first.object.split("/")
        return kind_and_rest[1] if len(kind_and_rest) == 3 else "default"

    @property
    def name(self) -> str:
        # client-go names an event after its object and the time it made it, in nanoseconds hex
        # (record.makeEvent); the first seq keeps two rows of one instant apart.
        involved = self.first.object.rsplit("/", 1)[-1]
        return f"{involved}.{self.first.seq:016x}"


# The namespaces every cluster has (kube-apiserver's system namespaces controller makes them).
SYSTEM_NAMESPACES = ("default", "kube-node-lease", "kube-public", "kube-system")
NAMESPACED_KINDS = tuple(resource.kind for resource in RESOURCES if resource.namespaced and resource.kind != "Event")


@dataclass(slots=True)
class ApiSnapshot:
    cluster: Cluster
    now: float  # the moment read, in simulated seconds (server-side printing ages against it)
    epoch: float  # the Unix second of simulated second 0
    resource_version: int
    versions: dict[tuple[str, str], int]  # (kind, key) -> its last change's version
    base_version: int  # the version of an object no journal entry changed
    # Each workload's CPU demand at `now` (kubeapi/metrics.py: what kubectl top reads).
    demand: dict[str, float] = field(default_factory=dict)
    _events: list[ApiEvent] | None = field(default=None, repr=False)

    def version_of(self, kind: str, key: str) -> int:
        return self.versions.get((kind, key), self.base_version)

    def manifest(self, obj: Any, *, with_type: bool = True) -> dict[str, Any]:
        """The object as GET returns it; a list's items leave out apiVersion and kind, as the API
        server's typed lists do."""
        with timestamps_from(self.epoch):
            manifest = object_manifest(obj)
        metadata = manifest["metadata"]
        metadata["resourceVersion"] = str(self.version_of(manifest["kind"], obj.metadata.key))
        if not with_type:
            manifest.pop("apiVersion", None)
            manifest.pop("kind", None)
        return manifest

    def objects(self, resource: Resource) -> list[Any]:
        if resource.kind == "Namespace":
            return sorted(self._namespaces().values(), key=lambda namespace: namespace.metadata.name)
        return sorted(self.cluster.objects(resource.kind), key=lambda obj: (obj.metadata.namespace, obj.metadata.name))

    def get(self, resource: Resource, namespace: str, name: str) -> Any:
        if resource.kind == "Namespace":
            return self._namespaces().get(name)
        key = f"{namespace}/{name}" if resource.namespaced else name
        return self.cluster.get(resource.kind, key)

    def _namespaces(self) -> dict[str, Namespace]:
        """The declared namespaces, and those a cluster always has or an object lives in: the engine
        does not refuse an object of an undeclared namespace (NamespaceLifecycle), so the API shows
        every namespace in use as an Active one, there since the start."""
        found: dict[str, Namespace] = {name: _implied_namespace(name) for name in SYSTEM_NAMESPACES}
        for kind in NAMESPACED_KINDS:
            for obj in self.cluster.objects(kind):
                if obj.metadata.namespace not in found:
                    found[obj.metadata.namespace] = _implied_namespace(obj.metadata.namespace)
        for declared in self.cluster.objects(Namespace):
            found[declared.metadata.name] = declared
        return found

    def event_version(self, event: Event) -> int:
        return self.versions.get((EVENT_SEQ, str(event.seq)), self.base_version)

    def events(self) -> list[ApiEvent]:
        if self._events is None:
            self._events = list(api_events(self.cluster, self.cluster.events, self.event_version))
        return self._events

    def event_manifest(self, event: ApiEvent, *, with_type: bool = True) -> dict[str, Any]:
        with timestamps_from(self.epoch):
            return event_manifest(event, with_type=with_type)


def _implied_namespace(name: str) -> Namespace:
    """A namespace in use but not declared, as the API server would hold it (with the label it puts
    on every namespace)."""
    digest = hashlib.sha256(f"namespace/{name}".encode()).digest()
    labels = {"kubernetes.io/metadata.name": name}
    return Namespace(ObjectMeta(name, uid=uuid4_text(int.from_bytes(digest[:16])), labels=labels))


def snapshot_of(
    cluster: Cluster,
    journal: Sequence[Change[Any] | Event],
    base: int,
    *,
    now: float,
    epoch: float = 0.0,
    demand: dict[str, float] | None = None,
) -> ApiSnapshot:
    """The API's view of `cluster`, the store that `journal` (every change since version `base`)
    left: its versions count those changes."""
    versions, count = journal_versions(journal, base)
    return ApiSnapshot(cluster, now, epoch, base + count, versions, base, dict(demand or {}))


def base_version(final_version: int, journal: Sequence[Change[Any] | Event]) -> int:
    """The store's version before a journal that led to `final_version`."""
    return final_version - sum(1 for item in journal if isinstance(item, Change))


def journal_versions(journal: Sequence[Change[Any] | Event], base: int) -> tuple[dict[tuple[str, str], int], int]:
    """Each changed object's version at its last change in `journal`, and how many changes it holds."""
    versions: dict[tuple[str, str], int] = {}
    count = 0
    for item in journal:
        if isinstance(item, Change):
            count += 1
            versions[(item.kind, item.key)] = base + count
        else:  # an event is seen at the version of the store it was recorded in
            versions[(EVENT_SEQ, str(item.seq))] = base + count
    return versions, count


def api_events(cluster: Cluster, events: list[Event], version: Callable[[Event], int]) -> Iterable[ApiEvent]:
    """The events' rows, oldest last-seen first; a row's version is its latest event's."""
    for row in event_rows(correlate(events)):
        yield ApiEvent(row.first, row.last, row.count, row.message, event_host(cluster, row.first), version(row.last))


def event_host(cluster: Cluster, event: Event) -> str:
    if event.source != KUBELET or not event.object.startswith("Pod/"):
        return ""
    pod = cluster.get(Pod, event.object.removeprefix("Pod/"))
    return pod.spec.node_name if pod is not None else ""


def _event_uid(event: Event) -> str:
    digest = hashlib.sha256(f"event/{event.seq}/{event.uid}".encode()).digest()
    return uuid4_text(int.from_bytes(digest[:16]))


def _micro_time(seconds: float) -> str:
    """metav1.MicroTime: RFC 3339 with six fractional digits."""
    text = format_timestamp(seconds).removesuffix("Z")
    whole, _, fraction = text.partition(".")
    return f"{whole}.{fraction:0<6}Z"


def event_manifest(event: ApiEvent, *, with_type: bool = True) -> dict[str, Any]:
    """A core/v1 Event. The scheduler reports through events.k8s.io (eventTime, series, action,
    no source or counts: the API server's conversion leaves them empty); the controllers and
    kubelets through client-go's record library (source, first/last timestamps, count)."""
    first, last = event.first, event.last
    kind, _, rest = first.object.partition("/")
    involved_name = rest.rsplit("/", 1)[-1]
    involved: dict[str, Any] = {"kind": kind, "name": involved_name}
    if rest.count("/"):
        involved["namespace"] = rest.split("/", 1)[0]
    if first.uid:
        involved["uid"] = first.uid
    involved["apiVersion"] = API_VERSIONS.get(kind, "v1")
    manifest: dict[str, Any] = {}
    if with_type:
        manifest |= {"kind": "Event", "apiVersion": "v1"}
    manifest["metadata"] = {
        "name": event.name,
        "namespace": event.namespace,
        "uid": _event_uid(first),
        "resourceVersion": str(event.resource_version),
        "creationTimestamp": format_timestamp(first.time),
    }
    manifest |= {"involvedObject": involved, "reason": first.reason, "message": event.message}
    if first.source in SCHEDULER_SOURCES:
        manifest |= {
            "source": {},
            "firstTimestamp": None,
            "lastTimestamp": None,
            "type": first.type,
            "eventTime": _micro_time(first.time),
            "action": SCHEDULER_ACTIONS.get(first.reason, "Scheduling"),
            "reportingComponent": first.source,
            "reportingInstance": f"{first.source}-playground",
        }
        if event.count > 1:
            manifest["series"] = {"count": event.count, "lastObservedTime": _micro_time(last.time)}
        return manifest
    source: dict[str, str] = {"component": first.source} if first.source else {}
    if event.host:
        source["host"] = event.host
    manifest |= {
        "source": source,
        "firstTimestamp": format_timestamp(first.time),
        "lastTimestamp": format_timestamp(last.time),
        "count": event.count,
        "type": first.type,
        "eventTime": None,
        "reportingComponent": first.source,
        "reportingInstance": event.host,
    }
    return manifest

"""The scheduler's view of the cluster: NodeInfo with running aggregates, kept up to date
incrementally as pods are bound and removed (pkg/scheduler/framework/types.go, internal/cache).
"""

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import (
    CPU,
    EMPTY,
    MEMORY,
    PODS,
    LabelSelector,
    LabelSelectorRequirement,
    Node,
    Pod,
    PodAffinityTerm,
)
from scheduler_core.scheduler.resources import non_zero_requests, pod_requests

ZONE_LABEL = "topology.kubernetes.io/zone"
REGION_LABEL = "topology.kubernetes.io/region"
DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class AffinityTerm:
    """A pod (anti-)affinity term with its namespaces resolved (framework.AffinityTerm)."""

    namespaces: frozenset[str]
    selector: LabelSelector | None
    topology_key: str
    namespace_selector: LabelSelector | None

    def matches(self, pod: Pod, namespace_labels: Mapping[str, str] | None) -> bool:
        in_namespace = pod.namespace in self.namespaces or (
            self.namespace_selector is not None
            and label_selector_matches(self.namespace_selector, namespace_labels or EMPTY)
        )
        return in_namespace and label_selector_matches(self.selector, pod.labels)


@dataclass(frozen=True, slots=True)
class WeightedAffinityTerm:
    term: AffinityTerm
    weight: int


def _merged_selector(term: PodAffinityTerm, pod: Pod) -> LabelSelector | None:
    """matchLabelKeys/mismatchLabelKeys become In/NotIn requirements on the pod's own values
    (done by the API server at pod creation since v1.33; the scheduler sees the merged selector)."""
    selector = term.label_selector
    extra = [
        LabelSelectorRequirement(key, "In", (pod.labels[key],)) for key in term.match_label_keys if key in pod.labels
    ] + [
        LabelSelectorRequirement(key, "NotIn", (pod.labels[key],))
        for key in term.mismatch_label_keys
        if key in pod.labels
    ]
    if not extra or selector is None:
        return selector
    return LabelSelector(selector.match_labels, selector.match_expressions + tuple(extra))


def affinity_term(term: PodAffinityTerm, pod: Pod) -> AffinityTerm:
    namespaces = frozenset(term.namespaces)
    if not namespaces and term.namespace_selector is None:
        namespaces = frozenset((pod.namespace,))
    return AffinityTerm(namespaces, _merged_selector(term, pod), term.topology_key, term.namespace_selector)


class PodInfo:
    """A pod with what the plugins read from it computed once (framework.PodInfo)."""

    __slots__ = (
        "has_affinity",
        "host_ports",
        "non_zero_cpu",
        "non_zero_memory",
        "pod",
        "preferred_affinity_terms",
        "preferred_anti_affinity_terms",
        "requests",
        "required_affinity_terms",
        "required_anti_affinity_terms",
    )

    def __init__(self, pod: Pod) -> None:
        self.pod = pod
        self.requests = pod_requests(pod)
        self.non_zero_cpu, self.non_zero_memory = non_zero_requests(pod)
        affinity = pod.spec.affinity
        pod_affinity = affinity.pod_affinity if affinity else None
        anti_affinity = affinity.pod_anti_affinity if affinity else None
        # Read for every pod added to a snapshot (50,000 at a time for an explanation): kept, not derived.
        self.has_affinity = pod_affinity is not None or anti_affinity is not None
        self.required_affinity_terms = (
            tuple(affinity_term(t, pod) for t in pod_affinity.required) if pod_affinity else ()
        )
        self.required_anti_affinity_terms = (
            tuple(affinity_term(t, pod) for t in anti_affinity.required) if anti_affinity else ()
        )
        self.preferred_affinity_terms = (
            tuple(
                WeightedAffinityTerm(affinity_term(w.pod_affinity_term, pod), w.weight) for w in pod_affinity.preferred
            )
            if pod_affinity
            else ()
        )
        self.preferred_anti_affinity_terms = (
            tuple(
                WeightedAffinityTerm(affinity_term(w.pod_affinity_term, pod), w.weight) for w in anti_affinity.preferred
            )
            if anti_affinity
            else ()
        )
        # util.GetHostPorts: sidecars (restartable init containers) first, then containers.
        self.host_ports = tuple(
            (port.host_ip or DEFAULT_BIND_ALL_HOST_IP, port.protocol or "TCP", port.host_port)
            for container in tuple(c for c in pod.spec.init_containers if c.restart_policy == "Always")
            + pod.spec.containers
            for port in container.ports
            if port.host_port > 0
        )

    def for_pod(self, pod: Pod) -> "PodInfo":
        """This info for another version of the same pod, one with this one's spec (the same
        object), namespace and labels: all the info is computed from (a status update, say)."""
        copy = PodInfo.__new__(PodInfo)  # attribute by attribute: a loop over __slots__ took 3x as long
        copy.pod = pod
        copy.has_affinity = self.has_affinity
        copy.requests = self.requests
        copy.non_zero_cpu, copy.non_zero_memory = self.non_zero_cpu, self.non_zero_memory
        copy.required_affinity_terms = self.required_affinity_terms
        copy.required_anti_affinity_terms = self.required_anti_affinity_terms
        copy.preferred_affinity_terms = self.preferred_affinity_terms
        copy.preferred_anti_affinity_terms = self.preferred_anti_affinity_terms
        copy.host_ports = self.host_ports
        return copy


class PodInfoCache:
    """PodInfos by pod, for snapshots built again and again of mostly the same pods (the
    explanations of a kept run, each a snapshot of 50,000 pods at the scenario limit). A pod is
    immutable, and so is what PodInfo computes from it: its spec, namespace and labels, which the
    versions of a pod that only its status tells apart share (PodInfo.for_pod). Keyed by object
    identity (an info holds its pod, and so its spec: the ids are not reused meanwhile); emptied
    past `limit` pods or specs."""

    def __init__(self, limit: int = 100_000) -> None:
        self._by_pod: dict[int, PodInfo] = {}
        self._by_spec: dict[int, PodInfo] = {}
        self._limit = limit

    def info(self, pod: Pod) -> PodInfo:
        found = self._by_pod.get(id(pod))
        if found is not None and found.pod is pod:
            return found
        if len(self._by_pod) >= self._limit:
            # Every explanation at another frame adds its own versions of the pods: those go, the
            # infos by spec (the costly part, and about one per pod) stay unless they are over too.
            self._by_pod.clear()
            if len(self._by_spec) >= self._limit:
                self._by_spec.clear()
        sibling = self._by_spec.get(id(pod.spec))
        if (
            sibling is not None
            and sibling.pod.spec is pod.spec
            and sibling.pod.namespace == pod.namespace
            and sibling.pod.labels == pod.labels
        ):
            info = sibling.for_pod(pod)
        else:
            info = self._by_spec[id(pod.spec)] = PodInfo(pod)
        self._by_pod[id(pod)] = info
        return info

    def warm(self, pods: Iterable[Pod]) -> None:
        for pod in pods:
            self.info(pod)

    def keep(self, pods: Iterable[Pod]) -> None:
        """Computes these pods' infos now, and raises the limit by as many: the limit bounds what
        later lookups add, not what the owner asked to have ready (a kept run's every pod version)."""
        limit, before = self._limit, len(self._by_pod)
        self._limit = sys.maxsize
        try:
            self.warm(pods)
        finally:
            self._limit = limit + len(self._by_pod) - before

    def __len__(self) -> int:
        return len(self._by_pod)


class NodeInfo:
    """One node and the pods on it, with aggregates updated on every add and remove."""

    __slots__ = (
        "allocatable",
        "generation",
        "image_sizes",
        "journal",
        "node",
        "non_zero_cpu",
        "non_zero_memory",
        "pods",
        "pods_with_affinity",
        "pods_with_required_anti_affinity",
        "requested",
        "used_ports",
    )

    def __init__(self, node: Node) -> None:
        self.node = node
        self.allocatable: Mapping[str, int] = node.status.allocatable
        self.pods: list[PodInfo] = []
        self.pods_with_affinity: list[PodInfo] = []
        self.pods_with_required_anti_affinity: list[PodInfo] = []
        self.requested: dict[str, int] = {}
        self.non_zero_cpu = 0
        self.non_zero_memory = 0
        self.used_ports: dict[tuple[str, str, int], int] = {}
        # image name -> size in bytes; how many nodes hold an image is asked of the Snapshot
        self.image_sizes: dict[str, int] = {
            name: image.size_bytes for image in node.status.images for name in image.names
        }
        self.generation = 0
        # The owning Snapshot's change journal (None for clones and free-standing NodeInfos): every
        # change of the aggregates appends this NodeInfo, so caches learn which nodes moved.
        self.journal: list[NodeInfo] | None = None

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def allowed_pod_number(self) -> int:
        return self.allocatable.get(PODS, 0)

    def add_pod(self, info: PodInfo) -> None:
        self.pods.append(info)
        if info.has_affinity:
            self.pods_with_affinity.append(info)
        if info.required_anti_affinity_terms:
            self.pods_with_required_anti_affinity.append(info)
        self._account(info, 1)

    def add_pods(self, infos: list[PodInfo]) -> None:
        """add_pod for each, with the aggregates summed in locals and the change journaled once:
        a snapshot built whole adds 50,000 pods (issue #14), a third quicker this way."""
        if not infos:
            return
        self.pods.extend(infos)
        requested = self.requested
        non_zero_cpu = non_zero_memory = 0
        for info in infos:
            for name, amount in info.requests.items():
                requested[name] = requested.get(name, 0) + amount
            non_zero_cpu += info.non_zero_cpu
            non_zero_memory += info.non_zero_memory
            if info.has_affinity:
                self.pods_with_affinity.append(info)
                if info.required_anti_affinity_terms:
                    self.pods_with_required_anti_affinity.append(info)
            if info.host_ports:
                for port in info.host_ports:
                    self.used_ports[port] = self.used_ports.get(port, 0) + 1
        self.non_zero_cpu += non_zero_cpu
        self.non_zero_memory += non_zero_memory
        self.generation += len(infos)
        if self.journal is not None:
            self.journal.append(self)

    def remove_pod(self, pod_key: str) -> PodInfo | None:
        for index, info in enumerate(self.pods):
            if info.pod.key == pod_key:
                del self.pods[index]
                self.pods_with_affinity = [p for p in self.pods_with_affinity if p is not info]
                self.pods_with_required_anti_affinity = [
                    p for p in self.pods_with_required_anti_affinity if p is not info
                ]
                self._account(info, -1)
                return info
        return None

    def _account(self, info: PodInfo, sign: int) -> None:
        requested = self.requested
        for name, amount in info.requests.items():
            requested[name] = requested.get(name, 0) + sign * amount
        self.non_zero_cpu += sign * info.non_zero_cpu
        self.non_zero_memory += sign * info.non_zero_memory
        for port in info.host_ports:
            count = self.used_ports.get(port, 0) + sign
            if count:
                self.used_ports[port] = count
            else:
                self.used_ports.pop(port, None)
        self.generation += 1
        if self.journal is not None:
            self.journal.append(self)

    def requested_cpu(self) -> int:
        return self.requested.get(CPU, 0)

    def requested_memory(self) -> int:
        return self.requested.get(MEMORY, 0)

    def clone(self) -> "NodeInfo":
        """A copy whose pod lists and aggregates can change without touching this one (preemption what-ifs)."""
        copy = NodeInfo.__new__(NodeInfo)
        copy.node = self.node
        copy.allocatable = self.allocatable
        copy.pods = list(self.pods)
        copy.pods_with_affinity = list(self.pods_with_affinity)
        copy.pods_with_required_anti_affinity = list(self.pods_with_required_anti_affinity)
        copy.requested = dict(self.requested)
        copy.non_zero_cpu = self.non_zero_cpu
        copy.non_zero_memory = self.non_zero_memory
        copy.used_ports = dict(self.used_ports)
        copy.image_sizes = self.image_sizes
        copy.generation = self.generation
        copy.journal = None
        return copy


def zone_key(node: Node) -> str:
    """pkg/util/node GetZoneKey: region and zone joined, empty when the node has neither."""
    region = node.labels.get(REGION_LABEL, "")
    zone = node.labels.get(ZONE_LABEL, "")
    if not region and not zone:
        return ""
    return f"{region}:\x00:{zone}"


@dataclass(slots=True)
class _Zone:
    key: str
    nodes: list[str] = field(default_factory=list)


class Snapshot:
    """All NodeInfos, listed in upstream's node-tree order: zones in turn, one node from each.

    The order matters: it decides which nodes the sampling of percentageOfNodesToScore visits and so,
    with the rotating start index, where pods land in large clusters.
    """

    def __init__(self) -> None:
        self.node_infos: dict[str, NodeInfo] = {}
        self._zones: list[_Zone] = []
        self._ordered: list[NodeInfo] | None = None
        self._index: dict[str, int] | None = None
        self._names: list[str] | None = None
        self._with_affinity: list[NodeInfo] | None = None
        self._with_required_anti_affinity: list[NodeInfo] | None = None
        self._images: dict[str, set[str]] = {}  # image name -> nodes that have it
        self.namespace_labels: dict[str, Mapping[str, str]] = {}
        # Change tracking for caches kept across scheduling cycles: ``epoch`` moves whenever the node
        # list, its order or a node object changes (everything must be recomputed); otherwise the
        # journal lists, in order, each NodeInfo whose pods changed (one entry per change).
        self.epoch = 0
        self._journal: list[NodeInfo] = []
        self._journal_base = 0  # the absolute position of _journal[0]

    # ------------------------------------------------------------------ nodes

    def add_node(self, node: Node) -> NodeInfo:
        if node.name in self.node_infos:
            return self.update_node(node)
        info = NodeInfo(node)
        info.journal = self._journal
        self.node_infos[node.name] = info
        key = zone_key(node)
        zone = next((z for z in self._zones if z.key == key), None)
        if zone is None:
            zone = _Zone(key)
            self._zones.append(zone)
        zone.nodes.append(node.name)
        self._add_images(node)
        self._invalidate()
        return info

    def update_node(self, node: Node) -> NodeInfo:
        info = self.node_infos[node.name]
        old = info.node
        if zone_key(old) != zone_key(node):
            self._remove_from_zone(old)
            key = zone_key(node)
            zone = next((z for z in self._zones if z.key == key), None)
            if zone is None:
                zone = _Zone(key)
                self._zones.append(zone)
            zone.nodes.append(node.name)
        self._remove_images(old)
        info.node = node
        info.allocatable = node.status.allocatable
        info.image_sizes = {name: image.size_bytes for image in node.status.images for name in image.names}
        info.generation += 1
        self._add_images(node)
        self._invalidate()
        return info

    def remove_node(self, name: str) -> NodeInfo | None:
        info = self.node_infos.pop(name, None)
        if info is None:
            return None
        info.journal = None
        self._remove_from_zone(info.node)
        self._remove_images(info.node)
        self._invalidate()
        return info

    def _remove_from_zone(self, node: Node) -> None:
        key = zone_key(node)
        for index, zone in enumerate(self._zones):
            if zone.key == key:
                zone.nodes.remove(node.name)
                if not zone.nodes:
                    del self._zones[index]
                return

    # ------------------------------------------------------------------ images

    def _add_images(self, node: Node) -> None:
        for image in node.status.images:
            for name in image.names:
                self._images.setdefault(name, set()).add(node.name)

    def _remove_images(self, node: Node) -> None:
        for image in node.status.images:
            for name in image.names:
                holders = self._images.get(name)
                if holders is not None:
                    holders.discard(node.name)
                    if not holders:
                        del self._images[name]

    def image_num_nodes(self, image: str) -> int:
        """How many nodes hold the image (ImageStateSummary.NumNodes)."""
        return len(self._images.get(image, ()))

    # ------------------------------------------------------------------ pods

    def add_pod(self, pod: Pod, info: PodInfo | None = None) -> PodInfo:
        """Accounts the bound pod on its node; `info`: its PodInfo, when the caller has it already."""
        info = PodInfo(pod) if info is None else info
        node = self.node_infos[pod.spec.node_name]
        node.add_pod(info)
        if len(self._journal) > self._journal_bound():
            self._trim_journal()  # bounded even when no cache reads it
        if info.has_affinity:
            self._with_affinity = None
        if info.required_anti_affinity_terms:
            self._with_required_anti_affinity = None
        return info

    def add_pods(self, infos: Iterable[PodInfo]) -> None:
        """add_pod for many bound pods at once (a snapshot built whole: 50,000 pods for an
        explanation at the scenario limit), without add_pod's per-pod bookkeeping."""
        by_node: dict[str, list[PodInfo]] = {}
        for info in infos:
            name = info.pod.spec.node_name
            group = by_node.get(name)
            if group is None:
                by_node[name] = [info]
            else:
                group.append(info)
        node_infos = self.node_infos
        for name, group in by_node.items():
            node_infos[name].add_pods(group)
        self._trim_journal()
        self._with_affinity = None
        self._with_required_anti_affinity = None

    def remove_pod(self, pod: Pod) -> PodInfo | None:
        node = self.node_infos.get(pod.spec.node_name)
        if node is None:
            return None
        info = node.remove_pod(pod.key)
        if info is not None:
            self._with_affinity = None
            self._with_required_anti_affinity = None
        return info

    # ------------------------------------------------------------------ listing

    def _invalidate(self) -> None:
        self._ordered = None
        self._index = None
        self._names = None
        self._with_affinity = None
        self._with_required_anti_affinity = None
        self.epoch += 1

    # ------------------------------------------------------------------ change tracking

    def journal_position(self) -> int:
        """Where the journal ends now: pass it to changed_since() later. Old entries are dropped
        from time to time; a reader that fell behind them is told to recompute everything."""
        self._trim_journal()
        return self._journal_base + len(self._journal)

    def _journal_bound(self) -> int:
        return max(4096, 4 * len(self.node_infos))

    def _trim_journal(self) -> None:
        journal, bound = self._journal, self._journal_bound()
        while len(journal) > bound:  # more than once only after add_pods
            drop = len(journal) // 2
            del journal[:drop]
            self._journal_base += drop

    def changed_since(self, epoch: int, position: int) -> list[NodeInfo] | None:
        """The NodeInfos changed since (epoch, journal position), possibly repeated; None when that
        cannot be told (the node list changed, or the journal no longer reaches back so far)."""
        if epoch != self.epoch:
            return None
        offset = position - self._journal_base
        if offset < 0:
            return None
        return self._journal[offset:]

    def node_names(self) -> list[str]:
        """The names of nodes(), in that order."""
        if self._names is None or self._ordered is None:
            self._names = [info.node.metadata.name for info in self.nodes()]
        return self._names

    def node_index(self) -> dict[str, int]:
        """Node name -> position in nodes()."""
        if self._index is None or self._ordered is None:
            self._index = {info.name: index for index, info in enumerate(self.nodes())}
        return self._index

    def nodes(self) -> list[NodeInfo]:
        if self._ordered is None:
            ordered: list[NodeInfo] = []
            remaining = sum(len(zone.nodes) for zone in self._zones)
            depth = 0
            while len(ordered) < remaining:
                for zone in self._zones:
                    if depth < len(zone.nodes):
                        ordered.append(self.node_infos[zone.nodes[depth]])
                depth += 1
            self._ordered = ordered
        return self._ordered

    def have_pods_with_affinity(self) -> list[NodeInfo]:
        if self._with_affinity is None:
            self._with_affinity = [info for info in self.nodes() if info.pods_with_affinity]
        return self._with_affinity

    def have_pods_with_required_anti_affinity(self) -> list[NodeInfo]:
        if self._with_required_anti_affinity is None:
            self._with_required_anti_affinity = [info for info in self.nodes() if info.pods_with_required_anti_affinity]
        return self._with_required_anti_affinity

    def get(self, name: str) -> NodeInfo | None:
        return self.node_infos.get(name)

    def __len__(self) -> int:
        return len(self.node_infos)


def build_snapshot(
    nodes: Iterable[Node], pods: Iterable[Pod], namespace_labels: Mapping[str, Mapping[str, str]] | None = None
) -> Snapshot:
    snapshot = Snapshot()
    for node in nodes:
        snapshot.add_node(node)
    for pod in pods:
        if pod.spec.node_name in snapshot.node_infos:
            snapshot.add_pod(pod)
    snapshot.namespace_labels = dict(namespace_labels or {})
    return snapshot

"""The fast path of a scheduling cycle: the Filter and Score loops of the in-tree plugins fused,
over per-node results kept from one cycle to the next.

Nothing here decides anything the plugins would not: the PreFilter and PreScore plugins run as
usual (Framework.run_pre_filter / run_pre_score); a node's verdict and raw scores are computed by the
plugins' own Filter and Score methods, then kept. What is kept and for how long:

- Node-local plugins (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
  NodeResourcesFit; NodeResourcesBalancedAllocation and ImageLocality for scoring) read only the pod
  and the node. Their combined verdict, and their raw scores, are kept per node under a pod
  "signature" made of every pod field they read (upstream v1.35's pod signatures are the same idea),
  together with the plugins active in the cycle. An entry is dropped when its node changes (the
  Snapshot's journal) and all are dropped when the node list or a node object changes (its epoch).
- PodTopologySpread and InterPodAffinity read cluster-wide counts that change with every binding:
  they are evaluated every cycle, from the states their PreFilter and PreScore wrote, a window of
  nodes at a time: each node's (topology key, value) is kept per epoch, so a window's lookups in the
  counts are list operations, and only the nodes they reject are walked. The verdicts over a window
  are the plugins' own (their window_filters, scheduler/window_filter.py), not restated here.
- A node with nominated pods that count for the pod goes through the generic
  Framework.run_filter_with_nominated_pods; without cluster-wide plugins its verdict is kept as well,
  for as long as the node and those nominated pods stay the same.
- Preemption's dry run (SelectVictimsOnNode) keeps each node's outcome the same way, per preemptor
  signature and priority, when no PodDisruptionBudget and only node-local plugins are involved.

The cycle visits the same nodes in the same order from the same start index, stops after the same
number of feasible nodes, records the same statuses, normalizes and weighs the same scores and draws
the same random numbers for ties as the generic loops. Whenever a cycle uses a plugin this module
does not know (a custom plugin, an extender-like plugin, a volume plugin that did not Skip, ...), it
says so before doing anything and the scheduler runs the generic loops instead.
"""

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial, wraps
from itertools import repeat
from operator import add, mul
from typing import Any

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import (
    MAX_NODE_SCORE,
    MIN_NODE_SCORE,
    Code,
    CycleState,
    NodePluginScores,
    SchedulingError,
    Status,
    error,
)
from scheduler_core.scheduler.plugins.helpers import default_normalized
from scheduler_core.scheduler.plugins.image_locality import ImageLocality
from scheduler_core.scheduler.plugins.inter_pod_affinity import plugin as ipa_module
from scheduler_core.scheduler.plugins.inter_pod_affinity.plugin import InterPodAffinity
from scheduler_core.scheduler.plugins.inter_pod_affinity.scoring import PreScoreState as AffinityPreScoreState
from scheduler_core.scheduler.plugins.inter_pod_affinity.scoring import normalized as affinity_normalized
from scheduler_core.scheduler.plugins.node_affinity import NodeAffinity
from scheduler_core.scheduler.plugins.node_name import NodeName
from scheduler_core.scheduler.plugins.node_ports import NodePorts, pod_host_ports
from scheduler_core.scheduler.plugins.node_resources_balanced_allocation import NodeResourcesBalancedAllocation
from scheduler_core.scheduler.plugins.node_resources_fit import NodeResourcesFit
from scheduler_core.scheduler.plugins.node_unschedulable import NodeUnschedulable
from scheduler_core.scheduler.plugins.pod_topology_spread.plugin import PodTopologySpread
from scheduler_core.scheduler.plugins.taint_toleration import TaintToleration
from scheduler_core.scheduler.resources import NON_ZERO_DEFAULTS, pod_requests
from scheduler_core.scheduler.runtime import Framework
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo, Snapshot
from scheduler_core.scheduler.window_filter import WindowFilter

# Plugins whose Filter reads only the pod (the signature's fields) and the node.
_LOCAL_FILTERS: tuple[type, ...] = (
    NodeUnschedulable,
    NodeName,
    TaintToleration,
    NodeAffinity,
    NodePorts,
    NodeResourcesFit,
)
# Plugins whose Score reads only the pod, the node and (ImageLocality) the node list.
_LOCAL_SCORES: tuple[type, ...] = (
    TaintToleration,
    NodeAffinity,
    NodeResourcesFit,
    NodeResourcesBalancedAllocation,
    ImageLocality,
)
# How each normalizes (helper.DefaultNormalizeScore, reversed or not); absent: no NormalizeScore.
_DEFAULT_NORMALIZE = {TaintToleration: True, NodeAffinity: False}

_MISSING: Any = object()  # a node whose entry must be computed
_CACHE_ENTRIES = 16  # signatures remembered per kind of cache

Signature = Hashable


class _NodeCache:
    """One value per node of the snapshot (in nodes() order), dropped as the snapshot changes."""

    __slots__ = ("epoch", "position", "snapshot", "values")

    def __init__(self) -> None:
        self.snapshot: Snapshot | None = None
        self.epoch = -1
        self.position = 0
        self.values: list[Any] = []

    def sync(self, snapshot: Snapshot, count: int, index: dict[str, int]) -> list[Any]:
        changed = snapshot.changed_since(self.epoch, self.position) if self.snapshot is snapshot else None
        if changed is None:
            self.values = [_MISSING] * count
            self.snapshot = snapshot
            self.epoch = snapshot.epoch
        else:
            values = self.values
            for info in changed:
                values[index[info.node.name]] = _MISSING
        self.position = snapshot.journal_position()
        return self.values


class _Caches:
    """_NodeCaches by key, the most recently used few."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[Hashable, _NodeCache] = {}

    def get(self, key: Hashable, snapshot: Snapshot, count: int, index: dict[str, int]) -> list[Any]:
        entries = self._entries
        entry = entries.pop(key, None)
        if entry is None:
            entry = _NodeCache()
            if len(entries) >= _CACHE_ENTRIES:
                del entries[next(iter(entries))]
        entries[key] = entry
        return entry.sync(snapshot, count, index)


def pod_signature(pod: Pod) -> Signature | None:
    """Every field of the pod the node-local plugins read; None if some part cannot be hashed."""
    spec = pod.spec
    affinity = spec.affinity
    signature = (
        spec.tolerations,
        spec.node_name,
        tuple(spec.node_selector.items()),
        affinity.node_affinity if affinity is not None else None,
        tuple(pod_requests(pod).items()),
        tuple(pod_requests(pod, NON_ZERO_DEFAULTS).items()),
        tuple(pod_host_ports(pod)),
        tuple(container.image for container in spec.init_containers),
        tuple(container.image for container in spec.containers),
    )
    try:
        hash(signature)
    except TypeError:
        return None
    return signature


class LazyScores:
    """The per-plugin normalized scores of a fast cycle, turned into NodePluginScores when asked for."""

    __slots__ = ("columns", "nodes", "plugins", "totals")

    def __init__(
        self, nodes: Sequence[NodeInfo], plugins: list[str], columns: list[Callable[[], list[int]]], totals: list[int]
    ) -> None:
        self.nodes = nodes
        self.plugins = plugins
        self.columns = columns  # per plugin: its normalized scores, computed on demand
        self.totals = totals

    def materialize(self) -> list[NodePluginScores]:
        columns = [column() for column in self.columns]
        plugins = self.plugins
        return [
            NodePluginScores(node.node.name, dict(zip(plugins, [column[i] for column in columns], strict=True)), total)
            for i, (node, total) in enumerate(zip(self.nodes, self.totals, strict=True))
        ]


class VictimsCache:
    """SelectVictimsOnNode's results for one preemptor signature (and priority), per node, kept while
    the node and the nominated pods that count on it stay the same."""

    __slots__ = ("_index", "_nominated", "_values")

    def __init__(self, values: list[Any], index: dict[str, int], nominated: dict[str, tuple[PodInfo, ...]]) -> None:
        self._values = values
        self._index = index
        self._nominated = nominated

    def get(self, node: NodeInfo) -> Any:
        entry = self._values[self._index[node.node.name]]
        if entry is _MISSING or entry[0] != self._nominated.get(node.node.name, ()):
            return None
        return entry[1]

    def put(self, node: NodeInfo, result: Any) -> None:
        name = node.node.name
        self._values[self._index[name]] = (self._nominated.get(name, ()), result)


def _wrap(plugin_name: str, status: Status) -> Status:
    """What Framework.run_filter makes of a plugin's failed Filter status."""
    if not status.is_rejected:
        return error(f'running "{plugin_name}" filter plugin: {status.message}').with_plugin(plugin_name)
    return status.with_plugin(plugin_name)


def _counted[**P, T](kind: str) -> Callable[[Callable[P, T | None]], Callable[P, T | None]]:
    """Counts a FastPath method's answers in its `counts`: under `kind` when it answered, under
    `kind`_fallback when it left the cycle to the generic loops (None)."""

    def decorate(method: Callable[P, T | None]) -> Callable[P, T | None]:
        @wraps(method)
        def counted(*args: P.args, **kwargs: P.kwargs) -> T | None:
            found = method(*args, **kwargs)
            fast_path: FastPath = args[0]  # type: ignore[assignment]
            fast_path.counts[kind if found is not None else kind + "_fallback"] += 1
            return found

        return counted

    return decorate


class _Domains:
    """The snapshot's nodes as window filters look them up (window_filter.NodeDomains), from the
    per-epoch lists the fast path keeps."""

    def __init__(self, fast_path: "FastPath", snapshot: Snapshot, all_nodes: list[NodeInfo]) -> None:
        self._fast_path = fast_path
        self._snapshot = snapshot
        self._all_nodes = all_nodes

    def values(self, key: str) -> list[str | None]:
        values: list[str | None] = self._fast_path.by_key(self._snapshot, self._all_nodes, key)[0]
        return values

    def pairs(self, key: str) -> list[tuple[str, str] | None]:
        pairs: list[tuple[str, str] | None] = self._fast_path.by_key(self._snapshot, self._all_nodes, key)[1]
        return pairs

    def labels(self) -> list[Mapping[str, str]]:
        labels: list[Mapping[str, str]] = self._fast_path.node_attrs(self._snapshot, self._all_nodes)[1]
        return labels


class FastPath:
    """The fused loops for one Framework (profile)."""

    def __init__(self, framework: Framework) -> None:
        self.framework = framework
        self._filters = list(framework.points["filter"])
        self._scores = list(framework.points["score"])
        # Cycles run by the fused loops and cycles handed back to the generic ones (for tests and profiling).
        self.counts: dict[str, int] = dict.fromkeys(("filter", "filter_fallback", "score", "score_fallback"), 0)
        self._verdicts = _Caches()
        self._with_nominated = _Caches()
        self._raw_scores = _Caches()
        self._victims = _Caches()
        self._attrs_key: tuple[Snapshot | None, int] = (None, -1)
        self._values_by_key: dict[str, tuple[list[Any], list[Any]]] = {}
        self._names: list[str] = []
        self._labels: list[Any] = []
        # The last feasible list pass_filters returned and the snapshot positions of its nodes.
        self._feasible: list[NodeInfo] | None = None
        self._feasible_slots: list[int] = []
        self._signature_pod: Pod | None = None
        self._signature: Signature | None = None

    # ------------------------------------------------------------------ helpers

    def _pod_signature(self, pod: Pod) -> Signature | None:
        if self._signature_pod is not pod:
            self._signature = pod_signature(pod)
            self._signature_pod = pod
        return self._signature

    def node_attrs(self, snapshot: Snapshot, all_nodes: list[NodeInfo]) -> tuple[list[str], list[Any]]:
        """Each node's name and labels, in nodes() order: they only change with the snapshot's epoch."""
        known_snapshot, known_epoch = self._attrs_key
        if known_snapshot is not snapshot or known_epoch != snapshot.epoch or len(self._names) != len(all_nodes):
            self._names = [info.node.metadata.name for info in all_nodes]
            self._labels = [info.node.metadata.labels for info in all_nodes]
            self._values_by_key = {}
            self._attrs_key = (snapshot, snapshot.epoch)
        return self._names, self._labels

    # ------------------------------------------------------------------ Filter

    @_counted("filter")
    def pass_filters(
        self,
        snapshot: Snapshot,
        state: CycleState,
        pod: Pod,
        node_statuses: dict[str, Status],
        unschedulable_plugins: set[str],
        nodes: list[NodeInfo],
        start: int,
        to_find: int,
    ) -> tuple[list[NodeInfo], int] | None:
        """find_nodes_that_pass_filters' loop: (feasible, processed), or None (before any effect)
        when this cycle uses something the fast path does not cover."""
        skip = state.skip_filter_plugins
        local: list[Any] = []
        global_plugins: list[Any] = []
        for plugin in self._filters:
            if plugin.name in skip:
                continue
            kind = type(plugin)
            if kind in _LOCAL_FILTERS:
                if global_plugins:
                    return None  # a node-local plugin after a cluster-wide one: keep the generic order
                local.append(plugin)
            elif kind is PodTopologySpread or kind is InterPodAffinity:
                global_plugins.append(plugin)
            else:
                return None
        signature = self._pod_signature(pod)
        if signature is None:
            return None
        all_nodes = snapshot.nodes()
        index = snapshot.node_index()
        verdicts = self._verdicts.get(
            (signature, tuple(plugin.name for plugin in local)), snapshot, len(all_nodes), index
        )
        names_of = self.node_attrs(snapshot, all_nodes)[0]
        window_filters = self._window_filters(state, global_plugins, snapshot, all_nodes)

        # Nodes where nominated pods count for this pod get the generic two-pass filter. Without
        # cluster-wide plugins its verdict is kept too, for as long as the node and those pods stay.
        framework = self.framework
        nominated = self._nominated(pod)
        with_nominated: list[Any] | None = None
        if nominated and not window_filters:
            with_nominated = self._with_nominated.get(
                (signature, tuple(plugin.name for plugin in local)), snapshot, len(all_nodes), index
            )

        count = len(nodes)
        positions = None if nodes is all_nodes else [index[node.node.name] for node in nodes]
        feasible: list[NodeInfo] = []
        feasible_slots: list[int] = []
        found = 0
        processed = 0
        # Windows of as many nodes as are still to be found: none of them can overshoot the early
        # stop, so each window is looked up with list operations and walked only where needed.
        while processed < count and found < to_find:
            take = min(to_find - found, count - processed)
            low = (start + processed) % count
            high = low + take
            if high <= count:
                window = nodes[low:high]
                slots = list(range(low, high)) if positions is None else positions[low:high]
            else:
                window = nodes[low:] + nodes[: high - count]
                slots = (
                    list(range(low, count)) + list(range(high - count))
                    if positions is None
                    else positions[low:] + positions[: high - count]
                )
            statuses = [verdicts[slot] for slot in slots]
            if _MISSING in statuses:
                for i, status in enumerate(statuses):
                    if status is not _MISSING:
                        continue
                    node = window[i]
                    status = None
                    for plugin in local:
                        result = plugin.filter(state, pod, node)
                        if result.code is not Code.Success:
                            status = _wrap(plugin.name, result)
                            break
                    statuses[i] = status
                    if status is not None and status.code is Code.Error:
                        take = i + 1  # the generic loop stops here: so does the window
                        window, slots, statuses = window[:take], slots[:take], statuses[:take]
                        break
                    verdicts[slots[i]] = status
            processed += take
            for window_filter in window_filters:
                window_filter(slots, statuses)
            if not nominated and statuses.count(None) == take:
                feasible += window
                feasible_slots += slots
                found += take
                continue
            for node, slot, status in zip(window, slots, statuses, strict=True):
                if nominated and (counted := nominated.get(names_of[slot])) is not None:
                    kept = with_nominated[slot] if with_nominated is not None else _MISSING
                    if kept is not _MISSING and kept[0] == counted:
                        status = kept[1]
                    else:
                        status = framework.run_filter_with_nominated_pods(state, pod, node)
                        if status.code is Code.Success:
                            status = None
                        if with_nominated is not None and (status is None or status.code is not Code.Error):
                            with_nominated[slot] = (counted, status)
                if status is None:
                    feasible.append(node)
                    feasible_slots.append(slot)
                    found += 1
                elif status.code is Code.Error:
                    raise SchedulingError(status.message)
                else:
                    node_statuses[names_of[slot]] = status
                    if status.plugin:
                        unschedulable_plugins.add(status.plugin)
        self._feasible = feasible
        self._feasible_slots = feasible_slots
        return feasible, processed

    def _nominated(self, pod: Pod) -> dict[str, tuple[PodInfo, ...]]:
        """Per node, the nominated pods that count for ``pod`` (RunFilterPluginsWithNominatedPods)."""
        nominator = self.framework.handle.nominator
        found: dict[str, tuple[PodInfo, ...]] = {}
        if nominator:
            priority = pod.priority
            key = pod.key
            for name, infos in nominator.by_node().items():
                counted = tuple(info for info in infos if info.pod.priority >= priority and info.pod.key != key)
                if counted:
                    found[name] = counted
        return found

    def victims_cache(
        self, snapshot: Snapshot, state: CycleState, pod: Pod, pdbs: Sequence[Any]
    ) -> "VictimsCache | None":
        """Kept SelectVictimsOnNode results for this preemption attempt's dry run, or None when they
        cannot be kept: PodDisruptionBudgets, or a Filter plugin other than the node-local ones."""
        if pdbs:
            return None
        skip = state.skip_filter_plugins
        active = []
        for plugin in self._filters:
            if plugin.name in skip:
                continue
            if type(plugin) not in _LOCAL_FILTERS:
                return None
            active.append(plugin.name)
        signature = self._pod_signature(pod)
        if signature is None:
            return None
        all_nodes = snapshot.nodes()
        index = snapshot.node_index()
        values = self._victims.get((signature, tuple(active), pod.priority), snapshot, len(all_nodes), index)
        return VictimsCache(values, index, self._nominated(pod))

    def by_key(self, snapshot: Snapshot, all_nodes: list[NodeInfo], key: str) -> tuple[list[Any], list[Any]]:
        """Per node (nodes() order): its value of the label ``key`` (None without it), and the pair
        (key, value) (None without it); kept for the snapshot's epoch."""
        self.node_attrs(snapshot, all_nodes)  # resets the per-epoch lists when the epoch moved
        known = self._values_by_key.get(key)
        if known is None:
            values = [labels.get(key) for labels in self._labels]
            pairs = [None if value is None else (key, value) for value in values]
            known = self._values_by_key[key] = (values, pairs)
        return known

    def _window_filters(
        self, state: CycleState, plugins: list[Any], snapshot: Snapshot, all_nodes: list[NodeInfo]
    ) -> list[WindowFilter]:
        """Each cluster-wide Filter plugin's verdicts over a window of nodes, in the plugins' order,
        as the plugin states them (its window_filters), wrapped as Framework.run_filter does."""
        domains = _Domains(self, snapshot, all_nodes)
        filters: list[WindowFilter] = []
        for plugin in plugins:
            filters.extend(plugin.window_filters(state, domains, partial(_wrap, plugin.name)))
        return filters

    # ------------------------------------------------------------------ Score

    @_counted("score")
    def score(self, snapshot: Snapshot, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> LazyScores | None:
        """Framework.run_score over the feasible nodes (PreScore has run): the weighted totals, and the
        per-plugin scores on demand; None when the cycle needs the generic loop (which then also
        raises whatever error there is)."""
        framework = self.framework
        skip = state.skip_score_plugins
        weights = framework.score_weights
        normalizing = framework.normalizing
        active = [plugin for plugin in self._scores if plugin.name not in skip]
        local = []
        for plugin in active:
            kind = type(plugin)
            if kind in _LOCAL_SCORES:
                if (plugin.name in normalizing) != (kind in _DEFAULT_NORMALIZE):
                    return None
                local.append(plugin)
            elif kind is not InterPodAffinity and kind is not PodTopologySpread:
                return None
        signature = self._pod_signature(pod)
        if signature is None:
            return None
        all_nodes = snapshot.nodes()
        index = snapshot.node_index()
        if nodes is self._feasible:
            slots: list[int] = self._feasible_slots
        else:
            slots = [index[node.node.name] for node in nodes]

        # Raw scores of the node-local plugins, kept per node, with the weighted sum of those that
        # need no normalizing (their raw score is final; out of range, the generic loop reports it).
        cache = self._raw_scores.get(
            (signature, tuple(plugin.name for plugin in local)), snapshot, len(all_nodes), index
        )
        entries = [cache[slot] for slot in slots]
        if _MISSING in entries:
            plain = [
                (position, weights[plugin.name])
                for position, plugin in enumerate(local)
                if type(plugin) not in _DEFAULT_NORMALIZE
            ]
            for i, entry in enumerate(entries):
                if entry is not _MISSING:
                    continue
                node = nodes[i]
                raw = []
                for plugin in local:
                    value, status = plugin.score(state, pod, node)
                    if status.code is not Code.Success:
                        return None
                    raw.append(value)
                partial = 0
                for position, weight in plain:
                    value = raw[position]
                    if not MIN_NODE_SCORE <= value <= MAX_NODE_SCORE:
                        return None
                    partial += value * weight
                entries[i] = cache[slots[i]] = (tuple(raw), partial)

        totals = [entry[1] for entry in entries]
        columns: dict[str, Callable[[], list[int]]] = {}
        for position, plugin in enumerate(local):
            kind = type(plugin)
            if kind in _DEFAULT_NORMALIZE:
                raw_column = [entry[0][position] for entry in entries]
                highest = max(raw_column, default=0)
                reverse = _DEFAULT_NORMALIZE[kind]
                weight = weights[plugin.name]
                if highest == 0 and reverse:
                    # Nothing to hold against any node: every node gets the maximum.
                    totals = list(map((MAX_NODE_SCORE * weight).__add__, totals))
                    columns[plugin.name] = _repeat(MAX_NODE_SCORE, len(entries))
                    continue
                column = default_normalized(raw_column, reverse=reverse)
                if not _in_range(column):
                    return None
                totals = _add_weighted(totals, column, weight)
                columns[plugin.name] = _constant(column)
            else:
                columns[plugin.name] = _column(entries, position)
        for plugin in active:
            kind = type(plugin)
            if kind is InterPodAffinity:
                global_column = self._affinity_scores(state, snapshot, all_nodes, slots)
            elif kind is PodTopologySpread:
                global_column = self._spread_scores(state, plugin, nodes)
            else:
                continue
            if global_column is None or not _in_range(global_column):
                return None
            totals = _add_weighted(totals, global_column, weights[plugin.name])
            columns[plugin.name] = _constant(global_column)
        plugins = [plugin.name for plugin in active]
        return LazyScores(nodes, plugins, [columns[name] for name in plugins], totals)

    def _affinity_scores(
        self, state: CycleState, snapshot: Snapshot, all_nodes: list[NodeInfo], slots: list[int]
    ) -> list[int] | None:
        """InterPodAffinity's Score (the summed weights of the node's topology pairs) and NormalizeScore."""
        pre_score = state.get(ipa_module.PRE_SCORE_KEY)
        if not isinstance(pre_score, AffinityPreScoreState):
            return None
        keys = pre_score.keys
        if not keys:
            return [0] * len(slots)  # nothing to add up, and NormalizeScore leaves the zeros
        topology_score = pre_score.topology_score
        scores: list[int] | None = None
        for key in keys:
            pairs = self.by_key(snapshot, all_nodes, key)[1]
            column = list(map(topology_score.get, map(pairs.__getitem__, slots), repeat(0)))
            scores = column if scores is None else list(map(add, scores, column))
        assert scores is not None
        return affinity_normalized(scores)

    def _spread_scores(self, state: CycleState, plugin: PodTopologySpread, nodes: list[NodeInfo]) -> list[int] | None:
        """PodTopologySpread's Score column and its NormalizeScore."""
        raw = plugin.score_nodes(state, nodes)
        if raw is None or plugin.name not in self.framework.normalizing:
            return raw
        return plugin.normalize_column(state, nodes, raw)


def _in_range(column: list[int]) -> bool:
    return not column or (min(column) >= MIN_NODE_SCORE and max(column) <= MAX_NODE_SCORE)


def _add_weighted(totals: list[int], column: list[int], weight: int) -> list[int]:
    if weight == 1:
        return list(map(add, totals, column))
    return list(map(add, totals, map(mul, column, repeat(weight))))


def _repeat(value: int, count: int) -> Callable[[], list[int]]:
    return lambda: [value] * count


def _constant(column: list[int]) -> Callable[[], list[int]]:
    return lambda: column


def _column(entries: list[Any], position: int) -> Callable[[], list[int]]:
    return lambda: [entry[0][position] for entry in entries]

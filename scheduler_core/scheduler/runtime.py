"""A profile's plugins, instantiated and ordered per extension point, and the loops that run them
(pkg/scheduler/framework/runtime/framework.go)."""

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.types import Pod, PodDisruptionBudget
from scheduler_core.scheduler.cluster_events import ClusterEvent, PluginHint, build_queueing_hint_map
from scheduler_core.scheduler.config import CONFIG_DOCUMENT, EXTENSION_POINTS, PluginSet, Profile
from scheduler_core.scheduler.framework import (
    MAX_NODE_SCORE,
    MIN_NODE_SCORE,
    SUCCESS,
    BindPlugin,
    Code,
    CycleState,
    FilterPlugin,
    NodePluginScores,
    NodeScore,
    NormalizeScorePlugin,
    PermitPlugin,
    PostFilterPlugin,
    PreBindPlugin,
    PreFilterExtensions,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    QueueSortPlugin,
    ReservePlugin,
    SchedulingError,
    ScorePlugin,
    Status,
    error,
    unresolvable,
)
from scheduler_core.scheduler.selector_source import SelectorSource
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo, Snapshot
from scheduler_core.scheduler.volume_lister import StaticVolumeLister, VolumeLister


class Nominator:
    """Pods nominated to a node by an earlier preemption and not bound yet (the scheduling queue's
    nominator, backend/queue/nominator.go). Filtering counts them as already running on that node
    when their priority is at least the incoming pod's."""

    __slots__ = ("_by_node", "_node_of")

    def __init__(self) -> None:
        self._by_node: dict[str, list[PodInfo]] = {}
        self._node_of: dict[str, str] = {}  # pod key -> node name

    def add(self, pod: Pod, node_name: str | None = None) -> None:
        """AddNominatedPod: node_name None keeps the pod's own status.nominatedNodeName (ModeNoop),
        a name overrides it; "" or a pod already bound leaves the pod nominated nowhere."""
        self.remove(pod)
        name = pod.status.nominated_node_name if node_name is None else node_name
        if not name or pod.spec.node_name:
            return
        self._node_of[pod.key] = name
        self._by_node.setdefault(name, []).append(PodInfo(pod))

    def remove(self, pod: Pod) -> None:
        name = self._node_of.pop(pod.key, None)
        if name is None:
            return
        remaining = [info for info in self._by_node[name] if info.pod.key != pod.key]
        if remaining:
            self._by_node[name] = remaining
        else:
            del self._by_node[name]

    def pods_for_node(self, node_name: str) -> list[PodInfo]:
        return self._by_node.get(node_name, [])

    def by_node(self) -> Mapping[str, list[PodInfo]]:
        """Node name -> the pods nominated to it (read-only)."""
        return self._by_node

    def node_of(self, pod: Pod) -> str | None:
        return self._node_of.get(pod.key)

    def __len__(self) -> int:
        return len(self._node_of)


@dataclass(slots=True)
class Handle:
    """What plugins may read besides the pod and the node: the whole snapshot and a few listers."""

    snapshot: Snapshot = field(default_factory=Snapshot)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    # Services, ReplicationControllers, ReplicaSets, StatefulSets: helper.DefaultSelector reads them
    selector_sources: list[SelectorSource] = field(default_factory=list)
    framework: "Framework | None" = None
    nominator: Nominator = field(default_factory=Nominator)
    # The scheduler's one seeded generator (the Scheduler installs its own): preemption draws its
    # candidate offset from it, where upstream draws from the process-wide math/rand.
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    # PersistentVolumeClaims, PersistentVolumes and StorageClasses (the volume plugins' listers)
    volumes: VolumeLister = field(default_factory=StaticVolumeLister)


PluginFactory = Callable[[Mapping[str, Any], Handle], Any]

_POINT_TYPES: dict[str, type] = {
    "queueSort": QueueSortPlugin,
    "preFilter": PreFilterPlugin,
    "filter": FilterPlugin,
    "postFilter": PostFilterPlugin,
    "preScore": PreScorePlugin,
    "score": ScorePlugin,
    "reserve": ReservePlugin,
    "permit": PermitPlugin,
    "preBind": PreBindPlugin,
    "bind": BindPlugin,
}


class Framework:
    """The plugins of one profile, by extension point, in the order they run."""

    def __init__(self, profile: Profile, registry: Mapping[str, PluginFactory], handle: Handle) -> None:
        self.profile = profile
        self.handle = handle
        # Set before the plugins are built: one that needs its own profile's framework (DefaultPreemption)
        # keeps this one, as every profile shares the Handle.
        handle.framework = self
        self.instances: dict[str, Any] = {}
        wanted = [ref.name for ref in profile.multi_point.enabled]
        for plugin_set in profile.points.values():
            wanted.extend(ref.name for ref in plugin_set.enabled)
        for name in wanted:
            if name in self.instances:
                continue
            if name not in registry:
                raise ManifestError(
                    CONFIG_DOCUMENT,
                    "profiles.plugins",
                    f'plugin "{name}" does not exist',
                    profile.plugin_line(name),
                )
            try:
                self.instances[name] = registry[name](profile.args_for(name), handle)
            except ManifestError as error:  # a plugin refuses its args: say where they are
                if error.line is not None:
                    raise
                line = profile.line_of(error.path) or profile.plugin_line(name)
                raise ManifestError(error.document, error.path, error.message, line) from None
        self.points: dict[str, list[Any]] = {point: self._expand(point, kind) for point, kind in _POINT_TYPES.items()}
        # PreFilter plugins with add_pod/remove_pod (PreFilterExtensions), for preemption's what-ifs
        self._pre_filter_extensions: list[Any] = [
            plugin for plugin in self.points["preFilter"] if isinstance(plugin, PreFilterExtensions)
        ]
        self.score_weights = self._score_weights()
        # The Scheduler's FastPath for this profile (scheduler.fast_path), when it uses one.
        self.fast_path: Any = None
        self.normalizing = {plugin.name for plugin in self.points["score"] if isinstance(plugin, NormalizeScorePlugin)}

    def _expand(self, point: str, kind: type) -> list[Any]:
        """expandMultiPointPlugins: explicit overrides first, then multiPoint, then other explicit ones."""
        explicit = self.profile.points.get(point, PluginSet())
        explicit_names = [ref.name for ref in explicit.enabled]
        if "*" in explicit.disabled:
            return [self.instances[name] for name in explicit_names]
        disabled = set(explicit.disabled)
        overrides: list[str] = []
        from_multi_point: list[str] = []
        for ref in self.profile.multi_point.enabled:
            instance = self.instances[ref.name]
            if not isinstance(instance, kind) or ref.name in disabled:
                continue
            if ref.name in explicit_names:
                overrides.append(ref.name)
                continue
            if ref.name in from_multi_point:
                raise ManifestError(
                    CONFIG_DOCUMENT,
                    "profiles.plugins.multiPoint",
                    f'plugin "{ref.name}" already registered',
                    ref.line,
                )
            from_multi_point.append(ref.name)
        ordered = [name for name in explicit_names if name in overrides]
        ordered += from_multi_point
        ordered += [name for name in explicit_names if name not in overrides]
        for name in ordered:
            if not isinstance(self.instances[name], kind):
                raise ManifestError(
                    CONFIG_DOCUMENT,
                    f"profiles.plugins.{point}",
                    f'plugin "{name}" does not extend {point}',
                    self.profile.plugin_line(name),
                )
        return [self.instances[name] for name in ordered]

    def _score_weights(self) -> dict[str, int]:
        weights: dict[str, int] = {}
        score_names = {plugin.name for plugin in self.points["score"]}
        explicit = list(self.profile.points.get("score", PluginSet()).enabled)
        for ref in explicit + list(self.profile.multi_point.enabled):
            if ref.name not in score_names or ref.name in weights:
                continue
            weights[ref.name] = ref.weight or 1  # a weight of zero is not permitted: it means 1
        return weights

    # ------------------------------------------------------------------ queries

    @property
    def scheduler_name(self) -> str:
        return self.profile.scheduler_name

    @property
    def queue_sort(self) -> QueueSortPlugin:
        return self.points["queueSort"][0]  # type: ignore[no-any-return]

    def has_filter_plugins(self) -> bool:
        return bool(self.points["filter"])

    def has_score_plugins(self) -> bool:
        return bool(self.points["score"])

    def plugin(self, name: str) -> Any:
        return self.instances.get(name)

    def queueing_hint_map(self) -> dict[ClusterEvent, tuple[PluginHint, ...]]:
        """The events each plugin of the profile registered, with their hints (every plugin is an
        enqueue extension; one without its own registrations is registered for everything)."""
        return build_queueing_hint_map(self.instances)

    # ------------------------------------------------------------------ running

    def run_pre_filter(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status, list[str]]:
        """(the merged node set, the status, the plugins that narrowed the node set)."""
        result: PreFilterResult | None = None
        returned = SUCCESS
        narrowing: list[str] = []
        for plugin in self.points["preFilter"]:
            plugin_result, status = plugin.pre_filter(state, pod, nodes)
            if status.is_skip:
                state.skip_filter_plugins.add(plugin.name)
                continue
            if not status.is_success:
                status = status.with_plugin(plugin.name)
                if status.code is Code.UnschedulableAndUnresolvable:
                    return None, status, narrowing  # preemption cannot help: the other PreFilters need not run
                if status.code is Code.Unschedulable:
                    returned = status  # preemption may help later in this cycle: keep running PreFilters
                    continue
                failure = error(f'running PreFilter plugin "{plugin.name}": {status.message}')
                return None, failure.with_plugin(plugin.name), narrowing
            if plugin_result is not None and plugin_result.node_names is not None:
                narrowing.append(plugin.name)
                names = plugin_result.node_names
                if result is not None and result.node_names is not None:
                    names = result.node_names & names
                result = PreFilterResult(names)
                if not names:
                    if len(narrowing) == 1:
                        message = f"node(s) didn't satisfy plugin {narrowing[0]}"
                    else:
                        message = f"node(s) didn't satisfy plugin(s) [{' '.join(narrowing)}] simultaneously"
                    return result, unresolvable(message), narrowing
        return result, returned, narrowing

    def run_filter(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        skip = state.skip_filter_plugins
        success = Code.Success
        for plugin in self.points["filter"]:
            if skip and plugin.name in skip:
                continue
            status: Status = plugin.filter(state, pod, node)
            if status.code is not success:
                if not status.is_rejected:
                    return error(f'running "{plugin.name}" filter plugin: {status.message}').with_plugin(plugin.name)
                return status.with_plugin(plugin.name)
        return SUCCESS

    def run_post_filter(self, state: CycleState, pod: Pod, statuses: dict[str, Status]) -> tuple[str | None, Status]:
        """RunPostFilterPlugins: Success, UnschedulableAndUnresolvable or an error ends the loop; otherwise
        every plugin's reasons are joined ("no new claims to deallocate, preemption: ...") under the first
        rejector, and the last nomination given is kept. The nomination: None leaves the pod's as it is,
        "" clears it, a name nominates that node."""
        nominated: str | None = None
        reasons: list[str] = []
        rejector = ""
        for plugin in self.points["postFilter"]:
            result, status = plugin.post_filter(state, pod, statuses)
            if status.is_success or status.code is Code.UnschedulableAndUnresolvable:
                return result, status.with_plugin(plugin.name)
            if not status.is_rejected:
                return None, Status(Code.Error, (status.message,), plugin.name)
            if result is not None:
                nominated = result
            reasons.extend(status.reasons)
            rejector = rejector or plugin.name
        return nominated, Status(Code.Unschedulable, tuple(reasons), rejector)

    def run_pre_filter_extension_add_pod(self, state: CycleState, pod: Pod, to_add: PodInfo, node: NodeInfo) -> Status:
        """Lets PreFilter states (PodTopologySpread, InterPodAffinity) count a pod added in a what-if."""
        for plugin in self._pre_filter_extensions:
            if plugin.name in state.skip_filter_plugins:
                continue
            status: Status = plugin.add_pod(state, pod, to_add, node)
            if not status.is_success:
                return error(f'running AddPod on PreFilter plugin "{plugin.name}": {status.message}')
        return SUCCESS

    def run_pre_filter_extension_remove_pod(
        self, state: CycleState, pod: Pod, to_remove: PodInfo, node: NodeInfo
    ) -> Status:
        for plugin in self._pre_filter_extensions:
            if plugin.name in state.skip_filter_plugins:
                continue
            status: Status = plugin.remove_pod(state, pod, to_remove, node)
            if not status.is_success:
                return error(f'running RemovePod on PreFilter plugin "{plugin.name}": {status.message}')
        return SUCCESS

    def run_filter_with_nominated_pods(self, state: CycleState, pod: Pod, node: NodeInfo) -> Status:
        """RunFilterPluginsWithNominatedPods: pods nominated to the node with a priority at least the pod's
        count as running there (the pod must not take room freed for them), then the filters run again
        without them (affinity to them must not be what lets the pod fit). Both passes must succeed.
        Without such nominated pods this is a plain filter run: nothing is cloned."""
        nominator = self.handle.nominator
        if nominator:
            priority = pod.priority
            to_add = [
                info
                for info in nominator.pods_for_node(node.name)
                if info.pod.priority >= priority and info.pod.key != pod.key
            ]
            if to_add:
                node_with = node.clone()
                state_with = state.clone()
                for info in to_add:
                    node_with.add_pod(info)
                    status = self.run_pre_filter_extension_add_pod(state_with, pod, info, node_with)
                    if not status.is_success:
                        return status
                status = self.run_filter(state_with, pod, node_with)
                if not status.is_success:
                    return status
        return self.run_filter(state, pod, node)

    def run_pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status:
        for plugin in self.points["preScore"]:
            status = plugin.pre_score(state, pod, nodes)
            if status.is_skip:
                state.skip_score_plugins.add(plugin.name)
            elif not status.is_success:
                return error(f'running PreScore plugin "{plugin.name}": {status.message}').with_plugin(plugin.name)
        return SUCCESS

    def run_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> list[NodePluginScores]:
        skip = state.skip_score_plugins
        plugins = [plugin for plugin in self.points["score"] if plugin.name not in skip]
        names = [node.name for node in nodes]
        results = [NodePluginScores(name) for name in names]
        success = Code.Success
        for plugin in plugins:
            score = plugin.score
            values: list[int] = []
            append = values.append
            for node in nodes:
                value, status = score(state, pod, node)
                if status.code is not success:
                    raise SchedulingError(f'running Score plugin "{plugin.name}": {status.message}')
                append(value)
            if plugin.name in self.normalizing:
                entries = [NodeScore(name, value) for name, value in zip(names, values, strict=True)]
                status = plugin.normalize_score(state, pod, entries)
                if not status.is_success:
                    raise SchedulingError(f"running Normalize on Score plugins: {status.message}")
                values = [entry.score for entry in entries]
            if values and (min(values) < MIN_NODE_SCORE or max(values) > MAX_NODE_SCORE):
                invalid = next(value for value in values if not MIN_NODE_SCORE <= value <= MAX_NODE_SCORE)
                raise SchedulingError(
                    f'plugin "{plugin.name}" returns an invalid score {invalid}, it should in the range of '
                    f"[{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after normalizing"
                )
            name = plugin.name
            weight = self.score_weights[name]
            for result, value in zip(results, values, strict=True):
                result.scores[name] = value
                result.total += value * weight
        return results

    def run_reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        for plugin in self.points["reserve"]:
            status: Status = plugin.reserve(state, pod, node_name)
            if not status.is_success:
                return status.with_plugin(plugin.name)
        return SUCCESS

    def run_unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """RunReservePluginsUnreserve: every Reserve plugin, in reverse order."""
        for plugin in reversed(self.points["reserve"]):
            plugin.unreserve(state, pod, node_name)

    def run_pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        """RunPreBindPlugins: a rejection keeps its code; any other failure becomes an error naming the
        plugin. Wait (the simulation's "not done yet", see PreBindPlugin) is returned as it is."""
        for plugin in self.points["preBind"]:
            status: Status = plugin.pre_bind(state, pod, node_name)
            if status.is_success:
                continue
            if status.is_rejected or status.code is Code.Wait:
                return status.with_plugin(plugin.name)
            return error(f'running PreBind plugin "{plugin.name}": {status.message}').with_plugin(plugin.name)
        return SUCCESS

    def run_permit(self, state: CycleState, pod: Pod, node_name: str) -> Status:
        for plugin in self.points["permit"]:
            status: Status = plugin.permit(state, pod, node_name)
            if not status.is_success:
                return status.with_plugin(plugin.name)
        return SUCCESS


def validate_points(profile: Profile) -> None:
    for point in profile.points:
        if point not in EXTENSION_POINTS:
            raise ManifestError(CONFIG_DOCUMENT, f"profiles.plugins.{point}", "unknown extension point")

"""One scheduling attempt of one pod: filter, score, select (pkg/scheduler/schedule_one.go).

Sequential and deterministic: the nodes are visited in snapshot order from a rotating start index,
the search stops once numFeasibleNodesToFind nodes fit, and ties between the best scores are broken
by reservoir sampling from the scheduler's one seeded random generator.
"""

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.config import SchedulerConfiguration
from scheduler_core.scheduler.fast_path import FastPath, LazyScores
from scheduler_core.scheduler.framework import Code, CycleState, NodePluginScores, SchedulingError, Status
from scheduler_core.scheduler.messages import NO_NODES_AVAILABLE_TO_SCHEDULE, fit_error_message
from scheduler_core.scheduler.preemption import PREEMPTION_OUTCOME_KEY, PreemptionOutcome, preempted_event_message
from scheduler_core.scheduler.registry import DEFAULT_REGISTRY
from scheduler_core.scheduler.runtime import Framework, Handle, PluginFactory
from scheduler_core.scheduler.selection import select_index
from scheduler_core.scheduler.snapshot import NodeInfo, Snapshot

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5


@dataclass(slots=True)
class Diagnosis:
    """Why nodes were rejected: per node for those filtered, one status for those never evaluated."""

    node_statuses: dict[str, Status] = field(default_factory=dict)
    absent_status: Status | None = None
    unschedulable_plugins: set[str] = field(default_factory=set)
    pre_filter_message: str = ""
    post_filter_message: str = ""

    def status_of(self, node_name: str) -> Status | None:
        return self.node_statuses.get(node_name, self.absent_status)

    def reason_histogram(self, all_nodes: list[NodeInfo], names: list[str] | None = None) -> dict[str, int]:
        """How many nodes each reason was given for; ``names``, the nodes' names when known."""
        counts: dict[str, int] = {}
        statuses = self.node_statuses
        absent = self.absent_status
        for name in names if names is not None else [node.name for node in all_nodes]:
            status = statuses.get(name, absent)
            if status is None:
                continue
            for reason in status.reasons:
                counts[reason] = counts.get(reason, 0) + 1
        return counts


class ScheduleResult:
    """One attempt's outcome. ``feasible`` (names) and ``scores`` may be given lazily (a list of nodes,
    a fast path's LazyScores): they are built on first reading."""

    __slots__ = (
        "_feasible",
        "_scores",
        "diagnosis",
        "evaluated_nodes",
        "message",
        "nominated_node",
        "pod",
        "selected",
        "state",
        "victims",
    )

    def __init__(
        self,
        pod: Pod,
        selected: str | None,
        feasible: "list[str] | _FeasibleNodes | None" = None,
        scores: "list[NodePluginScores] | LazyScores | None" = None,
        evaluated_nodes: int = 0,
        diagnosis: Diagnosis | None = None,
        message: str = "",
        nominated_node: str | None = None,
        state: CycleState | None = None,
        victims: tuple[Pod, ...] = (),
    ) -> None:
        self.pod = pod
        self.selected = selected
        self._feasible = feasible if feasible is not None else []
        self._scores = scores if scores is not None else []
        self.evaluated_nodes = evaluated_nodes
        self.diagnosis = diagnosis if diagnosis is not None else Diagnosis()
        self.message = message
        # The PostFilter's nomination (upstream's nominatingInfo): None leaves the pod's nominatedNodeName as
        # it is, "" clears it, a name nominates that node; victims are the pods preemption chose to evict there.
        self.nominated_node = nominated_node
        self.state = state
        self.victims = victims

    @property
    def feasible(self) -> list[str]:
        if isinstance(self._feasible, _FeasibleNodes):
            self._feasible = [node.node.name for node in self._feasible.nodes]
        return self._feasible

    @feasible.setter
    def feasible(self, value: list[str]) -> None:
        self._feasible = value

    @property
    def scores(self) -> list[NodePluginScores]:
        if isinstance(self._scores, LazyScores):
            self._scores = self._scores.materialize()
        return self._scores

    @scores.setter
    def scores(self, value: list[NodePluginScores]) -> None:
        self._scores = value

    @property
    def scheduled(self) -> bool:
        return self.selected is not None

    def __repr__(self) -> str:
        return (
            f"ScheduleResult(pod={self.pod.key!r}, selected={self.selected!r}, "
            f"evaluated_nodes={self.evaluated_nodes}, message={self.message!r})"
        )


class _FeasibleNodes:
    """The feasible NodeInfos, whose names ScheduleResult.feasible lists when read."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: list[NodeInfo]) -> None:
        self.nodes = nodes


def num_feasible_nodes_to_find(percentage_of_nodes_to_score: int, num_all_nodes: int) -> int:
    """How many fitting nodes are enough: all below 100 nodes, then an adaptive percentage."""
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    percentage = percentage_of_nodes_to_score
    if percentage == 0:
        percentage = max(50 - num_all_nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    return max(num_all_nodes * percentage // 100, MIN_FEASIBLE_NODES_TO_FIND)


def select_host(scores: list[NodePluginScores], rng: random.Random) -> str:
    """The highest total wins; among equals each is chosen with equal probability (selection.py)."""
    return scores[select_index([score.total for score in scores], rng)].name


class Scheduler:
    """kube-scheduler's scheduling logic over a Snapshot, one profile per schedulerName."""

    def __init__(
        self,
        configuration: SchedulerConfiguration | None = None,
        *,
        registry: Mapping[str, PluginFactory] | None = None,
        seed: int = 0,
        handle: Handle | None = None,
        fast_path: bool = True,
    ) -> None:
        self.configuration = configuration or SchedulerConfiguration()
        self.handle = handle or Handle()
        self.rng = random.Random(seed)
        self.handle.rng = self.rng  # plugins (preemption's candidate offset) draw from the same generator
        self.frameworks = {
            profile.scheduler_name: Framework(profile, registry or DEFAULT_REGISTRY, self.handle)
            for profile in self.configuration.profiles
        }
        self.next_start_node_index = 0
        # The fused Filter/Score loops (scheduler.fast_path); fast_path=False keeps only the generic
        # loops, which the fast path falls back to by itself for whatever it does not cover.
        self.fast_path = fast_path
        self._fast: dict[int, FastPath] = {}
        if fast_path:
            for framework in self.frameworks.values():
                framework.fast_path = self._fast[id(framework)] = FastPath(framework)

    @property
    def snapshot(self) -> Snapshot:
        return self.handle.snapshot

    def framework_for(self, pod: Pod) -> Framework | None:
        return self.frameworks.get(pod.spec.scheduler_name)

    def percentage_for(self, framework: Framework) -> int:
        own = framework.profile.percentage_of_nodes_to_score
        return own if own is not None else self.configuration.percentage_of_nodes_to_score

    # ------------------------------------------------------------------ schedulePod

    def schedule_pod(self, pod: Pod) -> ScheduleResult:
        framework = self.framework_for(pod)
        if framework is None:
            return ScheduleResult(
                pod, None, message=f'profile not found for scheduler name "{pod.spec.scheduler_name}"'
            )
        all_nodes = self.snapshot.nodes()
        if not all_nodes:
            # ErrNoNodesAvailable: no PostFilter runs, and the failure clears the nomination.
            return ScheduleResult(pod, None, message=NO_NODES_AVAILABLE_TO_SCHEDULE, nominated_node="")
        state = CycleState()
        feasible, diagnosis, evaluated = self.find_nodes_that_fit(framework, state, pod)
        if not feasible:
            result = ScheduleResult(pod, None, evaluated_nodes=evaluated, diagnosis=diagnosis, state=state)
            result.nominated_node, result.victims = self.run_post_filter(framework, state, pod, diagnosis)
            result.message = fit_error_message(
                len(all_nodes),
                diagnosis.reason_histogram(all_nodes, self.snapshot.node_names()),
                diagnosis.pre_filter_message,
                diagnosis.post_filter_message,
            )
            return result
        if len(feasible) == 1:
            return ScheduleResult(
                pod, feasible[0].name, [feasible[0].name], evaluated_nodes=evaluated, diagnosis=diagnosis, state=state
            )
        fast = self._fast.get(id(framework))
        if fast is not None and framework.has_score_plugins():
            status = framework.run_pre_score(state, pod, feasible)
            if not status.is_success:
                raise SchedulingError(status.message)
            lazy = fast.score(self.snapshot, state, pod, feasible)
            if lazy is not None:
                chosen = feasible[select_index(lazy.totals, self.rng)].node.name
                return ScheduleResult(
                    pod, chosen, _FeasibleNodes(feasible), lazy, evaluated, diagnosis=diagnosis, state=state
                )
            scores = framework.run_score(state, pod, feasible)
        else:
            scores = self.prioritize_nodes(framework, state, pod, feasible)
        selected = select_host(scores, self.rng)
        return ScheduleResult(
            pod, selected, [n.name for n in feasible], scores, evaluated, diagnosis=diagnosis, state=state
        )

    def run_post_filter(
        self, framework: Framework, state: CycleState, pod: Pod, diagnosis: Diagnosis
    ) -> tuple[str | None, tuple[Pod, ...]]:
        """(nomination, victims). The PostFilter's message joins the FitError's text; a preemption that
        succeeded adds none and leaves its decision in the CycleState."""
        if not framework.points["postFilter"]:
            return None, ()
        known, absent = diagnosis.node_statuses, diagnosis.absent_status
        statuses = {
            name: status for name in self.snapshot.node_names() if (status := known.get(name, absent)) is not None
        }
        nominated, status = framework.run_post_filter(state, pod, statuses)
        diagnosis.post_filter_message = status.message
        outcome = state.get(PREEMPTION_OUTCOME_KEY)
        if status.is_success and isinstance(outcome, PreemptionOutcome) and outcome.node_name == nominated:
            return nominated, outcome.victims
        return nominated, ()

    def find_nodes_that_fit(
        self, framework: Framework, state: CycleState, pod: Pod
    ) -> tuple[list[NodeInfo], Diagnosis, int]:
        diagnosis = Diagnosis()
        all_nodes = self.snapshot.nodes()
        pre_result, status, narrowing = framework.run_pre_filter(state, pod, all_nodes)
        if not status.is_success:
            if status.code is Code.Error:
                raise SchedulingError(status.message)
            diagnosis.absent_status = status
            diagnosis.pre_filter_message = status.message
            if status.plugin:
                diagnosis.unschedulable_plugins.add(status.plugin)
            return [], diagnosis, 0

        # A pod already nominated to a node (by preemption) tries that node first (evaluateNominatedNode).
        # A rejection is recorded like any other; an error is only logged upstream, so it is ignored.
        nominated_name = pod.status.nominated_node_name
        if nominated_name:
            nominated = self.snapshot.get(nominated_name)
            if nominated is not None:
                status = framework.run_filter_with_nominated_pods(state, pod, nominated)
                if status.is_success:
                    return [nominated], diagnosis, 1
                if status.is_rejected:
                    diagnosis.node_statuses[nominated.name] = status
                    if status.plugin:
                        diagnosis.unschedulable_plugins.add(status.plugin)

        nodes = all_nodes
        if pre_result is not None and pre_result.node_names is not None:
            nodes = [node for node in all_nodes if node.name in pre_result.node_names]
            # Nodes a PreFilter ruled out count as rejected by it (SetAbsentNodesStatus).
            diagnosis.absent_status = Status(
                Code.UnschedulableAndUnresolvable,
                (f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing))}]",),
            )
        feasible, evaluated = self.find_nodes_that_pass_filters(framework, state, pod, diagnosis, nodes)
        return feasible, diagnosis, evaluated

    def find_nodes_that_pass_filters(
        self, framework: Framework, state: CycleState, pod: Pod, diagnosis: Diagnosis, nodes: list[NodeInfo]
    ) -> tuple[list[NodeInfo], int]:
        count = len(nodes)
        if count == 0:
            return [], 0
        to_find = num_feasible_nodes_to_find(self.percentage_for(framework), count)
        start = self.next_start_node_index % count
        feasible: list[NodeInfo] = []
        processed = 0
        if not framework.has_filter_plugins():
            feasible = [nodes[(start + i) % count] for i in range(to_find)]
            processed = to_find
        elif (fast := self._fast.get(id(framework))) is not None and (
            found := fast.pass_filters(
                self.snapshot,
                state,
                pod,
                diagnosis.node_statuses,
                diagnosis.unschedulable_plugins,
                nodes,
                start,
                to_find,
            )
        ) is not None:
            feasible, processed = found
        else:
            statuses = diagnosis.node_statuses
            for i in range(count):
                node = nodes[(start + i) % count]
                status = framework.run_filter_with_nominated_pods(state, pod, node)
                processed += 1
                if status.is_success:
                    feasible.append(node)
                    if len(feasible) >= to_find:
                        break
                elif status.code is Code.Error:
                    raise SchedulingError(status.message)
                else:
                    statuses[node.name] = status
                    if status.plugin:
                        diagnosis.unschedulable_plugins.add(status.plugin)
        self.next_start_node_index = (start + processed) % count
        return feasible, processed

    def prioritize_nodes(
        self, framework: Framework, state: CycleState, pod: Pod, nodes: list[NodeInfo]
    ) -> list[NodePluginScores]:
        if not framework.has_score_plugins():
            return [NodePluginScores(node.name, total=1) for node in nodes]
        status = framework.run_pre_score(state, pod, nodes)
        if not status.is_success:
            raise SchedulingError(status.message)
        return framework.run_score(state, pod, nodes)

    # ------------------------------------------------------------------ cluster changes

    def bind(self, pod: Pod, node_name: str) -> Pod:
        """Assume and bind: the pod now counts on the node for every later decision."""
        bound = replace(
            pod, spec=replace(pod.spec, node_name=node_name), status=replace(pod.status, nominated_node_name="")
        )
        self.handle.nominator.remove(pod)  # assume: DeleteNominatedPodIfExists
        self.snapshot.add_pod(bound)
        return bound

    def apply_preemption(
        self, result: ScheduleResult, evict: Callable[[Pod], None] | None = None
    ) -> "PreemptionApplied":
        """Carries out the PostFilter's nomination of a failed attempt, as prepareCandidate and the failure
        handler do: evict the victims (one Preempted event each; a victim already being deleted gets no
        second deletion and no event), clear the nominations of lower-priority pods on that node, and
        nominate the pod there. Returns the updated pods for the caller's queue.

        ``evict`` deletes a victim; by default it leaves the snapshot at once. A simulation passes the
        API's graceful deletion instead, and the snapshot follows when the pod is really gone."""
        remove: Callable[[Pod], object] = evict or self.snapshot.remove_pod
        pod = result.pod
        node_name = result.nominated_node
        applied = PreemptionApplied(pod)
        if node_name is None:
            return applied  # the nomination stays as it was
        nominator = self.handle.nominator
        if node_name:
            for victim in result.victims:
                if victim.metadata.deletion_timestamp is not None:
                    continue
                remove(victim)
                applied.evicted.append(victim)
                applied.events.append((victim, preempted_event_message(pod, node_name)))
            for info in list(nominator.pods_for_node(node_name)):
                if info.pod.priority < pod.priority:
                    nominator.remove(info.pod)
                    applied.cleared.append(_with_nomination(info.pod, ""))
        applied.preemptor = _with_nomination(pod, node_name)
        nominator.add(applied.preemptor, node_name)
        return applied


@dataclass(slots=True)
class PreemptionApplied:
    """The pods Scheduler.apply_preemption changed."""

    preemptor: Pod  # with status.nominatedNodeName as the attempt left it
    evicted: list[Pod] = field(default_factory=list)
    events: list[tuple[Pod, str]] = field(default_factory=list)  # (victim, "Preempted by pod <uid> on node <node>")
    cleared: list[Pod] = field(default_factory=list)  # lower-priority pods whose nomination was cleared


def _with_nomination(pod: Pod, node_name: str) -> Pod:
    if pod.status.nominated_node_name == node_name:
        return pod
    return replace(pod, status=replace(pod.status, nominated_node_name=node_name))

"""Preemption: find the node where evicting the fewest, least important pods lets the pod fit.

Follows pkg/scheduler/framework/preemption/preemption.go (the Evaluator: candidates, dry run,
choice of node) and the default policy of plugins/defaultpreemption/default_preemption.go
(eligibility, victim selection), both as of v1.34. Deliberate differences:

- The dry run visits the potential nodes one after another (upstream uses 16 goroutines), so the
  search stops at exactly the first candidatesNum candidates from the random offset.
- Where upstream iterates a Go map (pickOneNodeForPreemption's candidate list), candidates keep
  their dry-run order, so the last tie-break ("the first node") is deterministic.
- Nothing is sent to an API server: the chosen candidate is recorded in the CycleState under
  PREEMPTION_OUTCOME_KEY, and the scheduler evicts the victims from its snapshot
  (Scheduler.apply_preemption).
"""

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from scheduler_core.api.pod_conditions import PREEMPTION_BY_SCHEDULER, is_disruption_target
from scheduler_core.api.selectors import label_selector_matches
from scheduler_core.api.types import LabelSelector, Pod, PodDisruptionBudget
from scheduler_core.scheduler.framework import (
    SUCCESS,
    Code,
    CycleState,
    SchedulingError,
    Status,
    error,
    unresolvable,
    unschedulable,
)
from scheduler_core.scheduler.messages import fit_error_message
from scheduler_core.scheduler.runtime import Framework, Handle
from scheduler_core.scheduler.snapshot import NodeInfo, PodInfo

# Messages, as upstream words them.
MESSAGE_PREFIX = "preemption: "  # DefaultPreemption.PostFilter puts it before any message
NOT_ELIGIBLE_PREEMPT_NEVER = "not eligible due to preemptionPolicy=Never."
NOT_ELIGIBLE_TERMINATING_POD = "not eligible due to a terminating pod on the nominated node."
NO_VICTIMS_FOUND = "No preemption victims found for incoming pod"
PREEMPTION_NOT_HELPFUL = "Preemption is not helpful for scheduling"
NO_CANDIDATE_NODE = "no candidate node for preemption"
NO_NODES_AVAILABLE = "no nodes available"
EXPECTED_A_VICTIM = 'expected at least one victim pod on node "{}"'
# The event on each victim (type Normal, reason Preempted, action Preempting): the preemptor's UID, not its name.
PREEMPTED_EVENT = "Preempted by pod {} on node {}"
# The DisruptionTarget condition's message set on each victim before its deletion.
DISRUPTION_TARGET_MESSAGE = "{}: preempting to accommodate a higher priority pod"
PREEMPT_NEVER = "Never"

PREEMPTION_OUTCOME_KEY = "DefaultPreemption/outcome"
# Every attempt also leaves its PreemptionReport here, for explanations (a few references, no copies).
PREEMPTION_REPORT_KEY = "DefaultPreemption/report"
# NewDefaultNodeToStatus: a node with no status of its own counts as UnschedulableAndUnresolvable.
_ABSENT = Status(Code.UnschedulableAndUnresolvable)
# The absent-node status of preemption's own FitError: nodes the dry run did not try.
_NOT_HELPFUL = Status(Code.UnschedulableAndUnresolvable, (PREEMPTION_NOT_HELPFUL,))
_SHIFT = 2**31  # math.MaxInt32 + 1: makes every priority non-negative before summing


@dataclass(frozen=True, slots=True)
class Candidate:
    """A node where the pod fits once its victims are gone (most important victim first)."""

    name: str
    victims: tuple[Pod, ...]
    num_pdb_violations: int = 0


@dataclass(frozen=True, slots=True)
class PreemptionOutcome:
    """What a successful preemption decided, for the scheduler to carry out."""

    preemptor: Pod
    node_name: str
    victims: tuple[Pod, ...]
    num_pdb_violations: int = 0


# The tie-breaks of pickOneNodeForPreemption, in the order they are applied; ONLY_CANDIDATE when
# SelectCandidate has a single candidate and never calls it.
FEWEST_PDB_VIOLATIONS = "fewest PDB violations"
LOWEST_HIGHEST_VICTIM_PRIORITY = "lowest highest-victim priority"
SMALLEST_PRIORITY_SUM = "smallest sum of priorities"
FEWEST_VICTIMS = "fewest victims"
LATEST_START_TIME = "latest start time of the highest-priority victims"
FIRST_IN_ORDER = "first in order"
ONLY_CANDIDATE = "only candidate"


@dataclass(frozen=True, slots=True)
class PreemptionReport:
    """What one Evaluator.preempt call found, as it found it: written to the CycleState under
    PREEMPTION_REPORT_KEY so an explanation can show the real search (never a re-computation)."""

    eligible: bool
    message: str = ""  # the status message without MESSAGE_PREFIX; "" when a node was chosen
    potential_nodes: tuple[str, ...] = ()  # nodes a preemption could help (plain Unschedulable), dry-run order
    candidates: tuple[Candidate, ...] = ()  # in dry-run order: those violating no PDB first
    failures: Mapping[str, Status] = field(default_factory=dict)  # potential nodes the dry run ruled out
    chosen: str | None = None
    criterion: str = ""  # the first tie-break that left only the chosen node


def preempted_event_message(preemptor: Pod, node_name: str) -> str:
    return PREEMPTED_EVENT.format(preemptor.metadata.uid, node_name)


# ---------------------------------------------------------------------------- pod ordering (util/utils.go)


def pod_start_time(pod: Pod) -> float:
    """GetPodStartTime: status.startTime, or "now" for a pod not started yet, later than any real start."""
    start = pod.status.start_time
    return math.inf if start is None else start


def importance_key(pod: Pod) -> tuple[int, float]:
    """Sorting by this key orders pods as MoreImportantPod does: higher priority first, then the older."""
    return -pod.priority, pod_start_time(pod)


def more_important_pod(first: Pod, second: Pod) -> bool:
    return importance_key(first) < importance_key(second)


def earliest_pod_start_time(victims: Sequence[Pod]) -> float | None:
    """GetEarliestPodStartTime: the earliest start among the victims of the highest priority."""
    if not victims:
        return None
    highest = max(victim.priority for victim in victims)
    return min(pod_start_time(victim) for victim in victims if victim.priority == highest)


# ---------------------------------------------------------------------------- PodDisruptionBudgets


def _selector_converts(selector: LabelSelector) -> bool:
    """metav1.LabelSelectorAsSelector fails on an unknown operator or a values list that does not fit it."""
    for requirement in selector.match_expressions:
        if requirement.operator in ("In", "NotIn"):
            if not requirement.values:
                return False
        elif requirement.operator in ("Exists", "DoesNotExist"):
            if requirement.values:
                return False
        else:
            return False
    return True


def filter_pods_with_pdb_violation(
    pods: Sequence[PodInfo], pdbs: Sequence[PodDisruptionBudget]
) -> tuple[list[PodInfo], list[PodInfo]]:
    """(violating, non-violating), each in the given order. Budgets are spent across the pods in turn:
    a pod violates when any budget selecting it goes below zero. A pod the budget already lists in
    disruptedPods has been counted by the API server and spends nothing."""
    allowed = [pdb.status.disruptions_allowed for pdb in pdbs]
    violating: list[PodInfo] = []
    non_violating: list[PodInfo] = []
    for info in pods:
        pod = info.pod
        violated = False
        if pod.labels:  # a pod without labels matches no budget
            for index, pdb in enumerate(pdbs):
                selector = pdb.spec.selector
                if pdb.metadata.namespace != pod.namespace or selector is None:
                    continue
                # A nil or empty selector matches nothing here (unlike a pod selector).
                if selector.is_empty or not _selector_converts(selector):
                    continue
                if not label_selector_matches(selector, pod.labels) or pod.name in pdb.status.disrupted_pods:
                    continue
                allowed[index] -= 1
                if allowed[index] < 0:
                    violated = True
        (violating if violated else non_violating).append(info)
    return violating, non_violating


# ---------------------------------------------------------------------------- choosing the node


def pick_one_node_for_preemption(candidates: Mapping[str, Candidate]) -> str:
    return decide_node_for_preemption(candidates)[0]


def decide_node_for_preemption(candidates: Mapping[str, Candidate]) -> tuple[str, str]:
    """(node, criterion). Keeps the nodes with the best score under each criterion in turn until one
    is left: fewest PDB violations, lowest most-important victim, smallest sum of (shifted) victim
    priorities, fewest victims, latest start among the most important victims; then the first
    remaining. The criterion is the one that left a single node (FIRST_IN_ORDER if none did)."""
    if not candidates:
        return "", ""

    def shifted_priority_sum(name: str) -> float:
        return -sum(victim.priority + _SHIFT for victim in candidates[name].victims)

    def latest_start(name: str) -> float:
        earliest = earliest_pod_start_time(candidates[name].victims)
        return -math.inf if earliest is None else earliest

    criteria: tuple[tuple[str, Callable[[str], float]], ...] = (
        (FEWEST_PDB_VIOLATIONS, lambda name: -candidates[name].num_pdb_violations),
        (LOWEST_HIGHEST_VICTIM_PRIORITY, lambda name: -candidates[name].victims[0].priority),
        (SMALLEST_PRIORITY_SUM, shifted_priority_sum),
        (FEWEST_VICTIMS, lambda name: -len(candidates[name].victims)),
        (LATEST_START_TIME, latest_start),
    )
    remaining = list(candidates)
    if len(remaining) == 1:
        return remaining[0], ONLY_CANDIDATE
    for criterion, score in criteria:
        scores = [score(name) for name in remaining]
        best = max(scores)
        remaining = [name for name, value in zip(remaining, scores, strict=True) if value == best]
        if len(remaining) == 1:
            return remaining[0], criterion
    return remaining[0], FIRST_IN_ORDER


def _aggregate(messages: Sequence[str]) -> str:
    """utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets."""
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


# ---------------------------------------------------------------------------- the evaluator


class Evaluator:
    """The preemption of one profile: preempt() runs the whole search for one pod."""

    def __init__(
        self,
        plugin_name: str,
        handle: Handle,
        min_candidate_nodes_percentage: int = 10,
        min_candidate_nodes_absolute: int = 100,
    ) -> None:
        self.plugin_name = plugin_name
        self.handle = handle
        self.min_candidate_nodes_percentage = min_candidate_nodes_percentage
        self.min_candidate_nodes_absolute = min_candidate_nodes_absolute
        # The Framework sets handle.framework to itself before building its plugins: keep our profile's.
        self._framework = handle.framework

    @property
    def framework(self) -> Framework:
        framework = self._framework or self.handle.framework
        if framework is None:
            raise SchedulingError(f"{self.plugin_name} needs a framework to run the filters")
        return framework

    def preempt(self, state: CycleState, pod: Pod, statuses: Mapping[str, Status]) -> tuple[str | None, Status]:
        """Evaluator.Preempt: (nomination, status). The nomination is None to leave the pod's as it is
        (not eligible, or an error), "" to clear it (preemption cannot help), or the chosen node.
        What it found is left in the CycleState as a PreemptionReport (PREEMPTION_REPORT_KEY)."""
        nominated_name = pod.status.nominated_node_name
        nominated_status = statuses.get(nominated_name, _ABSENT) if nominated_name else None
        eligible, message = self.pod_eligible_to_preempt_others(pod, nominated_status)
        if not eligible:
            state.write(PREEMPTION_REPORT_KEY, PreemptionReport(False, message))
            return None, unschedulable(message)

        all_nodes = self.handle.snapshot.nodes()
        if not all_nodes:
            state.write(PREEMPTION_REPORT_KEY, PreemptionReport(True, NO_NODES_AVAILABLE))
            return None, error(NO_NODES_AVAILABLE)
        potential_nodes = self.potential_nodes(all_nodes, statuses)
        candidates, node_statuses, errors = self.find_candidates_among(state, pod, potential_nodes)
        potential = tuple(node.name for node in potential_nodes)
        if errors and not candidates:
            message = _aggregate(errors)
            state.write(PREEMPTION_REPORT_KEY, PreemptionReport(True, message, potential, (), node_statuses))
            return None, error(message)
        if not candidates:
            # A FitError over the dry run's statuses; nodes it did not try are "not helpful".
            counts: dict[str, int] = {}
            for node in all_nodes:
                for reason in node_statuses.get(node.name, _NOT_HELPFUL).reasons:
                    counts[reason] = counts.get(reason, 0) + 1
            message = fit_error_message(len(all_nodes), counts)
            state.write(PREEMPTION_REPORT_KEY, PreemptionReport(True, message, potential, (), node_statuses))
            return "", unschedulable(message)

        best, criterion = self.choose_candidate(candidates)
        if best is None or not best.name:
            report = PreemptionReport(True, NO_CANDIDATE_NODE, potential, tuple(candidates), node_statuses)
            state.write(PREEMPTION_REPORT_KEY, report)
            return None, unschedulable(NO_CANDIDATE_NODE)
        report = PreemptionReport(True, "", potential, tuple(candidates), node_statuses, best.name, criterion)
        state.write(PREEMPTION_REPORT_KEY, report)
        self.prepare_candidate(state, best, pod)
        return best.name, SUCCESS

    # ------------------------------------------------------------------ eligibility

    def is_preemption_allowed(self, node: NodeInfo, victim: PodInfo, preemptor: Pod) -> bool:
        """Only pods of lower priority may be preempted (IsEligiblePod adds nothing by default)."""
        return victim.pod.priority < preemptor.priority

    def pod_eligible_to_preempt_others(self, pod: Pod, nominated_status: Status | None) -> tuple[bool, str]:
        """Never-policy pods do not preempt; nor does a pod whose nominated node still holds a victim of
        its earlier preemption that is terminating, unless that node became hopeless for it.
        nominated_status None stands for upstream's nil status (Success)."""
        if pod.spec.preemption_policy == PREEMPT_NEVER:
            return False, NOT_ELIGIBLE_PREEMPT_NEVER
        nominated_name = pod.status.nominated_node_name
        if nominated_name:
            if nominated_status is not None and nominated_status.code is Code.UnschedulableAndUnresolvable:
                return True, ""
            node = self.handle.snapshot.get(nominated_name)
            if node is not None:
                for info in node.pods:
                    if self.is_preemption_allowed(node, info, pod) and self.terminating_by_preemption(info.pod):
                        return False, NOT_ELIGIBLE_TERMINATING_POD
        return True, ""

    def terminating_by_preemption(self, pod: Pod) -> bool:
        """Being deleted, with DisruptionTarget=True for PreemptionByScheduler."""
        return pod.metadata.deletion_timestamp is not None and is_disruption_target(pod, PREEMPTION_BY_SCHEDULER)

    # ------------------------------------------------------------------ candidates

    def calculate_num_candidates(self, num_nodes: int) -> int:
        """minCandidateNodesPercentage of the nodes, at least minCandidateNodesAbsolute, at most all of them."""
        count = num_nodes * self.min_candidate_nodes_percentage // 100
        count = max(count, self.min_candidate_nodes_absolute)
        return min(count, num_nodes)

    def get_offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]:
        return self.handle.rng.randrange(num_nodes), self.calculate_num_candidates(num_nodes)

    @staticmethod
    def potential_nodes(all_nodes: Sequence[NodeInfo], statuses: Mapping[str, Status]) -> list[NodeInfo]:
        """Only nodes whose filter verdict was plain Unschedulable can be helped by evicting pods
        (NodesForStatusCode); they are listed in snapshot order."""
        unschedulable = Code.Unschedulable
        return [
            node
            for node in all_nodes
            if (status := statuses.get(node.node.metadata.name)) is not None and status.code is unschedulable
        ]

    def find_candidates(
        self, state: CycleState, pod: Pod, all_nodes: Sequence[NodeInfo], statuses: Mapping[str, Status]
    ) -> tuple[list[Candidate], dict[str, Status], list[str]]:
        return self.find_candidates_among(state, pod, self.potential_nodes(all_nodes, statuses))

    def find_candidates_among(
        self, state: CycleState, pod: Pod, potential: Sequence[NodeInfo]
    ) -> tuple[list[Candidate], dict[str, Status], list[str]]:
        """The dry run over the potential nodes, from a random offset."""
        if not potential:
            return [], {}, []
        offset, num_candidates = self.get_offset_and_num_candidates(len(potential))
        return self.dry_run_preemption(state, pod, potential, self.handle.pdbs, offset, num_candidates)

    def dry_run_preemption(
        self,
        state: CycleState,
        pod: Pod,
        potential_nodes: Sequence[NodeInfo],
        pdbs: Sequence[PodDisruptionBudget],
        offset: int,
        num_candidates: int,
    ) -> tuple[list[Candidate], dict[str, Status], list[str]]:
        """(candidates that violate no PDB, then those that do; per-node failure statuses; error messages).
        Each node is tried on a copy of it and of the CycleState. The search stops once it has
        num_candidates candidates, at least one of them violating no PDB; each list keeps at most
        num_candidates (upstream's fixed-size candidate lists drop the extra ones)."""
        non_violating: list[Candidate] = []
        violating: list[Candidate] = []
        node_statuses: dict[str, Status] = {}
        errors: list[str] = []
        count = len(potential_nodes)
        # The scheduler's fast path may keep each node's outcome from one attempt to the next (same
        # preemptor signature, node unchanged); only this class's own victim selection is kept.
        fast = self.framework.fast_path if type(self) is Evaluator else None
        remembered = fast.victims_cache(self.handle.snapshot, state, pod, pdbs) if fast is not None else None
        for i in range(count):
            node = potential_nodes[(offset + i) % count]
            outcome = remembered.get(node) if remembered is not None else None
            if outcome is None:
                outcome = self.select_victims_on_node(state.clone(), pod, node.clone(), pdbs)
                if remembered is not None and outcome[2].code is not Code.Error:
                    remembered.put(node, outcome)
            victims, num_violations, status = outcome
            if status.is_success and victims:
                found = Candidate(node.name, tuple(victims), num_violations)
                kept = non_violating if num_violations == 0 else violating
                if len(kept) < num_candidates:
                    kept.append(found)
                if non_violating and len(non_violating) + len(violating) >= num_candidates:
                    break
                continue
            if status.is_success:
                status = error(EXPECTED_A_VICTIM.format(node.name))
            if status.code is Code.Error:
                errors.append(status.message)
            node_statuses[node.name] = status
        return non_violating + violating, node_statuses, errors

    def select_victims_on_node(
        self, state: CycleState, pod: Pod, node: NodeInfo, pdbs: Sequence[PodDisruptionBudget]
    ) -> tuple[list[Pod], int, Status]:
        """SelectVictimsOnNode, on copies of the node and the state: remove every lower-priority pod; if
        the pod then fits, add them back, most important first (PDB-violating ones before the others),
        keeping each that still lets the pod fit. Returns (victims, PDB violations among them, status)."""
        framework = self.framework

        def remove(info: PodInfo) -> Status:
            node.remove_pod(info.pod.key)
            return framework.run_pre_filter_extension_remove_pod(state, pod, info, node)

        def add(info: PodInfo) -> Status:
            node.add_pod(info)
            return framework.run_pre_filter_extension_add_pod(state, pod, info, node)

        potential: list[PodInfo] = []
        for info in list(node.pods):
            if self.is_preemption_allowed(node, info, pod):
                potential.append(info)
                status = remove(info)
                if not status.is_success:
                    return [], 0, status
        if not potential:
            return [], 0, unresolvable(NO_VICTIMS_FOUND)

        # If the pod does not fit even with all of them gone, this node cannot help (affinity of the
        # pod to a victim is deliberately not considered).
        status = framework.run_filter_with_nominated_pods(state, pod, node)
        if not status.is_success:
            return [], 0, status

        potential.sort(key=lambda info: importance_key(info.pod))
        violating, non_violating = filter_pods_with_pdb_violation(potential, pdbs)
        victims: list[PodInfo] = []
        num_violating = 0
        for group in (violating, non_violating):
            for info in group:
                status = add(info)
                if not status.is_success:
                    return [], 0, status
                if framework.run_filter_with_nominated_pods(state, pod, node).is_success:
                    continue  # reprieved
                status = remove(info)
                if not status.is_success:
                    return [], 0, status
                victims.append(info)
                if group is violating:
                    num_violating += 1
        if violating and non_violating:
            victims.sort(key=lambda info: importance_key(info.pod))
        return [info.pod for info in victims], num_violating, SUCCESS

    def select_candidate(self, candidates: Sequence[Candidate]) -> Candidate | None:
        return self.choose_candidate(candidates)[0]

    def choose_candidate(self, candidates: Sequence[Candidate]) -> tuple[Candidate | None, str]:
        """SelectCandidate, with the criterion of pickOneNodeForPreemption that decided."""
        if not candidates:
            return None, ""
        if len(candidates) == 1:
            return candidates[0], ONLY_CANDIDATE
        by_node = {candidate.name: candidate for candidate in candidates}  # CandidatesToVictimsMap
        name, criterion = decide_node_for_preemption(by_node)
        return by_node.get(name, candidates[0]), criterion

    def prepare_candidate(self, state: CycleState, candidate: Candidate, pod: Pod) -> None:
        """Upstream evicts the victims here (asynchronously by default). The simulation only records the
        decision; Scheduler.apply_preemption carries it out."""
        state.write(
            PREEMPTION_OUTCOME_KEY,
            PreemptionOutcome(pod, candidate.name, candidate.victims, candidate.num_pdb_violations),
        )

"""Why preemption chose its victims and its node, or why it could not help.

Laid out from the PreemptionReport that the Evaluator itself (scheduler_core.scheduler.preemption)
left in the CycleState of the explanation's scheduling attempt: the candidates, victims, PDB
violations and the deciding tie-break are the real search's, never computed a second time. The
attempt is a dry run: explain never applies the nomination, so no pod is evicted.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from scheduler_core.api.pod_conditions import PREEMPTION_BY_SCHEDULER, is_disruption_target
from scheduler_core.api.types import Pod
from scheduler_core.scheduler.framework import CycleState
from scheduler_core.scheduler.preemption import (
    MESSAGE_PREFIX,
    NOT_ELIGIBLE_TERMINATING_POD,
    PREEMPTION_NOT_HELPFUL,
    PREEMPTION_REPORT_KEY,
    PreemptionReport,
    importance_key,
)

# What preemption made of each node.
CHOSEN = "chosen"
CANDIDATE = "candidate"
RULED_OUT = "ruled out"  # the dry run tried it: no victims, or the pod does not fit even without them
NOT_HELPFUL = "not helpful"  # its filter verdict cannot be changed by evicting pods (UnschedulableAndUnresolvable)
NOT_REACHED = "not reached"  # the dry run stopped once it had enough candidates

_EPOCH_START_TIMES = 10**9  # start times from manifests are Unix seconds; the simulation's start at 0


@dataclass(frozen=True, slots=True)
class Victim:
    pod: str
    priority: int
    start_time: float | None

    @property
    def started(self) -> str:
        """The start time as a person reads it: a date for a manifest's startTime, t=Ns in a run."""
        if self.start_time is None:
            return "not started"
        if self.start_time >= _EPOCH_START_TIMES:
            return datetime.fromtimestamp(self.start_time, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return f"t={self.start_time:g}s"

    def as_dict(self) -> dict[str, Any]:
        return {"pod": self.pod, "priority": self.priority, "startTime": self.start_time}


@dataclass(frozen=True, slots=True)
class TerminatingVictim:
    """A victim of the pod's earlier preemption, still terminating on the node it is nominated to."""

    pod: str
    deleted_at: float
    grace_period: int

    @property
    def gone_at(self) -> float:
        return self.deleted_at + self.grace_period

    def as_dict(self) -> dict[str, Any]:
        return {"pod": self.pod, "deletionTimestamp": self.deleted_at, "gracePeriodSeconds": self.grace_period}


@dataclass(slots=True)
class NodePreemption:
    name: str
    outcome: str  # CHOSEN, CANDIDATE, RULED_OUT, NOT_HELPFUL or NOT_REACHED
    victims: list[Victim] = field(default_factory=list)  # lowest priority (then youngest) first
    pdb_violations: int = 0
    plugin: str = ""
    reasons: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "outcome": self.outcome}
        if self.outcome in (CHOSEN, CANDIDATE):
            entry["victims"] = [victim.as_dict() for victim in self.victims]
            entry["pdbViolations"] = self.pdb_violations
        elif self.reasons:
            entry["reasons"] = self.reasons
            if self.plugin:
                entry["plugin"] = self.plugin
        return entry


@dataclass(slots=True)
class PreemptionExplanation:
    preemptor_priority: int
    eligible: bool
    message: str  # DefaultPreemption's status message ("preemption: ..."); "" when a node was chosen
    chosen: str | None = None
    criterion: str = ""  # the tie-break of pickOneNodeForPreemption that decided
    nodes: list[NodePreemption] = field(default_factory=list)
    # Not eligible because its earlier victims still terminate: the node it waits on, and they.
    nominated: str = ""
    terminating: list[TerminatingVictim] = field(default_factory=list)

    @property
    def candidates(self) -> list[NodePreemption]:
        return [node for node in self.nodes if node.outcome in (CHOSEN, CANDIDATE)]

    @property
    def chosen_node(self) -> NodePreemption | None:
        return next((node for node in self.nodes if node.outcome == CHOSEN), None)

    def as_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"preemptorPriority": self.preemptor_priority, "eligible": self.eligible}
        if self.message:
            result["message"] = self.message
        if self.chosen is not None:
            result["chosen"] = self.chosen
            result["criterion"] = self.criterion
        if self.nodes:
            result["nodes"] = [node.as_dict() for node in self.nodes]
        if self.terminating:
            result["nominatedNodeName"] = self.nominated
            result["terminatingVictims"] = [victim.as_dict() for victim in self.terminating]
        return result


def _still_terminating(preemptor: Pod, pods: Sequence[Pod]) -> list[TerminatingVictim]:
    """The pods podEligibleToPreemptOthers found: lower priority, deleted, DisruptionTarget by preemption."""
    return [
        TerminatingVictim(pod.key, pod.metadata.deletion_timestamp, pod.metadata.deletion_grace_period_seconds or 0)
        for pod in pods
        if pod.priority < preemptor.priority
        and pod.metadata.deletion_timestamp is not None
        and is_disruption_target(pod, PREEMPTION_BY_SCHEDULER)
    ]


def _victims(pods: Sequence[Pod]) -> list[Victim]:
    ordered = sorted(pods, key=importance_key, reverse=True)
    return [Victim(pod.key, pod.priority, pod.status.start_time) for pod in ordered]


def explain_preemption(
    state: CycleState | None, pod: Pod, node_names: Sequence[str], nominated_pods: Sequence[Pod] = ()
) -> PreemptionExplanation | None:
    """The preemption of a failed attempt, node by node in `node_names` order; None when no
    preemption ran (the pod fits, or the profile has no DefaultPreemption). `nominated_pods`: the
    pods on the node the pod is nominated to, to name the victims it waits for."""
    report = state.get(PREEMPTION_REPORT_KEY) if state is not None else None
    if not isinstance(report, PreemptionReport):
        return None
    message = MESSAGE_PREFIX + report.message if report.message else ""
    explanation = PreemptionExplanation(pod.priority, report.eligible, message, report.chosen, report.criterion)
    if not report.eligible:
        if report.message == NOT_ELIGIBLE_TERMINATING_POD:
            explanation.nominated = pod.status.nominated_node_name
            explanation.terminating = _still_terminating(pod, nominated_pods)
        return explanation
    candidates = {candidate.name: candidate for candidate in report.candidates}
    potential = set(report.potential_nodes)
    for name in node_names:
        if name in candidates:
            found = candidates[name]
            outcome = CHOSEN if name == report.chosen else CANDIDATE
            entry = NodePreemption(name, outcome, _victims(found.victims), found.num_pdb_violations)
        elif name in report.failures:
            status = report.failures[name]
            entry = NodePreemption(name, RULED_OUT, plugin=status.plugin, reasons=list(status.reasons))
        elif name in potential:
            entry = NodePreemption(name, NOT_REACHED)
        else:
            entry = NodePreemption(name, NOT_HELPFUL, reasons=[PREEMPTION_NOT_HELPFUL])
        explanation.nodes.append(entry)
    return explanation

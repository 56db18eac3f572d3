""" "Why not this node?": one node's verdict from the engine's explanation of a pod, set against the
node the scheduler chose. Nothing is recomputed: the filter reasons and the scores are the ones the
explanation holds (scheduler_core.explain.explain)."""

from dataclasses import dataclass, field

from scheduler_core.explain.explain import Explanation, NodeReport


@dataclass(frozen=True, slots=True)
class ScoreGap:
    plugin: str
    weight: int
    asked: int  # the asked node's normalized score
    chosen: int  # the chosen node's

    @property
    def weighted_gap(self) -> int:
        return (self.chosen - self.asked) * self.weight


@dataclass(frozen=True, slots=True)
class WhyNot:
    node: str
    verdict: str  # "chosen", "rejected", "outscored", "tied", "unknown", "not-evaluated"
    report: NodeReport | None = None
    chosen: NodeReport | None = None
    gaps: list[ScoreGap] = field(default_factory=list)  # where the chosen node scored higher, largest first


def why_not(explanation: Explanation, node_name: str) -> WhyNot:
    reports = {report.name: report for report in explanation.nodes}
    report = reports.get(node_name)
    if report is None:
        return WhyNot(node_name, "unknown")
    if not report.evaluated:
        # The scheduler stopped filtering once it had found enough feasible nodes
        # (percentageOfNodesToScore): this node was never looked at in that cycle.
        return WhyNot(node_name, "not-evaluated", report)
    if not report.feasible:
        return WhyNot(node_name, "rejected", report)
    if explanation.selected == node_name:
        return WhyNot(node_name, "chosen", report)
    chosen = reports.get(explanation.selected or "")
    if chosen is None or chosen.total is None or report.total is None:
        return WhyNot(node_name, "unknown", report)
    gaps = [
        ScoreGap(plugin, weight, report.scores.get(plugin, 0), chosen.scores.get(plugin, 0))
        for plugin, weight in explanation.weights.items()
        if plugin in report.scores or plugin in chosen.scores
    ]
    gaps = sorted((gap for gap in gaps if gap.weighted_gap), key=lambda gap: -gap.weighted_gap)
    # Equal totals: kube-scheduler picked among the best at random (reservoir sampling, the run's seed).
    verdict = "tied" if report.total == chosen.total else "outscored"
    return WhyNot(node_name, verdict, report, chosen, gaps)

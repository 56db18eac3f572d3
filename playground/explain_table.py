"""What the explanation panel lists of a pod's verdicts on every node.

Up to ALL_ROWS_UP_TO nodes, a row each, as before. Past that a row each made the panel unreadable
and slow: 5,000 rows were 3.5 MB of HTML and most of an explanation's second at 5,000 nodes. So a
big cluster's panel lists the chosen node and the best-scored ones that fit (TOP_FITTING rows),
counts the others that fit, and groups the rejected ones by their reason (the FailedScheduling
message's way: "4,200 node(s): NodeResourcesFit: Insufficient cpu") with a few of their names;
"why not?" still asks about any node by name. The board still marks every node: their verdicts go
along as one JSON document (static/js/explain-verdicts.js reads rows or that).
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from scheduler_core.explain.explain import Explanation, NodeReport

ALL_ROWS_UP_TO = 50
TOP_FITTING = 20
EXAMPLES = 5


@dataclass(frozen=True, slots=True)
class BlockedGroup:
    reason: str  # "NodeResourcesFit: Insufficient cpu"
    count: int
    examples: list[str]  # the first EXAMPLES nodes with it, in the board's order


@dataclass(frozen=True, slots=True)
class ExplainTable:
    rows: list[NodeReport]
    fitting_hidden: int = 0  # nodes that fit and have no row
    blocked: list[BlockedGroup] = field(default_factory=list)  # rejected nodes without rows, by reason
    # Every node's verdict when the rows do not hold them all: {"fits": [names], "blocked": {reason: [names]}}.
    verdicts: dict[str, Any] | None = None

    @property
    def summarized(self) -> bool:
        return self.verdicts is not None


def reason_of(node: NodeReport) -> str:
    return f"{node.plugin}: {', '.join(node.reasons)}"


def explain_table(explanation: Explanation) -> ExplainTable:
    nodes = explanation.nodes
    if len(nodes) <= ALL_ROWS_UP_TO:
        return ExplainTable(rows=list(nodes))
    fitting = [node for node in nodes if node.feasible]
    ranked = sorted(fitting, key=lambda node: (node.name != explanation.selected, -(node.total or 0), node.name))
    rows = ranked[:TOP_FITTING]
    by_reason: dict[str, list[str]] = defaultdict(list)
    for node in nodes:
        if not node.feasible:
            by_reason[reason_of(node)].append(node.name)
    blocked = [
        BlockedGroup(reason, len(names), names[:EXAMPLES])
        for reason, names in sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0]))
    ]
    verdicts = {"fits": [node.name for node in fitting], "blocked": dict(by_reason)}
    return ExplainTable(rows=rows, fitting_hidden=len(fitting) - len(rows), blocked=blocked, verdicts=verdicts)

"""Shared score arithmetic (pkg/scheduler/framework/plugins/helper/normalize_score.go)."""

from scheduler_core.scheduler.framework import MAX_NODE_SCORE, NodeScore


def default_normalize_score(scores: list[NodeScore], *, reverse: bool, max_priority: int = MAX_NODE_SCORE) -> None:
    """Scale scores so the highest becomes max_priority (integer division, as Go truncates);
    ``reverse`` flips them, so fewer is better. All zero: zero, or max_priority when reversed."""
    highest = max((entry.score for entry in scores), default=0)
    if highest == 0:
        if reverse:
            for entry in scores:
                entry.score = max_priority
        return
    for entry in scores:
        scaled = (
            max_priority * entry.score // highest if entry.score >= 0 else -((max_priority * -entry.score) // highest)
        )
        entry.score = max_priority - scaled if reverse else scaled

"""Shared score arithmetic (pkg/scheduler/framework/plugins/helper/normalize_score.go)."""

from scheduler_core.scheduler.framework import MAX_NODE_SCORE, NodeScore


def default_normalize_score(scores: list[NodeScore], *, reverse: bool, max_priority: int = MAX_NODE_SCORE) -> None:
    """Scale scores so the highest becomes max_priority (integer division, as Go truncates);
    ``reverse`` flips them, so fewer is better. All zero: zero, or max_priority when reversed."""
    normalized = default_normalized([entry.score for entry in scores], reverse=reverse, max_priority=max_priority)
    for entry, score in zip(scores, normalized, strict=True):
        entry.score = score


def default_normalized(scores: list[int], *, reverse: bool, max_priority: int = MAX_NODE_SCORE) -> list[int]:
    """default_normalize_score over plain ints (the fast path's score columns)."""
    highest = max(scores, default=0)
    if highest == 0:
        return [max_priority] * len(scores) if reverse else scores
    result = []
    for score in scores:
        scaled = max_priority * score // highest if score >= 0 else -((max_priority * -score) // highest)
        result.append(max_priority - scaled if reverse else scaled)
    return result

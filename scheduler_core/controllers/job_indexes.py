"""An Indexed Job's set of indexes as the API writes it in status.completedIndexes (and
failedIndexes): increasing decimal numbers separated by commas, a run of three or more consecutive
numbers written as its first and last joined by a hyphen, "1,3-5,7"; two in a row stay apart,
"1,2" (orderedIntervals.String, pkg/controller/job/indexed_job_utils.go)."""

from collections.abc import Iterable

Interval = tuple[int, int]  # first and last index of a run of consecutive indexes


def index_intervals(indexes: Iterable[int]) -> list[Interval]:
    """The indexes as increasing, disjoint runs of consecutive numbers."""
    runs: list[Interval] = []
    for index in sorted(set(indexes)):
        if runs and index == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


def _interval_text(first: int, last: int) -> str:
    if first == last:
        return str(first)
    separator = "," if last == first + 1 else "-"
    return f"{first}{separator}{last}"


def format_indexes(indexes: Iterable[int]) -> str:
    """The indexes in the API's compressed form; "" for none."""
    return ",".join(_interval_text(first, last) for first, last in index_intervals(indexes))

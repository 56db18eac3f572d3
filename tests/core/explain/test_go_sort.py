"""go_sort against outcomes of Go 1.24's sort.Sort: each expected order below is what Go produced
for the same keys (records numbered by their place in the input), with the same count of Less calls
where it is pinned. Equal keys are where an unstable sort shows: only Go's exact steps land them so."""

import pytest

from scheduler_core.explain.go_sort import go_sort

type Record = tuple[int, int]  # (key, place in the input)


def sorted_places(keys: list[int]) -> tuple[list[int], int]:
    """The input places in go_sort's order, and how many times it compared."""
    records: list[Record] = list(zip(keys, range(len(keys)), strict=True))
    calls = 0

    def less(one: Record, other: Record) -> bool:
        nonlocal calls
        calls += 1
        return one[0] < other[0]

    go_sort(records, less)
    return [place for _, place in records], calls


@pytest.mark.parametrize(("length", "calls"), [(0, 0), (1, 0), (5, 4), (13, 15), (50, 61), (200, 211)])
def test_equal_keys_stay_in_place(length: int, calls: int) -> None:
    # Past 12, the pivot's samples (3 comparisons, 12 from 50 on) compare as increasing, and
    # partial insertion sort finds the run sorted.
    assert sorted_places([0] * length) == (list(range(length)), calls)


def test_short_runs_are_insertion_sorted() -> None:
    # 12 or fewer: plain insertion sort, which keeps equal keys in their order.
    places, calls = sorted_places([2, 1, 2, 1, 0, 2, 1, 0, 0, 2, 1, 2])
    assert places == [4, 7, 8, 1, 3, 6, 10, 0, 2, 5, 9, 11]
    assert calls == 35


def test_thirteen_repeating_keys() -> None:
    # One partition around a median-of-three pivot, then insertion sort of both sides.
    assert sorted_places([i % 3 for i in range(13)]) == ([6, 3, 0, 9, 12, 1, 4, 7, 10, 2, 5, 8, 11], 55)


def test_fifty_repeating_keys() -> None:
    # Tukey's ninther picks the pivot; a run already past its pivot is split off its equal keys,
    # and an unbalanced partition makes the next one shuffle three elements by xorshift.
    places, calls = sorted_places([i % 3 for i in range(50)])
    assert places == [
        18, 48, 45, 3, 42, 39, 6, 36, 33, 9, 30, 27, 12, 0, 24, 15, 21,
        25, 4, 19, 49, 16, 22, 1, 46, 13, 43, 40, 28, 37, 10, 31, 7, 34,
        17, 26, 32, 29, 38, 5, 35, 11, 8, 41, 44, 2, 14, 47, 23, 20,
    ]  # fmt: skip
    assert calls == 153


def test_two_hundred_repeating_keys() -> None:
    places, calls = sorted_places([i % 3 for i in range(200)])
    assert places[:24] == [69, 198, 195, 3, 192, 189, 6, 186, 183, 9, 180, 177, 12, 174, 171, 15, 168, 165, 18, 162,
                           159, 21, 156, 153]  # fmt: skip
    assert sorted(places) == list(range(200)) and calls == 589


@pytest.mark.parametrize(
    ("length", "head", "calls"),
    [
        (13, [12, 11, 10, 8, 9, 6, 7, 5, 4, 3, 2, 0, 1], 32),
        (50, [49, 48, 47, 46, 45, 44, 43, 42, 41, 39, 40, 38, 37, 36, 35, 33, 34], 209),
    ],
)
def test_keys_counting_down_in_pairs(length: int, head: list[int], calls: int) -> None:
    # Partitions, then insertion sorts: some pairs of equal keys come out swapped, some not.
    places, counted = sorted_places([(length - i) // 2 for i in range(length)])
    assert places[: len(head)] == head and counted == calls


def test_a_decreasing_run_is_reversed_whole() -> None:
    # From 50 on, pivot samples that all compare as decreasing reverse the run: the equal
    # neighbours (0 and 1, 5 and 6, ...) trade places.
    keys = [50 - i for i in range(50)]
    for place in (0, 5, 18, 30, 44):
        keys[place] = keys[place + 1]
    assert sorted_places(keys) == (list(range(49, -1, -1)), 61)


def test_an_inconsistent_less_follows_go_call_for_call() -> None:
    """A Less that answers from a fixed pseudo-random stream drives the sort through shuffles
    and into heapsort: the same answers in the same order must give Go's permutation."""
    state, calls = 3, 0

    def less(one: int, other: int) -> bool:
        nonlocal state, calls
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        calls += 1
        return (state >> 33) % 50 != 0

    items = list(range(20))
    go_sort(items, less)
    assert items == [6, 0, 4, 16, 3, 1, 12, 17, 9, 15, 14, 7, 5, 13, 8, 18, 2, 11, 19, 10]
    assert calls == 174

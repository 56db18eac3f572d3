"""Go's sort.Sort (go1.24, the release kubectl v1.34.5 is built with), comparison for comparison
and swap for swap, so a Python client orders equal keys exactly as kubectl does.

sort.Sort is not stable: it is pattern-defeating quicksort (src/sort/zsortinterface.go) with
insertion sort on short runs, a pseudo-random shuffle seeded from the run's length when a
partition came out unbalanced, and heapsort past a depth limit. Everything it does is
deterministic, so equal elements land where Go puts them only if every step is followed."""

from collections.abc import Callable
from dataclasses import dataclass

MAX_INSERTION = 12  # runs this short are insertion-sorted
SHORTEST_NINTHER = 50  # runs this long take the median of three medians as pivot
SHORTEST_SHIFTING = 50  # shorter runs are not shifted by partial insertion sort
MAX_STEPS = 5  # the out-of-order pairs partial insertion sort fixes before giving up
MAX_SWAPS = 4 * 3  # choosePivot's swaps when the sampled run is strictly decreasing
UINT64 = (1 << 64) - 1

INCREASING, DECREASING, UNKNOWN = "increasing", "decreasing", "unknown"


def go_sort[T](items: list[T], less: Callable[[T, T], bool]) -> None:
    """Sorts `items` in place as Go's sort.Sort does with `less` as the Interface's Less."""
    if len(items) > 1:
        _Sorter(items, less).pdqsort(0, len(items), len(items).bit_length())


@dataclass(slots=True)
class _Sorter[T]:
    """sort.Interface over a list: Less and Swap by index, as Go's algorithm calls them."""

    items: list[T]
    before: Callable[[T, T], bool]

    def less(self, i: int, j: int) -> bool:
        return self.before(self.items[i], self.items[j])

    def swap(self, i: int, j: int) -> None:
        self.items[i], self.items[j] = self.items[j], self.items[i]

    def pdqsort(self, a: int, b: int, limit: int) -> None:
        was_balanced, was_partitioned = True, True
        while True:
            length = b - a
            if length <= MAX_INSERTION:
                self.insertion_sort(a, b)
                return
            if limit == 0:  # too many bad pivots: heapsort bounds the work
                self.heap_sort(a, b)
                return
            if not was_balanced:
                self.break_patterns(a, b)
                limit -= 1
            pivot, hint = self.choose_pivot(a, b)
            if hint == DECREASING:
                self.reverse_range(a, b)
                pivot = (b - 1) - (pivot - a)  # the pivot's place once reversed
                hint = INCREASING
            if was_balanced and was_partitioned and hint == INCREASING and self.partial_insertion_sort(a, b):
                return
            # The element before the run is not less than the pivot: many equal keys, so the
            # run's elements equal to the pivot go first and are done.
            if a > 0 and not self.less(a - 1, pivot):
                a = self.partition_equal(a, b, pivot)
                continue
            mid, was_partitioned = self.partition(a, b, pivot)
            left, right = mid - a, b - mid
            threshold = length // 8
            if left < right:  # recurse into the smaller side, loop on the larger
                was_balanced = left >= threshold
                self.pdqsort(a, mid, limit)
                a = mid + 1
            else:
                was_balanced = right >= threshold
                self.pdqsort(mid + 1, b, limit)
                b = mid

    def insertion_sort(self, a: int, b: int) -> None:
        for i in range(a + 1, b):
            j = i
            while j > a and self.less(j, j - 1):
                self.swap(j, j - 1)
                j -= 1

    def sift_down(self, lo: int, hi: int, first: int) -> None:
        root = lo
        while True:
            child = 2 * root + 1
            if child >= hi:
                return
            if child + 1 < hi and self.less(first + child, first + child + 1):
                child += 1
            if not self.less(first + root, first + child):
                return
            self.swap(first + root, first + child)
            root = child

    def heap_sort(self, a: int, b: int) -> None:
        hi = b - a
        for i in range((hi - 1) // 2, -1, -1):
            self.sift_down(i, hi, a)
        for i in range(hi - 1, -1, -1):
            self.swap(a, a + i)
            self.sift_down(0, i, a)

    def partition(self, a: int, b: int, pivot: int) -> tuple[int, bool]:
        """Elements less than the pivot before it, the rest after; whether none had to move."""
        self.swap(a, pivot)
        i, j = a + 1, b - 1
        while i <= j and self.less(i, a):
            i += 1
        while i <= j and not self.less(j, a):
            j -= 1
        if i > j:
            self.swap(j, a)
            return j, True
        self.swap(i, j)
        i, j = i + 1, j - 1
        while True:
            while i <= j and self.less(i, a):
                i += 1
            while i <= j and not self.less(j, a):
                j -= 1
            if i > j:
                break
            self.swap(i, j)
            i, j = i + 1, j - 1
        self.swap(j, a)
        return j, False

    def partition_equal(self, a: int, b: int, pivot: int) -> int:
        """Elements equal to the pivot first (none is less), then the greater ones: where they start."""
        self.swap(a, pivot)
        i, j = a + 1, b - 1
        while True:
            while i <= j and not self.less(a, i):
                i += 1
            while i <= j and self.less(a, j):
                j -= 1
            if i > j:
                return i
            self.swap(i, j)
            i, j = i + 1, j - 1

    def partial_insertion_sort(self, a: int, b: int) -> bool:
        """Fixes a few out-of-order neighbours of a nearly sorted run; whether it is now sorted."""
        i = a + 1
        for _ in range(MAX_STEPS):
            while i < b and not self.less(i, i - 1):
                i += 1
            if i == b:
                return True
            if b - a < SHORTEST_SHIFTING:
                return False
            self.swap(i, i - 1)
            if i - a >= 2:  # the smaller one moves left (Go stops at index 1, not at a + 1)
                j = i - 1
                while j >= 1 and self.less(j, j - 1):
                    self.swap(j, j - 1)
                    j -= 1
            if b - i >= 2:  # the greater one moves right
                j = i + 1
                while j < b and self.less(j, j - 1):
                    self.swap(j, j - 1)
                    j += 1
        return False

    def break_patterns(self, a: int, b: int) -> None:
        """Swaps three middle elements with pseudo-random ones: xorshift64 seeded with the length."""
        length = b - a
        if length < 8:
            return
        state = length
        mask = (1 << length.bit_length()) - 1  # Go's nextPowerOfTwo(length) - 1
        middle = a + (length // 4) * 2
        for idx in range(middle - 1, middle + 2):
            state = _xorshift(state)
            other = state & mask
            if other >= length:
                other -= length
            self.swap(idx, a + other)

    def choose_pivot(self, a: int, b: int) -> tuple[int, str]:
        """The median of samples at the quarters (of their neighbourhoods on long runs), and what
        the comparisons hint at the run's order."""
        length = b - a
        swaps = [0]
        i, j, k = a + length // 4, a + length // 4 * 2, a + length // 4 * 3
        if length >= 8:
            if length >= SHORTEST_NINTHER:
                i = self.median(i - 1, i, i + 1, swaps)
                j = self.median(j - 1, j, j + 1, swaps)
                k = self.median(k - 1, k, k + 1, swaps)
            j = self.median(i, j, k, swaps)
        if swaps[0] == 0:
            return j, INCREASING
        return j, DECREASING if swaps[0] == MAX_SWAPS else UNKNOWN

    def median(self, a: int, b: int, c: int, swaps: list[int]) -> int:
        a, b = self.order2(a, b, swaps)
        b, c = self.order2(b, c, swaps)
        a, b = self.order2(a, b, swaps)
        return b

    def order2(self, a: int, b: int, swaps: list[int]) -> tuple[int, int]:
        if self.less(b, a):
            swaps[0] += 1
            return b, a
        return a, b

    def reverse_range(self, a: int, b: int) -> None:
        i, j = a, b - 1
        while i < j:
            self.swap(i, j)
            i, j = i + 1, j - 1


def _xorshift(state: int) -> int:
    """Go's xorshift.Next on a uint64."""
    state ^= (state << 13) & UINT64
    state ^= state >> 7
    state ^= (state << 17) & UINT64
    return state


def go_sorted[T](items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """A copy of `items` in the order sort.Slice(items, less) leaves them (sort.Slice runs the same
    algorithm over the slice)."""
    data = list(items)
    go_sort(data, less)
    return data

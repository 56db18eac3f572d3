"""The pods a controller creates from one template arrive at the admission chain sharing the
template's PodSpec. A plugin whose change is a function of the spec alone (and of a key: the
priority class it resolved) computes it once per template with SpecMemo, and the pods share the
result: less time per create and one copy of what they share (their tolerations) instead of one each.
The result is the same object or an equal one either way, so nothing a run shows depends on it.
"""

from collections.abc import Callable, Hashable

from scheduler_core.api.types import PodSpec

MEMO_SIZE = 256  # templates remembered at once; past that the memo starts over


class SpecMemo:
    def __init__(self) -> None:
        # id(spec) -> (spec, key, result): the spec is kept so that its id names it alone.
        self._results: dict[int, tuple[PodSpec, Hashable, PodSpec]] = {}

    def get(self, spec: PodSpec, key: Hashable, compute: Callable[[], PodSpec]) -> PodSpec:
        entry = self._results.get(id(spec))
        if entry is not None and entry[0] is spec and entry[1] == key:
            return entry[2]
        result = compute()
        if len(self._results) >= MEMO_SIZE:
            self._results.clear()
        self._results[id(spec)] = (spec, key, result)
        return result

"""The store of a run at any of its frames, without replaying it: for explanations (issue #14:
explain replayed the run from its start on every click, 27 s at the last event of 500 / 5,000).

A run simulated to its end in this process (its execution, or a replay that went to the end)
leaves its final store and the journal of every change and event, with how many of them each frame
covers. The store right after frame N is then the final store with the rest of the journal undone
(Cluster.before): a copy of the objects and one pass over what came after, instead of the
simulation of everything before. Kept for a few runs, least recently used first out, bounded by
their journals' length. A run not kept here (on a scale-out set-up a worker process executed it;
a restart; the LRU dropped it) is replayed to its end off the request by
playground/run_state_builder.py, which remembers it here; a short one is replayed inline
(run_replay.replay), as cheap as it is short.
"""

import bisect
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter

from scheduler_core.api.types import Pod
from scheduler_core.scheduler.config import SchedulerConfiguration
from scheduler_core.scheduler.snapshot import PodInfoCache
from scheduler_core.store.cluster import Change, Cluster
from scheduler_core.store.events import Event

MAX_RUNS = 4
MAX_ITEMS = 1_500_000  # changes and events over all kept runs (500 / 5,000: about 60,000)
# A long run also keeps its store every this many journal items back from its end, so that the store
# at a frame undoes at most this many (5,000 / 50,000: 250,000 items, 0.15 s to undo from the end
# to mid-run; a kept store is about 8 MB there).
STORE_EVERY_ITEMS = 50_000
MOST_STORES = 8  # a longer journal keeps them further apart (1,500,000 items: every 187,500)


@dataclass(frozen=True, slots=True)
class FinishedRun:
    final: Cluster  # the store at the run's end: nobody changes it any more
    configuration: SchedulerConfiguration | None
    journal: list[Change | Event]
    boundaries: list[int]  # frame N (1-based) covers journal[: boundaries[N - 1]]
    times: list[float]  # frame N's simulated time
    # The scheduler's view of the pods, shared by the explanations of this run: most of a 50,000-pod
    # snapshot is the same pod objects at every frame near the end.
    pod_infos: PodInfoCache = field(default_factory=PodInfoCache)
    # (journal position, the store before journal[position:]), by position: where cluster_at starts.
    stores: list[tuple[int, Cluster]] = field(default_factory=list)
    demand_log: list[tuple[float, str, float]] = field(default_factory=list)  # Simulation.demand_log

    @classmethod
    def detached(
        cls,
        store: Cluster,
        configuration: SchedulerConfiguration | None,
        journal: list[Change | Event],
        boundaries: list[int],
        times: list[float],
        demand_log: list[tuple[float, str, float]] | None = None,
    ) -> "FinishedRun":
        """Keeps a copy of `store` without its watchers: the simulation that filled it (controllers,
        the scheduler's cache, their indexes) is let go with the run, instead of living as long as
        the kept run through the store's watchers. The copy holds no reference cycle, so dropping
        it frees it at once, without the cyclic collector (playground/heap.py).

        The scheduler's view of every bound pod version the run went through is computed now, once
        (0.6 s for the 150,000 of 5,000 / 50,000), not by explanations: the store at any frame holds
        these very objects (Cluster.before puts the journal's back), and a first explanation at the
        last placement missed all 50,000 of them (bound, not yet Running; 0.14 s)."""
        final = store.before([])
        stores = _stores_along(final, journal)
        kept = cls(final, configuration, journal, boundaries, times, stores=stores, demand_log=list(demand_log or []))
        kept.pod_infos.keep(_bound_pod_versions(final, journal))
        return kept

    def cluster_at(self, seq: int) -> tuple[Cluster, float]:
        """The store right after frame `seq` (0: before anything happened), and its time."""
        if seq <= 0:
            cut, time = 0, 0.0
        else:
            index = min(seq, len(self.boundaries)) - 1
            cut, time = self.boundaries[index], self.times[index]
        found = bisect.bisect_left(self.stores, cut, key=itemgetter(0))
        position, store = self.stores[found] if found < len(self.stores) else (len(self.journal), self.final)
        return store.before(self.journal[cut:position]), time


def _bound_pod_versions(final: Cluster, journal: list[Change | Event]) -> Iterator[Pod]:
    """The pods on nodes at the end, then every version on a node before and after a change."""
    for pod in final.objects("Pod"):
        if pod.spec.node_name:
            yield pod
    for item in journal:
        if type(item) is Change and item.kind == "Pod":
            if item.old is not None and item.old.spec.node_name:
                yield item.old
            if item.new is not None and item.new.spec.node_name:
                yield item.new


def _stores_along(final: Cluster, journal: list[Change | Event]) -> list[tuple[int, Cluster]]:
    """The stores every STORE_EVERY_ITEMS journal items back from the end (at most MOST_STORES of
    them), oldest first: one pass over the journal when the run is kept (0.3 s at 250,000 items),
    not one per explanation."""
    stores: list[tuple[int, Cluster]] = []
    store, end = final, len(journal)
    every = max(STORE_EVERY_ITEMS, -(-len(journal) // (MOST_STORES + 1)))
    for position in range(len(journal) - every, 0, -every):
        store = store.before(journal[position:end])
        stores.append((position, store))
        end = position
    stores.reverse()
    return stores


_lock = threading.Lock()
# By run id, its version's permalink (a hash of the content) and seed: what the frames are a
# function of, so that a database reset, which reuses ids, cannot serve another run's store.
RunKey = tuple[int, str, int]
_kept: "OrderedDict[RunKey, FinishedRun]" = OrderedDict()


def remember(run_id: RunKey, finished: FinishedRun) -> None:
    """Keeps the run (unless its journal alone is over the bound), dropping the least recently used."""
    if len(finished.journal) > MAX_ITEMS:
        return
    with _lock:
        _kept[run_id] = finished
        _kept.move_to_end(run_id)
        while len(_kept) > MAX_RUNS or sum(len(run.journal) for run in _kept.values()) > MAX_ITEMS:
            _kept.popitem(last=False)


def finished_run(run_id: RunKey) -> FinishedRun | None:
    with _lock:
        found = _kept.get(run_id)
        if found is not None:
            _kept.move_to_end(run_id)
        return found


def clear() -> None:
    with _lock:
        _kept.clear()

"""A `kubectl describe` of one object at the player's event of a run (issue #16, item 7): the run's
store right after that frame, and its simulated time, handed to the object's describer.

The store comes from the run kept in this process (run_states), or from a replay up to the frame
(run_replay.replay). A describer (`InStore`) reads that store for one object by its name and says
None when the object does not exist there.
"""

from collections.abc import Callable

from playground import run_replay
from playground.models import Run
from playground.run_states import FinishedRun
from scheduler_core.store.cluster import Cluster

type InStore[D] = Callable[[Cluster, float, str], D | None]


def in_kept_run[D](kept: FinishedRun, name: str, seq: int, in_store: InStore[D]) -> D | None:
    cluster, time = kept.cluster_at(seq)
    return in_store(cluster, time, name)


def in_replay[D](run: Run, name: str, seq: int, in_store: InStore[D]) -> D | None:
    """By replaying the run to frame `seq` (a run this process does not keep). Touches no database
    once the run's version is loaded (run_replay.load_for_replay): it may run off the request."""
    replayed = run_replay.replay(run, seq)
    return in_store(replayed.cluster, replayed.time, name)

"""The scheduler's cache follows the store as upstream's does: every update of an assigned pod."""

import pytest

from tests.core.controllers.node_health_helpers import find, simulate


@pytest.mark.parametrize("seed", range(5))
def test_preemption_sees_the_victims_start_times_in_a_run(seed):
    """Issue #16, item 2: 'early' started at 1 s, 'late' at 11 s, one on each node; the preemptor's
    node is the one whose victims started last, whatever the seed's tie-breaks."""
    sim = simulate("preemption_latest_start_time.yaml", seed=seed)
    (preempted,) = find(sim, "Preempted")
    assert (preempted.time, preempted.object) == (20.0, "Pod/default/late")
    late_node = next(e for e in find(sim, "Scheduled") if e.object == "Pod/default/late").message.rsplit(" ", 1)[1]
    urgent = next(e for e in find(sim, "Scheduled") if e.object == "Pod/default/urgent")
    assert urgent.message.endswith(f"to {late_node}")

"""kubectl get -w in the console: the watch's rows for a run's changes, as kubectl prints a watch
(no header again, each row aligned on its own), filtered as the API's watch filters them."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.watch import JournalIndex, cluster_hosts, occurrences_of
from scheduler_core.kubectl.flags import CommandError
from scheduler_core.kubectl.watching import Frames, watched_rows
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event
from tests.core.kubeapi.conftest import CLUSTER


@pytest.fixture(scope="module")
def frames() -> Frames:
    """The small cluster's run, one frame per journal entry."""
    simulation = Simulation(load_manifests(CLUSTER))
    journal = [item for item in simulation.stream() if isinstance(item, Change | Event)]
    final = simulation.cluster
    occurrences = occurrences_of(final.events)
    return Frames(
        journal,
        JournalIndex.of(journal, final.resource_version),
        list(range(1, len(journal) + 1)),
        [simulation.now] * len(journal),
        0.0,
        lambda: occurrences,
        cluster_hosts(final),
    )


def test_rows_of_every_change_of_the_type_without_a_header(frames: Frames) -> None:
    rows = watched_rows("kubectl get pods -w", frames, 0, len(frames.boundaries)).splitlines()
    assert rows and all(row.startswith("web-") for row in rows)  # the default namespace's pods only
    assert "Pending" in rows[0] and rows[-1].split()[1:3] == ["1/1", "Running"]
    assert rows[0].split("   ")[0] == rows[0].split()[0]  # a row's own widths: padding 3 after its name
    every = watched_rows("get pods -A --watch", frames, 0, len(frames.boundaries)).splitlines()
    assert any(row.startswith("ops ") for row in every) and any(row.startswith("default ") for row in every)


def test_names_selectors_and_a_stretch_of_frames(frames: Frames) -> None:
    end = len(frames.boundaries)
    assert set(watched_rows("get pods -w -n ops -o name", frames, 0, end).split()) == {"pod/tool"}
    assert watched_rows("get pods -w -l app=nope", frames, 0, end) == ""
    assert watched_rows("get pods -w", frames, end, end) == ""
    half = watched_rows("get pods -w", frames, 0, end // 2)
    rest = watched_rows("get pods -w", frames, end // 2, end)
    assert half + rest == watched_rows("get pods -w", frames, 0, end)
    nodes = watched_rows("get node worker1 -w", frames, 0, end).splitlines()
    assert nodes and all(row.startswith("worker1 ") for row in nodes)


def test_lines_that_are_not_a_single_types_watch(frames: Frames) -> None:
    with pytest.raises(CommandError, match="only kubectl get -w"):
        watched_rows("get pods", frames, 0, 1)
    with pytest.raises(CommandError, match="watch is only supported on individual resources"):
        watched_rows("get pods,nodes -w", frames, 0, 1)
    with pytest.raises(status.ApiError, match="field label not supported"):
        watched_rows("get pods -w --field-selector spec.color=red", frames, 0, 1)

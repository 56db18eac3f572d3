import json
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.cli import main
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parents[1] / "data"


def simulate(name: str, seed: int = 0, until: float | None = None) -> Simulation:
    simulation = Simulation(load_manifests((DATA / name).read_text()), seed=seed)
    simulation.run_to_end(until)
    return simulation


def reasons(simulation: Simulation, obj: str) -> list[tuple[float, str]]:
    return [(e.time, e.reason) for e in simulation.cluster.events if e.object == obj]


def test_a_pod_that_fits_is_scheduled_and_started_by_the_kubelet():
    sim = simulate("sim_basic.yaml")
    assert reasons(sim, "Pod/default/web")[:4] == [
        (0.0, "Scheduled"),
        (1.0, "Pulled"),
        (1.0, "Created"),
        (1.0, "Started"),
    ]


def test_a_deleted_pod_is_stopped_then_removed_after_its_grace_period():
    sim = simulate("sim_basic.yaml")
    assert (10.0, "Killing") in reasons(sim, "Pod/default/web")
    assert sim.cluster.get(Pod, "default/web") is None
    assert sim.now == 40.0  # deletion at 10 s + the default 30 s grace period


def test_a_pending_pod_waits_for_a_node_that_can_take_it_and_is_not_retried_needlessly():
    sim = simulate("sim_basic.yaml")
    huge = reasons(sim, "Pod/default/huge")
    # One failure at 0 s; the deletion at 10 s does not free enough CPU, so no retry until the node joins.
    assert huge[0] == (0.0, "FailedScheduling")
    assert huge[1] == (20.0, "Scheduled")
    assert sim.cluster.get(Pod, "default/huge").spec.node_name == "big"


def test_until_stops_the_clock_early():
    sim = simulate("sim_basic.yaml", until=15)
    assert sim.now == 15
    assert sim.cluster.get(Pod, "default/huge").spec.node_name == ""


def test_same_scenario_and_seed_replay_event_for_event():
    first = [e.as_dict() for e in simulate("sim_basic.yaml", seed=3).cluster.events]
    second = [e.as_dict() for e in simulate("sim_basic.yaml", seed=3).cluster.events]
    assert first == second


def test_simulate_cli_json_state(capsys):
    status = main(["simulate", "-f", str(DATA / "sim_basic.yaml"), "-o", "json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["time"] == 40.0
    assert [n["name"] for n in report["nodes"]] == ["big", "worker1", "worker2"]
    (huge,) = report["pods"]
    assert huge == {
        "namespace": "default",
        "name": "huge",
        "node": "big",
        "phase": "Running",
        "ready": True,
        "owner": None,
        "qosClass": "Burstable",
        "image": "app",
        "startTime": 21.0,
    }
    assert report["events"][0] == {
        "seq": 1,
        "time": 0.0,
        "type": "Normal",
        "reason": "Scheduled",
        "object": "Pod/default/web",
        "message": "Successfully assigned default/web to worker2",
    }


def test_simulate_cli_jsonl_ends_with_the_state(capsys):
    assert main(["simulate", "-f", str(DATA / "sim_basic.yaml"), "-o", "jsonl", "--until", "5s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[-1])["state"]["time"] == 5.0
    assert all("seq" in json.loads(line) for line in lines[:-1])


def test_simulate_cli_rejects_a_bad_duration(capsys):
    assert main(["simulate", "-f", str(DATA / "sim_basic.yaml"), "--until", "soon"]) == 2
    assert "invalid duration" in capsys.readouterr().err


def test_a_pod_in_a_cluster_without_nodes_waits_and_the_run_still_ends(tmp_path):
    manifest = tmp_path / "lonely.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: lonely}\nspec: {containers: [{name: c, image: x}]}\n"
    )
    simulation = Simulation(load_manifests(manifest.read_text()))
    events = simulation.run_to_end()
    assert events[0].reason == "FailedScheduling"
    assert events[0].message == "no nodes available to schedule pods"
    assert simulation.now < 60


# ---------------------------------------------------------------------------- idle retries


NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n"


def _label_node(simulation: Simulation) -> None:
    from dataclasses import replace

    from scheduler_core.api.types import Node

    node = simulation.cluster.get(Node, "n1")
    assert node is not None
    labels = dict(node.metadata.labels, touched="yes")
    simulation.cluster.update(replace(node, metadata=replace(node.metadata, labels=labels)))


def test_an_idle_retry_does_not_keep_a_quiet_run_going():
    simulation = Simulation(load_manifests(NODE))
    fired: list[float] = []
    simulation.after(100.0, lambda: fired.append(simulation.now), idle=True, woken_by_change=lambda: True)
    simulation.run_to_end()
    assert fired == [] and simulation.now == 0.0


def test_a_store_change_after_its_instant_wakes_an_idle_retry():
    simulation = Simulation(load_manifests(NODE))
    fired: list[float] = []
    simulation.after(100.0, lambda: fired.append(simulation.now), idle=True, woken_by_change=lambda: True)
    simulation.after(100.0, lambda: fired.append(-simulation.now), idle=True)  # a plain idle timer
    simulation.after(5.0, lambda: _label_node(simulation))  # a later instant changes the store
    simulation.run_to_end()
    # The run goes on to the woken retry and ends there: a plain idle timer due at the same time
    # but armed later fires only if the run goes on past it, as any idle timer.
    assert fired == [100.0] and simulation.now == 100.0


def test_changes_of_the_instant_that_armed_a_retry_do_not_wake_it():
    simulation = Simulation(load_manifests(NODE))
    fired: list[float] = []

    def refused_then_changed() -> None:
        # A retry armed by a refusal, then the same instant writes to the store (a status update).
        simulation.after(100.0, lambda: fired.append(simulation.now), idle=True, woken_by_change=lambda: True)
        _label_node(simulation)

    simulation.after(5.0, refused_then_changed)
    simulation.run_to_end()
    assert fired == [] and simulation.now == 5.0


def test_a_retry_that_no_longer_means_to_run_is_not_woken():
    """A controller's retry superseded or dropped (its object deleted) fires as a no-op: it must
    not keep the run going after a change."""
    simulation = Simulation(load_manifests(NODE))
    fired: list[float] = []
    simulation.after(100.0, lambda: fired.append(simulation.now), idle=True, woken_by_change=lambda: False)
    simulation.after(5.0, lambda: _label_node(simulation))
    simulation.run_to_end()
    assert fired == [] and simulation.now == 5.0


def test_an_idle_timer_still_needed_keeps_the_run_going_until_it_is_not():
    """`needed`: a deadline whose callback would still change something (a stuck rollout) is work
    left; once something else has done it (the rollout completed), it is not."""
    simulation = Simulation(load_manifests(NODE))
    fired: list[float] = []
    simulation.after(100.0, lambda: fired.append(simulation.now), idle=True, needed=lambda: True)
    simulation.run_to_end()
    assert fired == [100.0] and simulation.now == 100.0

    simulation = Simulation(load_manifests(NODE))
    done = False

    def finish() -> None:
        nonlocal done
        done = True

    simulation.after(100.0, lambda: fired.append(-simulation.now), idle=True, needed=lambda: not done)
    simulation.after(5.0, finish)
    simulation.run_to_end()
    assert fired == [100.0] and simulation.now == 5.0

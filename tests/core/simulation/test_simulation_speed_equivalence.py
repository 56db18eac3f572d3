"""The simulation's speed-ups change nothing a run shows: events and final states are byte for byte
what the engine produced before them.

Golden digests. Every digest below was produced BEFORE the simulation was optimized, by the engine
as it was then (scheduler_core copied aside before any change to simulation.py, cluster.py or the
controllers; only bench.py's workload definitions, which build the scenarios, taken from now), with
the `_events_digest` and `_state_digest` functions of this file:

- WORKLOAD_DIGESTS: `bench.simulate_workload(workload, workload.small_nodes, seed)` for seeds 0
  and 1: (number of events, sha256 of the events, sha256 of the final cluster state);
- SCENARIO_DIGESTS: each tests/core/data scenario, seed 0, run until 3600 s with at most 20,000
  events: (sha256 of the file, first 12 hex digits; sha256 of the events then the final state,
  first 32 hex digits). A scenario file edited since is skipped (its digest no longer applies).

One scenario, node_down_bare_pods.yaml, did not replay identically from one process to the next
before: the kubelet looked at a node's pods in the order of a Python set of their names, which
PYTHONHASHSEED changes (two pods could stop in either order at node-up). The kubelet now takes them
in store order, the order one of the two earlier outcomes had; its digest is that outcome's
(the old engine run with PYTHONHASHSEED=1).

When a change of behaviour is intended, record the new digests with that change alone and say so.

Besides the digests, the optimized paths are compared with the plain ones they replace: notifying
every controller of every kind (no `watch_kinds` filter), and scanning every pod for a node's pods.
"""

import hashlib
import json
from pathlib import Path

import pytest

from scheduler_core import bench
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Node, Pod
from scheduler_core.controllers.base import SimulationOptions
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.simulation.state import cluster_state
from scheduler_core.store.cluster import Cluster
from scheduler_core.store.events import Event

DATA = Path(__file__).parents[1] / "data"

# (workload, seed) -> (events, sha256 of the events, sha256 of the final state)
WORKLOAD_DIGESTS = {
    ("DeploymentRollout", 0): (
        1370,
        "93acacf3b97ba456c6d8a88b4d310a8fd4b0a5cf637ce90e893053bcd4fc9ed4",
        "31830d021ab1a2a1e090e6754f3a9cd40d43a274b6983a909f7e83a583a2fa75",
    ),
    ("DeploymentRollout", 1): (
        1370,
        "9ead7de0ef63671616aed8ced4ebc3f1b1c91c3f69e25ad07f9d3c4807d1392d",
        "80d6683e37ec749f75338a619c0a81b07f3690c7a57fd4cfc1b6e5d7e7c140b2",
    ),
    ("NodeDown", 0): (
        5081,
        "0b58ce2116723c74c94c7900b88cc77580ec973c7ffcc1c7522c4acbe9c75a8f",
        "abb8cda22e3d02b7d71e7778fdeaa5d1c8e44c891d028203bca21ce4ea527788",
    ),
    ("NodeDown", 1): (
        5081,
        "8ed131207b4ee408d175f6edd5d92e0117002b279de57521235db4a9d6b255c4",
        "2d37bf1a275c763dbb00ede8717ec218a1e94c08beeb5f30dadbecfe22af1580",
    ),
    ("StatefulSetStartup", 0): (
        150,
        "9c5d1731c2ffa407baa39585482b5291739d8ffadc29746a111e7c92fb815455",
        "409d6bcdb977d3f7a869af35dc40569144d1fabf85d2b62a0d16980d374ae1c6",
    ),
    ("StatefulSetStartup", 1): (
        150,
        "542bd046d6ccf33115acc434eb560229eaafaaee814c422c268463c2f770988b",
        "42e9fa445f2c25062ceeb1b2ccca5b1d468cbff53411ebc77bd5ff42954e1212",
    ),
}

# scenario file -> (sha256 of its text[:12], sha256 of its events and final state[:32])
SCENARIO_DIGESTS = {
    "cron_concurrency.yaml": ("ef9996aff02d", "2cf62b8aca7fb1e18771da87eba3ceb9"),
    "cron_every_minute.yaml": ("edf71ee3d0e0", "58ee2abd853c7d36504a4d66c82c90c5"),
    "cron_suspend_deadline.yaml": ("4a4a9afa9d14", "dd1c08b11f181d26f331390b2014a50b"),
    "cron_time_zone.yaml": ("46e725e010d8", "485fd4dfc500b0ef3d5a300cfe5617db"),
    "deploy_history.yaml": ("7258166d306c", "b2d59a84c1d04200493a4224a25f37eb"),
    "deploy_pause.yaml": ("c2dd8448d513", "2fa02b5334e37eb9c2c4f234a5dad116"),
    "deploy_proportional.yaml": ("816f83fa8528", "20d9dae240fd99dadf231cc07e172f88"),
    "deploy_recreate.yaml": ("dbe219a9da13", "b703bf3182b3d5598b130bfe43c3f1d5"),
    "deploy_rollback.yaml": ("caa95881a347", "2c90a8e599d361aa05546c9208bb2a2f"),
    "deploy_rolling_percent.yaml": ("463b685b5e8e", "c3d188599a8d841ddb92ea679d173347"),
    "deploy_rolling_surge1.yaml": ("1462bcd8fd76", "a3bf094796a53ace169451e71fbbb1f8"),
    "deploy_seed_blue_green.yaml": ("dafd4430c885", "e365dfe580ff98550f9d25c2cf2195ae"),
    # Re-recorded (issue #16, item 7): a rollout the quota keeps from creating pods now goes on to
    # its progress deadline (ProgressDeadlineExceeded at 601 s) and the ReplicaSet's retries with it.
    "deploy_seed_quota.yaml": ("cd14cb3de3a6", "3f28bbeda798c55ee34323aabc8756be"),
    "deploy_seed_rolling.yaml": ("2bbc2cbabfa5", "1e6f180af0939cc28605c0b230f02319"),
    "drain_cordon_then_drain.yaml": ("d1d1d1762e38", "a9c1a35442a063eae99b969ab87e22aa"),
    "deploy_progress_deadline.yaml": ("6ea8047a6f75", "e27431ca6e62dac63fb2da43d78a7918"),
    "drain_pdb_waits.yaml": ("65e9d6522998", "dbfbdc754801347c50342b51dcc593f5"),
    "drain_pdb_waits_past_the_last_change.yaml": ("28c7145574fe", "b575522bd5e347d498df1ad5c2e40ce6"),
    "drain_timeout.yaml": ("eabe7208b8b9", "7c9e08f2daa870c42b4e06eb9d943bad"),
    "ds_control_plane.yaml": ("e3ca40eab30a", "8ac3ae385c640b8b448fd552a40b66dd"),
    "ds_node_changes.yaml": ("9fd0d009ad08", "c282cdef8d7eb73abb56b96d3e8cf94e"),
    "ds_rolling_update.yaml": ("3b3e317e30b7", "4fe47bc81cb667dc436a5812200cc99b"),
    "explain_local_volume.yaml": ("dade7116a10f", "086d4975cbb87ac3b13c6a098d73e482"),
    "hpa_default_behavior.yaml": ("dfb04495fbe3", "47b608489e5d12dff1620443ccfbafd5"),
    "hpa_max_replicas.yaml": ("5a2a6e4f6792", "c029449d9a8af6a77ca7ff6ba78657c0"),
    "hpa_metrics_loop.yaml": ("a92008f80d09", "63c2aba5a1ef7dd2e4aa091ad8fdd4f3"),
    "hpa_policies.yaml": ("fcced0ad7c19", "7a5748af42c8928e054ba908b790acae"),
    "hpa_scale_down.yaml": ("7b7afa8b374e", "1c0b4861b64829428095dc4c067bca97"),
    "hpa_scale_up.yaml": ("8c31a8e43fac", "263b0834b24afc7c10aba6fe830fe983"),
    "hpa_tolerance.yaml": ("bed917d1409f", "41c8ca2e777a5137995ed0cfa3d6b0dd"),
    "job_backoff.yaml": ("3eafeff01089", "d016621310555cd5d4e4ab4a38019a9f"),
    "job_deadline.yaml": ("9025ffba8b56", "65a4c7a0f9a2adad7cdd493c5d58eb69"),
    "job_hello.yaml": ("ec6d52001bcd", "a89ee59c84751ff4107bfa0ba7add3fb"),
    "job_indexed.yaml": ("bf979bb2bd76", "4644a910e0e6c218ce384ef222e446f4"),
    "job_parallel.yaml": ("b69890a03e9f", "f6fb4327e237449bf625cde2331729c3"),
    "job_suspend_ttl.yaml": ("5767ae6be925", "ae9a48f15f0bbf9c854e93c0907b234c"),
    "node_down_bare_pods.yaml": ("7ca7d25a5b08", "a8e6e18b262644df6de9e1725e5e13dc"),
    "node_down_deployment.yaml": ("1e333e992425", "a762aedc3dcb0ae5106ca135f57a0df8"),
    # Re-recorded (issue #16): an evicted pod's status now says reason Evicted and why, as the
    # kubelet's eviction manager writes it; its events are unchanged.
    "node_memory_pressure.yaml": ("86796637d0ae", "f69586fcca442f5d1e3b9d3c326f4527"),
    "node_noexecute_taint.yaml": ("3312791825ee", "2286eaf809d90a40819f7705521d660c"),
    "node_pressure_down_up.yaml": ("01de6e9dc794", "50ac223caf300d716d0ec3aa02234832"),
    "node_up_cancels_eviction.yaml": ("d7d1934dfd8c", "5f812dc138a561e45abfb531be3ef977"),
    "pending_cluster.yaml": ("ec45b2c705a1", "4d17ad4ce16e290f0eb742b8da3be03b"),
    "preemption_cluster.yaml": ("1dba3f802ae8", "b270c84ac037d9cb88e2e3133128c275"),
    "preemption_nominated_while_victims_terminate.yaml": ("12f6768f92b9", "7a8fe1964bd2c2952c65224d017a0b08"),
    "preemption_latest_start_time.yaml": ("16ecd76ce416", "11547a93423ac4df889865561fd18e52"),
    # Re-recorded (issue #16, item 7): a rollout the quota keeps from creating pods now goes on to
    # its progress deadline (ProgressDeadlineExceeded at 601 s) and the ReplicaSet's retries with it.
    "quota_deployment_failed_create.yaml": ("d1167d9ba9e2", "18b98290e2c7500091231ef4b5232514"),
    "quota_freed_wakes_a_retry.yaml": ("4380b2dc68a8", "05c141b98b4753d2d8d76d28486681bc"),
    "scheduling_gates.yaml": ("4e3e3a23e002", "4587e77a3fd908eeee11529efab75117"),
    "quota_limit_range_defaults.yaml": ("189a88d96d1c", "7182478ed1a2c1c2de012a0752cb4b36"),
    "quota_seed_limits.yaml": ("7d1e50c70597", "a4d75538c782f3d550a09fd2a99da1a0"),
    "seed_node_affinity.yaml": ("cd1d0d161e6d", "0364753ce642a4f506fd973d88a87f9d"),
    "sim_basic.yaml": ("549ecb8c7930", "9c66faa655a145b61f861c0f0c0115b1"),
    "sts_claim_quota.yaml": ("dd7b0abd9de0", "a439ee26b7b1b0b95a0dfe2708763344"),
    "sts_ordered_local_pv.yaml": ("ca37fe8758f3", "4d36219b500ffa3fdb02b041753306fd"),
    "sts_parallel.yaml": ("65769b68b0f2", "56df183644034a38c84942d25b6f5657"),
    "sts_rolling_update.yaml": ("9c14f9ff20f8", "cf69d278ffc16186c4ff7449903c577f"),
    "sts_scale_down.yaml": ("e124cde51a99", "3eaa436f5d96af7dc68057bc9a3cf9b9"),
    "sts_seed_claims.yaml": ("e71023d9ffee", "aae5433c6ff217ed1ea20eb91a686898"),
    "sts_seed_vs_replicaset.yaml": ("c88f2024b99a", "d040f5bb2d3978f064a14cef55e0c529"),
    "suggest_anti_affinity.yaml": ("074a9abd4586", "dfbb46fd8711bb16f58ff5f91c649574"),
    "suggest_cordoned.yaml": ("010ae9000cd4", "0f0cfd3cde113447168fa3bf34314ac3"),
    "suggest_earlier_pods.yaml": ("b38a25d4ff8d", "e6bc1a9671d7a6e8781d534a539b6211"),
    "suggest_host_port.yaml": ("6f914cb0da8e", "fdc65cc01ee0957939ef9b2cdf1a3cdd"),
    "suggest_no_volume.yaml": ("8e8bdecf9a6c", "0bb76928b2dd93d7c7bde0733063bc71"),
    "suggest_node_affinity.yaml": ("a2c038397a93", "261c5ceb2b880325a11f0a6ba1423794"),
    "suggest_node_selector.yaml": ("e006d8e34559", "4ab1afd178fd50954c0133bf5aca711d"),
    "suggest_spread.yaml": ("41251f0935e8", "3ebac2c03ff63996c2e0e09c9b05b410"),
    "suggest_taint.yaml": ("11142122ef66", "db4e0376bb6285796fd70e56a54e62cd"),
    "suggest_unfixable.yaml": ("c76eb5f92221", "0f1c559e4d4a4f2373ad63014df8492b"),
    "svc_ingress_canary.yaml": ("be0b06efc2db", "f527d1fd3fd089ef14ef177caafb79ad"),
    "svc_ingress_paths.yaml": ("16655baad7b3", "477ec13fd66cb53a7193541a9934377b"),
    "svc_spread.yaml": ("381f778c90df", "112d97a94d11f79dc77ba9dfe0667ab1"),
    "svc_spread_deployment.yaml": ("6d8efd77fab9", "c64b8b7f54549189d5a98032cb27908b"),
}


def _events_digest(events: list[Event]) -> str:
    digest = hashlib.sha256()
    for e in events:
        line = [e.seq, e.time, e.type, e.reason, e.object, e.message, e.source]
        digest.update(json.dumps(line, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def _state_digest(simulation: Simulation) -> str:
    state = cluster_state(simulation.cluster, simulation.now)
    return hashlib.sha256(json.dumps(state, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _run_scenario(text: str) -> Simulation:
    simulation = Simulation(load_manifests(text), seed=0, options=SimulationOptions(max_events=20000))
    simulation.run_to_end(3600.0)
    return simulation


def _scenario_digest(simulation: Simulation) -> str:
    digest = hashlib.sha256()
    for e in simulation.cluster.events:
        line = [e.seq, e.time, e.type, e.reason, e.object, e.message, e.source]
        digest.update(json.dumps(line, ensure_ascii=False).encode() + b"\n")
    state = cluster_state(simulation.cluster, simulation.now)
    digest.update(json.dumps(state, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "seed"), sorted(WORKLOAD_DIGESTS))
def test_the_bench_workloads_replay_as_before_the_optimizations(name, seed):
    workload = bench.SIMULATION_WORKLOADS[name]
    simulation = bench.simulate_workload(workload, workload.small_nodes, seed).simulation
    count, events_digest, state_digest = WORKLOAD_DIGESTS[(name, seed)]
    assert len(simulation.cluster.events) == count
    assert _events_digest(simulation.cluster.events) == events_digest
    assert _state_digest(simulation) == state_digest


@pytest.mark.parametrize("name", sorted(SCENARIO_DIGESTS))
def test_the_scenarios_replay_as_before_the_optimizations(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{name} is gone")
    text = path.read_text()
    file_digest, run_digest = SCENARIO_DIGESTS[name]
    if hashlib.sha256(text.encode()).hexdigest()[:12] != file_digest:
        pytest.skip(f"{name} changed since its digest was recorded")
    assert _scenario_digest(_run_scenario(text))[:32] == run_digest


# ---------------------------------------------------------------------------- optimized vs plain paths


class _UnfilteredCluster(Cluster):
    """Every watcher gets every change, as before controllers named the kinds they watch."""

    def watch(self, watcher, kinds=None):  # type: ignore[no-untyped-def]
        super().watch(watcher, None)


def _runs_alike(monkeypatch: pytest.MonkeyPatch, run) -> None:  # type: ignore[no-untyped-def]
    fast = run()
    monkeypatch.setattr("scheduler_core.simulation.simulation.Cluster", _UnfilteredCluster)
    plain = run()
    assert isinstance(plain.cluster, _UnfilteredCluster)
    assert [e.as_dict() | {"source": e.source} for e in fast.cluster.events] == [
        e.as_dict() | {"source": e.source} for e in plain.cluster.events
    ]
    assert cluster_state(fast.cluster, fast.now) == cluster_state(plain.cluster, plain.now)


@pytest.mark.parametrize(
    "name",
    ["drain_pdb_waits.yaml", "hpa_scale_up.yaml", "sts_claim_quota.yaml", "ds_node_changes.yaml", "job_indexed.yaml"],
)
def test_watching_only_some_kinds_changes_nothing(monkeypatch, name):
    text = (DATA / name).read_text()
    _runs_alike(monkeypatch, lambda: _run_scenario(text))


def test_watching_only_some_kinds_changes_nothing_in_a_node_down(monkeypatch):
    workload = bench.SIMULATION_WORKLOADS["NodeDown"]
    _runs_alike(monkeypatch, lambda: bench.simulate_workload(workload, 30, 2).simulation)


def test_a_nodes_pods_are_the_ones_a_scan_finds_in_the_same_order():
    workload = bench.SIMULATION_WORKLOADS["DeploymentRollout"]
    simulation = bench.simulate_workload(workload, 20, 0).simulation
    cluster = simulation.cluster
    checked = 0
    for node in cluster.objects(Node):
        scanned = [pod for pod in cluster.objects(Pod) if pod.spec.node_name == node.name]
        assert cluster.pods_on_node(node.name) == scanned
        checked += len(scanned)
    assert checked == cluster.count(Pod) > 0
    assert cluster.pods_on_node("no-such-node") == []


if __name__ == "__main__":
    # Prints the digests of the engine as it is now, in the form of the tables above: for recording
    # an intended change of behaviour (with that change alone), never to paper over a drift.
    for name, seed in sorted(WORKLOAD_DIGESTS):
        workload = bench.SIMULATION_WORKLOADS[name]
        run = bench.simulate_workload(workload, workload.small_nodes, seed).simulation
        print(
            f'    ("{name}", {seed}): ({len(run.cluster.events)}, "{_events_digest(run.cluster.events)}", '
            f'"{_state_digest(run)}"),'
        )
    for path in sorted(DATA.glob("*.yaml")):
        text = path.read_text()
        digest = _scenario_digest(_run_scenario(text))[:32]
        print(f'    "{path.name}": ("{hashlib.sha256(text.encode()).hexdigest()[:12]}", "{digest}"),')

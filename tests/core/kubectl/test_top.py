"""kubectl top in the console: the engine's usage model at a moment (a workload's CPU demand from
set-utilization split over its serving pods by requests, memory from the annotation or requests),
printed as kubectl's top printer prints it."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi.metrics import demand_at, node_usage, pod_usage
from scheduler_core.kubeapi.objects import ApiSnapshot, snapshot_of
from scheduler_core.kubectl.console import run
from scheduler_core.simulation.simulation import Simulation

CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {playground.k8s.io/memory-usage: 300Mi}}
    spec: {containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 200m, memory: 256Mi}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: tool}
spec: {containers: [{name: sh, image: busybox, resources: {requests: {memory: 64Mi}}}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 20s, op: set-utilization, target: Deployment/web, cpu: 150}
"""


@pytest.fixture(scope="module")
def simulation() -> Simulation:
    simulation = Simulation(load_manifests(CLUSTER))
    list(simulation.run(60))
    return simulation


def at(simulation: Simulation, time: float) -> ApiSnapshot:
    cluster = simulation.cluster
    return snapshot_of(cluster, [], cluster.resource_version, now=time, demand=demand_at(simulation.demand_log, time))


def test_the_demand_log_says_each_workloads_demand_at_a_moment(simulation: Simulation) -> None:
    assert simulation.demand_log == [(20.0, "Deployment/default/web", 900.0)]  # 150% of 3 x 200m
    assert demand_at(simulation.demand_log, 19.9) == {}
    assert demand_at(simulation.demand_log, 20.0) == {"Deployment/default/web": 900.0}


def test_pods_share_their_workloads_demand_and_nodes_sum_them(simulation: Simulation) -> None:
    usage = pod_usage(simulation.cluster, {"Deployment/default/web": 900.0})
    web = {key: used for key, used in usage.items() if key.startswith("default/web-")}
    assert sorted(used.cpu for used in web.values()) == [300, 300, 300]
    assert {used.memory for used in web.values()} == {300 * 1024 * 1024}  # the annotation, not the request
    assert usage["default/tool"].cpu == 0 and usage["default/tool"].memory == 64 * 1024 * 1024
    assert node_usage(simulation.cluster, usage)["worker1"].cpu == 900


def test_top_prints_as_kubectl(simulation: Simulation) -> None:
    pods = run("kubectl top pods", at(simulation, 60), may_write=False).stdout.splitlines()
    assert pods[0] == "NAME                   CPU(cores)   MEMORY(bytes)   "  # each cell then a tab: padded
    rows = {line.split()[0]: line.split()[1:] for line in pods[1:]}
    assert rows["tool"] == ["0m", "64Mi"] and sorted(cells[0] for name, cells in rows.items() if name != "tool") == [
        "300m",
        "300m",
        "300m",
    ]
    idle = run("top pods", at(simulation, 10), may_write=False).stdout
    assert all(line.split()[1] == "0m" for line in idle.splitlines()[1:])
    nodes = run("top nodes", at(simulation, 60), may_write=False).stdout.splitlines()
    assert nodes[0].split() == ["NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"]
    assert nodes[1].split() == ["worker1", "900m", "22%", "964Mi", "11%"]
    every = run("top pod -A --sort-by=memory -l app=web", at(simulation, 60), may_write=False).stdout.splitlines()
    assert every[0].split()[0] == "NAMESPACE" and len(every) == 4


def test_top_errors(simulation: Simulation) -> None:
    snapshot = at(simulation, 60)
    assert run("top pod nope", snapshot, may_write=False).stderr == (
        'Error from server (NotFound): podmetrics.metrics.k8s.io "default/nope" not found\n'
    )
    assert run("top pods -n ops", snapshot, may_write=False).stderr == "No resources found in ops namespace.\n"
    assert "--sort-by accepts only cpu or memory" in run("top pods --sort-by=name", snapshot, may_write=False).stderr
    assert run("top", snapshot, may_write=False).stderr.startswith('error: unknown command ""')

"""`kubectl describe daemonset` as kubectl v1.34 prints it: kubectl's own case (describe_test.go
at kubernetes-1.34.5, TestDescribeDaemonSet), then a set of a scenario run on some of its nodes.
tests/web/kubeapi/test_describers_vs_kubectl.py compares with the real kubectl."""

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.api.workloads import DaemonSet
from scheduler_core.explain.describe_daemon_set_text import daemon_set_text, describe_daemon_set
from scheduler_core.simulation.simulation import Simulation

NO_PODS = "0 Running / 0 Waiting / 0 Succeeded / 0 Failed"


def test_kubectls_daemon_set() -> None:
    daemon_set = {
        "metadata": {"name": "bar", "namespace": "foo"},
        "spec": {
            "selector": {"matchLabels": {"node-role.kubernetes.io/control-plane": "true"}},
            "template": {"spec": {"containers": [{"image": "mytest-image:latest"}]}},
        },
    }
    printed = describe_daemon_set(daemon_set, NO_PODS, [], 0)
    assert printed.startswith(
        "Name:           bar\n"
        "Namespace:      foo\n"
        "Selector:       node-role.kubernetes.io/control-plane=true\n"
        "Node-Selector:  <none>\n"
        "Labels:         <none>\n"
        "Annotations:    <none>\n"
        # kubectl writes the counts with a space, not a tab: they align with nothing
        "Desired Number of Nodes Scheduled: 0\n"
        "Current Number of Nodes Scheduled: 0\n"
        "Number of Nodes Scheduled with Up-to-date Pods: 0\n"
        "Number of Nodes Scheduled with Available Pods: 0\n"
        "Number of Nodes Misscheduled: 0\n"
        f"Pods Status:  {NO_PODS}\n"
        "Pod Template:\n"
        "  Labels:  <none>\n"
        "  Containers:\n"
        "   :\n"
        "    Image:         mytest-image:latest\n"
    ), printed


SCENARIO = """\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, disk: ssd}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, disk: ssd}}
spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {kubernetes.io/hostname: node-c}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs, labels: {app: logs}}
spec:
  selector: {matchLabels: {app: logs}}
  template:
    metadata: {labels: {app: logs}}
    spec:
      nodeSelector: {disk: ssd}
      containers: [{name: shipper, image: "shipper:2"}]
"""


def test_a_scenarios_daemon_set_on_the_nodes_it_selects_and_tolerates() -> None:
    simulation = Simulation(load_manifests(SCENARIO))
    for _ in simulation.stream():
        pass
    daemon_set = simulation.cluster.get(DaemonSet, "default/logs")
    assert daemon_set is not None
    printed = daemon_set_text(simulation.cluster, daemon_set, simulation.now)
    pod = next(pod for pod in simulation.cluster.objects(Pod) if pod.name.startswith("logs-"))
    # node-c lacks the label and node-b's taint is not tolerated: one node
    assert printed == (
        "Name:           logs\n"
        "Namespace:      default\n"
        "Selector:       app=logs\n"
        "Node-Selector:  disk=ssd\n"
        "Labels:         app=logs\n"
        "Annotations:    <none>\n"
        "Desired Number of Nodes Scheduled: 1\n"
        "Current Number of Nodes Scheduled: 1\n"
        "Number of Nodes Scheduled with Up-to-date Pods: 1\n"
        "Number of Nodes Scheduled with Available Pods: 1\n"
        "Number of Nodes Misscheduled: 0\n"
        "Pods Status:  1 Running / 0 Waiting / 0 Succeeded / 0 Failed\n"
        "Pod Template:\n"
        "  Labels:  app=logs\n"
        "  Containers:\n"
        "   shipper:\n"
        "    Image:         shipper:2\n"
        "    Port:          <none>\n"
        "    Host Port:     <none>\n"
        "    Environment:   <none>\n"
        "    Mounts:        <none>\n"
        "  Volumes:         <none>\n"
        "  Node-Selectors:  disk=ssd\n"
        "  Tolerations:     <none>\n"
        "Events:\n"
        "  Type    Reason            Age   From                  Message\n"
        "  ----    ------            ----  ----                  -------\n"
        f"  Normal  SuccessfulCreate  1s    daemonset-controller  Created pod: {pod.name}\n"
    )

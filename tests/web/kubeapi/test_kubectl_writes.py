"""kubectl v1.34 writes to a scenario through an edit kubeconfig: each write becomes a timeline
action at the API clock's moment, the run goes on from there, and kubectl's waits (rollout status,
drain's retries on a disruption budget) meet the run as it goes, in real time."""

import json
import re
import urllib.request
from pathlib import Path

from tests.web.kubeapi.conftest import ApiScenario, kubectl, new_api_scenario

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, labels: {app: api}}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, image: "api:1.0", resources: {requests: {cpu: 200m, memory: 128Mi}}}
"""


def timeline(scenario: ApiScenario) -> str:
    """The scenario's workload as stored: the writes' Actions are in it."""
    with urllib.request.urlopen(f"{scenario.server.url}/s/{scenario.slug}/workload.yaml", timeout=30) as response:
        return response.read().decode()


def test_cordon_taint_and_label_become_timeline_actions(api_scenario: ApiScenario) -> None:
    config = api_scenario.edit_kubeconfig
    assert kubectl(config, "cordon", "worker1").stdout.strip() == "node/worker1 cordoned"
    assert (
        kubectl(config, "taint", "nodes", "worker3", "isgpu=true:NoSchedule").stdout.strip() == "node/worker3 tainted"
    )
    assert kubectl(config, "label", "node", "worker2", "disk=ssd").stdout.strip() == "node/worker2 labeled"
    nodes = json.loads(kubectl(config, "get", "nodes", "-o", "json").stdout)["items"]
    by_name = {node["metadata"]["name"]: node for node in nodes}
    assert by_name["worker1"]["spec"]["unschedulable"] is True
    assert by_name["worker3"]["spec"]["taints"] == [{"key": "isgpu", "value": "true", "effect": "NoSchedule"}]
    assert by_name["worker2"]["metadata"]["labels"]["disk"] == "ssd"
    status_line = {row.split()[0]: row.split()[1] for row in kubectl(config, "get", "nodes").stdout.splitlines()[1:]}
    assert status_line["worker1"] == "Ready,SchedulingDisabled"
    written = timeline(api_scenario)
    assert re.search(r"op: cordon\n\s+target: Node/worker1", written)
    assert re.search(r"op: taint\n\s+target: Node/worker3", written)
    assert re.search(r"op: label\n\s+target: Node/worker2", written)
    # Undone the same way, by kubectl's own syntax.
    assert (
        kubectl(config, "taint", "nodes", "worker3", "isgpu=true:NoSchedule-").stdout.strip()
        == "node/worker3 untainted"
    )
    assert kubectl(config, "uncordon", "worker1").stdout.strip() == "node/worker1 uncordoned"
    versions = [
        int(node["metadata"]["resourceVersion"])
        for node in json.loads(kubectl(config, "get", "nodes", "-o", "json").stdout)["items"]
    ]
    assert max(versions) > max(int(node["metadata"]["resourceVersion"]) for node in nodes)  # versions only grow


def test_scale_set_image_and_rollout_status_wait_on_the_run(api_scenario: ApiScenario) -> None:
    config = api_scenario.edit_kubeconfig
    assert kubectl(config, "scale", "deployment", "web", "--replicas=4").stdout.strip() == "deployment.apps/web scaled"
    done = kubectl(config, "rollout", "status", "deployment/web", "--timeout=90s", timeout=120)
    assert done.stdout.strip().endswith('deployment "web" successfully rolled out')
    assert len(kubectl(config, "get", "pods", "-l", "app=web", "-o", "name").stdout.split()) == 4
    updated = kubectl(config, "set", "image", "deployment/web", "nginx=nginx:1.28")
    assert updated.stdout.strip() == "deployment.apps/web image updated"
    done = kubectl(config, "rollout", "status", "deployment/web", "--timeout=120s", timeout=150)
    assert "successfully rolled out" in done.stdout, done.stdout
    pods = json.loads(kubectl(config, "get", "pods", "-l", "app=web", "-o", "json").stdout)["items"]
    running = [pod for pod in pods if "deletionTimestamp" not in pod["metadata"]]  # the old ones may be Terminating
    assert len(running) == 4, done.stdout
    assert {pod["spec"]["containers"][0]["image"] for pod in running} == {"nginx:1.28"}
    assert "op: set-image" in timeline(api_scenario)


def test_apply_creates_and_delete_removes(api_scenario: ApiScenario, tmp_path: Path) -> None:
    config = api_scenario.edit_kubeconfig
    manifest = tmp_path / "api.yaml"
    manifest.write_text(DEPLOYMENT)
    assert kubectl(config, "apply", "-f", str(manifest)).stdout.strip() == "deployment.apps/api created"
    kubectl(config, "rollout", "status", "deployment/api", "--timeout=60s", timeout=90)
    deployment = json.loads(kubectl(config, "get", "deployment", "api", "-o", "json").stdout)
    assert deployment["metadata"]["uid"] and deployment["status"]["readyReplicas"] == 2
    assert kubectl(config, "apply", "-f", str(manifest)).stdout.strip() == "deployment.apps/api unchanged"
    manifest.write_text(DEPLOYMENT.replace("replicas: 2", "replicas: 3"))
    assert kubectl(config, "apply", "-f", str(manifest)).stdout.strip() == "deployment.apps/api configured"
    deleted = kubectl(config, "delete", "pod", "toolbox", "--grace-period=1", timeout=60)
    assert deleted.stdout.strip() == 'pod "toolbox" deleted from default namespace'  # kubectl 1.34's words
    gone = kubectl(config, "get", "pod", "toolbox", check=False)
    assert 'pods "toolbox" not found' in gone.stderr
    refused = kubectl(config, "create", "deployment", "api", "--image=api:1.0", check=False)
    assert refused.stderr.strip() == 'error: failed to create deployment: deployments.apps "api" already exists'


DRAIN_SCENARIO = """\
apiVersion: playground/v1
kind: Scenario
title: "drain meets a disruption budget"
---
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker2}
spec: {unschedulable: true}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx
        readinessProbe: {initialDelaySeconds: 4, periodSeconds: 2}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      containers:
      - {name: agent, image: agent:1.0}
"""


def test_drain_retries_on_the_disruption_budget(api_server, tmp_path: Path) -> None:
    """Seed 003's drain: all three replicas on worker1, a budget of two; drain evicts one, is
    refused 429 for the next until the replacement on worker2 is ready, and ends with worker1 empty."""
    scenario = new_api_scenario(api_server, tmp_path, DRAIN_SCENARIO)
    config = scenario.edit_kubeconfig
    on_worker1 = kubectl(
        config, "get", "pods", "-l", "app=web", "--field-selector", "spec.nodeName=worker1", "-o", "name"
    )
    assert len(on_worker1.stdout.split()) == 3
    kubectl(config, "uncordon", "worker2")
    drained = kubectl(config, "drain", "worker1", "--ignore-daemonsets", "--timeout=120s", timeout=180)
    output = drained.stdout + drained.stderr
    assert "Warning: ignoring DaemonSet-managed Pods: kube-system/node-agent-" in output
    assert "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget." in output
    assert "node/worker1 drained" in output
    left = kubectl(
        config, "get", "pods", "-A", "--field-selector", "spec.nodeName=worker1", "-o", "name"
    ).stdout.split()
    assert all(name.startswith("pod/node-agent-") for name in left)
    web = kubectl(config, "get", "pods", "-l", "app=web", "-o", "wide").stdout
    assert web.count("worker2") == 3
    assert "op: evict" in timeline(scenario)

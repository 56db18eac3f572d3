"""`kubectl describe deployment` at a moment of a run (issue #16, item 7). The expected lines are
those of kubectl's own tests (staging/src/k8s.io/kubectl/pkg/describe/describe_test.go:
TestDescribeDeployment, TestDescribePodTolerations, TestDescribeTopologySpreadConstraints) where
they apply to what the engine keeps, then what scenario runs show."""

import random
from dataclasses import replace
from datetime import UTC, datetime

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import LabelSelector, LabelSelectorRequirement
from scheduler_core.api.workloads import Deployment, ReplicaSet
from scheduler_core.explain.describe_deployment import describe_deployment
from scheduler_core.explain.describe_deployment_text import deployment_text
from scheduler_core.explain.selector_text import format_label_selector, selector_string
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Cluster
from tests.core.controllers.node_health_helpers import DATA, simulate

# kubectl's fixtures: Deployment foo/bar (k8s-app=bar) and its ReplicaSets, all created on
# 2021-01-01. Its strategy is left out there (no RollingUpdateStrategy line); here it is Recreate,
# the one strategy the API server keeps without rollingUpdate.
CREATED = datetime(2021, 1, 1, tzinfo=UTC).timestamp()
DEPLOYMENT_UID = "00000000-0000-0000-0000-000000000001"
DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: bar, namespace: foo, uid: 00000000-0000-0000-0000-000000000001, labels: {k8s-app: bar}}
spec:
  replicas: {replicas}
  strategy: {type: Recreate}
  selector: {matchLabels: {k8s-app: bar}}
  template:
    metadata: {labels: {k8s-app: bar}}
    spec: {containers: [{name: c, image: "mytest-image:{image}"}]}
"""
REPLICA_SET = """
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: {name}
  namespace: foo
  labels: {k8s-app: bar}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: bar, uid: 00000000-0000-0000-0000-000000000001,
                     controller: true}]
spec:
  replicas: {replicas}
  selector: {matchLabels: {k8s-app: bar}}
  template:
    metadata: {labels: {k8s-app: bar}}
    spec: {containers: [{name: c, image: "mytest-image:{image}"}]}
"""


class Store:
    """A store whose clock the test sets: kubectl's fixtures are objects and events of given ages."""

    def __init__(self) -> None:
        self.now = CREATED
        self.cluster = Cluster(lambda: self.now, random.Random(0))

    def add(self, text: str, **status: int) -> object:
        (manifest,) = load_manifests(text)
        obj = self.cluster.create(manifest.object)
        if status:
            obj = self.cluster.update(replace(obj, status=replace(obj.status, **status)))
        return obj

    def scaled(self, message: str, *minutes_ago: float) -> None:
        """A ScalingReplicaSet event on the deployment, at each of these moments before the end."""
        deployment = self.cluster.get(Deployment, "foo/bar")
        for minutes in minutes_ago:
            self.now = END - minutes * 60
            self.cluster.record(deployment, "ScalingReplicaSet", message, source="deployment-controller")

    def text(self) -> str:
        return deployment_text(describe_deployment(self.cluster, self.cluster.get(Deployment, "foo/bar"), END))


END = CREATED + 3600  # an hour later, when kubectl describes the deployment


def fixture(replicas: int, image: str) -> str:
    return DEPLOYMENT.replace("{replicas}", str(replicas)).replace("{image}", image)


def replica_set(name: str, replicas: int, image: str) -> str:
    return REPLICA_SET.replace("{name}", name).replace("{replicas}", str(replicas)).replace("{image}", image)


def test_kubectls_deployment_with_its_new_replica_set():
    store = Store()
    store.add(fixture(1, "latest"))
    store.add(replica_set("bar-001", 1, "latest"), replicas=1, ready_replicas=1, available_replicas=1)
    text = store.text()
    for expected in (
        "Name:               bar\nNamespace:          foo",
        "CreationTimestamp:  Fri, 01 Jan 2021 00:00:00 +0000",
        "Labels:             k8s-app=bar",
        "Selector:           k8s-app=bar",
        "Replicas:           1 desired | 0 updated | 0 total | 0 available | 0 unavailable",
        "OldReplicaSets:    <none>",
        "NewReplicaSet:     bar-001 (1/1 replicas created)",
        "Events:            <none>",
        "Node-Selectors:  <none>",
        "Tolerations:     <none>",
    ):
        assert expected in text, f"{expected!r} not in\n{text}"


def test_kubectls_deployment_during_a_rollout():
    store = Store()
    store.add(fixture(2, "v2.0"), replicas=3, updated_replicas=1, available_replicas=2, unavailable_replicas=1)
    store.add(replica_set("bar-001", 2, "v1.0"), replicas=2, ready_replicas=2, available_replicas=2)
    store.add(replica_set("bar-002", 1, "v2.0"), replicas=1, available_replicas=1)
    # kubectl's test also lists a second event with the first one's message, two minutes ago: the
    # reporters' event libraries (and so the engine's, store/event_correlation.py) count it as one
    # more repeat of the first, so it is left out.
    store.scaled("Scaled up replica set bar-002 to 1", 20, 16, 12)
    store.scaled("Scaled up replica set bar-001 to 2", 10)
    store.scaled("Scaled down replica set bar-002 to 1", 1)
    text = store.text()
    for expected in (
        "Replicas:           2 desired | 1 updated | 3 total | 2 available | 1 unavailable",
        "OldReplicaSets:    bar-001 (2/2 replicas created)",
        "NewReplicaSet:     bar-002 (1/1 replicas created)",
        "Events:\n",
        "Normal  ScalingReplicaSet  12m (x3 over 20m)  deployment-controller  Scaled up replica set bar-002 to 1",
        "Normal  ScalingReplicaSet  10m                deployment-controller  Scaled up replica set bar-001 to 2",
        "Normal  ScalingReplicaSet  60s                deployment-controller  Scaled down replica set bar-002 to 1",
    ):
        assert expected in text, f"{expected!r} not in\n{text}"


def test_kubectls_deployment_after_a_successful_rollout():
    store = Store()
    store.add(fixture(2, "v2.0"), replicas=2, updated_replicas=2, available_replicas=2)
    store.add(replica_set("bar-001", 0, "v1.0"))
    store.add(replica_set("bar-002", 2, "v2.0"), replicas=2, ready_replicas=2, available_replicas=2)
    store.scaled("Scaled up replica set bar-002 to 2", 0.25)
    store.scaled("Scaled down replica set bar-001 to 0", 0.05)
    text = store.text()
    for expected in (
        "Replicas:           2 desired | 2 updated | 2 total | 2 available | 0 unavailable",
        # kubectl's has "Image:        mytest-image:v2.0": its container's mounts end the column
        # block before Volumes; without mounts Node-Selectors sets the width.
        "Image:         mytest-image:v2.0",
        "OldReplicaSets:    bar-001 (0/0 replicas created)",
        "NewReplicaSet:     bar-002 (2/2 replicas created)",
        "Normal  ScalingReplicaSet  15s   deployment-controller  Scaled up replica set bar-002 to 2",
        "Normal  ScalingReplicaSet  3s    deployment-controller  Scaled down replica set bar-001 to 0",
    ):
        assert expected in text, f"{expected!r} not in\n{text}"


def test_without_replica_sets_kubectl_leaves_their_lines_out():
    store = Store()
    store.add(fixture(1, "latest"))
    text = store.text()
    assert "OldReplicaSets" not in text and "NewReplicaSet" not in text
    assert "StrategyType:       Recreate\n" in text and "RollingUpdateStrategy" not in text


TEMPLATE_EXTRAS = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: bar, namespace: foo}
spec:
  selector: {matchLabels: {app: bar}}
  template:
    metadata: {labels: {app: bar, tier: web}, annotations: {note: kept}}
    spec:
      priorityClassName: high
      nodeSelector: {disk: ssd}
      tolerations:
      - {operator: Exists}
      - {effect: NoSchedule, operator: Exists}
      - {key: key0, operator: Exists}
      - {key: key1, value: value1}
      - {key: key2, operator: Equal, value: value2, effect: NoSchedule}
      - {key: key3, value: value3, effect: NoExecute, tolerationSeconds: 300}
      - {key: key4, effect: NoExecute, tolerationSeconds: 60}
      topologySpreadConstraints:
      - {maxSkew: 3, topologyKey: topology.kubernetes.io/test1, whenUnsatisfiable: DoNotSchedule,
         labelSelector: {matchLabels: {key1: val1, key2: val2}}}
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/test2, whenUnsatisfiable: ScheduleAnyway}
      volumes: [{name: data, persistentVolumeClaim: {claimName: web-data}}]
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP, hostPort: 5353}]
        resources: {limits: {cpu: 500m, memory: 1Gi}}
"""


def test_the_pod_template_with_tolerations_and_spread_constraints_as_kubectls_tests_print_them():
    store = Store()
    store.add(TEMPLATE_EXTRAS)
    text = deployment_text(describe_deployment(store.cluster, store.cluster.get(Deployment, "foo/bar"), END))
    for expected in (  # TestDescribePodTolerations
        "  op=Exists\n",
        ":NoSchedule op=Exists\n",
        "key0 op=Exists\n",
        "key1=value1\n",
        "key2=value2:NoSchedule\n",
        "key3=value3:NoExecute for 300s\n",
        "key4:NoExecute for 60s\n",
        "Tolerations:",
    ):
        assert expected in text, f"{expected!r} not in\n{text}"
    for expected in (  # TestDescribeTopologySpreadConstraints
        "topology.kubernetes.io/test1:DoNotSchedule when max skew 3 is exceeded for selector key1=val1,key2=val2\n",
        "topology.kubernetes.io/test2:ScheduleAnyway when max skew 1 is exceeded\n",
    ):
        assert expected in text, f"{expected!r} not in\n{text}"
    template = text[text.index("Pod Template:") : text.index("  Topology Spread")]
    assert template == (
        "Pod Template:\n"
        "  Labels:       app=bar\n"
        "                tier=web\n"
        "  Annotations:  note: kept\n"
        "  Containers:\n"
        "   web:\n"
        "    Image:       nginx\n"
        "    Ports:       80/TCP, 53/UDP\n"
        "    Host Ports:  0/TCP, 5353/UDP\n"
        "    Limits:\n"
        "      cpu:     500m\n"
        "      memory:  1Gi\n"
        "    Requests:\n"  # the engine defaults a request to its limit, as the API server does in a pod
        "      cpu:        500m\n"  # one column block with Environment and Mounts
        "      memory:     1Gi\n"
        "    Environment:  <none>\n"
        "    Mounts:       <none>\n"
        "  Volumes:\n"
        "   data:\n"
        "    Type:                       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same"
        " namespace)\n"
        "    ClaimName:                  web-data\n"
        "    ReadOnly:                   false\n"
    )
    assert "  Priority Class Name:          high\n  Node-Selectors:               disk=ssd\n" in text


TEMPLATE_DETAILS = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: bar, namespace: foo}
spec:
  selector: {matchLabels: {app: bar}}
  template:
    metadata: {labels: {app: bar}}
    spec:
      serviceAccountName: web-sa
      volumes: [{name: conf, configMap: {name: web-conf}}]
      containers:
      - name: web
        image: nginx
        command: [nginx, -g, daemon off;]
        readinessProbe: {httpGet: {path: /healthz, port: 80}}
        env: [{name: MODE, value: live}, {name: POD, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
        volumeMounts: [{name: conf, mountPath: /etc/nginx/conf.d, readOnly: true}]
"""


def test_the_pod_template_with_its_command_probe_environment_mounts_and_service_account():
    """As DescribePodTemplate prints them: no pod resolves the fieldRef (kubectl passes none), and
    no token mount (the ServiceAccount plugin mounts it in pods, not templates)."""
    store = Store()
    store.add(TEMPLATE_DETAILS)
    text = store.text()
    template = text[text.index("Pod Template:") : text.index("  Node-Selectors")]
    assert template == (
        "Pod Template:\n"
        "  Labels:           app=bar\n"
        "  Service Account:  web-sa\n"
        "  Containers:\n"
        "   web:\n"
        "    Image:      nginx\n"
        "    Port:       <none>\n"
        "    Host Port:  <none>\n"
        "    Command:\n"
        "      nginx\n"
        "      -g\n"
        "      daemon off;\n"
        "    Readiness:  http-get http://:80/healthz delay=0s timeout=1s period=10s #success=1 #failure=3\n"
        "    Environment:\n"
        "      MODE:  live\n"
        "      POD:    (v1:metadata.name)\n"
        "    Mounts:\n"
        "      /etc/nginx/conf.d from conf (ro)\n"
        "  Volumes:\n"
        "   conf:\n"
        "    Type:          ConfigMap (a volume populated by a ConfigMap)\n"
        "    Name:          web-conf\n"
        "    Optional:      false\n"
    )


def test_selectors_as_kubectl_prints_them():
    selector = LabelSelector(
        match_labels={"app": "web"},
        match_expressions=(
            LabelSelectorRequirement("tier", "In", ("b", "a")),
            LabelSelectorRequirement("env", "NotIn", ("prod",)),
            LabelSelectorRequirement("canary", "DoesNotExist"),
            LabelSelectorRequirement("zone", "Exists"),
        ),
    )
    assert selector_string(selector) == "app=web,!canary,env notin (prod),tier in (a,b),zone"
    assert format_label_selector(LabelSelector()) == "<none>" and selector_string(LabelSelector()) == ""


# ---------------------------------------------------------------------------- scenario runs


def described_text(simulation: Simulation, cluster: Cluster | None = None, now: float | None = None) -> str:
    store = cluster or simulation.cluster
    return deployment_text(describe_deployment(store, store.get(Deployment, "default/web"), now or simulation.now))


def test_a_settled_deployment_reads_as_kubectls():
    simulation = simulate(
        """
apiVersion: v1
kind: Node
metadata: {name: worker1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: webapp, env: homework}}
spec:
  replicas: 3
  selector: {matchLabels: {app: webapp}}
  template:
    metadata: {labels: {app: webapp, env: homework}}
    spec: {containers: [{name: webapp, image: "nginx:alpine", ports: [{containerPort: 80}]}]}
""",
        until=60,
    )
    (new,) = simulation.cluster.objects(ReplicaSet)
    assert described_text(simulation, now=60) == (
        "Name:                   web\n"
        "Namespace:              default\n"
        "CreationTimestamp:      Thu, 01 Jan 1970 00:00:00 +0000\n"
        "Labels:                 app=webapp\n"
        "                        env=homework\n"
        "Annotations:            deployment.kubernetes.io/revision: 1\n"
        "Selector:               app=webapp\n"
        "Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable\n"
        "StrategyType:           RollingUpdate\n"
        "MinReadySeconds:        0\n"
        "RollingUpdateStrategy:  25% max unavailable, 25% max surge\n"
        "Pod Template:\n"
        "  Labels:  app=webapp\n"
        "           env=homework\n"
        "  Containers:\n"
        "   webapp:\n"
        "    Image:         nginx:alpine\n"
        "    Port:          80/TCP\n"
        "    Host Port:     0/TCP\n"
        "    Environment:   <none>\n"
        "    Mounts:        <none>\n"
        "  Volumes:         <none>\n"
        "  Node-Selectors:  <none>\n"
        "  Tolerations:     <none>\n"
        "Conditions:\n"
        "  Type           Status  Reason\n"
        "  ----           ------  ------\n"
        "  Available      True    MinimumReplicasAvailable\n"
        "  Progressing    True    NewReplicaSetAvailable\n"
        "OldReplicaSets:  <none>\n"
        f"NewReplicaSet:   {new.metadata.name} (3/3 replicas created)\n"
        "Events:\n"
        "  Type    Reason             Age   From                   Message\n"
        "  ----    ------             ----  ----                   -------\n"
        "  Normal  ScalingReplicaSet  60s   deployment-controller  "
        f"Scaled up replica set {new.metadata.name} from 0 to 3\n"
    )


def test_a_rolling_update_mid_way_lists_both_replica_sets_with_their_counts():
    source = (DATA / "deploy_rolling_surge1.yaml").read_text()
    first = Simulation(load_manifests(source))
    first.run_to_end(60)
    scaled = [e for e in first.cluster.events if e.reason == "ScalingReplicaSet"]
    # Up 1 to 2 on the new ReplicaSet: one old pod gone, two new ones wanted.
    middle = next(e for e in scaled if "from 1 to 2" in e.message)
    simulation = Simulation(load_manifests(source))
    cluster = simulation.cluster_at_event(middle.seq)
    assert cluster is not None
    described = describe_deployment(cluster, cluster.get(Deployment, "default/web"), middle.time)
    old, new = (
        rs.metadata.name
        for rs in sorted(
            cluster.objects(ReplicaSet), key=lambda rs: rs.metadata.annotations["deployment.kubernetes.io/revision"]
        )
    )
    assert [str(summary) for summary in described.old_replica_sets] == [f"{old} (2/2 replicas created)"]
    assert str(described.new_replica_set) == f"{new} (1/2 replicas created)"
    assert [(c.type, c.status, c.reason) for c in described.conditions] == [
        ("Available", "True", "MinimumReplicasAvailable"),
        ("Progressing", "True", "ReplicaSetUpdated"),
    ]
    text = deployment_text(described)
    assert "RollingUpdateStrategy:  0 max unavailable, 1 max surge\n" in text
    assert "    Image:      nginx:1.26\n" in text  # the template after the set-image at 10 s
    assert f"OldReplicaSets:  {old} (2/2 replicas created)\nNewReplicaSet:   {new} (1/2 replicas created)\n" in text
    assert f"Scaled up replica set {new} from 1 to 2\n" in text and "from 2 to 3" not in text


def test_a_stuck_rollout_is_progressing_false_past_its_deadline():
    simulation = simulate("deploy_progress_deadline.yaml", until=60)
    text = described_text(simulation)
    assert "Replicas:               2 desired | 2 updated | 2 total | 1 available | 1 unavailable\n" in text
    assert (
        "  Type           Status  Reason\n"
        "  ----           ------  ------\n"
        "  Available      False   MinimumReplicasUnavailable\n"
        "  Progressing    False   ProgressDeadlineExceeded\n"
    ) in text


def test_a_deployment_over_its_quota_shows_the_replica_failure():
    simulation = simulate("quota_deployment_failed_create.yaml", until=30)
    deployment = simulation.cluster.get(Deployment, "default/deployment-over-quota")
    described = describe_deployment(simulation.cluster, deployment, simulation.now)
    text = deployment_text(described)
    assert "  ReplicaFailure   True    FailedCreate\n" in text
    assert "Replicas:               1 desired | 0 updated | 0 total | 0 available | 1 unavailable\n" in text
    assert described.new_replica_set is not None and described.new_replica_set.created == 0
    assert "NewReplicaSet:     deployment-over-quota-" in text and "(0/1 replicas created)\n" in text
    failure = {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate"}
    assert described.as_dict()["conditions"][-1] == failure

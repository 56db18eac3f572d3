"""A pod rejected by the scheduler is retried when, and only when, upstream's would retry it.

kube-scheduler (v1.34, queueing hints locked on) parks an unschedulable pod until a cluster event
arrives that one of the plugins which rejected it registered, and that plugin's QueueingHint says
the event may help this pod (or five minutes pass). Each story below has events that cannot help
and one that can; the FailedScheduling events are the ones upstream writes. The engine used to
retry on any event a rejecting plugin registered: the comments say what it wrote before.
"""

from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.simulation.simulation import Simulation


def attempts(text: str, pod: str, until: float = 300.0) -> list[tuple[float, str]]:
    sim = Simulation(load_manifests(text))
    sim.run_to_end(until=until)
    return [
        (event.time, event.reason)
        for event in sim.cluster.events
        if event.object == f"Pod/default/{pod}" and event.reason in ("FailedScheduling", "Scheduled")
    ]


FIT_STORY = """apiVersion: v1
kind: Node
metadata: {name: worker-1}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker-2}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: filler}
spec:
  containers: [{name: app, image: app, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: app, image: app, resources: {requests: {cpu: "3"}}}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: label, target: Node/worker-2, labels: {disk: ssd}}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 20s
  op: apply
  manifest:
    apiVersion: v1
    kind: Node
    metadata: {name: worker-3}
    status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: playground/v1
kind: Action
spec: {at: 30s, op: delete, target: Pod/filler}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 120s
  op: apply
  manifest:
    apiVersion: v1
    kind: Node
    metadata: {name: big-1}
    status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def test_a_pod_too_big_for_every_node_is_retried_when_room_may_have_been_made():
    """NodeResourcesFit registers node additions and allocatable growth (hint: would the pod fit
    the node if it were empty?) and assigned-pod deletions (hint: a scheduled pod went away). A
    label (10 s) is not registered; a 2-CPU node (20 s) cannot hold 3 CPUs; the filler's removal
    after its grace period (60 s) may have made room, so the pod is tried again and fails; a 4-CPU
    node (120 s) takes it. Before: a retry at 20 s too."""
    assert attempts(FIT_STORY, "big") == [(0.0, "FailedScheduling"), (60.0, "FailedScheduling"), (120.0, "Scheduled")]


PVC_STORY = """apiVersion: v1
kind: Node
metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: manual}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {storageClassName: manual, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers: [{name: app, image: app}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: v1
    kind: PersistentVolumeClaim
    metadata: {name: logs-1}
    spec: {storageClassName: manual, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 20s
  op: apply
  manifest:
    apiVersion: v1
    kind: PersistentVolumeClaim
    metadata: {name: logs-2}
    spec: {storageClassName: manual, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 30s
  op: apply
  manifest:
    apiVersion: v1
    kind: PersistentVolume
    metadata: {name: disk-1}
    spec:
      capacity: {storage: 5Gi}
      accessModes: [ReadWriteOnce]
      storageClassName: manual
      local: {path: /mnt/disks/1}
      nodeAffinity:
        required:
          nodeSelectorTerms:
          - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker-1]}]
"""


def test_claims_of_other_pods_do_not_wake_a_pod_waiting_for_a_volume():
    """VolumeBinding's hint for a PersistentVolumeClaim event queues only the pod that uses that
    claim: logs-1 and logs-2 (10 s, 20 s) are someone else's. A new PersistentVolume is always
    worth a try (no hint): at 30 s the pod is tried, its claim is bound to disk-1, and PreBind's
    next poll a second later binds the pod. Before: retries at 10 s and 20 s."""
    assert attempts(PVC_STORY, "app") == [(0.0, "FailedScheduling"), (31.0, "Scheduled")]


AFFINITY_STORY = """apiVersion: v1
kind: Node
metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers: [{name: app, image: app}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        topologyKey: kubernetes.io/hostname
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: v1
    kind: Pod
    metadata: {name: cache, labels: {app: cache}}
    spec: {containers: [{name: app, image: app}]}
---
apiVersion: playground/v1
kind: Action
spec: {at: 20s, op: label, target: Node/worker-2, labels: {disk: ssd}}
---
apiVersion: playground/v1
kind: Action
spec:
  at: 30s
  op: apply
  manifest:
    apiVersion: v1
    kind: Pod
    metadata: {name: db, labels: {app: db}}
    spec: {containers: [{name: app, image: app}]}
"""


def test_a_pod_waiting_for_its_affinity_wakes_only_for_a_pod_it_selects():
    """InterPodAffinity's hint for an added pod queues only when the pod matches the waiting pod's
    required affinity terms: cache (10 s) does not; a node label that is not a term's topology
    key (20 s) does not either; db (30 s) does, and web joins it. Before: retries at 10 s and 20 s."""
    assert attempts(AFFINITY_STORY, "web") == [(0.0, "FailedScheduling"), (30.0, "Scheduled")]


TAINT_STORY = """apiVersion: v1
kind: Node
metadata: {name: worker-1}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: plain}
spec:
  containers: [{name: app, image: app}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: taint, target: Node/worker-1, taint: {key: team, value: a, effect: NoSchedule}}
---
apiVersion: playground/v1
kind: Action
spec: {at: 20s, op: untaint, target: Node/worker-1, key: dedicated}
---
apiVersion: playground/v1
kind: Action
spec: {at: 30s, op: untaint, target: Node/worker-1, key: team}
"""


def test_a_pod_kept_off_by_a_taint_wakes_when_the_node_tolerates_it():
    """TaintToleration's hint for a node update queues only when the node had a taint the pod does
    not tolerate and now has none: a second taint (10 s) and removing only the first (20 s) leave
    one; removing the last (30 s) lets the pod in. Before: retries at 10 s and 20 s."""
    assert attempts(TAINT_STORY, "plain") == [(0.0, "FailedScheduling"), (30.0, "Scheduled")]


NOMINATED_STORY = """apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low}
spec:
  containers: [{name: app, image: app, resources: {requests: {cpu: 1500m}}}]
---
apiVersion: playground/v1
kind: Action
spec:
  at: 10s
  op: apply
  manifest:
    apiVersion: v1
    kind: Pod
    metadata: {name: urgent}
    spec:
      priority: 100
      containers: [{name: app, image: app, resources: {requests: {cpu: 1500m}}}]
---
apiVersion: playground/v1
kind: Action
spec:
  at: 12s
  op: apply
  manifest:
    apiVersion: v1
    kind: Pod
    metadata: {name: waiter}
    spec:
      containers: [{name: app, image: app, resources: {requests: {cpu: "1"}}}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 20s, op: delete, target: Pod/urgent}
"""


def test_a_nominated_pod_leaving_wakes_the_pods_it_kept_out():
    """While urgent is nominated to node-1 (its victim low terminating), pods of lower or equal
    priority count it there: waiter (12 s) does not fit. urgent's deletion (20 s) is an assigned
    pod's deletion for them (deletePodFromSchedulingQueue, with getLEPriorityPreCheck), and
    NodeResourcesFit's hint queues for a deleted pod that was nominated: waiter is tried again,
    and fails, low still terminating; low's removal (40 s) lets it in. Before: no retry at 20 s."""
    assert attempts(NOMINATED_STORY, "waiter") == [
        (12.0, "FailedScheduling"),
        (20.0, "FailedScheduling"),
        (40.0, "Scheduled"),
    ]


def test_the_gallery_story_writes_the_two_failed_attempts_its_description_counts():
    """playground/gallery/032-pending-retried.yaml tells the first story to learners."""
    path = Path(__file__).parents[3] / "playground" / "gallery" / "032-pending-retried.yaml"
    _, story = path.read_text().split("\n---\n", 1)  # the Scenario header document, then the cluster
    assert "Count the FailedScheduling events in the log: two." in path.read_text().split("\n---\n", 1)[0]
    assert attempts(story, "big") == [(0.0, "FailedScheduling"), (60.0, "FailedScheduling"), (120.0, "Scheduled")]

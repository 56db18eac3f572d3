"""The taint eviction controller: NoExecute taints delete pods, at once or after tolerationSeconds."""

from scheduler_core.api.pod_conditions import DISRUPTION_TARGET, condition_of
from scheduler_core.api.types import Pod, PodCondition, Taint, Toleration
from scheduler_core.controllers.taint_eviction import matching_tolerations, min_toleration_time
from tests.core.controllers.node_health_helpers import NODE, events, find, simulate


def marked(pod: str) -> tuple[str, str]:
    return ("TaintManagerEviction", f"Marking for deletion Pod default/{pod}")


def test_pods_are_evicted_when_their_toleration_of_the_unreachable_taint_runs_out():
    sim = simulate("node_down_bare_pods.yaml")
    # NotReady at 80 s: 60 s of toleration for one pod, the default 300 s for the other.
    assert events(sim, "Pod/default/impatient", "TaintManagerEviction") == [(140.0, *marked("impatient"))]
    assert events(sim, "Pod/default/web", "TaintManagerEviction") == [(380.0, *marked("web"))]
    assert events(sim, "Pod/default/patient", "TaintManagerEviction") == []
    (event,) = find(sim, "TaintManagerEviction")[:1]
    assert (event.type, event.source) == ("Normal", "taint-eviction-controller")


def test_an_evicted_pod_on_a_down_node_stays_terminating_until_the_kubelet_returns():
    sim = simulate("node_down_bare_pods.yaml", until=599)
    web = sim.cluster.get(Pod, "default/web")
    assert web.metadata.deletion_timestamp == 380.0
    assert events(sim, "Pod/default/web", "Killing") == []


def test_the_taints_removal_cancels_the_scheduled_deletions():
    sim = simulate("node_up_cancels_eviction.yaml")
    assert events(sim, "Pod/default/web", "TaintManagerEviction") == [
        (200.0, "TaintManagerEviction", "Cancelling deletion of Pod default/web")
    ]
    web = sim.cluster.get(Pod, "default/web")
    assert web.metadata.deletion_timestamp is None
    assert web.status.ready  # re-probed by the restarted kubelet


def test_seed_000_noexecute_deletes_at_once_noschedule_keeps_new_pods_pending():
    sim = simulate("node_noexecute_taint.yaml")
    assert events(sim, "Pod/default/intolerant", "TaintManagerEviction", "Killing") == [
        (10.0, *marked("intolerant")),
        (10.0, "Killing", "Stopping container app"),
    ]
    assert events(sim, "Pod/default/for-a-minute", "TaintManagerEviction") == [(70.0, *marked("for-a-minute"))]
    assert sim.cluster.get(Pod, "default/pytorch2").status.phase == "Running"
    waiting = sim.cluster.get(Pod, "default/waiting")
    assert waiting.status.phase == "Pending" and not waiting.spec.node_name
    ((_, _, message),) = events(sim, "Pod/default/waiting", "FailedScheduling")
    assert "1 node(s) had untolerated taint {maintenance: true}" in message


def test_removing_the_taint_before_the_toleration_runs_out_cancels_the_deletion():
    manifests = (
        NODE.format(name="worker1")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: guest}
spec:
  nodeName: worker1
  containers: [{name: app}]
  tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
---
apiVersion: playground/v1
kind: Action
spec: {at: 10s, op: taint, target: Node/worker1, taint: {key: dedicated, value: db, effect: NoExecute}}
---
apiVersion: playground/v1
kind: Action
spec: {at: 30s, op: untaint, target: Node/worker1, key: dedicated}
"""
    )
    sim = simulate(manifests)
    assert events(sim, "Pod/default/guest", "TaintManagerEviction") == [
        (30.0, "TaintManagerEviction", "Cancelling deletion of Pod default/guest")
    ]
    assert sim.cluster.get(Pod, "default/guest").metadata.deletion_timestamp is None


def test_a_pod_bound_to_an_already_tainted_node_is_looked_at_too():
    manifests = (
        NODE.format(name="worker1").replace("status:", "spec: {taints: [{key: gone, effect: NoExecute}]}\nstatus:")
        + """---
apiVersion: v1
kind: Pod
metadata: {name: late}
spec: {nodeName: worker1, containers: [{name: app}]}
"""
    )
    sim = simulate(manifests)
    assert events(sim, "Pod/default/late", "TaintManagerEviction") == [(0.0, *marked("late"))]
    assert sim.cluster.get(Pod, "default/late") is None


def test_matching_tolerations_and_the_smallest_toleration_time():
    unreachable = Taint("node.kubernetes.io/unreachable", "NoExecute")
    custom = Taint("gpu", "NoExecute", value="true")
    forever = Toleration("node.kubernetes.io/unreachable", "Exists", effect="NoExecute")
    five_minutes = Toleration("node.kubernetes.io/unreachable", "Exists", effect="NoExecute", toleration_seconds=300)
    gpu = Toleration("gpu", "Equal", "true", "NoExecute", toleration_seconds=60)
    assert matching_tolerations((unreachable, custom), (forever,)) == (False, [])
    # The first toleration that matches each taint is the one used.
    assert matching_tolerations((unreachable, custom), (forever, five_minutes, gpu)) == (True, [forever, gpu])
    assert min_toleration_time([forever]) == -1
    assert min_toleration_time([forever, gpu, five_minutes]) == 60
    assert min_toleration_time([Toleration(operator="Exists", toleration_seconds=0)]) == 0
    assert min_toleration_time([]) == 0


def test_a_pod_the_taint_manager_deletes_is_marked_as_its_disruption_target():
    sim = simulate("node_down_bare_pods.yaml", until=599)
    web = sim.cluster.get(Pod, "default/web")
    assert condition_of(web.status, DISRUPTION_TARGET) == PodCondition(
        DISRUPTION_TARGET, "True", "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", 380.0
    )

"""A Pending pod's explanation says which changes make kube-scheduler try it again."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.explain.explain import explain_in_cluster
from scheduler_core.explain.retry_triggers import AFTER_BACKOFF, ANY_CHANGE, WHEN_RETRIED, retry_triggers
from scheduler_core.scheduler.cluster_events import EnqueueExtensions
from scheduler_core.scheduler.registry import DEFAULT_REGISTRY
from scheduler_core.scheduler.runtime import Handle
from scheduler_core.simulation.simulation import Simulation


@pytest.mark.parametrize("name", sorted(DEFAULT_REGISTRY))
def test_every_plugin_that_registers_hints_has_words_for_them(name):
    plugin = DEFAULT_REGISTRY[name]({}, Handle())
    # DefaultPreemption registers a hint (always skip) but never rejects a pod itself.
    rejects_with_hints = isinstance(plugin, EnqueueExtensions) and name != "DefaultPreemption"
    assert rejects_with_hints == (name in WHEN_RETRIED)


def test_a_plugin_without_hints_wakes_the_pod_on_any_change():
    assert [(t.plugin, t.when) for t in retry_triggers(["Custom", "NodeName"])] == [
        ("Custom", ANY_CHANGE),
        ("NodeName", "a node joins"),
    ]


TAINTED = """apiVersion: v1
kind: Node
metadata: {name: worker-1}
spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker-2}
status: {capacity: {cpu: "1", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec: {containers: [{name: app, image: app, resources: {requests: {cpu: 1500m}}}]}
"""


def test_the_pending_pods_explanation_names_each_rejecting_plugins_changes():
    sim = Simulation(load_manifests(TAINTED))
    sim.run_to_end(until=10)
    explanation = explain_in_cluster(sim.cluster, "default/web", fixes=False)
    assert explanation.selected is None
    assert [trigger.plugin for trigger in explanation.retried_when] == ["NodeResourcesFit", "TaintToleration"]
    assert explanation.as_dict()["retriedWhen"][1] == {
        "plugin": "TaintToleration",
        "when": WHEN_RETRIED["TaintToleration"],
    }


def test_a_pod_no_plugin_rejected_waits_for_its_backoff_not_for_an_event():
    sim = Simulation(load_manifests(TAINTED.split("---", 2)[2]))  # the pod alone: no node at all
    sim.run_to_end(until=10)
    explanation = explain_in_cluster(sim.cluster, "default/web", fixes=False)
    assert [(t.plugin, t.when) for t in explanation.retried_when] == [("", AFTER_BACKOFF)]

"""ResourceQuota admission: upstream's refusal texts, what a pod and other objects are charged."""

from dataclasses import replace

import pytest

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.admission.resource_quota import is_charged, pod_usage
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.quantity import format_quantity
from scheduler_core.api.types import Pod
from tests.core.admission.helpers import admitted, api_server

MI = 2**20


def quota(hard: str, name: str = "q", scopes: str = "") -> str:
    scope_line = f"\n  scopes: [{scopes}]" if scopes else ""
    return f"""
apiVersion: v1
kind: ResourceQuota
metadata: {{name: {name}}}
spec:
  hard: {{{hard}}}{scope_line}
"""


def pod(name: str, resources: str = "{}") -> str:
    return f"""
apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  containers: [{{name: app, image: app, resources: {resources}}}]
"""


def refusal(document: str, existing: str) -> str:
    with pytest.raises(AdmissionError) as error:
        admitted(document, existing)
    return str(error.value)


def test_the_pod_that_would_exceed_a_count_is_refused_with_upstreams_text():
    existing = quota("pods: '2'") + "---" + pod("a") + "---" + pod("b")
    assert refusal(pod("c"), existing) == (
        'pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2'
    )


def test_only_the_exceeded_resources_are_listed_sorted_and_comma_joined():
    resources = "{requests: {cpu: 500m, memory: 512Mi}, limits: {cpu: '1', memory: 1Gi}}"
    existing = quota("requests.cpu: '2', limits.memory: 1500Mi, requests.memory: 1000Mi") + "---" + pod("a", resources)
    assert refusal(pod("b", resources), existing) == (
        'pods "b" is forbidden: exceeded quota: q, requested: limits.memory=1Gi,requests.memory=512Mi, '
        "used: limits.memory=1Gi,requests.memory=512Mi, limited: limits.memory=1500Mi,requests.memory=1000Mi"
    )


def test_a_pod_must_state_what_a_compute_quota_tracks():
    assert refusal(pod("a", "{requests: {cpu: 100m}}"), quota("limits.cpu: '1', requests.memory: 1Gi")) == (
        'pods "a" is forbidden: failed quota: q: must specify limits.cpu for: app; requests.memory for: app'
    )


def test_count_quotas_apply_to_other_kinds_with_their_resource_name():
    deployment = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web2}
spec:
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: app}]}}
"""
    existing = quota("count/deployments.apps: '1'") + "---" + deployment.replace("web2", "web1")
    assert refusal(deployment, existing) == (
        'deployments.apps "web2" is forbidden: exceeded quota: q, requested: count/deployments.apps=1, '
        "used: count/deployments.apps=1, limited: count/deployments.apps=1"
    )


def test_scoped_quotas_select_pods_by_qos():
    existing = quota("pods: '1'", scopes="BestEffort") + "---" + pod("a")
    assert refusal(pod("b"), existing).startswith('pods "b" is forbidden: exceeded quota: q, requested: pods=1')
    # A Burstable pod is outside the BestEffort scope.
    admitted(pod("c", "{requests: {cpu: 100m}}"), existing)


def test_quotas_of_other_namespaces_and_kinds_they_do_not_track_are_ignored():
    admitted(pod("a"), quota("count/services: '0'"))
    other = quota("pods: '0'").replace("{name: q}", "{name: q, namespace: other}")
    admitted(pod("a"), other)


def test_the_used_amounts_are_the_namespaces_objects():
    cluster = api_server(quota("pods: '5', count/pods: '5'") + "---" + pod("a") + "---" + pod("b"))
    (manifest,) = load_manifests(pod("c"))
    cluster.create(manifest.object)
    assert len(cluster.objects(Pod)) == 3


def test_finished_pods_still_count_as_objects_but_not_as_pods():
    (manifest,) = load_manifests(pod("done"))
    done = manifest.object
    done = replace(done, status=replace(done.status, phase="Succeeded"))
    assert pod_usage(done, 0.0) == {"count/pods": 1}


def test_a_pod_stuck_terminating_stops_counting_after_twice_its_grace_period():
    (manifest,) = load_manifests(pod("stuck"))
    stuck = manifest.object
    stuck = replace(stuck, metadata=replace(stuck.metadata, deletion_timestamp=100.0, deletion_grace_period_seconds=30))
    assert is_charged(stuck, 160.0)
    assert not is_charged(stuck, 160.5)


def test_quantities_print_as_the_api_server_prints_them():
    assert format_quantity("limits.cpu", 1500) == "1500m"
    assert format_quantity("cpu", 2000) == "2"
    assert format_quantity("requests.memory", 3584 * MI) == "3584Mi"
    assert format_quantity("memory", 500_000_000) == "500M"
    assert format_quantity("pods", 3) == "3"
    assert format_quantity("count/pods", 1000) == "1k"

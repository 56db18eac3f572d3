"""LimitRanger: defaults for containers that leave resources out, min/max/ratio refused with upstream's texts."""

import pytest

from scheduler_core.admission.priority import AdmissionError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import CPU, MEMORY, Pod
from scheduler_core.simulation.simulation import Simulation
from tests.core.admission.helpers import admitted

MI = 2**20
# The LimitRange of the seed text 003 (11.1.5.2), written as valid YAML.
SEED_LIMIT_RANGE = """
apiVersion: v1
kind: LimitRange
metadata: {name: mem-limit-range}
spec:
  limits:
  - default: {memory: 256Mi, cpu: 200m}
    defaultRequest: {memory: 128Mi, cpu: 100m}
    max: {memory: 1Gi, cpu: 1000m}
    min: {memory: 16Mi, cpu: 50m}
    type: Container
"""


def pod(resources: str = "{}", name: str = "web", extra: str = "") -> str:
    return f"""
apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  containers: [{{name: nginx, image: nginx, resources: {resources}}}]{extra}
"""


def refusal(document: str, existing: str = SEED_LIMIT_RANGE) -> str:
    with pytest.raises(AdmissionError) as error:
        admitted(document, existing)
    return str(error.value)


def test_a_container_without_resources_gets_the_default_requests_and_limits_and_the_annotation():
    created = admitted(pod(), SEED_LIMIT_RANGE)
    resources = created.spec.containers[0].resources
    assert dict(resources.requests) == {CPU: 100, MEMORY: 128 * MI}
    assert dict(resources.limits) == {CPU: 200, MEMORY: 256 * MI}
    assert created.metadata.annotations["kubernetes.io/limit-ranger"] == (
        "LimitRanger plugin set: cpu, memory request for container nginx; cpu, memory limit for container nginx"
    )


def test_only_what_is_missing_is_defaulted():
    created = admitted(pod("{requests: {memory: 64Mi}}"), SEED_LIMIT_RANGE)
    resources = created.spec.containers[0].resources
    assert dict(resources.requests) == {MEMORY: 64 * MI, CPU: 100}
    assert dict(resources.limits) == {CPU: 200, MEMORY: 256 * MI}
    assert created.metadata.annotations["kubernetes.io/limit-ranger"] == (
        "LimitRanger plugin set: cpu request for container nginx; cpu, memory limit for container nginx"
    )


def test_a_limit_without_request_keeps_the_request_the_api_server_defaulted_from_it():
    created = admitted(pod("{limits: {cpu: 500m}}"), SEED_LIMIT_RANGE)
    assert created.spec.containers[0].resources.requests[CPU] == 500


def test_defaults_come_from_max_and_min_when_the_item_leaves_them_out():
    limit_range = """
apiVersion: v1
kind: LimitRange
metadata: {name: bounds}
spec: {limits: [{type: Container, max: {cpu: "1"}, min: {memory: 32Mi}}]}
"""
    resources = admitted(pod(), limit_range).spec.containers[0].resources
    assert dict(resources.limits) == {CPU: 1000}
    assert dict(resources.requests) == {CPU: 1000, MEMORY: 32 * MI}


def test_a_limit_above_max_is_refused_with_upstreams_text():
    assert refusal(pod("{limits: {cpu: '2'}}")) == (
        'pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2'
    )


def test_a_request_below_min_and_several_errors_together():
    assert refusal(pod("{requests: {cpu: 10m, memory: 8Mi}}")) == (
        'pods "web" is forbidden: [minimum memory usage per Container is 16Mi, but request is 8Mi, '
        "minimum cpu usage per Container is 50m, but request is 10m]"
    )


def test_an_explicit_request_above_the_defaulted_limit_makes_the_pod_invalid():
    assert refusal(pod("{requests: {cpu: 500m}}")) == (
        'Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "500m": '
        "must be less than or equal to cpu limit of 200m"
    )


def test_max_limit_request_ratio_and_a_missing_limit():
    limit_range = """
apiVersion: v1
kind: LimitRange
metadata: {name: ratio}
spec: {limits: [{type: Container, maxLimitRequestRatio: {memory: "2"}}]}
"""
    assert refusal(pod("{requests: {memory: 100Mi}, limits: {memory: 300Mi}}"), limit_range) == (
        'pods "web" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 3.000000'
    )
    assert refusal(pod("{requests: {memory: 100Mi}}"), limit_range) == (
        'pods "web" is forbidden: memory max limit to request ratio per Container is 2, '
        "but no limit is specified or limit is 0"
    )


def test_pod_items_check_the_pods_totals():
    limit_range = """
apiVersion: v1
kind: LimitRange
metadata: {name: per-pod}
spec: {limits: [{type: Pod, max: {memory: 1Gi}}]}
"""
    two = """
apiVersion: v1
kind: Pod
metadata: {name: pair}
spec:
  containers:
  - {name: a, resources: {limits: {memory: 600Mi}}}
  - {name: b, resources: {limits: {memory: 600Mi}}}
"""
    assert (
        refusal(two, limit_range)
        == 'pods "pair" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi'
    )
    assert refusal(pod("{requests: {memory: 1Mi}}"), limit_range) == (
        'pods "web" is forbidden: maximum memory usage per Pod is 1Gi.  No limit is specified'
    )


def test_limit_ranges_of_other_namespaces_do_not_apply():
    document = pod("{limits: {cpu: '2'}}").replace("{name: web}", "{name: web, namespace: other}")
    assert admitted(document, SEED_LIMIT_RANGE).spec.containers[0].resources.limits[CPU] == 2000


def test_a_refused_bare_pod_is_a_failed_create_in_the_simulation():
    sim = Simulation(load_manifests(SEED_LIMIT_RANGE + "---" + pod("{limits: {cpu: '2'}}", name="big")))
    sim.run_to_end()
    (event,) = [e for e in sim.cluster.events if e.reason == "FailedCreate"]
    assert event.object == "Pod/default/big"
    assert event.message == 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2'
    assert sim.cluster.get(Pod, "default/big") is None

"""Resource names as Kubernetes v1.34 checks them (pkg/apis/core/validation validateResourceName and
validateContainerResourceName, pkg/apis/core/helper IsExtendedResourceName), through the parser."""

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.validation import API_VALIDATION, container_resource_name_problem, node_resource_name_problem


def node_with(resource: str) -> str:
    return f"""\
apiVersion: v1
kind: Node
metadata: {{name: w1}}
status: {{capacity: {{"{resource}": "1"}}}}
"""


def pod_requesting(resource: str) -> str:
    return f"""\
apiVersion: v1
kind: Pod
metadata: {{name: web}}
spec: {{containers: [{{name: c, image: nginx, resources: {{requests: {{"{resource}": "1"}}}}}}]}}
"""


@pytest.mark.parametrize(
    "name", ["cpu", "memory", "pods", "ephemeral-storage", "hugepages-2Mi", "nvidia.com/gpu", "example.com/foo"]
)
def test_a_node_advertises_standard_and_extended_resources(name):
    (manifest,) = load_manifests(node_with(name), source="test")
    assert name in manifest.object.status.capacity


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("example.com/<img src=x>", "name part must consist of alphanumeric characters"),
        ("<gpu>", "name part must consist of alphanumeric characters"),
        ("<b>gpu</b>", "prefix part a lowercase RFC 1123 subdomain"),
        ("gpu", "must be a standard resource type or fully qualified"),
        ("kubernetes.io/gpu", "doesn't follow extended resource name standard"),
        ("requests.example.com/gpu", "doesn't follow extended resource name standard"),
        ("Example.com/gpu", "prefix part a lowercase RFC 1123 subdomain"),
        ("example.com/" + "g" * 64, "name part must be no more than 63 characters"),
    ],
)
def test_a_node_resource_name_that_kubernetes_refuses_is_refused_naming_the_field(name, says):
    with pytest.raises(ManifestError) as raised:
        load_manifests(node_with(name), source="test")
    assert raised.value.path == f"status.capacity.{name}"
    assert f'invalid resource name "{name[:80]}"' in raised.value.message
    assert says in raised.value.message
    assert raised.value.line == 4


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("pods", "must be a standard resource for containers"),
        ("example.com/<script>", "name part must consist of alphanumeric characters"),
        ("requests.example.com/gpu", "doesn't follow extended resource name standard"),
    ],
)
def test_a_container_requests_only_what_a_container_may(name, says):
    with pytest.raises(ManifestError) as raised:
        load_manifests(pod_requesting(name), source="test")
    assert raised.value.path == f"spec.containers[0].resources.requests.{name}"
    assert says in raised.value.message


def test_a_container_may_request_native_prefixed_and_extended_resources():
    for name in ("cpu", "hugepages-1Gi", "kubernetes.io/something", "example.com/aaa"):
        assert container_resource_name_problem(name) is None, name


def test_without_api_validation_only_markup_is_refused():
    """Upstream's unit-test tables build nodes without an API server ("kubernetes.io/something")."""
    token = API_VALIDATION.set(False)
    try:
        assert node_resource_name_problem("kubernetes.io/something") is None
        assert node_resource_name_problem("scalar-resource") is None
        assert node_resource_name_problem("a<b") is not None
    finally:
        API_VALIDATION.reset(token)

"""API errors as Status objects with upstream's reasons, codes and messages
(k8s.io/apimachinery/pkg/api/errors, and what kubectl prints of them)."""

from scheduler_core.kubeapi import status
from scheduler_core.kubeapi.resources import BY_KIND

PODS, DEPLOYMENTS, NODES = BY_KIND["Pod"], BY_KIND["Deployment"], BY_KIND["Node"]


def test_not_found_names_the_group_qualified_resource() -> None:
    assert status.not_found(PODS, "web-0").status() == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": 'pods "web-0" not found',
        "reason": "NotFound",
        "details": {"name": "web-0", "kind": "pods"},
        "code": 404,
    }
    assert status.not_found(DEPLOYMENTS, "web").message == 'deployments.apps "web" not found'


def test_forbidden_is_worded_as_rbac_words_it() -> None:
    namespaced = status.forbidden(DEPLOYMENTS, "web", "playground:viewer", "patch", "default", "scale")
    assert namespaced.code == 403 and namespaced.reason == "Forbidden"
    assert namespaced.message == (
        'deployments.apps "web" is forbidden: User "playground:viewer" cannot patch resource "deployments/scale" '
        'in API group "apps" in the namespace "default"'
    )
    cluster_scoped = status.forbidden(NODES, "worker1", "playground:viewer", "patch", "")
    assert cluster_scoped.message.endswith('cannot patch resource "nodes" in API group "" at the cluster scope')
    collection = status.forbidden(PODS, "", "playground:viewer", "create", "default")
    assert collection.message.startswith('pods is forbidden: User "playground:viewer" cannot create')


def test_invalid_lists_its_causes_with_field_paths() -> None:
    one = status.invalid(
        DEPLOYMENTS,
        "web",
        [status.Cause("FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0", "spec.replicas")],
    )
    assert one.code == 422
    assert (
        one.message
        == 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0'
    )
    assert one.status()["details"]["causes"] == [
        {
            "reason": "FieldValueInvalid",
            "message": "Invalid value: -1: must be greater than or equal to 0",
            "field": "spec.replicas",
        }
    ]
    two = status.invalid(
        PODS,
        "p",
        [
            status.Cause("FieldValueRequired", "Required value", "spec.containers"),
            status.Cause("FieldValueRequired", "Required value", "metadata.name"),
        ],
    )
    assert two.message == 'Pod "p" is invalid: [spec.containers: Required value; metadata.name: Required value]'


def test_too_many_requests_says_when_to_retry() -> None:
    body = status.too_many_requests("the run is being prepared", 1).status()
    assert (body["code"], body["reason"], body["details"]) == (429, "TooManyRequests", {"retryAfterSeconds": 1})


def test_an_unknown_path_is_the_servers_plain_not_found() -> None:
    assert status.no_such_path().status()["message"] == "the server could not find the requested resource"
    assert status.no_such_path().status()["details"] == {}

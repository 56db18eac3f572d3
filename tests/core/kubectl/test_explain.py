"""The console's `kubectl explain`: kubectl v1.34's plaintext output over the API's OpenAPI v3
documents, with kubectl's errors (the texts below are the real binary's against this API;
tests/web/kubeapi/test_explain_vs_kubectl.py holds the two side by side over more paths)."""

import pytest

from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubectl.completion import complete
from scheduler_core.kubectl.console import run
from scheduler_core.kubectl.explain import explain

STRATEGY_RECURSIVE = """\
GROUP:      apps
KIND:       Deployment
VERSION:    v1

FIELD: strategy <DeploymentStrategy>


DESCRIPTION:
    The deployment strategy to use to replace existing pods with new ones.
    DeploymentStrategy describes how to replace existing pods with new ones.
    \nFIELDS:
  rollingUpdate\t<RollingUpdateDeployment>
    maxSurge\t<IntOrString>
    maxUnavailable\t<IntOrString>
  type\t<string>

"""

TAINTS = """\
KIND:       Node
VERSION:    v1

FIELD: taints <[]Taint>


DESCRIPTION:
    If specified, the node's taints.
    The node this Taint is attached to has the "effect" on any pod that does not
    tolerate the Taint.
    \nFIELDS:
  effect\t<string> -required-
    Required. The effect of the taint on pods that do not tolerate the taint.
    Valid effects are NoSchedule, PreferNoSchedule and NoExecute.

  key\t<string> -required-
    Required. The taint key to be applied to a node.

  timeAdded\t<string>
    TimeAdded represents the time at which the taint was added.

  value\t<string>
    The taint value corresponding to the taint key.


"""

PRIORITY_VALUE = """\
GROUP:      scheduling.k8s.io
KIND:       PriorityClass
VERSION:    v1

FIELD: value <integer>


DESCRIPTION:
    value represents the integer value of this priority class. This is the
    actual priority that pods receive when they have the name of this class in
    their pod spec.
    \n
"""


def test_a_field_recursively_and_its_fields_with_descriptions() -> None:
    assert explain(["deployment.spec.strategy", "--recursive"]).stdout == STRATEGY_RECURSIVE
    assert explain(["nodes.spec.taints"]).stdout == TAINTS
    assert explain(["pc.value"]).stdout == PRIORITY_VALUE


def test_a_resource_lists_its_fields() -> None:
    printed = explain(["pods"])
    assert printed.stderr == ""
    assert printed.stdout.startswith(
        "KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n"
        "    Pod is a collection of containers that can run on a host. This resource is\n"
        "    created by clients and scheduled onto hosts.\n    \nFIELDS:\n  apiVersion\t<string>\n"
    )
    assert "\n  spec\t<PodSpec>\n    Specification of the desired behavior of the pod." in printed.stdout
    assert printed.stdout.endswith("api-conventions.md#spec-and-status\n\n\n")


def test_names_the_type_as_kubectl_resolves_it() -> None:
    spec = explain(["pods.spec"]).stdout
    for spelled in (["po.spec"], ["pod.spec"], ["Pods.spec"], ["pods.spec."], ["pods.spec", "--api-version=v1"]):
        assert explain(spelled).stdout == spec
    qualified = explain(["deployments.apps.spec.strategy"]).stdout
    assert qualified.startswith("GROUP:      apps\nKIND:       Deployment\n") and "FIELD: strategy" in qualified
    hpa = explain(["hpa"]).stdout
    assert hpa.startswith("GROUP:      autoscaling\nKIND:       HorizontalPodAutoscaler\nVERSION:    v2\n")


def test_types_of_fields_as_kubectl_guesses_them() -> None:
    fields = explain(["pods.spec.containers", "--recursive"]).stdout
    for line in ("  args\t<[]string>", "  name\t<string> -required-", "    limits\t<map[string]Quantity>"):
        assert line + "\n" in fields
    assert "  ports\t<[]ContainerPort>\n    containerPort\t<integer> -required-\n" in fields
    assert "FIELD: targetPort <IntOrString>\n" in explain(["svc.spec.ports.targetPort"]).stdout
    assert "  creationTimestamp\t<string>\n" in explain(["pods.metadata"]).stdout


def test_a_missing_field_prints_the_header_then_kubectls_error() -> None:
    missing = explain(["pods.foo"])
    assert missing.stdout == "KIND:       Pod\nVERSION:    v1\n\n"
    assert missing.stderr == 'error: field "foo" does not exist\n'
    assert explain(["pods.foo.bar"]).stderr == 'error: field "bar" does not exist\n'  # the last one, as kubectl
    assert explain(["pods.metadata.labels.x"]).stderr == 'error: field "x" does not exist\n'
    assert explain(["Pods.Spec"]).stderr == 'error: field "Spec" does not exist\n'
    assert explain(["deploy.apps.spec"]).stderr == 'error: field "spec" does not exist\n'


@pytest.mark.parametrize(
    ("words", "error"),
    [
        (["foo"], 'the server doesn\'t have a resource type "foo"'),  # kubectl prints this one bare
        (["Foo.bar"], 'the server doesn\'t have a resource type "Foo"'),
        ([], 'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete '
         "list of supported resources."),
        (["pods", "nodes"], "error: We accept only this format: explain RESOURCE"),
        (["deployment.spec", "--api-version=apps/v2"], 'error: couldn\'t find resource for "apps/v2, '
         'Resource=deployments"'),
        (["deployment.spec", "--api-version=v1"], "error: GVR (/v1, Resource=deployments) not found in OpenAPI schema"),
        (["pods", "--api-version=a/b/c"], "error: unexpected GroupVersion string: a/b/c"),
        (["pods", "-o", "yaml"], "error: unrecognized format: yaml"),
        (["pods", "-o", "plaintext-openapiv2"], "Error from server (NotFound): the server could not find the requested "
         "resource"),
        (["pods.spec.containers[0]"], "error: invalid jsonpath syntax, first node must be field node"),
        (['pods.spec.containers["name"]'], 'error: invalid array index "name"'),
    ],
)  # fmt: skip
def test_kubectls_errors(words: list[str], error: str) -> None:
    printed = explain(words)
    assert (printed.stdout, printed.stderr) == ("", error + "\n")


def test_the_console_runs_it(snapshot: ApiSnapshot) -> None:
    assert run("kubectl explain nodes.spec.taints", snapshot, may_write=False).stdout == TAINTS
    refused = run("explain pods --recursive=maybe", snapshot, may_write=False)
    assert refused.stderr == (
        'error: invalid argument "maybe" for "--recursive" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n'
        "See 'kubectl explain --help' for usage.\n"
    )
    assert run("explain pods --recursive=false", snapshot, may_write=False).stdout == explain(["pods"]).stdout


def test_the_console_completes_explain_and_its_types(snapshot: ApiSnapshot) -> None:
    assert "explain" in complete("exp", snapshot)
    assert complete("explain dep", snapshot) == ["deploy", "deployments"]
    assert complete("explain pods --rec", snapshot) == ["--recursive"]
    assert complete("explain pods ", snapshot) == []

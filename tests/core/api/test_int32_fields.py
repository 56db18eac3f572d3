"""int32 fields refuse what does not fit in 32 bits, in the API server's words: its JSON decoder's
UnmarshalTypeError (sigs.k8s.io/json, internal/golang/encoding/json/decode.go), which names the
innermost Go struct and the field's JSON path without list indexes."""

import pytest

from scheduler_core.api.errors import ManifestError
from scheduler_core.api.manifests import load_manifests

TEMPLATE = "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: c\n"


def _workload(kind: str, api: str, spec: str, template: str = "") -> str:
    return (
        f"apiVersion: {api}\nkind: {kind}\nmetadata: {{name: web}}\nspec:\n{spec}"
        f"  selector: {{matchLabels: {{app: web}}}}\n{TEMPLATE}        image: nginx\n{template}"
    )


# (what, manifest with {n} where the number goes, Go struct, field path as the error names it, line)
CASES = [
    ("a Deployment's replicas", _workload("Deployment", "apps/v1", "  replicas: {n}\n"), "DeploymentSpec",
     "spec.replicas", 5),
    ("a ReplicaSet's replicas", _workload("ReplicaSet", "apps/v1", "  replicas: {n}\n"), "ReplicaSetSpec",
     "spec.replicas", 5),
    ("a StatefulSet's replicas", _workload("StatefulSet", "apps/v1", "  replicas: {n}\n  serviceName: web\n"),
     "StatefulSetSpec", "spec.replicas", 5),
    ("a Deployment's maxSurge", _workload(
        "Deployment", "apps/v1", "  strategy:\n    rollingUpdate:\n      maxSurge: {n}\n"),
     "RollingUpdateDeployment", "spec.strategy.rollingUpdate.maxSurge", 7),
    ("a container port", _workload("Deployment", "apps/v1", "", "        ports:\n        - containerPort: {n}\n"),
     "ContainerPort", "spec.template.spec.containers[0].ports[0].containerPort", 13),
    ("a pod's priority", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priority: {n}\n"
     "  containers: [{name: c, image: nginx}]\n", "PodSpec", "spec.priority", 5),
    ("a PriorityClass's value", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
     "value: {n}\n", "PriorityClass", "value", 4),
    ("a Job's parallelism", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: {n}\n"
     "  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}\n", "JobSpec",
     "spec.parallelism", 5),
    ("a Job's backoffLimit", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  backoffLimit: {n}\n"
     "  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}\n", "JobSpec",
     "spec.backoffLimit", 5),
    ("an HPA's maxReplicas", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"
     "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: {n}\n",
     "HorizontalPodAutoscalerSpec", "spec.maxReplicas", 6),
    ("a PodDisruptionBudget's minAvailable", "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
     "metadata: {name: b}\nspec:\n  minAvailable: {n}\n  selector: {matchLabels: {app: web}}\n",
     "PodDisruptionBudgetSpec", "spec.minAvailable", 5),
    ("a Service port", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: {n}\n",
     "ServicePort", "spec.ports[0].port", 6),
    ("a Deployment in a v1 List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n"
     "  metadata: {name: web}\n  spec:\n    replicas: {n}\n    selector: {matchLabels: {app: web}}\n"
     "    template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}\n",
     "DeploymentSpec", "items[0].spec.replicas", 8),
    ("a scale action", "apiVersion: playground/v1\nkind: Action\nspec:\n  at: 5s\n  op: scale\n"
     "  target: Deployment/web\n  replicas: {n}\n", "ScaleSpec", "spec.replicas", 7),
]  # fmt: skip


@pytest.mark.parametrize(("what", "text", "struct", "path", "line"), CASES, ids=[case[0] for case in CASES])
@pytest.mark.parametrize("number", [2**31, -(2**31) - 1, 2**63, 10**30])
def test_an_int32_field_refuses_a_number_outside_32_bits_as_the_api_server_does(what, text, struct, path, line, number):
    with pytest.raises(ManifestError) as caught:
        load_manifests(text.replace("{n}", str(number)), source="scenario")
    error = caught.value
    go_path = path.replace("[0]", "").removeprefix("items.")
    assert error.message == (
        f"json: cannot unmarshal number {number} into Go struct field {struct}.{go_path} of type int32"
    )
    assert (error.path, error.line) == (path, line)
    assert error.document != ""  # "Deployment default/web": the object is named


@pytest.mark.parametrize(("what", "text", "struct", "path", "line"), CASES, ids=[case[0] for case in CASES])
def test_an_int32_field_takes_its_largest_value(what, text, struct, path, line):
    # 2^31 - 1 fits; a field with a narrower range of its own (ports, priority) says so in its own words.
    try:
        load_manifests(text.replace("{n}", str(2**31 - 1)), source="scenario")
    except ManifestError as error:
        assert "int32" not in error.message
        assert "cannot unmarshal" not in error.message


def test_replicas_of_two_to_the_31_minus_one_are_read_as_they_are():
    (deployment,) = load_manifests(_workload("Deployment", "apps/v1", f"  replicas: {2**31 - 1}\n"))
    assert deployment.object.spec.replicas == 2**31 - 1


def test_an_int64_field_still_takes_numbers_beyond_32_bits():
    text = _workload("Deployment", "apps/v1", "", f"      terminationGracePeriodSeconds: {2**31}\n")
    (deployment,) = load_manifests(text)
    assert deployment.object.spec.template.spec.termination_grace_period_seconds == 2**31


def test_a_percentage_string_is_not_an_int32():
    text = _workload("Deployment", "apps/v1", "  strategy:\n    rollingUpdate:\n      maxSurge: '2147483648%'\n")
    (deployment,) = load_manifests(text)
    assert deployment.object.spec.rolling_update.max_surge == "2147483648%"

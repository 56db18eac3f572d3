"""kubectl apply -f / create -f in the console: a pasted file's objects written as the API writes
them, kubectl's lines (created, configured, unchanged) and its errors naming the file and line."""

import pytest

from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubectl.console import run

POD = """apiVersion: v1
kind: Pod
metadata: {name: pytorch}
spec:
  tolerations: [{key: isgpu, operator: Equal, value: "true", effect: NoSchedule}]
  containers: [{name: main, image: pytorch/pytorch}]
"""
WEB_SCALED = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.27", resources: {requests: {cpu: 100m}}}]}
"""


def console(snapshot: ApiSnapshot, line: str, files: dict[str, str], *, may_write: bool = True):
    return run(line, snapshot, may_write=may_write, files=files)


def test_apply_creates_configures_and_leaves_unchanged(snapshot: ApiSnapshot) -> None:
    created = console(snapshot, "kubectl apply -f pod.yaml", {"pod.yaml": POD})
    assert created.stdout == "pod/pytorch created\n" and created.stderr == ""
    assert created.actions[0]["op"] == "apply" and created.actions[0]["manifest"]["metadata"]["name"] == "pytorch"
    both = console(snapshot, "apply -f all.yaml", {"all.yaml": WEB_SCALED + "---\n" + POD})
    assert both.stdout == "deployment.apps/web configured\npod/pytorch created\n"
    assert {"op": "scale", "target": "Deployment/default/web", "replicas": 5} in both.actions
    same = WEB_SCALED.replace("replicas: 5", "replicas: 3")
    assert console(snapshot, "apply -f web.yaml", {"web.yaml": same}).stdout == "deployment.apps/web unchanged\n"
    listed = "apiVersion: v1\nkind: List\nitems:\n- " + POD.replace("\n", "\n  ").rstrip() + "\n"
    assert console(snapshot, "apply -f list.yaml", {"list.yaml": listed}).stdout == "pod/pytorch created\n"


def test_create_refuses_what_exists_and_namespaces_follow_the_flag(snapshot: ApiSnapshot) -> None:
    exists = console(snapshot, "create -f web.yaml", {"web.yaml": WEB_SCALED})
    assert exists.stderr == (
        'Error from server (AlreadyExists): error when creating "web.yaml": deployments.apps "web" already exists\n'
    )
    assert exists.actions == []
    into = console(snapshot, "create -f pod.yaml -n ops", {"pod.yaml": POD})
    assert into.stdout == "pod/pytorch created\n" and into.actions[0]["manifest"]["metadata"]["namespace"] == "ops"
    clash = console(
        snapshot, "apply -n ops -f pod.yaml", {"pod.yaml": POD.replace("{name: pytorch}", "{name: p, namespace: ml}")}
    )
    assert 'the namespace from the provided object "ml" does not match the namespace "ops"' in clash.stderr


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "kind: Pod\nmetadata: {name: x}\n  bad: indent\n",
            "error: error parsing p.yaml: error converting YAML to JSON: yaml: line 3:",
        ),
        ("apiVersion: v1\nmetadata: {name: x}\n", 'error validating "p.yaml": error validating data: kind not set'),
        (
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
            'no matches for kind "Widget" in version "example.com/v1"',
        ),
        ("", "error: no objects passed to apply"),
    ],
)
def test_a_bad_file_gets_kubectls_error_naming_it(snapshot: ApiSnapshot, text: str, says: str) -> None:
    result = console(snapshot, "apply -f p.yaml", {"p.yaml": text})
    assert says in result.stderr and result.actions == []


def test_no_file_a_missing_file_and_a_viewer(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "apply", {}).stderr == "error: must specify one of -f and -k\n"
    assert console(snapshot, "apply -f gone.yaml", {}).stderr == 'error: the path "gone.yaml" does not exist\n'
    refused = console(snapshot, "apply -f pod.yaml", {"pod.yaml": POD}, may_write=False)
    assert refused.stderr.startswith(
        'Error from server (Forbidden): error when creating "pod.yaml": pods "pytorch" is forbidden'
    )
    assert refused.actions == []

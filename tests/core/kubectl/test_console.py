"""The console's kubectl: commands against a simulated cluster, printed as kubectl v1.34 prints them
(texts taken from the real binary against this API; tests/web/kubeapi/test_console_vs_kubectl.py
holds the two side by side), writes returned as timeline Actions."""

import json

import pytest
import yaml

from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubectl.console import run


def console(snapshot: ApiSnapshot, line: str, *, may_write: bool = True):
    return run(line, snapshot, may_write=may_write)


def test_get_prints_kubectls_table(snapshot: ApiSnapshot) -> None:
    printed = console(snapshot, "kubectl get nodes").stdout.splitlines()
    assert printed[0].split() == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    assert printed[0].startswith("NAME      STATUS  ")  # minwidth 6 and padding 3, as kubectl's tabwriter
    assert printed[2].split()[:3] == ["worker2", "Ready,SchedulingDisabled", "<none>"]
    wide = console(snapshot, "get pods -A -o wide").stdout.splitlines()
    assert wide[0].split()[:2] == ["NAMESPACE", "NAME"] and "NOMINATED NODE" in wide[0]
    assert any(line.split()[:2] == ["ops", "tool"] for line in wide)


def test_get_formats_and_selectors(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "get nodes worker1 -o name").stdout == "node/worker1\n"
    assert console(snapshot, "get deploy -o name").stdout == "deployment.apps/web\n"
    assert len(console(snapshot, "get pods -l app=web -o name").stdout.split()) == 3
    one = yaml.safe_load(console(snapshot, "get node worker1 -o yaml").stdout)
    assert one["kind"] == "Node" and one["metadata"]["name"] == "worker1"
    listed = json.loads(console(snapshot, "get nodes -o json").stdout)
    assert listed["kind"] == "List" and len(listed["items"]) == 2 and listed["items"][0]["kind"] == "Node"
    labels = console(snapshot, "get pods -n ops --show-labels").stdout.splitlines()
    assert labels[0].split()[-1] == "LABELS" and labels[1].split()[-1] == "app=tool"
    both = console(snapshot, "get pods,deploy").stdout
    assert "\n\nNAME" in both and "pod/web-" in both and "deployment.apps/web" in both


def test_kubectls_errors(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "get pods -n nope").stderr == "No resources found in nope namespace.\n"
    assert console(snapshot, "get nodes -l app=nope").stderr == "No resources found\n"
    assert console(snapshot, "get widgets").stderr == 'error: the server doesn\'t have a resource type "widgets"\n'
    assert console(snapshot, "get pod nope").stderr == 'Error from server (NotFound): pods "nope" not found\n'
    assert (
        console(snapshot, "get pods -x").stderr
        == "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage.\n"
    )
    assert (
        console(snapshot, "get pods --foo").stderr
        == "error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n"
    )
    assert (
        console(snapshot, "gte pods").stderr
        == 'error: unknown command "gte" for "kubectl"\n\nDid you mean this?\n\tget\n'
    )
    assert console(snapshot, "get pods -o foo").stderr.startswith(
        'error: unable to match a printer suitable for the output format "foo"'
    )
    bad_field = console(snapshot, "get pods --field-selector spec.color=red")
    assert bad_field.stderr == (
        'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", '
        'field selector "spec.color=red": field label not supported: spec.color\n'
    )
    # The tutorial's own spelling (seed 000) is not kubectl's: kubectl says so.
    assert console(snapshot, "kubectl taint node worker1 key:value:effect").stderr.startswith(
        "error: invalid taint spec: key:value:effect"
    )


def test_writes_become_actions_with_kubectls_messages(snapshot: ApiSnapshot) -> None:
    cordon = console(snapshot, "kubectl cordon worker1")
    assert (cordon.stdout, cordon.actions) == ("node/worker1 cordoned\n", [{"op": "cordon", "target": "Node/worker1"}])
    assert console(snapshot, "cordon worker2").stdout == "node/worker2 already cordoned\n"
    tainted = console(snapshot, "taint nodes worker1 isgpu=true:NoSchedule")
    assert tainted.stdout == "node/worker1 tainted\n"
    assert tainted.actions == [
        {"op": "taint", "target": "Node/worker1", "taint": {"key": "isgpu", "value": "true", "effect": "NoSchedule"}}
    ]
    labelled = console(snapshot, "label node worker1 disk=ssd")
    assert labelled.stdout == "node/worker1 labeled\n" and labelled.actions[0]["op"] == "label"
    refused = console(snapshot, "label node worker1 zone=b")
    assert refused.stderr.startswith("error: 'zone' already has a value (a), and --overwrite is false")
    assert (
        console(snapshot, "label node worker1 nothere-").stdout
        == 'label "nothere" not found.\nnode/worker1 not labeled\n'
    )
    scaled = console(snapshot, "scale deployment web --replicas=5")
    assert scaled.stdout == "deployment.apps/web scaled\n"
    assert scaled.actions == [{"op": "scale", "target": "Deployment/default/web", "replicas": 5}]
    image = console(snapshot, "set image deployment/web nginx=nginx:1.28")
    assert image.stdout == "deployment.apps/web image updated\n"
    assert image.actions == [
        {"op": "set-image", "target": "Deployment/default/web", "container": "nginx", "image": "nginx:1.28"}
    ]
    deleted = console(snapshot, "delete pod tool -n ops --grace-period=5")
    assert deleted.stdout == 'pod "tool" deleted from ops namespace\n'
    assert deleted.actions == [{"op": "delete", "target": "Pod/ops/tool", "gracePeriodSeconds": 5}]
    refused = console(snapshot, "drain worker1 --ignore-daemonsets")  # ops/tool declares no controller
    assert (
        refused.actions == [{"op": "cordon", "target": "Node/worker1"}] and refused.stdout == "node/worker1 cordoned\n"
    )
    assert refused.stderr == (
        'error: unable to drain node "worker1" due to error: cannot delete cannot delete Pods that declare no '
        "controller (use --force to override): ops/tool, continuing command...\nThere are pending nodes to be "
        "drained:\n worker1\n"
        "cannot delete cannot delete Pods that declare no controller (use --force to override): ops/tool\n"
    )
    drained = console(snapshot, "drain worker1 --ignore-daemonsets --force")
    assert drained.actions == [{"op": "drain", "target": "Node/worker1"}] and drained.watching
    assert "evicting pod ops/tool\n" in drained.stdout


def test_a_viewer_reads_and_is_refused_writes(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "get nodes", may_write=False).stdout
    refused = console(snapshot, "cordon worker1", may_write=False)
    assert refused.actions == []
    assert refused.stderr == (
        'Error from server (Forbidden): nodes "worker1" is forbidden: User "playground:viewer" cannot patch '
        'resource "nodes" in API group "" at the cluster scope\n'
    )


@pytest.mark.parametrize("verb", ["logs", "exec", "port-forward"])
def test_what_simulated_pods_cannot_do(snapshot: ApiSnapshot, verb: str) -> None:
    assert "simulated" in console(snapshot, f"{verb} tool").stderr


def test_describe_node_and_deployment(snapshot: ApiSnapshot) -> None:
    node = console(snapshot, "describe node worker1").stdout
    assert node.startswith("Name:               worker1\n")
    deployment = console(snapshot, "describe deployment web").stdout
    assert deployment.startswith("Name:") and "NewReplicaSet:" in deployment


def test_rollout(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "rollout status deployment/web").stdout == 'deployment "web" successfully rolled out\n'
    history = console(snapshot, "rollout history deployment/web").stdout
    assert history == "deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n\n"
    paused = console(snapshot, "rollout pause deployment/web")
    assert paused.stdout == "deployment.apps/web paused\n"
    assert paused.actions == [{"op": "pause", "target": "Deployment/default/web"}]
    assert console(snapshot, "rollout resume deployment/web").stderr == 'error: deployments.apps "web" is not paused\n'
    undo = console(snapshot, "rollout undo deployment/web --to-revision=1")
    assert undo.actions == [{"op": "rollout-undo", "target": "Deployment/default/web", "toRevision": 1}]
    restart = console(snapshot, "rollout restart deployment/web")
    assert restart.stdout == "deployment.apps/web restarted\n" and restart.actions[0]["op"] == "apply"
    assert console(snapshot, "rollout foo deployment/web").stderr == (
        "error: unknown command \"foo deployment/web\"\nSee 'kubectl rollout -h' for help and examples\n"
    )


def test_annotate_and_set_resources_become_actions(snapshot: ApiSnapshot) -> None:
    annotated = console(snapshot, "annotate deployment web team=blue")
    assert annotated.stdout == "deployment.apps/web annotated\n"
    [action] = annotated.actions
    assert action["manifest"]["metadata"]["annotations"]["team"] == "blue"
    assert console(snapshot, "annotate deploy web").stderr.startswith(
        "error: at least one annotation update is required"
    )
    resources = console(snapshot, "set resources deployment web --limits=cpu=200m,memory=512Mi --requests=cpu=150m")
    assert resources.stdout == "deployment.apps/web resource requirements updated\n"
    [changed] = resources.actions
    container = changed["manifest"]["spec"]["template"]["spec"]["containers"][0]
    assert container["resources"] == {"limits": {"cpu": "200m", "memory": "512Mi"}, "requests": {"cpu": "150m"}}
    assert "you must specify an update to requests or limits" in console(snapshot, "set resources deploy web").stderr
    assert "invalid argument syntax cpu" in console(snapshot, "set resources deploy web --limits=cpu").stderr
    refused = console(snapshot, "annotate deploy web a=b", may_write=False)
    assert refused.stderr.startswith("Error from server (Forbidden)") and refused.actions == []


def test_edit_names_the_object_and_the_controllers_that_made_it(snapshot: ApiSnapshot) -> None:
    deployment = console(snapshot, "edit deployment/web").edit
    assert (deployment.kind, deployment.namespace, deployment.name, deployment.owners) == (
        "Deployment",
        "default",
        "web",
        (),
    )
    pod = console(snapshot, "get pods -l app=web -o name").stdout.split()[0]
    made = console(snapshot, f"edit {pod}").edit
    assert made.kind == "Pod" and made.owners[0].startswith("ReplicaSet/web-") and made.owners[1] == "Deployment/web"
    assert console(snapshot, "edit node worker1").edit.namespace == ""
    assert console(snapshot, "edit pod nope").stderr == 'Error from server (NotFound): pods "nope" not found\n'
    assert console(snapshot, "edit").stderr.startswith("error: you must provide one or more resources")


def test_get_w_lists_then_marks_the_watch(snapshot: ApiSnapshot) -> None:
    watched = console(snapshot, "get pods -w")
    assert watched.watching and watched.stdout.startswith("NAME") and watched.stderr == ""
    quiet = console(snapshot, "get pods -w -n nowhere")
    assert quiet.watching and quiet.stdout == "" and quiet.stderr == ""  # kubectl waits, says nothing
    refused = console(snapshot, "get pods,nodes -w")
    assert refused.stderr.startswith("error: watch is only supported on individual resources") and not refused.watching
    assert not console(snapshot, "get pods").watching


def test_taint_removal_with_a_value_and_undo_to_a_missing_revision(snapshot: ApiSnapshot) -> None:
    removed = console(snapshot, "taint nodes worker1 gone=yes:NoSchedule-")
    assert removed.stderr == 'error: taint "gone=yes:NoSchedule" not found\n'
    undo = console(snapshot, "rollout undo deployment/web --to-revision=5")
    assert undo.stderr == "error: unable to find specified revision 5 in history\n" and undo.actions == []


def test_describe_of_nothing_says_so_as_kubectl(snapshot: ApiSnapshot) -> None:
    assert console(snapshot, "describe pods -l app=nope").stderr == "No resources found in default namespace.\n"
    assert console(snapshot, "describe pods -A -l app=nope").stderr == "No resources found\n"
    assert console(snapshot, "describe pods -A -l app=tool").stdout.splitlines()[0].split() == ["Name:", "tool"]

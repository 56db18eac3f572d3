"""The console's tab completion: what kubectl's shell completion offers for the word being typed."""

from scheduler_core.kubeapi.objects import ApiSnapshot
from scheduler_core.kubectl.completion import complete


def test_commands_and_subcommands(snapshot: ApiSnapshot) -> None:
    assert complete("", snapshot)[:4] == ["annotate", "api-resources", "apply", "cordon"]
    assert complete("kubectl d", snapshot) == ["delete", "describe", "drain"]
    assert complete("ro", snapshot) == ["rollout"]
    assert complete("rollout ", snapshot) == ["history", "pause", "restart", "resume", "status", "undo"]
    assert complete("kubectl rollout st", snapshot) == ["status"]
    assert complete("set ", snapshot) == ["image", "resources"]
    assert complete("frobnicate ", snapshot) == []


def test_types_then_names_in_the_namespace(snapshot: ApiSnapshot) -> None:
    assert {"pods", "po", "nodes", "no", "deployments", "deploy", "all"} <= set(complete("get ", snapshot))
    assert complete("get dep", snapshot) == ["deploy", "deployments"]
    assert complete("get nodes w", snapshot) == ["worker1", "worker2"]
    pods = complete("describe pods ", snapshot)
    assert len(pods) == 3 and all(name.startswith("web-") for name in pods)  # the default namespace's
    assert complete("get pods -n ops ", snapshot) == ["tool"]
    assert complete("get pods --namespace=ops t", snapshot) == ["tool"]
    assert complete("get pod/", snapshot) == [f"pod/{name}" for name in pods]
    assert complete("get deploy/w", snapshot) == ["deploy/web"]
    assert complete("scale ", snapshot) == ["deployments", "replicasets", "statefulsets"]
    assert complete("kub", snapshot) == ["kubectl"]
    assert complete("taint nodes worker1 ", snapshot) == []
    assert complete("rollout status deployments ", snapshot) == ["web"]
    assert complete("get nosuchtype ", snapshot) == []


def test_nodes_namespaces_formats_and_flags(snapshot: ApiSnapshot) -> None:
    assert complete("cordon ", snapshot) == ["worker1", "worker2"]
    assert complete("drain --ignore-daemonsets worker2", snapshot) == ["worker2"]
    assert complete("taint ", snapshot) == ["node", "nodes"]
    assert complete("taint nodes worker", snapshot) == ["worker1", "worker2"]
    assert complete("get pods -n ", snapshot) == ["default", "kube-node-lease", "kube-public", "kube-system", "ops"]
    assert complete("get pods -o ", snapshot) == ["json", "name", "wide", "yaml"]
    assert complete("drain worker1 --ig", snapshot) == ["--ignore-daemonsets"]
    assert "--all-namespaces" in complete("get pods --", snapshot)
    assert complete('get pods -l "app=', snapshot) == []  # an open quote is no error

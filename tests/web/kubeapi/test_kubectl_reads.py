"""kubectl v1.34 (the real binary) reads a scenario through its kubeconfig: discovery, get with the
server's printing, -o wide/-A/-l/--field-selector, describe with events, errors from the server."""

import json
import re
from pathlib import Path

import pytest

from tests.web.kubeapi.conftest import ApiScenario, kubectl


@pytest.fixture
def api_scenario(read_only_scenario: ApiScenario) -> ApiScenario:
    """These tests only read (or are refused writes): one scenario for the module."""
    return read_only_scenario


def rows(output: str) -> list[list[str]]:
    return [line.split() for line in output.strip().splitlines()]


def test_get_nodes_prints_the_servers_columns(api_scenario: ApiScenario) -> None:
    printed = kubectl(api_scenario.view_kubeconfig, "get", "nodes").stdout
    table = rows(printed)
    assert table[0] == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    by_name = {row[0]: row for row in table[1:]}
    assert sorted(by_name) == ["worker1", "worker2", "worker3"]
    assert by_name["worker1"][1:3] == ["Ready", "<none>"]
    assert by_name["worker3"][1:3] == ["Ready", "infra"]


def test_get_pods_wide_in_every_namespace(api_scenario: ApiScenario) -> None:
    printed = kubectl(api_scenario.view_kubeconfig, "get", "pods", "-o", "wide", "-A").stdout
    table = rows(printed)
    assert table[0][:6] == ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    assert table[0][6:] == ["IP", "NODE", "NOMINATED", "NODE", "READINESS", "GATES"]
    pods = {(row[0], row[1]): row for row in table[1:]}
    agents = [key for key in pods if key[0] == "kube-system"]
    webs = [key for key in pods if key[1].startswith("web-")]
    assert len(agents) == 3 and len(webs) == 3
    toolbox = pods[("default", "toolbox")]
    assert toolbox[2:4] == ["1/1", "Running"]
    assert toolbox[7] == "worker3"  # its nodeSelector's zone
    assert {pods[key][7] for key in agents} == {"worker1", "worker2", "worker3"}


def test_selectors_and_output_formats(api_scenario: ApiScenario) -> None:
    config = api_scenario.view_kubeconfig
    labelled = kubectl(config, "get", "pods", "-l", "app=web", "-o", "name").stdout.split()
    assert len(labelled) == 3 and all(name.startswith("pod/web-") for name in labelled)
    on_worker3 = kubectl(
        config, "get", "pods", "-A", "--field-selector", "spec.nodeName=worker3", "-o", "name"
    ).stdout.split()
    assert "pod/toolbox" in on_worker3 and len(on_worker3) >= 2
    deployment = json.loads(kubectl(config, "get", "deployment", "web", "-o", "json").stdout)
    assert deployment["kind"] == "Deployment" and deployment["spec"]["replicas"] == 3
    assert deployment["status"]["readyReplicas"] == 3
    assert int(deployment["metadata"]["resourceVersion"]) > 0 and deployment["metadata"]["uid"]
    listed = json.loads(kubectl(config, "get", "pods", "-o", "json").stdout)
    assert listed["kind"] == "List" and len(listed["items"]) == 4  # web x3 and toolbox in default


def test_describe_pod_shows_its_events(api_scenario: ApiScenario) -> None:
    printed = kubectl(api_scenario.view_kubeconfig, "describe", "pod", "toolbox").stdout
    assert printed.startswith("Name:")
    assert re.search(r"^Node:\s+worker3/$", printed, re.MULTILINE)  # no host IP: the nodes have no addresses
    assert re.search(r"^Node-Selectors:\s+zone=c$", printed, re.MULTILINE)
    assert "Successfully assigned default/toolbox to worker3" in printed
    assert "default-scheduler" in printed


def test_get_events_lists_the_runs_events(api_scenario: ApiScenario) -> None:
    printed = kubectl(api_scenario.view_kubeconfig, "get", "events", "-A").stdout
    assert rows(printed)[0] == ["NAMESPACE", "LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    assert "Scheduled" in printed and "pod/toolbox" in printed
    assert "ScalingReplicaSet" in printed  # the deployment controller's, in the same list


def test_api_resources_come_from_discovery(api_scenario: ApiScenario) -> None:
    printed = kubectl(api_scenario.view_kubeconfig, "api-resources").stdout
    names = {row[0]: row for row in rows(printed)[1:]}
    assert names["pods"][1] == "po" and names["deployments"][1] == "deploy"
    assert names["poddisruptionbudgets"][2] == "policy/v1"


def test_errors_from_the_server(api_scenario: ApiScenario, tmp_path: Path) -> None:
    missing = kubectl(api_scenario.view_kubeconfig, "get", "pod", "nope", check=False)
    assert missing.returncode == 1
    assert missing.stderr.strip() == 'Error from server (NotFound): pods "nope" not found'
    bad = kubectl(api_scenario.view_kubeconfig, "get", "pods", "--field-selector", "spec.color=red", check=False)
    assert bad.returncode == 1 and "field label not supported: spec.color" in bad.stderr
    stranger = tmp_path / "stranger.kubeconfig"
    stranger.write_text(api_scenario.view_kubeconfig.read_text().replace("kpv_", "kpv_0"))
    refused = kubectl(stranger, "get", "nodes", check=False)
    assert refused.returncode == 1
    assert (
        "error: You must be logged in to the server (the server has asked for the client to provide credentials)"
        in refused.stderr
    )


def test_a_view_token_may_not_write(api_scenario: ApiScenario) -> None:
    config = api_scenario.view_kubeconfig
    refused = kubectl(config, "cordon", "worker1", check=False)  # kubectl cordon exits 0 on this error
    assert (
        'nodes "worker1" is forbidden: User "playground:viewer" cannot patch resource "nodes" in API group "" '
        "at the cluster scope" in refused.stderr
    )
    scale = kubectl(config, "scale", "deployment", "web", "--replicas=2", check=False)
    assert scale.returncode == 1
    assert scale.stderr.strip() == (
        'Error from server (Forbidden): deployments.apps "web" is forbidden: User "playground:viewer" cannot patch '
        'resource "deployments/scale" in API group "apps" in the namespace "default"'
    )
    nodes = kubectl(config, "get", "nodes", "-o", "jsonpath={.items[*].spec.unschedulable}").stdout
    assert "true" not in nodes  # nothing was cordoned


def test_auth_can_i_answers_for_the_token(api_scenario: ApiScenario) -> None:
    view, edit = api_scenario.view_kubeconfig, api_scenario.edit_kubeconfig
    assert kubectl(view, "auth", "can-i", "list", "pods").stdout == "yes\n"
    assert kubectl(view, "auth", "can-i", "watch", "deployments.apps", "-A").stdout == "yes\n"
    refused = kubectl(view, "auth", "can-i", "delete", "pods", check=False)
    assert (refused.returncode, refused.stdout) == (1, "no\n")
    assert kubectl(edit, "auth", "can-i", "delete", "pods").stdout == "yes\n"
    assert kubectl(edit, "auth", "can-i", "create", "deployments").stdout == "yes\n"
    assert kubectl(edit, "auth", "can-i", "get", "/readyz").stdout == "yes\n"
    rules = kubectl(view, "auth", "can-i", "--list").stdout.splitlines()
    assert rules[0].split() == ["Resources", "Non-Resource", "URLs", "Resource", "Names", "Verbs"]
    assert any(line.startswith("*.* ") and line.rstrip().endswith("[get list watch]") for line in rules[1:])
    assert any(
        line.startswith("*.* ") and line.rstrip().endswith("[*]")
        for line in kubectl(edit, "auth", "can-i", "--list").stdout.splitlines()
    )


def test_health_endpoints_answer_as_the_api_servers(api_scenario: ApiScenario) -> None:
    view = api_scenario.view_kubeconfig
    assert kubectl(view, "get", "--raw", "/readyz").stdout == "ok"
    verbose = kubectl(view, "get", "--raw", "/livez?verbose").stdout.splitlines()
    assert verbose[0] == "[+]ping ok" and verbose[-1] == "livez check passed"
    assert kubectl(view, "get", "--raw", "/healthz/etcd").stdout == "ok"
    missing = kubectl(view, "get", "--raw", "/readyz/nope", check=False)
    assert missing.returncode == 1 and "NotFound" in missing.stderr

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from scheduler_core.cli import EXIT_BAD_INPUT, build_parser, main

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parents[2]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def test_explain_json_follows_the_contract():
    status, out, err = run("explain", "-f", str(DATA / "pending_cluster.yaml"), "--pod", "shop/big", "-o", "json")
    assert status == 0, err
    report = json.loads(out)
    assert report["pod"] == "shop/big"
    assert report["selected"] is None
    assert report["message"].startswith("0/5 nodes are available:")
    rejected = {node["name"]: node for node in report["nodes"]}
    assert rejected["worker-1"] == {
        "name": "worker-1",
        "feasible": False,
        "plugin": "NodeResourcesFit",
        "reasons": ["Insufficient cpu"],
    }


def test_explain_json_reports_normalized_scores_and_weighted_total():
    status, out, _ = run(
        "explain", "-f", str(DATA / "seed_node_affinity.yaml"), "--pod", "nginx-node-affinity-test", "-o", "json"
    )
    assert status == 0
    report = json.loads(out)
    assert report["selected"] == "worker2"
    for node in report["nodes"]:
        if node["feasible"]:
            assert all(0 <= score <= 100 for score in node["scores"].values())
            assert node["total"] == sum(score * report["weights"][name] for name, score in node["scores"].items())


def test_explain_table_names_the_winner_and_the_reasons():
    status, out, _ = run("explain", "-f", str(DATA / "seed_node_affinity.yaml"), "--pod", "nginx-node-affinity-test")
    assert status == 0
    assert out.startswith("Pod default/nginx-node-affinity-test would be scheduled to worker2")
    assert "didn't match Pod's node affinity/selector" in out


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
         "    resources: {requests: {cpu: lots}}\n",
         "bad.yaml:7: Pod default/p spec.containers[0].resources.requests.cpu: invalid quantity"),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], nodeSelecter: {a: b}}\n",
         'unknown field "spec.nodeSelecter"'),
        ("a: [unclosed\n", "invalid YAML"),
        ("apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n", 'kind "Widget" is not supported'),
        ("x: &a [1]\ny: *a\n", "aliases"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_document_field_and_line(tmp_path, yaml_text, expected):
    manifest = tmp_path / "bad.yaml"
    manifest.write_text(yaml_text)
    status, _, err = run("explain", "-f", str(manifest), "--pod", "p")
    assert status == EXIT_BAD_INPUT
    assert expected in err
    assert "Traceback" not in err
    assert err.startswith(f"error: {manifest}:")


def test_missing_file_and_bad_arguments_exit_2_without_traceback(tmp_path):
    status, _, err = run("explain", "-f", str(tmp_path / "nope.yaml"), "--pod", "p")
    assert status == EXIT_BAD_INPUT
    assert "no such file" in err
    status, _, err = run("explain", "--pod", "p")
    assert status == EXIT_BAD_INPUT
    assert "Traceback" not in err


def test_module_entry_point_runs_as_a_program():
    manifest = str(DATA / "pending_cluster.yaml")
    completed = subprocess.run(
        [sys.executable, "-m", "scheduler_core", "explain", "--pod", "shop/big", "-f", manifest],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert "stays Pending" in completed.stdout


def test_bench_json_prints_one_entry_per_workload_asked():
    status, out, err = run("bench", "--workload", "SchedulingBasic", "--nodes", "20", "-o", "json")
    assert status == 0, err
    report = json.loads(out)
    assert report["python"]
    (entry,) = report["workloads"]
    assert entry["name"] == "SchedulingBasic"
    assert entry["nodes"] == 20
    assert entry["scheduled"] == entry["measured_pods"]
    assert entry["unschedulable"] == 0
    assert entry["pods_per_second"] > 0


def test_bench_refuses_unknown_workloads():
    status, _, err = run("bench", "--workload", "Nope")
    assert status == EXIT_BAD_INPUT
    assert "unknown workload" in err


def test_explain_table_reports_preemption_of_a_pod_that_does_not_fit():
    status, out, _ = run("explain", "-f", str(DATA / "preemption_cluster.yaml"), "--pod", "latecomer")
    assert status == 0
    assert "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n" in out
    assert "  node-1: ruled out: No preemption victims found for incoming pod\n" in out


# ---------------------------------------------------------------------------- simulate --at-event


def test_simulate_at_an_event_reports_the_cluster_right_after_it():
    status, out, _ = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "--at-event", "1")
    assert status == 0
    report = json.loads(out)
    # Event 1 binds web; huge's FailedScheduling (event 2) and web's start at 1 s come after it.
    assert report["time"] == 0.0 and [event["seq"] for event in report["events"]] == [1]
    assert {pod["name"]: (pod["node"], pod["phase"]) for pod in report["pods"]} == {
        "huge": (None, "Pending"),
        "web": ("worker2", "Pending"),
    }


def test_simulate_at_an_event_in_jsonl_gives_the_events_up_to_it_then_the_state():
    status, out, _ = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "--at-event", "7", "-o", "jsonl")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["seq"] for line in lines[:-1]] == list(range(1, 8))
    state = lines[-1]["state"]
    assert state["time"] == 20.0 and [node["name"] for node in state["nodes"]] == ["big", "worker1", "worker2"]
    huge = next(pod for pod in state["pods"] if pod["name"] == "huge")
    assert (huge["node"], huge["phase"]) == ("big", "Pending")  # scheduled at 20 s, started at 21 s


def test_simulate_at_an_event_past_the_runs_end_or_below_one_exits_2():
    status, _, err = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "--at-event", "11")
    assert status == EXIT_BAD_INPUT and "--at-event 11: the run has 10 events" in err
    status, _, err = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "--at-event", "0")
    assert status == EXIT_BAD_INPUT and "numbered from 1" in err
    status, _, err = run("simulate", "-f", str(DATA / "sim_basic.yaml"), "--at-event", "7", "--until", "15s")
    assert status == EXIT_BAD_INPUT and "the run has 6 events" in err  # the run stops at 15 s, before event 7


def test_simulate_help_describes_at_event(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--help"])
    assert "--at-event N" in capsys.readouterr().out


def test_a_plugin_argument_refused_when_the_scheduler_is_built_names_the_file_and_line(tmp_path: Path):
    config = tmp_path / "ksc.yaml"
    config.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n"
        "- pluginConfig:\n"
        "  - name: NodeResourcesFit\n"
        "    args:\n"
        "      scoringStrategy:\n"
        "        type: FewestPods\n"
    )
    cluster = str(DATA / "pending_cluster.yaml")
    status, _, err = run("explain", "-f", cluster, "--pod", "shop/big", "--config", str(config))
    assert status == EXIT_BAD_INPUT
    assert err.startswith(f"error: {config}:8: KubeSchedulerConfiguration pluginConfig[NodeResourcesFit]")


def test_simulate_keeps_every_raw_event_and_says_which_row_it_counts_on():
    """Issue #16, item 6: the JSON keeps each event as recorded; an event that repeats one before
    it carries the row's count and the seq of the row's first event."""
    scenario = str(DATA / "preemption_nominated_while_victims_terminate.yaml")
    status, out, _ = run("simulate", "-f", scenario, "--until", "2m")
    assert status == 0
    events = json.loads(out)["events"]
    urgent = [e for e in events if e["reason"] == "FailedScheduling" and e["object"].endswith("/urgent")]
    # At 10 s, preempting; at 40 s, twice "not eligible...": a new message starts a new series.
    first, waiting, again = urgent
    assert all("count" not in e and "firstSeq" not in e for e in (first, waiting))
    assert (again["count"], again["firstSeq"]) == (2, waiting["seq"])
    assert again["message"] == waiting["message"] and "shownMessage" not in again
    latecomer = [e for e in events if e["reason"] == "FailedScheduling" and e["object"].endswith("/latecomer")]
    assert [e.get("count", 1) for e in latecomer] == [1, 2, 3, 4]


def test_simulate_lists_the_events_as_kubectl_events_does():
    status, out, _ = run(
        "simulate",
        "-f",
        str(DATA / "preemption_nominated_while_victims_terminate.yaml"),
        "--until",
        "2m",
        "-o",
        "events",
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAMESPACE", "LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    rows = [re.split(r"\s{2,}", line.rstrip()) for line in lines[1:]]
    assert [
        "default",
        "35s",
        "Warning",
        "FailedScheduling",
        "Pod/urgent",
        "0/1 nodes are available: 1 Insufficient cpu.",
    ] in rows
    waiting = "not eligible due to a terminating pod on the nominated node."
    assert any(
        row[1:5] == ["5s (x2 over 5s)", "Warning", "FailedScheduling", "Pod/urgent"] and row[5].endswith(waiting)
        for row in rows
    )
    assert sum("FailedScheduling" in line for line in lines) == 3  # urgent's two messages, latecomer's one


def test_simulate_describes_a_node_as_kubectl_does_at_an_event():
    source = str(DATA / "node_memory_pressure.yaml")
    _, events, _ = run("simulate", "-f", source, "-o", "jsonl")
    evicted = next(json.loads(line) for line in events.splitlines() if '"Evicted"' in line)
    status, out, _ = run("simulate", "-f", source, "--at-event", str(evicted["seq"]), "--describe-node", "worker1")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["Name:", "worker1"]
    condition = next(line.split() for line in lines if line.strip().startswith("MemoryPressure"))
    assert condition[:2] == ["MemoryPressure", "True"] and "KubeletHasInsufficientMemory" in condition
    assert any(line.startswith("Non-terminated Pods:") for line in lines)
    status, _, err = run("simulate", "-f", source, "--describe-node", "nope")
    assert status == EXIT_BAD_INPUT and 'nodes "nope" not found' in err


def test_simulate_describes_a_deployment_as_kubectl_does_at_an_event():
    source = str(DATA / "deploy_rolling_surge1.yaml")
    _, events, _ = run("simulate", "-f", source, "-o", "jsonl")
    scaled = [json.loads(line) for line in events.splitlines() if '"ScalingReplicaSet"' in line]
    middle = next(event for event in scaled if "from 1 to 2" in event["message"])
    status, out, _ = run("simulate", "-f", source, "--at-event", str(middle["seq"]), "--describe-deployment", "web")
    assert status == 0
    lines = out.splitlines()
    assert lines[:2] == ["Name:                   web", "Namespace:              default"]
    assert "RollingUpdateStrategy:  0 max unavailable, 1 max surge" in lines
    old = next(line for line in lines if line.startswith("OldReplicaSets:"))
    new = next(line for line in lines if line.startswith("NewReplicaSet:"))
    assert old.endswith("(2/2 replicas created)") and new.endswith("(1/2 replicas created)")
    at = ("--at-event", str(middle["seq"]))
    status, same, _ = run("simulate", "-f", source, *at, "--describe-deployment", "default/web")
    assert status == 0 and same == out
    status, _, err = run("simulate", "-f", source, "--describe-deployment", "shop/web")
    assert status == EXIT_BAD_INPUT and 'deployments.apps "web" not found' in err
    status, _, err = run("simulate", "-f", source, "--describe-deployment", "web", "--describe-node", "worker1")
    assert status == EXIT_BAD_INPUT and "not allowed with argument" in err


def test_simulate_runs_a_kubectl_command_at_an_event():
    source = str(DATA / "deploy_rolling_surge1.yaml")
    status, out, _ = run("simulate", "-f", source, "--kubectl", "get deployments -o wide")
    assert status == 0
    assert out.splitlines()[0].split()[:5] == ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
    status, out, err = run("simulate", "-f", source, "--kubectl", "kubectl scale deployment web --replicas=5")
    assert (status, out) == (0, "deployment.apps/web scaled\n")
    [action] = list(yaml.safe_load_all(err.split("\n", 1)[1]))
    assert action["spec"]["op"] == "scale" and action["spec"]["replicas"] == 5
    status, _, err = run("simulate", "-f", source, "--kubectl", "get pod nope")
    assert status == 1 and err == 'Error from server (NotFound): pods "nope" not found\n'


def test_simulate_applies_a_file_from_the_disk(tmp_path) -> None:
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec: {containers: [{name: c, image: x}]}\n")
    source = str(DATA / "deploy_rolling_surge1.yaml")
    status, out, err = run("simulate", "-f", source, "--kubectl", f"kubectl apply -f {pod}")
    assert (status, out) == (0, "pod/extra created\n")
    [action] = list(yaml.safe_load_all(err.split("\n", 1)[1]))
    assert action["spec"]["op"] == "apply" and action["spec"]["manifest"]["metadata"]["name"] == "extra"
    status, _, err = run("simulate", "-f", source, "--kubectl", f"apply -f {tmp_path / 'none.yaml'}")
    assert status == 1 and err.endswith('none.yaml" does not exist\n')

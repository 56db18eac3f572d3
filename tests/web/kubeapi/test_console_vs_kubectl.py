"""The page console's kubectl against the real kubectl v1.34, both reading the same scenario at its
settled end: the same lines and words (ages aside, which each counts on its own clock), and the
same error texts."""

import re
from pathlib import Path

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi.objects import ApiSnapshot, base_version, snapshot_of
from scheduler_core.kubectl.console import run
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event
from tests.web.kubeapi.conftest import SCENARIO, ApiScenario, kubectl

AGE = re.compile(r"^(<invalid>|\d+[smhdy](\d+[smhd])?)$")


@pytest.fixture
def api_scenario(read_only_scenario: ApiScenario) -> ApiScenario:
    """These tests only read (or are refused writes): one scenario for the module."""
    return read_only_scenario


@pytest.fixture(scope="module")
def engine_view() -> ApiSnapshot:
    """The scenario simulated here with the server's seed (0): the same objects, names and uids."""
    simulation = Simulation(load_manifests(SCENARIO.split("---\n", 1)[1]))
    journal = [item for item in simulation.stream() if isinstance(item, Change | Event)]
    base = base_version(simulation.cluster.resource_version, journal)
    return snapshot_of(simulation.cluster, journal, base, now=simulation.now)


def words(text: str) -> list[list[str]]:
    return [["AGE" if AGE.match(word) else word for word in line.split()] for line in text.splitlines()]


COMMANDS = [
    "get nodes",
    "get nodes -o wide",
    "get pods -o wide -A",
    "get deployments -o wide",
    "get pods,deploy",
    "get pods --show-labels",
    "get ds -A",
    "get pdb",
    "get rs -l app=web",
    "get pods -A --field-selector spec.nodeName=worker3",
    "events",
    "events -A",
    "events -A --types=Normal",
    "get events -A",
]
EXACT = [
    "get nodes worker1 -o name",
    "get deploy -o name",
    "get pods -A -o name",
    "get pod nope",
    "get pods -n nope",
    "get widgets",
    "get pods --foo",
    "get pods -x",
    "get pods --field-selector spec.color=red",
    "taint node worker1 key:value:effect",
    "rollout status deployment/web",
    "rollout history deployment/web",
    "rollout resume deployment/web",
    "rollout foo deployment/web",
    "events --types=Warning",
    "events -n nope",
    "set foo deployment/web",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_tables_match(api_scenario: ApiScenario, engine_view: ApiSnapshot, command: str) -> None:
    real = kubectl(api_scenario.view_kubeconfig, *command.split())
    ours = run(command, engine_view, may_write=False)
    assert words(ours.stdout) == words(real.stdout)
    assert ours.stderr == real.stderr


@pytest.mark.parametrize("command", EXACT)
def test_names_and_errors_match_exactly(api_scenario: ApiScenario, engine_view: ApiSnapshot, command: str) -> None:
    real = kubectl(api_scenario.view_kubeconfig, *command.split(), check=False)
    ours = run(command, engine_view, may_write=False)
    assert (ours.stdout, ours.stderr) == (real.stdout, real.stderr)


def test_refusals_match(api_scenario: ApiScenario, engine_view: ApiSnapshot, tmp_path: Path) -> None:
    real = kubectl(api_scenario.view_kubeconfig, "scale", "deployment", "web", "--replicas=2", check=False)
    ours = run("scale deployment web --replicas=2", engine_view, may_write=False)
    assert ours.stderr == real.stderr and ours.actions == []


@pytest.mark.parametrize(
    "flags", [(), ("--ignore-daemonsets",), ("--ignore-daemonsets", "--force")], ids=["bare", "ds", "force"]
)
def test_drains_refusals_and_warnings_match(api_scenario: ApiScenario, engine_view: ApiSnapshot, flags) -> None:
    """kubectl's filters against the same pods: its --dry-run=client prints what it would refuse."""
    real = kubectl(api_scenario.view_kubeconfig, "drain", "worker3", "--dry-run=client", *flags, check=False)
    ours = run(" ".join(("drain", "worker3", *flags)), engine_view, may_write=True)
    assert ours.stdout.splitlines()[0] + " (dry run)" == real.stdout.splitlines()[0]
    if "--force" in flags:
        evicting = [line.removesuffix(" (dry run)") for line in real.stdout.splitlines() if line.startswith("evicting")]
        assert ours.stdout.splitlines()[1:] == evicting and ours.watching
    else:
        assert refusal(ours.stderr) == refusal(real.stderr)


def refusal(stderr: str) -> tuple[str, list[str], list[str]]:
    """kubectl's drain refusal with its errors in no order: kubectl gathers them from a Go map, so
    two runs of the binary print them in either order. (Its first line, its two next lines, its
    errors; each error is also in the first line, whose length is kept.)"""
    lines = stderr.splitlines()
    errors = sorted(lines[3:])
    assert all(error in lines[0] for error in errors)
    return f"{lines[0][:60]}…{len(lines[0])}", lines[1:3], errors

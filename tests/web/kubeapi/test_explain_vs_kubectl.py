"""The page console's `kubectl explain` against the real kubectl v1.34 reading this API's
/openapi/v3: the same text, byte for byte (tabs, wrapping, blank lines), and the same errors."""

import pytest

from scheduler_core.api.manifests import load_manifests
from scheduler_core.kubeapi.objects import ApiSnapshot, base_version, snapshot_of
from scheduler_core.kubectl.console import run
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Change
from scheduler_core.store.events import Event
from tests.servers import DaphneServer
from tests.web.kubeapi.conftest import SCENARIO, ApiScenario, kubectl, new_api_scenario

COMMANDS = [
    "explain pods",
    "explain pods.spec.tolerations",
    "explain deployment.spec.strategy --recursive",
    "explain nodes.spec.taints",
    "explain pods.spec --recursive",
    "explain deployments.apps.spec.template.spec.containers.resources",
    "explain hpa.spec.behavior",
    "explain cronjob.spec.jobTemplate --recursive",
    "explain svc.spec.ports.targetPort",
    "explain pvc.spec.resources",
    "explain ingress.spec.rules.http.paths --recursive",
    "explain pc",
    "explain sts.spec.volumeClaimTemplates.spec --api-version=apps/v1",
    "explain pods.spec.foo",
    "explain pods.metadata.labels.x",
    "explain widgets",
    "explain deployment --api-version=apps/v2",
    "explain deployment --api-version=v1",
    "explain pods -o yaml",
    "explain pods.spec.containers[0]",
    "explain",
]


@pytest.fixture(scope="module")
def scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> ApiScenario:
    """One scenario for every command: explain reads no objects, and kubectl's cache goes on."""
    return new_api_scenario(api_server, tmp_path_factory.mktemp("explain"))


@pytest.fixture(scope="module")
def engine_view() -> ApiSnapshot:
    simulation = Simulation(load_manifests(SCENARIO.split("---\n", 1)[1]))
    journal = [item for item in simulation.stream() if isinstance(item, Change | Event)]
    base = base_version(simulation.cluster.resource_version, journal)
    return snapshot_of(simulation.cluster, journal, base, now=simulation.now)


@pytest.mark.parametrize("command", COMMANDS)
def test_explain_matches_kubectl_exactly(scenario: ApiScenario, engine_view: ApiSnapshot, command: str) -> None:
    real = kubectl(scenario.view_kubeconfig, *command.split(), check=False)
    ours = run(command, engine_view, may_write=False)
    assert ours.stdout == real.stdout
    assert ours.stderr == real.stderr
    assert (real.returncode == 0) == (not ours.stderr)

"""A real Daphne serving the app on its own SQLite file, a scenario in it, and kubeconfigs for it:
the clients (kubectl, the Python client) talk to it as to a cluster."""

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers import ROOT, DaphneServer, HttpClient, create_scenario, manage, server_environment

KUBECTL = ROOT / ".venv" / "bin" / "kubectl"

# Seed 003's drain story, small: three workers, a Deployment of three behind a PodDisruptionBudget
# that allows one disruption, a DaemonSet, and a pod with no controller.
SCENARIO = """\
apiVersion: playground/v1
kind: Scenario
title: "kubectl against the playground"
---
apiVersion: v1
kind: Node
metadata: {name: worker1, labels: {kubernetes.io/hostname: worker1, zone: a}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker2, labels: {kubernetes.io/hostname: worker2, zone: b}}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker3, labels: {kubernetes.io/hostname: worker3, zone: c, node-role.kubernetes.io/infra: ""}}
status: {capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources: {requests: {cpu: 500m, memory: 256Mi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      containers:
      - {name: agent, image: agent:1.0, resources: {requests: {cpu: 100m, memory: 64Mi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: toolbox, labels: {app: toolbox}}
spec:
  nodeSelector: {zone: c}
  containers:
  - {name: shell, image: busybox, resources: {requests: {cpu: 100m}}}
"""


@dataclass(frozen=True, slots=True)
class ApiScenario:
    server: DaphneServer
    slug: str
    view_kubeconfig: Path
    edit_kubeconfig: Path


@pytest.fixture(scope="session")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaphneServer]:
    env = server_environment(tmp_path_factory.mktemp("kubeapi-var"), RATE_LIMITS="0")
    manage(env, "migrate", "--noinput")
    server = DaphneServer(env)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def new_api_scenario(server: DaphneServer, folder: Path, text: str = SCENARIO) -> ApiScenario:
    """A scenario in the server's database and a kubeconfig of each access for it."""
    links = create_scenario(server.env, text)
    viewer, editor = HttpClient(server.url), HttpClient(server.url)
    editor.get(links["edit"])  # the edit link: this client's session has edit rights
    view_file, edit_file = folder / "view.kubeconfig", folder / "edit.kubeconfig"
    view_file.write_text(viewer.get(f"/s/{links['slug']}/kubeconfig"))
    edit_file.write_text(editor.get(f"/s/{links['slug']}/kubeconfig"))
    return ApiScenario(server, links["slug"], view_file, edit_file)


@pytest.fixture
def api_scenario(api_server: DaphneServer, tmp_path: Path) -> ApiScenario:
    return new_api_scenario(api_server, tmp_path)


@pytest.fixture(scope="module")
def read_only_scenario(api_server: DaphneServer, tmp_path_factory: pytest.TempPathFactory) -> ApiScenario:
    """One scenario for a module whose tests only read it (or are refused a write): made once (a
    manage.py process), and kubectl's discovery cache, beside its kubeconfigs, shared by them."""
    return new_api_scenario(api_server, tmp_path_factory.mktemp("read-only"))


def kubectl(kubeconfig: Path, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real kubectl binary with only this kubeconfig (no cache shared between tests)."""
    assert KUBECTL.exists(), "kubectl is missing: `make .venv/bin/kubectl` installs it"
    cache = kubeconfig.parent / "kube-cache"
    command = [str(KUBECTL), "--kubeconfig", str(kubeconfig), "--cache-dir", str(cache), *args]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"HOME": str(kubeconfig.parent), "PATH": "/usr/bin:/bin"},
    )
    if check and done.returncode != 0:
        raise AssertionError(f"kubectl {' '.join(args)} failed ({done.returncode}):\n{done.stderr}\n{done.stdout}")
    return done

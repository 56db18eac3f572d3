"""The API's clock on a scenario's runs: a watch follows writes made after it opened, a write an
hour and more after the first read still happens, and a write the engine cannot simulate past is
taken back and refused."""

import sqlite3
import threading
import time
from pathlib import Path

from kubernetes import client, config, watch

from tests.web.kubeapi.conftest import ApiScenario, kubectl


def test_a_watch_sees_a_write_made_after_it_opened(api_scenario: ApiScenario) -> None:
    seen: list[tuple[str, str]] = []
    with config.new_client_from_config(config_file=str(api_scenario.edit_kubeconfig)) as api:
        core = client.CoreV1Api(api)
        listed = core.list_namespaced_pod("default", label_selector="app=web")
        version = listed.metadata.resource_version

        def follow() -> None:
            stream = watch.Watch().stream(
                core.list_namespaced_pod,
                "default",
                label_selector="app=web",
                resource_version=version,
                timeout_seconds=20,
            )
            for event in stream:
                seen.append((event["type"], event["object"].metadata.name))
                if sum(kind == "ADDED" for kind, _ in seen) >= 2:
                    break

        follower = threading.Thread(target=follow)
        follower.start()
        time.sleep(1)
        kubectl(api_scenario.edit_kubeconfig, "scale", "deployment", "web", "--replicas=5")
        follower.join(timeout=30)
    added = [name for kind, name in seen if kind == "ADDED"]
    assert len(added) == 2 and all(name.startswith("web-") for name in added)
    assert not {name for name in added} & {pod.metadata.name for pod in listed.items}


def test_a_write_past_the_runs_first_hour_still_happens(api_scenario: ApiScenario) -> None:
    kubectl(api_scenario.view_kubeconfig, "get", "nodes")  # the API's clock starts on the run
    database = Path(api_scenario.server.env["SQLITE_PATH"])
    with sqlite3.connect(database) as connection:  # as if the kubeconfig were used two hours later
        connection.execute(
            "UPDATE playground_run SET api_clock_wall = api_clock_wall - 7200 WHERE api_clock_wall IS NOT NULL"
        )
    kubectl(api_scenario.edit_kubeconfig, "label", "node", "worker2", "later=yes")
    labels = kubectl(
        api_scenario.view_kubeconfig, "get", "node", "worker2", "-o", "jsonpath={.metadata.labels.later}"
    ).stdout
    assert labels == "yes"


def test_a_write_the_engine_cannot_simulate_past_is_taken_back(api_scenario: ApiScenario) -> None:
    refused = kubectl(api_scenario.edit_kubeconfig, "scale", "deployment", "web", "--replicas=30000", check=False)
    assert refused.returncode == 1
    assert "could not be simulated past this write" in refused.stderr and "was not kept" in refused.stderr
    ready = kubectl(api_scenario.view_kubeconfig, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}").stdout
    assert ready == "3"
    assert kubectl(api_scenario.edit_kubeconfig, "scale", "deployment", "web", "--replicas=4").returncode == 0

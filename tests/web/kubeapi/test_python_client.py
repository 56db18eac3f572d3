"""The official Python client (`kubernetes` on PyPI) against a scenario: list, watch, create,
patch, and a view token refused every write with 403."""

import json

import pytest
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

from tests.web.kubeapi.conftest import ApiScenario


def api_client(kubeconfig) -> client.ApiClient:
    return config.new_client_from_config(config_file=str(kubeconfig))


def test_list_watch_create_and_patch(api_scenario: ApiScenario) -> None:
    with api_client(api_scenario.edit_kubeconfig) as api:
        core = client.CoreV1Api(api)
        pods = core.list_pod_for_all_namespaces()
        assert len(pods.items) == 7 and pods.metadata.resource_version
        assert {pod.spec.node_name for pod in pods.items} == {"worker1", "worker2", "worker3"}
        nodes = core.list_node(label_selector="zone in (a,b)")
        assert sorted(node.metadata.name for node in nodes.items) == ["worker1", "worker2"]

        patched = core.patch_node("worker1", {"metadata": {"labels": {"disk": "ssd"}}})
        assert patched.metadata.labels["disk"] == "ssd"
        assert core.read_node("worker1").metadata.labels["disk"] == "ssd"

        pod = client.V1Pod(
            metadata=client.V1ObjectMeta(name="batch-1", labels={"app": "batch"}),
            spec=client.V1PodSpec(containers=[client.V1Container(name="main", image="busybox")]),
        )
        created = core.create_namespaced_pod("default", pod)
        assert created.metadata.name == "batch-1" and created.metadata.uid

        seen = []
        for event in watch.Watch().stream(
            core.list_namespaced_pod, "default", label_selector="app=batch", timeout_seconds=3
        ):
            seen.append((event["type"], event["object"].metadata.name, event["object"].status.phase))
        assert seen and seen[0][:2] == ("ADDED", "batch-1")
        apps = client.AppsV1Api(api)
        scaled = apps.patch_namespaced_deployment_scale("web", "default", {"spec": {"replicas": 1}})
        assert scaled.spec.replicas == 1


def test_a_view_token_is_refused_every_write(api_scenario: ApiScenario) -> None:
    with api_client(api_scenario.view_kubeconfig) as api:
        core = client.CoreV1Api(api)
        assert core.list_namespaced_pod("default").items
        writes = [
            lambda: core.patch_node("worker1", {"spec": {"unschedulable": True}}),
            lambda: core.delete_namespaced_pod("toolbox", "default"),
            lambda: core.create_namespaced_pod("default", client.V1Pod(metadata=client.V1ObjectMeta(name="x"))),
            lambda: core.replace_node("worker1", core.read_node("worker1")),
        ]
        for write in writes:
            with pytest.raises(ApiException) as refused:
                write()
            assert refused.value.status == 403
            assert '"reason":"Forbidden"' in refused.value.body


def test_a_watch_list_sends_the_initial_objects_then_its_bookmark(api_scenario: ApiScenario) -> None:
    with api_client(api_scenario.view_kubeconfig) as api:
        core = client.CoreV1Api(api)
        streamed = core.list_node(
            watch=True,
            send_initial_events=True,
            resource_version_match="NotOlderThan",
            allow_watch_bookmarks=True,
            timeout_seconds=2,
            _preload_content=False,
        )
        events = [json.loads(line) for line in streamed.read().decode().splitlines() if line]
        added = [event["object"]["metadata"]["name"] for event in events if event["type"] == "ADDED"]
        assert added == ["worker1", "worker2", "worker3"]
        end = events[len(added)]
        assert end["type"] == "BOOKMARK"
        assert end["object"]["metadata"]["annotations"] == {"k8s.io/initial-events-end": "true"}
        with pytest.raises(ApiException) as refused:
            core.list_node(watch=True, send_initial_events=True, timeout_seconds=1)
        assert refused.value.status == 422
        assert "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan" in refused.value.body

"""ServiceAccount admission: `default` for a pod that names no account, and the projected token
volume mounted in every container, named repeatably from the run's seed; plus the other defaults
a created pod gets (SetDefaults_Pod, the Priority plugin's preemptionPolicy)."""

import random

from scheduler_core.admission.chain import install
from scheduler_core.admission.service_account import (
    TOKEN_MOUNT_PATH,
    TOKEN_VOLUME_SOURCE,
    admit_service_account,
    token_volume_source,
)
from scheduler_core.api.generated_names import ALPHANUMS, seeded_suffix
from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.object_manifest import object_manifest
from scheduler_core.api.types import Container, ObjectMeta, Pod, PodSpec
from scheduler_core.simulation.simulation import Simulation
from scheduler_core.store.cluster import Cluster
from tests.core.admission.helpers import admitted

POD = "apiVersion: v1\nkind: Pod\nmetadata: {{name: web}}\nspec: {spec}"


def pod_with(spec: str) -> Pod:
    created = admitted(POD.format(spec=spec))
    assert isinstance(created, Pod)
    return created


def mounts(container: Container) -> list[tuple[str, str, bool]]:
    return [(m.name, m.mount_path, m.read_only) for m in container.details.volume_mounts]


def test_a_pod_naming_no_account_gets_default_and_the_token_in_every_container() -> None:
    pod = pod_with("{initContainers: [{name: init}], containers: [{name: a}, {name: b}]}")
    assert pod.spec.details.service_account_name == "default"
    (volume,) = pod.spec.volumes
    assert volume.name == "kube-api-access-" + seeded_suffix(0, "default", "web")
    assert volume.source == token_volume_source()
    for container in (*pod.spec.init_containers, *pod.spec.containers):
        assert mounts(container) == [(volume.name, TOKEN_MOUNT_PATH, True)]


def test_the_token_volume_as_the_api_shows_it() -> None:
    manifest = object_manifest(pod_with("{containers: [{name: a}]}"))
    (volume,) = manifest["spec"]["volumes"]
    assert volume == {
        "name": volume["name"],
        "projected": {
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {
                    "downwardAPI": {
                        "items": [
                            {"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}
                        ]
                    }
                },
            ],
            "defaultMode": 420,
        },
    }
    assert manifest["spec"]["serviceAccountName"] == manifest["spec"]["serviceAccount"] == "default"


def test_a_named_account_is_kept_and_its_own_mounts_come_first() -> None:
    pod = pod_with(
        "{serviceAccountName: builder, volumes: [{name: data}],"
        " containers: [{name: a, volumeMounts: [{name: data, mountPath: /data}]}]}"
    )
    assert pod.spec.details.service_account_name == "builder"
    data, token = pod.spec.volumes
    assert data.name == "data" and token.name.startswith("kube-api-access-")
    assert mounts(pod.spec.containers[0]) == [("data", "/data", False), (token.name, TOKEN_MOUNT_PATH, True)]


def test_no_token_when_the_pod_turns_automounting_off() -> None:
    pod = pod_with("{automountServiceAccountToken: false, containers: [{name: a}]}")
    assert pod.spec.details.service_account_name == "default"
    assert pod.spec.volumes == () and mounts(pod.spec.containers[0]) == []


def test_a_container_with_something_at_the_path_keeps_it_and_a_pasted_token_volume_is_reused() -> None:
    pod = pod_with(
        "{volumes: [{name: kube-api-access-abcde, projected: {sources: []}}, {name: own}],"
        " containers: [{name: a, volumeMounts: [{name: own, mountPath: " + TOKEN_MOUNT_PATH + "}]}, {name: b}]}"
    )
    assert [volume.name for volume in pod.spec.volumes] == ["kube-api-access-abcde", "own"]
    assert mounts(pod.spec.containers[0]) == [("own", TOKEN_MOUNT_PATH, False)]
    assert mounts(pod.spec.containers[1]) == [("kube-api-access-abcde", TOKEN_MOUNT_PATH, True)]


def test_no_volume_when_every_container_has_its_own_mount_there() -> None:
    pod = pod_with(
        "{volumes: [{name: own}],"
        " containers: [{name: a, volumeMounts: [{name: own, mountPath: " + TOKEN_MOUNT_PATH + "}]}]}"
    )
    assert [volume.name for volume in pod.spec.volumes] == ["own"]


def test_a_mirror_pod_is_left_alone() -> None:
    mirror = Pod(
        ObjectMeta("static", "default", annotations={"kubernetes.io/config.mirror": "x"}),
        PodSpec(containers=(Container("a"),)),
    )
    assert admit_service_account(mirror, 0) is mirror


def test_the_suffix_is_the_seeds_and_the_pods_and_takes_no_draw() -> None:
    suffix = seeded_suffix(7, "default", "web")
    assert len(suffix) == 5 and set(suffix) <= set(ALPHANUMS)
    assert seeded_suffix(7, "default", "web") == suffix
    assert seeded_suffix(8, "default", "web") != suffix and seeded_suffix(7, "default", "web2") != suffix
    pod = Pod(ObjectMeta("web", "default"), PodSpec(containers=(Container("a"),)))
    assert admit_service_account(pod, 7).spec.volumes[0].name == f"kube-api-access-{suffix}"


SCENARIO = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.27"}]}
"""


def tokens(seed: int) -> dict[str, str]:
    simulation = Simulation(load_manifests(SCENARIO), seed=seed)
    simulation.run_to_end(60)
    return {pod.name: pod.spec.volumes[0].name for pod in simulation.cluster.objects(Pod)}


def test_a_run_names_the_same_volumes_every_time_and_the_seed_changes_them() -> None:
    first = tokens(0)
    assert len(first) == 3 and tokens(0) == first
    assert len(set(first.values())) == 3  # each pod its own
    assert set(tokens(1).values()).isdisjoint(first.values())


def test_the_install_seed_reaches_the_plugin() -> None:
    cluster = Cluster(lambda: 0.0, random.Random(0))
    install(cluster, seed=42)
    created = cluster.create(Pod(ObjectMeta("p", "default"), PodSpec(containers=(Container("a"),))))
    assert created.spec.volumes[0].name == "kube-api-access-" + seeded_suffix(42, "default", "p")


def test_the_token_source_is_shared_and_written_as_a_copy() -> None:
    pod = pod_with("{containers: [{name: a}]}")
    assert pod.spec.volumes[0].source is TOKEN_VOLUME_SOURCE
    object_manifest(pod)["spec"]["volumes"][0]["projected"]["defaultMode"] = 0
    assert TOKEN_VOLUME_SOURCE["projected"]["defaultMode"] == 420


# ---------------------------------------------------------------------------- the other pod defaults


def test_a_created_pod_gets_set_defaults_pod_and_the_priority_plugins_policy() -> None:
    pod = pod_with("{hostNetwork: true, containers: [{name: a, ports: [{containerPort: 80}]}]}")
    assert pod.spec.details.enable_service_links is True
    assert pod.spec.containers[0].ports[0].host_port == 80
    assert (pod.spec.priority, pod.spec.preemption_policy) == (0, "PreemptLowerPriority")


def test_a_controllers_pod_gets_them_at_creation() -> None:
    """A controller builds its pods from the template, which SetDefaults_Pod leaves alone."""
    simulation = Simulation(load_manifests(SCENARIO))
    simulation.run_to_end(10)
    pod = simulation.cluster.objects(Pod)[0]
    spec = object_manifest(pod)["spec"]
    assert (spec["enableServiceLinks"], spec["serviceAccountName"], spec["preemptionPolicy"]) == (
        True,
        "default",
        "PreemptLowerPriority",
    )


def test_a_declared_policy_and_priority_are_kept_without_a_class() -> None:
    pod = pod_with("{priority: 5, preemptionPolicy: Never, enableServiceLinks: false, containers: [{name: a}]}")
    assert (pod.spec.priority, pod.spec.preemption_policy) == (5, "Never")
    assert pod.spec.details.enable_service_links is False


def test_pods_of_one_template_share_their_details() -> None:
    """Pod details a template declares none of stay one object for all its pods (memory at 50,000
    pods); each pod has its own containers, for its own token's mount."""
    simulation = Simulation(load_manifests(SCENARIO))
    simulation.run_to_end(10)
    pods = simulation.cluster.objects(Pod)
    assert len(pods) == 3 and len({id(pod.spec.details) for pod in pods}) == 1
    assert [mounts(pod.spec.containers[0])[0][0] for pod in pods] == [pod.spec.volumes[0].name for pod in pods]

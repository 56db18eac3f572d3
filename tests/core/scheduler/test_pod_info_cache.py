"""PodInfos kept across snapshots of the same pods (a kept run's explanations) give the same
explanations as PodInfos computed afresh, and are computed once per pod object."""

from dataclasses import replace
from pathlib import Path

from scheduler_core.api.manifests import load_manifests
from scheduler_core.api.types import Pod
from scheduler_core.explain.explain import explain_in_cluster
from scheduler_core.scheduler.snapshot import PodInfo, PodInfoCache
from scheduler_core.simulation.simulation import Simulation

DATA = Path(__file__).parents[1] / "data"


def finished_cluster(name: str):
    simulation = Simulation(load_manifests((DATA / name).read_text()), seed=0)
    simulation.run_to_end()
    return simulation.cluster


def test_a_pod_object_gets_its_info_once_and_a_changed_pod_a_new_one():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pod = next(p for p in cluster.objects(Pod) if p.spec.node_name)
    cache = PodInfoCache()
    first = cache.info(pod)
    assert cache.info(pod) is first and first.pod is pod
    relabelled = replace(pod, metadata=replace(pod.metadata, labels={**pod.metadata.labels, "x": "y"}))
    assert cache.info(relabelled) is not first and cache.info(relabelled).pod is relabelled
    assert len(cache) == 2


def test_past_its_limit_the_cache_starts_again():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pods = cluster.objects(Pod)[:3]
    cache = PodInfoCache(limit=2)
    for pod in pods:
        cache.info(pod)
    assert len(cache) == 1  # emptied at the third, which it then holds
    assert isinstance(cache.info(pods[2]), PodInfo) and len(cache) == 1


def test_past_its_limit_of_pod_versions_the_cache_keeps_what_it_computed_per_spec():
    # Explanations at many frames of a run add versions of the same pods (status changes): those
    # are let go, the infos computed from each spec stay to be copied.
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pod = next(p for p in cluster.objects(Pod) if p.spec.affinity and p.spec.affinity.pod_anti_affinity)
    cache = PodInfoCache(limit=3)
    first = cache.info(pod)
    versions = [replace(pod, status=replace(pod.status, start_time=float(n))) for n in range(4)]
    infos = [cache.info(version) for version in versions]
    assert len(cache) == 2  # emptied of versions at the third, which it then holds with the fourth
    assert all(info.required_anti_affinity_terms is first.required_anti_affinity_terms for info in infos)


def test_explanations_with_kept_infos_are_those_computed_afresh():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    cache = PodInfoCache()
    for pod in cluster.objects(Pod):
        fresh = explain_in_cluster(cluster, pod.key)
        kept = explain_in_cluster(cluster, pod.key, pod_infos=cache)
        again = explain_in_cluster(cluster, pod.key, pod_infos=cache)
        assert fresh == kept == again
    bound = [pod for pod in cluster.objects(Pod) if pod.spec.node_name]
    assert bound and len(cache) == len(bound)  # each bound pod's info computed once, then reused


def test_a_version_that_differs_in_status_only_shares_what_was_computed():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pod = next(p for p in cluster.objects(Pod) if p.spec.affinity and p.spec.affinity.pod_anti_affinity)
    cache = PodInfoCache()
    first = cache.info(pod)
    restarted = replace(pod, status=replace(pod.status, phase="Pending"))  # the same spec object
    info = cache.info(restarted)
    assert info is not first and info.pod is restarted
    assert info.required_anti_affinity_terms is first.required_anti_affinity_terms
    assert info.requests is first.requests
    other_namespace = replace(pod, metadata=replace(pod.metadata, namespace="elsewhere"))
    moved = cache.info(other_namespace)
    assert moved.required_anti_affinity_terms != first.required_anti_affinity_terms  # computed for its namespace
    assert moved.required_anti_affinity_terms == PodInfo(other_namespace).required_anti_affinity_terms


def test_a_copy_for_another_version_carries_every_field():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pod = next(p for p in cluster.objects(Pod) if p.spec.affinity and p.spec.affinity.pod_anti_affinity)
    info = PodInfo(pod)
    later = replace(pod, status=replace(pod.status, phase="Running"))
    copy = info.for_pod(later)
    assert copy.pod is later
    assert all(getattr(copy, name) == getattr(info, name) for name in PodInfo.__slots__ if name != "pod")


def test_pods_kept_ahead_do_not_count_against_the_limit():
    cluster = finished_cluster("suggest_anti_affinity.yaml")
    pods = cluster.objects(Pod)[:3]
    cache = PodInfoCache(limit=1)
    cache.keep(pods)
    kept = [cache.info(pod) for pod in pods]
    assert len(cache) == 3 and [cache.info(pod) for pod in pods] == kept
    cache.info(replace(pods[0], status=replace(pods[0].status, start_time=1.0)))
    assert len(cache) == 4  # one more than kept: the limit of one is reached, nothing let go yet

"""Creating objects through a simulated API server's admission chain."""

import random
from typing import Any

from scheduler_core.admission.chain import install
from scheduler_core.api.manifests import load_manifests
from scheduler_core.store.cluster import Cluster


def api_server(existing: str = "", now: float = 0.0) -> Cluster:
    """A store with the default admission chain and the given objects already in it."""
    cluster = Cluster(lambda: now, random.Random(0))
    install(cluster)
    for manifest in load_manifests(existing) if existing.strip() else []:
        cluster.create(manifest.object)
    return cluster


def admitted(document: str, existing: str = "") -> Any:
    """The object as the API server stores it (raises AdmissionError when it is refused)."""
    cluster = api_server(existing)
    (manifest,) = load_manifests(document)
    return cluster.create(manifest.object)

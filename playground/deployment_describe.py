"""`kubectl describe deployment` for a Deployment's card in the rollout view (issue #16, item 7), at
the player's event of a run: the run's store right after that frame and its simulated time
(describe_at.py hands them to in_store)."""

from typing import Any

from scheduler_core.api.workloads import Deployment
from scheduler_core.explain.describe_deployment import DeploymentDescription, describe_deployment
from scheduler_core.store.cluster import Cluster

DEFAULT_NAMESPACE = "default"


def in_store(cluster: Cluster, time: float, key: str) -> DeploymentDescription | None:
    """The Deployment `namespace/name` as the store holds it at `time`; None when it does not exist there."""
    deployment: Deployment | None = cluster.get(Deployment, key)
    return describe_deployment(cluster, deployment, time) if deployment is not None else None


def context(description: DeploymentDescription | None, *, key: str, seq: int) -> dict[str, Any]:
    """describe_deployment.html's context: the description, or which Deployment is missing at which
    event; the command as one would type it (-n only outside the default namespace)."""
    namespace, _, name = key.partition("/")
    command = f"kubectl describe deployment {name}"
    if namespace != DEFAULT_NAMESPACE:
        command += f" -n {namespace}"
    return {
        "describe": description,
        "describe_name": name,
        "describe_key": key,
        "describe_command": command,
        "describe_seq": seq,
        "describe_run": True,
    }

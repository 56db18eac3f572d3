"""Scenarios too big to build through the page: generated in the gallery's file format, then
loaded into the test server with `manage.py create_scenario`."""

from tests.manifests import deployment_yaml


def wide_deployment(nodes: int, replicas: int, zones: int = 4) -> str:
    """`nodes` nodes of 16 CPUs over `zones` zones, and one Deployment of `replicas` small pods."""
    documents = [
        "apiVersion: playground/v1\nkind: Scenario\n"
        f'title: "{replicas} pods on {nodes} nodes"\ndescription: "One wide Deployment."\n'
    ]
    for index in range(nodes):
        name = f"node{index:03d}"
        documents.append(
            "apiVersion: v1\nkind: Node\n"
            f"metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, "
            f"topology.kubernetes.io/zone: zone-{index % zones}}}}}\n"
            'status: {capacity: {cpu: "16", memory: 64Gi, pods: "110"}}\n'
        )
    documents.append(deployment_yaml(replicas, requests="{cpu: 100m, memory: 128Mi}"))
    return "---\n".join(documents)

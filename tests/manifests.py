"""Manifests that several test modules build."""


def deployment_yaml(replicas: int, name: str = "web", requests: str = "{cpu: 100m}") -> str:
    """One Deployment of `replicas` nginx pods, each requesting `requests` (a YAML flow mapping)."""
    return (
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n"
        f"  replicas: {replicas}\n  selector: {{matchLabels: {{app: {name}}}}}\n"
        f"  template:\n    metadata: {{labels: {{app: {name}}}}}\n"
        f"    spec: {{containers: [{{name: c, image: nginx, resources: {{requests: {requests}}}}}]}}\n"
    )

"""A Kubernetes API over a simulated cluster: what kubectl and client libraries talk to (issue #17)."""

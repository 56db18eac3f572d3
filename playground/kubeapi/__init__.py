"""The Kubernetes API of a scenario (issue #17): kubectl and client libraries talk to the run the
scenario's current version has, through scheduler_core.kubeapi; this package is the web's part of
it (tokens, which run is served, HTTP)."""

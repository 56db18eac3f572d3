"""A faithful, framework-free re-implementation of kube-scheduler and the controllers around it.

This package never imports Django, Channels or Daphne: the web app is a shell around it.
"""

KUBERNETES_RELEASE = "v1.34"
"""The upstream release whose behaviour (verdicts, scores, messages, defaults) this engine follows."""

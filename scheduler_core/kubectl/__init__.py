"""kubectl in the engine (issue #17, item 1): commands typed in the page's console, read and written
through the engine's Kubernetes API (scheduler_core.kubeapi), printed as kubectl v1.34 prints them."""

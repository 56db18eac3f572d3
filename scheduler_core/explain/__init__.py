"""Questions asked of a cluster: why a pod is placed or pending, preemption, fixes, comparisons, traffic."""

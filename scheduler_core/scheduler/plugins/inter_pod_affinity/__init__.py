"""InterPodAffinity as upstream lays it out (pkg/scheduler/framework/plugins/interpodaffinity):
the plugin, its filtering and scoring states, the counts they share, the pod's terms."""
